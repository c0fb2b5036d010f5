//! Game analysis: an evaluation and a best line for every position of a game, each move
//! classed best / good / inaccuracy / mistake / blunder, and each side's accuracy, by the
//! engine's own search. [`Analyzer::analyse`] runs the searches; [`GameAnalysis::to_pgn`]
//! writes the result the way lichess exports it, plus what reading it back needs to show the
//! same verdicts: the start position's `[%eval]` before the first move and `[%class best]` /
//! `[%class good]` where no NAG names the class.
//!
//! # The model (lichess's)
//! - **Evaluation**: the search score of each position, turned to White's side
//!   ([`Eval`]): centipawns, or mate in N (`#N` when White mates, `#-N` when Black does). The
//!   searches use the engine's one evaluation, the network (`eval::network`) trained on
//!   Stockfish's scores, as play does (docs/benchmarks/history.md, "The analysis network").
//! - **Win probability** of a side with `cp` centipawns on lichess's scale (clamped to
//!   ±1000, a mate counting as ±1000): `W(cp) = 50 + 50 * (2 / (1 + exp(-0.00368208 * cp)) -
//!   1)` percent. Lichess fitted it to Stockfish's centipawns; the engine's are smaller, so
//!   they are first multiplied by [`ENGINE_CP_SCALE`] (1.72: the network is trained and
//!   calibrated to that scale, inherited from the former hand-written evaluation's fit to
//!   game results). The `[%eval]` written is the engine's own.
//! - **Loss** of a move: `W(before) - W(after)` for the side that moved. Classes: loss ≥ 15
//!   points **blunder** (`$4`, ??), ≥ 10 **mistake** (`$2`, ?), ≥ 5 **inaccuracy**
//!   (`$6`, ?!), else **good**, or **best** when nothing is lost. These are lichess's 0.3 /
//!   0.2 / 0.1 on its -1..1 winning-chances scale.
//! - **Mates** (lichess's rules, used when either side of the move has a mate score): walking
//!   into a forced mate is a blunder (a mistake below -700 lichess-scale centipawns, an
//!   inaccuracy below -999); letting one's own forced mate go is a blunder (a mistake if
//!   still above +700, an inaccuracy above +999); a slower mate is no error.
//! - The move the search itself chose in the position is **best** whatever the evaluation
//!   of the next position says: the analysis has nothing better to offer. So is a move that
//!   mates.
//! - **Accuracy** of a move: `103.1668 * exp(-0.04354 * loss) - 3.1669 + 1`, clamped to
//!   0..100; of a side: see [`game_accuracy`]. **Average loss**: the mean lichess-scale
//!   centipawns lost per move (evaluations clamped to ±1000, lichess's ACPL).
//!
//! The budget is spent in two stages. First every position is searched with half of it, from
//! the last to the first, keeping the hash table, so each search already knows what the later
//! positions hold: evaluations before and after a move agree better than with independent
//! searches, and a blunder's refutation is found earlier. Then the other half goes where a
//! deeper look changes verdicts: the positions around the moves that stage judged worst are
//! searched again with [`RECHECK_FACTOR`] times the budget ([`positions_to_recheck`]; on the
//! agreement games more blunders found and fewer false alarms than the whole budget spread
//! evenly: docs/benchmarks/history.md, "Two stages: where the budget goes"). Last, each position between two bad moves in a row is
//! searched again with [`VERIFY_FACTOR`] times the budget and those moves judged anew
//! ([`positions_to_verify`]): this removed a third of the false alarms.

mod model;
mod report;

pub use model::{
    BLUNDER_LOSS, CP_CEILING, ENGINE_CP_SCALE, Eval, INACCURACY_LOSS, MISTAKE_LOSS, MoveClass,
    ParseEvalError, WIN_SLOPE, class_of_loss, classify, game_accuracy, move_accuracy,
    win_percent_from_cp,
};
pub use report::{GameAnalysis, MoveAnalysis, SideSummary, accuracy_tag};

use crate::moves::Move;
use crate::pgn::PgnGame;
use crate::position::Position;
use crate::search::{DEFAULT_HASH_MB, SearchLimits, Searcher, Threads};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Longest principal variation kept per position.
pub const MAX_PV: usize = 8;

/// Node budget per position that matches the Raspberry Pi 3's 0.3 s (about 200 k nodes per
/// second there).
pub const PI_NODES: u64 = 60_000;

/// How many times the budget a suspect position gets when it is searched again (see
/// [`positions_to_verify`]).
pub const VERIFY_FACTOR: u32 = 4;

/// How many times the budget a position around one of the worst moves gets in the second
/// stage (see [`positions_to_recheck`]); the first stage searches every position with half
/// the budget, so the other half pays for a quarter of the positions searched again.
pub const RECHECK_FACTOR: u32 = 2;

/// How long each position is searched. At least one limit must be set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnalysisLimits {
    /// Nodes per position (reproducible: the same on every machine). On average: see the
    /// module doc for how the stages share it.
    pub nodes: Option<u64>,
    /// Time per position, on average as `nodes`.
    pub movetime: Option<Duration>,
    /// Deepest iteration per position.
    pub depth: Option<u32>,
    /// Threads searching each position, each spending `nodes`
    /// ([`SearchLimits::on_threads`]); one (deterministic) by default.
    pub threads: Threads,
}

impl Default for AnalysisLimits {
    /// The Pi's budget: [`PI_NODES`] per position.
    fn default() -> AnalysisLimits {
        AnalysisLimits {
            nodes: Some(PI_NODES),
            movetime: None,
            depth: None,
            threads: Threads::ONE,
        }
    }
}

impl AnalysisLimits {
    fn search_limits(&self) -> SearchLimits {
        SearchLimits {
            nodes: self.nodes,
            movetime: self.movetime,
            depth: self.depth,
            ..SearchLimits::default()
        }
        .on_threads(self.threads)
    }

    /// Half the budget (a ply less for a depth limit).
    fn half(&self) -> AnalysisLimits {
        AnalysisLimits {
            nodes: self.nodes.map(|n| (n / 2).max(1)),
            movetime: self.movetime.map(|t| (t / 2).max(Duration::from_millis(1))),
            depth: self.depth.map(|d| d.saturating_sub(1).max(1)),
            threads: self.threads,
        }
    }

    /// `factor` times the budget (two plies more for a depth limit).
    fn deeper(&self, factor: u32) -> AnalysisLimits {
        AnalysisLimits {
            nodes: self.nodes.map(|n| n.saturating_mul(u64::from(factor))),
            movetime: self.movetime.map(|t| t.saturating_mul(factor)),
            depth: self.depth.map(|d| d + 2),
            threads: self.threads,
        }
    }

    fn is_bounded(&self) -> bool {
        self.nodes.is_some_and(|n| n > 0)
            || self.movetime.is_some_and(|t| !t.is_zero())
            || self.depth.is_some_and(|d| d > 0)
    }
}

/// Why an analysis did not finish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalysisError {
    /// The limits do not bound the searches (no positive node, time or depth limit).
    Unbounded,
    /// Move `index` (0-based) of the game is not legal where it is played.
    IllegalMove { index: usize, mv: Move },
    /// The stop flag was set.
    Cancelled,
    /// Position analyses given for a game do not number one more than its moves.
    PositionCount { moves: usize, positions: usize },
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Unbounded => {
                f.write_str("analysis needs a positive node, time or depth limit")
            }
            AnalysisError::IllegalMove { index, mv } => {
                write!(f, "move {} ({mv}) is not legal", index + 1)
            }
            AnalysisError::Cancelled => f.write_str("analysis cancelled"),
            AnalysisError::PositionCount { moves, positions } => write!(
                f,
                "{positions} position analyses for {moves} moves (expected {})",
                moves + 1
            ),
        }
    }
}

impl std::error::Error for AnalysisError {}

/// What the search says about one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PositionAnalysis {
    /// From White's side.
    pub eval: Eval,
    /// `None` when the game is over in this position (no search was needed).
    pub best_move: Option<Move>,
    /// The expected line, starting with the best move (at most [`MAX_PV`] moves).
    pub pv: Vec<Move>,
    /// Deepest completed search iteration (0 when not searched).
    pub depth: u32,
    pub nodes: u64,
}

impl PositionAnalysis {
    /// The evaluation of a position where the game is over, or `None` if it goes on:
    /// checkmate, stalemate, or mating material gone on both sides.
    pub fn of_game_over(pos: &Position) -> Option<PositionAnalysis> {
        let eval = if pos.is_checkmate() {
            Eval::Mate {
                winner: !pos.turn(),
                moves: 0,
            }
        } else if pos.is_stalemate() || pos.is_insufficient_material() {
            Eval::Cp(0)
        } else {
            return None;
        };
        Some(PositionAnalysis {
            eval,
            best_move: None,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
        })
    }
}

/// Progress of an analysis, in units of a first-stage search: every position counts one,
/// and the second stage's searches `2 * RECHECK_FACTOR` each, room being kept for a quarter
/// of the positions (a game with fewer bad moves jumps to the end).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
}

/// Runs analyses with one searcher (single-threaded); keep one per thread.
pub struct Analyzer {
    searcher: Searcher,
    limits: AnalysisLimits,
}

impl Analyzer {
    /// An analyser with these limits per position and the default hash size.
    ///
    /// # Errors
    /// [`AnalysisError::Unbounded`] if no limit bounds the searches.
    pub fn new(limits: AnalysisLimits) -> Result<Analyzer, AnalysisError> {
        Analyzer::with_hash(limits, DEFAULT_HASH_MB)
    }

    /// As [`Analyzer::new`] with a hash table of about `hash_mb` megabytes.
    ///
    /// # Errors
    /// [`AnalysisError::Unbounded`] if no limit bounds the searches.
    pub fn with_hash(limits: AnalysisLimits, hash_mb: usize) -> Result<Analyzer, AnalysisError> {
        if !limits.is_bounded() {
            return Err(AnalysisError::Unbounded);
        }
        let searcher = Searcher::new(hash_mb.max(1));
        Ok(Analyzer { searcher, limits })
    }

    pub fn limits(&self) -> AnalysisLimits {
        self.limits
    }

    /// Analyses the game played from `start` with `moves`. Blocks until done; `progress` is
    /// called after each position. The searcher is cleared first, so with a node limit the
    /// result depends on the game only (on one thread; more are not deterministic).
    ///
    /// # Errors
    /// [`AnalysisError::IllegalMove`] for a move not legal where it is played (nothing is
    /// searched then); [`AnalysisError::Cancelled`] as soon as `stop` is set.
    pub fn analyse(
        &mut self,
        start: &Position,
        moves: &[Move],
        stop: &AtomicBool,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<GameAnalysis, AnalysisError> {
        let mut positions = Vec::with_capacity(moves.len() + 1);
        let mut hashes = Vec::with_capacity(moves.len() + 1);
        let mut pos = *start;
        positions.push(pos);
        hashes.push(pos.hash());
        for (index, &mv) in moves.iter().enumerate() {
            if !pos.is_legal(mv) {
                return Err(AnalysisError::IllegalMove { index, mv });
            }
            pos.play_unchecked(mv);
            positions.push(pos);
            hashes.push(pos.hash());
        }
        self.searcher.clear();
        let total = positions.len();
        // Work in units of a first-stage search: the first stage one each, the second
        // RECHECK_FACTOR * 2 each for a quarter of the positions.
        let per_recheck = 2 * RECHECK_FACTOR as usize;
        let budget = total.div_ceil(4);
        let units = total + per_recheck * budget;
        let mut done = 0;
        let mut tick = |progress: &mut dyn FnMut(Progress), by: usize| {
            done += by;
            progress(Progress {
                done: done.min(units),
                total: units,
            });
        };
        let first_limits = self.limits.half().search_limits();
        let mut results: Vec<Option<PositionAnalysis>> = vec![None; total];
        // Last to first: see the module doc.
        for (i, pos) in positions.iter().enumerate().rev() {
            results[i] = Some(self.search_position(pos, &hashes[..=i], &first_limits, stop)?);
            tick(progress, 1);
        }
        let mut results: Vec<PositionAnalysis> = results.into_iter().flatten().collect();
        let first = GameAnalysis::from_positions(*start, moves.to_vec(), results.clone())?;
        let recheck = positions_to_recheck(&first.moves, budget);
        let deeper = self.limits.deeper(RECHECK_FACTOR).search_limits();
        for &i in recheck.iter().rev() {
            results[i] = self.search_position(&positions[i], &hashes[..=i], &deeper, stop)?;
            tick(progress, per_recheck);
        }
        tick(progress, units);
        let second = GameAnalysis::from_positions(*start, moves.to_vec(), results.clone())?;
        let classes: Vec<MoveClass> = second.moves.iter().map(|m| m.class).collect();
        let suspects = positions_to_verify(&classes);
        if suspects.is_empty() {
            return Ok(second);
        }
        let verify = self.limits.deeper(VERIFY_FACTOR).search_limits();
        for &i in suspects.iter().rev() {
            results[i] = self.search_position(&positions[i], &hashes[..=i], &verify, stop)?;
        }
        GameAnalysis::from_positions(*start, moves.to_vec(), results)
    }

    /// The analysis of one position: the game-over verdict, or a search.
    fn search_position(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &SearchLimits,
        stop: &AtomicBool,
    ) -> Result<PositionAnalysis, AnalysisError> {
        if stop.load(Ordering::Relaxed) {
            return Err(AnalysisError::Cancelled);
        }
        if let Some(over) = PositionAnalysis::of_game_over(pos) {
            return Ok(over);
        }
        let found = self
            .searcher
            .search(pos, history, limits, stop, &mut |_| {});
        if stop.load(Ordering::Relaxed) {
            return Err(AnalysisError::Cancelled);
        }
        let mut pv = found.pv;
        pv.truncate(MAX_PV);
        if pv.first() != found.best_move.as_ref() {
            pv = found.best_move.into_iter().collect();
        }
        Ok(PositionAnalysis {
            eval: Eval::from_score(found.score, pos.turn()),
            best_move: found.best_move,
            pv,
            depth: found.depth,
            nodes: found.nodes,
        })
    }

    /// Analyses the main line of a game read from PGN.
    ///
    /// # Errors
    /// As [`Analyzer::analyse`].
    pub fn analyse_pgn(
        &mut self,
        game: &PgnGame,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<GameAnalysis, AnalysisError> {
        self.analyse(&game.start, &game.moves, stop, progress)
    }
}

/// The positions the second stage searches again (in game order): the positions before and
/// after the moves the first stage judged worst, worst first, while they number at most
/// `budget`; only moves that lose at least an inaccuracy's worth. A shallow search misjudges
/// a move most often where it already sees some loss, and a deeper one settles it.
pub fn positions_to_recheck(moves: &[MoveAnalysis], budget: usize) -> Vec<usize> {
    let mut worst: Vec<usize> = (0..moves.len())
        .filter(|&i| moves[i].class >= MoveClass::Inaccuracy)
        .collect();
    worst.sort_by(|&a, &b| {
        (moves[b].class, moves[b].loss)
            .partial_cmp(&(moves[a].class, moves[a].loss))
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let mut chosen = std::collections::BTreeSet::new();
    for i in worst {
        let new = [i, i + 1].iter().filter(|p| !chosen.contains(*p)).count();
        if chosen.len() + new > budget {
            break;
        }
        chosen.extend([i, i + 1]);
    }
    chosen.into_iter().collect()
}

/// The positions to search again, deeper: each one between two moves in a row that are both
/// judged a mistake or worse (index `i` is the position after move `i - 1`, before move `i`).
/// One side erring and the other at once erring back is more often one evaluation jumping
/// away and back, a search artefact, than a double blunder; the deeper search decides.
pub fn positions_to_verify(classes: &[MoveClass]) -> Vec<usize> {
    let bad = |c: &MoveClass| *c >= MoveClass::Mistake;
    (1..classes.len())
        .filter(|&i| bad(&classes[i - 1]) && bad(&classes[i]))
        .collect()
}
