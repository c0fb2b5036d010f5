//! A stream of random messages from the partner: the game changes only by a legal move in
//! turn, a resignation, or the partner refusing our move it had not acknowledged (we make no
//! offers here, so no reply may cut the game).

use super::*;
use chesspi_engine::game::Termination;

/// A small deterministic generator (no crate needed for a test).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_message(rng: &mut Lcg, game: &Game) -> Message {
    let count = game.moves().len() as u32;
    let ply = match rng.below(4) {
        0 => count,
        1 => count.saturating_sub(1),
        2 => count + 1,
        _ => rng.below(200) as u32,
    };
    let legal = game.position().legal_moves();
    let uci = match rng.below(3) {
        0 if !legal.is_empty() => legal.as_slice()[rng.below(legal.len() as u64) as usize].to_uci(),
        1 => ["e7e5", "e2e4", "a1a8", "0000", "e7e8q", "zz", ""][rng.below(7) as usize].into(),
        _ => format!(
            "{}{}{}{}",
            (b'a' + rng.below(8) as u8) as char,
            1 + rng.below(8),
            (b'a' + rng.below(8) as u8) as char,
            1 + rng.below(8)
        ),
    };
    let what = if rng.below(2) == 0 {
        OfferKind::Draw
    } else {
        OfferKind::Takeback
    };
    match rng.below(10) {
        0..=3 => Message::Move {
            ply,
            uci,
            clock: None,
        },
        4 => Message::Ack { ply },
        5 => Message::Reply {
            what,
            accept: rng.below(2) == 0,
            ply: Some(ply),
        },
        6 => Message::Offer { what },
        7 => Message::Error(ErrorMsg {
            code: ErrorCode::BadPly,
            ply: Some(ply),
            text: String::new(),
        }),
        8 if rng.below(50) == 0 => Message::Resign,
        _ => Message::Ping { seq: ply.into() },
    }
}

#[test]
fn random_partner_messages_change_the_game_only_by_the_rules() {
    let (mut steps, mut partner_moves) = (0, 0);
    for seed in 1..=20u64 {
        let mut p = Pair::paired();
        let mut rng = Lcg(seed);
        p.host_plays("e2e4");
        for i in 0..400 {
            // Keep under the flood limit: one line every 25 ms of the fake clock.
            p.now += Duration::from_millis(25);
            let before = p.host.game().clone();
            let unacked = p.host.unacked();
            let message = random_message(&mut rng, &before);
            p.host.received(HC, Ok(message.clone()), p.now);
            let outs = p.host.drain();
            steps += 1;
            let after = p.host.game();
            let (b, a) = (before.moves(), after.moves());
            if a.len() == b.len() + 1 {
                partner_moves += 1;
                assert!(a.starts_with(b), "seed {seed} step {i}: history rewritten");
                assert_eq!(before.position().turn(), Color::Black, "moved out of turn");
                assert!(
                    outs.iter()
                        .any(|o| matches!(o, Output::Event(Event::PartnerMoved { .. })))
                );
            } else if a.len() + 1 == b.len() {
                // The partner refused our move before acknowledging it: it goes.
                let refused = matches!(&message, Message::Error(e) if e.ply == unacked);
                assert!(
                    refused,
                    "seed {seed} step {i}: {message:?} took a move back"
                );
                assert_eq!(unacked, Some(a.len() as u32));
                assert!(b.starts_with(a));
            } else {
                assert_eq!(a, b, "seed {seed} step {i}: {message:?} changed the moves");
            }
            if after.outcome() != before.outcome() {
                let o = after.outcome().unwrap();
                let by_rules = o.termination != Termination::Agreement
                    && (o.termination != Termination::Resignation
                        || (message == Message::Resign && o.winner == Some(Color::White)));
                assert!(
                    by_rules,
                    "seed {seed} step {i}: {message:?} ended the game: {o:?}"
                );
            }
            // Our side answers their legal moves, so the game goes on.
            if !after.is_over() && after.position().turn() == Color::White {
                let legal = after.position().legal_moves();
                let mv = legal.as_slice()[rng.below(legal.len() as u64) as usize];
                p.host.play(mv).unwrap();
                p.host.drain();
            }
            if p.host.game().is_over() || p.host.link() != LinkState::Connected {
                break;
            }
        }
        assert_eq!(
            p.host.link(),
            LinkState::Connected,
            "seed {seed}: the link was dropped"
        );
    }
    // The stream must really exercise the session, not stop early.
    assert!(
        steps > 2000 && partner_moves > 100,
        "{steps} steps, {partner_moves} moves"
    );
}
