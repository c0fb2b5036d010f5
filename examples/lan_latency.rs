//! LAN play measurements on loopback with the protocol's real timers (docs/BENCHMARKS.md):
//!
//! 1. move latency: `send -> ack` as the app sees it (command in, `Acked` event out), p50 and
//!    p99 over N moves (default 1000), paced at 40 moves a second to stay under the flood
//!    limit (50 lines a second per peer, heartbeats included);
//! 2. silent peer -> "connection lost" (goal <= 5 s);
//! 3. restarted host -> game resumed on the guest (goal <= 3 s);
//! 4. idle CPU of both endpoints (one process) while connected, over 30 s (goal < 1 %).
//!
//! Run: `cargo run --release --example lan_latency -- [MOVES]`. Only 127.0.0.1 is used.

use chesspi::lan::net::{LanEvent, LanHandle, NetOptions};
use chesspi::lan::session::{CodeChoice, Event, LinkState, SavedGame, Session, Timing};
use chesspi_engine::Color;
use chesspi_engine::game::Game;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

const CODE: &str = "2468";
const PATIENCE: Duration = Duration::from_secs(10);

fn wait(handle: &LanHandle, what: &str, pred: impl Fn(&Event) -> bool) -> Event {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match handle.wait_event(left) {
            Some(LanEvent::Session(e)) if pred(&e) => return e,
            Some(_) => {}
            None => panic!("no {what} within {PATIENCE:?}"),
        }
    }
}

fn host_on(addr: SocketAddr, session: Session) -> LanHandle {
    LanHandle::host(session, &[addr], NetOptions::default(), || {}).expect("listen")
}

fn loopback() -> SocketAddr {
    SocketAddr::from(([127, 0, 0, 1], 0))
}

/// A paired host (White) and guest; returns the host's address too.
fn pair() -> (LanHandle, LanHandle, SocketAddr) {
    let session = Session::host(
        "Bench host",
        CodeChoice::Fixed(CODE.into()),
        Color::White,
        Game::new(),
        Timing::default(),
    );
    let host = host_on(loopback(), session);
    let addr = host.local_addrs()[0];
    let guest = LanHandle::join(
        Session::guest("Bench guest", CODE, Timing::default()),
        &addr.to_string(),
        NetOptions::default(),
        || {},
    )
    .expect("join");
    wait(&host, "pairing", |e| matches!(e, Event::Paired { .. }));
    wait(&guest, "pairing", |e| matches!(e, Event::Paired { .. }));
    (host, guest, addr)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn move_latency(moves: usize) {
    let mut samples = Vec::with_capacity(moves);
    let mut games = 0;
    while samples.len() < moves {
        let (host, guest, _) = pair();
        games += 1;
        let mut game = Game::new();
        let mut ply = 0u32;
        while !game.is_over() && samples.len() < moves {
            std::thread::sleep(Duration::from_millis(25));
            let (mover, other) = if ply.is_multiple_of(2) {
                (&host, &guest)
            } else {
                (&guest, &host)
            };
            // A varied, deterministic game: no early repetition draw.
            let legal = game.position().legal_moves();
            let mv = legal.as_slice()[(ply as usize * 7 + 3) % legal.len()];
            game.play(mv).expect("legal");
            let sent = Instant::now();
            mover.play(mv);
            wait(
                mover,
                "ack",
                |e| matches!(e, Event::Acked { ply: p } if *p == ply),
            );
            samples.push(sent.elapsed());
            wait(other, "move", |e| matches!(e, Event::PartnerMoved { .. }));
            ply += 1;
        }
    }
    samples.sort();
    println!(
        "move send->ack over {} moves ({games} games): p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        samples.len(),
        percentile(&samples, 0.50).as_secs_f64() * 1e3,
        percentile(&samples, 0.99).as_secs_f64() * 1e3,
        samples.last().map_or(0.0, |d| d.as_secs_f64() * 1e3),
    );
}

/// A hand-made guest pairs, then goes silent: how long until the host says "lost"?
fn silent_peer() {
    let session = Session::host(
        "Bench host",
        CodeChoice::Fixed(CODE.into()),
        Color::White,
        Game::new(),
        Timing::default(),
    );
    let host = host_on(loopback(), session);
    let mut stream = TcpStream::connect(host.local_addrs()[0]).expect("connect");
    let hello =
        format!(r#"{{"type":"hello","protocol":1,"name":"Mute","code":"{CODE}","resume":null}}"#);
    stream
        .write_all(format!("{hello}\n").as_bytes())
        .expect("hello");
    let silent_from = Instant::now();
    let mut line = String::new();
    BufReader::new(stream.try_clone().expect("clone"))
        .read_line(&mut line)
        .expect("welcome");
    wait(&host, "lost", |e| matches!(e, Event::Link(LinkState::Lost)));
    println!(
        "silent peer -> connection lost: {:.2} s",
        silent_from.elapsed().as_secs_f64()
    );
}

fn main() {
    let moves = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    move_latency(moves);
    silent_peer();
    restart_resume();
    idle_cpu();
}

/// CPU time of this process so far (user + system), from /proc (clock ticks of 10 ms).
fn cpu_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let fields: Vec<u64> = rest
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    let ticks = fields.get(11).copied().unwrap_or(0) + fields.get(12).copied().unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

/// Both endpoints connected and idle (heartbeats only): CPU used over 30 s.
fn idle_cpu() {
    let (host, guest, _) = pair();
    std::thread::sleep(Duration::from_secs(1));
    let (cpu0, t0) = (cpu_time(), Instant::now());
    std::thread::sleep(Duration::from_secs(30));
    let cpu = cpu_time().saturating_sub(cpu0);
    let wall = t0.elapsed();
    println!(
        "idle while connected (host + guest in one process): {:.3} % of one core ({} ms CPU in {:.1} s)",
        100.0 * cpu.as_secs_f64() / wall.as_secs_f64(),
        cpu.as_millis(),
        wall.as_secs_f64()
    );
    drop((host, guest));
}

/// The host dies (no bye) and comes back from its save on the same port: how long until the
/// guest has the game again?
fn restart_resume() {
    let session = Session::host(
        "Bench host",
        CodeChoice::Fixed(CODE.into()),
        Color::White,
        Game::new(),
        Timing::default(),
    );
    let host = host_on(loopback(), session);
    let addr = host.local_addrs()[0];
    let guest = LanHandle::join(
        Session::guest("Bench guest", CODE, Timing::default()),
        &addr.to_string(),
        NetOptions::default(),
        || {},
    )
    .expect("join");
    let saved = match wait(&host, "pairing", |e| matches!(e, Event::Paired { .. })) {
        Event::Paired {
            partner,
            local,
            game_id,
            game,
            ..
        } => SavedGame {
            game_id,
            game,
            local,
            partner,
        },
        _ => unreachable!(),
    };
    wait(&guest, "connected", |e| {
        matches!(e, Event::Link(LinkState::Connected))
    });
    drop(host);
    wait(&guest, "lost", |e| {
        matches!(e, Event::Link(LinkState::Lost))
    });
    let restarted = Instant::now();
    let session = Session::restore_host("Bench host", CodeChoice::Random, saved, Timing::default());
    let _host = host_on(addr, session);
    wait(&guest, "connected", |e| {
        matches!(e, Event::Link(LinkState::Connected))
    });
    println!(
        "host restarted -> guest resumed: {:.2} s",
        restarted.elapsed().as_secs_f64()
    );
}
