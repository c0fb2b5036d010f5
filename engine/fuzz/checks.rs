//! The properties each fuzz target checks, shared with `engine/tests/fuzz_regressions.rs` so
//! that saved inputs are re-checked by `cargo test`. Each function panics when a property
//! fails, which is what the fuzzer reports.

use chesspi_engine::Position;
use chesspi_engine::pgn::read_games;
use chesspi_engine::san::{parse_san, to_san};
use std::collections::HashSet;

/// Positions the SAN and UCI inputs can pick by number instead of giving a FEN.
const POSITIONS: [&str; 8] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "1k6/8/2Q1Q3/8/2Q1Q3/1N3N2/8/1N3NK1 w - - 0 1",
    "n1n4k/1P1P4/8/8/8/8/1p1p4/N1N4K b - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
];

/// Splits `<FEN or position number>\n<move text>` into a position and the text.
fn position_and_text(data: &[u8]) -> Option<(Position, &str)> {
    let text = std::str::from_utf8(data).ok()?;
    let (head, rest) = text.split_once('\n').unwrap_or(("0", text));
    let pos = match head.parse::<usize>() {
        Ok(i) => Position::from_fen(POSITIONS[i % POSITIONS.len()]).ok()?,
        Err(_) => Position::from_fen(head).ok()?,
    };
    Some((pos, rest))
}

/// FEN: parse → write → parse gives the same position; every legal move keeps the
/// incremental hash right and leads to a position that FEN describes exactly.
pub fn fen(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    let fen = pos.to_fen();
    let again = Position::from_fen(&fen).expect("written FEN parses");
    assert_eq!(again, pos, "{text} -> {fen}");
    assert_eq!(again.to_fen(), fen);
    assert_eq!(pos.hash(), pos.compute_hash());

    let legal = pos.legal_moves();
    assert_eq!(pos.count_legal_moves(), legal.len());
    for &mv in legal.iter() {
        assert!(pos.is_legal(mv));
        let next = pos.play(mv).expect("legal move plays");
        assert_eq!(next.hash(), next.compute_hash(), "{fen} {mv}");
        let next_fen = next.to_fen();
        assert_eq!(
            Position::from_fen(&next_fen).as_ref(),
            Ok(&next),
            "{fen} {mv}"
        );
    }
}

/// SAN: a move read writes back to SAN that reads as the same move; every legal move's SAN
/// reads back and is unique.
pub fn san(data: &[u8]) {
    let Some((pos, text)) = position_and_text(data) else {
        return;
    };
    if let Ok(mv) = parse_san(&pos, text) {
        assert!(pos.is_legal(mv));
        let san = to_san(&pos, mv);
        assert_eq!(parse_san(&pos, &san), Ok(mv), "{text} -> {san}");
    }
    let mut seen = HashSet::new();
    for &mv in pos.legal_moves().iter() {
        let san = to_san(&pos, mv);
        assert_eq!(parse_san(&pos, &san), Ok(mv), "{san} in {pos:?}");
        assert!(seen.insert(san), "{pos:?}");
    }
}

/// UCI moves: a move read is legal and prints as the same text.
pub fn uci_move(data: &[u8]) {
    let Some((pos, text)) = position_and_text(data) else {
        return;
    };
    if let Ok(mv) = pos.parse_uci_move(text) {
        assert!(pos.is_legal(mv));
        assert_eq!(mv.to_string(), text);
    }
}

/// PGN: every game read writes to PGN that reads as the same game (start, moves, result,
/// tag names), and writing that again gives the same text.
pub fn pgn(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for game in read_games(text).into_iter().flatten() {
        let written = game.to_pgn().expect("a game read has legal moves");
        let mut again = read_games(&written);
        assert_eq!(again.len(), 1, "{written}");
        let again = again.remove(0).expect("written PGN reads");
        assert_eq!(again.start, game.start, "{written}");
        assert_eq!(again.moves, game.moves, "{written}");
        assert_eq!(again.result, game.result, "{written}");
        // SetUp and FEN are rewritten from the start position (and left out for the standard
        // one); every other tag name survives.
        for (name, _) in &game.tags {
            if name != "SetUp" && name != "FEN" {
                assert!(again.tag(name).is_some(), "{name} lost in {written}");
            }
        }
        assert_eq!(again.to_pgn().expect("legal"), written);
    }
}
