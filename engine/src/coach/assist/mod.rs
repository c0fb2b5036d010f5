//! Assist: every legal move of a position graded from one search, as the coach would class it.
//!
//! [`Coach::judge`] searches twice per move; touching a piece must colour all its squares at
//! once, so Assist searches the position once with every root move scored in an open window
//! ([`SearchLimits::score_all`], as the weak levels score theirs) and classes each move
//! against the best with the coach's own model ([`classify`]: the same win probability,
//! thresholds and mate rules). Grades are reported after every iteration from
//! [`FIRST_DEPTH`] on, so a board can colour squares early and correct them as the search
//! deepens.
//!
//! One search and the coach's two per move disagree most on moves that lose about as much as
//! a band's edge, so the coach judges those few moves of a touched piece itself (within
//! [`SETTLE_MARGIN`] of an edge; about one move in six), as `explain` would, on the threads
//! it is given and until a deadline ([`Judging`]): during the search on the spare threads, on
//! all after it ([`Assist::grade`]), and for a piece touched later ([`Assist::settle`]).

use super::judges::{Queue, Work, start_lane};
use super::{Coach, CoachError};
use crate::analysis::{Eval, INACCURACY_LOSS, MISTAKE_LOSS, MoveClass, classify};
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Score, SearchLimits, Searcher, Threads};
use crate::types::Square;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Nodes of one Assist search: about 2.1 s on a Raspberry Pi 3 at the 8x estimate (median;
/// docs/BENCHMARKS.md, "Assist"), leaving the rest of its 3 s to the coach's verdicts.
pub const ASSIST_NODES: u64 = 200_000;

/// The app waits this long after a touch for the coach's verdicts ([`Judging::until`]): the
/// goal for all of a piece's colours on a Raspberry Pi 3.
pub const ASSIST_DEADLINE_MS: u64 = 3_000;

/// The first iteration whose grades are reported: shallower ones grade too many moves wrongly
/// to be worth showing, and this depth is reached within a tenth of the budget (about 0.1 s
/// on the Pi estimate).
pub const FIRST_DEPTH: u32 = 4;

/// The smallest budget: enough for the first iteration, which scores every move.
pub const MIN_NODES: u64 = 2_000;

/// Hash table of Assist's searcher.
pub const ASSIST_HASH_MB: usize = 8;

/// A move whose loss lies within this many points of the coach's inaccuracy or mistake edge
/// is judged by the coach itself. Chosen on the tuning half of the agreement games
/// (`tools/assist_margin.py`, docs/BENCHMARKS.md "Assist").
pub const SETTLE_MARGIN: f64 = 1.0;

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
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GradedMove {
    pub mv: Move,
    pub class: MoveClass,
    /// Win probability the move gives away against the best, in percentage points (0 for
    /// the best; mates are classed by the coach's mate rules, not by this).
    pub loss: f64,
    /// The class is the coach's own verdict on the move, not the search's.
    pub judged: bool,
}

impl GradedMove {
    pub fn grade(&self) -> Grade {
        Grade::of(self.class)
    }
}

/// Every legal move of a position graded by one completed iteration.
#[derive(Debug, Clone, PartialEq)]
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
            .map(|&(mv, score)| {
                let after = after_move(score, mover);
                let loss = (before.win_percent(mover) - after.win_percent(mover)).max(0.0);
                GradedMove {
                    mv,
                    class: classify(before, after, mover, mv == best_move),
                    loss,
                    judged: false,
                }
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

impl GradedMove {
    /// Near enough a band's edge for one search to class it otherwise than the coach.
    pub fn near_an_edge(&self) -> bool {
        self.class != MoveClass::Best
            && [INACCURACY_LOSS, MISTAKE_LOSS]
                .iter()
                .any(|edge| (self.loss - edge).abs() < SETTLE_MARGIN)
    }
}

impl Grades {
    /// Puts the coach's `verdict` on `mv`.
    fn judged(&mut self, mv: Move, verdict: MoveClass) {
        if let Some(g) = self.moves.iter_mut().find(|g| g.mv == mv) {
            g.class = verdict;
            g.judged = true;
        }
    }

    /// The moves of the pieces on `from` that the coach should judge.
    fn to_judge<'a>(&'a self, from: &'a [Square]) -> impl Iterator<Item = Move> + 'a {
        self.moves
            .iter()
            .filter(|g| from.contains(&g.mv.from()) && !g.judged && g.near_an_edge())
            .map(|g| g.mv)
    }
}

/// Grades moves with its own searcher; keep one per thread.
pub struct Assist {
    searcher: Searcher,
    nodes: u64,
    /// One coach per thread judging moves, made when first needed.
    coaches: Vec<Coach>,
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
            coaches: Vec::new(),
        }
    }

    fn coaches(&mut self, count: usize) -> &mut [Coach] {
        while self.coaches.len() < count {
            self.coaches.push(Coach::default());
        }
        &mut self.coaches[..count]
    }

    /// Grades every legal move of `position`, and has the coach judge the moves of the
    /// pieces `judging` names that lie near a band's edge ([`GradedMove::near_an_edge`]), as
    /// `explain` judges a move (one thread each, the coach's budget). The search runs on this
    /// thread; with more threads, the others judge the moves near an edge in any iteration
    /// while it runs, and all of them the ones still to judge after it, until the deadline.
    ///
    /// `history` holds the hashes of the game's positions up to and including `position`
    /// (for repetitions); it may be empty. `progress` is called with the grades of every
    /// iteration from [`FIRST_DEPTH`] on and after every verdict (the last call's are the
    /// ones returned). Blocks: run it off the UI thread.
    ///
    /// # Errors
    /// [`CoachError::GameOver`] when there is no legal move (nothing is searched), or
    /// [`CoachError::Cancelled`] as soon as `stop` is set.
    pub fn grade(
        &mut self,
        position: &Position,
        history: &[u64],
        judging: &Judging<'_>,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Grades),
    ) -> Result<Grades, CoachError> {
        if !position.has_legal_moves() {
            return Err(CoachError::GameOver);
        }
        self.searcher.clear();
        let nodes = self.nodes;
        let lanes = judging.threads.get();
        self.coaches(lanes);
        let Assist {
            searcher, coaches, ..
        } = self;
        let (queue, judges_stop) = (Queue::default(), AtomicBool::new(false));
        let work = Work {
            position,
            history,
            queue: &queue,
            stop: &judges_stop,
        };
        let (tx, rx) = mpsc::channel();
        std::thread::scope(|scope| {
            let (during, after) = coaches.split_at_mut(lanes - 1);
            for coach in during {
                start_lane(scope, coach, work, tx.clone());
            }
            let mut verdicts: Vec<(Move, MoveClass)> = Vec::new();
            let searched = search(searcher, position, history, nodes, stop, &mut |grades| {
                verdicts.extend(rx.try_iter());
                let mut grades = grades.clone();
                for &(mv, verdict) in &verdicts {
                    grades.judged(mv, verdict);
                }
                // One thread judges after the search only, the moves near an edge then.
                if lanes > 1 {
                    grades
                        .to_judge(judging.touched)
                        .for_each(|mv| queue.push(mv));
                }
                progress(&grades);
            });
            let mut grades = match searched {
                Ok(grades) => grades,
                Err(e) => {
                    judges_stop.store(true, Ordering::Relaxed);
                    queue.close();
                    return Err(e);
                }
            };
            verdicts.extend(rx.try_iter());
            for &(mv, verdict) in &verdicts {
                grades.judged(mv, verdict);
            }
            grades
                .to_judge(judging.touched)
                .for_each(|mv| queue.push(mv));
            queue.close();
            match after.first_mut() {
                Some(coach) => start_lane(scope, coach, work, tx),
                None => drop(tx),
            }
            collect(
                &rx,
                judging.until,
                stop,
                &judges_stop,
                &mut |mv, verdict| {
                    grades.judged(mv, verdict);
                    progress(&grades);
                },
            );
            if stop.load(Ordering::Relaxed) {
                return Err(CoachError::Cancelled);
            }
            Ok(grades)
        })
    }

    /// Has the coach judge the moves of the pieces `judging` names that lie near a band's
    /// edge and are not judged yet, on up to `judging.threads` threads at once until its
    /// deadline, and puts its verdicts in `grades` (the grades [`Assist::grade`] gave for this
    /// position): for pieces touched after the search. `progress` is called with the grades
    /// after each verdict. Returns how many moves were judged.
    ///
    /// # Errors
    /// [`CoachError::Cancelled`] as soon as `stop` is set (the verdicts so far are kept).
    pub fn settle(
        &mut self,
        position: &Position,
        history: &[u64],
        grades: &mut Grades,
        judging: &Judging<'_>,
        stop: &AtomicBool,
        progress: &mut dyn FnMut(&Grades),
    ) -> Result<usize, CoachError> {
        let moves: Vec<Move> = grades.to_judge(judging.touched).collect();
        if moves.is_empty() {
            return Ok(0);
        }
        let (queue, judges_stop) = (Queue::default(), AtomicBool::new(false));
        moves.iter().for_each(|&mv| queue.push(mv));
        queue.close();
        let work = Work {
            position,
            history,
            queue: &queue,
            stop: &judges_stop,
        };
        let coaches = self.coaches(judging.threads.get().min(moves.len()));
        let (tx, rx) = mpsc::channel();
        let mut judged = 0;
        std::thread::scope(|scope| {
            for coach in coaches {
                start_lane(scope, coach, work, tx.clone());
            }
            drop(tx);
            collect(
                &rx,
                judging.until,
                stop,
                &judges_stop,
                &mut |mv, verdict| {
                    grades.judged(mv, verdict);
                    judged += 1;
                    progress(grades);
                },
            );
        });
        if stop.load(Ordering::Relaxed) {
            return Err(CoachError::Cancelled);
        }
        Ok(judged)
    }
}

/// Which pieces' moves the coach judges for [`Assist::grade`], on how many threads, and until
/// when.
#[derive(Debug, Clone, Copy)]
pub struct Judging<'a> {
    /// The pieces touched.
    pub touched: &'a [Square],
    /// Threads: the search's and the judges' (one: the judges start after the search).
    pub threads: Threads,
    /// No verdict is waited for after this (a judgement under way is stopped): the colours
    /// then stay as they are. `None`: every verdict comes.
    pub until: Option<Instant>,
}

impl Judging<'_> {
    /// No piece judged: the search's grades only.
    pub const NONE: Judging<'static> = Judging {
        touched: &[],
        threads: Threads::ONE,
        until: None,
    };
}

/// How often waiting for verdicts looks at the stop flag and the deadline.
const STOP_POLL: Duration = Duration::from_millis(5);

/// Hands each verdict from `verdicts` to `apply` until the lanes are done, `until` passes or
/// `stop` is set; then stops the judges (`judges_stop`).
fn collect(
    verdicts: &mpsc::Receiver<(Move, MoveClass)>,
    until: Option<Instant>,
    stop: &AtomicBool,
    judges_stop: &AtomicBool,
    apply: &mut dyn FnMut(Move, MoveClass),
) {
    loop {
        if stop.load(Ordering::Relaxed) || until.is_some_and(|t| Instant::now() >= t) {
            judges_stop.store(true, Ordering::Relaxed);
        }
        // A short wait: `stop` is set without a wake-up; none past the deadline.
        let wait = match until {
            Some(t) if !judges_stop.load(Ordering::Relaxed) => {
                STOP_POLL.min(t.saturating_duration_since(Instant::now()))
            }
            _ => STOP_POLL,
        };
        match verdicts.recv_timeout(wait) {
            Ok((mv, verdict)) if !judges_stop.load(Ordering::Relaxed) => apply(mv, verdict),
            Ok(_) | Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return,
        }
    }
}

/// One search of `position` with every root move scored, its grades reported after every
/// iteration from [`FIRST_DEPTH`] on.
fn search(
    searcher: &mut Searcher,
    position: &Position,
    history: &[u64],
    nodes: u64,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(&Grades),
) -> Result<Grades, CoachError> {
    let limits = SearchLimits {
        nodes: Some(nodes.max(MIN_NODES)),
        score_all: true,
        ..SearchLimits::default()
    };
    let mut last: Option<Grades> = None;
    searcher.search(position, history, &limits, stop, &mut |info| {
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

#[cfg(test)]
mod tests;
