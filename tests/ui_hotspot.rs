//! A game without a router leaves nothing behind: the real app (headless, simulated radio
//! behind the real Wi-Fi thread) removes the hotspot an earlier run left up when it starts;
//! then it hosts a game over a new hotspot, a protocol peer on 127.0.0.1 plays the partner,
//! and the partner's goodbye takes the hotspot down at once, back to the network from before.

use chesspi::app::boot::headless;
use chesspi::app::model::mode::GameSetup;
use chesspi::app::screens::{Go, Lobby};
use chesspi::wifi::sim::{SimNetwork, SimulatedWifi};
use chesspi::wifi::{Passphrase, Ssid, Wifi, hotspot_password};
use chesspi_engine::Color;
use serde_json::json;
use slint::ComponentHandle;
use std::net::SocketAddr;
use std::time::Duration;

mod support;
use support::lan_peer::{Peer, free_port, lan_config};
use support::ui::{pump_until, start_app_ignoring_notices};

const PATIENCE: Duration = Duration::from_secs(10);

fn ssid(name: &str) -> Ssid {
    Ssid::new(name.as_bytes()).expect("a name")
}

#[test]
fn a_hotspot_game_leaves_no_hotspot_behind() {
    headless::install().expect("headless");
    let mut radio = SimulatedWifi::new(vec![SimNetwork {
        ssid: ssid("Home"),
        strength: 80,
        password: Some("Knight#42".into()),
    }]);
    let password = Passphrase::new("Knight#42").expect("a password");
    radio.join(&ssid("Home"), Some(&password)).expect("home");
    // The earlier run opened its hotspot for a game and stopped (a crash, a power cut).
    radio
        .open_hotspot(&ssid("ChessPI-Board"), &hotspot_password())
        .expect("the hotspot");
    radio.restart();

    let dir = tempfile::tempdir().expect("tempdir");
    let app = start_app_ignoring_notices(dir.path(), GameSetup::FIRST_START, PATIENCE);
    let port = free_port();
    app.enable_network(lan_config(port, "1357"));
    app.enable_wifi(Box::new(radio.clone()))
        .expect("the Wi-Fi thread");
    app.window().show().expect("window");
    pump_until("the earlier run's hotspot gone", PATIENCE, || {
        radio.hotspot().is_none()
    });
    assert_eq!(
        radio.current(),
        Some(ssid("Home")),
        "back on a known network"
    );

    // This run's game: hosted over a new hotspot.
    app.update_controller(|c| {
        c.go(Go::Lobby {
            host: Some(Color::White),
            clock: None,
        })
    });
    pump_until("hosting", PATIENCE, || !app.network_addrs().is_empty());
    // Offered once the Wi-Fi thread's look, asked for when the lobby opened, found the radio.
    pump_until("the hotspot offered", PATIENCE, || {
        app.with_controller(|c| {
            c.shown::<Lobby>()
                .and_then(Lobby::view)
                .is_some_and(|v| v.options.iter().any(|o| o.id == "hotspot"))
        })
    });
    app.update_controller(|c| c.on(|l: &mut Lobby, cx| l.option(cx, "hotspot")));
    pump_until("the hotspot open", PATIENCE, || radio.hotspot().is_some());
    let addr: SocketAddr = format!("127.0.0.1:{port}").parse().expect("addr");
    let mut peer = Peer::connect(addr);
    peer.send(&json!({"type":"hello","protocol":1,"name":"Anna","code":"1357","resume":null}));
    assert_eq!(peer.next("the welcome")["type"], "welcome");
    pump_until("paired", PATIENCE, || {
        app.with_controller(|c| c.session().partner().is_some())
    });
    assert!(radio.hotspot().is_some(), "up while the game goes on");

    // The partner leaves for good: nobody needs the hotspot any more.
    peer.send(&json!({"type":"bye"}));
    pump_until("the hotspot gone after the goodbye", PATIENCE, || {
        radio.hotspot().is_none()
    });
    assert_eq!(
        radio.current(),
        Some(ssid("Home")),
        "back on the network from before"
    );
}
