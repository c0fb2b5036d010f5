//! Texel tuning of the evaluation's weights from the engine's own games.
//!
//! ```text
//! texel gen --out FILE [--games N] [--nodes N] [--threads N] [--seed N]
//!     Self-play at a fixed node budget per move from random openings; writes one quiet
//!     position per line, `FEN;result` with White's result (1, 0.5 or 0).
//! texel tune FILE... [--epochs N] [--l2 L] [--threads N] [--out PATH]
//!     Fits the weights so that sigmoid(evaluation) predicts the results (mean squared
//!     error, Adam), starting from the current weights; writes them as Rust source, by
//!     default to engine/src/eval/weights.rs. A tenth of the positions (every tenth block of
//!     about ten games) is held out to check that the fit generalises. `--l2 L` adds
//!     L * (weight - start)^2 per weight to the error (default 3e-8), so that weights the
//!     data says little about stay near their starting values.
//! texel print [--out PATH]
//!     Writes the current weights unchanged (checks the generator round-trips).
//! ```
//!
//! Run with `cargo run --release -p chesspi-engine --example texel -- ...`.

use chesspi_engine::eval::{self, MAX_PHASE, Score, WEIGHTS, layout};
use chesspi_engine::game::Game;
use chesspi_engine::search::{self, SearchLimits, Searcher};
use chesspi_engine::{Color, Position};
use std::fmt::Write as _;
use std::io::{BufRead, BufWriter, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

const DEFAULT_OUT: &str = "engine/src/eval/weights.rs";
/// Chosen by the held-out games' error (docs/BENCHMARKS.md, "Evaluation tuning").
const DEFAULT_L2: f64 = 3e-8;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("gen") => Args::parse(&args[1..]).and_then(|a| generate(&a)),
        Some("tune") => Args::parse(&args[1..]).and_then(|a| tune(&a)),
        Some("print") => {
            Args::parse(&args[1..]).and_then(|a| write_weights(&a.weights_out(), &WEIGHTS))
        }
        _ => {
            Err("usage: texel gen|tune|print ... (see the top of engine/examples/texel.rs)".into())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("texel: {e}");
            ExitCode::FAILURE
        }
    }
}

struct Args {
    files: Vec<String>,
    out: Option<String>,
    games: usize,
    nodes: u64,
    threads: usize,
    seed: u64,
    epochs: usize,
    l2: f64,
}

impl Args {
    fn parse(args: &[String]) -> Result<Args, String> {
        let mut a = Args {
            files: Vec::new(),
            out: None,
            games: 1000,
            nodes: 6000,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            seed: 1,
            epochs: 2000,
            l2: DEFAULT_L2,
        };
        let mut it = args.iter();
        while let Some(arg) = it.next() {
            let mut value = |name: &str| {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("{name} needs a value"))
            };
            let number = |name: &str, v: String| {
                v.parse::<u64>()
                    .map_err(|_| format!("{name}: not a number: {v}"))
            };
            match arg.as_str() {
                "--out" => a.out = Some(value("--out")?),
                "--games" => a.games = number("--games", value("--games")?)? as usize,
                "--nodes" => a.nodes = number("--nodes", value("--nodes")?)?,
                "--threads" => {
                    a.threads = number("--threads", value("--threads")?)?.max(1) as usize
                }
                "--seed" => a.seed = number("--seed", value("--seed")?)?,
                "--epochs" => a.epochs = number("--epochs", value("--epochs")?)? as usize,
                "--l2" => {
                    let v = value("--l2")?;
                    a.l2 = v
                        .parse::<f64>()
                        .ok()
                        .filter(|l| l.is_finite() && *l >= 0.0)
                        .ok_or_else(|| format!("--l2: not a non-negative number: {v}"))?;
                }
                s if s.starts_with("--") => return Err(format!("unknown option {s}")),
                file => a.files.push(file.to_string()),
            }
        }
        Ok(a)
    }

    /// Where `tune` and `print` write the weights.
    fn weights_out(&self) -> String {
        self.out.clone().unwrap_or_else(|| DEFAULT_OUT.to_string())
    }
}

/// xorshift64*: reproducible openings without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One self-play game's quiet positions and White's result.
struct Played {
    fens: Vec<String>,
    result: f32,
}

/// White's score in centipawns, mates as ±10000.
fn white_cp(score: search::Score, turn: Color) -> i32 {
    let cp = match score {
        search::Score::Cp(cp) => cp,
        search::Score::Mate(n) if n > 0 => 10_000,
        search::Score::Mate(_) => -10_000,
    };
    if turn == Color::White { cp } else { -cp }
}

/// Plies played at random before the engine takes over, for varied games.
const RANDOM_PLIES: usize = 8;
/// Adjudication: a side this far ahead for `WIN_PLIES` plies has won.
const WIN_CP: i32 = 1000;
const WIN_PLIES: usize = 6;
/// After `DRAW_AFTER` plies, a score this close to 0 for `DRAW_PLIES` plies is a draw.
const DRAW_CP: i32 = 10;
const DRAW_AFTER: usize = 120;
const DRAW_PLIES: usize = 10;
const MAX_PLIES: usize = 400;
/// Positions scored beyond this are decided; they teach the weights little.
const RECORD_CP: i32 = 1500;

fn play_game(searcher: &mut Searcher, nodes: u64, rng: &mut Rng) -> Played {
    let stop = AtomicBool::new(false);
    let mut game = Game::new();
    // Random opening moves; start over if they end the game (rare).
    let opening = RANDOM_PLIES + rng.below(3);
    while game.moves().len() < opening {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.is_over() {
            game = Game::new();
            continue;
        }
        let mv = moves.as_slice()[rng.below(moves.len())];
        if game.play(mv).is_err() {
            game = Game::new();
        }
    }
    searcher.clear();
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    let mut fens = Vec::new();
    let (mut winning, mut drawn) = (0usize, 0usize);
    let mut last_sign = 0;
    let result = loop {
        if let Some(outcome) = game.outcome() {
            break match outcome.winner {
                Some(Color::White) => 1.0,
                Some(Color::Black) => 0.0,
                None => 0.5,
            };
        }
        if game.claimable_draw().is_some() || game.moves().len() >= MAX_PLIES {
            break 0.5;
        }
        let pos = *game.position();
        let found = searcher.search(&pos, game.history_hashes(), &limits, &stop, &mut |_| {});
        let Some(mv) = found.best_move else {
            break 0.5;
        };
        let white = white_cp(found.score, pos.turn());
        let quiet = !pos.is_check() && !pos.is_capture(mv) && mv.promotion().is_none();
        if quiet && white.abs() < RECORD_CP {
            fens.push(pos.to_fen());
        }
        let sign = white.signum();
        winning = if white.abs() >= WIN_CP && sign == last_sign {
            winning + 1
        } else {
            usize::from(white.abs() >= WIN_CP)
        };
        last_sign = sign;
        drawn = if white.abs() <= DRAW_CP { drawn + 1 } else { 0 };
        if winning >= WIN_PLIES {
            break if sign > 0 { 1.0 } else { 0.0 };
        }
        if game.moves().len() >= DRAW_AFTER && drawn >= DRAW_PLIES {
            break 0.5;
        }
        if game.play(mv).is_err() {
            break 0.5;
        }
    };
    Played { fens, result }
}

fn generate(args: &Args) -> Result<(), String> {
    if !args.files.is_empty() {
        return Err("gen takes no input files (did you mean --out?)".into());
    }
    // No default: the tuner's default output is the weights' source file.
    let path = args.out.as_deref().ok_or("gen needs --out FILE")?;
    let file = std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?;
    let mut out = BufWriter::new(file);
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Played)>();
    let start = std::time::Instant::now();
    std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..args.threads {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                let mut searcher = Searcher::new(16);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.games {
                        break;
                    }
                    let mut rng =
                        Rng((args.seed.wrapping_mul(1_000_003) ^ ((i as u64 + 1) << 20)) | 1);
                    if tx
                        .send((i, play_game(&mut searcher, args.nodes, &mut rng)))
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let (mut games, mut positions, mut score) = (0usize, 0usize, [0usize; 3]);
        // Games are written in their order, whatever thread finished first: each game depends
        // only on its number and the seed, so a rerun writes the same file.
        let mut pending = std::collections::BTreeMap::new();
        for (i, played) in rx {
            pending.insert(i, played);
            while let Some(played) = pending.remove(&games) {
                for fen in &played.fens {
                    writeln!(out, "{fen};{}", played.result).map_err(|e| e.to_string())?;
                }
                games += 1;
                positions += played.fens.len();
                score[(played.result * 2.0) as usize] += 1;
                if games % 200 == 0 || games == args.games {
                    eprintln!(
                        "{games} games, {positions} positions, White +{} ={} -{}, {:.0} s",
                        score[2],
                        score[1],
                        score[0],
                        start.elapsed().as_secs_f64()
                    );
                }
            }
        }
        Ok(())
    })?;
    out.flush().map_err(|e| e.to_string())
}

/// The positions in the compact form the fit runs on.
#[derive(Default)]
struct Data {
    index: Vec<u16>,
    count: Vec<f32>,
    /// Where each position's counts start in `index`/`count` (one extra at the end).
    start: Vec<u32>,
    /// Middlegame share of the blend, phase / MAX_PHASE.
    mg: Vec<f32>,
    scale: Vec<f32>,
    tempo: Vec<f32>,
    result: Vec<f32>,
}

impl Data {
    fn len(&self) -> usize {
        self.result.len()
    }

    fn push(&mut self, trace: &eval::Trace, result: f32) {
        if self.start.is_empty() {
            self.start.push(0);
        }
        for &(i, n) in &trace.counts {
            self.index.push(i);
            self.count.push(f32::from(n));
        }
        self.start.push(self.index.len() as u32);
        self.mg.push(trace.phase as f32 / MAX_PHASE as f32);
        self.scale.push(trace.scale as f32);
        self.tempo.push(trace.tempo as f32);
        self.result.push(result);
    }
}

/// Parses one `FEN;result` line.
fn parse_line(line: &str) -> Result<(Position, f32), String> {
    let (fen, result) = line
        .rsplit_once(';')
        .ok_or_else(|| "expected FEN;result".to_string())?;
    let result: f32 = result
        .trim()
        .parse()
        .map_err(|_| format!("bad result {result:?}"))?;
    if ![0.0, 0.5, 1.0].contains(&result) {
        return Err(format!("result must be 1, 0.5 or 0, not {result}"));
    }
    let pos = Position::from_fen(fen.trim()).map_err(|e| format!("bad FEN: {e}"))?;
    Ok((pos, result))
}

/// Positions per block of the held-out split.
const HOLD_OUT_BLOCK: usize = 1000;

fn load(files: &[String]) -> Result<(Data, Data), String> {
    let (mut train, mut test) = (Data::default(), Data::default());
    let mut n = 0usize;
    for path in files {
        let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
        for (line_no, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.map_err(|e| format!("{path}: {e}"))?;
            if line.trim().is_empty() {
                continue;
            }
            let (pos, result) =
                parse_line(&line).map_err(|e| format!("{path}:{}: {e}", line_no + 1))?;
            let trace = eval::trace(&pos);
            // Held out by blocks of about ten games, so few games are on both sides.
            if (n / HOLD_OUT_BLOCK) % 10 == 9 {
                test.push(&trace, result);
            } else {
                train.push(&trace, result);
            }
            n += 1;
        }
    }
    if train.len() == 0 || test.len() == 0 {
        return Err(format!(
            "{n} positions are too few: a tenth is held out in blocks of {HOLD_OUT_BLOCK}, \
             so tuning needs at least {}",
            10 * HOLD_OUT_BLOCK
        ));
    }
    Ok((train, test))
}

/// The weights as floats: middlegame then endgame value of each.
#[derive(Clone)]
struct Params {
    mg: Vec<f64>,
    eg: Vec<f64>,
}

impl Params {
    fn from_weights(w: &[Score]) -> Params {
        Params {
            mg: w.iter().map(|s| f64::from(s.mg)).collect(),
            eg: w.iter().map(|s| f64::from(s.eg)).collect(),
        }
    }

    fn to_weights(&self) -> Vec<Score> {
        self.mg
            .iter()
            .zip(&self.eg)
            .map(|(&mg, &eg)| eval::s(mg.round() as i32, eg.round() as i32))
            .collect()
    }
}

fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// Evaluation of position `i` (White's view) under `p`.
fn evaluate(data: &Data, p: &Params, i: usize) -> f64 {
    let (from, to) = (data.start[i] as usize, data.start[i + 1] as usize);
    let (mut mg, mut eg) = (0.0, 0.0);
    for j in from..to {
        let w = data.index[j] as usize;
        let n = f64::from(data.count[j]);
        mg += n * p.mg[w];
        eg += n * p.eg[w];
    }
    let rho = f64::from(data.mg[i]);
    f64::from(data.scale[i]) * (mg * rho + eg * (1.0 - rho)) + f64::from(data.tempo[i])
}

/// Mean squared error over a range of positions; with `grad`, also adds the gradient.
fn error_range(
    data: &Data,
    p: &Params,
    k: f64,
    range: std::ops::Range<usize>,
    mut grad: Option<&mut Params>,
) -> f64 {
    let mut sum = 0.0;
    let dk = k * std::f64::consts::LN_10 / 400.0;
    for i in range {
        let q = sigmoid(k, evaluate(data, p, i));
        let r = f64::from(data.result[i]);
        sum += (r - q) * (r - q);
        if let Some(g) = grad.as_deref_mut() {
            // d(r - q)^2 / dE
            let d = -2.0 * (r - q) * q * (1.0 - q) * dk * f64::from(data.scale[i]);
            let rho = f64::from(data.mg[i]);
            for j in data.start[i] as usize..data.start[i + 1] as usize {
                let w = data.index[j] as usize;
                let n = f64::from(data.count[j]);
                g.mg[w] += d * n * rho;
                g.eg[w] += d * n * (1.0 - rho);
            }
        }
    }
    sum
}

/// Mean squared error and, with `want_grad`, its gradient; split over threads.
fn error(data: &Data, p: &Params, k: f64, threads: usize, want_grad: bool) -> (f64, Params) {
    let n = data.len();
    let chunk = n.div_ceil(threads);
    let zero = Params {
        mg: vec![0.0; p.mg.len()],
        eg: vec![0.0; p.eg.len()],
    };
    let parts: Vec<(f64, Params)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let mut g = zero.clone();
                scope.spawn(move || {
                    let range = (t * chunk).min(n)..((t + 1) * chunk).min(n);
                    let e = error_range(data, p, k, range, want_grad.then_some(&mut g));
                    (e, g)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| (f64::NAN, zero.clone())))
            .collect()
    });
    let mut total = 0.0;
    let mut grad = zero;
    for (e, g) in parts {
        total += e;
        for w in 0..grad.mg.len() {
            grad.mg[w] += g.mg[w] / n as f64;
            grad.eg[w] += g.eg[w] / n as f64;
        }
    }
    (total / n as f64, grad)
}

/// The error on the fitted and on the held-out positions.
fn fit_and_held_out(train: &Data, test: &Data, p: &Params, k: f64, threads: usize) -> (f64, f64) {
    (
        error(train, p, k, threads, false).0,
        error(test, p, k, threads, false).0,
    )
}

/// Adam's running moments for one vector of weights, in centipawns.
struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
}

impl Adam {
    const RATE: f64 = 1.0;
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    const EPS: f64 = 1e-8;

    fn new(len: usize) -> Adam {
        Adam {
            m: vec![0.0; len],
            v: vec![0.0; len],
        }
    }

    /// Step `t` (from 1) on `params` with gradient `grad`, plus the L2 pull towards `start`.
    fn step(&mut self, params: &mut [f64], grad: &[f64], start: &[f64], l2: f64, t: i32) {
        let (c1, c2) = (1.0 - Self::BETA1.powi(t), 1.0 - Self::BETA2.powi(t));
        for (w, param) in params.iter_mut().enumerate() {
            let g = grad[w] + 2.0 * l2 * (*param - start[w]);
            let (m, v) = (&mut self.m[w], &mut self.v[w]);
            *m = Self::BETA1 * *m + (1.0 - Self::BETA1) * g;
            *v = Self::BETA2 * *v + (1.0 - Self::BETA2) * g * g;
            *param -= Self::RATE * (*m / c1) / ((*v / c2).sqrt() + Self::EPS);
        }
    }
}

/// The sigmoid scale that best fits the current weights (golden-section search).
fn fit_k(data: &Data, p: &Params, threads: usize) -> f64 {
    let (mut a, mut b) = (0.1f64, 4.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - ratio * (b - a);
        let d = a + ratio * (b - a);
        if error(data, p, c, threads, false).0 < error(data, p, d, threads, false).0 {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

fn tune(args: &Args) -> Result<(), String> {
    if args.files.is_empty() {
        return Err("tune needs at least one data file from `texel gen`".into());
    }
    let start = std::time::Instant::now();
    let (train, test) = load(&args.files)?;
    eprintln!(
        "{} positions to fit, {} held out ({:.0} s to load)",
        train.len(),
        test.len(),
        start.elapsed().as_secs_f64()
    );
    let mut p = Params::from_weights(&WEIGHTS);
    let start_weights = p.clone();
    let k = fit_k(&train, &p, args.threads);
    let before = fit_and_held_out(&train, &test, &p, k, args.threads);
    eprintln!(
        "K = {k:.4}; error before: fit {:.6}, held out {:.6}",
        before.0, before.1
    );

    let (mut adam_mg, mut adam_eg) = (Adam::new(p.mg.len()), Adam::new(p.eg.len()));
    for epoch in 1..=args.epochs {
        let (e, g) = error(&train, &p, k, args.threads, true);
        let t = epoch as i32;
        adam_mg.step(&mut p.mg, &g.mg, &start_weights.mg, args.l2, t);
        adam_eg.step(&mut p.eg, &g.eg, &start_weights.eg, args.l2, t);
        if epoch % 100 == 0 || epoch == args.epochs {
            let held = error(&test, &p, k, args.threads, false).0;
            eprintln!(
                "epoch {epoch}: fit {e:.6}, held out {held:.6} ({:.0} s)",
                start.elapsed().as_secs_f64()
            );
        }
    }
    let tuned = p.to_weights();
    let rounded = Params::from_weights(&tuned);
    let after = fit_and_held_out(&train, &test, &rounded, k, args.threads);
    eprintln!(
        "error after (rounded weights): fit {:.6}, held out {:.6}",
        after.0, after.1
    );
    let out = args.weights_out();
    write_weights(&out, &tuned)?;
    eprintln!("wrote {out}");
    Ok(())
}

/// Writes `weights` as the Rust source of `eval::WEIGHTS`, one section per group.
fn write_weights(path: &str, weights: &[Score]) -> Result<(), String> {
    let mut src = String::from(
        "//! The evaluation's weights, (middlegame, endgame) centipawns, laid out as\n\
         //! `eval::layout` says. Generated by the Texel tuner from the engine's self-play; do\n\
         //! not edit by hand. To regenerate (docs/BENCHMARKS.md, \"Evaluation tuning\"):\n\
         //!\n\
         //! ```text\n\
         //! cargo run --release -p chesspi-engine --example texel -- gen --games 8000 --out selfplay.txt\n\
         //! cargo run --release -p chesspi-engine --example texel -- tune selfplay.txt --l2 3e-8\n\
         //! ```\n\
         \n\
         use super::layout::COUNT;\n\
         use super::{Score, s};\n\
         \n\
         #[rustfmt::skip]\n\
         pub const WEIGHTS: [Score; COUNT] = [\n",
    );
    for &(name, first, len) in &layout::SECTIONS {
        if len == 0 {
            continue;
        }
        let _ = writeln!(src, "    // {name}");
        // Piece-square tables one rank (files a-d) per line, rank 1 first.
        let per_line = if name.starts_with("pst") { 4 } else { 6 };
        for row in weights[first..first + len].chunks(per_line) {
            let cells: Vec<String> = row
                .iter()
                .map(|w| format!("s({}, {})", w.mg, w.eg))
                .collect();
            let _ = writeln!(src, "    {},", cells.join(", "));
        }
    }
    src.push_str("];\n");
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, src).map_err(|e| format!("{tmp}: {e}"))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    #[test]
    fn bad_lines_are_errors() {
        assert!(parse_line(&format!("{START};1")).is_ok());
        assert!(parse_line(&format!("{START};0.5")).is_ok());
        for bad in [
            "",
            "no separator",
            &format!("{START};2"),
            &format!("{START};white"),
            "8/8/8/8/8/8/8/8 w - - 0 1;1",
            ";1",
        ] {
            assert!(parse_line(bad).is_err(), "{bad:?}");
        }
    }

    /// A few quick self-play games' positions, split as `load` splits them.
    fn sample() -> (Data, Data) {
        let mut searcher = Searcher::new(1);
        let (mut train, mut test) = (Data::default(), Data::default());
        let mut n = 0;
        for seed in 1..=3 {
            let played = play_game(&mut searcher, 300, &mut Rng(seed * 7919));
            for fen in &played.fens {
                let (pos, result) = parse_line(&format!("{fen};{}", played.result)).unwrap();
                let data = if n % 10 == 9 { &mut test } else { &mut train };
                data.push(&eval::trace(&pos), result);
                n += 1;
            }
        }
        (train, test)
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let (data, _) = sample();
        assert!(data.len() > 50, "{} positions", data.len());
        let p = Params::from_weights(&WEIGHTS);
        let k = 1.0;
        let (_, grad) = error(&data, &p, k, 2, true);
        for w in [
            layout::MATERIAL + 1,
            layout::PST + layout::PST_LEN + 9,
            layout::MOBILITY[2] + 7,
        ] {
            for eg in [false, true] {
                let shifted = |h: f64| {
                    let mut q = p.clone();
                    if eg {
                        q.eg[w] += h
                    } else {
                        q.mg[w] += h
                    }
                    error(&data, &q, k, 1, false).0
                };
                let numeric = (shifted(0.5) - shifted(-0.5)) / 1.0;
                let analytic = if eg { grad.eg[w] } else { grad.mg[w] };
                assert!(
                    (numeric - analytic).abs() <= 1e-3 * numeric.abs().max(1e-9) + 1e-12,
                    "weight {w} eg {eg}: numeric {numeric} analytic {analytic}"
                );
            }
        }
    }

    #[test]
    fn generated_weights_compile_back_to_the_same_table() {
        let path = std::env::temp_dir().join(format!("texel-print-{}.rs", std::process::id()));
        let path = path.to_string_lossy().to_string();
        write_weights(&path, &WEIGHTS).unwrap();
        let written = std::fs::read_to_string(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        let source = include_str!("../src/eval/weights.rs");
        assert_eq!(
            written, source,
            "weights.rs was edited by hand or the generator changed"
        );
    }
}
