//! The game's clocks as the screen stops them: the session keeps them in step with the game
//! and its flags (`session/clocks.rs`, `GameSession::sync_clock`, `clock_tick`); the
//! controller keeps the shell's entry points, for what only it knows: the network game's
//! clock (`network/clock.rs`), the screen or dialog that takes the player away from the
//! board (any screen but the game's, a dialog that [`Dialog::pauses_the_clock`]), a saved
//! game looked through.

use crate::app::screens::{Controller, Dialog, ScreenKind};
use std::time::Instant;

impl Controller {
    /// Whether the game on the board has a clock running now: worth saving between moves
    /// (a saved game under review is not that game, even while a network clock runs on).
    pub fn clock_runs_for_the_game(&self) -> bool {
        self.session.clock().is_some_and(|k| k.running().is_some())
            && !self.session.game.is_over()
            && !self.parts.viewing.is_viewing_saved()
    }

    /// Brings the clocks up to date after any change (see [`GameSession::sync_clock`]); they
    /// pause while the screen is `asleep` (dimmed or dark) or the player is away from the
    /// board.
    ///
    /// [`GameSession::sync_clock`]: crate::app::session::game::GameSession::sync_clock
    pub fn sync_clock(&mut self, now: Instant, asleep: bool) {
        // Every screen but the game's takes the player away from the board.
        let away = self.screen.kind() != ScreenKind::Game
            || self.parts.viewing.is_viewing_saved()
            || self.dialog.as_ref().is_some_and(Dialog::pauses_the_clock);
        let network = crate::app::session::partner::clock::may_run(&self.session, now);
        self.session.sync_clock(now, network, !asleep && !away);
    }

    /// The clock's heartbeat: a fallen flag ends the game (see
    /// [`GameSession::clock_tick`]; a network game's flags are its own).
    ///
    /// [`GameSession::clock_tick`]: crate::app::session::game::GameSession::clock_tick
    pub fn clock_tick(&mut self, now: Instant) {
        if let Some(ended) = crate::app::session::partner::clock::tick(&mut self.session, now) {
            if ended {
                self.after_change();
            }
            return;
        }
        if self.session.clock_tick(now) {
            self.after_change();
        }
    }
}
