//! Chess clocks: a time control (minutes + Fischer increment) and the two clocks of a game.
//!
//! Pure arithmetic with the time passed in, so it is tested without waiting. The running clock
//! is kept as "time left when it started" plus the instant it started; pausing banks what was
//! used. The clock does not run while the game is paused (Menu, a blank screen, the device off).

use chesspi_engine::Color;
use std::time::{Duration, Instant};

/// Minutes + seconds added after each move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeControl {
    pub base: Duration,
    pub increment: Duration,
}

impl TimeControl {
    /// The presets New game offers, in minutes and seconds of increment.
    pub const PRESETS: [(u64, u64); 6] = [(1, 0), (3, 2), (5, 3), (10, 5), (15, 10), (30, 0)];
    /// Custom controls: 1-180 minutes, 0-60 s increment.
    pub const MINUTES: std::ops::RangeInclusive<u64> = 1..=180;
    pub const INCREMENT: std::ops::RangeInclusive<u64> = 0..=60;

    /// `minutes + seconds`, if within the custom ranges.
    pub fn new(minutes: u64, increment_secs: u64) -> Option<TimeControl> {
        (Self::MINUTES.contains(&minutes) && Self::INCREMENT.contains(&increment_secs)).then(|| {
            TimeControl {
                base: Duration::from_secs(minutes * 60),
                increment: Duration::from_secs(increment_secs),
            }
        })
    }

    /// This control's index in [`TimeControl::PRESETS`], if it is one.
    pub fn preset(&self) -> Option<usize> {
        Self::PRESETS
            .iter()
            .position(|&(m, s)| TimeControl::new(m, s) == Some(*self))
    }

    /// "5+3", as players say it.
    pub fn label(&self) -> String {
        format!("{}+{}", self.base.as_secs() / 60, self.increment.as_secs())
    }

    /// The PGN `TimeControl` tag: "300+3" (seconds + increment).
    pub fn pgn(&self) -> String {
        format!("{}+{}", self.base.as_secs(), self.increment.as_secs())
    }

    /// Reads a PGN `TimeControl` tag back ("300+3"; "300" without increment).
    pub fn from_pgn(text: &str) -> Option<TimeControl> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        Some(TimeControl {
            base: Duration::from_secs(base.parse().ok()?),
            increment: Duration::from_secs(inc.parse().ok()?),
        })
    }
}

/// The two clocks of a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameClock {
    control: TimeControl,
    /// Time left for White and Black, as of the last bank.
    left: [Duration; 2],
    /// The side whose clock runs, and since when.
    running: Option<(Color, Instant)>,
    /// The mover's time left after each move (for the PGN's `%clk`).
    after_moves: Vec<Duration>,
}

impl GameClock {
    /// Both clocks full, stopped.
    pub fn new(control: TimeControl) -> GameClock {
        GameClock {
            control,
            left: [control.base; 2],
            running: None,
            after_moves: Vec::new(),
        }
    }

    /// Clocks restored from a save, stopped.
    pub fn restore(
        control: TimeControl,
        white: Duration,
        black: Duration,
        after_moves: Vec<Duration>,
    ) -> GameClock {
        GameClock {
            control,
            left: [white, black],
            running: None,
            after_moves,
        }
    }

    /// The mover's time left after each move of the game.
    pub fn after_moves(&self) -> &[Duration] {
        &self.after_moves
    }

    /// A takeback: the clock history goes back to `plies` moves (the times themselves stay
    /// as they are, as on a real clock).
    pub fn taken_back(&mut self, plies: usize) {
        self.after_moves.truncate(plies);
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// Time left for `color` at `now`.
    pub fn remaining(&self, color: Color, now: Instant) -> Duration {
        let left = self.left[color.index()];
        match self.running {
            Some((c, since)) if c == color => {
                left.saturating_sub(now.saturating_duration_since(since))
            }
            _ => left,
        }
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(c, _)| c)
    }

    /// Stops the running clock, keeping what it used.
    pub fn pause(&mut self, now: Instant) {
        if let Some((color, _)) = self.running {
            self.left[color.index()] = self.remaining(color, now);
            self.running = None;
        }
    }

    /// Runs `color`'s clock (stopping the other's).
    pub fn run(&mut self, color: Color, now: Instant) {
        if self.running() == Some(color) {
            return;
        }
        self.pause(now);
        self.running = Some((color, now));
    }

    /// `color` finished a move: its clock stops and gains the increment (unless it had
    /// already run out), and the opponent's clock runs.
    pub fn moved(&mut self, color: Color, now: Instant) {
        self.pause(now);
        let left = &mut self.left[color.index()];
        if !left.is_zero() {
            *left += self.control.increment;
        }
        self.after_moves.push(*left);
        self.running = Some((!color, now));
    }

    /// The side whose time is up at `now`.
    pub fn flagged(&self, now: Instant) -> Option<Color> {
        self.running
            .map(|(c, _)| c)
            .filter(|&c| self.remaining(c, now).is_zero())
    }

    /// When the display next changes by itself: tenths under 10 s, else whole seconds.
    pub fn next_change(&self, now: Instant) -> Option<Duration> {
        let (color, _) = self.running?;
        let left = self.remaining(color, now);
        let unit = if left <= LOW_TIME {
            Duration::from_millis(100)
        } else {
            Duration::from_secs(1)
        };
        let into = Duration::from_nanos((left.as_nanos() % unit.as_nanos()) as u64);
        Some(if into.is_zero() { unit } else { into })
    }
}

/// Time left below this is short: the clock shows tenths and turns red (and the sound of the
/// last seconds starts here).
pub const LOW_TIME: Duration = Duration::from_secs(10);

/// "4:57", "1:02:03", and "0:09.4" with tenths under 10 s ("0:09,4" in German).
pub fn clock_text(left: Duration) -> String {
    if left < LOW_TIME {
        let tenths = (left.as_millis() / 100) as i64;
        return format!("0:0{}", crate::i18n::decimal(tenths));
    }
    // Whole seconds round up, as on a chess clock: a fresh 5-minute clock reads 5:00.
    let secs = left.as_millis().div_ceil(1000) as u64;
    if secs >= 3600 {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    #[test]
    fn increments_pauses_and_the_flag() {
        let t0 = Instant::now();
        let control = TimeControl::new(1, 2).expect("1+2");
        let mut c = GameClock::new(control);
        c.run(Color::White, t0);
        // White uses 10 s and gains 2.
        c.moved(Color::White, t0 + s(10));
        assert_eq!(c.remaining(Color::White, t0 + s(10)), s(52));
        assert_eq!(c.running(), Some(Color::Black));
        // Black thinks 5 s, the game is paused for a minute, Black thinks 5 s more.
        c.pause(t0 + s(15));
        assert_eq!(
            c.remaining(Color::Black, t0 + s(75)),
            s(55),
            "paused time is free"
        );
        c.run(Color::Black, t0 + s(75));
        c.moved(Color::Black, t0 + s(80));
        assert_eq!(c.remaining(Color::Black, t0 + s(80)), s(52));
        // White lets the clock run out.
        assert_eq!(c.flagged(t0 + s(131)), None);
        assert_eq!(c.flagged(t0 + s(132)), Some(Color::White));
        assert_eq!(c.remaining(Color::White, t0 + s(500)), Duration::ZERO);
        // No increment is added to a fallen flag.
        c.moved(Color::White, t0 + s(140));
        assert_eq!(c.remaining(Color::White, t0 + s(140)), Duration::ZERO);
    }

    #[test]
    fn controls_and_texts() {
        assert_eq!(TimeControl::new(0, 0), None);
        assert_eq!(TimeControl::new(181, 0), None);
        assert_eq!(TimeControl::new(5, 61), None);
        let c = TimeControl::new(5, 3).expect("5+3");
        assert_eq!(
            (c.label(), c.pgn()),
            ("5+3".to_string(), "300+3".to_string())
        );
        assert_eq!(TimeControl::from_pgn("300+3"), Some(c));
        assert_eq!(TimeControl::from_pgn("60"), TimeControl::new(1, 0));
        assert_eq!(TimeControl::from_pgn("x+1"), None);
        assert_eq!(clock_text(s(297)), "4:57");
        assert_eq!(clock_text(Duration::from_millis(296_100)), "4:57");
        assert_eq!(clock_text(s(3723)), "1:02:03");
        assert_eq!(clock_text(Duration::from_millis(9_450)), "0:09.4");
        assert_eq!(clock_text(Duration::ZERO), "0:00.0");
    }

    #[test]
    fn the_display_changes_each_second_then_each_tenth() {
        let t0 = Instant::now();
        let mut c = GameClock::new(TimeControl::new(1, 0).expect("1+0"));
        assert_eq!(c.next_change(t0), None, "a stopped clock needs no timer");
        c.run(Color::White, t0);
        assert_eq!(
            c.next_change(t0 + Duration::from_millis(300)),
            Some(Duration::from_millis(700))
        );
        let late = t0 + s(55);
        assert_eq!(c.next_change(late), Some(Duration::from_millis(100)));
    }
}
