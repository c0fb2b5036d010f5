//! Shared by the SAN and UCI targets: input is `<FEN or position number>\n<move text>`.

use chesspi_engine::Position;

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

/// Splits the input into a position and the text to read in it.
pub fn position_and_text(data: &[u8]) -> Option<(Position, &str)> {
    let text = std::str::from_utf8(data).ok()?;
    let (head, rest) = text.split_once('\n').unwrap_or(("0", text));
    let pos = match head.parse::<usize>() {
        Ok(i) => Position::from_fen(POSITIONS[i % POSITIONS.len()]).ok()?,
        Err(_) => Position::from_fen(head).ok()?,
    };
    Some((pos, rest))
}
