//! A network game survives a power cut of the hosting device: the real app (headless, with
//! its saver) hosts, a protocol peer joins and moves are made; the app goes away and a new
//! one starts from the same state directory, hosts the same game again by itself, and the
//! peer resumes it at the exact position.

use chesspi::app::App;
use chesspi::app::headless;
use chesspi::app::mode::Setup;
use chesspi::app::persist;
use chesspi::config::{LanConfig, PairingCode};
use chesspi::lan::session::LinkState;
use chesspi_engine::Color;
use chesspi_engine::game::Game;
use serde_json::json;
use slint::ComponentHandle;

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
    }
}

fn start_app(dir: &std::path::Path, port: u16) -> App {
    let (restored, stores, notices) = persist::open(dir, (Game::new(), Setup::FIRST_START));
    assert!(notices.is_empty(), "{notices:?}");
    let lan = restored.lan.clone();
    let app = App::new(restored.game, restored.setup).expect("app");
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

    // Back on: the same game, hosted again by itself, waiting for its partner.
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
