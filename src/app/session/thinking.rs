//! The computer as a source of moves: what it is asked (its move, a hint, a draw decision, a
//! judgement) and what it answers, and [`Thinking`]: the one search in progress, the ids that
//! tell a current answer from a stale one, and the hint found.

use chesspi_engine::Move;
use chesspi_engine::coach::{Judgement, Threat};
use chesspi_engine::endgame::Verdict;
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
    /// What the endgame tables say of an endgame lesson's positions (and, the first time,
    /// the tables built).
    EndgameProbe,
    /// The computer's answer in an endgame lesson at full strength (the tables' move where
    /// they cover the position), with what the tables say of the positions.
    EndgameMove,
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
    /// For an endgame lesson ([`Purpose::EndgameProbe`], [`Purpose::EndgameMove`]).
    Endgame(EndgameReply),
}

/// The worker's answer in an endgame lesson.
#[derive(Debug, Clone, PartialEq)]
pub struct EndgameReply {
    /// The computer's move; `None` when it was not asked for one or the game is over.
    pub reply: Option<Move>,
    /// What the tables say of each position of the lesson's game, from the start to the last
    /// (the reply's included), for the side to move there; `None` where they do not cover it.
    pub values: Vec<Option<Verdict>>,
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

/// The computer's search as the game knows it: the one in progress (the worker does one at a
/// time), the id the next one gets, and the hint the last search for one found.
#[derive(Debug, Clone)]
pub struct Thinking {
    /// The search in progress and what it is for.
    current: Option<(u64, Purpose)>,
    /// The id of the next search: an answer with another id is stale.
    next_id: u64,
    /// The move suggested to the player, shown until the position changes.
    hint: Option<Move>,
}

impl Default for Thinking {
    fn default() -> Thinking {
        Thinking {
            current: None,
            next_id: 1,
            hint: None,
        }
    }
}

impl Thinking {
    /// What the search in progress is for (`None`: the worker is idle).
    pub fn purpose(&self) -> Option<Purpose> {
        self.current.map(|(_, purpose)| purpose)
    }

    /// Whether a search is in progress.
    pub fn is_busy(&self) -> bool {
        self.current.is_some()
    }

    /// A search for `purpose` begins: its id, for the request and its answer.
    pub fn begin(&mut self, purpose: Purpose) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.current = Some((id, purpose));
        id
    }

    /// An id for work that is not the computer's search (the analysis's), from the same count.
    pub fn fresh_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Forgets the search in progress; `true` if there was one (the worker is told to stop).
    pub fn stop(&mut self) -> bool {
        self.current.take().is_some()
    }

    /// The answer to search `id`: what it was for, if it is the one in progress (which then
    /// ends); `None` for a stale answer.
    pub fn answered(&mut self, id: u64) -> Option<Purpose> {
        let (current, purpose) = self.current?;
        if current != id {
            return None;
        }
        self.current = None;
        Some(purpose)
    }

    /// The move suggested to the player, if any.
    pub fn hint(&self) -> Option<Move> {
        self.hint
    }

    pub fn set_hint(&mut self, hint: Option<Move>) {
        self.hint = hint;
    }
}
