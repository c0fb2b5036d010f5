//! A timed network game through the real app (headless): the host chooses the clock in New
//! game (Network, Host, 1+0), the guest gets it in `welcome`, a move tapped on the screen
//! carries the mover's time, a peer's absurd time is not believed, and the peer's `flag`
//! ends the game on time here too.

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::model::mode::{ColourChoice, GameSetup, NewGameForm};
use chesspi::config::Config;
use chesspi::lan::session::LinkState;
use chesspi_engine::Color;
use chesspi_engine::game::{Game, Termination};
use serde_json::json;
use slint::ComponentHandle;
use std::time::{Duration, Instant};

mod support;
use support::lan_peer::Peer;
use support::ui::{pump_until, tap_square};

/// How long the app may take for what the test waits for.
const PATIENCE: Duration = Duration::from_secs(10);

#[test]
fn a_timed_network_game_through_the_real_app() {
    headless::install().expect("headless");
    let text = "[lan]\nname = \"Board\"\nport = 7531\nlisten = [\"127.0.0.1\"]\n\
                discovery = false\ncode = \"2468\"\n";
    let mut lan = Config::parse(text, std::path::Path::new("test.toml"))
        .expect("config")
        .lan;
    lan.port = 0;
    let app = App::new(Game::new(), GameSetup::FIRST_START).expect("app");
    app.window().show().expect("window");
    app.enable_network(lan);
    // New game → Network → Host, White, clock 1+0 (the first preset).
    app.update_controller(|c| {
        c.action(chesspi::app::screens::Action::NewGame);
        c.on(|f: &mut NewGameForm, _| f.choose_mode("network"));
        c.on(|f: &mut NewGameForm, _| f.choose_network(true));
        c.on(|f: &mut NewGameForm, _| f.choose_colour(ColourChoice::White));
        c.on(|f: &mut NewGameForm, _| f.choose_preset(Some(0)));
        c.on(NewGameForm::start);
    });
    pump_until("hosting", PATIENCE, || !app.network_addrs().is_empty());
    let mut peer = Peer::connect(app.network_addrs()[0]);
    // White's clock starts at the pairing: what it used is at most the time from here.
    let started = Instant::now();
    peer.send(&json!({"type":"hello","protocol":1,"name":"Peer","code":"2468","resume":null}));
    let welcome = peer.next("the welcome");
    assert_eq!(
        welcome["clock"],
        json!({"base":60000,"increment":0,"white":60000,"black":60000}),
        "{welcome}"
    );
    pump_until("the timed game", PATIENCE, || {
        app.with_controller(|c| {
            c.session()
                .partner()
                .is_some_and(|p| p.link == LinkState::Connected)
                && c.session().clock().is_some()
        })
    });

    // Our move carries our time left.
    tap_square(&app, "e2");
    tap_square(&app, "e4");
    let mv = peer.next("our move");
    assert_eq!(
        (mv["ply"].clone(), mv["uci"].clone()),
        (json!(0), json!("e2e4"))
    );
    let left = mv["clock"].as_u64().expect("a clock with the move");
    // (Milliseconds are cut on both sides: a few of slack.)
    let used = started.elapsed().as_millis() as u64 + 5;
    assert!(
        left <= 60_000 && left + used >= 60_000,
        "{left} ms left after ~{used} ms"
    );
    peer.send(&json!({"type":"ack","ply":0}));

    // The peer claims ten hours: not believed beyond the allowance.
    peer.send(&json!({"type":"move","ply":1,"uci":"e7e5","clock":36_000_000}));
    assert_eq!(peer.next("the ack"), json!({"type":"ack","ply":1}));
    pump_until("the reply on the board", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 2)
    });
    let black = app.with_controller(|c| {
        c.session()
            .clock()
            .map(|k| k.remaining(Color::Black, Instant::now()))
    });
    assert!(
        black.is_some_and(|b| b <= Duration::from_secs(61)),
        "{black:?}"
    );

    // White moves; then Black's time runs out on the peer's device: its flag ends the game.
    tap_square(&app, "g1");
    tap_square(&app, "f3");
    assert_eq!(peer.next("our second move")["ply"], 2);
    peer.send(&json!({"type":"ack","ply":2}));
    // A flag for another ply than the game's is refused and changes nothing.
    peer.send(&json!({"type":"flag","ply":1}));
    assert_eq!(peer.next("the refusal")["code"], "bad_ply");
    peer.send(&json!({"type":"flag","ply":3}));
    pump_until("the result", PATIENCE, || {
        app.with_controller(|c| c.session().game().is_over())
    });
    let outcome = app
        .with_controller(|c| c.session().game().outcome())
        .expect("over");
    assert_eq!(outcome.termination, Termination::Time);
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(
        app.with_controller(|c| c.game_view().result().map(|r| r.title)),
        Some("You win!".to_string())
    );
    assert_eq!(
        app.with_controller(|c| c.session().clock().and_then(|k| k.running())),
        None,
        "the clocks stop with the game"
    );
}
