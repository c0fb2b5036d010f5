//! Winning a network game by forfeit: the real app (headless, with its saver) against a
//! protocol peer on 127.0.0.1. Once the partner has been away for `lan.adjourn_after_seconds`
//! (1 s here) the app offers to claim the win beside adjourning; claimed, the game ends won
//! by abandonment and is stored so ("abandoned" in the PGN). The partner learns it when it
//! comes back (docs/PROTOCOL.md §6), whichever side claimed, and the app, coming back after
//! its partner claimed, ends its game as lost by abandonment.

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::model::mode::GameSetup;
use chesspi::app::screens::Dialog;
use chesspi::app::screens::Go;
use chesspi::app::ui::{DialogAdapter, GamesAdapter};
use chesspi::config::Config;
use chesspi::lan::session::LinkState;
use chesspi::storage::archive::{Archive, GameSummary};
use chesspi_engine::Color;
use chesspi_engine::game::{Outcome, Termination};
use serde_json::{Value, json};
use slint::{ComponentHandle, Model};
use std::net::{SocketAddr, TcpListener};
use std::path::Path;
use std::time::Duration;

mod support;
use support::lan_peer::{Peer, free_port};
use support::ui::{pump_until, start_app_ignoring_notices, tap_square};

/// How long the app may take for what the test waits for.
const PATIENCE: Duration = Duration::from_secs(10);

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn a_partner_away_too_long_loses_by_forfeit_and_learns_it_on_coming_back() {
    headless::install().expect("headless");
    let dir = tempfile::tempdir().expect("tempdir");
    let port = free_port();
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");
    let text = format!(
        "[lan]\nname = \"Board\"\nport = {port}\nlisten = [\"127.0.0.1\"]\ndiscovery = false\n\
         code = \"1357\"\nadjourn_after_seconds = 1\n"
    );
    let config = Config::parse(&text, Path::new("test.toml")).expect("config");
    let app = start_app_ignoring_notices(dir.path(), GameSetup::FIRST_START, PATIENCE);
    app.enable_network(config.lan);

    host_claims(&app, dir.path(), addr);
    host_comes_back_to_a_claim(&app, dir.path(), addr);
    guest_claims(&app, dir.path());
    guest_comes_back_to_a_claim(&app, dir.path());
}

/// The app hosts, the guest goes away; the app claims the win, still answers the guest, and
/// its welcome tells the guest the game is lost by abandonment.
fn host_claims(app: &App, dir: &Path, addr: SocketAddr) {
    let (peer, game_id, secret) = host_with(app, addr, "Anna");
    peer.stream
        .shutdown(std::net::Shutdown::Both)
        .expect("shutdown");
    drop(peer);
    claim(app);
    pump_until("won by forfeit, saved", PATIENCE, || {
        app.with_controller(|c| c.session().game().outcome()) == forfeit_win(Color::White)
            && app.is_saved()
    });
    let card = app
        .with_controller(|c| c.game_view().result())
        .expect("the result card");
    assert_eq!(
        (card.title.as_str(), card.reason.as_str()),
        ("You win!", "your partner left")
    );
    assert_pgn(dir, "Anna", "1-0");
    assert!(!app.network_addrs().is_empty(), "still answering the guest");

    // The guest comes back: the welcome carries the result and why.
    let mut peer = Peer::connect(addr);
    peer.send(
        &json!({"type":"hello","protocol":1,"name":"Anna","code":"0000",
        "resume":{"game": game_id, "ply": 2, "secret": secret}}),
    );
    let welcome = peer.next("the welcome after the claim");
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    assert_eq!(welcome["moves"], json!(["e2e4", "c7c5"]));
    assert_eq!(
        (&welcome["result"], &welcome["termination"]),
        (&json!("1-0"), &json!("abandoned")),
        "{welcome}"
    );
    // A new game ends it here: the app stops listening.
    app.update_controller(|c| c.start(GameSetup::FIRST_START, chesspi_engine::game::Game::new()));
    pump_until("no longer listening", PATIENCE, || {
        app.network_addrs().is_empty() && app.is_saved()
    });
    assert_eq!(peer.next("the goodbye")["type"], "bye");
}

/// The app hosts and adjourns; meanwhile its guest claimed the win. Played on, the app hosts
/// again (from its save, so it was away itself): the guest's claim ends the game as lost.
fn host_comes_back_to_a_claim(app: &App, dir: &Path, addr: SocketAddr) {
    let (peer, game_id, secret) = host_with(app, addr, "Dora");
    peer.stream
        .shutdown(std::net::Shutdown::Both)
        .expect("shutdown");
    drop(peer);
    pump_until("the offer to adjourn", PATIENCE, || {
        app.with_controller(|c| c.dialog() == Some(&Dialog::Adjourn))
    });
    let dialog = app.window().global::<DialogAdapter>();
    dialog.invoke_option_chosen("adjourn".into());
    pump_until("adjourned", PATIENCE, || {
        app.with_controller(|c| c.session().partner().is_none()) && app.is_saved()
    });
    play_on(app, "Dora");
    pump_until("hosted again", PATIENCE, || {
        app.with_controller(|c| {
            c.session().game().moves().len() == 2 && c.session().partner().is_some()
        }) && !app.network_addrs().is_empty()
            && app.is_saved()
    });
    let mut peer = Peer::connect(addr);
    peer.send(
        &json!({"type":"hello","protocol":1,"name":"Dora","code":"0000",
        "resume":{"game": game_id, "ply": 2, "secret": secret, "forfeit": true}}),
    );
    let welcome = peer.next("the welcome");
    assert_eq!(
        (&welcome["result"], &welcome["termination"]),
        (&json!("0-1"), &json!("abandoned")),
        "{welcome}"
    );
    pump_until("lost by forfeit, saved", PATIENCE, || {
        app.with_controller(|c| c.session().game().outcome()) == forfeit_win(Color::Black)
            && app.is_saved()
    });
    let card = app
        .with_controller(|c| c.game_view().result())
        .expect("the result card");
    assert_eq!(
        (card.title.as_str(), card.reason.as_str()),
        ("Dora wins", "you were away too long")
    );
    assert_pgn(dir, "Dora", "0-1");
}

/// The app joins; the host goes away. The app claims the win and keeps dialing: the host,
/// back, hears the claim in the `hello` and confirms it in its welcome.
fn guest_claims(app: &App, dir: &Path) {
    let (host, listener, target, game_id) = join(app, "Hugo");
    host.stream
        .shutdown(std::net::Shutdown::Both)
        .expect("shutdown");
    drop(host);
    drop(listener);
    claim(app);
    pump_until("won by forfeit, saved", PATIENCE, || {
        app.with_controller(|c| c.session().game().outcome()) == forfeit_win(Color::Black)
            && app.is_saved()
    });
    let card = app
        .with_controller(|c| c.game_view().result())
        .expect("the result card");
    assert_eq!(card.reason, "your partner left");
    assert_pgn(dir, "Hugo", "0-1");

    let listener = TcpListener::bind(target).expect("the same address again");
    let mut host = Peer::accept(&listener);
    let hello = host.next("the hello after the claim");
    assert_eq!(
        hello["resume"],
        json!({"game": game_id, "ply": 2, "forfeit": true}),
        "{hello}"
    );
    host.send(&welcome("Hugo", &game_id, &["e2e4", "e7e5"], Some("0-1")));
    pump_until("connected, the result kept", PATIENCE, || {
        app.with_controller(|c| {
            c.session()
                .partner()
                .is_some_and(|p| p.link == LinkState::Connected)
        })
    });
    assert_eq!(
        app.with_controller(|c| c.session().game().outcome()),
        forfeit_win(Color::Black)
    );
    assert_eq!(archived(dir, "Hugo").len(), 1, "stored once");
}

/// The app joins; the host's device no longer hears it. When the app gets through again,
/// the host's welcome says it won by forfeit: the app's game ends as lost, and is stored.
fn guest_comes_back_to_a_claim(app: &App, dir: &Path) {
    let (host, listener, _target, game_id) = join(app, "Carl");
    host.stream
        .shutdown(std::net::Shutdown::Both)
        .expect("shutdown");
    drop(host);
    let mut host = Peer::accept(&listener);
    let hello = host.next("the resuming hello");
    assert_eq!(
        hello["resume"],
        json!({"game": game_id, "ply": 2}),
        "{hello}"
    );
    host.send(&welcome("Carl", &game_id, &["e2e4", "e7e5"], Some("1-0")));
    pump_until("lost by forfeit, saved", PATIENCE, || {
        app.with_controller(|c| c.session().game().outcome()) == forfeit_win(Color::White)
            && app.is_saved()
    });
    let card = app
        .with_controller(|c| c.game_view().result())
        .expect("the result card");
    assert_eq!(
        (card.title.as_str(), card.reason.as_str()),
        ("Carl wins", "you were away too long")
    );
    assert_pgn(dir, "Carl", "1-0");
}

fn forfeit_win(winner: Color) -> Option<Outcome> {
    Some(Outcome::win(winner, Termination::Abandonment))
}

/// The app hosts (White); `name` joins and two moves are played. Returns the guest and the
/// game's id and resume secret.
fn host_with(app: &App, addr: SocketAddr, name: &str) -> (Peer, Value, Value) {
    app.update_controller(|c| {
        c.go(Go::Lobby {
            host: Some(Color::White),
            clock: None,
        })
    });
    pump_until("hosting", PATIENCE, || !app.network_addrs().is_empty());
    let mut peer = Peer::connect(addr);
    peer.send(&json!({"type":"hello","protocol":1,"name":name,"code":"1357","resume":null}));
    let welcome = peer.next("the welcome");
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    pump_until("paired and saved", PATIENCE, || {
        app.with_controller(|c| c.session().partner().is_some_and(|p| p.name == name))
            && app.is_saved()
    });
    tap_square(app, "e2");
    tap_square(app, "e4");
    assert_eq!(peer.next("our move")["uci"], "e2e4");
    peer.send(&json!({"type":"move","ply":1,"uci":"c7c5"}));
    assert_eq!(peer.next("the ack")["type"], "ack");
    pump_until("the guest's move saved", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 2) && app.is_saved()
    });
    (peer, welcome["game"].clone(), welcome["secret"].clone())
}

/// The app joins a protocol host called `name` (it plays White); two moves are played.
/// Returns the host, its listener, its address and the game's id.
fn join(app: &App, name: &str) -> (Peer, TcpListener, SocketAddr, String) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let target = listener.local_addr().expect("addr");
    let hex: String = name.bytes().map(|b| format!("{b:02x}")).collect();
    let game_id = format!("{hex:0>32}");
    app.update_controller(|c| {
        c.go(Go::Join {
            target: target.to_string(),
            code: Some("4321".to_string()),
        })
    });
    let mut host = Peer::accept(&listener);
    assert_eq!(host.next("the hello")["resume"], Value::Null);
    host.send(&welcome(name, &game_id, &[], None));
    host.send(&json!({"type":"move","ply":0,"uci":"e2e4"}));
    assert_eq!(host.next("the ack"), json!({"type":"ack","ply":0}));
    pump_until("the host's move saved", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 1) && app.is_saved()
    });
    tap_square(app, "e7");
    tap_square(app, "e5");
    assert_eq!(host.next("our move")["uci"], "e7e5");
    host.send(&json!({"type":"ack","ply":1}));
    pump_until("our move saved", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 2) && app.is_saved()
    });
    (host, listener, target, game_id)
}

/// Host `name`'s welcome of `game_id` (the app plays Black); a result comes as a forfeit.
fn welcome(name: &str, game_id: &str, moves: &[&str], result: Option<&str>) -> Value {
    let mut w = json!({"type":"welcome","protocol":1,"name":name,"game":game_id,
        "you":"black","start":START,"moves":moves,"result":result});
    if result.is_some() {
        w["termination"] = json!("abandoned");
    }
    w
}

/// Waits for the offer, which names the claim beside adjourning, and claims the win.
fn claim(app: &App) {
    pump_until("the offer to adjourn or claim", PATIENCE, || {
        app.with_controller(|c| c.dialog() == Some(&Dialog::Adjourn))
    });
    let labels: Vec<String> = app
        .with_controller(|c| c.dialog_view())
        .expect("the dialog")
        .options
        .into_iter()
        .map(|o| o.label)
        .collect();
    assert_eq!(
        labels,
        ["Adjourn the game", "Claim the win", "Keep waiting"]
    );
    let dialog = app.window().global::<DialogAdapter>();
    dialog.invoke_option_chosen("forfeit".into());
}

/// Saved games → the game with `partner` → Play on.
fn play_on(app: &App, partner: &str) {
    let dialog = app.window().global::<DialogAdapter>();
    let games = app.window().global::<GamesAdapter>();
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

/// The PGN texts of the finished games with `partner` in the archive.
fn archived(dir: &Path, partner: &str) -> Vec<String> {
    let archive = Archive::open(dir).expect("archive");
    archive
        .list()
        .expect("list")
        .iter()
        .filter_map(|g| match g {
            GameSummary::Game(h) => Some(h),
            GameSummary::Damaged { .. } => None,
        })
        .filter(|h| !h.is_unfinished() && (h.white == partner || h.black == partner))
        .filter_map(|h| archive.read_text(&h.id).ok())
        .collect()
}

/// The game with `partner` is stored as finished by abandonment, with `result`.
fn assert_pgn(dir: &Path, partner: &str, result: &str) {
    let games = archived(dir, partner);
    assert_eq!(games.len(), 1, "{games:?}");
    let pgn = &games[0];
    assert!(pgn.contains("[Termination \"abandoned\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[Result \"{result}\"]")), "{pgn}");
    assert!(pgn.trim_end().ends_with(result), "{pgn}");
}
