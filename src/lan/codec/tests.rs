//! The wire form of every message, decoding's refusals and the line reader.

use super::*;

fn frames(chunks: &[&[u8]]) -> Vec<Frame> {
    let mut reader = LineReader::new();
    let mut out = Vec::new();
    for c in chunks {
        reader.feed(c, &mut out);
    }
    out
}

#[test]
fn decodes_the_issue_examples() {
    let m = decode(br#"{"type":"hello","protocol":1,"name":"Ann","code":"1234","resume":null}"#)
        .unwrap();
    assert_eq!(
        m,
        Message::Hello(Hello {
            protocol: 1,
            name: "Ann".into(),
            code: "1234".into(),
            resume: None,
            player: None,
        })
    );
    let m = decode(
        br#"{"type":"hello","protocol":1,"name":"A","code":"1","resume":{"game":"g","ply":3}}"#,
    )
    .unwrap();
    let Message::Hello(h) = m else { panic!() };
    assert_eq!(
        h.resume,
        Some(Resume {
            game: "g".into(),
            ply: 3,
            forfeit: false,
            secret: None,
        })
    );
    assert_eq!(
        decode(br#"{"type":"move","ply":0,"uci":"e2e4","extra":[1,2]}"#).unwrap(),
        Message::Move {
            ply: 0,
            uci: "e2e4".into(),
            clock: None
        }
    );
    assert_eq!(
        decode(br#"{"type":"move","ply":2,"uci":"g1f3","clock":299500}"#).unwrap(),
        Message::Move {
            ply: 2,
            uci: "g1f3".into(),
            clock: Some(299_500)
        }
    );
    assert_eq!(
        decode(br#"{"type":"flag","ply":7}"#).unwrap(),
        Message::Flag { ply: 7 }
    );
    assert_eq!(
        decode(br#"{"type":"reply","what":"takeback","accept":true,"ply":4}"#).unwrap(),
        Message::Reply {
            what: OfferKind::Takeback,
            accept: true,
            ply: Some(4)
        }
    );
    assert_eq!(decode(br#"{"type":"resign"}"#).unwrap(), Message::Resign);
    let m = decode(br#"{"type":"error","code":"bad_ply","ply":2,"text":"x"}"#).unwrap();
    assert_eq!(
        m,
        Message::Error(ErrorMsg {
            code: ErrorCode::BadPly,
            ply: Some(2),
            text: "x".into()
        })
    );
    let m = decode(br#"{"type":"error","code":"whatever"}"#).unwrap();
    let Message::Error(e) = m else { panic!() };
    assert_eq!(e.code, ErrorCode::Other("whatever".into()));
}

#[test]
fn a_resume_says_forfeit_only_when_claimed() {
    let resume = |forfeit| Resume {
        game: "g".into(),
        ply: 2,
        forfeit,
        secret: None,
    };
    let plain = serde_json::to_string(&resume(false)).unwrap();
    assert_eq!(plain, r#"{"game":"g","ply":2}"#);
    let claimed = serde_json::to_string(&resume(true)).unwrap();
    assert_eq!(claimed, r#"{"game":"g","ply":2,"forfeit":true}"#);
}

#[test]
fn every_message_round_trips() {
    let all = [
        Message::Hello(Hello {
            protocol: 1,
            name: "n".into(),
            code: "0042".into(),
            resume: Some(Resume {
                game: "id".into(),
                ply: 7,
                forfeit: true,
                secret: None,
            }),
            player: None,
        }),
        Message::Hello(Hello {
            protocol: 1,
            name: "n".into(),
            code: "0042".into(),
            resume: Some(Resume {
                game: "id".into(),
                ply: 7,
                forfeit: false,
                secret: Some("0123456789abcdef".into()),
            }),
            player: None,
        }),
        Message::Welcome(Welcome {
            protocol: 1,
            name: "h".into(),
            game: "id".into(),
            you: Side::Black,
            start: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
            moves: vec!["a1a2".into()],
            result: Some("1/2-1/2".into()),
            clock: Some(ClockMsg {
                base: 300_000,
                increment: 3_000,
                white: 1,
                black: 299_999,
            }),
            termination: Some("time".into()),
            secret: Some("0123456789abcdef".into()),
            player: None,
        }),
        Message::error(ErrorCode::Busy, "busy"),
        Message::Move {
            ply: 1,
            uci: "e7e5".into(),
            clock: Some(12),
        },
        Message::Flag { ply: 3 },
        Message::Ack { ply: 1 },
        Message::Ping { seq: 9 },
        Message::Pong { seq: 9 },
        Message::Offer {
            what: OfferKind::Draw,
        },
        Message::Reply {
            what: OfferKind::Draw,
            accept: false,
            ply: None,
        },
        Message::Resign,
        Message::Bye,
    ];
    for m in all {
        let line = encode(&m).unwrap();
        assert_eq!(line.last(), Some(&b'\n'));
        assert_eq!(decode(&line[..line.len() - 1]).unwrap(), m, "{m:?}");
    }
}

#[test]
fn wire_form_matches_the_contract() {
    let line = encode(&Message::Ack { ply: 3 }).unwrap();
    assert_eq!(line, b"{\"type\":\"ack\",\"ply\":3}\n");
    // Untimed moves look as before clocks were added.
    let line = encode(&Message::Move {
        ply: 0,
        uci: "e2e4".into(),
        clock: None,
    })
    .unwrap();
    assert_eq!(line, b"{\"type\":\"move\",\"ply\":0,\"uci\":\"e2e4\"}\n");
    let line = encode(&Message::Reply {
        what: OfferKind::Draw,
        accept: true,
        ply: None,
    })
    .unwrap();
    assert_eq!(
        line,
        b"{\"type\":\"reply\",\"what\":\"draw\",\"accept\":true}\n"
    );
    let hello = encode(&Message::Hello(Hello {
        protocol: 1,
        name: "a".into(),
        code: "1".into(),
        resume: None,
        player: None,
    }))
    .unwrap();
    assert!(
        String::from_utf8(hello)
            .unwrap()
            .contains("\"resume\":null")
    );
}

#[test]
fn refuses_bad_lines_with_the_right_code() {
    let code = |b: &[u8]| decode(b).unwrap_err().code();
    assert_eq!(code(b"not json"), ErrorCode::BadMessage);
    assert_eq!(code(b"[1,2]"), ErrorCode::BadMessage);
    assert_eq!(code(br#"{"ply":1}"#), ErrorCode::BadMessage);
    assert_eq!(code(br#"{"type":5}"#), ErrorCode::BadMessage);
    assert_eq!(
        code(br#"{"type":"move","ply":"1","uci":"e2e4"}"#),
        ErrorCode::BadMessage
    );
    assert_eq!(
        code(br#"{"type":"move","ply":-1,"uci":"e2e4"}"#),
        ErrorCode::BadMessage
    );
    assert_eq!(
        code(br#"{"type":"move","uci":"e2e4"}"#),
        ErrorCode::BadMessage
    );
    assert_eq!(
        code(br#"{"type":"offer","what":"tea"}"#),
        ErrorCode::BadMessage
    );
    assert_eq!(
        code(b"{\"type\":\"ping\",\"seq\":1}\xff"),
        ErrorCode::BadMessage
    );
    assert_eq!(code(br#"{"type":"dance"}"#), ErrorCode::UnknownType);
    assert_eq!(
        code(br#"{"type":"hello","protocol":2}"#),
        ErrorCode::Version
    );
    assert_eq!(
        code(br#"{"type":"hello","protocol":"1"}"#),
        ErrorCode::Version
    );
    assert_eq!(code(&[b' '; MAX_LINE]), ErrorCode::TooLong);
    // No protocol at all is not version 1 either.
    assert_eq!(
        code(br#"{"type":"hello","name":"A","code":"1234"}"#),
        ErrorCode::Version
    );
}

#[test]
fn a_move_with_a_clock_that_is_no_time_is_still_a_move() {
    for clock in [r#""abc""#, "-5", "1.5", "true", "{}", "null"] {
        let line = format!(r#"{{"type":"move","ply":3,"uci":"e7e5","clock":{clock}}}"#);
        assert_eq!(
            decode(line.as_bytes()),
            Ok(Message::Move {
                ply: 3,
                uci: "e7e5".into(),
                clock: None
            }),
            "{line}"
        );
    }
}

#[test]
fn frames_lines_split_anywhere() {
    let input = b"{\"type\":\"bye\"}\r\n\n{\"type\":\"resign\"}\npartial";
    let whole = frames(&[input]);
    let bytewise: Vec<&[u8]> = input.chunks(1).collect();
    assert_eq!(frames(&bytewise), whole);
    assert_eq!(
        whole,
        vec![
            Frame::Line(b"{\"type\":\"bye\"}\r".to_vec()),
            Frame::Line(b"{\"type\":\"resign\"}".to_vec()),
        ]
    );
}

#[test]
fn limits_lines_to_4096_bytes_with_the_newline() {
    let mut ok = vec![b' '; MAX_LINE - 1];
    ok.push(b'\n');
    ok[0] = b'x';
    assert_eq!(frames(&[&ok]).len(), 1);
    let mut long = vec![b'x'; MAX_LINE];
    long.push(b'\n');
    long.extend_from_slice(b"{\"type\":\"bye\"}\n");
    assert_eq!(frames(&[&long]), vec![Frame::TooLong]);
    let bytewise: Vec<&[u8]> = long.chunks(1).collect();
    assert_eq!(frames(&bytewise), vec![Frame::TooLong]);
}

#[test]
fn encode_refuses_oversized_messages() {
    let m = Message::Welcome(Welcome {
        protocol: 1,
        name: "h".into(),
        game: "g".into(),
        you: Side::White,
        start: String::new(),
        moves: vec!["e2e4".into(); 700],
        result: None,
        clock: None,
        termination: None,
        secret: None,
        player: None,
    });
    assert!(matches!(encode(&m), Err(EncodeError::TooLong(_))));
}

fn card(name: &str, rating: Option<(f64, f64)>) -> PlayerCard {
    PlayerCard {
        name: name.into(),
        rating: rating.map(|(r, d)| PlayerRating::new(r, d).expect("in bounds")),
    }
}

#[test]
fn hello_and_welcome_carry_the_player_and_round_trip() {
    let hello = |player| {
        Message::Hello(Hello {
            protocol: 1,
            name: "Kitchen".into(),
            code: "0042".into(),
            resume: None,
            player,
        })
    };
    let welcome = |player| {
        Message::Welcome(Welcome {
            protocol: 1,
            name: "Hall".into(),
            game: "id".into(),
            you: Side::White,
            start: "8/8/8/8/8/8/8/K6k w - - 0 1".into(),
            moves: Vec::new(),
            result: None,
            clock: None,
            termination: None,
            secret: None,
            player,
        })
    };
    let cards = [
        None,
        Some(card("Anna", None)),
        Some(card("Anna", Some((1_523.437_129_8, 87.25)))),
        Some(card("Ben", Some((0.0, 1.0)))),
        Some(card("Ben", Some((4000.0, 500.0)))),
    ];
    for player in cards {
        for m in [hello(player.clone()), welcome(player.clone())] {
            let line = encode(&m).unwrap();
            assert_eq!(decode(&line[..line.len() - 1]).unwrap(), m, "{m:?}");
        }
    }
    let line = encode(&hello(Some(card("Anna", Some((1523.5, 80.0)))))).unwrap();
    assert_eq!(
        String::from_utf8(line).unwrap(),
        "{\"type\":\"hello\",\"protocol\":1,\"name\":\"Kitchen\",\"code\":\"0042\",\"resume\":null,\
         \"player\":{\"name\":\"Anna\",\"rating\":1523.5,\"deviation\":80.0}}\n"
    );
    let line = encode(&welcome(Some(card("Anna", None)))).unwrap();
    assert!(
        String::from_utf8(line)
            .unwrap()
            .ends_with(",\"player\":{\"name\":\"Anna\"}}\n")
    );
}

/// An older peer's `hello` and `welcome` (the bytes this encoder wrote before players) decode
/// as before, without a player; and without one, ours are those same bytes.
#[test]
fn an_older_peer_has_no_player_and_looks_the_same() {
    let old =
        b"{\"type\":\"hello\",\"protocol\":1,\"name\":\"Anna\",\"code\":\"1234\",\"resume\":null}";
    let Message::Hello(h) = decode(old).unwrap() else {
        panic!()
    };
    assert_eq!(h.player, None);
    assert_eq!(h.name, "Anna");
    let mut ours = encode(&Message::Hello(h)).unwrap();
    assert_eq!(ours.pop(), Some(b'\n'));
    assert_eq!(ours, old);
    let old = br#"{"type":"welcome","protocol":1,"name":"Kitchen","game":"g","you":"black","start":"8/8/8/8/8/8/8/K6k w - - 0 1","moves":[],"result":null}"#;
    let Message::Welcome(w) = decode(old).unwrap() else {
        panic!()
    };
    assert_eq!(w.player, None);
    let mut ours = encode(&Message::Welcome(w)).unwrap();
    ours.pop();
    assert_eq!(ours, old);
}

/// A `player` that is no card, or a rating out of bounds or of the wrong type, is dropped:
/// the message still decodes (unrated), nothing panics.
#[test]
fn bad_player_values_are_dropped_not_fatal() {
    let hello = |player: &str| {
        let line = format!(
            r#"{{"type":"hello","protocol":1,"name":"D","code":"1","resume":null,"player":{player}}}"#
        );
        match decode(line.as_bytes()) {
            Ok(Message::Hello(h)) => h.player,
            other => panic!("{line}: {other:?}"),
        }
    };
    for no_card in [
        "null",
        "1",
        r#""Anna""#,
        "[]",
        "{}",
        r#"{"name":5}"#,
        r#"{"rating":1500}"#,
    ] {
        assert_eq!(hello(no_card), None, "{no_card}");
    }
    let unrated = Some(card("Anna", None));
    for rating in [
        r#""rating":1500"#,
        r#""deviation":80"#,
        r#""rating":-1,"deviation":80"#,
        r#""rating":4000.5,"deviation":80"#,
        r#""rating":1500,"deviation":0.5"#,
        r#""rating":1500,"deviation":500.01"#,
        r#""rating":1e308,"deviation":80"#,
        r#""rating":"1500","deviation":80"#,
        r#""rating":1500,"deviation":null"#,
        r#""rating":[1500],"deviation":{}"#,
        r#""rating":18446744073709551615,"deviation":80"#,
    ] {
        let player = format!(r#"{{"name":"Anna",{rating}}}"#);
        assert_eq!(hello(&player), unrated, "{player}");
    }
    assert_eq!(
        hello(r#"{"name":"Anna","rating":1500,"deviation":350,"title":"GM"}"#),
        Some(card("Anna", Some((1500.0, 350.0))))
    );
    // JSON has no NaN or infinity: such a line is not JSON at all, as before.
    let line = br#"{"type":"hello","protocol":1,"name":"D","code":"1","player":{"name":"A","rating":NaN,"deviation":80}}"#;
    assert_eq!(decode(line).unwrap_err().code(), ErrorCode::BadMessage);
    let line = br#"{"type":"welcome","protocol":1,"name":"H","game":"g","you":"white","start":"x","moves":[],"player":{"name":"A","rating":1e999,"deviation":80}}"#;
    assert_eq!(decode(line).unwrap_err().code(), ErrorCode::BadMessage);
    assert_eq!(PlayerRating::new(f64::NAN, 80.0), None);
    assert_eq!(PlayerRating::new(1500.0, f64::INFINITY), None);
}
