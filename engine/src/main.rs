//! `chesspi-engine`: ChessPI's engine as a UCI program, `chesspi-engine bench [DEPTH
//! [THREADS]]`, `chesspi-engine analyze FILE.pgn` (see `cli/analyze.rs`), and
//! `chesspi-engine explain --fen FEN --move UCI`, the coach's judgement of one move (see
//! `cli/explain.rs`).
//!
//! The main thread reads commands; a search runs on its own thread, owning the [`Searcher`]
//! until it finishes, so `stop`, `isready` and `quit` are answered at once.

use chesspi_engine::level::Level;
use chesspi_engine::multipv::{self, MAX_LINES};
use chesspi_engine::openings;
use chesspi_engine::search::{
    Clock, DEFAULT_HASH_MB, Score, SearchInfo, SearchLimits, SearchResult, Searcher, Threads,
    ThreadsError, bench,
};
use chesspi_engine::uci::{self, GoParams, UciCommand, UciError};
use chesspi_engine::{Color, Position, perft};
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

#[path = "cli/analyze.rs"]
mod analyze;
#[path = "cli/explain.rs"]
mod explain;

const MAX_HASH_MB: usize = 1024;
const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// Options set with `setoption`.
struct Options {
    hash_mb: usize,
    /// A kiosk level (1..=10) bounding every search, or `None` for full strength.
    level: Option<Level>,
    limit_strength: bool,
    uci_elo: u32,
    move_overhead: Duration,
    /// `OwnBook`: play from the opening book while it has a move (off unless the GUI asks:
    /// GUIs usually bring their own books).
    own_book: bool,
    /// `MultiPV`: how many best lines to search and report (1..=16).
    multipv: usize,
    /// `Threads`: how many threads search (Lazy SMP); levels 1-9 always use one.
    threads: Threads,
}

impl Options {
    /// The level that bounds searches, if any: `UCI_LimitStrength` picks one by Elo, else the
    /// `Level` option (0, the default, is full strength under the GUI's own limits).
    fn playing_level(&self) -> Option<Level> {
        if self.limit_strength {
            Some(Level::nearest_to_elo(self.uci_elo))
        } else {
            self.level
        }
    }
}

/// Engine state between commands.
struct Engine {
    position: Position,
    /// Hash of every position of the game so far, the current one last.
    history: Vec<u64>,
    options: Options,
    /// The searcher while idle; a running search owns it and hands it back when joined.
    searcher: Option<Searcher>,
    job: Option<JoinHandle<Searcher>>,
    stop: Arc<AtomicBool>,
    /// Whether the running search waits for `stop` (`go infinite`, `go ponder`).
    wait_for_stop: bool,
    seed: u64,
    /// Drives the book's random choice. Seeded from the clock, unlike `seed`: a GUI that
    /// starts the engine afresh for every game must still get different openings.
    book_seed: u64,
}

impl Engine {
    fn new() -> Engine {
        let position = Position::startpos();
        Engine {
            position,
            history: vec![position.hash()],
            options: Options {
                hash_mb: DEFAULT_HASH_MB,
                level: None,
                limit_strength: false,
                uci_elo: Level::MAX.elo(),
                move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
                own_book: false,
                multipv: 1,
                threads: Threads::ONE,
            },
            searcher: Some(Searcher::new(DEFAULT_HASH_MB)),
            job: None,
            stop: Arc::new(AtomicBool::new(false)),
            wait_for_stop: false,
            seed: 0x2545_F491_4F6C_DD1D,
            book_seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64),
        }
    }

    /// Stops a running search (its thread prints `bestmove`) and takes the searcher back.
    fn finish_search(&mut self) {
        if let Some(job) = self.job.take() {
            self.stop.store(true, Ordering::Relaxed);
            match job.join() {
                Ok(searcher) => self.searcher = Some(searcher),
                Err(_) => {
                    println!("info string search thread failed; starting afresh");
                    self.searcher = Some(Searcher::new(self.options.hash_mb));
                }
            }
        }
    }

    fn searcher(&mut self) -> &mut Searcher {
        self.finish_search();
        self.searcher
            .get_or_insert_with(|| Searcher::new(DEFAULT_HASH_MB))
    }

    /// Handles one command; returns false when the engine should exit.
    fn handle(&mut self, command: UciCommand) -> bool {
        match command {
            UciCommand::Uci => {
                println!("id name ChessPI {}", env!("CARGO_PKG_VERSION"));
                println!("id author the ChessPI authors");
                println!(
                    "option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"
                );
                println!("option name Clear Hash type button");
                println!("option name Level type spin default 0 min 0 max 10");
                println!("option name UCI_LimitStrength type check default false");
                println!(
                    "option name UCI_Elo type spin default {} min {} max {}",
                    Level::MAX.elo(),
                    Level::MIN.elo(),
                    Level::MAX.elo()
                );
                println!(
                    "option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max {MAX_MOVE_OVERHEAD_MS}"
                );
                println!("option name OwnBook type check default false");
                println!("option name MultiPV type spin default 1 min 1 max {MAX_LINES}");
                println!(
                    "option name Threads type spin default 1 min 1 max {}",
                    Threads::MAX
                );
                println!("uciok");
            }
            UciCommand::IsReady => println!("readyok"),
            UciCommand::UciNewGame => {
                self.searcher().clear();
                let start = Position::startpos();
                self.position = start;
                self.history = vec![start.hash()];
            }
            UciCommand::Position { start, moves } => {
                self.finish_search();
                let mut pos = start;
                self.history = vec![pos.hash()];
                for mv in moves {
                    pos.play_unchecked(mv);
                    self.history.push(pos.hash());
                }
                self.position = pos;
            }
            UciCommand::SetOption { name, value } => {
                self.finish_search();
                if let Err(e) = self.set_option(&name, value.as_deref()) {
                    println!("info string {e}");
                }
            }
            UciCommand::Perft(depth) => {
                self.finish_search();
                let mut total = 0;
                for (mv, count) in perft::divide(&self.position, depth) {
                    println!("{mv}: {count}");
                    total += count;
                }
                if depth == 0 {
                    total = 1;
                }
                println!();
                println!("Nodes searched: {total}");
            }
            UciCommand::Go(params) => self.go(&params),
            UciCommand::Stop | UciCommand::PonderHit => self.finish_search(),
            UciCommand::Quit => {
                self.finish_search();
                return false;
            }
            UciCommand::Debug(_) => {}
        }
        true
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let number = |max: u64| -> Result<u64, String> {
            let v = value.ok_or_else(|| format!("option '{name}' needs a value"))?;
            v.parse::<u64>()
                .ok()
                .filter(|n| *n <= max)
                .ok_or_else(|| format!("'{v}' is not a valid value for '{name}'"))
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" => {
                let mb = number(MAX_HASH_MB as u64)?.max(1) as usize;
                self.options.hash_mb = mb;
                self.searcher().set_hash_size(mb);
            }
            "clear hash" => self.searcher().clear(),
            "level" => {
                // 0 switches levels off; 1..=10 are the kiosk's levels.
                self.options.level = Level::new(number(10)? as u8);
            }
            "uci_limitstrength" => {
                self.options.limit_strength = match value {
                    Some("true") => true,
                    Some("false") => false,
                    _ => return Err("UCI_LimitStrength expects true or false".into()),
                }
            }
            "ownbook" => {
                self.options.own_book = match value {
                    Some("true") => true,
                    Some("false") => false,
                    _ => return Err("OwnBook expects true or false".into()),
                }
            }
            "multipv" => {
                let lines = number(MAX_LINES as u64)?;
                if lines == 0 {
                    return Err(format!("MultiPV is 1..{MAX_LINES}, not 0"));
                }
                self.options.multipv = lines as usize;
            }
            "threads" => {
                let text = value.ok_or("option 'Threads' needs a value")?;
                self.options.threads = text.parse().map_err(|e: ThreadsError| e.to_string())?;
            }
            "uci_elo" => self.options.uci_elo = number(u32::MAX as u64)? as u32,
            "move overhead" => {
                self.options.move_overhead = Duration::from_millis(number(MAX_MOVE_OVERHEAD_MS)?);
            }
            _ => return Err(format!("unknown option '{name}'")),
        }
        Ok(())
    }

    fn limits(&mut self, params: &GoParams) -> SearchLimits {
        let pos = &self.position;
        let (time, inc) = match pos.turn() {
            Color::White => (params.wtime, params.winc),
            Color::Black => (params.btime, params.binc),
        };
        let mut limits = match time {
            Some(remaining) if !params.infinite && params.movetime.is_none() => {
                SearchLimits::from_clock(
                    Clock {
                        remaining,
                        increment: inc.unwrap_or_default(),
                        moves_to_go: params.movestogo,
                    },
                    self.options.move_overhead,
                )
            }
            _ => SearchLimits::default(),
        };
        limits.depth = params.depth;
        limits.nodes = params.nodes;
        limits.mate = params.mate;
        limits.movetime = params.movetime.map(|t| {
            t.saturating_sub(self.options.move_overhead)
                .max(Duration::from_millis(1))
        });
        limits.infinite = params.infinite || params.ponder;
        for text in &params.searchmoves {
            match uci::parse_move(pos, text) {
                Ok(mv) => limits.searchmoves.push(mv),
                Err(e) => println!("info string searchmoves '{text}' ignored: {e}"),
            }
        }
        limits.threads = self.options.threads;
        if let Some(level) = self.options.playing_level() {
            // Levels 1-9 were measured on one thread (their labels would be wrong on more);
            // level 10 thinks on `Threads`, each thread spending its budget, as in the app.
            let threads = if level == Level::MAX {
                self.options.threads
            } else {
                Threads::ONE
            };
            limits.threads = threads;
            self.seed = self
                .seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let level_limits = level.limits(self.seed).on_threads(threads);
            limits.depth = min_some(limits.depth, level_limits.depth);
            limits.nodes = min_some(limits.nodes, level_limits.nodes);
            limits.movetime = min_some(limits.movetime, level_limits.movetime);
            limits.weakness = level_limits.weakness;
        }
        limits
    }

    /// A move from the opening book for `go`, if `OwnBook` is on and the position is in the
    /// book. Not for `go infinite`/`ponder` (the GUI waits for a search there) nor when
    /// `searchmoves` excludes the move.
    fn book_move(&mut self, params: &GoParams) -> Option<chesspi_engine::Move> {
        if !self.options.own_book || params.infinite || params.ponder {
            return None;
        }
        self.book_seed = self
            .book_seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1);
        let mv = openings::book_move(&self.position, self.book_seed)?;
        let allowed =
            params.searchmoves.is_empty() || params.searchmoves.iter().any(|m| *m == mv.to_uci());
        allowed.then_some(mv)
    }

    fn go(&mut self, params: &GoParams) {
        self.finish_search();
        if let Some(mv) = self.book_move(params) {
            println!("info string book move {mv}");
            print_bestmove(&SearchResult {
                best_move: Some(mv),
                ponder: None,
                score: Score::Cp(0),
                depth: 0,
                nodes: 0,
                pv: vec![mv],
            });
            return;
        }
        let limits = self.limits(params);
        let lines = self.options.multipv;
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(self.options.hash_mb));
        let root = self.position;
        let history = self.history.clone();
        self.stop.store(false, Ordering::Relaxed);
        let stop = Arc::clone(&self.stop);
        let wait_for_stop = limits.infinite;
        self.wait_for_stop = wait_for_stop;
        self.job = Some(std::thread::spawn(move || {
            let result = if lines > 1 {
                multipv::search_lines(
                    &mut searcher,
                    &root,
                    &history,
                    &limits,
                    lines,
                    &stop,
                    &mut |k, info| print_info_line(info, Some(k)),
                )
            } else {
                searcher.search(&root, &history, &limits, &stop, &mut print_info)
            };
            // UCI: after `go infinite` the move comes only when the GUI says stop.
            while wait_for_stop && !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
            print_bestmove(&result);
            searcher
        }));
    }
}

fn min_some<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn print_info(info: &SearchInfo) {
    print_info_line(info, None);
}

/// One `info` line; `multipv` is the line's rank when several are searched.
fn print_info_line(info: &SearchInfo, multipv: Option<usize>) {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    let multipv = multipv.map_or(String::new(), |k| format!(" multipv {k}"));
    let mut out = io::stdout().lock();
    let _ = writeln!(
        out,
        "info depth {} seldepth {}{multipv} score {} nodes {} nps {} hashfull {} time {} pv {}",
        info.depth,
        info.seldepth,
        info.score,
        info.nodes,
        info.nps(),
        info.hashfull,
        info.time.as_millis(),
        pv.join(" ")
    );
    let _ = out.flush();
}

fn print_bestmove(result: &SearchResult) {
    let mut out = io::stdout().lock();
    let _ = match (result.best_move, result.ponder) {
        (Some(mv), Some(ponder)) => writeln!(out, "bestmove {mv} ponder {ponder}"),
        (Some(mv), None) => writeln!(out, "bestmove {mv}"),
        // No legal move: UCI's null move.
        (None, _) => writeln!(out, "bestmove 0000"),
    };
    let _ = out.flush();
}

fn run_bench(args: &[String]) {
    let usage = || -> ! {
        eprintln!("usage: chesspi-engine bench [depth 1..64 [threads 1..64]]");
        std::process::exit(2);
    };
    let depth = match args.first().map(|d| d.parse::<u32>()) {
        None => bench::BENCH_DEPTH,
        Some(Ok(d)) if (1..=64).contains(&d) => d,
        Some(_) => usage(),
    };
    let threads = match args.get(1).map(|t| t.parse::<Threads>()) {
        None => Threads::ONE,
        Some(Ok(t)) => t,
        Some(Err(e)) => {
            eprintln!("{e}");
            usage()
        }
    };
    if args.len() > 2 {
        usage();
    }
    let (nodes, elapsed) = bench::run(depth, threads, |i, n, time| {
        eprintln!("position {:2}: {n} nodes {} ms", i + 1, time.as_millis());
    });
    let nps = nodes as u128 * 1_000_000 / elapsed.as_micros().max(1);
    eprintln!(
        "depth {depth}, {threads} threads, {} ms",
        elapsed.as_millis()
    );
    println!("{nodes} nodes {nps} nps");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("bench") {
        run_bench(&args[1..]);
        return;
    }
    if args.first().map(String::as_str) == Some("explain") {
        std::process::exit(explain::run(&args[1..]));
    }
    if args.first().map(String::as_str) == Some("analyze") {
        std::process::exit(analyze::run(&args[1..]));
    }
    let mut engine = Engine::new();
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let keep_going = match UciCommand::parse(&line) {
            Ok(command) => engine.handle(command),
            Err(UciError::Empty) => true,
            Err(e) => {
                println!("info string {e}");
                true
            }
        };
        let _ = io::stdout().flush();
        if !keep_going {
            return;
        }
    }
    // End of input: let a bounded search finish (so `echo "go depth 8" | chesspi-engine`
    // works), but stop an infinite one.
    if let Some(job) = engine.job.take() {
        if engine.wait_for_stop {
            engine.stop.store(true, Ordering::Relaxed);
        }
        let _ = job.join();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go() -> GoParams {
        GoParams::default()
    }

    #[test]
    fn own_book_is_off_until_set_and_then_plays_book_moves() {
        let mut engine = Engine::new();
        assert_eq!(engine.book_move(&go()), None, "OwnBook defaults to false");
        engine.set_option("OwnBook", Some("true")).unwrap();
        let book: Vec<_> = openings::book_moves(&engine.position)
            .iter()
            .map(|b| b.mv)
            .collect();
        for _ in 0..20 {
            let mv = engine.book_move(&go()).unwrap();
            assert!(book.contains(&mv));
        }
        // Not while the GUI waits for a search, and only within searchmoves.
        let infinite = GoParams {
            infinite: true,
            ..go()
        };
        assert_eq!(engine.book_move(&infinite), None);
        let only_h3 = GoParams {
            searchmoves: vec!["h2h3".into()],
            ..go()
        };
        assert!(
            engine
                .book_move(&only_h3)
                .is_none_or(|m| m.to_string() == "h2h3")
        );
        // Out of the book: nothing.
        engine.position = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        assert_eq!(engine.book_move(&go()), None);
        assert!(engine.set_option("OwnBook", Some("maybe")).is_err());
        engine.set_option("ownbook", Some("false")).unwrap();
        engine.position = Position::startpos();
        assert_eq!(engine.book_move(&go()), None);
    }

    #[test]
    fn multipv_takes_1_to_16() {
        let mut engine = Engine::new();
        assert_eq!(engine.options.multipv, 1);
        engine.set_option("MultiPV", Some("16")).unwrap();
        assert_eq!(engine.options.multipv, 16);
        assert!(engine.set_option("MultiPV", Some("0")).is_err());
        assert!(engine.set_option("MultiPV", Some("17")).is_err());
        assert!(engine.set_option("MultiPV", None).is_err());
        assert_eq!(engine.options.multipv, 16);
    }

    #[test]
    fn threads_take_1_to_64_and_levels_use_one() {
        let mut engine = Engine::new();
        assert_eq!(engine.options.threads, Threads::ONE);
        for refused in ["0", "65", "abc", "-2", ""] {
            let e = engine.set_option("Threads", Some(refused)).unwrap_err();
            assert!(e.contains("Threads"), "{e}");
            assert_eq!(engine.options.threads, Threads::ONE, "after '{refused}'");
        }
        assert!(engine.set_option("Threads", None).is_err());
        engine.set_option("Threads", Some("1")).unwrap();
        assert_eq!(engine.options.threads.get(), 1);
        engine.set_option("threads", Some("4")).unwrap();
        assert_eq!(engine.options.threads.get(), 4);
        assert_eq!(engine.limits(&go()).threads.get(), 4);
        engine.set_option("Threads", Some("64")).unwrap();
        assert_eq!(engine.options.threads, Threads::MAX);
        // A level keeps the single thread it was measured on.
        engine.set_option("Level", Some("5")).unwrap();
        assert_eq!(engine.limits(&go()).threads, Threads::ONE);
    }
}
