//! The real app hosting a network game, headless: a peer written from docs/PROTOCOL.md joins
//! over loopback TCP, a move tapped on the screen reaches the peer, the peer's move appears on
//! the screen, bad input changes nothing, and a draw offer is answered through the dialog.
//! One platform per process, so the scenario runs as one test.

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::model::mode::GameSetup;
use chesspi::app::screens::Go;
use chesspi::app::screens::Lobby;
use chesspi::app::ui::DialogAdapter;
use chesspi::lan::session::LinkState;
use chesspi_engine::Color;
use chesspi_engine::game::Game;
use serde_json::json;
use slint::{ComponentHandle, Model};
use std::io::Write;
use std::time::Duration;

mod support;
use support::lan_peer::{Peer, lan_config};
use support::ui::{pump_until, tap_square};

/// How long the app may take for what the test waits for.
const PATIENCE: Duration = Duration::from_secs(10);

#[test]
fn a_network_game_through_the_real_app() {
    headless::install().expect("headless");
    let app = App::new(Game::new(), GameSetup::FIRST_START).expect("app");
    app.window().show().expect("window");
    app.enable_network(lan_config(0, "2468"));
    app.update_controller(|c| {
        c.go(Go::Lobby {
            host: Some(Color::White),
            clock: None,
        })
    });
    pump_until("hosting", PATIENCE, || !app.network_addrs().is_empty());
    let dialog = app.window().global::<DialogAdapter>();
    assert_eq!(dialog.get_title(), "Pairing code 2468");
    assert!(
        dialog.get_message().contains("Waiting for a partner"),
        "{}",
        dialog.get_message()
    );
    assert!(matches!(
        app.with_controller(|c| c.shown::<Lobby>().cloned()),
        Some(Lobby::Hosting { .. })
    ));
    // Listening on loopback only: that address, with its port, is what a guest types.
    let listening = app.network_addrs()[0];
    assert!(listening.ip().is_loopback());
    assert!(
        dialog
            .get_message()
            .contains(&format!("Enter address and type {listening}")),
        "{}",
        dialog.get_message()
    );

    // A wrong code is refused; the right one pairs.
    let addr = app.network_addrs()[0];
    let mut wrong = Peer::connect(addr);
    wrong.send(&json!({"type":"hello","protocol":1,"name":"Peer","code":"1111","resume":null}));
    assert_eq!(wrong.next("the refusal")["code"], "bad_code");
    // After a wrong code the address waits a second before its next code is looked at.
    std::thread::sleep(Duration::from_millis(1100));
    let mut peer = Peer::connect(addr);
    peer.send(&json!({"type":"hello","protocol":1,"name":"Peer","code":"2468","resume":null}));
    let welcome = peer.next("the welcome");
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    assert_eq!(welcome["you"], "black");
    pump_until("the game with the partner", PATIENCE, || {
        app.with_controller(|c| {
            c.session()
                .partner()
                .is_some_and(|p| p.link == LinkState::Connected)
        })
    });
    assert!(!dialog.get_visible(), "the waiting dialog closed");
    let names = app.with_controller(|c| c.game_view().players());
    assert_eq!(names.0.name, "Peer");
    assert_eq!(names.1.name, "You");

    // A move tapped on the screen reaches the peer.
    tap_square(&app, "e2");
    tap_square(&app, "e4");
    let mv = peer.next("our move");
    assert_eq!(mv, json!({"type":"move","ply":0,"uci":"e2e4"}));
    peer.send(&json!({"type":"ack","ply":0}));

    // Garbage, an illegal move and a move out of turn change nothing.
    peer.send(&json!({"type":"move","ply":1,"uci":"e7e4"}));
    assert_eq!(peer.next("the refusal")["code"], "illegal_move");
    peer.stream.write_all(b"this is not json\n").expect("send");
    assert_eq!(peer.next("the refusal")["code"], "bad_message");
    peer.send(&json!({"type":"move","ply":2,"uci":"d2d4"}));
    assert_eq!(peer.next("the refusal")["code"], "bad_ply");
    assert_eq!(app.with_controller(|c| c.session().game().moves().len()), 1);

    // The peer's move appears on the screen.
    peer.send(&json!({"type":"move","ply":1,"uci":"e7e5"}));
    assert_eq!(peer.next("the ack"), json!({"type":"ack","ply":1}));
    pump_until("the peer's move on the board", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 2)
    });

    // A draw offer is a dialog; declining answers the peer.
    peer.send(&json!({"type":"offer","what":"draw"}));
    pump_until("the offer dialog", PATIENCE, || dialog.get_visible());
    assert_eq!(dialog.get_title(), "Peer offers a draw");
    let options: Vec<String> = dialog
        .get_options()
        .iter()
        .map(|o| o.id.to_string())
        .collect();
    assert_eq!(options, ["accept", "decline"]);
    dialog.invoke_option_chosen("decline".into());
    let reply = peer.next("the reply");
    assert_eq!(reply["type"], "reply");
    assert_eq!(reply["accept"], false);

    // The peer resigns: the game is over with us as the winner.
    peer.send(&json!({"type":"resign"}));
    pump_until("the result", PATIENCE, || {
        app.with_controller(|c| c.session().game().is_over())
    });
    assert_eq!(
        app.with_controller(|c| c.game_view().result().map(|r| r.title)),
        Some("You win!".to_string())
    );
}
