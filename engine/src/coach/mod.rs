//! The coach: judges one move the moment it is played and says in words what is wrong with it.
//!
//! [`Coach::judge`] searches the position after the move (the opponent's best answer: the
//! refutation) and then the position before it (the better move), sharing one hash table so
//! the second search already knows the first's tree. The move is classed with the analysis's
//! model ([`crate::analysis::classify`]: lichess's win probability, the 5 / 10 / 15 point
//! thresholds and mate rules), and a move the coach would warn about is searched again with
//! [`VERIFY_TENTHS`] tenths of the budget before the warning stands: most false alarms of a
//! shallow search are one evaluation that a deeper look takes back. A move it would not warn
//! about but that still loses [`DOUBT_LOSS`] points is looked at again, deeper each time
//! ([`DOUBT_TENTHS`]), until it is a warning or clear: most misses of a shallow search are a
//! refutation found a little too late.
//!
//! [`Reason`] names the mechanism from the lines the searches found — a piece left hanging,
//! a mate, a fork, a pin or skewer, an exchange that loses material, a mate or a win of
//! material missed, a stalemate or a draw thrown away — and only when the line shows it;
//! otherwise it only names the better move. [`words`] turns a judgement into an English and
//! a German sentence.

pub mod assist;
mod judges;
mod reason;
mod threat;
pub mod words;

#[cfg(test)]
mod tests;

pub use assist::{Assist, AssistLimit, Grade, Grades, Judging};
pub use reason::{DrawKind, Placed, Reason, ReasonKind, material, material_value};
pub use threat::{Threat, threat};

use crate::analysis::{Eval, MoveClass, classify};
use crate::moves::Move;
use crate::position::Position;
use crate::search::{SearchLimits, Searcher, Threads};
use crate::types::Color;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};

/// Nodes for each of the two searches of a judgement: about 0.2 s each on a Raspberry Pi 3
/// (docs/BENCHMARKS.md, "The coach"), so a judgement with its verification stays within the
/// coach's one-second budget there. A doubtful move's deeper looks take up to seven times as
/// long; on engines' games a judgement averages about 165 000 nodes.
pub const COACH_NODES: u64 = 40_000;

/// A move the coach would warn about is searched again with this many nodes per 10 of the
/// budget.
pub const VERIFY_TENTHS: u64 = 13;

/// A move that loses at least this many points of win probability without a warning is in
/// doubt. Engines' natural blunders often look like this to a 40 000-node search (58 of 174:
/// a loss of 3-10 where Stockfish sees 15 or more), good moves seldom (11 of 174;
/// docs/BENCHMARKS.md, "Natural blunders").
pub const DOUBT_LOSS: f64 = 3.0;

/// The looks at a doubtful move, in tenths of the budget, each taken while it stays in doubt.
pub const DOUBT_TENTHS: [u64; 2] = [20, 40];

/// How far the coach follows a line (its principal variation lengthened from the table).
const LINE_PLIES: usize = 12;

/// Hash table of the coach's searcher: small, the searches are short.
pub const COACH_HASH_MB: usize = 8;

/// How much the coach says: nothing, blunders only, or mistakes too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CoachLevel {
    #[default]
    Off,
    Blunders,
    Mistakes,
}

impl CoachLevel {
    pub const ALL: [CoachLevel; 3] = [CoachLevel::Off, CoachLevel::Blunders, CoachLevel::Mistakes];

    /// Whether a move of this class stops the game for a warning.
    pub fn warns(self, verdict: MoveClass) -> bool {
        match self {
            CoachLevel::Off => false,
            CoachLevel::Blunders => verdict >= MoveClass::Blunder,
            CoachLevel::Mistakes => verdict >= MoveClass::Mistake,
        }
    }

    pub fn is_on(self) -> bool {
        self != CoachLevel::Off
    }

    /// The word it is stored as.
    pub const fn code(self) -> &'static str {
        match self {
            CoachLevel::Off => "off",
            CoachLevel::Blunders => "blunders",
            CoachLevel::Mistakes => "mistakes",
        }
    }

    pub fn from_code(code: &str) -> Option<CoachLevel> {
        CoachLevel::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The next value, round.
    pub fn next(self) -> CoachLevel {
        match self {
            CoachLevel::Off => CoachLevel::Blunders,
            CoachLevel::Blunders => CoachLevel::Mistakes,
            CoachLevel::Mistakes => CoachLevel::Off,
        }
    }
}

/// Why a move could not be judged.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CoachError {
    /// The move is not legal in the position.
    IllegalMove(Move),
    /// The game is already over in the position: there is no move to judge.
    GameOver,
    /// The stop flag was set.
    Cancelled,
}

impl fmt::Display for CoachError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CoachError::IllegalMove(mv) => write!(f, "{mv} is not a legal move here"),
            CoachError::GameOver => f.write_str("the game is over in this position"),
            CoachError::Cancelled => f.write_str("judging cancelled"),
        }
    }
}

impl std::error::Error for CoachError {}

/// What the coach says about one move.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// The position the move was played in.
    pub position: Position,
    pub played: Move,
    pub verdict: MoveClass,
    /// Win probability lost by the move, in percentage points (0 when nothing is lost).
    pub loss: f64,
    /// The coach's best move in the position (the played one when it found nothing better).
    pub best: Move,
    /// From White's side, before and after the move.
    pub before: Eval,
    pub after: Eval,
    /// The opponent's best line after the move (empty when the move ends the game).
    pub refutation: Vec<Move>,
    /// The line of the best move, starting with it.
    pub best_line: Vec<Move>,
    pub reason: Reason,
    /// Nodes searched for this judgement.
    pub nodes: u64,
}

impl Judgement {
    /// Whether the coach would stop the game for it: a mistake or a blunder.
    pub fn is_warning(&self) -> bool {
        self.verdict >= MoveClass::Mistake
    }

    /// The side that played the move.
    pub fn mover(&self) -> Color {
        self.position.turn()
    }
}

/// Judges moves with its own searcher; keep one per thread.
pub struct Coach {
    searcher: Searcher,
    nodes: u64,
    /// Threads for each search, each spending `nodes` ([`SearchLimits::on_threads`]).
    threads: Threads,
}

impl Default for Coach {
    fn default() -> Coach {
        Coach::new(COACH_NODES)
    }
}

/// One search's result, turned to what the coach needs.
struct Look {
    eval: Eval,
    line: Vec<Move>,
    nodes: u64,
}

impl Coach {
    /// A coach searching `nodes` (at least 1) for each side of a move.
    pub fn new(nodes: u64) -> Coach {
        Coach {
            searcher: Searcher::new(COACH_HASH_MB),
            nodes: nodes.max(1),
            threads: Threads::ONE,
        }
    }

    /// Searches with `threads` threads from now on, each spending the coach's node budget: a
    /// judgement takes about as long on as many free cores and looks deeper. One thread (the
    /// default) is deterministic; more are not.
    pub fn set_threads(&mut self, threads: Threads) {
        self.threads = threads;
    }

    /// The limits of one look with `nodes` per thread.
    fn limits(&self, nodes: u64) -> SearchLimits {
        SearchLimits {
            nodes: Some(nodes.max(1)),
            ..SearchLimits::default()
        }
        .on_threads(self.threads)
    }

    /// Judges `mv` played in `position`. `history` holds the hashes of the game's positions
    /// up to and including `position` (for repetitions); it may be empty. Blocks for the
    /// searches: run it off the UI thread.
    ///
    /// # Errors
    /// [`CoachError::IllegalMove`], [`CoachError::GameOver`] (nothing is searched then), or
    /// [`CoachError::Cancelled`] as soon as `stop` is set.
    pub fn judge(
        &mut self,
        position: &Position,
        history: &[u64],
        mv: Move,
        stop: &AtomicBool,
    ) -> Result<Judgement, CoachError> {
        if !position.has_legal_moves() {
            return Err(CoachError::GameOver);
        }
        let after = position.play(mv).map_err(|_| CoachError::IllegalMove(mv))?;
        let mut history: Vec<u64> = history.to_vec();
        if history.last() != Some(&position.hash()) {
            history.push(position.hash());
        }
        self.searcher.clear();
        let mut judgement = self.judge_with(position, &after, &history, mv, self.nodes, stop)?;
        if judgement.is_warning() {
            return self.again(position, &after, &history, judgement, VERIFY_TENTHS, stop);
        }
        // A doubtful move: each deeper look either finds the refutation (a warning, from a
        // search deeper than the verification's) or clears the move.
        for tenths in DOUBT_TENTHS {
            if judgement.is_warning() || judgement.loss < DOUBT_LOSS {
                break;
            }
            judgement = self.again(position, &after, &history, judgement, tenths, stop)?;
        }
        Ok(judgement)
    }

    /// Judges `earlier`'s move again with `tenths` tenths of the budget, the table kept.
    fn again(
        &mut self,
        position: &Position,
        after: &Position,
        history: &[u64],
        earlier: Judgement,
        tenths: u64,
        stop: &AtomicBool,
    ) -> Result<Judgement, CoachError> {
        let nodes = self.nodes.saturating_mul(tenths) / 10;
        let mut judgement =
            self.judge_with(position, after, history, earlier.played, nodes, stop)?;
        judgement.nodes += earlier.nodes;
        Ok(judgement)
    }

    fn judge_with(
        &mut self,
        position: &Position,
        after: &Position,
        history: &[u64],
        mv: Move,
        nodes: u64,
        stop: &AtomicBool,
    ) -> Result<Judgement, CoachError> {
        let mover = position.turn();
        let mut after_history = history.to_vec();
        after_history.push(after.hash());
        let reply = self.look(after, &after_history, nodes, stop)?;
        let own = self.look(position, history, nodes, stop)?;
        let best = own.line.first().copied().unwrap_or(mv);
        let played_best = best == mv;
        let verdict = classify(own.eval, reply.eval, mover, played_best);
        let loss = if played_best {
            0.0
        } else {
            (own.eval.win_percent(mover) - reply.eval.win_percent(mover)).max(0.0)
        };
        let (loss, best, best_line) = if verdict == MoveClass::Best && !played_best {
            // The move is as good as the one the search chose: no better move to show.
            (
                0.0,
                mv,
                std::iter::once(mv)
                    .chain(reply.line.iter().copied())
                    .collect(),
            )
        } else {
            (loss, best, own.line)
        };
        // An inaccuracy loses too little for a tactic to be the reason: only the better move
        // is named.
        let reason = if verdict == MoveClass::Inaccuracy {
            best_line
                .first()
                .map_or(Reason::None, |&best| Reason::BetterMove {
                    best,
                    san: crate::san::to_san(position, best),
                })
        } else if verdict >= MoveClass::Mistake {
            Reason::find(
                position,
                mv,
                after,
                &after_history,
                own.eval,
                reply.eval,
                &reply.line,
                &best_line,
            )
        } else {
            Reason::None
        };
        Ok(Judgement {
            position: *position,
            played: mv,
            verdict,
            loss,
            best,
            before: own.eval,
            after: reply.eval,
            refutation: reply.line,
            best_line,
            reason,
            nodes: own.nodes + reply.nodes,
        })
    }

    /// What the side not on move in `position` threatens (see [`threat()`]).
    pub fn threat(&mut self, position: &Position, stop: &AtomicBool) -> Option<Threat> {
        let limits = self.limits(self.nodes);
        threat(&mut self.searcher, position, &limits, stop)
    }

    /// Searches `pos` (or reads the verdict of a finished game).
    fn look(
        &mut self,
        pos: &Position,
        history: &[u64],
        nodes: u64,
        stop: &AtomicBool,
    ) -> Result<Look, CoachError> {
        if stop.load(Ordering::Relaxed) {
            return Err(CoachError::Cancelled);
        }
        if let Some(over) = crate::analysis::PositionAnalysis::of_game_over(pos) {
            return Ok(Look {
                eval: over.eval,
                line: Vec::new(),
                nodes: 0,
            });
        }
        let limits = self.limits(nodes);
        let found = self
            .searcher
            .search(pos, history, &limits, stop, &mut |_| {});
        if stop.load(Ordering::Relaxed) {
            return Err(CoachError::Cancelled);
        }
        let mut line = found.pv;
        if line.first() != found.best_move.as_ref() {
            line = found.best_move.into_iter().collect();
        }
        // The reasons read material along the line: a line cut short by a table hit says
        // too little.
        self.searcher.extend_line(pos, &mut line, LINE_PLIES);
        Ok(Look {
            eval: Eval::from_score(found.score, pos.turn()),
            line,
            nodes: found.nodes,
        })
    }
}
