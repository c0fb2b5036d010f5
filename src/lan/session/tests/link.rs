//! Heartbeat, flood limit, lost links and resuming.

use super::*;

#[test]
fn heartbeat_pings_every_second_and_silence_is_lost_after_four() {
    let mut p = Pair::paired();
    let start = p.now;
    p.host.tick(start + Duration::from_millis(999));
    assert!(p.host.drain().is_empty());
    p.host.tick(start + Duration::from_secs(1));
    let outs = p.host.drain();
    assert!(matches!(
        outs[..],
        [Output::Send(HC, Message::Ping { seq: 1 })]
    ));
    // Silence (the wire is cut): lost at 4 s, not before.
    p.cut();
    for ms in [2000, 3000, 3999] {
        p.host.tick(start + Duration::from_millis(ms));
        p.guest.tick(start + Duration::from_millis(ms));
    }
    assert_eq!(p.host.link(), LinkState::Connected);
    assert!(p.host.next_deadline().unwrap() <= start + Duration::from_secs(4));
    p.host.tick(start + Duration::from_secs(4));
    p.guest.tick(start + Duration::from_secs(4));
    p.pump();
    assert_eq!(p.host.link(), LinkState::Lost);
    assert_eq!(p.guest.link(), LinkState::Lost);
    assert!(p.host_events.contains_lost());
}

trait HasLost {
    fn contains_lost(&self) -> bool;
}

impl HasLost for Vec<Event> {
    fn contains_lost(&self) -> bool {
        self.iter()
            .any(|e| matches!(e, Event::Link(LinkState::Lost)))
    }
}

#[test]
fn pings_are_answered_and_keep_the_link() {
    let mut p = Pair::paired();
    let start = p.now;
    for s in 1..=10 {
        p.now = start + Duration::from_secs(s);
        p.host.tick(p.now);
        p.guest.tick(p.now);
        p.pump();
    }
    assert_eq!(p.host.link(), LinkState::Connected);
    assert_eq!(p.guest.link(), LinkState::Connected);
}

#[test]
fn a_flood_closes_the_connection() {
    let mut p = Pair::paired();
    // Past the handshake's lines.
    p.now += Duration::from_secs(1);
    for i in 0..50 {
        p.now += Duration::from_millis(10);
        p.host.received(HC, Ok(Message::Ping { seq: i }), p.now);
    }
    assert!(!p.host.drain().iter().any(|o| matches!(o, Output::Close(_))));
    p.host.received(HC, Ok(Message::Ping { seq: 99 }), p.now);
    let outs = p.host.drain();
    assert!(
        outs.iter()
            .any(|o| matches!(o, Output::Send(HC, m) if error_code(m) == Some(&ErrorCode::Flood)))
    );
    assert!(outs.iter().any(|o| matches!(o, Output::Close(HC))));
    assert_eq!(p.host.link(), LinkState::Lost);
}

#[test]
fn fifty_a_second_is_not_a_flood() {
    let mut p = Pair::paired();
    for i in 0..200 {
        p.now += Duration::from_millis(20);
        p.host.received(HC, Ok(Message::Ping { seq: i }), p.now);
    }
    assert!(!p.host.drain().iter().any(|o| matches!(o, Output::Close(_))));
}

#[test]
fn bad_lines_are_answered_and_too_long_closes() {
    let mut p = Pair::paired();
    p.host.received(HC, codec::decode(b"garbage"), p.now);
    p.host
        .received(HC, codec::decode(br#"{"type":"dance"}"#), p.now);
    let outs = p.host.drain();
    let codes: Vec<_> = outs
        .iter()
        .filter_map(|o| match o {
            Output::Send(_, m) => error_code(m).cloned(),
            _ => None,
        })
        .collect();
    assert_eq!(codes, [ErrorCode::BadMessage, ErrorCode::UnknownType]);
    assert_eq!(p.host.link(), LinkState::Connected);
    p.host.received(HC, Err(codec::DecodeError::TooLong), p.now);
    let outs = p.host.drain();
    assert!(outs.iter().any(|o| matches!(o, Output::Close(HC))));
}

#[test]
fn messages_before_hello_close_the_connection() {
    let mut p = Pair::new(CodeChoice::Random);
    p.host.connection_opened(ConnId(5), p.now);
    p.raw_line(ConnId(5), br#"{"type":"move","ply":0,"uci":"e7e5"}"#);
    assert_eq!(
        error_code(&p.raw_replies(ConnId(5))[0]),
        Some(&ErrorCode::HelloFirst)
    );
    assert!(p.closed.contains(&ConnId(5)));
    assert!(p.host.game().moves().is_empty());
}

#[test]
fn a_guest_move_in_flight_survives_a_reconnect() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    // The wire breaks just before the guest moves: the move is lost in flight.
    p.cut();
    p.guest_plays("e7e5");
    assert_eq!(p.guest.unacked(), Some(1));
    p.drop_link();
    assert_eq!(p.host.link(), LinkState::Lost);
    assert_eq!(p.host.game().moves().len(), 1);
    p.guest.reconnecting();
    p.connect();
    p.assert_same_game();
    assert_eq!(p.host.game().moves().len(), 2);
    assert_eq!(p.guest.unacked(), None);
    assert_eq!(p.guest.link(), LinkState::Connected);
}

#[test]
fn a_host_move_in_flight_arrives_with_the_welcome() {
    let mut p = Pair::paired();
    p.cut();
    p.host_plays("d2d4");
    p.drop_link();
    p.connect();
    p.assert_same_game();
    assert!(
        p.guest_events
            .iter()
            .any(|e| matches!(e, Event::Resynced { .. }))
    );
    // A move whose ack was lost is not played twice either.
    p.guest_plays("d7d5");
    p.cut();
    p.host_plays("c2c4");
    p.drop_link();
    p.connect();
    p.assert_same_game();
    assert_eq!(p.host.game().moves().len(), 3);
}

#[test]
fn a_guest_ack_lost_then_reconnect_keeps_one_copy() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    // The guest's move arrives but the ack does not.
    let mv = p.guest.game().position().parse_uci_move("c7c5").unwrap();
    p.guest.play(mv).unwrap();
    let outs = p.guest.drain();
    for o in outs {
        if let Output::Send(_, m) = o {
            p.host.received(HC, Ok(m), p.now);
        }
    }
    p.host.drain();
    p.drop_link();
    p.connect();
    p.assert_same_game();
    assert_eq!(p.host.game().moves().len(), 2);
    assert_eq!(p.guest.unacked(), None);
}

#[test]
fn a_restored_host_takes_back_its_partner() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    let saved = p.host.saved().unwrap();
    let code = CodeChoice::Random;
    p.host = Session::restore_host("Hosty", code, saved, timing());
    p.drop_link();
    p.connect();
    assert_eq!(p.guest.link(), LinkState::Connected);
    p.guest_plays("e7e5");
    p.assert_same_game();
    // And a restored guest too.
    let saved = p.guest.saved().unwrap();
    p.guest = Session::restore_guest("Guesty", saved, timing());
    p.drop_link();
    p.connect();
    p.host_plays("g1f3");
    p.assert_same_game();
    assert_eq!(p.host.game().moves().len(), 3);
}

#[test]
fn resigning_while_disconnected_is_told_after_the_reconnect() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    p.drop_link();
    p.guest.resign().unwrap();
    p.connect();
    p.assert_same_game();
    assert_eq!(p.host.game().outcome().unwrap().winner, Some(Color::White));
}

#[test]
fn offers_need_the_link_and_are_cleared_when_it_drops() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    p.guest.offer(OfferKind::Draw).unwrap();
    p.pump();
    p.drop_link();
    assert!(
        p.host_events
            .iter()
            .any(|e| matches!(e, Event::OffersCleared))
    );
    assert_eq!(p.host.answer(true), Err(LocalError::NoOffer));
    assert_eq!(
        p.guest.offer(OfferKind::Draw),
        Err(LocalError::NotConnected)
    );
}

#[test]
fn bye_ends_for_good() {
    let mut p = Pair::paired();
    p.guest.leave();
    p.pump();
    assert!(
        p.host_events
            .iter()
            .any(|e| matches!(e, Event::PartnerLeft))
    );
    assert!(p.host.is_closed());
    assert_eq!(p.host.link(), LinkState::Closed);
    assert_eq!(p.guest.link(), LinkState::Closed);
}

#[test]
fn names_are_cleaned() {
    assert_eq!(clean_name(" a\u{7}b\n "), "ab");
    // A right-to-left override would show the words after the name reversed.
    assert_eq!(clean_name("Eve\u{202E}reffo\u{200B}\u{2066}x"), "Evereffox");
    assert_eq!(clean_name(&"x".repeat(100)).chars().count(), MAX_NAME_CHARS);
    // Line and paragraph separators are not controls, but break a line all the same.
    assert_eq!(clean_name("a\u{2028}b\u{2029}c"), "a b c");
}

#[test]
fn a_partner_back_on_a_new_connection_replaces_the_old_one() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    // The guest's old connection looks alive to the host, but the guest dials again.
    let resume = Resume {
        game: p.host.game_id().to_string(),
        ply: 1,
        forfeit: false,
        secret: p.host.secret.clone(),
    };
    p.host.connection_opened(ConnId(7), p.now);
    p.raw_line(ConnId(7), &hello("wrong code is fine", Some(resume)));
    let replies = p.raw_replies(ConnId(7));
    assert!(matches!(&replies[0], Message::Welcome(w) if w.moves == ["e2e4"]));
    assert_eq!(p.host.link(), LinkState::Connected);
    assert!(!p.host_events.contains_lost());
    assert!(!p.link_up, "the old connection was closed");
    // Moves now go to the new connection.
    p.host.received(
        ConnId(7),
        codec::decode(br#"{"type":"move","ply":1,"uci":"e7e5"}"#),
        p.now,
    );
    assert!(
        p.host
            .drain()
            .iter()
            .any(|o| matches!(o, Output::Send(ConnId(7), Message::Ack { ply: 1 })))
    );
}

#[test]
fn a_move_in_flight_into_a_game_the_host_ended_is_dropped() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    p.cut();
    p.guest_plays("e7e5");
    p.drop_link();
    p.host.resign().unwrap();
    p.connect();
    p.assert_same_game();
    assert_eq!(p.guest.game().moves().len(), 1);
    let outcome = p.guest.game().outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
}

#[test]
fn after_bye_the_host_tells_new_guests_it_takes_none() {
    let mut p = Pair::paired();
    p.guest.leave();
    p.pump();
    p.host.connection_opened(ConnId(9), p.now);
    p.pump();
    let replies = p.raw_replies(ConnId(9));
    assert_eq!(error_code(&replies[0]), Some(&ErrorCode::Closed));
    assert!(p.closed.contains(&ConnId(9)));
}

#[test]
fn a_handshake_not_done_in_two_seconds_is_dropped_even_if_the_peer_talks() {
    let mut p = Pair::new(CodeChoice::Random);
    let id = ConnId(7);
    let start = p.now;
    p.host.connection_opened(id, start);
    for ms in [500, 1000, 1500] {
        p.now = start + Duration::from_millis(ms);
        p.raw_line(id, br#"{"type":"ping","seq":1}"#);
        p.host.tick(p.now);
        p.pump();
        assert!(!p.closed.contains(&id), "closed after {ms} ms");
    }
    assert_eq!(p.host.next_deadline(), Some(start + Duration::from_secs(2)));
    p.now = start + Duration::from_secs(2);
    p.raw_line(id, br#"{"type":"ping","seq":2}"#);
    p.host.tick(p.now);
    p.pump();
    assert!(p.closed.contains(&id));
}

#[test]
fn a_second_offer_of_another_kind_is_declined_at_once() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    p.guest_plays("e7e5");
    p.guest.offer(OfferKind::Draw).unwrap();
    p.pump();
    // The guest's connection asks for a takeback while its draw offer waits.
    p.host.received(
        HC,
        Ok(Message::Offer {
            what: OfferKind::Takeback,
        }),
        p.now,
    );
    let outs = p.host.drain();
    assert!(outs.iter().any(|o| matches!(
        o,
        Output::Send(
            HC,
            Message::Reply {
                what: OfferKind::Takeback,
                accept: false,
                ..
            }
        )
    )));
    // The draw offer still waits for the host's player.
    p.host.answer(true).unwrap();
    p.pump();
    assert!(p.host.game().is_over());
    p.assert_same_game();
}

#[test]
fn a_strangers_error_does_not_take_back_our_move() {
    let mut p = Pair::paired();
    p.cut();
    p.host_plays("e2e4");
    assert_eq!(p.host.unacked(), Some(0));
    // A second connection, no hello, "refuses" the host's move in flight.
    let stranger = ConnId(11);
    p.host.connection_opened(stranger, p.now);
    p.raw_line(
        stranger,
        br#"{"type":"error","code":"illegal_move","ply":0,"text":"no"}"#,
    );
    assert_eq!(p.host.game().moves().len(), 1);
    assert_eq!(p.host.unacked(), Some(0));
    assert!(
        !p.host_events
            .iter()
            .any(|e| matches!(e, Event::MoveRejected { .. } | Event::PeerError { .. }))
    );
}
