//! The computer as a source of moves: what it is asked (its move, a hint, a draw decision)
//! and what it answers. Requests leave as [`super::Effect::Think`]; stale answers are ignored.

use crate::app::screens::{Controller, Effect};
use crate::app::session::thinking::{Purpose, Reply, ThinkRequest};
use crate::tr;
use chesspi_engine::game::Game;

impl Controller {
    /// The worker's answer to request `id`. Stale answers (after an undo, a new game, ...)
    /// are ignored.
    pub fn computer_answered(&mut self, id: u64, reply: Reply) {
        let Some((current, purpose)) = self.session.thinking else {
            return;
        };
        if current != id {
            return;
        }
        self.session.thinking = None;
        match (purpose, reply) {
            (Purpose::Move, Reply::Move(Some(mv))) => {
                let turn = self.session.game.position().turn();
                if self.session.setup.is_computer(turn) && self.session.game.play(mv).is_ok() {
                    self.after_change();
                }
            }
            (Purpose::Hint, Reply::Move(mv)) if self.human_to_move() => self.session.hint = mv,
            (Purpose::DrawOffer, Reply::Draw { accept: true }) => {
                let ended = self.session.end_game(Game::agree_draw);
                if ended {
                    self.after_change();
                }
            }
            (Purpose::DrawOffer, Reply::Draw { accept: false }) => {
                self.session.note = Some(tr!("The computer declines the draw — play on"));
            }
            (Purpose::Judge, Reply::Judged(judgement)) => self.coach_judged(judgement),
            (Purpose::Threat, Reply::Threat(threat)) => self.threat_found(threat),
            (Purpose::TrainJudge, Reply::Judged(judgement)) => self.train_judged(judgement),
            _ => {}
        }
    }

    /// Whether the computer plays from its opening book.
    pub fn book(&self) -> bool {
        self.settings.book
    }

    pub(in crate::app::screens) fn request(&mut self, purpose: Purpose) {
        let id = self.session.next_request;
        self.session.next_request += 1;
        self.session.thinking = Some((id, purpose));
        let clock = match purpose {
            Purpose::Move => self
                .session
                .engine_clock(self.session.game.position().turn()),
            Purpose::Hint
            | Purpose::DrawOffer
            | Purpose::Judge
            | Purpose::Threat
            | Purpose::TrainJudge => None,
        };
        self.session.effect(Effect::Think(ThinkRequest {
            id,
            purpose,
            game: self.session.game.clone(),
            level: self.session.setup.level,
            clock,
            book: self.settings.book,
        }));
    }

    pub(in crate::app::screens) fn cancel_thinking(&mut self) {
        if self.session.thinking.take().is_some() {
            self.session.effect(Effect::CancelThinking);
        }
    }

    /// Drops a hint and stops a search for one, or for a draw decision or a threat (the
    /// player moved on).
    pub(in crate::app::screens) fn cancel_hint(&mut self) {
        self.session.hint = None;
        if matches!(
            self.session.thinking,
            Some((_, Purpose::Hint | Purpose::DrawOffer | Purpose::Threat))
        ) {
            self.cancel_thinking();
        }
    }
}
