//! What bounds a search: depth, nodes, time, the deliberate weakness of low levels, and how
//! many threads it may use.

use super::policy::Weakness;
use super::smp::Threads;
use crate::moves::Move;
use std::time::Duration;

/// Every limit of one search; `None` fields do not limit. With no limit at all the search runs
/// until stopped (or to the maximum depth).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SearchLimits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget: the search stops when it is spent (deterministic, unlike time).
    pub nodes: Option<u64>,
    /// Hard wall-clock limit for the whole search.
    pub movetime: Option<Duration>,
    /// No new iteration starts after this much time (from clock management).
    pub soft_time: Option<Duration>,
    /// Hard stop from clock management.
    pub hard_time: Option<Duration>,
    /// Stop once a mate in this many moves is found.
    pub mate: Option<u32>,
    /// Ignore time limits until stopped (`go infinite`, pondering).
    pub infinite: bool,
    /// Only these root moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Deliberate imprecision of the weak levels.
    pub weakness: Option<Weakness>,
    /// Search every root move with an open window and report each one's score after every
    /// iteration ([`super::SearchInfo::root_scores`]), as the weak levels do for their choice:
    /// Assist grades every move of a position from one search.
    pub score_all: bool,
    /// Threads searching together (Lazy SMP); one by default, which is deterministic. With
    /// more, `nodes` counts the nodes of all threads and the main thread's move is played.
    pub threads: Threads,
}

/// The side to move's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
    /// Moves until the next time control, if there is one.
    pub moves_to_go: Option<u32>,
}

/// Moves left in the game assumed when the control gives none (sudden death).
const ASSUMED_MOVES_TO_GO: u32 = 30;
/// Never plan on more than this many moves: keeps a reserve with long repeating controls.
const MAX_MOVES_TO_GO: u32 = 50;

impl SearchLimits {
    /// These limits searched by `threads` threads, each spending the node budget one thread
    /// would (the budget counts every thread's nodes, so it grows with them): about the same
    /// wall time on as many free cores, a deeper search. Where the user waits for an answer
    /// (the coach, Hint, analysis, level 10), more cores buy a better one, not a quicker one.
    pub fn on_threads(mut self, threads: Threads) -> SearchLimits {
        self.threads = threads;
        self.nodes = self.nodes.map(|n| n.saturating_mul(threads.get() as u64));
        self
    }

    /// Soft and hard time for one move from the clock, after the GUI's `overhead` per move.
    pub fn from_clock(clock: Clock, overhead: Duration) -> SearchLimits {
        let remaining = clock.remaining.saturating_sub(overhead);
        let moves = clock
            .moves_to_go
            .unwrap_or(ASSUMED_MOVES_TO_GO)
            .clamp(1, MAX_MOVES_TO_GO);
        let base = remaining / moves + clock.increment * 3 / 4;
        // The last move before a control may use most of the clock; otherwise keep a reserve.
        let max_share = if moves == 1 {
            remaining * 4 / 5
        } else {
            remaining * 2 / 5
        };
        let hard = (base * 3).min(max_share).max(Duration::from_millis(1));
        let soft = (base * 3 / 5).min(hard);
        SearchLimits {
            soft_time: Some(soft),
            hard_time: Some(hard),
            ..SearchLimits::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_multiply_the_node_budget_and_nothing_else() {
        let one = SearchLimits {
            nodes: Some(40_000),
            depth: Some(9),
            ..SearchLimits::default()
        };
        let four = Threads::new(4).expect("4 threads");
        let on_four = one.clone().on_threads(four);
        assert_eq!(on_four.threads, four);
        assert_eq!(on_four.nodes, Some(160_000));
        assert_eq!(on_four.depth, Some(9));
        assert_eq!(one.clone().on_threads(Threads::ONE), one);
        let unbudgeted = SearchLimits::default().on_threads(four);
        assert_eq!(unbudgeted.nodes, None);
        let huge = SearchLimits {
            nodes: Some(u64::MAX),
            ..SearchLimits::default()
        };
        assert_eq!(huge.on_threads(four).nodes, Some(u64::MAX));
    }

    #[test]
    fn clock_budget_is_sane() {
        let limits = SearchLimits::from_clock(
            Clock {
                remaining: Duration::from_secs(60),
                increment: Duration::from_millis(600),
                moves_to_go: None,
            },
            Duration::from_millis(10),
        );
        let soft = limits.soft_time.unwrap();
        let hard = limits.hard_time.unwrap();
        assert!(soft > Duration::from_millis(500) && soft < Duration::from_secs(3));
        assert!(hard >= soft && hard < Duration::from_secs(24));
        // Nearly out of time: never more than the clock holds.
        let limits = SearchLimits::from_clock(
            Clock {
                remaining: Duration::from_millis(30),
                increment: Duration::ZERO,
                moves_to_go: Some(1),
            },
            Duration::from_millis(10),
        );
        assert!(limits.hard_time.unwrap() <= Duration::from_millis(20));
    }
}
