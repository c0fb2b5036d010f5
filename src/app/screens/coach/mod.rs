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
use crate::tr;
use chesspi_engine::coach::{CoachLevel, Judgement, Threat};

/// The coach's state in the game on the board.
#[derive(Debug, Clone, Default)]
pub struct Coaching {
    level: CoachLevel,
    /// The last move judged: the number of moves then and the position's hash after it (a
    /// move taken back and played again differently is judged again).
    judged: Option<(usize, u64)>,
    advice: Option<Advice>,
    /// The opponent's threat shown, and the number of moves it is for.
    threat: Option<(usize, Threat)>,
    /// The player asked for the threat (Menu): "nothing" is said too.
    threat_asked: bool,
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
            self.session.unrated = true;
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
        matches!(self.session.thinking, Some((_, Purpose::Judge)))
    }

    /// Whether the clocks wait for the coach: a move being judged, or a warning open.
    pub(in crate::app::screens) fn coach_holds_clock(&self) -> bool {
        self.coach_is_judging() || self.coaching.advice.is_some()
    }

    /// Whether the coach takes part in this kind of game: a person against the computer,
    /// or two at one screen.
    fn coach_applies(&self) -> bool {
        matches!(
            self.session.setup.mode,
            Mode::Computer { .. } | Mode::Friend
        )
    }

    /// After a change of the game: asks for the last move to be judged if a person at the
    /// board played it and it has not been judged. Returns whether it asked (the computer
    /// then waits for the judgement before it answers).
    pub(in crate::app::screens) fn coach_after_move(&mut self) -> bool {
        if self.coaching.advice.is_some() {
            // The game changed under the warning (a takeback, a new game): it no longer holds.
            self.coaching.advice = None;
        }
        let moves = self.session.game.moves().len();
        if self
            .coaching
            .threat
            .as_ref()
            .is_some_and(|(at, _)| *at != moves)
        {
            self.coaching.threat = None;
        }
        if !self.coaching.level.is_on() || !self.coach_applies() || self.session.review.is_some() {
            return false;
        }
        let Some(before) = moves
            .checked_sub(1)
            .map(|i| self.session.game.positions()[i])
        else {
            return false;
        };
        if !self.session.setup.is_human(before.turn()) {
            return false;
        }
        let key = (moves, self.session.game.position().hash());
        if self.coaching.judged == Some(key) {
            return false;
        }
        self.cancel_thinking();
        self.request(Purpose::Judge);
        true
    }

    /// The judgement of the last move arrived (`None`: it could not be judged).
    pub(in crate::app::screens) fn coach_judged(&mut self, judgement: Option<Box<Judgement>>) {
        let moves = self.session.game.moves().len();
        self.coaching.judged = Some((moves, self.session.game.position().hash()));
        match judgement {
            Some(judgement)
                if self.coaching.level.warns(judgement.verdict)
                    && moves > 0
                    && judgement.played == self.session.game.moves()[moves - 1] =>
            {
                self.parts.play.input.deselect();
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
        self.session.game.undo();
        self.session.claim_offered_at = Some(self.session.game.moves().len());
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

    /// The opponent's threat shown on the board, if any.
    pub fn shown_threat(&self) -> Option<&Threat> {
        self.coaching
            .threat
            .as_ref()
            .filter(|(at, _)| *at == self.session.game.moves().len() && self.human_to_move())
            .map(|(_, threat)| threat)
    }

    /// Whether the player may ask what is threatened: a person on move, in a game against
    /// the computer or between two.
    pub(in crate::app::screens) fn can_ask_threat(&self) -> bool {
        // Not while the last move is judged (two players): the worker does one search.
        self.coach_applies()
            && self.human_to_move()
            && !self.session.game.position().is_check()
            && !self.coach_is_judging()
    }

    /// Whether the player's own question for the threat is being answered.
    pub(in crate::app::screens) fn coaching_asked_threat(&self) -> bool {
        self.coaching.threat_asked
    }

    /// Menu → What is threatened?
    pub(in crate::app::screens) fn ask_threat(&mut self) {
        if !self.can_ask_threat() {
            return;
        }
        self.cancel_hint();
        self.coaching.threat_asked = true;
        self.request(Purpose::Threat);
    }

    /// With the coach on, the opponent's move just played: look for its threat.
    pub(in crate::app::screens) fn coach_looks_for_threat(&mut self) {
        let moves = self.session.game.moves().len();
        let opponent_moved = moves.checked_sub(1).is_some_and(|i| {
            !self
                .session
                .setup
                .is_human(self.session.game.positions()[i].turn())
        });
        if self.coaching.level.is_on()
            && matches!(self.session.setup.mode, Mode::Computer { .. })
            && opponent_moved
            && self.can_ask_threat()
            && self.session.thinking.is_none()
        {
            self.coaching.threat_asked = false;
            self.request(Purpose::Threat);
        }
    }

    /// The threat search answered.
    pub(in crate::app::screens) fn threat_found(&mut self, threat: Option<Threat>) {
        let asked = std::mem::take(&mut self.coaching.threat_asked);
        match threat {
            Some(threat) => self.coaching.threat = Some((self.session.game.moves().len(), threat)),
            None if asked => self.session.note = Some(tr!("Nothing is threatened right now")),
            None => {}
        }
    }

    /// A new game (or one brought back) at `level`: no warning; the moves it starts with
    /// were played before, only new ones are judged.
    pub(in crate::app::screens) fn reset_coach(&mut self, level: CoachLevel) {
        self.coaching = Coaching {
            level,
            judged: Some((
                self.session.game.moves().len(),
                self.session.game.position().hash(),
            )),
            advice: None,
            threat: None,
            threat_asked: false,
        };
        if level.is_on() && self.coach_applies() {
            self.session.unrated = true;
        }
    }
}
