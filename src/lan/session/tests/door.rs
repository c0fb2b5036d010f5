//! The host's door against strangers, in simulated time: the partner always gets a place,
//! one address holds few places and for a short time, wrong codes are slowed down per
//! address, and the game id alone resumes nothing.

use super::*;
use std::net::IpAddr;

fn ip(n: u8) -> IpAddr {
    IpAddr::from([192, 168, 1, n])
}

/// A raw `hello` resuming game `id` (with `secret` when given; `forfeit` claims the win).
fn resume_line(id: &str, secret: Option<&str>, forfeit: bool) -> Vec<u8> {
    let mut resume = serde_json::json!({"game": id, "ply": 0, "forfeit": forfeit});
    if let Some(s) = secret {
        resume["secret"] = s.into();
    }
    serde_json::json!({"type":"hello","protocol":1,"name":"X","code":"","resume":resume})
        .to_string()
        .into_bytes()
}

fn is_welcome(replies: &[Message]) -> bool {
    matches!(replies.first(), Some(Message::Welcome(_)))
}

#[test]
fn an_idle_stranger_is_dropped_two_seconds_after_connecting() {
    let mut p = Pair::new(CodeChoice::Random);
    let id = ConnId(7);
    let start = p.now;
    p.host.connection_opened(id, start);
    p.now = start + Duration::from_millis(1999);
    p.host.tick(p.now);
    p.pump();
    assert!(!p.closed.contains(&id));
    p.now = start + Duration::from_secs(2);
    p.host.tick(p.now);
    p.pump();
    assert!(p.closed.contains(&id), "still open after 2 s without hello");
}

#[test]
fn sixty_wrong_codes_from_one_address_take_most_of_an_hour() {
    let mut p = Pair::new(CodeChoice::Fixed("4321".into()));
    let start = p.now;
    let (mut checked, mut next) = (0, 100);
    // The attacker tries again every second, as long as it takes.
    while checked < 60 {
        let id = ConnId(next);
        next += 1;
        p.host.connection_opened(id, p.now);
        p.raw_line(id, &hello("1111", None));
        match error_code(&p.raw_replies(id)[0]) {
            Some(ErrorCode::BadCode) => checked += 1,
            Some(ErrorCode::Wait) => {}
            other => panic!("{other:?}"),
        }
        p.now += Duration::from_secs(1);
        assert!(next < 10_000, "no end");
    }
    let took = p.now - start;
    // Waits of 1 + 2 + 4 + ... + 32 s, then 64 s after each further code: 3455 s between
    // the first code and the sixtieth.
    assert!(
        took >= Duration::from_secs(3455),
        "60 wrong codes took {took:?}"
    );
    assert!(!p.host.is_paired());
}

#[test]
fn the_game_id_alone_does_not_take_the_partners_place() {
    let mut p = Pair::paired();
    let id = p.host.game_id().to_string();
    p.host.connection_opened(ConnId(9), p.now);
    p.raw_line(ConnId(9), &resume_line(&id, None, false));
    assert_eq!(
        error_code(&p.raw_replies(ConnId(9))[0]),
        Some(&ErrorCode::UnknownGame)
    );
    assert_eq!(p.host.link(), LinkState::Connected);
    // A wrong secret is no better.
    p.host.connection_opened(ConnId(10), p.now);
    let wrong = "0".repeat(32);
    p.raw_line(ConnId(10), &resume_line(&id, Some(&wrong), false));
    assert_eq!(
        error_code(&p.raw_replies(ConnId(10))[0]),
        Some(&ErrorCode::UnknownGame)
    );
    assert_eq!(p.host.link(), LinkState::Connected);
}

#[test]
fn the_game_id_alone_cannot_claim_a_forfeit() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    p.drop_link();
    p.host.tick(p.now);
    p.now += DEFAULT_FORFEIT_AFTER * 2;
    p.host.tick(p.now);
    let id = p.host.game_id().to_string();
    p.host.connection_opened(ConnId(9), p.now);
    let mut line = resume_line(&id, None, true);
    line = String::from_utf8(line)
        .unwrap()
        .replace("\"ply\":0", "\"ply\":1")
        .into_bytes();
    p.raw_line(ConnId(9), &line);
    assert!(!p.host.game().is_over(), "a stranger made the host lose");
}

#[test]
fn the_partner_resumes_with_its_secret() {
    let mut p = Pair::paired();
    let key = ResumeKey::parse(&p.guest.saved().unwrap().game_id);
    assert_eq!(key.game_id, p.host.game_id());
    assert!(key.secret.is_some(), "the guest keeps the host's secret");
    p.drop_link();
    p.connect();
    assert_eq!(p.host.link(), LinkState::Connected);
    assert_eq!(p.guest.link(), LinkState::Connected);
}

#[test]
fn a_resuming_partner_gets_in_while_strangers_hold_every_slot() {
    let mut p = Pair::paired();
    let (id, secret) = (p.host.game_id().to_string(), p.host.secret.clone());
    p.drop_link();
    // Four addresses, two waiting connections each: every place is taken.
    let mut n = 100;
    for a in 1..=4 {
        for _ in 0..UNPAIRED_PER_ADDRESS {
            assert!(p.host.accepted(ConnId(n), ip(a), p.now));
            n += 1;
        }
    }
    assert_eq!(p.host.conns.len(), MAX_CONNECTIONS);
    assert!(p.host.accepted(ConnId(50), ip(9), p.now), "the partner");
    p.pump();
    assert_eq!(p.closed.len(), 1, "one stranger gave way");
    p.raw_line(ConnId(50), &resume_line(&id, secret.as_deref(), false));
    assert!(is_welcome(&p.raw_replies(ConnId(50))));
    assert_eq!(p.host.link(), LinkState::Connected);
}

#[test]
fn strangers_never_push_out_the_partner() {
    let mut p = Pair::paired();
    for n in 0..40u8 {
        p.host
            .accepted(ConnId(100 + u64::from(n)), ip(n % 20), p.now);
        p.pump();
        assert!(p.host.conns.len() <= MAX_CONNECTIONS);
    }
    assert!(p.host.conns.contains_key(&HC));
    assert_eq!(p.host.link(), LinkState::Connected);
    p.host_plays("e2e4");
    assert_eq!(p.guest.game().moves().len(), 1);
}

#[test]
fn one_address_has_two_waiting_connections_at_most() {
    let mut p = Pair::new(CodeChoice::Fixed("1234".into()));
    assert!(p.host.accepted(ConnId(101), ip(1), p.now));
    assert!(p.host.accepted(ConnId(102), ip(1), p.now));
    assert!(!p.host.accepted(ConnId(103), ip(1), p.now));
    // Through an IPv6 socket the address is the same.
    let mapped: IpAddr = "::ffff:192.168.1.1".parse().unwrap();
    assert!(!p.host.accepted(ConnId(104), mapped, p.now));
    assert!(p.host.accepted(ConnId(105), ip(2), p.now));
    // Once one says its hello, the address has room again.
    p.raw_line(ConnId(101), &hello("1111", None));
    assert!(p.host.accepted(ConnId(106), ip(1), p.now));
}

#[test]
fn wrong_codes_lock_only_their_own_address() {
    let mut p = Pair::new(CodeChoice::Fixed("1234".into()));
    assert!(p.host.accepted(ConnId(101), ip(1), p.now));
    p.raw_line(ConnId(101), &hello("1111", None));
    assert_eq!(
        error_code(&p.raw_replies(ConnId(101))[0]),
        Some(&ErrorCode::BadCode)
    );
    // Even the right code is not looked at from there for a second.
    assert!(p.host.accepted(ConnId(102), ip(1), p.now));
    p.raw_line(ConnId(102), &hello("1234", None));
    assert_eq!(
        error_code(&p.raw_replies(ConnId(102))[0]),
        Some(&ErrorCode::Wait)
    );
    // Another address pairs at once.
    assert!(p.host.accepted(ConnId(103), ip(2), p.now));
    p.raw_line(ConnId(103), &hello("1234", None));
    assert!(is_welcome(&p.raw_replies(ConnId(103))));
}
