//! The computer as a source of moves: what it is asked (its move, a hint, a draw decision)
//! and what it answers. Requests leave as [`super::Effect::Think`]; stale answers are ignored.

use crate::app::screens::{Controller, Effect};
use crate::tr;
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

impl Controller {
    /// Whether the computer is searching for its move.
    pub fn is_computer_thinking(&self) -> bool {
        matches!(self.thinking, Some((_, Purpose::Move)))
    }

    /// The worker's answer to request `id`. Stale answers (after an undo, a new game, ...)
    /// are ignored.
    pub fn computer_answered(&mut self, id: u64, reply: Reply) {
        let Some((current, purpose)) = self.thinking else {
            return;
        };
        if current != id {
            return;
        }
        self.thinking = None;
        match (purpose, reply) {
            (Purpose::Move, Reply::Move(Some(mv))) => {
                let turn = self.game.position().turn();
                if self.setup.is_computer(turn) && self.game.play(mv).is_ok() {
                    self.after_change();
                }
            }
            (Purpose::Hint, Reply::Move(mv)) if self.human_to_move() => self.hint = mv,
            (Purpose::DrawOffer, Reply::Draw { accept: true }) => self.end_game(Game::agree_draw),
            (Purpose::DrawOffer, Reply::Draw { accept: false }) => {
                self.note = Some(tr!("The computer declines the draw — play on"));
            }
            (Purpose::Judge, Reply::Judged(judgement)) => self.coach_judged(judgement),
            (Purpose::Threat, Reply::Threat(threat)) => self.threat_found(threat),
            (Purpose::TrainJudge, Reply::Judged(judgement)) => self.train_judged(judgement),
            _ => {}
        }
    }

    /// Lets the computer play from its opening book, or not (from its next move on).
    pub fn set_book(&mut self, on: bool) {
        self.book = on;
    }

    /// Whether the computer plays from its opening book.
    pub fn book(&self) -> bool {
        self.book
    }

    pub(in crate::app::screens) fn request(&mut self, purpose: Purpose) {
        let id = self.next_request;
        self.next_request += 1;
        self.thinking = Some((id, purpose));
        let clock = match purpose {
            Purpose::Move => self.engine_clock(self.game.position().turn()),
            Purpose::Hint
            | Purpose::DrawOffer
            | Purpose::Judge
            | Purpose::Threat
            | Purpose::TrainJudge => None,
        };
        self.effects.push(Effect::Think(ThinkRequest {
            id,
            purpose,
            game: self.game.clone(),
            level: self.setup.level,
            clock,
            book: self.book,
        }));
    }

    pub(in crate::app::screens) fn cancel_thinking(&mut self) {
        if self.thinking.take().is_some() {
            self.effects.push(Effect::CancelThinking);
        }
    }

    /// Drops a hint and stops a search for one, or for a draw decision or a threat (the
    /// player moved on).
    pub(in crate::app::screens) fn cancel_hint(&mut self) {
        self.hint = None;
        if matches!(
            self.thinking,
            Some((_, Purpose::Hint | Purpose::DrawOffer | Purpose::Threat))
        ) {
            self.cancel_thinking();
        }
    }
}
