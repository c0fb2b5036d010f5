//! The computer as a source of moves: what it is asked (its move, a hint, a draw decision, a
//! judgement) and what it answers.

use chesspi_engine::Move;
use chesspi_engine::coach::{Judgement, Threat};
use chesspi_engine::game::Game;
use chesspi_engine::level::Level;

/// What the computer is asked to find.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Its own move.
    Move,
    /// A suggestion for the player.
    Hint,
    /// Whether to accept the player's draw offer.
    DrawOffer,
    /// The coach's judgement of the last move.
    Judge,
    /// What the side not on move threatens.
    Threat,
    /// The coach's judgement of a move tried on a puzzle (Train).
    TrainJudge,
}

/// The worker's answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A move (for [`Purpose::Move`] and [`Purpose::Hint`]); `None` when there is none.
    Move(Option<Move>),
    /// The computer's answer to a draw offer.
    Draw { accept: bool },
    /// The coach's judgement of the last move; `None` when it could not be judged.
    Judged(Option<Box<Judgement>>),
    /// What the side not on move threatens; `None`: nothing worth naming.
    Threat(Option<Threat>),
}

/// A search for the worker thread.
#[derive(Debug, Clone)]
pub struct ThinkRequest {
    pub id: u64,
    pub purpose: Purpose,
    pub game: Game,
    pub level: Level,
    /// In a timed game, the clock of the side the computer plays (for its own moves).
    pub clock: Option<chesspi_engine::search::Clock>,
    /// Whether the computer may play from its opening book (Settings).
    pub book: bool,
}
