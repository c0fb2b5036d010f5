//! Perft on the well-known positions (chessprogramming.org "Perft Results"), deep enough to
//! exercise every special move. The engine crate is built with opt-level 3 in tests.

use chesspi_engine::Position;
use chesspi_engine::perft::perft;

/// Counts above this are left out: `CHESSPI_PERFT_MAX_NODES`, set by scripts/build-aarch64
/// under qemu (about 50 times slower there; the native run checks every depth).
fn max_nodes() -> u64 {
    std::env::var("CHESSPI_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX)
}

fn check(fen: &str, counts: &[u64]) {
    let pos = Position::from_fen(fen).expect("valid FEN");
    let max = max_nodes();
    for (depth, &expected) in counts.iter().enumerate().filter(|&(_, &n)| n <= max) {
        let depth = depth as u32 + 1;
        assert_eq!(perft(&pos, depth), expected, "perft({depth}) of {fen}");
    }
}

#[test]
fn start_position() {
    check(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        &[20, 400, 8_902, 197_281, 4_865_609, 119_060_324],
    );
}

#[test]
fn kiwipete() {
    check(
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        &[48, 2_039, 97_862, 4_085_603, 193_690_690],
    );
}

#[test]
fn position_3() {
    check(
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        &[14, 191, 2_812, 43_238, 674_624, 11_030_083],
    );
}

#[test]
fn position_4() {
    check(
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        &[6, 264, 9_467, 422_333, 15_833_292],
    );
}

#[test]
fn position_4_mirrored() {
    check(
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        &[6, 264, 9_467, 422_333, 15_833_292],
    );
}

#[test]
fn position_5() {
    check(
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        &[44, 1_486, 62_379, 2_103_487, 89_941_194],
    );
}

#[test]
fn position_6() {
    check(
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        &[46, 2_079, 89_890, 3_894_594, 164_075_551],
    );
}
