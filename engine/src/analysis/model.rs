//! The judging model: evaluations, win probability, move classes and accuracy (the formulas
//! are in the [module doc](super)).

use crate::search::Score;
use crate::types::Color;
use std::fmt;
use std::str::FromStr;

/// Centipawn value (on lichess's scale) beyond which evaluations count as won: lichess's
/// ceiling. A mate counts as this much.
pub const CP_CEILING: i32 = 1000;
/// Slope of the logistic win-probability curve per centipawn (lichess's fit of game results
/// to Stockfish's centipawns).
pub const WIN_SLOPE: f64 = 0.003_682_08;
/// The engine's centipawns times this are on lichess's (Stockfish's) scale. The network is
/// trained to output centipawns on this scale (`engine/examples/nnue.rs`), which it inherited
/// from the hand-written evaluation it replaced: that one was fitted by Texel's method so that
/// `1 / (1 + 10^(-K * cp / 400))` with K = 1.103 predicted results, i.e. a logistic slope of
/// K * ln 10 / 400 per centipawn, 1.72 times lichess's. Changing it means training a new
/// network.
pub const ENGINE_CP_SCALE: f64 = TEXEL_K * std::f64::consts::LN_10 / 400.0 / WIN_SLOPE;
/// The former evaluation's fitted Texel constant: the network's scale is defined by it.
const TEXEL_K: f64 = 1.103;

/// Loss of winning chances, in percentage points of win probability, from which a move is an
/// inaccuracy, a mistake or a blunder (lichess's 0.1 / 0.2 / 0.3 on its -1..1 scale).
pub const INACCURACY_LOSS: f64 = 5.0;
pub const MISTAKE_LOSS: f64 = 10.0;
pub const BLUNDER_LOSS: f64 = 15.0;

/// An evaluation of a position from White's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eval {
    /// Centipawns; positive is good for White.
    Cp(i32),
    /// `winner` mates in `moves` full moves; 0 means the other side is checkmated now.
    Mate { winner: Color, moves: u32 },
}

impl Eval {
    /// The evaluation of a search score, which is from the side to move's point of view.
    pub fn from_score(score: Score, turn: Color) -> Eval {
        match score {
            Score::Cp(cp) if turn == Color::White => Eval::Cp(cp),
            Score::Cp(cp) => Eval::Cp(cp.saturating_neg()),
            Score::Mate(n) => Eval::Mate {
                winner: if n > 0 { turn } else { !turn },
                moves: n.unsigned_abs(),
            },
        }
    }

    /// Centipawns for `side` on lichess's scale (the engine's times [`ENGINE_CP_SCALE`]), a
    /// mate counting as [`CP_CEILING`] and everything clamped to it.
    pub fn cp_for(self, side: Color) -> i32 {
        match self {
            Eval::Cp(cp) => {
                let scaled = (f64::from(cp) * ENGINE_CP_SCALE).round() as i32;
                let cp = scaled.clamp(-CP_CEILING, CP_CEILING);
                if side == Color::White { cp } else { -cp }
            }
            Eval::Mate { winner, .. } if winner == side => CP_CEILING,
            Eval::Mate { .. } => -CP_CEILING,
        }
    }

    /// The mate for `side`: `Some(n)` if `side` mates in `n`, `Some(-n)` if it is mated in
    /// `n`, `None` for a centipawn evaluation.
    pub fn mate_for(self, side: Color) -> Option<i64> {
        match self {
            Eval::Cp(_) => None,
            Eval::Mate { winner, moves } if winner == side => Some(i64::from(moves)),
            Eval::Mate { moves, .. } => Some(-i64::from(moves)),
        }
    }

    /// Probability in percent (0..=100) that `side` wins from here.
    pub fn win_percent(self, side: Color) -> f64 {
        win_percent_from_cp(self.cp_for(side))
    }
}

/// `50 + 50 * (2 / (1 + exp(-WIN_SLOPE * cp)) - 1)`, with `cp` clamped to ±[`CP_CEILING`].
pub fn win_percent_from_cp(cp: i32) -> f64 {
    let cp = f64::from(cp.clamp(-CP_CEILING, CP_CEILING));
    50.0 + 50.0 * (2.0 / (1.0 + (-WIN_SLOPE * cp).exp()) - 1.0)
}

/// Written as PGN's `[%eval]` value: pawns with two decimals (`0.17`, `-1.50`) or a mate from
/// White's side (`#3`, `#-3`; `#0` when the side to move is checkmated).
impl fmt::Display for Eval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Eval::Cp(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let abs = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)
            }
            Eval::Mate { moves: 0, .. } => f.write_str("#0"),
            Eval::Mate {
                winner: Color::White,
                moves,
            } => write!(f, "#{moves}"),
            Eval::Mate {
                winner: Color::Black,
                moves,
            } => write!(f, "#-{moves}"),
        }
    }
}

/// Error for text that is not an `[%eval]` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseEvalError;

impl fmt::Display for ParseEvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not an evaluation (expected pawns like -1.25 or a mate like #-3)")
    }
}

impl std::error::Error for ParseEvalError {}

impl FromStr for Eval {
    type Err = ParseEvalError;
    /// Reads what [`fmt::Display`] writes, and pawns with fewer decimals (`1.5`, `2`). `#0`
    /// cannot tell who is mated from the text alone and is read as White mating.
    fn from_str(s: &str) -> Result<Eval, ParseEvalError> {
        if let Some(mate) = s.strip_prefix('#') {
            let n: i64 = mate.parse().map_err(|_| ParseEvalError)?;
            let moves = u32::try_from(n.unsigned_abs()).map_err(|_| ParseEvalError)?;
            let winner = if mate.starts_with('-') {
                Color::Black
            } else {
                Color::White
            };
            return Ok(Eval::Mate { winner, moves });
        }
        let (negative, digits) = match s.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, s.strip_prefix('+').unwrap_or(s)),
        };
        let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
        let all_digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
        if whole.len() > 7 || fraction.len() > 2 || !all_digits(whole) || !all_digits(fraction) {
            return Err(ParseEvalError);
        }
        if whole.is_empty() && fraction.is_empty() {
            return Err(ParseEvalError);
        }
        let whole: i32 = if whole.is_empty() {
            0
        } else {
            whole.parse().map_err(|_| ParseEvalError)?
        };
        let hundredths: i32 = match fraction.len() {
            0 => 0,
            1 => fraction.parse::<i32>().map_err(|_| ParseEvalError)? * 10,
            _ => fraction.parse().map_err(|_| ParseEvalError)?,
        };
        let cp = whole * 100 + hundredths;
        Ok(Eval::Cp(if negative { -cp } else { cp }))
    }
}

/// How good a move was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MoveClass {
    /// The analysis's own choice (or a move it finds at least as good).
    Best,
    /// Loses less than [`INACCURACY_LOSS`].
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

impl MoveClass {
    /// The PGN numeric annotation glyph: `$6` (?!), `$2` (?), `$4` (??); none for good moves.
    pub const fn nag(self) -> Option<u8> {
        match self {
            MoveClass::Inaccuracy => Some(6),
            MoveClass::Mistake => Some(2),
            MoveClass::Blunder => Some(4),
            MoveClass::Best | MoveClass::Good => None,
        }
    }

    /// The word for it, as lichess writes it in comments.
    pub const fn name(self) -> &'static str {
        match self {
            MoveClass::Best => "Best move",
            MoveClass::Good => "Good move",
            MoveClass::Inaccuracy => "Inaccuracy",
            MoveClass::Mistake => "Mistake",
            MoveClass::Blunder => "Blunder",
        }
    }

    /// Whether it is an inaccuracy, a mistake or a blunder.
    pub const fn is_bad(self) -> bool {
        self.nag().is_some()
    }

    /// The word of the `[%class ...]` comment command that stores it (see
    /// [`GameAnalysis::annotations`](super::GameAnalysis::annotations)).
    pub const fn code(self) -> &'static str {
        match self {
            MoveClass::Best => "best",
            MoveClass::Good => "good",
            MoveClass::Inaccuracy => "inaccuracy",
            MoveClass::Mistake => "mistake",
            MoveClass::Blunder => "blunder",
        }
    }

    /// The class of a [`MoveClass::code`] word.
    pub fn from_code(code: &str) -> Option<MoveClass> {
        [
            MoveClass::Best,
            MoveClass::Good,
            MoveClass::Inaccuracy,
            MoveClass::Mistake,
            MoveClass::Blunder,
        ]
        .into_iter()
        .find(|c| c.code() == code)
    }
}

/// The class of a move by `mover` that changed the evaluation from `before` to `after`.
/// `played_best`: the move is the one the analysis found best in the position before, which
/// makes it [`MoveClass::Best`] whatever the evaluations say (it has nothing better to offer).
/// A move that mates is best too, whichever move the search chose: nothing beats it.
pub fn classify(before: Eval, after: Eval, mover: Color, played_best: bool) -> MoveClass {
    let mates = matches!(after, Eval::Mate { winner, moves: 0 } if winner == mover);
    if played_best || mates {
        return MoveClass::Best;
    }
    let (prev_mate, next_mate) = (before.mate_for(mover), after.mate_for(mover));
    if prev_mate.is_none() && next_mate.is_none() {
        let loss = before.win_percent(mover) - after.win_percent(mover);
        return class_of_loss(loss);
    }
    // Lichess's mate rules: walking into a forced mate, or letting one's own mate go.
    let prev_cp = before.cp_for(mover);
    let next_cp = match after {
        Eval::Cp(_) => after.cp_for(mover),
        Eval::Mate { .. } => 0,
    };
    match (prev_mate, next_mate) {
        (None, Some(n)) if n < 0 || after_is_mated(after, mover) => {
            if prev_cp < -999 {
                MoveClass::Inaccuracy
            } else if prev_cp < -700 {
                MoveClass::Mistake
            } else {
                MoveClass::Blunder
            }
        }
        (Some(p), None) if p > 0 => {
            if next_cp > 999 {
                MoveClass::Inaccuracy
            } else if next_cp > 700 {
                MoveClass::Mistake
            } else {
                MoveClass::Blunder
            }
        }
        (Some(p), Some(n)) if p > 0 && (n < 0 || after_is_mated(after, mover)) => {
            MoveClass::Blunder
        }
        _ => MoveClass::Good,
    }
}

/// `#0` against the mover cannot happen (the mover just moved), so `#0` is always a win.
fn after_is_mated(after: Eval, mover: Color) -> bool {
    matches!(after, Eval::Mate { winner, moves: 0 } if winner != mover)
}

/// The class of a loss of win probability (percentage points) by the thresholds.
pub fn class_of_loss(loss: f64) -> MoveClass {
    if loss >= BLUNDER_LOSS {
        MoveClass::Blunder
    } else if loss >= MISTAKE_LOSS {
        MoveClass::Mistake
    } else if loss >= INACCURACY_LOSS {
        MoveClass::Inaccuracy
    } else if loss <= 0.0 {
        MoveClass::Best
    } else {
        MoveClass::Good
    }
}

/// Accuracy of one move in percent from the win probabilities (for the mover) before and
/// after it: `103.1668 * exp(-0.04354 * loss) - 3.1669 + 1`, clamped to 0..=100 (lichess's
/// fit, with its one point for the analysis's own imprecision); 100 when nothing was lost.
pub fn move_accuracy(win_before: f64, win_after: f64) -> f64 {
    if win_after >= win_before {
        return 100.0;
    }
    let loss = win_before - win_after;
    let raw =
        103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * loss).exp() - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Each side's game accuracy, lichess's way, from White's win percent in each position
/// (`white_wins`: the start first, one more than moves), the accuracy of each move
/// (`move_accuracies`, see [`move_accuracy`]) and the side that made the first move.
/// A move's accuracy is weighted by how much the game swung around it (the standard
/// deviation of the win percents in a window of `moves / 10` positions, 2..=8, clamped to
/// 0.5..=12); a side's accuracy is the mean of that weighted mean and the harmonic mean of
/// its move accuracies, which punishes single bad moves. Returns (White, Black), `None` for
/// a side without moves.
pub fn game_accuracy(
    white_wins: &[f64],
    move_accuracies: &[f64],
    first_mover: Color,
) -> (Option<f64>, Option<f64>) {
    let moves = move_accuracies.len();
    if moves == 0 {
        return (None, None);
    }
    let window = (moves / 10).clamp(2, 8).min(white_wins.len().max(1));
    // One window per move: the first ones repeat the opening window.
    let mut weights: Vec<f64> = Vec::with_capacity(moves);
    let head = &white_wins[..window.min(white_wins.len())];
    for _ in 0..window.saturating_sub(2) {
        weights.push(std_dev(head).clamp(0.5, 12.0));
    }
    for w in white_wins.windows(window) {
        weights.push(std_dev(w).clamp(0.5, 12.0));
    }
    let mut per_side: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    let mut mover = first_mover;
    for (i, &accuracy) in move_accuracies.iter().enumerate() {
        let weight = weights.get(i).copied().unwrap_or(0.5);
        per_side[mover as usize].push((accuracy, weight));
        mover = !mover;
    }
    let side = |list: &[(f64, f64)]| -> Option<f64> {
        if list.is_empty() {
            return None;
        }
        let total_weight: f64 = list.iter().map(|&(_, w)| w).sum();
        let weighted = list.iter().map(|&(a, w)| a * w).sum::<f64>() / total_weight;
        // A zero accuracy makes the harmonic mean zero (1/0 is infinite), as it should.
        let harmonic = list.len() as f64 / list.iter().map(|&(a, _)| 1.0 / a).sum::<f64>();
        Some((weighted + harmonic) / 2.0)
    };
    (side(&per_side[0]), side(&per_side[1]))
}

fn std_dev(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    #[test]
    fn win_percent_table() {
        // (lichess-scale cp, expected win %), from the formula evaluated independently.
        let table = [
            (0, 50.0),
            (100, 59.1),
            (-100, 40.9),
            (300, 75.1),
            (1000, 97.5),
            (5000, 97.5),
            (-5000, 2.5),
        ];
        for (cp, expected) in table {
            let got = win_percent_from_cp(cp);
            assert!(close(got, expected, 0.05), "cp {cp}: {got}");
        }
        // The engine's centipawns count 1.72 times: its 58 are lichess's 100.
        assert!(close(ENGINE_CP_SCALE, 1.7244, 0.0001));
        for (cp, expected) in [(58, 59.1), (-174, 24.9), (580, 97.5), (581, 97.5)] {
            let got = Eval::Cp(cp).win_percent(White);
            assert!(close(got, expected, 0.05), "engine cp {cp}: {got}");
            assert!(close(Eval::Cp(cp).win_percent(Black), 100.0 - got, 1e-9));
        }
        assert_eq!(Eval::Cp(-406).cp_for(Black), 700);
        assert_eq!(Eval::Cp(i32::MAX).cp_for(White), CP_CEILING);
        let mate = Eval::Mate {
            winner: Black,
            moves: 3,
        };
        assert!(close(mate.win_percent(Black), 97.5, 0.05));
        assert!(close(mate.win_percent(White), 2.5, 0.05));
    }

    #[test]
    fn classification_thresholds() {
        // (before, after) in engine centipawns for White, and the class; the borders sit at
        // 5, 10 and 15 points (lichess-scale centipawns -55, -111, -169).
        let table = [
            (0, 0, MoveClass::Best),
            (0, 20, MoveClass::Best),
            (0, -20, MoveClass::Good),
            (0, -31, MoveClass::Good),       // 4.86 points
            (0, -32, MoveClass::Inaccuracy), // 5.05
            (0, -64, MoveClass::Inaccuracy), // 9.99
            (0, -65, MoveClass::Mistake),    // 10.17
            (0, -97, MoveClass::Mistake),    // 14.91
            (0, -98, MoveClass::Blunder),    // 15.07
            (300, 0, MoveClass::Blunder),    // 37.0
            // Far ahead, the same centipawns matter less.
            (520, 350, MoveClass::Inaccuracy), // 6.2
            (900, 600, MoveClass::Best),       // both beyond the ceiling
        ];
        for (before, after, expected) in table {
            let got = classify(Eval::Cp(before), Eval::Cp(after), White, false);
            assert_eq!(got, expected, "{before} -> {after}");
            // The same seen by Black with the signs turned.
            let got = classify(Eval::Cp(-before), Eval::Cp(-after), Black, false);
            assert_eq!(got, expected, "Black: {before} -> {after}");
        }
        assert_eq!(
            classify(Eval::Cp(300), Eval::Cp(-300), White, true),
            MoveClass::Best
        );
    }

    #[test]
    fn mate_rules() {
        let white_mates = |moves| Eval::Mate {
            winner: White,
            moves,
        };
        let black_mates = |moves| Eval::Mate {
            winner: Black,
            moves,
        };
        // Walking into a mate: a blunder unless already lost.
        assert_eq!(
            classify(Eval::Cp(50), black_mates(4), White, false),
            MoveClass::Blunder
        );
        // -406 engine cp are -700 on lichess's scale, -580 are beyond -999.
        assert_eq!(
            classify(Eval::Cp(-406), black_mates(4), White, false),
            MoveClass::Blunder
        );
        assert_eq!(
            classify(Eval::Cp(-407), black_mates(4), White, false),
            MoveClass::Mistake
        );
        assert_eq!(
            classify(Eval::Cp(-580), black_mates(4), White, false),
            MoveClass::Inaccuracy
        );
        // Letting a mate go: a blunder unless still winning big.
        assert_eq!(
            classify(white_mates(2), Eval::Cp(300), White, false),
            MoveClass::Blunder
        );
        assert_eq!(
            classify(white_mates(2), Eval::Cp(407), White, false),
            MoveClass::Mistake
        );
        assert_eq!(
            classify(white_mates(2), Eval::Cp(580), White, false),
            MoveClass::Inaccuracy
        );
        assert_eq!(
            classify(white_mates(2), black_mates(1), White, false),
            MoveClass::Blunder
        );
        // A slower mate is fine; so is getting out of a lost position.
        assert_eq!(
            classify(white_mates(2), white_mates(5), White, false),
            MoveClass::Good
        );
        assert_eq!(
            classify(black_mates(3), Eval::Cp(-200), White, false),
            MoveClass::Good
        );
        // Mating now is best, even where the search chose another mate.
        assert_eq!(
            classify(white_mates(1), white_mates(0), White, false),
            MoveClass::Best
        );
        assert_eq!(
            classify(Eval::Cp(0), white_mates(0), White, false),
            MoveClass::Best
        );
        assert_eq!(
            classify(black_mates(1), black_mates(0), Black, false),
            MoveClass::Best
        );
    }

    #[test]
    fn class_codes_round_trip() {
        use MoveClass::*;
        for class in [Best, Good, Inaccuracy, Mistake, Blunder] {
            assert_eq!(MoveClass::from_code(class.code()), Some(class));
        }
        assert_eq!(MoveClass::from_code("brilliant"), None);
    }

    #[test]
    fn eval_text_round_trips() {
        let table = [
            (Eval::Cp(17), "0.17"),
            (Eval::Cp(-150), "-1.50"),
            (Eval::Cp(-5), "-0.05"),
            (Eval::Cp(0), "0.00"),
            (Eval::Cp(1234), "12.34"),
            (white_mate(3), "#3"),
            (
                Eval::Mate {
                    winner: Black,
                    moves: 3,
                },
                "#-3",
            ),
            (white_mate(0), "#0"),
        ];
        for (eval, text) in table {
            assert_eq!(eval.to_string(), text);
            assert_eq!(text.parse::<Eval>(), Ok(eval), "{text}");
        }
        assert_eq!("1.5".parse::<Eval>(), Ok(Eval::Cp(150)));
        assert_eq!("-2".parse::<Eval>(), Ok(Eval::Cp(-200)));
        assert_eq!(".5".parse::<Eval>(), Ok(Eval::Cp(50)));
        for bad in ["", "-", ".", "1.234", "#", "#x", "1e3", "0x10", "99999999"] {
            assert_eq!(bad.parse::<Eval>(), Err(ParseEvalError), "{bad}");
        }
    }

    fn white_mate(moves: u32) -> Eval {
        Eval::Mate {
            winner: White,
            moves,
        }
    }

    #[test]
    fn search_scores_become_white_evals() {
        assert_eq!(Eval::from_score(Score::Cp(40), Black), Eval::Cp(-40));
        assert_eq!(Eval::from_score(Score::Mate(2), Black).to_string(), "#-2");
        assert_eq!(Eval::from_score(Score::Mate(-2), Black).to_string(), "#2");
        assert_eq!(Eval::from_score(Score::Mate(-1), White).to_string(), "#-1");
    }

    #[test]
    fn accuracy_of_moves_and_games() {
        assert_eq!(move_accuracy(60.0, 70.0), 100.0);
        assert!(close(move_accuracy(50.0, 50.0), 100.0, 1e-9));
        // Lichess's curve: about 64.6 % for a 10-point loss, nothing for a lost win.
        assert!(close(move_accuracy(60.0, 50.0), 64.58, 0.01));
        assert_eq!(move_accuracy(97.5, 2.5), 0.0);
        // Flawless play is 100 %; a blunder drags down its side only.
        let steady = [50.0; 11];
        let accuracies = |wins: &[f64], first: Color| -> Vec<f64> {
            let mut mover = first;
            wins.windows(2)
                .map(|p| {
                    let side = mover;
                    mover = !mover;
                    let pov = |w: f64| if side == White { w } else { 100.0 - w };
                    move_accuracy(pov(p[0]), pov(p[1]))
                })
                .collect()
        };
        let (w, b) = game_accuracy(&steady, &accuracies(&steady, White), White);
        assert!(close(w.unwrap(), 100.0, 1e-9) && close(b.unwrap(), 100.0, 1e-9));
        let mut white_blunders = steady.to_vec();
        for win in &mut white_blunders[5..] {
            *win = 20.0; // White's fifth move (index 4) loses 30 points.
        }
        let (w, b) = game_accuracy(&white_blunders, &accuracies(&white_blunders, White), White);
        assert!(w.unwrap() < 80.0, "{w:?}");
        assert!(close(b.unwrap(), 100.0, 1e-9), "{b:?}");
        // When Black moves first, the fifth move is Black's: White's win percent rises.
        let black_blunders: Vec<f64> = white_blunders.iter().map(|w| 100.0 - w).collect();
        let (w, b) = game_accuracy(&black_blunders, &accuracies(&black_blunders, Black), Black);
        assert!(b.unwrap() < 80.0, "{b:?}");
        assert!(close(w.unwrap(), 100.0, 1e-9), "{w:?}");
        assert_eq!(game_accuracy(&[50.0], &[], White), (None, None));
        let (w, b) = game_accuracy(&[50.0, 50.0], &[100.0], Black);
        assert_eq!((w, b.is_some()), (None, true));
    }
}
