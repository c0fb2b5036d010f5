//! The player at the device, as the game and Train see them: their puzzles and the level that
//! fits their rating. The saver keeps both on disk; this is the controller's copy, kept
//! current by the saver's reports.

use crate::storage::puzzles::PuzzleBook;
use chesspi_engine::level::Level;

/// The player's puzzles and fitting level.
#[derive(Debug, Clone, Default)]
pub struct Player {
    /// Train picks from them and records its tries.
    pub(in crate::app) puzzles: PuzzleBook,
    /// The level that fits the player's rating (none before a rated game).
    fitting_level: Option<Level>,
    /// New game starts at the fitting level (it was chosen last time).
    follow_fitting_level: bool,
}

impl Player {
    pub fn puzzles(&self) -> &PuzzleBook {
        &self.puzzles
    }

    /// The saver's copy of the puzzles, after each change it reports.
    pub fn set_puzzles(&mut self, book: PuzzleBook) {
        self.puzzles = book;
    }

    /// How many puzzles are due now.
    pub fn puzzles_due(&self) -> usize {
        self.puzzles
            .due_count(crate::storage::timestamp::unix_now())
    }

    /// The level that fits the player's rating (Your record keeps it), once there is one.
    pub fn fitting_level(&self) -> Option<Level> {
        self.fitting_level
    }

    pub fn set_fitting_level(&mut self, level: Option<Level>) {
        self.fitting_level = level;
    }

    /// Whether New game starts at the level that fits (a device setting).
    pub fn set_follow_fitting_level(&mut self, on: bool) {
        self.follow_fitting_level = on;
    }

    /// The level New game offers first: the fitting one, when it was chosen last time.
    pub fn new_game_level(&self) -> Option<Level> {
        self.fitting_level.filter(|_| self.follow_fitting_level)
    }
}
