//! The game's clocks: which one runs, the increment after a move, the flag, and the pause
//! while the player is away from the board (Menu, New game, a blank screen).

use crate::app::screens::{Controller, ScreenKind};
use std::time::Instant;

impl Controller {
    /// Whether the game on the board has a clock running now: worth saving between moves
    /// (a saved game under review is not that game, even while a network clock runs on).
    pub fn clock_runs_for_the_game(&self) -> bool {
        self.session
            .clock
            .as_ref()
            .is_some_and(|k| k.running().is_some())
            && !self.session.game.is_over()
            && self.parts.viewing.is_none()
    }

    /// Whether the player's clock waits for a touch of the board (see [`Self::hold_clock`]).
    pub fn clock_is_held(&self) -> bool {
        self.session.clock_held && self.session.partner().is_none() && self.human_to_move()
    }

    /// Whether the clock may run now: a game under way with the player at the board.
    fn clock_may_run(&self, asleep: bool) -> bool {
        !asleep
            // Screens that take the player away from the board.
            && !matches!(
                self.screen.kind(),
                ScreenKind::SavedGames | ScreenKind::Help | ScreenKind::Wifi
            )
            && !self.clock_is_held()
            && !self.coach_holds_clock()
            && !self.session.game.is_over()
            && self.parts.viewing.is_none()
            && self.screen.new_game().is_none()
            && self.screen.lobby().is_none()
            && self.screen.kind() != ScreenKind::Editor
            && self.screen.analysis_board().is_none()
            && self.screen.kind() != ScreenKind::Train
            && !matches!(
                self.dialog,
                Some(
                    crate::app::screens::Dialog::Menu
                        | crate::app::screens::Dialog::Settings
                        | crate::app::screens::Dialog::About
                        | crate::app::screens::Dialog::ConfirmShutdown
                        | crate::app::screens::Dialog::SavedGame(_)
                        | crate::app::screens::Dialog::ConfirmDelete(_)
                        | crate::app::screens::Dialog::Info { .. }
                )
            )
    }

    /// Brings the clocks up to date after any change: a move presses the mover's clock (its
    /// increment, the other side's clock starts), a takeback hands the clock to the side to
    /// move, and the clock pauses while the screen is `asleep` (dimmed or dark) or the player
    /// is away from the board (Menu, New game, Saved games, Help, Wi-Fi).
    pub fn sync_clock(&mut self, now: Instant, asleep: bool) {
        let may_run = crate::app::session::partner::clock::may_run(&self.session, now)
            .unwrap_or_else(|| self.clock_may_run(asleep));
        let ply = self.session.game.moves().len();
        let turn = self.session.game.position().turn();
        let Some(clock) = self.session.clock.as_mut() else {
            return;
        };
        if ply == self.session.clock_ply + 1 {
            clock.moved(!turn, now);
        } else if ply < self.session.clock_ply {
            clock.taken_back(ply);
        }
        self.session.clock_ply = ply;
        if may_run {
            clock.run(turn, now);
        } else {
            clock.pause(now);
        }
    }

    /// The clock's heartbeat: a fallen flag ends the game ("White wins on time", or a draw
    /// when the other side cannot mate by any sequence of legal moves).
    pub fn clock_tick(&mut self, now: Instant) {
        if let Some(ended) = crate::app::session::partner::clock::tick(&mut self.session, now) {
            if ended {
                self.after_change();
            }
            return;
        }
        let Some(color) = self.session.clock.as_ref().and_then(|c| c.flagged(now)) else {
            return;
        };
        if !self.session.game.is_over() && self.session.game.flag(color).is_ok() {
            self.cancel_thinking();
            if let Some(c) = self.session.clock.as_mut() {
                c.pause(now);
            }
            self.after_change();
        }
    }
}
