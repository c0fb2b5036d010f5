//! The computer's answers reaching the game screen. What the computer is asked and what an
//! answer does to the game are the session's (`session/turns.rs`, `session/thinking.rs`);
//! the controller keeps only the shell's entry point, for what an answer needs beyond the
//! game: the board's touches, a claimable draw's dialog, Train.

use crate::app::screens::Controller;
use crate::app::session::thinking::Reply;
use crate::app::session::turns::Answered;

impl Controller {
    /// The worker's answer to request `id` (the shell's entry point). Stale answers (after an
    /// undo, a new game, ...) are ignored.
    pub fn computer_answered(&mut self, id: u64, reply: Reply) {
        match self.session.answered(id, reply) {
            Answered::Taken => {}
            Answered::Changed => self.after_change(),
            Answered::GoesOn => self.next_turn(),
            Answered::Warned => self.parts.play.input.deselect(),
            Answered::Train(judgement) => self.train_judged(judgement),
            Answered::Endgame(reply) => self.endgame_answered(reply),
        }
    }
}
