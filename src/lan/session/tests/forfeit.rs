//! Winning by forfeit: claimed only against a partner away long enough, told to the partner
//! when it comes back, and never taken from a partner who is here.

use super::*;

const AWAY: Duration = DEFAULT_FORFEIT_AFTER;

fn forfeit_win(winner: Color) -> Option<Outcome> {
    Some(Outcome::win(winner, Termination::Abandonment))
}

fn game_over(events: &[Event]) -> Option<Outcome> {
    events.iter().rev().find_map(|e| match e {
        Event::GameOver(o) => Some(*o),
        Event::Resynced { game } => game.outcome(),
        _ => None,
    })
}

/// Paired, two moves played, then the link drops and both sides note it.
fn apart() -> Pair {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    p.guest_plays("e7e5");
    p.drop_link();
    p.host.tick(p.now);
    p.guest.tick(p.now);
    p.host_events.clear();
    p.guest_events.clear();
    p
}

#[test]
fn no_claim_while_the_partner_is_connected_or_not_away_long_enough() {
    let mut p = Pair::paired();
    assert_eq!(
        p.host.claim_forfeit(p.now + AWAY),
        Err(LocalError::PartnerConnected)
    );
    assert_eq!(
        p.guest.claim_forfeit(p.now + AWAY),
        Err(LocalError::PartnerConnected)
    );
    p.drop_link();
    p.host.tick(p.now);
    let just_short = p.now + AWAY - Duration::from_millis(1);
    assert_eq!(p.host.claim_forfeit(just_short), Err(LocalError::TooSoon));
    assert!(!p.host.game().is_over());
    assert!(p.host.claim_forfeit(p.now + AWAY).is_ok());
    assert_eq!(
        p.host.claim_forfeit(p.now + AWAY),
        Err(LocalError::GameOver),
        "once"
    );
}

#[test]
fn the_host_claims_and_the_guest_learns_it_when_it_comes_back() {
    let mut p = apart();
    let outcome = p.host.claim_forfeit(p.now + AWAY).unwrap();
    assert_eq!(Some(outcome), forfeit_win(Color::White));
    p.pump();
    assert_eq!(game_over(&p.host_events), forfeit_win(Color::White));
    assert!(p.host.forfeit_claimed());
    assert!(!p.host.is_closed(), "the host still answers its guest");

    // The guest reconnects: the welcome ends its game as lost by abandonment.
    p.connect();
    assert_eq!(p.guest.game().outcome(), forfeit_win(Color::White));
    assert_eq!(game_over(&p.guest_events), forfeit_win(Color::White));
    p.assert_same_game();
    assert_eq!(p.guest.game().moves().len(), 2);
}

#[test]
fn the_guest_claims_and_a_host_that_was_off_learns_it() {
    let mut p = apart();
    p.now += AWAY;
    p.guest.claim_forfeit(p.now).unwrap();
    p.pump();
    assert_eq!(game_over(&p.guest_events), forfeit_win(Color::Black));
    // The host's device was off: it comes back from its save, just now.
    let saved = p.host.saved().unwrap();
    p.host = Session::restore_host("Hosty", CodeChoice::Random, saved, timing());
    p.host.tick(p.now);
    p.connect();
    assert_eq!(p.host.game().outcome(), forfeit_win(Color::Black));
    assert_eq!(game_over(&p.host_events), forfeit_win(Color::Black));
    p.assert_same_game();
    // The guest got its own result back: it stays, as after any end.
    assert_eq!(p.guest.link(), LinkState::Connected);
    assert!(!p.guest.is_closed());
}

#[test]
fn a_guest_restarted_after_its_claim_still_tells_it() {
    let mut p = apart();
    p.now += AWAY;
    p.guest.claim_forfeit(p.now).unwrap();
    let saved = p.guest.saved().unwrap();
    p.guest = Session::restore_guest("Guesty", saved, timing());
    assert!(p.guest.forfeit_claimed());
    // The host's player was away as long: it takes the claim the restarted guest repeats.
    p.host.tick(p.now);
    p.connect();
    assert_eq!(p.host.game().outcome(), forfeit_win(Color::Black));
    p.assert_same_game();
}

#[test]
fn the_guest_claims_and_a_host_that_waited_as_long_takes_it() {
    let mut p = apart();
    p.now += AWAY;
    p.guest.claim_forfeit(p.now).unwrap();
    p.host.tick(p.now);
    p.connect();
    assert_eq!(p.host.game().outcome(), forfeit_win(Color::Black));
    p.assert_same_game();
}

#[test]
fn a_host_that_saw_the_guest_away_only_briefly_refuses_its_claim() {
    let mut p = apart();
    // The guest counts from an earlier loss than the host (its clock, its setting).
    p.guest.claim_forfeit(p.now + AWAY).unwrap();
    p.now += Duration::from_secs(10);
    p.host.tick(p.now);
    p.connect();
    assert!(!p.host.game().is_over(), "the host's player was here");
    assert!(
        p.host_events
            .iter()
            .any(|e| matches!(e, Event::PartnerLeft)),
        "the guest keeps its result and says bye"
    );
    assert_eq!(p.guest.game().outcome(), forfeit_win(Color::Black));
    assert!(p.guest.is_closed());
    assert_eq!(p.guest.link(), LinkState::Closed);
}

#[test]
fn a_claim_from_a_guest_still_connected_or_at_another_ply_is_ignored() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    p.now += AWAY * 2;
    let (id, secret) = (p.host.game_id().to_string(), p.host.secret.clone());
    let claim = |ply| {
        Some(Resume {
            game: id.clone(),
            ply,
            forfeit: true,
            secret: secret.clone(),
        })
    };
    // The guest's old connection looks alive: its player is here.
    p.host.connection_opened(ConnId(7), p.now);
    p.raw_line(ConnId(7), &hello("", claim(1)));
    let replies = p.raw_replies(ConnId(7));
    assert!(matches!(&replies[0], Message::Welcome(w) if w.result.is_none()));
    assert!(!p.host.game().is_over());

    // Away long enough, but the claim is not at the host's ply.
    p.host.connection_closed(ConnId(7));
    p.host.tick(p.now);
    p.now += AWAY;
    p.host.connection_opened(ConnId(8), p.now);
    p.raw_line(ConnId(8), &hello("", claim(0)));
    assert!(!p.host.game().is_over());
    p.host.connection_closed(ConnId(8));
    p.host.tick(p.now);
    p.now += AWAY;
    // At the host's ply it is taken.
    p.host.connection_opened(ConnId(9), p.now);
    p.raw_line(ConnId(9), &hello("", claim(1)));
    assert_eq!(p.host.game().outcome(), forfeit_win(Color::Black));
    let replies = p.raw_replies(ConnId(9));
    let welcome = replies.iter().find_map(|m| match m {
        Message::Welcome(w) => Some(w),
        _ => None,
    });
    let welcome = welcome.expect("a welcome");
    assert_eq!(welcome.result.as_deref(), Some("0-1"));
    assert_eq!(welcome.termination.as_deref(), Some("abandoned"));
}

#[test]
fn both_claimed_each_keeps_its_own_result() {
    let mut p = apart();
    p.now += AWAY;
    p.host.claim_forfeit(p.now).unwrap();
    p.guest.claim_forfeit(p.now).unwrap();
    p.connect();
    assert_eq!(p.host.game().outcome(), forfeit_win(Color::White));
    assert_eq!(p.guest.game().outcome(), forfeit_win(Color::Black));
    assert!(p.guest.is_closed());
    assert!(
        p.host_events
            .iter()
            .any(|e| matches!(e, Event::PartnerLeft))
    );
}

#[test]
fn a_welcome_giving_the_guest_a_forfeit_win_is_refused() {
    let mut guest = Session::guest("Guesty", "1234", timing());
    guest.connection_opened(GC, Instant::now());
    let line = br#"{"type":"welcome","protocol":1,"name":"H","game":"g","you":"black","start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":[],"result":"0-1","termination":"abandoned"}"#;
    guest.received(GC, codec::decode(line), Instant::now());
    assert!(guest.is_closed());
    assert!(!guest.game().is_over());
    assert!(
        guest
            .drain()
            .iter()
            .any(|o| matches!(o, Output::Event(Event::Refused { .. })))
    );
}
