//! `cargo run --release -p chesspi-engine --example assist_agreement [--pieces N] [--nodes N]
//! [--seed S]`: how often Assist's colour of a move agrees with the coach's verdict on it.
//!
//! Positions come from the agreement sets' games (docs/benchmarks/agreement/*/games.pgn): a
//! seeded draw of a game, a ply in it and a piece of the side to move that has a legal move
//! (the touched piece), `--pieces` times. Each position is graded once by [`Assist`] (timed:
//! its first reported grades and its last), and each of the piece's moves is judged by
//! [`Coach::judge`] at the coach's own budget; both verdicts are put in Assist's three grades
//! (best/good, inaccuracy, mistake/blunder) and compared. Times are the thread's CPU time
//! (`CLOCK_THREAD_CPUTIME_ID`), and the Pi 3 estimate is 8 times that (docs/BENCHMARKS.md).

use chesspi_engine::coach::Coach;
use chesspi_engine::coach::assist::{ASSIST_NODES, Assist, Grade};
use chesspi_engine::game::Game;
use chesspi_engine::pgn::read_games;
use chesspi_engine::{Move, Square};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

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

/// The Pi 3 estimate: this many times slower per core than the development machine.
const PI_FACTOR: f64 = 8.0;

/// A seeded xorshift64 generator.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Every game of the agreement sets, in a fixed order.
fn games() -> Vec<chesspi_engine::PgnGame> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/benchmarks/agreement");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    dirs.sort();
    dirs.iter()
        .filter_map(|d| std::fs::read_to_string(d.join("games.pgn")).ok())
        .flat_map(|text| read_games(&text).into_iter().filter_map(Result::ok))
        .filter(|g| g.moves.len() > 1)
        .collect()
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    let (mut pieces, mut nodes, mut seed) = (200usize, ASSIST_NODES, 0x00A5_5157_u64);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let value = args.next().and_then(|v| v.parse::<u64>().ok());
        match (arg.as_str(), value) {
            ("--pieces", Some(v)) => pieces = v as usize,
            ("--nodes", Some(v)) => nodes = v,
            ("--seed", Some(v)) => seed = v,
            _ => {
                eprintln!("usage: assist_agreement [--pieces N] [--nodes N] [--seed S]");
                std::process::exit(2);
            }
        }
    }
    let games = games();
    if games.is_empty() {
        eprintln!("no games under docs/benchmarks/agreement");
        std::process::exit(1);
    }
    let mut rng = Rng(seed | 1);
    let stop = AtomicBool::new(false);
    let mut assist = Assist::new(nodes);
    let mut coach = Coach::default();
    // confusion[coach][assist], grades in order good, inaccuracy, bad.
    let mut confusion = [[0u32; 3]; 3];
    let (mut first_ms, mut all_ms, mut depths) = (Vec::new(), Vec::new(), Vec::new());
    let mut done = 0;
    let (mut milder, mut earlier) = ([0u32; 2], [0u32; 2]);
    while done < pieces {
        let record = &games[rng.below(games.len())];
        let ply = rng.below(record.moves.len());
        let Ok(game) = Game::from_moves(record.start, &record.moves[..ply]) else {
            continue;
        };
        let pos = *game.position();
        let mut from: Vec<Square> = pos.legal_moves().iter().map(|m| m.from()).collect();
        from.sort_by_key(|s| s.index());
        from.dedup();
        if from.is_empty() {
            continue;
        }
        let touched = from[rng.below(from.len())];
        let start = thread_cpu_ns();
        let mut first = None;
        let mut reports: Vec<chesspi_engine::coach::Grades> = Vec::new();
        let Ok(grades) = assist.grade(&pos, game.history_hashes(), &stop, &mut |g| {
            first.get_or_insert_with(|| thread_cpu_ns() - start);
            reports.push(g.clone());
        }) else {
            continue;
        };
        let all = thread_cpu_ns() - start;
        first_ms.push(first.unwrap_or(all) as f64 / 1e6);
        all_ms.push(all as f64 / 1e6);
        depths.push(grades.depth);
        let moves: Vec<Move> = grades.from_square(touched).map(|g| g.mv).collect();
        for mv in moves {
            let Ok(judgement) = coach.judge(&pos, game.history_hashes(), mv, &stop) else {
                continue;
            };
            let row = Grade::of(judgement.verdict) as usize;
            let column = grades.of(mv).map_or(0, |g| g as usize);
            confusion[row][column] += 1;
            // The milder of the last two iterations' grades.
            let previous = reports
                .len()
                .checked_sub(2)
                .and_then(|i| reports[i].of(mv))
                .map_or(column, |g| g as usize);
            milder[usize::from(row == column.min(previous))] += 1;
            earlier[usize::from(row == previous)] += 1;
        }
        done += 1;
    }
    let total: u32 = confusion.iter().flatten().sum();
    let agree: u32 = (0..3).map(|i| confusion[i][i]).sum();
    first_ms.sort_by(f64::total_cmp);
    all_ms.sort_by(f64::total_cmp);
    depths.sort_unstable();
    println!(
        "{pieces} touched pieces, {total} moves, {nodes} nodes per position, seed {seed}, {} games",
        games.len()
    );
    println!(
        "agreement with the coach: {agree} of {total} = {:.1} %",
        100.0 * f64::from(agree) / f64::from(total.max(1))
    );
    println!(
        "the iteration before the last: {:.1} %; the milder of the last two: {:.1} %",
        100.0 * f64::from(earlier[1]) / f64::from(total.max(1)),
        100.0 * f64::from(milder[1]) / f64::from(total.max(1))
    );
    println!("coach \\ assist | good | inaccuracy | bad");
    for (name, row) in ["good", "inaccuracy", "bad"].iter().zip(confusion) {
        println!("{name} | {} | {} | {}", row[0], row[1], row[2]);
    }
    let depth_median = depths.get(depths.len() / 2).copied().unwrap_or(0);
    println!(
        "depth reached: median {depth_median}, least {}",
        depths.first().copied().unwrap_or(0)
    );
    for (what, ms) in [("first grades", &first_ms), ("all grades", &all_ms)] {
        println!(
            "{what}: CPU ms here median {:.0}, 95th {:.0}, max {:.0}; Pi 3 estimate (x8) median {:.2} s, 95th {:.2} s, max {:.2} s",
            percentile(ms, 0.5),
            percentile(ms, 0.95),
            percentile(ms, 1.0),
            percentile(ms, 0.5) * PI_FACTOR / 1e3,
            percentile(ms, 0.95) * PI_FACTOR / 1e3,
            percentile(ms, 1.0) * PI_FACTOR / 1e3,
        );
    }
}
