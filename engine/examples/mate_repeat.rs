//! Searches one position many times with several threads and counts the runs whose move is
//! not the expected one (how often a multi-threaded search misses a tactic,
//! docs/benchmarks/history.md, "Threads: Lazy SMP").
//!
//! `cargo run --release -p chesspi-engine --example mate_repeat -- RUNS THREADS DEPTH FEN MOVE`
//! (defaults: 20 runs, 4 threads, depth 8, the mate in two 1.Qd8+ Bxd8 2.Re8#, d5d8). The
//! first run's iterations and every miss's are printed.

use chesspi_engine::Position;
use chesspi_engine::search::{SearchLimits, Searcher, Threads};
use std::sync::atomic::AtomicBool;

const MATE_IN_TWO: &str = "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number =
        |i: usize, default: usize| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default);
    let runs = number(0, 20);
    let Ok(threads) = Threads::new(number(1, 4)) else {
        eprintln!("threads: 1 to {}", Threads::MAX);
        return;
    };
    let depth = number(2, 8) as u32;
    let fen = args.get(3).map_or(MATE_IN_TWO, String::as_str);
    let want = args.get(4).map_or("d5d8", String::as_str);
    let pos = match Position::from_fen(fen) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("{fen}: {e:?}");
            return;
        }
    };
    let limits = SearchLimits {
        depth: Some(depth),
        threads,
        ..SearchLimits::default()
    };
    let mut misses = 0;
    for run in 0..runs {
        let stop = AtomicBool::new(false);
        let mut lines = Vec::new();
        let result = Searcher::new(8).search(&pos, &[], &limits, &stop, &mut |info| {
            let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
            lines.push(format!(
                "  depth {} {} {}",
                info.depth,
                info.score,
                pv.join(" ")
            ));
        });
        let mv = result.best_move.map(|m| m.to_string()).unwrap_or_default();
        if mv != want {
            misses += 1;
        }
        if run == 0 || mv != want {
            println!(
                "run {run}: {mv} {} ({} nodes)\n{}",
                result.score,
                result.nodes,
                lines.join("\n")
            );
        }
    }
    println!("misses {misses}/{runs}");
}
