//! The players at two devices over 127.0.0.1: each side's name and rating in `hello` and
//! `welcome`, and older peers on either side (no player, the bytes an older ChessPI
//! writes): they still pair and play, shown by their device's name, unrated.

mod lan_support;

use chesspi::lan::codec::{PlayerCard, PlayerRating};
use chesspi::lan::session::CodeChoice;
use chesspi_engine::Color;
use lan_support::{CODE, Endpoint, PATIENCE, Raw, loopback};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;

fn card(name: &str, rating: Option<(f64, f64)>) -> Option<PlayerCard> {
    Some(PlayerCard {
        name: name.into(),
        rating: rating.map(|(r, d)| PlayerRating::new(r, d).expect("in bounds")),
    })
}

/// `mover` plays `uci`; the other side sees it; the ack comes back.
fn exchange(mover: &mut Endpoint, other: &mut Endpoint, uci: &str) {
    let mv = mover.play(uci);
    let ply = (mover.game.moves().len() - 1) as u32;
    assert_eq!(other.expect_partner_move(), mv);
    mover.expect_ack(ply);
}

#[test]
fn each_device_learns_the_other_player_and_rating() {
    let code = CodeChoice::Fixed(CODE.into());
    let mut host = Endpoint::host_as(code, Color::White, card("Anna", Some((1523.5, 80.0))));
    let mut guest = Endpoint::join_as(&host.addr(), CODE, card("Ben", Some((1000.0, 500.0))));
    host.paired();
    guest.paired();
    assert_eq!(host.partner, "Ben");
    assert_eq!(host.partner_rating, PlayerRating::new(1000.0, 500.0));
    assert_eq!(guest.partner, "Anna");
    assert_eq!(guest.partner_rating, PlayerRating::new(1523.5, 80.0));
    exchange(&mut host, &mut guest, "e2e4");
    exchange(&mut guest, &mut host, "e7e5");
    assert_eq!(host.game.moves(), guest.game.moves());
}

/// An older guest (today's `hello` without `player`, byte for byte) pairs with a host that
/// announces its player: the host shows the guest's device name, has no rating for it, and
/// the two play.
#[test]
fn an_older_guest_still_plays_unrated() {
    let code = CodeChoice::Fixed(CODE.into());
    let mut host = Endpoint::host_as(code, Color::White, card("Anna", Some((1523.5, 80.0))));
    let mut raw = Raw::connect(&host.addr());
    raw.send(r#"{"type":"hello","protocol":1,"name":"Old","code":"1234","resume":null}"#);
    let welcome = raw.expect_type("welcome");
    // Our welcome carries the player; an older guest ignores the field.
    assert_eq!(welcome["player"]["name"], "Anna");
    assert_eq!(welcome["player"]["rating"], 1523.5);
    host.paired();
    assert_eq!(host.partner, "Old");
    assert_eq!(host.partner_rating, None);
    host.play("e2e4");
    let m = raw.expect_type("move");
    assert_eq!(m["uci"], "e2e4");
    raw.send(r#"{"type":"ack","ply":0}"#);
    host.expect_ack(0);
    raw.send(r#"{"type":"move","ply":1,"uci":"e7e5"}"#);
    assert_eq!(raw.expect_type("ack")["ply"], 1);
    host.expect_partner_move();
    assert_eq!(host.game.moves().len(), 2);
}

/// An older host (its `welcome` without `player`, as an older ChessPI writes it) takes a
/// guest that announces its player: the guest shows the host's device name, has no rating
/// for it, and the two play.
#[test]
fn an_older_host_still_plays_unrated() {
    let listener = TcpListener::bind(loopback()).unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let mut guest = Endpoint::join_as(&addr, CODE, card("Ben", Some((1000.0, 500.0))));
    let (stream, _) = listener.accept().unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    let mut next = || loop {
        let mut line = String::new();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the guest closed");
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        if v["type"] != "ping" && v["type"] != "pong" {
            return v;
        }
    };
    let hello = next();
    assert_eq!(hello["type"], "hello");
    assert_eq!(hello["name"], "Guest");
    assert_eq!(hello["player"]["name"], "Ben");
    assert_eq!(hello["player"]["deviation"], 500.0);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut send = |line: String| writer.write_all(format!("{line}\n").as_bytes()).unwrap();
    send(format!(
        r#"{{"type":"welcome","protocol":1,"name":"OldHost","game":"9f1c0a7e5b2d4c6e8a0b1c2d3e4f5a6b","you":"black","start":"{start}","moves":[],"result":null}}"#
    ));
    guest.paired();
    assert_eq!(guest.partner, "OldHost");
    assert_eq!(guest.partner_rating, None);
    assert_eq!(guest.local, Color::Black);
    send(r#"{"type":"move","ply":0,"uci":"e2e4"}"#.to_string());
    guest.expect_partner_move();
    guest.play("e7e5");
    // The guest's ack of e2e4, then its move (pings skipped).
    let ack = next();
    assert_eq!(
        (ack["type"].as_str(), ack["ply"].as_u64()),
        (Some("ack"), Some(0))
    );
    let mv = next();
    assert_eq!(mv["uci"], "e7e5", "{mv}");
    send(r#"{"type":"ack","ply":1}"#.to_string());
    guest.expect_ack(1);
    assert_eq!(guest.game.moves().len(), 2);
}
