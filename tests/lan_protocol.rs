//! The host against a peer that speaks the protocol by hand over 127.0.0.1: version and code
//! checks, bad moves, duplicates, garbage, oversized and byte-at-a-time lines, a flood.
//! After all of it the host's game holds exactly the moves both sides agreed on.

mod lan_support;

use chesspi::lan::session::{CodeChoice, Event};
use chesspi_engine::Color;
use lan_support::{CODE, Endpoint, Raw};
use std::io::Write;
use std::time::Duration;

fn host() -> Endpoint {
    Endpoint::host(CodeChoice::Fixed(CODE.into()), Color::White)
}

/// A raw guest paired with a host that plays White.
fn paired() -> (Endpoint, Raw) {
    let mut host = host();
    let mut raw = Raw::connect(&host.addr());
    let welcome = raw.hello(CODE);
    assert_eq!(welcome["type"], "welcome", "{welcome}");
    assert_eq!(welcome["protocol"], 1);
    assert_eq!(welcome["you"], "black");
    assert_eq!(welcome["name"], "Host");
    assert_eq!(welcome["moves"], serde_json::json!([]));
    assert_eq!(welcome["result"], serde_json::Value::Null);
    assert_eq!(
        welcome["start"],
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );
    assert!(welcome["game"].as_str().is_some_and(|g| !g.is_empty()));
    host.paired();
    (host, raw)
}

#[test]
fn version_mismatch_is_refused_and_closed() {
    let host = host();
    let mut raw = Raw::connect(&host.addr());
    raw.send(r#"{"type":"hello","protocol":2,"name":"Future","code":"1234","resume":null}"#);
    raw.expect_error("version");
    assert!(raw.closed());
}

#[test]
fn wrong_code_is_refused_and_closed() {
    let host = host();
    let mut raw = Raw::connect(&host.addr());
    let reply = raw.hello("0000");
    assert_eq!(reply["code"], "bad_code", "{reply}");
    assert!(raw.closed());
}

#[test]
fn five_wrong_codes_make_a_new_random_code() {
    let mut host = Endpoint::host(CodeChoice::Random, Color::White);
    let mut wrong = 0;
    while wrong < 5 {
        let mut raw = Raw::connect(&host.addr());
        // "abcd" is never a code, so every attempt is wrong; between two, the address waits
        // (10 ms, doubling, with these timers).
        match raw.hello("abcd")["code"].as_str() {
            Some("bad_code") => wrong += 1,
            Some("wait") => std::thread::sleep(Duration::from_millis(20)),
            other => panic!("{other:?}"),
        }
    }
    let new = match host.expect_session("new code", |e| matches!(e, Event::CodeChanged(_))) {
        Event::CodeChanged(code) => code,
        _ => unreachable!(),
    };
    std::thread::sleep(Duration::from_millis(200));
    let mut raw = Raw::connect(&host.addr());
    assert_eq!(raw.hello(&new)["type"], "welcome");
}

#[test]
fn a_second_guest_is_busy_and_an_unknown_game_refused() {
    let (_host, _raw) = paired();
    let mut other = Raw::connect(&_host.addr());
    assert_eq!(other.hello(CODE)["code"], "busy");
    let mut other = Raw::connect(&_host.addr());
    other.send(
        r#"{"type":"hello","protocol":1,"name":"X","code":"1234","resume":{"game":"0","ply":0}}"#,
    );
    other.expect_error("unknown_game");
}

#[test]
fn illegal_out_of_turn_and_duplicate_moves() {
    let (mut host, mut raw) = paired();
    // Black moves first: not its turn.
    raw.send(r#"{"type":"move","ply":0,"uci":"e7e5"}"#);
    let e = raw.expect_error("not_your_turn");
    assert_eq!(e["ply"], 0);
    host.play("e2e4");
    let m = raw.expect_type("move");
    assert_eq!(
        (m["ply"].as_u64(), m["uci"].as_str()),
        (Some(0), Some("e2e4"))
    );
    raw.send(r#"{"type":"ack","ply":0}"#);
    host.expect_ack(0);
    // Wrong ply, illegal, nonsense: all refused, connection kept.
    raw.send(r#"{"type":"move","ply":3,"uci":"e7e5"}"#);
    raw.expect_error("bad_ply");
    raw.send(r#"{"type":"move","ply":1,"uci":"e7e4"}"#);
    raw.expect_error("illegal_move");
    raw.send(r#"{"type":"move","ply":1,"uci":"e2e5"}"#);
    raw.expect_error("illegal_move");
    raw.send(r#"{"type":"move","ply":1,"uci":"castle!"}"#);
    raw.expect_error("illegal_move");
    // A good move, then the same again: acknowledged twice, played once.
    raw.send(r#"{"type":"move","ply":1,"uci":"e7e5"}"#);
    assert_eq!(raw.expect_type("ack")["ply"], 1);
    raw.send(r#"{"type":"move","ply":1,"uci":"e7e5"}"#);
    assert_eq!(raw.expect_type("ack")["ply"], 1);
    host.expect_partner_move();
    host.settle(Duration::from_millis(200));
    let moved = host
        .log
        .iter()
        .filter(|e| format!("{e:?}").contains("PartnerMoved"))
        .count();
    assert_eq!(moved, 1);
    let ucis: Vec<String> = host.game.moves().iter().map(|m| m.to_uci()).collect();
    assert_eq!(ucis, ["e2e4", "e7e5"]);
    // The host still plays on.
    host.play("g1f3");
    assert_eq!(raw.expect_type("move")["ply"], 2);
}

#[test]
fn garbage_is_answered_and_the_connection_kept() {
    let (mut host, mut raw) = paired();
    raw.send("this is not json");
    raw.expect_error("bad_message");
    raw.send(r#"{"no_type":1}"#);
    raw.expect_error("bad_message");
    raw.send(r#"{"type":"move","ply":"zero","uci":"e7e5"}"#);
    raw.expect_error("bad_message");
    raw.send(r#"{"type":"teleport","to":"h8"}"#);
    raw.expect_error("unknown_type");
    raw.send_raw(b"\xff\xfe\n");
    raw.expect_error("bad_message");
    // A reply to no offer, a resign-looking typo: nothing changes.
    raw.send(r#"{"type":"reply","what":"draw","accept":true}"#);
    raw.expect_error("bad_message");
    raw.send(r#"{"type":"ping","seq":7,"extra":{"ignored":true}}"#);
    assert_eq!(raw.expect_type("pong")["seq"], 7);
    host.play("d2d4");
    assert_eq!(raw.expect_type("move")["uci"], "d2d4");
    assert!(!host.game.is_over());
}

#[test]
fn an_oversized_line_is_refused_and_closed() {
    let (mut host, mut raw) = paired();
    let mut long = vec![b'x'; 5000];
    long.push(b'\n');
    raw.send_raw(&long);
    raw.expect_error("too_long");
    assert!(raw.closed());
    host.expect_session("lost", |e| format!("{e:?}").contains("Lost"));
    assert!(host.game.moves().is_empty());
}

#[test]
fn a_line_of_exactly_4096_bytes_is_accepted() {
    let (_host, mut raw) = paired();
    let head = r#"{"type":"ping","seq":1,"pad":""#;
    let tail = "\"}\n";
    let pad = "p".repeat(4096 - head.len() - tail.len());
    raw.send(&format!("{head}{pad}{}", &tail[..tail.len() - 1]));
    assert_eq!(raw.expect_type("pong")["seq"], 1);
}

#[test]
fn byte_at_a_time_lines_work() {
    let mut host = host();
    let mut raw = Raw::connect(&host.addr());
    let hello = br#"{"type":"hello","protocol":1,"name":"Slow","code":"1234","resume":null}
"#;
    for b in hello {
        raw.stream.write_all(&[*b]).unwrap();
        std::thread::sleep(Duration::from_millis(2));
    }
    assert_eq!(raw.expect_type("welcome")["you"], "black");
    host.paired();
    host.play("c2c4");
    raw.expect_type("move");
    for b in b"{\"type\":\"move\",\"ply\":1,\"uci\":\"c7c5\"}\n" {
        raw.stream.write_all(&[*b]).unwrap();
        std::thread::sleep(Duration::from_millis(2));
    }
    assert_eq!(raw.expect_type("ack")["ply"], 1);
    host.expect_partner_move();
}

#[test]
fn a_flood_closes_the_connection_and_changes_nothing() {
    let (mut host, mut raw) = paired();
    let mut burst = Vec::new();
    for seq in 0..200 {
        burst.extend_from_slice(format!("{{\"type\":\"ping\",\"seq\":{seq}}}\n").as_bytes());
    }
    let _ = raw.stream.write_all(&burst);
    let mut flood = false;
    while let Some(v) = raw.next() {
        if v["type"] == "error" && v["code"] == "flood" {
            flood = true;
        }
    }
    assert!(flood, "no flood error before the close");
    host.expect_session("lost", |e| format!("{e:?}").contains("Lost"));
    assert!(host.game.moves().is_empty());
    assert!(!host.game.is_over());
}

#[test]
fn nothing_needs_hello_except_hello() {
    let host = host();
    let mut raw = Raw::connect(&host.addr());
    raw.send(r#"{"type":"move","ply":0,"uci":"e2e4"}"#);
    raw.expect_error("hello_first");
    assert!(raw.closed());
}

#[test]
fn a_silent_peer_is_dropped() {
    let (mut host, mut raw) = paired();
    // Never answering pings: the host gives up after lost_after (1 s here).
    let t = std::time::Instant::now();
    host.expect_session("lost", |e| format!("{e:?}").contains("Lost"));
    assert!(t.elapsed() < Duration::from_secs(3));
    let mut pings = 0;
    while let Some(v) = raw.next_line() {
        if v["type"] == "ping" {
            pings += 1;
        }
    }
    assert!(pings >= 2, "{pings} pings before the close");
}

#[test]
fn connections_beyond_the_limit_are_closed_at_once() {
    let host = host();
    let idle: Vec<Raw> = (0..chesspi::lan::net::MAX_CONNECTIONS)
        .map(|_| Raw::connect(&host.addr()))
        .collect();
    // Let the host register them all.
    std::thread::sleep(Duration::from_millis(200));
    // One address has two places waiting for a hello (tests/lan_door.rs): one more is
    // closed unread, its hello gets no welcome.
    let mut extra = Raw::connect(&host.addr());
    let _ = extra.stream.write_all(
        format!(r#"{{"type":"hello","protocol":1,"name":"X","code":"{CODE}","resume":null}}"#)
            .as_bytes(),
    );
    let _ = extra.stream.write_all(b"\n");
    assert!(
        extra.next_line().is_none(),
        "a connection beyond the limit was served"
    );
    // Closed connections free their places.
    drop(idle);
    std::thread::sleep(Duration::from_millis(200));
    let mut guest = Raw::connect(&host.addr());
    assert_eq!(guest.hello(CODE)["type"], "welcome");
}
