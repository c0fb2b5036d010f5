//! A network game survives a power cut of either device. Host: the real app (headless, with
//! its saver) hosts, a protocol peer joins and moves are made; the app goes away and a new
//! one starts from the same state directory, hosts the same game again by itself, and the
//! peer resumes it at the exact position. Guest: the app joins a protocol host in a child
//! process, which is SIGKILLed right after it sent a move; started again on its state
//! directory, it restores the game, rejoins by itself and plays on.

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::model::mode::GameSetup;
use chesspi::app::saving;
use chesspi::config::{LanConfig, PairingCode};
use chesspi::lan::session::LinkState;
use chesspi_engine::Color;
use chesspi_engine::game::Game;
use serde_json::{Value, json};
use slint::ComponentHandle;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

mod app_lan_peer;
use app_lan_peer::{Peer, tap, wait};

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

fn lan_config(port: u16) -> LanConfig {
    LanConfig {
        name: Some("Board".into()),
        port,
        listen: vec!["127.0.0.1".parse().expect("ip")],
        discovery: false,
        interfaces: Vec::new(),
        code: PairingCode::Fixed("1357".into()),
        adjourn_after: chesspi::config::DEFAULT_ADJOURN_AFTER,
    }
}

fn start_app(dir: &std::path::Path, port: u16) -> App {
    let (restored, stores, notices) = saving::open(dir, (Game::new(), GameSetup::FIRST_START));
    assert!(notices.is_empty(), "{notices:?}");
    let lan = restored.lan.clone();
    let app = App::new(restored.game, restored.setup).expect("app");
    // As the device starts (boot::start::run): the partner is known before the first save.
    if let Some((peer, link)) = &lan {
        app.update_controller(|c| c.network_restored(peer, link.clone()));
    }
    app.enable_saving(stores, restored.identity).expect("saver");
    app.window().show().expect("window");
    app.enable_network(lan_config(port));
    if let Some((peer, link)) = lan {
        app.resume_network(&peer, link);
    }
    wait("the first save", || app.is_saved());
    app
}

#[test]
fn a_network_game_resumes_after_a_power_cut() {
    headless::install().expect("headless");
    let dir = tempfile::tempdir().expect("tempdir");
    let port = free_port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");

    let app = start_app(dir.path(), port);
    app.update_controller(|c| c.host_network(Color::White));
    wait("hosting", || !app.network_addrs().is_empty());
    let mut peer = Peer::connect(addr);
    peer.send(&json!({"type":"hello","protocol":1,"name":"Peer","code":"1357","resume":null}));
    let welcome = peer.next("the welcome");
    let game_id = welcome["game"].clone();
    wait("paired", || app.with_controller(|c| c.partner().is_some()));
    // The screen shows the paired game once it is on disk; taps go to what is shown.
    wait("saved", || app.is_saved());
    tap(&app, "e2");
    tap(&app, "e4");
    assert_eq!(peer.next("our move")["uci"], "e2e4");
    peer.send(&json!({"type":"ack","ply":0}));
    peer.send(&json!({"type":"move","ply":1,"uci":"c7c5"}));
    assert_eq!(peer.next("the ack")["type"], "ack");
    wait("the peer's move saved", || {
        app.with_controller(|c| c.game().moves().len() == 2) && app.is_saved()
    });

    // Power cut: the app and its sockets are gone; the peer notices.
    drop(app);
    drop(peer);

    // Back on: the same game, hosted again by itself, waiting for its partner. A second
    // power cut before anyone moves, and a third start: still the same game and partner
    // (the first save after a start must not forget them).
    let app = start_app(dir.path(), port);
    drop(app);
    let app = start_app(dir.path(), port);
    assert_eq!(app.with_controller(|c| c.game().moves().len()), 2);
    let partner = app
        .with_controller(|c| c.partner().cloned())
        .expect("the partner");
    assert_eq!(partner.name, "Peer");
    assert_ne!(partner.link, LinkState::Connected);
    let mut peer = Peer::connect(addr);
    peer.send(
        &json!({"type":"hello","protocol":1,"name":"Peer","code":"0000",
        "resume":{"game": game_id, "ply": 2}}),
    );
    let welcome = peer.next("the welcome again");
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    assert_eq!(welcome["moves"], json!(["e2e4", "c7c5"]));
    wait("connected again", || {
        app.with_controller(|c| c.partner().is_some_and(|p| p.link == LinkState::Connected))
    });
    tap(&app, "g1");
    tap(&app, "f3");
    assert_eq!(
        peer.next("our next move"),
        json!({"type":"move","ply":2,"uci":"g1f3"})
    );
}

const GUEST_STATE_ENV: &str = "CHESSPI_LAN_GUEST_STATE";
const GUEST_TARGET_ENV: &str = "CHESSPI_LAN_GUEST_TARGET";
/// What the guest child prints, after the test harness's own words.
const GUEST_MARK: &str = "GUEST-SAVED:";

/// Black's replies the guest taps, by ply.
fn guest_reply(ply: usize) -> Option<(&'static str, &'static str)> {
    match ply {
        1 => Some(("e7", "e5")),
        3 => Some(("b8", "c6")),
        5 => Some(("g8", "f6")),
        _ => None,
    }
}

/// The guest device, run by `a_killed_guest_restores_and_rejoins_by_itself` in a child
/// process: starts as the device does (restoring and rejoining a saved network game, or
/// joining the target with code 2468), taps Black's replies, and prints the moves of every
/// saved change.
#[test]
#[ignore = "run as a child process by a_killed_guest_restores_and_rejoins_by_itself"]
fn lan_guest_child() {
    let (Some(dir), Ok(target)) = (
        std::env::var_os(GUEST_STATE_ENV),
        std::env::var(GUEST_TARGET_ENV),
    ) else {
        return;
    };
    headless::install().expect("headless");
    let dir = std::path::PathBuf::from(dir);
    let (restored, stores, _) = saving::open(&dir, (Game::new(), GameSetup::FIRST_START));
    let lan = restored.lan.clone();
    let app = App::new(restored.game, restored.setup).expect("app");
    if let Some((peer, link)) = &lan {
        app.update_controller(|c| c.network_restored(peer, link.clone()));
    }
    app.enable_saving(stores, restored.identity).expect("saver");
    app.window().show().expect("window");
    app.enable_network(lan_config(free_port()));
    // As `boot::start::run`: a restored network game reconnects by itself.
    match lan {
        Some((peer, link)) => app.resume_network(&peer, link),
        None => app.update_controller(|c| c.join_network(&target, Some("2468"))),
    }
    let mut reported = None;
    let mut tapped = None;
    loop {
        headless::pump_until(Duration::from_millis(50), || false);
        if !app.is_saved() {
            continue;
        }
        let (moves, my_turn) = app.with_controller(|c| {
            let moves: Vec<String> = c.game().moves().iter().map(|m| m.to_uci()).collect();
            let mine = c.partner().is_some()
                && !c.game().is_over()
                && c.game().position().turn() == Color::Black;
            (moves, mine)
        });
        if reported.as_ref() != Some(&moves) && app.with_controller(|c| c.partner().is_some()) {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{GUEST_MARK} {}", moves.join(" "));
            let _ = out.flush();
            reported = Some(moves.clone());
        }
        if my_turn
            && tapped != Some(moves.len())
            && let Some((from, to)) = guest_reply(moves.len())
        {
            tapped = Some(moves.len());
            tap(&app, from);
            tap(&app, to);
        }
    }
}

/// The guest child process and its report lines.
struct Guest {
    child: Child,
    lines: Receiver<String>,
}

impl Guest {
    fn start(state: &std::path::Path, target: &str) -> Guest {
        let exe = std::env::current_exe().expect("test binary");
        let mut child = Command::new(exe)
            .args(["--ignored", "--exact", "lan_guest_child", "--nocapture"])
            .env(GUEST_STATE_ENV, state)
            .env(GUEST_TARGET_ENV, target)
            .env_remove("RUST_LOG")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the guest");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(i) = line.find(GUEST_MARK) {
                    let moves = line[i + GUEST_MARK.len()..].trim().to_string();
                    if tx.send(moves).is_err() {
                        break;
                    }
                }
            }
        });
        Guest { child, lines }
    }

    /// Waits until the guest has saved a game of exactly these moves.
    fn saved(&self, moves: &str) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line == moves => return,
                Ok(_) => {}
                Err(_) => panic!("the guest never saved `{moves}`"),
            }
        }
    }

    /// SIGKILL: no goodbye, no last save.
    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The host side, written from docs/PROTOCOL.md: one connection, pings answered.
struct HostConn {
    writer: TcpStream,
    lines: Receiver<Value>,
}

impl HostConn {
    fn accept(listener: &TcpListener) -> HostConn {
        listener.set_nonblocking(false).expect("blocking");
        let (stream, _) = listener.accept().expect("the guest connects");
        let mut pong = stream.try_clone().expect("clone");
        let reader = BufReader::new(stream.try_clone().expect("clone"));
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in reader.lines().map_while(Result::ok) {
                let Ok(v) = serde_json::from_str::<Value>(&line) else {
                    break;
                };
                if v["type"] == "ping" {
                    let _ = writeln!(pong, "{}", json!({"type":"pong","seq":v["seq"]}));
                } else if v["type"] != "pong" && tx.send(v).is_err() {
                    break;
                }
            }
        });
        HostConn {
            writer: stream,
            lines,
        }
    }

    fn send(&mut self, v: &Value) {
        writeln!(self.writer, "{v}").expect("send");
    }

    fn next(&self, what: &str) -> Value {
        self.lines
            .recv_timeout(Duration::from_secs(10))
            .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
    }
}

fn welcome(game_id: &str, moves: &[&str]) -> Value {
    json!({"type":"welcome","protocol":1,"name":"Host","game":game_id,"you":"black",
        "start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "moves":moves,"result":null})
}

#[test]
fn a_killed_guest_restores_and_rejoins_by_itself() {
    let dir = tempfile::tempdir().expect("tempdir");
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let target = listener.local_addr().expect("addr").to_string();
    let game_id = "0123456789abcdef0123456789abcdef";

    let guest = Guest::start(dir.path(), &target);
    let mut host = HostConn::accept(&listener);
    let hello = host.next("hello");
    assert_eq!(hello["code"], "2468", "{hello}");
    assert_eq!(hello["resume"], Value::Null, "{hello}");
    host.send(&welcome(game_id, &[]));
    host.send(&json!({"type":"move","ply":0,"uci":"e2e4"}));
    assert_eq!(host.next("the ack"), json!({"type":"ack","ply":0}));
    assert_eq!(
        host.next("Black's reply"),
        json!({"type":"move","ply":1,"uci":"e7e5"})
    );
    host.send(&json!({"type":"ack","ply":1}));
    host.send(&json!({"type":"move","ply":2,"uci":"g1f3"}));
    assert_eq!(host.next("the ack"), json!({"type":"ack","ply":2}));
    // The guest's move arrives; before it is acknowledged the power goes.
    assert_eq!(
        host.next("Black's second reply"),
        json!({"type":"move","ply":3,"uci":"b8c6"})
    );
    guest.kill();
    drop(host);

    // Back on: the guest restores the game and rejoins by itself, resuming where it was.
    let started = Instant::now();
    let guest = Guest::start(dir.path(), "127.0.0.1:1");
    let mut host = HostConn::accept(&listener);
    let hello = host.next("the resuming hello");
    assert_eq!(hello["resume"]["game"], game_id, "{hello}");
    let ply = hello["resume"]["ply"].as_u64().expect("ply");
    assert!(ply == 3 || ply == 4, "the guest has {ply} half-moves");
    host.send(&welcome(game_id, &["e2e4", "e7e5", "g1f3", "b8c6"]));
    guest.saved("e2e4 e7e5 g1f3 b8c6");
    eprintln!(
        "guest back in the game {:?} after its restart",
        started.elapsed()
    );
    host.send(&json!({"type":"move","ply":4,"uci":"f1c4"}));
    assert_eq!(host.next("the ack"), json!({"type":"ack","ply":4}));
    assert_eq!(
        host.next("Black plays on"),
        json!({"type":"move","ply":5,"uci":"g8f6"})
    );
    guest.kill();
}
