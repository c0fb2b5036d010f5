//! `cargo run --release -p chesspi-engine --example assist_agreement [--pieces N] [--nodes N]
//! [--threads N] [--deadline-ms N] [--seed S] [--half tuning|heldout|all] [--settle on|off]
//! [--coach-nodes N] [--dump FILE]`: how often Assist's colour of a move agrees with the
//! coach's verdict on it.
//!
//! Positions come from the agreement sets' games (docs/benchmarks/agreement/*/games.pgn): a
//! seeded draw of a game, a ply in it and a piece of the side to move that has a legal move
//! (the touched piece), `--pieces` times. The games are split once into two halves, every
//! other game in a fixed order: Assist's margin (`SETTLE_MARGIN`) was chosen on the tuning
//! half only (tools/assist_margin.py), and the held-out half (the default) is the figure to
//! quote. `--dump` writes one line per move (Assist's loss and grade, the coach's loss and
//! grade) for that choice.
//!
//! Each position is graded by [`Assist::grade`] with the piece touched, on `--threads`
//! threads (default 1): the coach judges its moves near a band's edge (`--settle off`: none)
//! until the deadline, the app's 3 s on the Pi scaled by the Pi estimate (375 ms here;
//! `--deadline-ms 0`: none).
//! Each of the piece's moves is then judged by [`Coach::judge`] at the coach's own budget, as
//! `explain` does, and both are put in Assist's three grades (best/good, inaccuracy,
//! mistake/blunder) and compared. Times: the wall time to the first grades and to the last,
//! and the CPU time of all threads (the energy); the Pi 3 estimate is 8 times either
//! (docs/BENCHMARKS.md). Wall times mean something only on an idle machine with a core per
//! thread.

use chesspi_engine::coach::Coach;
use chesspi_engine::coach::assist::{ASSIST_DEADLINE_MS, ASSIST_NODES, Assist, Grade, Judging};
use chesspi_engine::game::Game;
use chesspi_engine::pgn::read_games;
use chesspi_engine::search::Threads;
use chesspi_engine::{Move, Square};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

unsafe extern "C" {
    fn clock_gettime(clock: i32, time: *mut Timespec) -> i32;
}

/// Linux's id of the process's CPU-time clock.
const CLOCK_PROCESS_CPUTIME_ID: i32 = 2;

/// The process's CPU time in nanoseconds.
fn cpu_ns() -> u64 {
    let mut t = Timespec { sec: 0, nsec: 0 };
    // SAFETY: `t` is a valid, writable timespec (64-bit fields on x86-64 and aarch64 Linux);
    // the call writes only into it.
    let ok = unsafe { clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &mut t) } == 0;
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

/// Which games a run draws from.
#[derive(Clone, Copy, PartialEq)]
enum Half {
    Tuning,
    HeldOut,
    All,
}

impl Half {
    fn parse(s: &str) -> Option<Half> {
        match s {
            "tuning" => Some(Half::Tuning),
            "heldout" => Some(Half::HeldOut),
            "all" => Some(Half::All),
            _ => None,
        }
    }

    /// The tuning half holds the even games of the fixed order, the held-out half the odd.
    fn holds(self, index: usize) -> bool {
        match self {
            Half::Tuning => index.is_multiple_of(2),
            Half::HeldOut => !index.is_multiple_of(2),
            Half::All => true,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Half::Tuning => "tuning",
            Half::HeldOut => "held-out",
            Half::All => "all",
        }
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
    let (mut half, mut dump) = (Half::HeldOut, None::<PathBuf>);
    let mut coach_nodes = chesspi_engine::coach::COACH_NODES;
    let mut settle = true;
    let mut threads = Threads::ONE;
    // The app's 3 s on the Pi, 8 times faster here.
    let mut deadline = Some(Duration::from_millis(ASSIST_DEADLINE_MS / PI_FACTOR as u64));
    let mut cpu_ms = Vec::new();
    let mut judged_per_piece = Vec::new();
    let mut args = std::env::args().skip(1);
    let usage = || -> ! {
        eprintln!(
            "usage: assist_agreement [--pieces N] [--nodes N] [--seed S] \
             [--half tuning|heldout|all] [--dump FILE]"
        );
        std::process::exit(2);
    };
    while let Some(arg) = args.next() {
        let Some(value) = args.next() else { usage() };
        let number = value.parse::<u64>().ok();
        match (arg.as_str(), number) {
            ("--pieces", Some(v)) => pieces = v as usize,
            ("--nodes", Some(v)) => nodes = v,
            ("--seed", Some(v)) => seed = v,
            ("--half", _) => half = Half::parse(&value).unwrap_or_else(|| usage()),
            ("--dump", _) => dump = Some(PathBuf::from(value)),
            ("--coach-nodes", Some(v)) => coach_nodes = v,
            ("--settle", _) => settle = value != "off",
            ("--threads", Some(v)) => threads = Threads::clamped(v as usize),
            ("--deadline-ms", Some(v)) => deadline = (v > 0).then(|| Duration::from_millis(v)),
            _ => usage(),
        }
    }
    let games: Vec<_> = games()
        .into_iter()
        .enumerate()
        .filter(|(i, _)| half.holds(*i))
        .map(|(_, g)| g)
        .collect();
    let mut lines = String::from("assist_loss\tassist_grade\tcoach_loss\tcoach_grade\n");
    if games.is_empty() {
        eprintln!("no games under docs/benchmarks/agreement");
        std::process::exit(1);
    }
    let mut rng = Rng(seed | 1);
    let stop = AtomicBool::new(false);
    let mut assist = Assist::new(nodes);
    let mut coach = Coach::new(coach_nodes);
    // confusion[coach][assist], grades in order good, inaccuracy, bad.
    let mut confusion = [[0u32; 3]; 3];
    let (mut first_ms, mut all_ms, mut depths) = (Vec::new(), Vec::new(), Vec::new());
    let mut done = 0;
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
        let (start, start_cpu) = (Instant::now(), cpu_ns());
        let mut first = None;
        let piece = if settle { vec![touched] } else { Vec::new() };
        let judging = Judging {
            touched: &piece,
            threads,
            until: deadline.map(|d| start + d),
        };
        let Ok(grades) = assist.grade(&pos, game.history_hashes(), &judging, &stop, &mut |_| {
            first.get_or_insert_with(|| start.elapsed());
        }) else {
            continue;
        };
        let all = start.elapsed();
        cpu_ms.push((cpu_ns() - start_cpu) as f64 / 1e6);
        judged_per_piece.push(grades.moves.iter().filter(|g| g.judged).count());
        let first = first.unwrap_or(all);
        first_ms.push(first.as_secs_f64() * 1e3);
        all_ms.push(all.as_secs_f64() * 1e3);
        depths.push(grades.depth);
        let moves: Vec<Move> = grades.from_square(touched).map(|g| g.mv).collect();
        for mv in moves {
            let Ok(judgement) = coach.judge(&pos, game.history_hashes(), mv, &stop) else {
                continue;
            };
            let row = Grade::of(judgement.verdict) as usize;
            let column = grades.of(mv).map_or(0, |g| g as usize);
            let assist_loss = grades
                .moves
                .iter()
                .find(|g| g.mv == mv)
                .map_or(0.0, |g| g.loss);
            lines.push_str(&format!(
                "{assist_loss:.2}\t{column}\t{:.2}\t{row}\n",
                judgement.loss
            ));
            confusion[row][column] += 1;
        }
        done += 1;
    }
    let total: u32 = confusion.iter().flatten().sum();
    let agree: u32 = (0..3).map(|i| confusion[i][i]).sum();
    first_ms.sort_by(f64::total_cmp);
    all_ms.sort_by(f64::total_cmp);
    cpu_ms.sort_by(f64::total_cmp);
    depths.sort_unstable();
    if let Some(path) = &dump
        && let Err(e) = std::fs::write(path, &lines)
    {
        eprintln!("cannot write {}: {e}", path.display());
        std::process::exit(1);
    }
    println!(
        "{pieces} touched pieces, {total} moves, {nodes} nodes per position, {} threads, seed {seed}, {} games ({} half)",
        threads.get(),
        games.len(),
        half.name()
    );
    println!(
        "agreement with the coach: {agree} of {total} = {:.1} %",
        100.0 * f64::from(agree) / f64::from(total.max(1))
    );
    println!("coach \\ assist | good | inaccuracy | bad");
    for (name, row) in ["good", "inaccuracy", "bad"].iter().zip(confusion) {
        println!("{name} | {} | {} | {}", row[0], row[1], row[2]);
    }
    judged_per_piece.sort_unstable();
    println!(
        "moves judged by the coach per touched piece: mean {:.2}, max {}",
        judged_per_piece.iter().sum::<usize>() as f64 / judged_per_piece.len().max(1) as f64,
        judged_per_piece.last().copied().unwrap_or(0)
    );
    let depth_median = depths.get(depths.len() / 2).copied().unwrap_or(0);
    println!(
        "depth reached: median {depth_median}, least {}",
        depths.first().copied().unwrap_or(0)
    );
    for (what, ms) in [
        ("first grades, wall", &first_ms),
        ("all grades, wall", &all_ms),
        ("all grades, CPU of all threads", &cpu_ms),
    ] {
        println!(
            "{what}: ms here median {:.0}, 95th {:.0}, max {:.0}; Pi 3 estimate (x8) median {:.2} s, 95th {:.2} s, max {:.2} s",
            percentile(ms, 0.5),
            percentile(ms, 0.95),
            percentile(ms, 1.0),
            percentile(ms, 0.5) * PI_FACTOR / 1e3,
            percentile(ms, 0.95) * PI_FACTOR / 1e3,
            percentile(ms, 1.0) * PI_FACTOR / 1e3,
        );
    }
}
