//! Perft on 300 positions (random games biased to special moves, plus hand-picked tricky
//! ones) against counts from an independent generator (Stockfish). See
//! tools/make_perft_suite.py.

use chesspi_engine::Position;
use chesspi_engine::perft::perft;

/// Counts above this are left out: `CHESSPI_PERFT_MAX_NODES`, set by scripts/build-aarch64
/// under qemu (about 50 times slower there; the native run checks every count).
fn max_nodes() -> u64 {
    std::env::var("CHESSPI_PERFT_MAX_NODES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(u64::MAX)
}

#[test]
fn perft_suite_matches_reference_counts() {
    let data = include_str!("data/perft_suite.epd");
    let max = max_nodes();
    let mut positions = 0;
    let mut failures = Vec::new();
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let mut parts = line.split(';');
        let fen = parts.next().expect("a FEN before the counts").trim();
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        positions += 1;
        for field in parts {
            let (depth, count) = field
                .trim()
                .strip_prefix('D')
                .and_then(|s| s.split_once(' '))
                .expect("D<depth> <count>");
            let depth: u32 = depth.parse().expect("depth");
            let expected: u64 = count.parse().expect("count");
            if expected > max {
                continue;
            }
            let got = perft(&pos, depth);
            if got != expected {
                failures.push(format!(
                    "{fen} depth {depth}: expected {expected}, got {got}"
                ));
            }
        }
    }
    assert_eq!(positions, 300);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
