//! `cargo run --release -p chesspi-engine --example level_cost [--levels A-B] [--plies N]`:
//! what each playing level spends per move. Every level plays both sides from the bench's
//! first eight positions for `--plies` plies (a fresh searcher per game with a fixed seed,
//! each move chosen within the level's limits as the kiosk's computer player chooses it) and
//! prints nodes and CPU milliseconds per move, mean and largest. The 3 s cap is lifted so a slow machine (qemu) measures the budget, not the cap.
//!
//! CPU time is the thread's own (`CLOCK_THREAD_CPUTIME_ID`), so another process's load does
//! not inflate it (much: a shared core's caches still do).

use chesspi_engine::game::Game;
use chesspi_engine::level::Level;
use chesspi_engine::search::{Searcher, bench::BENCH_POSITIONS};
use chesspi_engine::{Position, search::SearchLimits};
use std::sync::atomic::AtomicBool;

const GAMES: usize = 8;

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

unsafe extern "C" {
    fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
}

/// Linux's id of the calling thread's CPU-time clock.
const CLOCK_THREAD_CPUTIME_ID: i32 = 3;

/// The calling thread's CPU time in nanoseconds.
fn thread_cpu_ns() -> u64 {
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec (64-bit fields on x86-64 and aarch64 Linux);
    // the call writes only into it.
    let ok = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    if ok {
        (t.sec as u64) * 1_000_000_000 + t.nsec as u64
    } else {
        0
    }
}

struct Cost {
    moves: u64,
    nodes: u64,
    max_nodes: u64,
    ns: u64,
    max_ns: u64,
}

fn measure(level: Level, plies: usize) -> Cost {
    let stop = AtomicBool::new(false);
    let mut cost = Cost {
        moves: 0,
        nodes: 0,
        max_nodes: 0,
        ns: 0,
        max_ns: 0,
    };
    for fen in BENCH_POSITIONS.iter().take(GAMES) {
        let Ok(start) = Position::from_fen(fen) else {
            continue;
        };
        let mut game = Game::from_position(start);
        let mut searcher = Searcher::new(16);
        searcher.set_seed(0x5EED);
        for _ in 0..plies {
            if game.is_over() {
                break;
            }
            let limits = SearchLimits {
                movetime: None,
                ..level.limits(searcher.next_seed())
            };
            let cpu = thread_cpu_ns();
            let result = searcher.search(
                game.position(),
                game.history_hashes(),
                &limits,
                &stop,
                &mut |_| {},
            );
            let ns = thread_cpu_ns().saturating_sub(cpu);
            let Some(mv) = result.best_move else { break };
            cost.moves += 1;
            cost.nodes += result.nodes;
            cost.max_nodes = cost.max_nodes.max(result.nodes);
            cost.ns += ns;
            cost.max_ns = cost.max_ns.max(ns);
            if game.play(mv).is_err() {
                break;
            }
        }
    }
    cost
}

fn parse_levels(text: &str) -> Option<(u8, u8)> {
    match text.split_once('-') {
        Some((a, b)) => Some((a.parse().ok()?, b.parse().ok()?)),
        None => text.parse().ok().map(|n| (n, n)),
    }
}

fn main() {
    let mut levels = (1, 10);
    let mut plies = 40;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next();
        match (arg.as_str(), value.as_deref()) {
            ("--levels", Some(v)) if parse_levels(v).is_some() => {
                levels = parse_levels(v).unwrap_or(levels)
            }
            ("--plies", Some(v)) if v.parse::<usize>().is_ok() => {
                plies = v.parse().unwrap_or(plies)
            }
            _ => {
                eprintln!("usage: level_cost [--levels A-B] [--plies N]");
                std::process::exit(2);
            }
        }
    }
    println!(
        "| level | node budget | moves | nodes per move (mean / max) | CPU ms per move (mean / max) |"
    );
    println!("|---|---|---|---|---|");
    for level in Level::all().filter(|l| (levels.0..=levels.1).contains(&l.number())) {
        let c = measure(level, plies);
        let moves = c.moves.max(1);
        println!(
            "| {} | {} | {} | {} / {} | {:.1} / {:.1} |",
            level.number(),
            level.budget().nodes,
            c.moves,
            c.nodes / moves,
            c.max_nodes,
            c.ns as f64 / moves as f64 / 1e6,
            c.max_ns as f64 / 1e6,
        );
    }
}
