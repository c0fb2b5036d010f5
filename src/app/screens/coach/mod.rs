//! The coach in a game: each move of a person at the board is judged (on the computer's
//! thread, by `chesspi_engine::coach`) before the computer answers. A move the coach warns
//! about stops the game: the side panel says what is wrong, the board marks the squares,
//! and the player takes the move back, plays on, or asks to be shown the better move.
//! Games with the coach on are not rated, and the clocks stand while a move is judged or a
//! warning is open.

#[cfg(test)]
mod tests;
pub mod view;

use crate::app::model::mode::Mode;
use crate::app::screens::{Controller, Purpose};
use chesspi_engine::coach::{CoachLevel, Judgement};

/// The coach's state in the game on the board.
#[derive(Debug, Clone, Default)]
pub struct Coaching {
    level: CoachLevel,
    /// The last move judged: the number of moves then and the position's hash after it (a
    /// move taken back and played again differently is judged again).
    judged: Option<(usize, u64)>,
    advice: Option<Advice>,
}

/// A warning on screen.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    pub judgement: Box<Judgement>,
    /// "Show me" was tapped: the better move is drawn and explained.
    pub showing_better: bool,
}

impl Controller {
    /// How much the coach says in this game.
    pub fn coach_level(&self) -> CoachLevel {
        self.coaching.level
    }

    /// Sets the coach for this game. Switched on, the game is no longer rated; switched off,
    /// an open warning closes and the game goes on.
    pub fn set_coach_level(&mut self, level: CoachLevel) {
        self.coaching.level = level;
        if level.is_on() && self.coach_applies() {
            self.unrated = true;
        }
        if !level.is_on() && self.coaching.advice.take().is_some() {
            self.next_turn();
        }
    }

    /// The warning on screen, if any.
    pub fn coach_advice(&self) -> Option<&Advice> {
        self.coaching.advice.as_ref()
    }

    /// Whether a move is being judged.
    pub fn coach_is_judging(&self) -> bool {
        matches!(self.thinking, Some((_, Purpose::Judge)))
    }

    /// Whether the clocks wait for the coach: a move being judged, or a warning open.
    pub(in crate::app::screens) fn coach_holds_clock(&self) -> bool {
        self.coach_is_judging() || self.coaching.advice.is_some()
    }

    /// Whether the coach takes part in this kind of game: a person against the computer,
    /// or two at one screen.
    fn coach_applies(&self) -> bool {
        matches!(self.setup.mode, Mode::Computer { .. } | Mode::Friend)
    }

    /// After a change of the game: asks for the last move to be judged if a person at the
    /// board played it and it has not been judged. Returns whether it asked (the computer
    /// then waits for the judgement before it answers).
    pub(in crate::app::screens) fn coach_after_move(&mut self) -> bool {
        if self.coaching.advice.is_some() {
            // The game changed under the warning (a takeback, a new game): it no longer holds.
            self.coaching.advice = None;
        }
        if !self.coaching.level.is_on() || !self.coach_applies() || self.review.is_some() {
            return false;
        }
        let moves = self.game.moves().len();
        let Some(before) = moves.checked_sub(1).map(|i| self.game.positions()[i]) else {
            return false;
        };
        if !self.setup.is_human(before.turn()) {
            return false;
        }
        let key = (moves, self.game.position().hash());
        if self.coaching.judged == Some(key) {
            return false;
        }
        self.cancel_thinking();
        self.request(Purpose::Judge);
        true
    }

    /// The judgement of the last move arrived (`None`: it could not be judged).
    pub(in crate::app::screens) fn coach_judged(&mut self, judgement: Option<Box<Judgement>>) {
        let moves = self.game.moves().len();
        self.coaching.judged = Some((moves, self.game.position().hash()));
        match judgement {
            Some(judgement)
                if self.coaching.level.warns(judgement.verdict)
                    && moves > 0
                    && judgement.played == self.game.moves()[moves - 1] =>
            {
                self.selected = None;
                self.coaching.advice = Some(Advice {
                    judgement,
                    showing_better: false,
                });
            }
            _ => self.next_turn(),
        }
    }

    /// Take back: the position before the move, nothing else changed (the clocks included).
    pub(in crate::app::screens) fn coach_take_back(&mut self) {
        if self.coaching.advice.take().is_none() {
            return;
        }
        self.coaching.judged = None;
        self.cancel_thinking();
        self.game.undo();
        self.claim_offered_at = Some(self.game.moves().len());
        self.after_change();
    }

    /// Play on: the warning closes and the game goes on with the move.
    pub(in crate::app::screens) fn coach_play_on(&mut self) {
        if self.coaching.advice.take().is_some() {
            self.next_turn();
        }
    }

    /// Show me: the better move drawn on the board, and why it is better.
    pub(in crate::app::screens) fn coach_show_me(&mut self) {
        if let Some(advice) = &mut self.coaching.advice {
            advice.showing_better = true;
        }
    }

    /// A new game: nothing judged yet, no warning, at `level`.
    pub(in crate::app::screens) fn reset_coach(&mut self, level: CoachLevel) {
        self.coaching = Coaching {
            level,
            judged: None,
            advice: None,
        };
        if level.is_on() && self.coach_applies() {
            self.unrated = true;
        }
    }
}
