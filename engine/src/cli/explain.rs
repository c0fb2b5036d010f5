//! `chesspi-engine explain --fen FEN --move UCI [--nodes N] [--threads N]`: the coach's
//! judgement of one move (each of `--threads` threads spending `--nodes`) as one JSON line (see [`chesspi_engine::coach`]):
//!
//! ```text
//! {"verdict": "blunder", "loss": 38.1, "best": "d2d4",
//!  "reason": {"kind": "hangs", "squares": ["f3", "g4"]}, "en": "...", "de": "...",
//!  "before": {"cp": 35}, "after": {"cp": -480}, "nodes": 151000, "micros": 160000}
//! ```
//!
//! `before` and `after` are the coach's evaluations from the mover's side, in centipawns on
//! lichess's scale (the win-% model's) or as `{"mate": n}` (negative: the mover is mated).
//!
//! `reason.kind` is one of hangs, mate, fork, pin, skewer, exchange, missed_mate, missed_win,
//! stalemate, draw, none; `squares` as [`Reason::squares`] orders them; `mate_in` comes with
//! mate and missed_mate, `net` (pawns) with exchange. Bad input: a message on stderr and exit
//! status 2.

use chesspi_engine::Position;
use chesspi_engine::analysis::Eval;
use chesspi_engine::coach::words::{self, Language};
use chesspi_engine::coach::{COACH_NODES, Coach, Judgement, Reason};
use chesspi_engine::search::{Threads, ThreadsError};
use chesspi_engine::types::Color;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

const USAGE: &str =
    "usage: chesspi-engine explain --fen FEN --move UCI [--nodes N] [--threads 1..64]";

#[derive(Debug, PartialEq)]
struct Args {
    position: Position,
    mv: String,
    nodes: u64,
    threads: Threads,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let (mut fen, mut mv, mut nodes, mut threads) = (None, None, COACH_NODES, Threads::ONE);
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let mut value = || {
            iter.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value"))
        };
        match arg.as_str() {
            "--fen" => fen = Some(value()?),
            "--move" => mv = Some(value()?),
            "--nodes" => {
                let text = value()?;
                nodes = text
                    .parse::<u64>()
                    .ok()
                    .filter(|n| (1..=1_000_000_000).contains(n))
                    .ok_or_else(|| format!("--nodes: '{text}' is not a number from 1 to 10^9"))?;
            }
            "--threads" => {
                threads = value()?
                    .parse()
                    .map_err(|e: ThreadsError| format!("--threads: {e}"))?;
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    let fen = fen.ok_or("--fen is missing")?;
    let position = Position::from_fen(&fen).map_err(|e| format!("--fen: {e}"))?;
    Ok(Args {
        position,
        mv: mv.ok_or("--move is missing")?,
        nodes,
        threads,
    })
}

/// Runs the command; the exit status.
pub fn run(args: &[String]) -> i32 {
    let args = match parse_args(args) {
        Ok(args) => args,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("chesspi-engine explain: {message}");
            }
            eprintln!("{USAGE}");
            return 2;
        }
    };
    let mv = match args.position.parse_uci_move(&args.mv) {
        Ok(mv) => mv,
        Err(e) => {
            eprintln!("chesspi-engine explain: --move: {e}");
            return 2;
        }
    };
    let started = Instant::now();
    let mut coach = Coach::new(args.nodes);
    coach.set_threads(args.threads);
    let judged = coach.judge(&args.position, &[], mv, &AtomicBool::new(false));
    match judged {
        Ok(judgement) => {
            println!("{}", to_json(&judgement, started.elapsed().as_micros()));
            0
        }
        Err(e) => {
            eprintln!("chesspi-engine explain: {e}");
            2
        }
    }
}

/// One JSON line for a judgement.
fn to_json(judgement: &Judgement, micros: u128) -> String {
    let squares: Vec<String> = judgement
        .reason
        .squares()
        .iter()
        .map(|s| format!("\"{s}\""))
        .collect();
    let extra = match &judgement.reason {
        Reason::Mate { moves, .. } | Reason::MissedMate { moves, .. } => {
            format!(", \"mate_in\": {moves}")
        }
        Reason::Exchange { net, .. } => format!(", \"net\": {net}"),
        _ => String::new(),
    };
    format!(
        "{{\"verdict\": \"{}\", \"loss\": {:.1}, \"best\": \"{}\", \"reason\": {{\"kind\": \"{}\", \
         \"squares\": [{}]{extra}}}, \"en\": {}, \"de\": {}, \"before\": {}, \"after\": {}, \
         \"nodes\": {}, \"micros\": {micros}}}",
        judgement.verdict.code(),
        judgement.loss,
        judgement.best,
        judgement.reason.kind().code(),
        squares.join(", "),
        json_string(&words::sentence(judgement, Language::English)),
        json_string(&words::sentence(judgement, Language::German)),
        eval_json(judgement.before, judgement.mover()),
        eval_json(judgement.after, judgement.mover()),
        judgement.nodes,
    )
}

/// An evaluation from `side`'s view as a JSON object: `{"cp": n}` or `{"mate": n}`.
fn eval_json(eval: Eval, side: Color) -> String {
    match eval.mate_for(side) {
        Some(moves) => format!("{{\"mate\": {moves}}}"),
        None => format!("{{\"cp\": {}}}", eval.cp_for(side)),
    }
}

/// A JSON string literal.
fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn arguments_are_checked() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let parsed = parse_args(&args(&["--fen", start, "--move", "e2e4", "--nodes", "500"]));
        assert_eq!(parsed.map(|a| (a.mv, a.nodes)), Ok(("e2e4".into(), 500)));
        assert!(parse_args(&args(&["--move", "e2e4"])).is_err());
        assert!(parse_args(&args(&["--fen", start])).is_err());
        assert!(parse_args(&args(&["--fen", "nonsense", "--move", "e2e4"])).is_err());
        assert!(parse_args(&args(&["--fen", start, "--move", "e2e4", "--nodes", "0"])).is_err());
        assert!(parse_args(&args(&["--fen", start, "--move", "e2e4", "--frob"])).is_err());
        assert!(parse_args(&args(&["--fen"])).is_err());
        let threads = |n: &str| {
            parse_args(&args(&["--fen", start, "--move", "e2e4", "--threads", n]))
                .map(|a| a.threads.get())
        };
        assert_eq!(threads("4"), Ok(4));
        assert!(threads("0").is_err());
        assert!(threads("65").is_err());
        assert!(threads("two").is_err());
    }

    #[test]
    fn strings_are_escaped() {
        assert_eq!(json_string("a\"b\\c\nü"), "\"a\\\"b\\\\c\\u000aü\"");
    }
}
