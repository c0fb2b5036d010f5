//! Assist: every legal move of a position graded from one search, as the coach would class it.
//!
//! [`Coach::judge`] searches twice per move; touching a piece must colour all its squares at
//! once, so Assist searches the position once with every root move scored in an open window
//! ([`SearchLimits::score_all`], as the weak levels score theirs) and classes each move
//! against the best with the coach's own model ([`classify`]: the same win probability,
//! thresholds and mate rules). Grades are reported after every iteration from
//! [`FIRST_DEPTH`] on, so a board can colour squares early and correct them as the search
//! deepens.

use super::CoachError;
use crate::analysis::{Eval, MoveClass, classify};
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Score, SearchLimits, Searcher};
use crate::types::Square;
use std::sync::atomic::{AtomicBool, Ordering};

/// Nodes of one Assist search: at most 0.31 s of CPU here on a loaded machine, 2.5 s on a
/// Raspberry Pi 3 at the 8x estimate (docs/BENCHMARKS.md, "Assist"), within its 3 s for all
/// grades.
pub const ASSIST_NODES: u64 = 200_000;

/// The first iteration whose grades are reported: shallower ones grade too many moves wrongly
/// to be worth showing, and this depth is reached within a tenth of the budget (about 0.1 s
/// on the Pi estimate).
pub const FIRST_DEPTH: u32 = 4;

/// The smallest budget: enough for the first iteration, which scores every move.
pub const MIN_NODES: u64 = 2_000;

/// Hash table of Assist's searcher.
pub const ASSIST_HASH_MB: usize = 8;

/// The Assist setting: off, or how many pieces a player may touch per move and see their
/// moves graded (1 to [`AssistLimit::MAX`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, PartialOrd, Ord, Hash)]
pub struct AssistLimit(u8);

impl AssistLimit {
    pub const OFF: AssistLimit = AssistLimit(0);
    /// The most touches a move.
    pub const MAX: u8 = 6;

    /// `touches` a move (0: off), if within 0..=[`Self::MAX`].
    pub const fn new(touches: u8) -> Option<AssistLimit> {
        if touches <= Self::MAX {
            Some(AssistLimit(touches))
        } else {
            None
        }
    }

    /// Touches a move; 0 when off.
    pub const fn touches(self) -> u8 {
        self.0
    }

    pub const fn is_on(self) -> bool {
        self.0 > 0
    }

    /// The next value, round: off, 1, 2, ... 6, off.
    pub const fn next(self) -> AssistLimit {
        AssistLimit((self.0 + 1) % (Self::MAX + 1))
    }
}

/// What a touched piece's target square shows: the coach's five classes in three colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Grade {
    /// Best or good (green).
    Good,
    /// An inaccuracy (amber).
    Inaccuracy,
    /// A mistake or a blunder (red).
    Bad,
}

impl Grade {
    /// The grade of a coach's class.
    pub const fn of(class: MoveClass) -> Grade {
        match class {
            MoveClass::Best | MoveClass::Good => Grade::Good,
            MoveClass::Inaccuracy => Grade::Inaccuracy,
            MoveClass::Mistake | MoveClass::Blunder => Grade::Bad,
        }
    }
}

/// One move with its class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GradedMove {
    pub mv: Move,
    pub class: MoveClass,
}

impl GradedMove {
    pub fn grade(&self) -> Grade {
        Grade::of(self.class)
    }
}

/// Every legal move of a position graded by one completed iteration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grades {
    /// The iteration's depth.
    pub depth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Every legal move, best first.
    pub moves: Vec<GradedMove>,
}

impl Grades {
    /// The grade of `mv`, if it is one of the graded moves.
    pub fn of(&self, mv: Move) -> Option<Grade> {
        self.moves
            .iter()
            .find(|g| g.mv == mv)
            .map(GradedMove::grade)
    }

    /// The graded moves of the piece on `from`.
    pub fn from_square(&self, from: Square) -> impl Iterator<Item = &GradedMove> {
        self.moves.iter().filter(move |g| g.mv.from() == from)
    }

    /// Classes every root move of `position` from an iteration's scores (best first, from
    /// the side to move's view).
    fn classify(position: &Position, depth: u32, nodes: u64, scores: &[(Move, Score)]) -> Grades {
        let mover = position.turn();
        let Some(&(best_move, best)) = scores.first() else {
            return Grades {
                depth,
                nodes,
                moves: Vec::new(),
            };
        };
        let before = Eval::from_score(best, mover);
        let moves = scores
            .iter()
            .map(|&(mv, score)| GradedMove {
                mv,
                class: classify(before, after_move(score, mover), mover, mv == best_move),
            })
            .collect();
        Grades {
            depth,
            nodes,
            moves,
        }
    }
}

/// The evaluation after a root move, as a search of the position after it states it: a mate
/// the mover gives is one move nearer there (a mating move is "mate in 0", as the coach
/// reads a finished game).
fn after_move(score: Score, mover: crate::types::Color) -> Eval {
    let score = match score {
        Score::Mate(n) if n > 0 => {
            return Eval::Mate {
                winner: mover,
                moves: n.unsigned_abs() - 1,
            };
        }
        other => other,
    };
    Eval::from_score(score, mover)
}

/// Grades moves with its own searcher; keep one per thread.
pub struct Assist {
    searcher: Searcher,
    nodes: u64,
}

impl Default for Assist {
    fn default() -> Assist {
        Assist::new(ASSIST_NODES)
    }
}

impl Assist {
    /// An Assist searching `nodes` (at least [`MIN_NODES`]) per position.
    pub fn new(nodes: u64) -> Assist {
        Assist {
            searcher: Searcher::new(ASSIST_HASH_MB),
            nodes: nodes.max(MIN_NODES),
        }
    }

    /// Grades every legal move of `position`. `history` holds the hashes of the game's
    /// positions up to and including `position` (for repetitions); it may be empty.
    /// `progress` is called with the grades of every iteration from [`FIRST_DEPTH`] on (the
    /// last call's are the ones returned). Blocks for the search: run it off the UI thread.
    ///
    /// # Errors
    /// [`CoachError::GameOver`] when there is no legal move (nothing is searched), or
    /// [`CoachError::Cancelled`] as soon as `stop` is set.
    pub fn grade(
        &mut self,
        position: &Position,
        history: &[u64],
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Grades),
    ) -> Result<Grades, CoachError> {
        if !position.has_legal_moves() {
            return Err(CoachError::GameOver);
        }
        self.searcher.clear();
        let limits = SearchLimits {
            nodes: Some(self.nodes),
            score_all: true,
            ..SearchLimits::default()
        };
        let mut last: Option<Grades> = None;
        self.searcher
            .search(position, history, &limits, stop, &mut |info| {
                if stop.load(Ordering::Relaxed) {
                    return;
                }
                let grades = Grades::classify(position, info.depth, info.nodes, &info.root_scores);
                if info.depth >= FIRST_DEPTH {
                    progress(&grades);
                }
                last = Some(grades);
            });
        if stop.load(Ordering::Relaxed) {
            return Err(CoachError::Cancelled);
        }
        // A budget too small for FIRST_DEPTH still answers with what it reached (with no
        // iteration complete, no move graded).
        let grades = last.unwrap_or_else(|| Grades::classify(position, 0, 0, &[]));
        if grades.depth < FIRST_DEPTH {
            progress(&grades);
        }
        Ok(grades)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::class_of_loss;

    fn position(fen: &str) -> Position {
        Position::from_fen(fen).expect("valid FEN")
    }

    #[test]
    fn the_limit_steps_round_and_refuses_more_than_six() {
        assert!(!AssistLimit::default().is_on());
        assert_eq!(AssistLimit::new(7), None);
        let mut limit = AssistLimit::OFF;
        let mut seen = Vec::new();
        for _ in 0..7 {
            limit = limit.next();
            seen.push(limit.touches());
        }
        assert_eq!(seen, [1, 2, 3, 4, 5, 6, 0]);
        assert_eq!(AssistLimit::new(3).map(AssistLimit::touches), Some(3));
    }

    #[test]
    fn grades_follow_the_coach_classes() {
        assert_eq!(Grade::of(MoveClass::Best), Grade::Good);
        assert_eq!(Grade::of(MoveClass::Good), Grade::Good);
        assert_eq!(Grade::of(MoveClass::Inaccuracy), Grade::Inaccuracy);
        assert_eq!(Grade::of(MoveClass::Mistake), Grade::Bad);
        assert_eq!(Grade::of(MoveClass::Blunder), Grade::Bad);
        // The thresholds are the coach's: a loss of 7 points is an inaccuracy, 12 a mistake.
        assert_eq!(Grade::of(class_of_loss(7.0)), Grade::Inaccuracy);
        assert_eq!(Grade::of(class_of_loss(12.0)), Grade::Bad);
    }

    #[test]
    fn every_legal_move_is_graded_and_only_taking_the_queen_is_green() {
        // Black's queen on h4 hangs to the knight on f3: every other knight move lets it go.
        let pos = position("rnb1kbnr/pppp1ppp/8/4p3/3PP2q/5N2/PPP2PPP/RNBQKB1R w KQkq - 1 4");
        let mut assist = Assist::new(60_000);
        let stop = AtomicBool::new(false);
        let mut reports = Vec::new();
        let grades = assist
            .grade(&pos, &[], &stop, &mut |g| reports.push(g.clone()))
            .expect("graded");
        assert_eq!(grades.moves.len(), pos.legal_moves().len());
        assert!(!reports.is_empty());
        assert_eq!(reports.last(), Some(&grades));
        assert!(reports.windows(2).all(|w| w[0].depth < w[1].depth));
        assert!(reports.iter().all(|g| g.depth >= FIRST_DEPTH));
        let take = pos.parse_uci_move("f3h4").expect("Nxh4");
        assert_eq!(grades.moves[0].mv, take);
        assert_eq!(grades.of(take), Some(Grade::Good));
        let knight: Vec<&GradedMove> = grades.from_square(Square::F3).collect();
        assert_eq!(knight.len(), 5);
        assert!(
            knight
                .iter()
                .all(|g| g.mv == take || g.grade() == Grade::Bad)
        );
    }

    #[test]
    fn a_mate_in_one_is_the_best_and_the_only_green_with_the_rook() {
        // Back-rank mate: Ra8#.
        let pos = position("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
        let mut assist = Assist::new(20_000);
        let stop = AtomicBool::new(false);
        let grades = assist.grade(&pos, &[], &stop, &mut |_| {}).expect("graded");
        let mate = pos.parse_uci_move("a1a8").expect("Ra8#");
        assert_eq!(grades.moves[0].mv, mate);
        assert_eq!(grades.moves[0].class, MoveClass::Best);
        // Every other rook move lets the mate go: still winning, but not best.
        assert!(
            grades
                .from_square(Square::A1)
                .all(|g| g.mv == mate || g.class > MoveClass::Best)
        );
    }

    #[test]
    fn no_moves_and_cancelled_are_errors() {
        let mated = position("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1");
        let stop = AtomicBool::new(false);
        let mut assist = Assist::new(1_000);
        assert_eq!(
            assist.grade(&mated, &[], &stop, &mut |_| {}),
            Err(CoachError::GameOver)
        );
        let stopped = AtomicBool::new(true);
        let mut called = false;
        assert_eq!(
            assist.grade(&Position::startpos(), &[], &stopped, &mut |_| called = true),
            Err(CoachError::Cancelled)
        );
        assert!(!called);
    }

    #[test]
    fn a_tiny_budget_still_grades_every_move() {
        let mut assist = Assist::new(1);
        let stop = AtomicBool::new(false);
        let mut reported = 0;
        let grades = assist
            .grade(&Position::startpos(), &[], &stop, &mut |_| reported += 1)
            .expect("graded");
        assert_eq!(grades.moves.len(), 20);
        assert_eq!(reported, 1);
    }
}
