//! The players of the device and the one at it, as the game and Train see them: the roster,
//! who plays now, their puzzles and the level that fits their rating. The saver keeps them
//! on disk; this is the controller's copy, kept current by the saver's reports.

use crate::storage::endgames::EndgameProgress;
use crate::storage::openings::OpeningCards;
use crate::storage::players::{Roster, Who};
use crate::storage::puzzles::PuzzleBook;
use crate::tr;
use chesspi_engine::level::Level;

/// The players, the one at the device, their puzzles and fitting level.
#[derive(Debug, Clone)]
pub struct Player {
    /// The device's players (the saver writes each change).
    pub(in crate::app) roster: Roster,
    /// Who is at the device now: whose record and puzzles are shown.
    current: Who,
    /// Train picks from them and records its tries.
    pub(in crate::app) puzzles: PuzzleBook,
    /// The opening cards: Openings prefers the due lines and records its tries.
    pub(in crate::app) openings: OpeningCards,
    /// Their progress in the endgame lessons (Endgames records its tries).
    pub(in crate::app) endgames: EndgameProgress,
    /// The level that fits the player's rating (none before a rated game).
    fitting_level: Option<Level>,
    /// New game starts at the fitting level (it was chosen last time).
    follow_fitting_level: bool,
}

impl Default for Player {
    fn default() -> Player {
        let roster = Roster::default();
        Player {
            current: roster.last(),
            roster,
            puzzles: PuzzleBook::default(),
            openings: OpeningCards::default(),
            endgames: EndgameProgress::default(),
            fitting_level: None,
            follow_fitting_level: false,
        }
    }
}

impl Player {
    /// The device's players.
    pub fn roster(&self) -> &Roster {
        &self.roster
    }

    /// The players to change; the caller has the saver write them.
    pub fn roster_mut(&mut self) -> &mut Roster {
        &mut self.roster
    }

    /// The players as the saver read them, and who was last at the device.
    pub fn set_roster(&mut self, roster: Roster) {
        self.current = roster.last();
        self.roster = roster;
    }

    /// Who is at the device now.
    pub fn current(&self) -> Who {
        self.current
    }

    /// `who` comes to the device (their record and puzzles follow in the saver's report).
    pub fn set_current(&mut self, who: Who) {
        self.current = who;
        self.roster.set_last(who);
    }

    /// `who`'s name as the screen shows it: a player's own, "Guest" in the user's language
    /// (also for a player removed since).
    pub fn name_of(&self, who: Who) -> String {
        self.roster
            .name_of(who)
            .map_or_else(|| tr!("Guest"), |n| n.as_str().to_string())
    }

    pub fn puzzles(&self) -> &PuzzleBook {
        &self.puzzles
    }

    /// The saver's copy of the puzzles, after each change it reports.
    pub fn set_puzzles(&mut self, book: PuzzleBook) {
        self.puzzles = book;
    }

    /// The opening cards.
    pub fn openings(&self) -> &OpeningCards {
        &self.openings
    }

    /// The saver's copy of the opening cards, after each change it reports.
    pub fn set_openings(&mut self, cards: OpeningCards) {
        self.openings = cards;
    }

    /// Their progress in the endgame lessons.
    pub fn endgames(&self) -> &EndgameProgress {
        &self.endgames
    }

    /// The saver's copy of the endgame progress, after each change it reports.
    pub fn set_endgames(&mut self, progress: EndgameProgress) {
        self.endgames = progress;
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
