//! The clocks of the game on the board, as the game keeps them: the two clocks, the move they
//! were last brought up to date at (a move presses them, a takeback hands them back), and
//! whether the player's clock waits for a touch of the board (brought back after a restart
//! or for Play on).

use crate::app::model::clock::{GameClock, TimeControl};
use crate::lan::session::LanClock;
use chesspi_engine::Color;
use chesspi_engine::search::Clock;
use std::time::{Duration, Instant};

/// A timed game's clocks (none for an untimed game), kept in step with its moves.
#[derive(Debug, Clone, Default)]
pub struct Clocks {
    clock: Option<GameClock>,
    /// Moves on the board when the clocks were last brought up to date.
    ply: usize,
    /// Clocks brought back (a restart, Play on) wait for the player's first touch of the
    /// board before the player's clock runs again.
    held: bool,
}

impl Clocks {
    pub fn clock(&self) -> Option<&GameClock> {
        self.clock.as_ref()
    }

    pub fn clock_mut(&mut self) -> Option<&mut GameClock> {
        self.clock.as_mut()
    }

    /// New clocks (or none) for a game with `ply` moves on the board; they are not held.
    pub fn set(&mut self, clock: Option<GameClock>, ply: usize) {
        self.clock = clock;
        self.ply = ply;
        self.held = false;
    }

    /// Clocks put right after a move at `ply` (a network partner's time, as reported).
    pub fn replace(&mut self, clock: GameClock, ply: usize) {
        self.clock = Some(clock);
        self.ply = ply;
    }

    /// The player's clock waits for a touch of the board (a timed game not over).
    pub fn hold(&mut self, game_over: bool) {
        self.held = self.clock.is_some() && !game_over;
    }

    /// The player is back at the board: a held clock may run again.
    pub fn release(&mut self) {
        self.held = false;
    }

    /// Whether the clocks wait for the player's touch of the board.
    pub fn is_held(&self) -> bool {
        self.held
    }

    /// Brings the clocks up to `ply` moves with `turn` to move: a move presses the mover's
    /// clock (its increment, the other side's clock starts), a takeback hands the clock to
    /// the side to move; then the side to move's clock runs if it `may_run`, else both stand.
    pub fn sync(&mut self, ply: usize, turn: Color, may_run: bool, now: Instant) {
        let Some(clock) = self.clock.as_mut() else {
            return;
        };
        if ply == self.ply + 1 {
            clock.moved(!turn, now);
        } else if ply < self.ply {
            clock.taken_back(ply);
        }
        self.ply = ply;
        if may_run {
            clock.run(turn, now);
        } else {
            clock.pause(now);
        }
    }

    /// What the computer's search gets of the clock: its own time and increment.
    pub fn engine_clock(&self, color: Color) -> Option<Clock> {
        let clock = self.clock.as_ref()?;
        Some(Clock {
            remaining: clock.remaining(color, Instant::now()),
            increment: clock.control().increment,
            moves_to_go: None,
        })
    }

    /// The clocks of the network game on the board, as the protocol carries them.
    pub fn lan_clock(&self, now: Instant) -> Option<LanClock> {
        let c = self.clock.as_ref()?;
        Some(LanClock {
            base: c.control().base,
            increment: c.control().increment,
            white: c.remaining(Color::White, now),
            black: c.remaining(Color::Black, now),
        })
    }

    /// The player's time left after the last of `moves` moves, just made, to send with it.
    pub fn after_last_move(&self, moves: usize) -> Option<Duration> {
        let c = self.clock.as_ref()?;
        (c.after_moves().len() == moves)
            .then(|| c.after_moves().last().copied())
            .flatten()
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
