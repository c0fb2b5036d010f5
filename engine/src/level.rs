//! Playing levels 1..10 for the kiosk (and the UCI `Level` option).
//!
//! A level is mostly a node budget, so it plays the same on every device, plus a depth cap and,
//! up to level 7, deliberate imprecision (see [`Weakness`]). Level 10 is full strength; its
//! time cap keeps a move within about 3 seconds on a Raspberry Pi 3.
//!
//! Levels are built on the search: they only choose its limits. The kiosk's computer player,
//! [`Searcher::choose_move`], is therefore defined here; the search knows nothing of levels.

use crate::game::Game;
use crate::moves::Move;
use crate::search::{SearchLimits, Searcher, Weakness};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// One of the ten playing levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Level(u8);

/// What a level may spend and how imprecise it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    pub nodes: u64,
    pub depth: u32,
    /// Wall-clock cap per move, whatever the device.
    pub time: Duration,
    /// Softmax temperature and largest loss of the move choice (0 = always the best move).
    pub temperature: i32,
    pub max_loss: i32,
}

const fn budget(nodes: u64, depth: u32, temperature: i32, max_loss: i32) -> Budget {
    Budget {
        nodes,
        depth,
        time: MOVE_TIME_CAP,
        temperature,
        max_loss,
    }
}

/// The longest any level thinks per move: 3 s, the Pi 3 budget of full strength.
const MOVE_TIME_CAP: Duration = Duration::from_secs(3);

/// Budgets of levels 1..=10, on the network's evaluation. Level 10's node budget is what
/// about 0.25 s buys on an idle core of the development machine (docs/benchmarks/history.md, "The
/// network plays"), i.e. about 2 s on a Pi 3 at the 8x estimate, under the 3 s cap. Levels 1-7
/// add imprecision; they also search every root move with an open window (to score them all),
/// which costs depth, so level 8 (no imprecision, fewer nodes) is still stronger than level 7.
/// Their temperatures and largest losses are the hand-written evaluation's times 0.8: root
/// moves' scores spread about 0.8 times as widely with the network; level 1's were then raised
/// to keep it a beginner's level.
const BUDGETS: [Budget; 10] = [
    budget(2_000, 3, 47, 200),
    budget(4_500, 3, 35, 157),
    budget(6_500, 4, 30, 140),
    budget(7_000, 4, 26, 122),
    budget(12_000, 5, 23, 107),
    budget(18_000, 5, 19, 88),
    budget(20_000, 6, 10, 40),
    budget(16_000, 64, 0, 0),
    budget(45_000, 64, 0, 0),
    budget(400_000, 64, 0, 0),
];

/// Elo of each level on one scale, measured on 2026-11-29 (docs/BENCHMARKS.md, "Levels";
/// `tools/level_labels.sh`): 60 games a level against an anchor on a 10+0.1 clock, the level
/// within its node budget, nothing else on the machine; the anchors' ratings are the ladder's
/// (hoichess 2000 for level 7, phalanx 2450 for levels 8 and 9) and, at the low end only,
/// Stockfish's `UCI_Elo` (levels 2-6). Levels 1 and 10 hang on a chain of 100-game matches
/// (level 1 below level 2; level 10 above level 9 through full strength at 130 000 nodes).
/// ±70-130 at 95 % for an anchored level, more along the chain.
const ELO: [u32; 10] = [880, 1180, 1250, 1420, 1500, 1610, 2090, 2510, 2750, 3210];

impl Level {
    /// Level 4: a fair game for a casual player.
    pub const DEFAULT: Level = Level(4);
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(10);

    /// The level with this number, if it is within 1..=10.
    pub fn new(number: u8) -> Option<Level> {
        (1..=10).contains(&number).then_some(Level(number))
    }

    /// The level number, 1..=10.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Every level, weakest first.
    pub fn all() -> impl Iterator<Item = Level> {
        (1..=10).map(Level)
    }

    /// Approximate Elo rating (see [`ELO`] for where the numbers come from).
    pub fn elo(self) -> u32 {
        ELO[self.index()]
    }

    /// The level whose Elo is nearest to `elo` (for `UCI_LimitStrength`/`UCI_Elo`).
    pub fn nearest_to_elo(elo: u32) -> Level {
        Level::all()
            .min_by_key(|l| l.elo().abs_diff(elo))
            .unwrap_or(Level::DEFAULT)
    }

    pub fn budget(self) -> Budget {
        BUDGETS[self.index()]
    }

    fn index(self) -> usize {
        self.0 as usize - 1
    }

    /// Search limits for one move at this level; `seed` drives the imprecise choice.
    pub fn limits(self, seed: u64) -> SearchLimits {
        let b = self.budget();
        SearchLimits {
            depth: Some(b.depth),
            nodes: Some(b.nodes),
            movetime: Some(b.time),
            weakness: (b.temperature > 0).then_some(Weakness {
                temperature: b.temperature,
                max_loss: b.max_loss,
                seed,
            }),
            ..SearchLimits::default()
        }
    }
}

impl Searcher {
    /// The kiosk's computer player: a move for the side to move at this level, or `None` when
    /// the game is over or has no legal move. Blocks until done or `stop` is set; a stopped
    /// search still returns the best move found so far.
    pub fn choose_move(&mut self, game: &Game, level: Level, stop: &AtomicBool) -> Option<Move> {
        if game.is_over() {
            return None;
        }
        let seed = self.next_seed();
        let limits = self.level_limits(level, seed);
        self.game_move(game, limits, stop)
    }

    /// The limits of one move at `level`: full strength thinks on every thread it was given
    /// ([`Searcher::set_threads`]), each spending the budget; levels 1-9 stay as measured.
    fn level_limits(&self, level: Level, seed: u64) -> SearchLimits {
        let limits = level.limits(seed);
        if level == Level::MAX {
            self.on_all_threads(limits)
        } else {
            limits
        }
    }
}

impl Default for Level {
    fn default() -> Self {
        Level::DEFAULT
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Level {}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_ordered() {
        assert!(Level::new(0).is_none());
        assert!(Level::new(11).is_none());
        assert_eq!(Level::new(4), Some(Level::DEFAULT));
        let all: Vec<Level> = Level::all().collect();
        assert_eq!(all.len(), 10);
        for pair in all.windows(2) {
            let (weak, strong) = (pair[0].budget(), pair[1].budget());
            assert!(pair[0].elo() < pair[1].elo());
            assert!(weak.temperature >= strong.temperature);
            // Each level either searches more or chooses more precisely than the one below.
            assert!(weak.nodes < strong.nodes || weak.temperature > strong.temperature);
        }
        assert_eq!(Level::nearest_to_elo(0), Level::MIN);
        assert_eq!(Level::nearest_to_elo(5000), Level::MAX);
        // Level 1 stays a beginner's level; level 10 is full strength.
        assert!(Level::MIN.elo() < 900);
        assert_eq!(Level::MAX.budget().temperature, 0);
    }

    #[test]
    fn only_level_10_thinks_on_the_threads_given() {
        let four = crate::search::Threads::new(4).expect("4 threads");
        let mut searcher = Searcher::new(1);
        for level in Level::all() {
            assert_eq!(searcher.level_limits(level, 1), level.limits(1));
        }
        searcher.set_threads(four);
        for level in Level::all().filter(|&l| l != Level::MAX) {
            assert_eq!(searcher.level_limits(level, 1), level.limits(1));
        }
        let full = searcher.level_limits(Level::MAX, 1);
        assert_eq!(full.threads, four);
        assert_eq!(full.nodes, Some(4 * Level::MAX.budget().nodes));
        assert_eq!(full.movetime, Some(Level::MAX.budget().time));
    }
}
