//! The real `chesspi` binary hosting a network game in a real window: `chesspi --lan-host`
//! runs in an Xvfb screen with its own state directory and config, a peer written from
//! docs/PROTOCOL.md joins over TCP on 127.0.0.1, a move clicked on the screen with xdotool
//! arrives at the peer, and the peer's move reaches the app's game (read back from its
//! autosave, which the app writes before it shows a move, and on the screen itself: Xvfb's
//! framebuffer file).
//!
//! Needs `Xvfb` and `xdotool` (scripts/setup installs them). Without them the test says so
//! and passes, except under CI (`CI` set), where it fails: there it must run.

use chesspi::storage::GameMode;
use chesspi::storage::autosave::AUTOSAVE_FILE;
use chesspi_engine::{Color, Square};
use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};

mod support;
use support::app_process::{NO_BATTERY, RunningApp, Screen, installed};
use support::lan_peer::{Peer, free_port};

/// `chesspi --lan-host --color white` on `screen`, hosting on 127.0.0.1:`port` with code 2468.
fn start_host(screen: &Screen, state: &Path, port: u16) -> RunningApp {
    let config = format!(
        "{NO_BATTERY}[lan]\nname = \"Window\"\nport = {port}\n\
         listen = [\"127.0.0.1\"]\ndiscovery = false\ncode = \"2468\"\n"
    );
    RunningApp::start(screen, state, &config, &["--lan-host", "--color", "white"])
}

/// The peer's next object, or a failure with what the app logged meanwhile.
fn next(peer: &mut Peer, what: &str, app: &mut RunningApp) -> Value {
    peer.next_within(Duration::from_secs(10))
        .unwrap_or_else(|| {
            app.drain();
            panic!("timed out waiting for {what}:\n{}", app.log.join("\n"))
        })
}

/// The moves of the app's autosave, once it is a network game with this peer. Read only:
/// `AutosaveStore::load` would set aside a file it cannot read, under the running app's feet.
fn saved_lan_moves(state: &Path) -> Option<Vec<String>> {
    let bytes = std::fs::read(state.join(AUTOSAVE_FILE)).ok()?;
    let (saved, _) = chesspi::storage::autosave::decode(&bytes).ok()?;
    match &saved.mode {
        GameMode::Lan { local, peer, .. } if *local == Color::White && peer == "Peer" => {
            Some(saved.game.moves().iter().map(|m| m.to_uci()).collect())
        }
        _ => None,
    }
}

fn wait_saved(state: &Path, moves: &[&str], app: &mut RunningApp) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let saved = saved_lan_moves(state);
        if saved.as_deref().is_some_and(|m| m == moves) {
            return;
        }
        if Instant::now() > deadline {
            app.drain();
            panic!(
                "the autosave holds {saved:?}, not {moves:?}:\n{}",
                app.log.join("\n")
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn a_move_clicked_in_the_window_reaches_the_peer_and_back() {
    if !installed("Xvfb", "-help") || !installed("xdotool", "--version") {
        assert!(
            std::env::var_os("CI").is_none(),
            "Xvfb and xdotool are needed in CI: scripts/setup installs them"
        );
        eprintln!("SKIPPED: Xvfb or xdotool is not installed (scripts/setup installs them)");
        return;
    }
    let started = Instant::now();
    let screen = Screen::start();
    let state = tempfile::tempdir().expect("tempdir");
    let port = free_port();
    let mut app = start_host(&screen, state.path(), port);
    let window = app.window(&screen, Duration::from_secs(30));
    app.wait_for_line("hosting a network game", Duration::from_secs(10));

    let mut peer = Peer::connect(([127, 0, 0, 1], port).into());
    peer.send(&json!({"type":"hello","protocol":1,"name":"Peer","code":"2468","resume":null}));
    let welcome = next(&mut peer, "the welcome", &mut app);
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    assert_eq!(welcome["you"], "black");
    // The paired game is on disk, so on the screen.
    wait_saved(state.path(), &[], &mut app);

    // e2-e4 by two clicks in the window.
    screen.click(&window, Square::E2);
    screen.click(&window, Square::E4);
    let mv = next(&mut peer, "the clicked move", &mut app);
    assert_eq!(mv, json!({"type":"move","ply":0,"uci":"e2e4"}));
    peer.send(&json!({"type":"ack","ply":0}));

    // The peer's reply reaches the app's game.
    assert!(
        screen.darkness_at(&window, Square::C5) > 100,
        "c5 is empty before"
    );
    assert!(
        screen.darkness_at(&window, Square::C7) < 60,
        "a black pawn on c7"
    );
    peer.send(&json!({"type":"move","ply":1,"uci":"c7c5"}));
    assert_eq!(
        next(&mut peer, "the ack", &mut app),
        json!({"type":"ack","ply":1})
    );
    wait_saved(state.path(), &["e2e4", "c7c5"], &mut app);
    // And onto the screen: a black pawn on c5, c7 empty (the slide takes 150 ms).
    screen.wait_shows("the peer's pawn on c5", || {
        screen.darkness_at(&window, Square::C5) < 60
            && screen.darkness_at(&window, Square::C7) > 100
    });

    // And play goes on from the screen.
    screen.click(&window, Square::G1);
    screen.click(&window, Square::F3);
    let mv = next(&mut peer, "the second clicked move", &mut app);
    assert_eq!(mv, json!({"type":"move","ply":2,"uci":"g1f3"}));
    eprintln!("window test took {:?}", started.elapsed());
}
