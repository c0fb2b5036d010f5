//! The game's clocks: which one runs, the increment after a move, the flag, and the pause
//! while the player is away from the board (Menu, New game, a blank screen).

use crate::app::model::clock::{GameClock, TimeControl};
use crate::app::screens::Controller;
use chesspi_engine::Color;
use chesspi_engine::search::Clock;
use std::time::{Duration, Instant};

impl Controller {
    /// The clocks of the game on the board, if it has any.
    pub fn clock(&self) -> Option<&GameClock> {
        self.clock.as_ref()
    }

    /// Whether the game on the board has a clock running now: worth saving between moves
    /// (a saved game under review is not that game, even while a network clock runs on).
    pub fn clock_runs_for_the_game(&self) -> bool {
        self.clock.as_ref().is_some_and(|k| k.running().is_some())
            && !self.game.is_over()
            && self.viewing.is_none()
    }

    /// Gives the game on the board these clocks (a new timed game, or restored ones).
    pub fn set_clock(&mut self, clock: Option<GameClock>) {
        self.clock = clock;
        self.clock_ply = self.game.moves().len();
        self.clock_held = false;
    }

    /// Clocks brought back after a restart or for Play on: the player's clock waits, paused,
    /// until the player touches the board (the computer's runs while it thinks).
    pub fn hold_clock(&mut self) {
        self.clock_held = self.clock.is_some() && !self.game.is_over();
    }

    /// Whether the player's clock waits for a touch of the board (see [`Self::hold_clock`]).
    pub fn clock_is_held(&self) -> bool {
        self.clock_held && self.partner().is_none() && self.human_to_move()
    }

    /// Whether the clock may run now: a game under way with the player at the board.
    fn clock_may_run(&self, away: bool) -> bool {
        !away
            && !self.clock_is_held()
            && !self.coach_holds_clock()
            && !self.game.is_over()
            && self.viewing.is_none()
            && self.screen.new_game().is_none()
            && self.screen.lobby().is_none()
            && self.screen.editor().is_none()
            && self.screen.analysis_board().is_none()
            && self.screen.kind() != crate::app::screens::ScreenKind::Train
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
    /// move, and the clock pauses while the player is `away` (a screen the shell shows: the
    /// saved games list, a blank screen) or away from the board here (Menu, New game).
    pub fn sync_clock(&mut self, now: Instant, away: bool) {
        let may_run = self
            .network_clock_may_run(now)
            .unwrap_or_else(|| self.clock_may_run(away));
        let ply = self.game.moves().len();
        let turn = self.game.position().turn();
        let Some(clock) = self.clock.as_mut() else {
            return;
        };
        if ply == self.clock_ply + 1 {
            clock.moved(!turn, now);
        } else if ply < self.clock_ply {
            clock.taken_back(ply);
        }
        self.clock_ply = ply;
        if may_run {
            clock.run(turn, now);
        } else {
            clock.pause(now);
        }
    }

    /// The clock's heartbeat: a fallen flag ends the game ("White wins on time", or a draw
    /// when the other side cannot mate by any sequence of legal moves).
    pub fn clock_tick(&mut self, now: Instant) {
        if self.network_clock_tick(now) {
            return;
        }
        let Some(color) = self.clock.as_ref().and_then(|c| c.flagged(now)) else {
            return;
        };
        if !self.game.is_over() && self.game.flag(color).is_ok() {
            self.cancel_thinking();
            if let Some(c) = self.clock.as_mut() {
                c.pause(now);
            }
            self.after_change();
        }
    }

    /// What the computer's search gets of the clock: its own time and increment.
    pub(in crate::app::screens) fn engine_clock(&self, color: Color) -> Option<Clock> {
        let clock = self.clock.as_ref()?;
        Some(Clock {
            remaining: clock.remaining(color, Instant::now()),
            increment: clock.control().increment,
            moves_to_go: None,
        })
    }

    /// The remaining times to save: White's and Black's, and the control.
    pub fn clock_times(&self, now: Instant) -> Option<(Duration, Duration, TimeControl)> {
        let c = self.clock.as_ref()?;
        Some((
            c.remaining(Color::White, now),
            c.remaining(Color::Black, now),
            c.control(),
        ))
    }
}
