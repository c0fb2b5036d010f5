//! Playing levels 1..10 for the kiosk (and the UCI `Level` option).
//!
//! A level is mostly a node budget, so it plays the same on every device, plus a depth cap and,
//! below level 8, deliberate imprecision (see [`Weakness`]). Level 10 is full strength; its
//! time cap keeps a move within about 3 seconds on a Raspberry Pi 3.

use crate::search::{SearchLimits, Weakness};
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

/// Budgets of levels 1..=10. Level 10's node budget is what about 0.4 s buys on the
/// development machine (see docs/BENCHMARKS.md), i.e. about 3 s on a Pi 3.
const BUDGETS: [Budget; 10] = [
    budget(300, 1, 120, 600),
    budget(1_000, 2, 80, 400),
    budget(3_000, 3, 50, 250),
    budget(8_000, 4, 30, 150),
    budget(20_000, 5, 20, 100),
    budget(50_000, 6, 10, 50),
    budget(120_000, 8, 5, 25),
    budget(250_000, 12, 0, 0),
    budget(600_000, 64, 0, 0),
    budget(1_500_000, 64, 0, 0),
];

/// Elo of each level. ESTIMATES until measured: see docs/BENCHMARKS.md "## Search" for which
/// numbers come from matches.
const ELO: [u32; 10] = [800, 1000, 1200, 1400, 1600, 1800, 2000, 2200, 2350, 2500];

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
            assert!(pair[0].elo() < pair[1].elo());
            assert!(pair[0].budget().nodes < pair[1].budget().nodes);
            assert!(pair[0].budget().temperature >= pair[1].budget().temperature);
        }
        assert_eq!(Level::nearest_to_elo(0), Level::MIN);
        assert_eq!(Level::nearest_to_elo(5000), Level::MAX);
    }
}
