//! Adjourning a network game: the real app (headless, with its saver) hosts, a protocol peer
//! joins and two moves are played; the peer goes away. Once the partner has been away for
//! `lan.adjourn_after_seconds` (1 s here, set through the real config text) the app offers to
//! adjourn; adjourned, the game leaves the board for Saved games and the app stops listening.
//! Saved games → the game → Play on hosts it again, and the same peer resumes it at the exact
//! position, with the clocks where they stood. Then the same as a guest: the app joins a
//! protocol host, adjourns when the host is gone, and Play on rejoins that host by itself.

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::model::mode::{ColourChoice, GameSetup, NewGameForm};
use chesspi::app::screens::Dialog;
use chesspi::app::screens::Go;
use chesspi::app::ui::{DialogAdapter, GamesAdapter};
use chesspi::config::Config;
use chesspi::lan::session::LinkState;
use serde_json::json;
use slint::{ComponentHandle, Model};
use std::time::{Duration, Instant};

mod support;
use support::lan_peer::{Peer, free_port};
use support::ui::{pump_until, start_app_ignoring_notices, tap_square};

/// How long the app may take for what the test waits for.
const PATIENCE: Duration = Duration::from_secs(10);

#[test]
fn an_adjourned_network_game_is_played_on_from_saved_games() {
    headless::install().expect("headless");
    let dir = tempfile::tempdir().expect("tempdir");
    let port = free_port();
    let addr: std::net::SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");
    let text = format!(
        "[lan]\nname = \"Board\"\nport = {port}\nlisten = [\"127.0.0.1\"]\ndiscovery = false\n\
         code = \"1357\"\nadjourn_after_seconds = 1\n"
    );
    let config = Config::parse(&text, std::path::Path::new("test.toml")).expect("config");

    let app = start_app_ignoring_notices(dir.path(), GameSetup::FIRST_START, PATIENCE);
    app.enable_network(config.lan);

    // New game → Network → Host, White, 5+3.
    app.update_controller(|c| {
        c.action(chesspi::app::screens::Action::NewGame);
        c.on(|f: &mut NewGameForm, _| f.choose_mode("network"));
        c.on(|f: &mut NewGameForm, _| f.choose_network(true));
        c.on(|f: &mut NewGameForm, _| f.choose_colour(ColourChoice::White));
        c.on(|f: &mut NewGameForm, _| f.choose_preset(Some(2)));
        c.on(NewGameForm::start);
    });
    pump_until("hosting", PATIENCE, || !app.network_addrs().is_empty());
    let mut peer = Peer::connect(addr);
    peer.send(&json!({"type":"hello","protocol":1,"name":"Peer","code":"1357","resume":null}));
    let welcome = peer.next("the welcome");
    let game_id = welcome["game"].clone();
    let secret = welcome["secret"].clone();
    assert_eq!(welcome["clock"]["base"], 300_000, "{welcome}");
    pump_until("paired and saved", PATIENCE, || {
        app.with_controller(|c| c.session().partner().is_some()) && app.is_saved()
    });
    tap_square(&app, "e2");
    tap_square(&app, "e4");
    assert_eq!(peer.next("our move")["uci"], "e2e4");
    peer.send(&json!({"type":"move","ply":1,"uci":"c7c5","clock":290_000}));
    assert_eq!(peer.next("the ack")["type"], "ack");
    pump_until("the peer's move saved", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 2) && app.is_saved()
    });

    // The peer goes away: not at once, but after the configured time, Adjourn is offered.
    // (Its reader thread holds a copy of the socket: shut the connection itself.)
    peer.stream
        .shutdown(std::net::Shutdown::Both)
        .expect("shutdown");
    drop(peer);
    let gone = Instant::now();
    pump_until("the lost link", PATIENCE, || {
        app.with_controller(|c| {
            c.session()
                .partner()
                .is_some_and(|p| p.link != LinkState::Connected)
        })
    });
    assert_ne!(
        app.with_controller(|c| c.dialog().cloned()),
        Some(Dialog::Adjourn)
    );
    let dialog = app.window().global::<DialogAdapter>();
    pump_until("the offer to adjourn", PATIENCE, || {
        app.with_controller(|c| c.dialog() == Some(&Dialog::Adjourn))
    });
    assert!(gone.elapsed().as_millis() >= 900, "{:?}", gone.elapsed());
    assert_eq!(dialog.get_title(), "Peer is not back");
    dialog.invoke_option_chosen("adjourn".into());
    pump_until("a new game on the board, saved", PATIENCE, || {
        app.with_controller(|c| {
            c.session().partner().is_none() && c.session().game().moves().is_empty()
        }) && app.is_saved()
    });
    assert!(app.network_addrs().is_empty(), "no longer listening");
    assert!(
        std::net::TcpStream::connect(addr).is_err(),
        "nobody answers on the game's port"
    );

    // Saved games → the adjourned game (the only one) → Play on.
    let games = app.window().global::<GamesAdapter>();
    play_on(&app, &dialog, &games, "Peer");
    assert_eq!(games.get_games().row_count(), 1);
    pump_until("the game back, hosted again", PATIENCE, || {
        app.with_controller(|c| {
            c.session().game().moves().len() == 2 && c.session().partner().is_some()
        }) && !app.network_addrs().is_empty()
            && app.is_saved()
    });
    assert_eq!(app.network_addrs()[0].port(), port, "the same port");

    // The same partner resumes at the exact position; play goes on.
    let mut peer = Peer::connect(addr);
    peer.send(
        &json!({"type":"hello","protocol":1,"name":"Peer","code":"0000",
        "resume":{"game": game_id, "ply": 2, "secret": secret}}),
    );
    let welcome = peer.next("the welcome again");
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    assert_eq!(welcome["moves"], json!(["e2e4", "c7c5"]));
    // The clocks come back where they stood: White used a little and gained 3 s, Black
    // reported 290 s.
    let clock = &welcome["clock"];
    assert_eq!(
        (&clock["base"], &clock["increment"]),
        (&json!(300_000), &json!(3000))
    );
    let white = clock["white"].as_u64().expect("white");
    assert!((295_000..=303_000).contains(&white), "{clock}");
    assert_eq!(clock["black"], 290_000, "{clock}");
    pump_until("connected again", PATIENCE, || {
        app.with_controller(|c| {
            c.session()
                .partner()
                .is_some_and(|p| p.link == LinkState::Connected)
        })
    });
    tap_square(&app, "g1");
    tap_square(&app, "f3");
    let mv = peer.next("our next move");
    as_guest(&app, &dialog, &games);
    assert_eq!(
        (&mv["ply"], &mv["uci"]),
        (&json!(2), &json!("g1f3")),
        "{mv}"
    );
    assert!(
        mv["clock"].as_u64().is_some_and(|t| t <= white + 3000),
        "{mv}"
    );
}

/// Saved games → the game with this partner → Play on.
fn play_on(app: &App, dialog: &DialogAdapter, games: &GamesAdapter, partner: &str) {
    app.update_controller(|c| {
        c.action(chesspi::app::screens::Action::Menu);
        c.dialog_option("games");
    });
    pump_until("the saved games list", PATIENCE, || {
        games
            .get_games()
            .iter()
            .any(|row| row.title.contains(partner))
    });
    let row = games
        .get_games()
        .iter()
        .find(|row| row.title.contains(partner))
        .expect("the adjourned game");
    games.invoke_game_chosen(row.id.clone());
    pump_until("the saved game dialog", PATIENCE, || dialog.get_visible());
    dialog.invoke_option_chosen("resume".into());
}

/// The app joins a protocol host, which goes away; adjourned and played on, the app dials
/// the same host again and resumes.
fn as_guest(app: &App, dialog: &DialogAdapter, games: &GamesAdapter) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let target = listener.local_addr().expect("addr");
    let game_id = "00112233445566778899aabbccddeeff";
    app.update_controller(|c| {
        c.go(Go::Join {
            target: target.to_string(),
            code: Some("4321".to_string()),
        })
    });
    let mut host = Peer::accept(&listener);
    let hello = host.next("the hello");
    assert_eq!(hello["code"], "4321", "{hello}");
    let welcome = |moves: Vec<&str>| {
        json!({"type":"welcome","protocol":1,"name":"Host","game":game_id,"you":"black",
            "start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "moves":moves,"result":null})
    };
    host.send(&welcome(vec![]));
    host.send(&json!({"type":"move","ply":0,"uci":"e2e4"}));
    assert_eq!(host.next("the ack"), json!({"type":"ack","ply":0}));
    pump_until("the host's move saved", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 1) && app.is_saved()
    });
    tap_square(app, "e7");
    tap_square(app, "e5");
    assert_eq!(host.next("our move")["uci"], "e7e5");
    host.send(&json!({"type":"ack","ply":1}));

    // The host goes away (and stops listening): the app adjourns.
    host.stream
        .shutdown(std::net::Shutdown::Both)
        .expect("shutdown");
    drop(host);
    drop(listener);
    pump_until("the offer to adjourn", PATIENCE, || {
        app.with_controller(|c| c.dialog() == Some(&Dialog::Adjourn))
    });
    dialog.invoke_option_chosen("adjourn".into());
    pump_until("a new game on the board, saved", PATIENCE, || {
        app.with_controller(|c| c.session().partner().is_none()) && app.is_saved()
    });

    // The host is back on its address; Play on rejoins it with the game's id.
    let listener = std::net::TcpListener::bind(target).expect("the same address again");
    play_on(app, dialog, games, "Host");
    let mut host = Peer::accept(&listener);
    let hello = host.next("the resuming hello");
    assert_eq!(
        hello["resume"],
        json!({"game": game_id, "ply": 2}),
        "{hello}"
    );
    host.send(&welcome(vec!["e2e4", "e7e5"]));
    pump_until("connected again", PATIENCE, || {
        app.with_controller(|c| {
            c.session()
                .partner()
                .is_some_and(|p| p.link == LinkState::Connected)
        })
    });
    host.send(&json!({"type":"move","ply":2,"uci":"g1f3"}));
    assert_eq!(host.next("the ack"), json!({"type":"ack","ply":2}));
    pump_until("the game goes on", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 3)
    });
}
