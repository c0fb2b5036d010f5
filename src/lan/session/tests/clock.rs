//! Timed games: the host's clock in `welcome`, the mover's time with each move, `flag`, and
//! a peer's clock values that must not change the game.

use super::*;

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// Host (White) and guest paired in a 5+3 game.
fn timed() -> Pair {
    let mut p = Pair::new(CodeChoice::Fixed("1234".into()));
    p.host = Session::host(
        "Hosty",
        p.host.pairing.choice.clone(),
        Color::White,
        Game::new(),
        timing(),
    )
    .with_clock(Some(LanClock::new(secs(300), secs(3))));
    p.guest.pairing.code = "1234".into();
    p.connect();
    p
}

fn partner_clock(events: &[Event]) -> Option<Option<Duration>> {
    events.iter().rev().find_map(|e| match e {
        Event::PartnerMoved { clock, .. } => Some(*clock),
        _ => None,
    })
}

fn play_timed(s: &mut Session, uci: &str, left: u64) {
    let mv = s.game().position().parse_uci_move(uci).unwrap();
    s.play_timed(mv, Some(secs(left))).unwrap();
}

#[test]
fn the_hosts_clock_and_each_movers_time_reach_the_partner() {
    let mut p = timed();
    let paired = p.guest_events.iter().find_map(|e| match e {
        Event::Paired { clock, .. } => Some(*clock),
        _ => None,
    });
    assert_eq!(paired, Some(Some(LanClock::new(secs(300), secs(3)))));
    play_timed(&mut p.host, "e2e4", 299);
    p.pump();
    assert_eq!(partner_clock(&p.guest_events), Some(Some(secs(299))));
    play_timed(&mut p.guest, "e7e5", 290);
    p.pump();
    assert_eq!(partner_clock(&p.host_events), Some(Some(secs(290))));
    // Both sessions know both times, for a later welcome.
    assert_eq!(
        p.host.clock().map(|c| (c.white, c.black)),
        Some((secs(299), secs(290)))
    );
    assert_eq!(
        p.guest.clock().map(|c| (c.white, c.black)),
        Some((secs(299), secs(290)))
    );
}

#[test]
fn an_untimed_game_ignores_clock_values() {
    let mut p = Pair::paired();
    // A timed move from our side sends no clock in an untimed game.
    play_timed(&mut p.host, "e2e4", 299);
    p.pump();
    assert_eq!(partner_clock(&p.guest_events), Some(None));
    // A peer's clock in an untimed game is dropped, the move is played.
    p.host.received(
        HC,
        codec::decode(br#"{"type":"move","ply":1,"uci":"e7e5","clock":5}"#),
        p.now,
    );
    p.pump();
    assert_eq!(p.host.game().moves().len(), 2);
    assert_eq!(partner_clock(&p.host_events), Some(None));
}

#[test]
fn an_absurd_clock_value_is_not_taken() {
    let mut p = timed();
    p.host_plays("e2e4");
    p.host.drain();
    let line = format!(
        r#"{{"type":"move","ply":1,"uci":"e7e5","clock":{}}}"#,
        u64::MAX
    );
    p.host.received(HC, codec::decode(line.as_bytes()), p.now);
    p.pump();
    assert_eq!(p.host.game().moves().len(), 2, "the move itself is legal");
    assert_eq!(partner_clock(&p.host_events), Some(None));
    assert_eq!(p.host.clock().map(|c| c.black), Some(secs(300)));
}

#[test]
fn a_fallen_flag_ends_the_game_on_both_sides() {
    let mut p = timed();
    p.host_plays("e2e4");
    // Black's time runs out on Black's device.
    p.guest.flag().unwrap();
    p.pump();
    p.assert_same_game();
    let outcome = p.host.game().outcome().expect("over");
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(outcome.termination, Termination::Time);
    assert!(
        p.host_events
            .iter()
            .any(|e| matches!(e, Event::GameOver(_)))
    );
    // Too late for anything else.
    assert_eq!(p.guest.flag(), Err(LocalError::GameOver));
}

#[test]
fn a_flag_that_does_not_fit_the_game_changes_nothing() {
    let mut p = timed();
    // White is on move: Black cannot have run out now.
    p.host.received(HC, Ok(Message::Flag { ply: 0 }), p.now);
    let outs = p.host.drain();
    assert!(outs.iter().any(|o| matches!(o,
        Output::Send(HC, m) if error_code(m) == Some(&ErrorCode::NotYourTurn))));
    p.host_plays("e2e4");
    // The wrong ply.
    p.host.received(HC, Ok(Message::Flag { ply: 5 }), p.now);
    let outs = p.host.drain();
    assert!(outs.iter().any(|o| matches!(o,
        Output::Send(HC, m) if error_code(m) == Some(&ErrorCode::BadPly))));
    assert!(!p.host.game().is_over());
    // Our own flag only when we are on move.
    assert_eq!(p.host.flag(), Err(LocalError::NotYourTurn));
}

#[test]
fn a_flag_while_the_link_is_down_arrives_after_the_reconnect() {
    // The guest's flag is told after the welcome.
    let mut p = timed();
    p.host_plays("e2e4");
    p.drop_link();
    p.guest.flag().unwrap();
    p.connect();
    p.assert_same_game();
    assert_eq!(
        p.host.game().outcome().map(|o| o.termination),
        Some(Termination::Time)
    );
    // The host's flag comes with its welcome.
    let mut p = timed();
    p.host_plays("e2e4");
    p.guest_plays("e7e5");
    p.drop_link();
    p.host.flag().unwrap();
    p.connect();
    p.assert_same_game();
    let outcome = p.guest.game().outcome().expect("over");
    assert_eq!(
        (outcome.winner, outcome.termination),
        (Some(Color::Black), Termination::Time)
    );
}

#[test]
fn the_hosts_stopped_clocks_come_back_with_the_welcome() {
    let mut p = timed();
    p.host_plays("e2e4");
    p.drop_link();
    // The app stopped its clocks when the link dropped and told the session.
    p.host.set_clock_times(secs(280), secs(250));
    p.guest_events.clear();
    p.connect();
    let clock = p.guest_events.iter().find_map(|e| match e {
        Event::Clock(c) => Some(*c),
        _ => None,
    });
    let expected = LanClock {
        white: secs(280),
        black: secs(250),
        ..LanClock::new(secs(300), secs(3))
    };
    assert_eq!(clock, Some(Some(expected)));
    assert_eq!(p.guest.clock(), Some(expected));
}

#[test]
fn a_welcome_with_a_broken_clock_is_refused() {
    let mut guest = Session::guest("G", "1234", timing());
    guest.connection_opened(GC, Instant::now());
    guest.drain();
    let line = br#"{"type":"welcome","protocol":1,"name":"H","game":"g","you":"black","start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":[],"result":null,"clock":{"base":0,"increment":0,"white":0,"black":0}}"#;
    guest.received(GC, codec::decode(line), Instant::now());
    assert!(guest.is_closed());
    assert!(!guest.is_paired());
}

#[test]
fn an_untimed_host_refuses_a_flag_and_a_guest_takes_the_hosts() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    // Black, the guest, is on move in an untimed game: no flag can fall.
    p.host.received(HC, Ok(Message::Flag { ply: 1 }), p.now);
    let outs = p.host.drain();
    assert!(outs.iter().any(|o| matches!(o,
        Output::Send(HC, m) if error_code(m) == Some(&ErrorCode::IllegalMove))));
    assert!(!p.host.game().is_over());
    p.guest_plays("e7e5");
    // The host decides the time control: a guest that plays untimed (it kept no odd
    // control) still ends the game on the host's flag, as the host does.
    p.guest.received(GC, Ok(Message::Flag { ply: 2 }), p.now);
    assert!(p.guest.game().is_over());
}
