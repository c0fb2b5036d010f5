//! Trains the engine's network (`engine/src/eval/network.rs`) on positions labelled by
//! Stockfish (`tools/nnue_data.py`).
//!
//! ```text
//! nnue train FILE... [--epochs N] [--batch N] [--lr X] [--decay X] [--seed N] [--stretch X]
//!     [--init PATH] [--out PATH]
//!     Fits the network so that its win probability (lichess's formula on its centipawns
//!     times the analysis model's scale) predicts Stockfish's (mean squared error, Adam), then
//!     writes its integer weights, by default to engine/src/eval/analysis.nnue. The last 3 %
//!     of every file (its last games) is held out; the held-out error is printed next to the
//!     built-in network's on the same positions. `--decay`: decoupled weight decay;
//!     `--stretch`: the output multiplied by X. `--init`: start from that network file
//!     (written with the same `--stretch`) instead of random weights, to go on training it
//!     on new data.
//! nnue check FILE... [--net PATH]
//!     The held-out error of a network (by default the built-in one), next to the built-in one's.
//! ```
//!
//! Positions marked noisy (in check, or Stockfish's best move a capture or promotion) and
//! mate scores are skipped: the search's quiescence handles those.
//! Run with `cargo run --release -p chesspi-engine --example nnue -- ...`.

use chesspi_engine::Position;
use chesspi_engine::analysis::ENGINE_CP_SCALE;
use chesspi_engine::eval::network;
use chesspi_engine::eval::network::{BUCKETS, HIDDEN, INPUTS, QA, QB, SCALE, bucket};
use std::io::{BufRead, Write};
use std::process::ExitCode;

const DEFAULT_OUT: &str = "engine/src/eval/analysis.nnue";
/// lichess's win-probability slope per (Stockfish-scale) centipawn.
const LICHESS_K: f64 = 0.00368208;
const HOLD_OUT: f64 = 0.03;
const MAX_INPUTS: usize = 32;

struct Sample {
    ours: [u16; MAX_INPUTS],
    theirs: [u16; MAX_INPUTS],
    len: u8,
    /// Stockfish's win probability for the side to move.
    target: f32,
    /// The built-in network's evaluation, the one a new network must beat.
    builtin: i32,
    /// The checked network's evaluation (its integer path), for `check`; 0 when training.
    checked: i32,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The slope of the win probability per unit of the network's float output.
fn output_slope() -> f64 {
    LICHESS_K * ENGINE_CP_SCALE * f64::from(SCALE)
}

fn read_samples(
    path: &str,
    net: Option<&network::Network>,
) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut all = Vec::new();
    for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| format!("{path}: {e}"))?;
        let mut parts = line.split(';');
        let (Some(fen), Some(score), Some(noisy)) = (parts.next(), parts.next(), parts.next())
        else {
            return Err(format!("{path} line {}: expected FEN;score;noisy", n + 1));
        };
        let score: i32 = score
            .parse()
            .map_err(|_| format!("{path} line {}: bad score {score:?}", n + 1))?;
        if noisy != "0" || score.abs() >= 3000 {
            continue;
        }
        let pos = Position::from_fen(fen).map_err(|e| format!("{path} line {}: {e}", n + 1))?;
        if pos.occupied().count() as usize > MAX_INPUTS {
            return Err(format!(
                "{path} line {}: more than {MAX_INPUTS} pieces",
                n + 1
            ));
        }
        let mut sample = Sample {
            ours: [0; MAX_INPUTS],
            theirs: [0; MAX_INPUTS],
            len: 0,
            target: sigmoid(LICHESS_K * f64::from(score)) as f32,
            builtin: network::evaluate(&pos),
            checked: net.map_or(0, |net| net.evaluate(&pos)),
        };
        let mut i = 0;
        network::active_inputs(&pos, pos.turn(), |f| {
            sample.ours[i] = f as u16;
            i += 1;
        });
        let mut j = 0;
        network::active_inputs(&pos, !pos.turn(), |f| {
            sample.theirs[j] = f as u16;
            j += 1;
        });
        sample.len = i as u8;
        // Without castling rights the position mirrored left to right is as good: twice the
        // data for the same labels.
        if pos.castling_rights().is_empty() {
            let mirrored = Sample {
                ours: sample.ours.map(|f| f ^ 7),
                theirs: sample.theirs.map(|f| f ^ 7),
                ..sample
            };
            all.push(sample);
            all.push(mirrored);
        } else {
            all.push(sample);
        }
    }
    let split = ((1.0 - HOLD_OUT) * all.len() as f64) as usize;
    let held = all.split_off(split);
    Ok((all, held))
}

/// Float weights while training.
struct Net {
    input: Vec<f32>,
    bias: Vec<f32>,
    /// Per material bucket (`network::bucket`), 2 × HIDDEN: the side to move's half first.
    output: Vec<f32>,
    /// One per bucket.
    output_bias: Vec<f32>,
}

/// Weights stay within ±CLIP so that the integer file's hidden sums (32 inputs of at most
/// CLIP × QA, plus the bias) fit in i16.
const CLIP: f32 = 1.98;

impl Net {
    fn new(rng: &mut u64) -> Net {
        let mut uniform = |scale: f32| {
            *rng ^= *rng << 13;
            *rng ^= *rng >> 7;
            *rng ^= *rng << 17;
            ((*rng >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * scale
        };
        let input = (0..INPUTS * HIDDEN).map(|_| uniform(0.1)).collect();
        let bias = (0..HIDDEN).map(|_| uniform(0.1) + 0.1).collect();
        let output = (0..BUCKETS * 2 * HIDDEN).map(|_| uniform(0.1)).collect();
        Net {
            input,
            bias,
            output,
            output_bias: vec![0.0; BUCKETS],
        }
    }

    /// The weights of a network file written by [`Net::write`] with `stretch`.
    fn read(path: &str, stretch: f32) -> Result<Net, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
        // Checks the header and the length.
        network::Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
        let mut at = 4;
        let mut i16s = |n: usize, scale: f32| -> Vec<f32> {
            let v = bytes[at..at + 2 * n]
                .chunks_exact(2)
                .map(|b| f32::from(i16::from_le_bytes([b[0], b[1]])) / scale)
                .collect();
            at += 2 * n;
            v
        };
        let input = i16s(INPUTS * HIDDEN, QA as f32);
        let bias = i16s(HIDDEN, QA as f32);
        let output = i16s(BUCKETS * 2 * HIDDEN, QB as f32 * stretch);
        let output_bias = bytes[at..]
            .chunks_exact(4)
            .map(|b| {
                i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f32 / (stretch * (QA * QB) as f32)
            })
            .collect();
        Ok(Net {
            input,
            bias,
            output,
            output_bias,
        })
    }

    fn len(&self) -> usize {
        self.input.len() + self.bias.len() + self.output.len() + self.output_bias.len()
    }

    fn accumulate(&self, inputs: &[u16]) -> Vec<f32> {
        let mut acc = self.bias.clone();
        for &f in inputs {
            let row = &self.input[f as usize * HIDDEN..][..HIDDEN];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
        acc
    }

    /// The float output and the two accumulators.
    fn forward(&self, s: &Sample) -> (f32, Vec<f32>, Vec<f32>) {
        let n = usize::from(s.len);
        let ours = self.accumulate(&s.ours[..n]);
        let theirs = self.accumulate(&s.theirs[..n]);
        let b = bucket(u32::from(s.len));
        let w = &self.output[b * 2 * HIDDEN..][..2 * HIDDEN];
        let mut y = self.output_bias[b];
        for i in 0..HIDDEN {
            y += ours[i].clamp(0.0, 1.0) * w[i];
            y += theirs[i].clamp(0.0, 1.0) * w[HIDDEN + i];
        }
        (y, ours, theirs)
    }

    fn loss(&self, s: &Sample) -> f64 {
        let p = sigmoid(output_slope() * f64::from(self.forward(s).0));
        (p - f64::from(s.target)).powi(2)
    }

    /// Adds the sample's gradient into `grad` (laid out like `params`); returns its loss.
    fn backward(&self, s: &Sample, grad: &mut [f32]) -> f64 {
        let (y, ours, theirs) = self.forward(s);
        let k = output_slope();
        let p = sigmoid(k * f64::from(y));
        let d = p - f64::from(s.target);
        let g = (2.0 * d * p * (1.0 - p) * k) as f32;
        let n = usize::from(s.len);
        let (g_input, rest) = grad.split_at_mut(INPUTS * HIDDEN);
        let (g_bias, rest) = rest.split_at_mut(HIDDEN);
        let (g_output, g_output_bias) = rest.split_at_mut(BUCKETS * 2 * HIDDEN);
        let b = bucket(u32::from(s.len));
        let w = &self.output[b * 2 * HIDDEN..][..2 * HIDDEN];
        let g_output = &mut g_output[b * 2 * HIDDEN..][..2 * HIDDEN];
        g_output_bias[b] += g;
        let mut d_ours = [0f32; HIDDEN];
        let mut d_theirs = [0f32; HIDDEN];
        for i in 0..HIDDEN {
            g_output[i] += g * ours[i].clamp(0.0, 1.0);
            g_output[HIDDEN + i] += g * theirs[i].clamp(0.0, 1.0);
            if ours[i] > 0.0 && ours[i] < 1.0 {
                d_ours[i] = g * w[i];
            }
            if theirs[i] > 0.0 && theirs[i] < 1.0 {
                d_theirs[i] = g * w[HIDDEN + i];
            }
            g_bias[i] += d_ours[i] + d_theirs[i];
        }
        for &f in &s.ours[..n] {
            for (gw, d) in g_input[f as usize * HIDDEN..][..HIDDEN]
                .iter_mut()
                .zip(&d_ours)
            {
                *gw += d;
            }
        }
        for &f in &s.theirs[..n] {
            for (gw, d) in g_input[f as usize * HIDDEN..][..HIDDEN]
                .iter_mut()
                .zip(&d_theirs)
            {
                *gw += d;
            }
        }
        d * d
    }

    fn params_mut(&mut self) -> impl Iterator<Item = &mut f32> {
        self.input
            .iter_mut()
            .chain(self.bias.iter_mut())
            .chain(self.output.iter_mut())
            .chain(self.output_bias.iter_mut())
    }

    /// Writes the integer weights, the output multiplied by `stretch`.
    fn write(&self, path: &str, stretch: f32) -> Result<(), String> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        let q = |w: f32, scale: i32| ((w * scale as f32).round() as i16).to_le_bytes();
        for w in &self.input {
            bytes.extend_from_slice(&q(*w, QA));
        }
        for w in &self.bias {
            bytes.extend_from_slice(&q(*w, QA));
        }
        for w in &self.output {
            bytes.extend_from_slice(&q(*w * stretch, QB));
        }
        for b in &self.output_bias {
            let bias = (b * stretch * (QA * QB) as f32).round() as i32;
            bytes.extend_from_slice(&bias.to_le_bytes());
        }
        std::fs::write(path, bytes).map_err(|e| format!("{path}: {e}"))
    }
}

struct Options {
    files: Vec<String>,
    epochs: usize,
    batch: usize,
    lr: f64,
    seed: u64,
    out: String,
    stretch: f32,
    net: Option<String>,
    init: Option<String>,
    decay: f32,
}

impl Options {
    fn parse(args: &[String]) -> Result<Options, String> {
        let mut o = Options {
            files: Vec::new(),
            epochs: 30,
            batch: 4096,
            lr: 0.001,
            seed: 1,
            out: DEFAULT_OUT.to_string(),
            stretch: 1.0,
            net: None,
            init: None,
            decay: 0.0,
        };
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let mut value = |name: &str| {
                it.next()
                    .cloned()
                    .ok_or_else(|| format!("{name} needs a value"))
            };
            let number = |s: String, name: &str| {
                s.parse::<f64>()
                    .map_err(|_| format!("{name}: not a number: {s}"))
            };
            match a.as_str() {
                "--epochs" => o.epochs = number(value(a)?, a)? as usize,
                "--batch" => o.batch = number(value(a)?, a)?.max(1.0) as usize,
                "--lr" => o.lr = number(value(a)?, a)?,
                "--seed" => o.seed = number(value(a)?, a)? as u64,
                "--out" => o.out = value(a)?,
                "--net" => o.net = Some(value(a)?),
                "--init" => o.init = Some(value(a)?),
                "--decay" => o.decay = number(value(a)?, a)? as f32,
                "--stretch" => o.stretch = number(value(a)?, a)? as f32,
                f if f.starts_with("--") => return Err(format!("unknown option {f}")),
                f => o.files.push(f.to_string()),
            }
        }
        if o.files.is_empty() {
            return Err("no data files".into());
        }
        Ok(o)
    }
}

fn load(
    files: &[String],
    net: Option<&network::Network>,
) -> Result<(Vec<Sample>, Vec<Sample>), String> {
    let mut train = Vec::new();
    let mut held = Vec::new();
    for f in files {
        let (t, h) = read_samples(f, net)?;
        train.extend(t);
        held.extend(h);
    }
    eprintln!(
        "{} training positions, {} held out",
        train.len(),
        held.len()
    );
    Ok((train, held))
}

/// The mean squared error of an evaluation's win probability on `samples`.
fn error_of(samples: &[Sample], eval: impl Fn(&Sample) -> i32) -> f64 {
    let k = LICHESS_K * ENGINE_CP_SCALE;
    let sum: f64 = samples
        .iter()
        .map(|s| (sigmoid(k * f64::from(eval(s))) - f64::from(s.target)).powi(2))
        .sum();
    sum / samples.len().max(1) as f64
}

fn builtin_loss(samples: &[Sample]) -> f64 {
    error_of(samples, |s| s.builtin)
}

fn train(o: &Options) -> Result<(), String> {
    let (mut train, held) = load(&o.files, None)?;
    let mut rng = o.seed.max(1) ^ 0x9e37_79b9_7f4a_7c15;
    let mut net = match &o.init {
        Some(path) => Net::read(path, o.stretch)?,
        None => Net::new(&mut rng),
    };
    let n = net.len();
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let mut grad = vec![0f32; n];
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let steps_per_epoch = train.len().div_ceil(o.batch);
    let total = (steps_per_epoch * o.epochs).max(1);
    let mut step = 0usize;
    eprintln!(
        "the built-in network, held-out error {:.6}",
        builtin_loss(&held)
    );
    if o.init.is_some() {
        let held_loss: f64 =
            held.iter().map(|s| net.loss(s)).sum::<f64>() / held.len().max(1) as f64;
        eprintln!("the starting network, held-out error {held_loss:.6}");
    }
    for epoch in 0..o.epochs {
        // Fisher-Yates with the xorshift above.
        for i in (1..train.len()).rev() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            train.swap(i, (rng % (i as u64 + 1)) as usize);
        }
        let mut sum = 0.0;
        for batch in train.chunks(o.batch) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for s in batch {
                sum += net.backward(s, &mut grad);
            }
            step += 1;
            // Cosine decay to a tenth.
            let progress = step as f64 / total as f64;
            let lr = o.lr * (0.1 + 0.9 * 0.5 * (1.0 + (std::f64::consts::PI * progress).cos()));
            let lr = lr as f32;
            let decay = o.decay;
            let scale = 1.0 / batch.len() as f32;
            let t = step as i32;
            let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
            for (((p, g), m), v) in net
                .params_mut()
                .zip(&grad)
                .zip(m.iter_mut())
                .zip(v.iter_mut())
            {
                let g = g * scale;
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *p -= lr * ((*m / c1) / ((*v / c2).sqrt() + eps) + decay * *p);
                *p = p.clamp(-CLIP, CLIP);
            }
        }
        let held_loss: f64 =
            held.iter().map(|s| net.loss(s)).sum::<f64>() / held.len().max(1) as f64;
        eprintln!(
            "epoch {:>3}: training {:.6}  held out {:.6}",
            epoch + 1,
            sum / train.len().max(1) as f64,
            held_loss
        );
    }
    net.write(&o.out, o.stretch)?;
    eprintln!("wrote {}", o.out);
    Ok(())
}

fn check(o: &Options) -> Result<(), String> {
    let loaded;
    let net = match &o.net {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
            loaded = network::Network::from_bytes(&bytes).map_err(|e| format!("{path}: {e}"))?;
            &loaded
        }
        None => network::network(),
    };
    let (_, held) = load(&o.files, Some(net))?;
    eprintln!(
        "the built-in network, held-out error {:.6}",
        builtin_loss(&held)
    );
    eprintln!(
        "the network, held-out error {:.6}",
        error_of(&held, |s| s.checked)
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("train") => Options::parse(&args[1..]).and_then(|o| train(&o)),
        Some("check") => Options::parse(&args[1..]).and_then(|o| check(&o)),
        _ => Err("usage: nnue train FILE... | nnue check FILE...".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "nnue: {e}");
            ExitCode::FAILURE
        }
    }
}
