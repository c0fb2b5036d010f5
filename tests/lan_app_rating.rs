//! The real app hosts a network game, headless, with a peer written from docs/PROTOCOL.md on
//! 127.0.0.1 that announces its player: the app's `welcome` tells the player at the device
//! with their rating, the screen shows the peer's player by name, and when the peer mates,
//! the player at the device is rated against the peer's rating (Glicko-2), once.
//! One platform per process, so the scenario runs as one test.

mod support;

use chesspi::app::boot::headless;
use chesspi::app::screens::Go;
use chesspi::lan::session::LinkState;
use chesspi::storage::glicko;
use chesspi::storage::players::{PlayerFiles, PlayerId};
use chesspi::storage::stats::Stats;
use chesspi_engine::Color;
use serde_json::json;
use std::time::Duration;
use support::lan_peer::{Peer, lan_config};
use support::ui::{against_the_computer, pump_until, start_app, tap_square};

const PATIENCE: Duration = Duration::from_secs(20);

#[test]
fn a_rated_network_game_moves_the_players_rating() {
    headless::install().expect("headless");
    let state = tempfile::tempdir().expect("state");
    let app = start_app(state.path(), against_the_computer(3), PATIENCE);
    app.enable_network(lan_config(0, "2468"));
    app.update_controller(|c| {
        c.go(Go::Lobby {
            host: Some(Color::White),
            clock: None,
        })
    });
    pump_until("hosting", PATIENCE, || !app.network_addrs().is_empty());
    let mut peer = Peer::connect(app.network_addrs()[0]);
    peer.send(
        &json!({"type":"hello","protocol":1,"name":"Peer","code":"2468","resume":null,
        "player":{"name":"Ben","rating":1400.0,"deviation":120.0}}),
    );
    let welcome = peer.next("the welcome");
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    // The player at the device, new: Glicko-2's start.
    assert_eq!(
        welcome["player"],
        json!({"name":"Player 1","rating":1000.0,"deviation":500.0})
    );
    pump_until("the game with the partner", PATIENCE, || {
        app.with_controller(|c| {
            c.session()
                .partner()
                .is_some_and(|p| p.link == LinkState::Connected)
        })
    });
    let names = app.with_controller(|c| c.game_view().players());
    assert_eq!(names.0.name, "Ben", "the partner's player, not its device");

    // Fool's mate: the peer (Black) wins. The board takes a tap once the game is on disk.
    pump_until("the new game saved", PATIENCE, || app.is_saved());
    tap_square(&app, "f2");
    tap_square(&app, "f3");
    assert_eq!(peer.next("our move")["uci"], "f2f3");
    peer.send(&json!({"type":"ack","ply":0}));
    peer.send(&json!({"type":"move","ply":1,"uci":"e7e5"}));
    assert_eq!(peer.next("the ack"), json!({"type":"ack","ply":1}));
    pump_until("e7e5 on the board", PATIENCE, || {
        app.is_saved() && app.with_controller(|c| c.session().game().moves().len() == 2)
    });
    tap_square(&app, "g2");
    tap_square(&app, "g4");
    assert_eq!(peer.next("our move")["uci"], "g2g4");
    peer.send(&json!({"type":"ack","ply":2}));
    peer.send(&json!({"type":"move","ply":3,"uci":"d8h4"}));
    assert_eq!(peer.next("the ack"), json!({"type":"ack","ply":3}));

    let files = PlayerFiles::new(state.path());
    pump_until("the rated game on disk", PATIENCE, || {
        app.is_saved() && files.load_stats(PlayerId::FIRST).value != Stats::new()
    });
    let record = files.load_stats(PlayerId::FIRST).value;
    let expected = Stats::new().glicko().after(
        &[glicko::Game {
            opponent: 1400.0,
            opponent_deviation: 120.0,
            score: 0.0,
        }],
        glicko::TAU,
    );
    assert_eq!(record.glicko(), expected);
    assert_eq!(record.summary().people.losses, 1);
    assert_eq!(record.summary().rated_games, 1);
}
