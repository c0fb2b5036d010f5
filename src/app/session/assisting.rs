//! Assist's state in the game on the board: the setting's limit, the pieces touched in the
//! position on the board, the search asked for and its latest grades. What the game does
//! with it is `assist.rs`.

use chesspi_engine::coach::{AssistLimit, Grades};
use chesspi_engine::{Position, Square};

/// Assist's state in one game.
#[derive(Debug, Clone, Default)]
pub struct Assisting {
    pub(super) limit: AssistLimit,
    /// The position the touches and grades belong to: its ply and hash.
    pub(super) at: (usize, u64),
    /// The pieces touched there, in order, at most the limit.
    pub(super) touched: Vec<Square>,
    /// A touch past the limit there.
    pub(super) refused: bool,
    /// Counts the searches asked for: a report of an older one is dropped.
    pub(super) generation: u64,
    /// The latest grades of that position.
    pub(super) grades: Option<Grades>,
    /// Assist coloured a square in this game (it stays unrated).
    pub(super) helped: bool,
}

/// The search the shell should have the Assist worker run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssistRequest {
    pub generation: u64,
    pub position: Position,
    /// The game's positions' hashes up to and including `position`.
    pub history: Vec<u64>,
    /// The pieces touched there, in order: their moves near a band's edge are judged by the
    /// coach once the search is done.
    pub touched: Vec<Square>,
}

impl Assisting {
    /// The touches a move allowed now.
    pub fn limit(&self) -> AssistLimit {
        self.limit
    }

    /// The pieces touched this turn.
    pub fn touched(&self) -> &[Square] {
        &self.touched
    }

    /// Whether the last touch this turn was past the limit.
    pub fn refused(&self) -> bool {
        self.refused
    }

    /// Starts over when the position changed.
    pub(super) fn move_to(&mut self, at: (usize, u64)) {
        if self.at != at {
            self.at = at;
            self.touched.clear();
            self.refused = false;
            self.grades = None;
            self.generation += 1;
        }
    }
}
