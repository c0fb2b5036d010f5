//! The host's door against strangers, over loopback: idle sockets cannot keep the partner
//! out, wrong codes from one address are slowed down, and the game id alone (as a PGN may
//! show it) does not resume the game. Strangers connect from 127.0.0.1, the partner from ::1,
//! so the host sees two addresses.

mod lan_support;

use chesspi::lan::net::{LanHandle, MAX_CONNECTIONS};
use chesspi::lan::session::{CodeChoice, Session, Timing};
use chesspi_engine::Color;
use chesspi_engine::game::Game;
use lan_support::{CODE, Endpoint, Raw, fast, net};
use serde_json::Value;
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// A host listening on 127.0.0.1 and ::1: (its IPv4 address, its IPv6 address). Fast
/// timers, but wrong codes are slowed down as by default.
fn host() -> (Endpoint, String, String) {
    let timing = Timing {
        wrong_code_wait: Timing::default().wrong_code_wait,
        ..fast()
    };
    let session = Session::host(
        "Host",
        CodeChoice::Fixed(CODE.into()),
        Color::White,
        Game::new(),
        timing,
    );
    let listen: [SocketAddr; 2] = ["127.0.0.1:0".parse().unwrap(), "[::1]:0".parse().unwrap()];
    let handle = LanHandle::host(session, &listen, net(), || {}).unwrap();
    let v4 = handle.local_addrs()[0].to_string();
    let v6 = handle.local_addrs()[1].to_string();
    (Endpoint::new(handle), v4, v6)
}

/// The partner's `hello` resuming `welcome`'s game, with the secret when the host gave one.
fn resume_hello(welcome: &Value, secret: bool) -> String {
    let mut resume = serde_json::json!({"game": welcome["game"], "ply": 0});
    if secret && let Some(s) = welcome.get("secret") {
        resume["secret"] = s.clone();
    }
    serde_json::json!({"type":"hello","protocol":1,"name":"Partner","code":"0000","resume":resume})
        .to_string()
}

#[test]
fn a_resuming_partner_gets_in_while_strangers_hold_every_slot() {
    let (mut host, v4, v6) = host();
    let mut partner = Raw::connect(&v6);
    let welcome = partner.hello(CODE);
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    host.paired();
    drop(partner);
    // A stranger opens every slot there is and says nothing.
    let strangers: Vec<Raw> = (0..MAX_CONNECTIONS).map(|_| Raw::connect(&v4)).collect();
    std::thread::sleep(Duration::from_millis(100));
    let mut back = Raw::connect(&v6);
    back.send(&resume_hello(&welcome, true));
    let reply = back.next();
    assert!(
        reply.as_ref().is_some_and(|r| r["type"] == "welcome"),
        "the partner was kept out: {reply:?}"
    );
    drop(strangers);
}

#[test]
fn one_address_gets_two_unpaired_slots() {
    let (_host, v4, v6) = host();
    let _held: Vec<Raw> = (0..2).map(|_| Raw::connect(&v4)).collect();
    std::thread::sleep(Duration::from_millis(100));
    let mut third = Raw::connect(&v4);
    third.send(&format!(
        r#"{{"type":"hello","protocol":1,"name":"X","code":"{CODE}","resume":null}}"#
    ));
    assert!(third.next_line().is_none(), "a third socket was served");
    // Another address is served meanwhile.
    let mut guest = Raw::connect(&v6);
    assert_eq!(guest.hello(CODE)["type"], "welcome");
}

#[test]
fn wrong_codes_from_one_address_are_slowed_down() {
    let (_host, v4, _) = host();
    let started = Instant::now();
    let (mut checked, mut tries) = (0, 0);
    // As fast as one address can: a new connection and a wrong code, again and again.
    while started.elapsed() < Duration::from_millis(1500) {
        let mut raw = Raw::connect(&v4);
        tries += 1;
        let reply = raw.hello("9999");
        if reply["code"] == "bad_code" {
            checked += 1;
        } else {
            assert_eq!(reply["code"], "wait", "{reply}");
        }
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{checked} of {tries} wrong codes checked in {secs:.2} s ({:.1} checked per second)",
        f64::from(checked) / secs
    );
    // The first wrong code locks the address for 1 s, the second for 2 s.
    assert!(checked <= 2, "{checked} wrong codes checked in {secs:.2} s");
}

#[test]
fn the_game_id_alone_does_not_take_the_partners_place() {
    let (mut host, v4, v6) = host();
    let mut partner = Raw::connect(&v6);
    let welcome = partner.hello(CODE);
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    host.paired();
    // Someone who read the game id (an exported PGN's ChessPILanGame) tries to resume it.
    let mut thief = Raw::connect(&v4);
    thief.send(&resume_hello(&welcome, false));
    let reply = thief.next();
    assert!(
        reply.as_ref().is_some_and(|r| r["code"] == "unknown_game"),
        "the game id alone resumed the game: {reply:?}"
    );
    // The partner is still the partner.
    partner.send(r#"{"type":"ping","seq":7}"#);
    assert_eq!(partner.expect_type("pong")["seq"], 7);
}
