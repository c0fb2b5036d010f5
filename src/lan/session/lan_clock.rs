//! The clocks of a timed LAN game as the protocol carries them.

use crate::lan::codec::ClockMsg;
use chesspi_engine::Color;
use std::time::Duration;

/// Longest time a peer may put on a clock: anything more is not a chess clock.
pub const MAX_CLOCK: Duration = Duration::from_secs(24 * 3600);

/// The clocks of a timed game, as the protocol carries them (`welcome`'s `clock`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LanClock {
    /// Each side's time at the start.
    pub base: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Time left now.
    pub white: Duration,
    pub black: Duration,
}

impl LanClock {
    /// Both clocks full.
    pub fn new(base: Duration, increment: Duration) -> LanClock {
        LanClock {
            base,
            increment,
            white: base,
            black: base,
        }
    }

    pub(crate) fn to_msg(self) -> ClockMsg {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        ClockMsg {
            base: ms(self.base),
            increment: ms(self.increment),
            white: ms(self.white),
            black: ms(self.black),
        }
    }

    /// A peer's clock, checked: a base above zero and nothing above [`MAX_CLOCK`].
    ///
    /// # Errors
    /// What is wrong, in words.
    pub fn from_msg(m: &ClockMsg) -> Result<LanClock, String> {
        let limit = u64::try_from(MAX_CLOCK.as_millis()).unwrap_or(u64::MAX);
        if m.base == 0
            || [m.base, m.increment, m.white, m.black]
                .iter()
                .any(|&v| v > limit)
        {
            return Err(format!("clock out of range: {m:?}"));
        }
        Ok(LanClock {
            base: Duration::from_millis(m.base),
            increment: Duration::from_millis(m.increment),
            white: Duration::from_millis(m.white),
            black: Duration::from_millis(m.black),
        })
    }

    /// Time left for `color`.
    pub fn left(&self, color: Color) -> Duration {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    pub(super) fn set_left(&mut self, color: Color, left: Duration) {
        match color {
            Color::White => self.white = left,
            Color::Black => self.black = left,
        }
    }
}
