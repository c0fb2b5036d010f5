//! Invariants checked over every node of shallow move trees: the incremental hash equals a
//! fresh one, FEN written and read back gives the same position, `play` agrees with
//! `play_unchecked`, and the move counters move as the rules say.

use chesspi_engine::{Move, Position};

const ROOTS: [&str; 4] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
];

fn walk(pos: &Position, depth: u32, visited: &mut u64) {
    *visited += 1;
    assert_eq!(pos.hash(), pos.compute_hash(), "hash of {pos:?}");
    let reread = Position::from_fen(&pos.to_fen()).expect("written FEN reads back");
    assert_eq!(reread, *pos, "FEN round trip of {pos:?}");
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), pos.count_legal_moves());
    if depth == 0 {
        return;
    }
    for &mv in moves.iter() {
        assert!(pos.is_legal(mv));
        let child = pos.play(mv).expect("generated moves are legal");
        let mut unchecked = *pos;
        unchecked.play_unchecked(mv);
        assert_eq!(child, unchecked);
        let resets =
            pos.is_capture(mv) || pos.role_at(mv.from()) == Some(chesspi_engine::Role::Pawn);
        let expected_clock = if resets { 0 } else { pos.halfmove_clock() + 1 };
        assert_eq!(child.halfmove_clock(), expected_clock);
        walk(&child, depth - 1, visited);
    }
}

#[test]
fn incremental_state_matches_fresh_state() {
    let mut visited = 0;
    for fen in ROOTS {
        walk(&Position::from_fen(fen).expect("valid"), 3, &mut visited);
    }
    assert!(visited > 100_000);
}

#[test]
fn illegal_moves_are_refused() {
    let pos = Position::startpos();
    for from in chesspi_engine::Square::ALL {
        for to in chesspi_engine::Square::ALL {
            let mv = Move::new(from, to, chesspi_engine::MoveKind::Normal);
            assert_eq!(pos.play(mv).is_ok(), pos.legal_moves().contains(mv));
        }
    }
    // Any 16-bit pattern gives a move; none may panic when checked.
    for bits in 0..=u16::MAX {
        let _ = pos.play(Move::from_bits(bits));
    }
}
