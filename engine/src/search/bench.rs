//! `chesspi-engine bench`: a fixed search over fixed positions. The node count is the search's
//! signature (it changes whenever search behaviour does); nodes per second measure speed.
//! With more than one thread the count varies from run to run (no signature); the time is
//! then the time to reach the depth.

use super::{SearchLimits, Searcher, Threads};
use crate::position::Position;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Depth searched for each position by default.
pub const BENCH_DEPTH: u32 = 11;
const BENCH_HASH_MB: usize = 16;

/// Openings, middlegames with tactics, and endgames (pawn races, mating material).
pub const BENCH_POSITIONS: [&str; 16] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 3 8",
    "2rq1rk1/pp1bppbp/2np1np1/8/3NP3/1BN1BP2/PPPQ2PP/2KR3R b - - 8 11",
    "r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - 0 1",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "6k1/6p1/6Pp/ppp5/3pn2P/1P3K2/1PP2P2/8 b - - 0 1",
    "8/8/1p1k4/pP6/P1PK4/8/8/8 w - - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "6k1/5pp1/8/8/8/8/5PP1/3R2K1 w - - 0 1",
    "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
    "r2q1rk1/ppp2ppp/2n1bn2/2b1p3/3pP3/3P1NPP/PPP1NPB1/R1BQ1RK1 b - - 0 9",
    "3r2k1/p4ppp/1p6/8/8/1P6/P4PPP/3R2K1 w - - 0 1",
];

/// Total nodes and time of the bench at `depth` with `threads`; each position starts from a
/// cleared searcher so the count does not depend on the order or on earlier searches.
/// `on_position` gets each position's index, nodes and time.
pub fn run(
    depth: u32,
    threads: Threads,
    mut on_position: impl FnMut(usize, u64, Duration),
) -> (u64, Duration) {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(BENCH_HASH_MB);
    let limits = SearchLimits {
        depth: Some(depth),
        threads,
        ..SearchLimits::default()
    };
    let mut nodes = 0;
    let start = Instant::now();
    for (i, fen) in BENCH_POSITIONS.iter().enumerate() {
        let Ok(pos) = Position::from_fen(fen) else {
            continue;
        };
        searcher.clear();
        let position_start = Instant::now();
        let result = searcher.search(&pos, &[], &limits, &stop, &mut |_| {});
        nodes += result.nodes;
        on_position(i, result.nodes, position_start.elapsed());
    }
    (nodes, start.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid() {
        for fen in BENCH_POSITIONS {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
    }
}
