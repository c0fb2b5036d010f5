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
use chesspi::app::screens::Go;
use chesspi::lan::session::LinkState;
use chesspi::storage::LanLink;
use chesspi_engine::Color;
use chesspi_engine::game::Game;
use serde_json::{Value, json};
use slint::ComponentHandle;
use std::io::Write;
use std::net::TcpListener;
use std::path::Path;
use std::process::Child;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

mod support;
use support::child::{child_test, spawn_reporting};
use support::lan_peer::{Peer, free_port, lan_config};
use support::ui::{pump_until, tap_square};

/// How long the app may take for what the test waits for.
const PATIENCE: Duration = Duration::from_secs(10);

/// The device started on the state in `dir` as `boot::start::run` starts it, networking on
/// `port`: the game saved there restored (its partner known before the first save), saving
/// on, the window shown. Returns the network game to reconnect, if any, and the notices.
fn open_device(dir: &Path, port: u16) -> (App, Option<(String, LanLink)>, Vec<String>) {
    let (restored, stores, notices) = saving::open(dir, (Game::new(), GameSetup::FIRST_START));
    let lan = restored.lan.clone();
    let app = App::new(restored.game, restored.setup).expect("app");
    if let Some((peer, link)) = &lan {
        app.update_controller(|c| c.session_mut().network_restored(peer, link.clone()));
    }
    app.enable_saving(stores, restored.identity).expect("saver");
    app.window().show().expect("window");
    app.enable_network(lan_config(port, "1357"));
    (app, lan, notices)
}

/// The host device started on `dir`: a restored network game hosted again by itself.
fn start_app(dir: &Path, port: u16) -> App {
    let (app, lan, notices) = open_device(dir, port);
    assert!(notices.is_empty(), "{notices:?}");
    if let Some((peer, link)) = lan {
        app.resume_network(&peer, link);
    }
    pump_until("the first save", PATIENCE, || app.is_saved());
    app
}

#[test]
fn a_network_game_resumes_after_a_power_cut() {
    headless::install().expect("headless");
    let dir = tempfile::tempdir().expect("tempdir");
    let port = free_port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");

    let app = start_app(dir.path(), port);
    app.update_controller(|c| {
        c.go(Go::Lobby {
            host: Some(Color::White),
            clock: None,
        })
    });
    pump_until("hosting", PATIENCE, || !app.network_addrs().is_empty());
    let mut peer = Peer::connect(addr);
    peer.send(&json!({"type":"hello","protocol":1,"name":"Peer","code":"1357","resume":null}));
    let welcome = peer.next("the welcome");
    let game_id = welcome["game"].clone();
    let secret = welcome["secret"].clone();
    pump_until("paired", PATIENCE, || {
        app.with_controller(|c| c.session().partner().is_some())
    });
    // The screen shows the paired game once it is on disk; taps go to what is shown.
    pump_until("saved", PATIENCE, || app.is_saved());
    tap_square(&app, "e2");
    tap_square(&app, "e4");
    assert_eq!(peer.next("our move")["uci"], "e2e4");
    peer.send(&json!({"type":"ack","ply":0}));
    peer.send(&json!({"type":"move","ply":1,"uci":"c7c5"}));
    assert_eq!(peer.next("the ack")["type"], "ack");
    pump_until("the peer's move saved", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 2) && app.is_saved()
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
    assert_eq!(app.with_controller(|c| c.session().game().moves().len()), 2);
    let partner = app
        .with_controller(|c| c.session().partner().cloned())
        .expect("the partner");
    assert_eq!(partner.name, "Peer");
    assert_ne!(partner.link, LinkState::Connected);
    let mut peer = Peer::connect(addr);
    peer.send(
        &json!({"type":"hello","protocol":1,"name":"Peer","code":"0000",
        "resume":{"game": game_id, "ply": 2, "secret": secret}}),
    );
    let welcome = peer.next("the welcome again");
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    assert_eq!(welcome["moves"], json!(["e2e4", "c7c5"]));
    pump_until("connected again", PATIENCE, || {
        app.with_controller(|c| {
            c.session()
                .partner()
                .is_some_and(|p| p.link == LinkState::Connected)
        })
    });
    tap_square(&app, "g1");
    tap_square(&app, "f3");
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
    let (app, lan, _) = open_device(Path::new(&dir), free_port());
    // As `boot::start::run`: a restored network game reconnects by itself.
    match lan {
        Some((peer, link)) => app.resume_network(&peer, link),
        None => app.update_controller(|c| {
            c.go(Go::Join {
                target: target.clone(),
                code: Some("2468".to_string()),
            })
        }),
    }
    let mut reported = None;
    let mut tapped = None;
    loop {
        headless::pump_until(Duration::from_millis(50), || false);
        if !app.is_saved() {
            continue;
        }
        let (moves, my_turn) = app.with_controller(|c| {
            let moves: Vec<String> = c
                .session()
                .game()
                .moves()
                .iter()
                .map(|m| m.to_uci())
                .collect();
            let mine = c.session().partner().is_some()
                && !c.session().game().is_over()
                && c.session().game().position().turn() == Color::Black;
            (moves, mine)
        });
        if reported.as_ref() != Some(&moves)
            && app.with_controller(|c| c.session().partner().is_some())
        {
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
            tap_square(&app, from);
            tap_square(&app, to);
        }
    }
}

/// The moves in a line the guest child printed when it saved, after the test harness's words.
fn saved_moves(line: &str) -> Option<&str> {
    line.find(GUEST_MARK)
        .map(|i| line[i + GUEST_MARK.len()..].trim())
}

/// The guest child process and its report lines.
struct Guest {
    child: Child,
    lines: Receiver<String>,
}

impl Guest {
    fn start(state: &Path, target: &str) -> Guest {
        let (child, lines, _) = spawn_reporting(
            child_test("lan_guest_child")
                .env(GUEST_STATE_ENV, state)
                .env(GUEST_TARGET_ENV, target)
                .env_remove("RUST_LOG"),
        );
        Guest { child, lines }
    }

    /// Waits until the guest has saved a game of exactly these moves.
    fn saved(&self, moves: &str) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if saved_moves(&line) == Some(moves) => return,
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

/// The host side: the guest's connection to `listener`, pings answered.
fn accept_guest(listener: &TcpListener) -> Peer {
    listener.set_nonblocking(false).expect("blocking");
    let (stream, _) = listener.accept().expect("the guest connects");
    Peer::on(stream)
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
    let mut host = accept_guest(&listener);
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
    let mut host = accept_guest(&listener);
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
