//! `chesspi-engine analyze [--movetime MS | --nodes N] [--depth D] [--threads N]
//! [--search-threads N] [--hash MB] FILE.pgn`: `--threads` games at once, each position
//! searched by `--search-threads` (each spending `--nodes`); every game of the file written back on stdout as PGN annotated by
//! [`chesspi_engine::analysis`]. A game that cannot be read or analysed is reported on stderr
//! (naming the game and the line) and left out; the others are still analysed, and the exit
//! status is then 1. Usage errors exit with 2.

use chesspi_engine::analysis::{AnalysisLimits, Analyzer};
use chesspi_engine::game::GameError;
use chesspi_engine::pgn::{self, PgnError, PgnGame};
use chesspi_engine::search::{DEFAULT_HASH_MB, Threads};
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const USAGE: &str = "usage: chesspi-engine analyze [--movetime MS | --nodes N] [--depth D] \
                     [--threads N] [--search-threads N] [--hash MB] FILE.pgn (- for stdin)";

/// Parsed command line.
#[derive(Debug, Clone, PartialEq)]
struct Args {
    limits: AnalysisLimits,
    threads: usize,
    hash_mb: usize,
    file: String,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut limits = AnalysisLimits {
        nodes: None,
        movetime: None,
        depth: None,
        threads: Threads::ONE,
    };
    let mut threads = 1;
    let mut hash_mb = DEFAULT_HASH_MB;
    let mut file = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut number = |max: u64| -> Result<u64, String> {
            let value = iter.next().ok_or_else(|| format!("{arg} needs a number"))?;
            value
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| format!("{arg}: '{value}' is not a number from 1 to {max}"))
        };
        match arg.as_str() {
            "--movetime" => limits.movetime = Some(Duration::from_millis(number(3_600_000)?)),
            "--nodes" => limits.nodes = Some(number(u64::MAX)?),
            "--depth" => limits.depth = Some(number(100)? as u32),
            "--threads" => threads = number(256)? as usize,
            "--search-threads" => limits.threads = Threads::clamped(number(64)? as usize),
            "--hash" => hash_mb = number(1024)? as usize,
            "-h" | "--help" => return Err(String::new()),
            other if other.starts_with("--") => return Err(format!("unknown option '{other}'")),
            path => {
                if file.replace(path.to_string()).is_some() {
                    return Err("give one PGN file".into());
                }
            }
        }
    }
    if limits.movetime.is_some() && limits.nodes.is_some() {
        return Err("give --movetime or --nodes, not both".into());
    }
    if limits.movetime.is_none() && limits.nodes.is_none() && limits.depth.is_none() {
        limits = AnalysisLimits {
            threads: limits.threads,
            ..AnalysisLimits::default()
        };
    }
    let file = file.ok_or("no PGN file given")?;
    Ok(Args {
        limits,
        threads,
        hash_mb,
        file,
    })
}

fn read_input(path: &str) -> io::Result<String> {
    let mut bytes = Vec::new();
    if path == "-" {
        io::stdin().read_to_end(&mut bytes)?;
    } else {
        bytes = std::fs::read(path)?;
    }
    // Old files are often Latin-1, the PGN standard's character set: read them as such.
    Ok(chesspi_engine::pgn::decode_text(bytes))
}

/// The annotated PGN of one game, or the message for stderr.
type GameOutput = Result<String, String>;

fn analyse_one(
    analyzer: &mut Analyzer,
    number: usize,
    game: Result<PgnGame, PgnError>,
    clocks: &[String],
) -> GameOutput {
    let game = game.map_err(|e| e.to_string())?;
    // The rules end a game at fivefold repetition and the 75-move rule: moves after that are
    // no game (and 10 MB of them would keep the analysis busy for hours).
    if let Err(e) = game.to_game() {
        return Err(match e {
            GameError::GameOver(outcome) => {
                format!("game {number}: moves go on after the game ended ({outcome})")
            }
            e => format!("game {number}: {e}"),
        });
    }
    let stop = AtomicBool::new(false);
    let analysis = analyzer
        .analyse_pgn(&game, &stop, &mut |_| {})
        .map_err(|e| format!("game {number}: {e}"))?;
    // A timed game's clocks stay beside the evaluations, as lichess writes both.
    analysis
        .to_pgn_of_keeping(&game, clocks)
        .map_err(|e| format!("game {number}: {e}"))
}

/// Runs the subcommand; returns the process exit status.
pub fn run(args: &[String]) -> i32 {
    let args = match parse_args(args) {
        Ok(args) => args,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("chesspi-engine analyze: {message}");
            }
            eprintln!("{USAGE}");
            return 2;
        }
    };
    let text = match read_input(&args.file) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("chesspi-engine analyze: {}: {e}", args.file);
            return 2;
        }
    };
    let games = pgn::read_games_with_clocks(&text);
    let started = Instant::now();
    let next_game = AtomicUsize::new(0);
    // Finished games waiting for the ones before them, so stdout keeps the file's order.
    let pending: Mutex<(usize, BTreeMap<usize, GameOutput>)> = Mutex::new((0, BTreeMap::new()));
    let failures = AtomicUsize::new(0);
    let print_ready = |index: usize, outcome: GameOutput| {
        let Ok(mut guard) = pending.lock() else {
            return;
        };
        let (next, ready) = &mut *guard;
        ready.insert(index, outcome);
        while let Some(outcome) = ready.remove(next) {
            match outcome {
                Ok(text) => {
                    let mut out = io::stdout().lock();
                    // Games are separated by an empty line.
                    let _ = writeln!(out, "{text}");
                    let _ = out.flush();
                }
                Err(message) => {
                    failures.fetch_add(1, Ordering::Relaxed);
                    eprintln!("{}: {message}", args.file);
                }
            }
            *next += 1;
        }
    };
    let workers = args.threads.min(games.len()).max(1);
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut analyzer = match Analyzer::with_hash(args.limits, args.hash_mb) {
                    Ok(analyzer) => analyzer,
                    Err(e) => {
                        eprintln!("chesspi-engine analyze: {e}");
                        return;
                    }
                };
                loop {
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    let Some((game, clocks)) = games.get(index) else {
                        break;
                    };
                    let output = analyse_one(&mut analyzer, index + 1, game.clone(), clocks);
                    print_ready(index, output);
                }
            });
        }
    });
    let failed = failures.load(Ordering::Relaxed);
    eprintln!(
        "analysed {} of {} games in {:.1} s",
        games.len() - failed,
        games.len(),
        started.elapsed().as_secs_f64()
    );
    i32::from(failed > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Result<Args, String> {
        let list: Vec<String> = text.split_whitespace().map(String::from).collect();
        parse_args(&list)
    }

    #[test]
    fn command_line() {
        let parsed = args("--nodes 5000 --threads 2 games.pgn").unwrap();
        assert_eq!(parsed.limits.nodes, Some(5000));
        assert_eq!(parsed.limits.movetime, None);
        assert_eq!((parsed.threads, parsed.file.as_str()), (2, "games.pgn"));
        let parsed = args("--movetime 40 -").unwrap();
        assert_eq!(parsed.limits.movetime, Some(Duration::from_millis(40)));
        assert_eq!(args("x.pgn").unwrap().limits, AnalysisLimits::default());
        assert!(args("--movetime 40 --nodes 9 x.pgn").is_err());
        assert!(args("--nodes 0 x.pgn").is_err());
        assert!(args("--nodes x.pgn").is_err());
        assert!(args("--bogus x.pgn").is_err());
        // The hand-written evaluation is gone, and with it the choice.
        assert!(args("--eval classic x.pgn").is_err());
        assert!(args("a.pgn b.pgn").is_err());
        assert!(args("--threads 2").is_err());
        let parsed = args("--search-threads 4 x.pgn").unwrap();
        assert_eq!(parsed.limits.threads.get(), 4);
        assert_eq!(parsed.limits.nodes, AnalysisLimits::default().nodes);
        assert!(args("--search-threads 65 x.pgn").is_err());
        assert!(args("--search-threads 0 x.pgn").is_err());
    }
}
