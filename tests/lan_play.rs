//! Two endpoints of the real LAN code play over 127.0.0.1: a whole game, offers, resignation,
//! a link that dies with a move in flight, and a host restarted from its saved game.

mod lan_support;

use chesspi::lan::codec::{ErrorCode, OfferKind};
use chesspi::lan::net::LanEvent;
use chesspi::lan::session::{CodeChoice, Event, LinkState, Session};
use chesspi_engine::Color;
use chesspi_engine::game::Termination;
use lan_support::{CODE, Endpoint, Proxy, fast};
use std::time::{Duration, Instant};

/// Host (White, code 1234) and a paired guest.
fn pair() -> (Endpoint, Endpoint) {
    let mut host = Endpoint::host(CodeChoice::Fixed(CODE.into()), Color::White);
    let mut guest = Endpoint::join(&host.addr(), CODE);
    host.paired();
    guest.paired();
    (host, guest)
}

/// `mover` plays `uci`; the other side sees it; the ack comes back.
fn exchange(mover: &mut Endpoint, other: &mut Endpoint, uci: &str) {
    let mv = mover.play(uci);
    let ply = (mover.game.moves().len() - 1) as u32;
    assert_eq!(other.expect_partner_move(), mv);
    mover.expect_ack(ply);
}

#[test]
fn a_whole_game_over_loopback() {
    let (mut host, mut guest) = pair();
    assert_eq!(host.partner, "Guest");
    assert_eq!(guest.partner, "Host");
    assert_eq!(guest.local, Color::Black);
    assert_eq!(guest.game_id, host.game_id);
    let mut ply = 0usize;
    // Paced: each side may receive at most 50 lines a second: 25 moves or acks, 4 pings
    // and 4 pongs.
    while !host.game.is_over() && ply < 100 {
        std::thread::sleep(Duration::from_millis(40));
        let (mover, other) = if ply.is_multiple_of(2) {
            (&mut host, &mut guest)
        } else {
            (&mut guest, &mut host)
        };
        let mut moves: Vec<String> = mover
            .game
            .position()
            .legal_moves()
            .iter()
            .map(|m| m.to_uci())
            .collect();
        moves.sort();
        let uci = moves[(ply * 7 + 3) % moves.len()].clone();
        exchange(mover, other, &uci);
        ply += 1;
    }
    assert!(ply >= 40, "the game lasted {ply} plies");
    assert_eq!(host.game.moves(), guest.game.moves());
    assert_eq!(host.game.outcome(), guest.game.outcome());
}

#[test]
fn a_short_game_ends_in_mate_on_both_sides() {
    let (mut host, mut guest) = pair();
    for (i, uci) in ["f2f3", "e7e5", "g2g4", "d8h4"].iter().enumerate() {
        if i.is_multiple_of(2) {
            exchange(&mut host, &mut guest, uci);
        } else {
            exchange(&mut guest, &mut host, uci);
        }
    }
    host.expect_session("game over", |e| matches!(e, Event::GameOver(_)));
    let outcome = host.game.outcome().unwrap();
    assert_eq!(outcome.termination, Termination::Checkmate);
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(guest.game.outcome(), Some(outcome));
}

#[test]
fn draw_offers_declined_then_accepted() {
    let (mut host, mut guest) = pair();
    exchange(&mut host, &mut guest, "e2e4");
    guest.offer(OfferKind::Draw);
    host.expect_session("offer", |e| {
        matches!(e, Event::OfferReceived(OfferKind::Draw))
    });
    host.handle.answer(false);
    guest.expect_session("declined", |e| {
        matches!(
            e,
            Event::OfferAnswered {
                what: OfferKind::Draw,
                accept: false
            }
        )
    });
    assert!(!guest.game.is_over());
    exchange(&mut guest, &mut host, "e7e5");
    host.offer(OfferKind::Draw);
    guest.expect_session("offer", |e| {
        matches!(e, Event::OfferReceived(OfferKind::Draw))
    });
    guest.handle.answer(true);
    guest.expect_session("game over", |e| matches!(e, Event::GameOver(_)));
    host.expect_session("game over", |e| matches!(e, Event::GameOver(_)));
    assert_eq!(
        host.game.outcome().unwrap().termination,
        Termination::Agreement
    );
    assert_eq!(host.game.outcome(), guest.game.outcome());
}

#[test]
fn takebacks_declined_then_accepted() {
    let (mut host, mut guest) = pair();
    exchange(&mut host, &mut guest, "e2e4");
    exchange(&mut guest, &mut host, "e7e5");
    exchange(&mut host, &mut guest, "f1c4");
    host.offer(OfferKind::Takeback);
    guest.expect_session("offer", |e| {
        matches!(e, Event::OfferReceived(OfferKind::Takeback))
    });
    guest.handle.answer(false);
    host.expect_session("declined", |e| {
        matches!(
            e,
            Event::OfferAnswered {
                what: OfferKind::Takeback,
                accept: false
            }
        )
    });
    assert_eq!(host.game.moves().len(), 3);
    host.offer(OfferKind::Takeback);
    guest.expect_session("offer", |e| {
        matches!(e, Event::OfferReceived(OfferKind::Takeback))
    });
    guest.handle.answer(true);
    guest.expect_session("cut", |e| matches!(e, Event::TakenBack { ply: 2 }));
    host.expect_session("cut", |e| matches!(e, Event::TakenBack { ply: 2 }));
    assert_eq!(host.game.moves(), guest.game.moves());
    // The game goes on from the cut.
    exchange(&mut host, &mut guest, "g1f3");
    assert_eq!(host.game.moves(), guest.game.moves());
}

#[test]
fn resignation() {
    let (mut host, mut guest) = pair();
    exchange(&mut host, &mut guest, "d2d4");
    host.handle.resign();
    guest.expect_session("game over", |e| matches!(e, Event::GameOver(_)));
    let outcome = guest.game.outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::Black));
    assert_eq!(outcome.termination, Termination::Resignation);
    // Nothing more can be played.
    let mv = guest.game.position().parse_uci_move("d7d5").unwrap();
    guest.handle.play(mv);
    guest.expect("refused", |e| matches!(e, LanEvent::Refused(..)));
}

#[test]
fn wrong_code_is_refused() {
    let mut host = Endpoint::host(CodeChoice::Fixed(CODE.into()), Color::White);
    let mut guest = Endpoint::join(&host.addr(), "9999");
    guest.expect_session("refused", |e| {
        matches!(
            e,
            Event::Refused {
                code: ErrorCode::BadCode,
                ..
            }
        )
    });
    host.expect_session("wrong code", |e| {
        matches!(e, Event::WrongCode { attempts: 1 })
    });
    // A right code still pairs, once the address has waited after its wrong one (10 ms
    // with these timers).
    std::thread::sleep(std::time::Duration::from_millis(50));
    let mut guest = Endpoint::join(&host.addr(), CODE);
    guest.paired();
}

#[test]
fn a_dead_link_with_a_move_in_flight_resumes_exactly() {
    let mut host = Endpoint::host(CodeChoice::Fixed(CODE.into()), Color::White);
    let proxy = Proxy::start(host.handle.local_addrs()[0]);
    let mut guest = Endpoint::join(&proxy.addr.to_string(), CODE);
    host.paired();
    guest.paired();
    exchange(&mut host, &mut guest, "e2e4");
    // The link dies silently; the guest's move goes into the void.
    proxy.cut();
    let cut_at = Instant::now();
    guest.play("c7c5");
    host.expect_link(LinkState::Lost);
    guest.expect_link(LinkState::Lost);
    let lost_after = cut_at.elapsed();
    assert!(lost_after < Duration::from_millis(2500), "{lost_after:?}");
    assert_eq!(host.game.moves().len(), 1);
    proxy.restore();
    let back = Instant::now();
    guest.expect_link(LinkState::Connected);
    host.expect_partner_move();
    assert!(back.elapsed() < Duration::from_secs(3));
    guest.expect_ack(1);
    assert_eq!(host.game.moves(), guest.game.moves());
    // And the same for the host's move.
    proxy.cut();
    host.play("g1f3");
    host.expect_link(LinkState::Lost);
    guest.expect_link(LinkState::Lost);
    proxy.restore();
    guest.expect_session("resync", |e| matches!(e, Event::Resynced { .. }));
    assert_eq!(host.game.moves(), guest.game.moves());
    assert_eq!(guest.game.moves().len(), 3);
    exchange(&mut guest, &mut host, "b8c6");
}

#[test]
fn a_host_killed_and_restarted_from_its_save_resumes() {
    let (mut host, mut guest) = pair();
    exchange(&mut host, &mut guest, "e2e4");
    exchange(&mut guest, &mut host, "e7e5");
    let addr = host.handle.local_addrs()[0];
    let saved = host.saved();
    drop(host); // as a power cut: no bye
    guest.expect_link(LinkState::Lost);
    let session = Session::restore_host("Host", CodeChoice::Random, saved, fast());
    let mut host = Endpoint::host_on(session, addr);
    host.game = guest.game.clone();
    host.local = Color::White;
    guest.expect_link(LinkState::Connected);
    host.expect_link(LinkState::Connected);
    exchange(&mut host, &mut guest, "g1f3");
    assert_eq!(host.game.moves(), guest.game.moves());
}

#[test]
fn a_guest_killed_and_restarted_from_its_save_resumes() {
    let (mut host, mut guest) = pair();
    exchange(&mut host, &mut guest, "d2d4");
    let saved = guest.saved();
    let target = host.addr();
    drop(guest);
    host.expect_link(LinkState::Lost);
    exchange_after_restart(&mut host, saved, &target);
}

fn exchange_after_restart(
    host: &mut Endpoint,
    saved: chesspi::lan::session::SavedGame,
    target: &str,
) {
    let session = Session::restore_guest("Guest", saved.clone(), fast());
    let handle =
        chesspi::lan::net::LanHandle::join(session, target, lan_support::net(), || {}).unwrap();
    let mut guest = Endpoint::new(handle);
    guest.game = saved.game;
    guest.local = saved.local;
    host.expect_link(LinkState::Connected);
    exchange(&mut guest, host, "d7d5");
    assert_eq!(host.game.moves(), guest.game.moves());
}

#[test]
fn bye_ends_the_game_for_good() {
    let (mut host, guest) = pair();
    guest.handle.leave();
    host.expect_session("left", |e| matches!(e, Event::PartnerLeft));
    host.expect_link(LinkState::Closed);
}
