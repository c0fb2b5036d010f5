//! The tables against the rules (the crate's own move generator), known positions and the
//! engine's search.

use super::*;
use crate::position::Setup;
use crate::search::{Score, SearchLimits, Searcher};
use crate::types::Piece;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

fn fen(fen: &str) -> Position {
    Position::from_fen(fen).expect("test FEN")
}

fn verdict(f: &str) -> Option<Verdict> {
    probe(&fen(f))
}

/// A legal position with White's king, Black's king and one more piece, or `None`.
fn setup(
    white_king: Square,
    black_king: Square,
    piece: Piece,
    square: Square,
    turn: Color,
) -> Option<Position> {
    let mut s = Setup::default();
    if white_king == black_king || square == white_king || square == black_king {
        return None;
    }
    s.board[white_king as usize] = Some(Piece::new(Color::White, Role::King));
    s.board[black_king as usize] = Some(Piece::new(Color::Black, Role::King));
    s.board[square as usize] = Some(piece);
    s.turn = turn;
    Position::from_setup(&s).ok()
}

/// Every `stride`th legal position with this piece, either side to move.
fn sample(piece: Piece, stride: usize) -> Vec<Position> {
    let mut out = Vec::new();
    let mut n = 0usize;
    for wk in Square::ALL {
        for bk in Square::ALL {
            for sq in Square::ALL {
                for turn in Color::ALL {
                    n += 1;
                    if !n.is_multiple_of(stride) {
                        continue;
                    }
                    if let Some(pos) = setup(wk, bk, piece, sq, turn) {
                        out.push(pos);
                    }
                }
            }
        }
    }
    out
}

#[test]
fn tables_build_fast_and_small() {
    let t = Instant::now();
    let q = DtmTable::build(Role::Queen);
    let kqk_time = t.elapsed();
    let t = Instant::now();
    let r = DtmTable::build(Role::Rook);
    let krk_time = t.elapsed();
    let t = Instant::now();
    let p = KpkTable::build(&q, &r);
    let kpk_time = t.elapsed();
    eprintln!(
        "endgame tables: KQK {kqk_time:?} ({} bytes), KRK {krk_time:?} ({} bytes), \
         KPK {kpk_time:?} ({} bytes); KPK won/drawn W {}/{} B {}/{}",
        q.bytes(),
        r.bytes(),
        p.bytes(),
        p.counts()[0],
        p.counts()[1],
        p.counts()[2],
        p.counts()[3],
    );
    assert!(q.bytes() + r.bytes() + p.bytes() < 1_500_000);
}

#[test]
fn longest_mates_are_the_known_ones() {
    // Strong side to move: K+Q v K mates in at most 10 moves, K+R v K in 16.
    let (q_strong, q_weak) = kqk().longest();
    let (r_strong, r_weak) = krk().longest();
    eprintln!("longest plies: KQK {q_strong}/{q_weak}, KRK {r_strong}/{r_weak}");
    assert_eq!(q_strong, 19);
    assert_eq!(r_strong, 31);
    // The weak side to move lasts at most one move of the strong side longer.
    assert!(q_weak <= q_strong + 1 && r_weak <= r_strong + 1);
}

#[test]
fn mates_on_the_board_and_in_one() {
    assert_eq!(
        verdict("k6Q/8/1K6/8/8/8/8/8 b - - 0 1"),
        Some(Verdict::LossIn(0))
    );
    assert_eq!(
        verdict("k6R/8/1K6/8/8/8/8/8 b - - 0 1"),
        Some(Verdict::LossIn(0))
    );
    assert_eq!(
        verdict("k7/8/1K6/8/8/8/7Q/8 w - - 0 1"),
        Some(Verdict::WinIn(1))
    );
    assert_eq!(
        verdict("k7/8/1K6/8/8/8/8/7R w - - 0 1"),
        Some(Verdict::WinIn(1))
    );
    // Black's colours swapped: Black mates.
    assert_eq!(
        verdict("7r/8/8/8/8/1k6/8/K7 b - - 0 1"),
        Some(Verdict::WinIn(1))
    );
    // Stalemate, and the lone king taking the rook.
    assert_eq!(
        verdict("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1"),
        Some(Verdict::Draw)
    );
    assert_eq!(
        verdict("8/8/8/8/8/8/1R6/k6K b - - 0 1"),
        Some(Verdict::Draw)
    );
}

#[test]
fn uncovered_material_is_not_probed() {
    assert_eq!(verdict("4k3/8/8/8/8/8/8/4K2R w K - 0 1"), None);
    assert_eq!(verdict("4k3/8/8/8/8/8/8/4KB2 w - - 0 1"), None);
    assert_eq!(verdict("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), None);
    assert_eq!(verdict("4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1"), None);
    assert_eq!(best_move(&Position::startpos()), None);
}

/// Every legal move, with the position it leads to.
fn children(pos: &Position) -> Vec<(Move, Position)> {
    pos.legal_moves()
        .iter()
        .map(|&mv| (mv, pos.play(mv).expect("legal")))
        .collect()
}

/// The value one ply deeper says: what the rules and the children's entries make of `pos`.
fn backed_up(pos: &Position, family: Family) -> (Outcome, u32) {
    let kids = children(pos);
    if kids.is_empty() {
        return if pos.is_check() {
            (Outcome::Loss, 0)
        } else {
            (Outcome::Draw, 0)
        };
    }
    let mut best: Option<(Outcome, u32)> = None;
    for (_, child) in kids {
        let value = if child.is_insufficient_material() {
            (Outcome::Draw, 0)
        } else {
            let known = lookup(&child).expect("covered child");
            let plies = if known.family == family {
                known.plies + 1
            } else {
                1
            };
            match known.outcome {
                Outcome::Win => (Outcome::Loss, plies),
                Outcome::Loss => (Outcome::Win, plies),
                Outcome::Draw => (Outcome::Draw, 0),
            }
        };
        let better = |a: (Outcome, u32), b: (Outcome, u32)| match (a.0, b.0) {
            (Outcome::Win, Outcome::Win) => a.1 < b.1,
            (Outcome::Loss, Outcome::Loss) => a.1 > b.1,
            (Outcome::Win, _) | (Outcome::Draw, Outcome::Loss) => true,
            _ => false,
        };
        if best.is_none_or(|b| better(value, b)) {
            best = Some(value);
        }
    }
    best.expect("a move")
}

/// Each entry agrees with the best of its children's, through the crate's move generator:
/// the tables solve the game the rules define.
fn assert_consistent(piece: Piece, family: Family, stride: usize) {
    let positions = sample(piece, stride);
    assert!(positions.len() > 1000);
    for pos in positions {
        let known = lookup(&pos).expect("covered");
        let expected = backed_up(&pos, family);
        assert_eq!((known.outcome, known.plies), expected, "{}", pos.to_fen());
    }
}

#[test]
fn kqk_agrees_with_the_rules() {
    assert_consistent(Piece::new(Color::White, Role::Queen), Family::Kxk, 5);
    assert_consistent(Piece::new(Color::Black, Role::Queen), Family::Kxk, 23);
}

#[test]
fn krk_agrees_with_the_rules() {
    assert_consistent(Piece::new(Color::White, Role::Rook), Family::Kxk, 5);
    assert_consistent(Piece::new(Color::Black, Role::Rook), Family::Kxk, 23);
}

#[test]
fn kpk_agrees_with_the_rules() {
    assert_consistent(Piece::new(Color::White, Role::Pawn), Family::Kpk, 3);
    assert_consistent(Piece::new(Color::Black, Role::Pawn), Family::Kpk, 7);
}

/// The board turned by `f` on squares (colours and side to move kept).
fn transformed(pos: &Position, f: impl Fn(Square) -> Square) -> Position {
    let mut s = Setup {
        turn: pos.turn(),
        ..Setup::default()
    };
    for sq in pos.occupied() {
        s.board[f(sq) as usize] = pos.piece_at(sq);
    }
    Position::from_setup(&s).expect("a symmetric position is legal")
}

#[test]
fn symmetric_positions_agree() {
    let transpose = |sq: Square| Square::ALL[(sq as usize % 8) * 8 + sq as usize / 8];
    for role in [Role::Queen, Role::Rook] {
        for pos in sample(Piece::new(Color::White, role), 97) {
            let v = probe(&pos);
            assert_eq!(probe(&transformed(&pos, mirror)), v);
            assert_eq!(probe(&transformed(&pos, Square::flip_vertical)), v);
            assert_eq!(probe(&transformed(&pos, transpose)), v);
        }
    }
    for pos in sample(Piece::new(Color::White, Role::Pawn), 31) {
        let v = probe(&pos);
        assert_eq!(probe(&transformed(&pos, mirror)), v, "{}", pos.to_fen());
        // Colours swapped and the board flipped: the same game for the other colour.
        let mut s = Setup {
            turn: !pos.turn(),
            ..Setup::default()
        };
        for sq in pos.occupied() {
            let p = pos.piece_at(sq).expect("occupied");
            s.board[sq.flip_vertical() as usize] = Some(Piece::new(!p.color, p.role));
        }
        let swapped = Position::from_setup(&s).expect("legal");
        assert_eq!(probe(&swapped), v, "{}", swapped.to_fen());
    }
}

/// A small deterministic generator for the search comparison.
fn next(seed: &mut u64) -> usize {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    (*seed >> 11) as usize
}

#[test]
fn short_mates_agree_with_the_search() {
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut searcher = Searcher::new(8);
    let stop = AtomicBool::new(false);
    let mut checked = 0u32;
    while checked < 40 {
        let role = if checked.is_multiple_of(2) {
            Role::Queen
        } else {
            Role::Rook
        };
        let turn = if next(&mut seed).is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        };
        let Some(pos) = setup(
            Square::ALL[next(&mut seed) % 64],
            Square::ALL[next(&mut seed) % 64],
            Piece::new(Color::White, role),
            Square::ALL[next(&mut seed) % 64],
            turn,
        ) else {
            continue;
        };
        let expected = match probe(&pos) {
            Some(Verdict::WinIn(n)) if n <= 3 => Score::Mate(n as i32),
            // The defender's side is harder on the search: it must find each of the
            // winner's shortest replies below a move of its own.
            Some(Verdict::LossIn(n)) if (1..=2).contains(&n) => Score::Mate(-(n as i32)),
            _ => continue,
        };
        searcher.clear();
        let limits = SearchLimits {
            // Shallower, the search's pruning misses some of these mates (it found
            // 8/7k/8/6K1/2Q5/8/8/8 w's mate in 3 only at depth 12).
            depth: Some(14),
            ..SearchLimits::default()
        };
        let result = searcher.search(&pos, &[], &limits, &stop, &mut |_| {});
        assert_eq!(result.score, expected, "{}", pos.to_fen());
        checked += 1;
    }
}

#[test]
fn best_moves_keep_the_shortest_mate_and_the_longest_defence() {
    // Played out, every move of both sides keeps the count exact.
    let mut pos = fen("8/8/8/8/8/8/1R6/k6K w - - 0 1");
    let start = probe(&pos).and_then(Verdict::plies_to_mate).expect("mate");
    let mut plies = 0;
    while let Some(mv) = best_move(&pos) {
        let before = probe(&pos).and_then(Verdict::plies_to_mate).expect("mate");
        pos = pos.play(mv).expect("legal");
        plies += 1;
        let after = probe(&pos).and_then(Verdict::plies_to_mate).expect("mate");
        assert_eq!(after + 1, before, "{}", pos.to_fen());
    }
    assert!(pos.is_checkmate());
    assert_eq!(plies, start);
}

#[test]
fn best_moves_win_and_hold_king_and_pawn() {
    // White wins from the opposition; Black, to move, holds the other one.
    for (start, result) in [
        ("8/4k3/8/4K3/4P3/8/8/8 b - - 0 1", GameEnd::WhiteMates),
        ("8/4k3/8/4K3/4P3/8/8/8 w - - 0 1", GameEnd::Drawn),
    ] {
        let mut pos = fen(start);
        // A drawn game goes on for ever; 100 plies show it stays drawn.
        let mut plies = 0;
        while let Some(mv) = best_move(&pos) {
            pos = pos.play(mv).expect("legal");
            plies += 1;
            if plies == 100 {
                break;
            }
        }
        let end = if pos.is_checkmate() {
            GameEnd::WhiteMates
        } else if plies == 100 && probe(&pos).map(Verdict::outcome) == Some(Outcome::Draw) {
            GameEnd::Drawn
        } else {
            GameEnd::Unfinished
        };
        assert_eq!(end, result, "{start} ended in {}", pos.to_fen());
    }
}

#[test]
fn the_pawn_becomes_a_queen() {
    let pos = fen("8/4P3/8/8/8/8/8/K1k5 w - - 0 1");
    assert_eq!(probe(&pos), Some(Verdict::Win));
    let mv = best_move(&pos).expect("a move");
    assert_eq!(
        (mv.to_uci().as_str(), mv.promotion()),
        ("e7e8q", Some(Role::Queen))
    );
    // And with Black's pawn, the board turned.
    let pos = fen("k1K5/8/8/8/8/8/4p3/8 b - - 0 1");
    assert_eq!(
        best_move(&pos).map(|m| m.to_uci()),
        Some("e2e1q".to_string())
    );
}

#[derive(Debug, PartialEq)]
enum GameEnd {
    WhiteMates,
    Drawn,
    Unfinished,
}

/// Both sides to move of one placement: (White to move, Black to move).
fn both(placement: &str) -> (Option<Verdict>, Option<Verdict>) {
    (
        verdict(&format!("{placement} w - - 0 1")),
        verdict(&format!("{placement} b - - 0 1")),
    )
}

#[test]
fn king_and_pawn_as_the_textbooks_say() {
    use Verdict::{Draw, Loss, Win};
    // Opposition: Ke5 Pe4 v Ke7, whoever must move gives way.
    assert_eq!(both("8/4k3/8/4K3/4P3/8/8/8"), (Some(Draw), Some(Loss)));
    // Ke3 Pe2 v Ke5: the same a rank lower (White has no spare pawn move: the king blocks).
    assert_eq!(both("8/8/8/4k3/8/4K3/4P3/8"), (Some(Draw), Some(Loss)));
    // Kd6 Pe6 v Ke8: White to move wins with e7; Black to move draws with Kd8 (stalemate).
    assert_eq!(both("4k3/8/3KP3/8/8/8/8/8"), (Some(Win), Some(Draw)));
    // A king on a key square wins whoever moves: Ke6 for e5, Ke4 for e2, Kc6 for d4.
    assert_eq!(both("4k3/8/4K3/4P3/8/8/8/8"), (Some(Win), Some(Loss)));
    assert_eq!(both("8/8/4k3/8/4K3/8/4P3/8"), (Some(Win), Some(Loss)));
    assert_eq!(both("3k4/8/2K5/8/3P4/8/8/8"), (Some(Win), Some(Loss)));
    // The square: Pc4 v Kh5 runs if White moves, is caught if Black moves.
    assert_eq!(both("8/8/8/7k/2P5/8/8/7K"), (Some(Win), Some(Draw)));
    // And Black's pawn the same, mirrored: Pf5 v Ka4.
    assert_eq!(both("k7/8/8/5p2/K7/8/8/8"), (Some(Draw), Some(Win)));
    // Rook pawns: the defending king in front draws, even a key square does not help.
    assert_eq!(both("k7/8/1K6/P7/8/8/8/8"), (Some(Draw), Some(Draw)));
    assert_eq!(both("8/3k4/8/PK6/8/8/8/8"), (Some(Draw), Some(Draw)));
    assert_eq!(both("1k6/8/K7/P7/8/8/8/8"), (Some(Draw), Some(Draw)));
    // A rook pawn outside the king's square wins (counted from a3: the double step).
    assert_eq!(both("8/8/8/8/8/8/P6k/K7"), (Some(Win), Some(Loss)));
}
