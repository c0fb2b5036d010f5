//! The idle timer: when to dim and blank the screen, and which touches only wake it.
//!
//! Pure logic: time is passed in, so tests use made-up instants. The I/O (evdev, backlight)
//! lives in `input.rs`, `backlight.rs` and `watcher.rs`.

use std::time::{Duration, Instant};

/// What the backlight shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScreenState {
    /// Normal brightness.
    Awake,
    /// Dimmed after the idle time.
    Dimmed,
    /// Backlight off.
    Blanked,
}

/// One thing the user did, as the idle timer needs to know it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputEvent {
    /// A finger touched the screen.
    TouchDown,
    /// The last finger left the screen.
    TouchUp,
    /// Any other activity: finger motion, a key press.
    Activity,
    /// The power key was pressed.
    PowerKey,
}

/// What the timer decided about one input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputOutcome {
    /// Ordinary input on an awake screen.
    Pass,
    /// The screen was dimmed or dark and wakes now. `swallowed` is true for a touch: that
    /// touch (until the finger lifts) must not reach the game.
    Wake {
        /// Whether the waking input was a touch that the UI must ignore.
        swallowed: bool,
    },
    /// The finger of a swallowed touch lifted: touches count again from the next one.
    SwallowEnded,
}

/// Idle times; `None` disables that step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdleSettings {
    /// Idle time before dimming.
    pub dim_after: Option<Duration>,
    /// Idle time before blanking (counted from the last activity, not from dimming).
    pub blank_after: Option<Duration>,
}

/// The idle state machine.
#[derive(Debug, Clone)]
pub struct IdleTimer {
    settings: IdleSettings,
    last_activity: Instant,
    state: ScreenState,
    swallowing: bool,
}

impl IdleTimer {
    /// A timer whose screen is awake with activity at `now`.
    pub fn new(settings: IdleSettings, now: Instant) -> Self {
        Self {
            settings,
            last_activity: now,
            state: ScreenState::Awake,
            swallowing: false,
        }
    }

    /// The current screen state.
    pub fn state(&self) -> ScreenState {
        self.state
    }

    /// Whether a touch starting now must be ignored by the game: the screen is not awake, or a
    /// waking touch has not lifted yet.
    pub fn blocks_touch(&self) -> bool {
        self.state != ScreenState::Awake || self.swallowing
    }

    /// Handles one input at `now`.
    pub fn input(&mut self, event: InputEvent, now: Instant) -> InputOutcome {
        self.last_activity = now;
        if event == InputEvent::TouchUp && self.swallowing {
            self.swallowing = false;
            // Lifting the finger is no wake-up of its own.
            self.state = ScreenState::Awake;
            return InputOutcome::SwallowEnded;
        }
        if self.state == ScreenState::Awake {
            return InputOutcome::Pass;
        }
        self.state = ScreenState::Awake;
        let swallowed = event == InputEvent::TouchDown;
        self.swallowing = swallowed;
        InputOutcome::Wake { swallowed }
    }

    /// When [`IdleTimer::poll`] next has something to do, `None` if never without input.
    pub fn next_deadline(&self) -> Option<Instant> {
        let dim = self.settings.dim_after.map(|d| self.last_activity + d);
        let blank = self.settings.blank_after.map(|d| self.last_activity + d);
        match self.state {
            // A finger resting on the screen is activity: no dimming under it.
            _ if self.swallowing => None,
            ScreenState::Awake => match (dim, blank) {
                (Some(d), Some(b)) => Some(d.min(b)),
                (d, b) => d.or(b),
            },
            ScreenState::Dimmed => blank,
            ScreenState::Blanked => None,
        }
    }

    /// Advances to `now`; returns the new state if the screen must change.
    pub fn poll(&mut self, now: Instant) -> Option<ScreenState> {
        if self.swallowing {
            return None;
        }
        let idle = now.saturating_duration_since(self.last_activity);
        let due = |after: Option<Duration>| after.is_some_and(|a| idle >= a);
        let next = if due(self.settings.blank_after) {
            ScreenState::Blanked
        } else if due(self.settings.dim_after) {
            ScreenState::Dimmed
        } else {
            ScreenState::Awake
        };
        // Only ever darker without input; waking is `input`'s job.
        let darker = matches!(
            (self.state, next),
            (
                ScreenState::Awake,
                ScreenState::Dimmed | ScreenState::Blanked
            ) | (ScreenState::Dimmed, ScreenState::Blanked)
        );
        if darker {
            self.state = next;
            Some(next)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);

    fn timer(t0: Instant) -> IdleTimer {
        IdleTimer::new(
            IdleSettings {
                dim_after: Some(60 * S),
                blank_after: Some(300 * S),
            },
            t0,
        )
    }

    #[test]
    fn dims_then_blanks_when_idle() {
        let t0 = Instant::now();
        let mut t = timer(t0);
        assert_eq!(t.next_deadline(), Some(t0 + 60 * S));
        assert_eq!(t.poll(t0 + 59 * S), None);
        assert_eq!(t.poll(t0 + 60 * S), Some(ScreenState::Dimmed));
        assert_eq!(t.poll(t0 + 61 * S), None);
        assert_eq!(t.next_deadline(), Some(t0 + 300 * S));
        assert_eq!(t.poll(t0 + 300 * S), Some(ScreenState::Blanked));
        assert_eq!(t.next_deadline(), None);
        assert_eq!(t.poll(t0 + 9999 * S), None);
    }

    #[test]
    fn activity_restarts_the_idle_time() {
        let t0 = Instant::now();
        let mut t = timer(t0);
        assert_eq!(
            t.input(InputEvent::TouchDown, t0 + 50 * S),
            InputOutcome::Pass
        );
        assert_eq!(
            t.input(InputEvent::TouchUp, t0 + 51 * S),
            InputOutcome::Pass
        );
        assert!(!t.blocks_touch());
        assert_eq!(t.poll(t0 + 100 * S), None);
        assert_eq!(t.poll(t0 + 111 * S), Some(ScreenState::Dimmed));
    }

    #[test]
    fn first_touch_after_dimming_only_wakes() {
        let t0 = Instant::now();
        let mut t = timer(t0);
        t.poll(t0 + 60 * S);
        assert!(t.blocks_touch());
        assert_eq!(
            t.input(InputEvent::TouchDown, t0 + 70 * S),
            InputOutcome::Wake { swallowed: true }
        );
        assert_eq!(t.state(), ScreenState::Awake);
        // Still blocked until the finger lifts, and no dimming under a resting finger.
        assert!(t.blocks_touch());
        assert_eq!(
            t.input(InputEvent::Activity, t0 + 71 * S),
            InputOutcome::Pass
        );
        assert_eq!(t.poll(t0 + 500 * S), None);
        assert_eq!(
            t.input(InputEvent::TouchUp, t0 + 72 * S),
            InputOutcome::SwallowEnded
        );
        assert!(!t.blocks_touch());
        // The next touch is a normal one.
        assert_eq!(
            t.input(InputEvent::TouchDown, t0 + 73 * S),
            InputOutcome::Pass
        );
    }

    #[test]
    fn blank_screen_wakes_on_a_key_without_swallowing() {
        let t0 = Instant::now();
        let mut t = timer(t0);
        t.poll(t0 + 300 * S);
        assert_eq!(t.state(), ScreenState::Blanked);
        assert_eq!(
            t.input(InputEvent::Activity, t0 + 400 * S),
            InputOutcome::Wake { swallowed: false }
        );
        assert!(!t.blocks_touch());
        assert_eq!(t.next_deadline(), Some(t0 + 460 * S));
    }

    #[test]
    fn disabled_steps_never_happen() {
        let t0 = Instant::now();
        let mut never = IdleTimer::new(
            IdleSettings {
                dim_after: None,
                blank_after: None,
            },
            t0,
        );
        assert_eq!(never.next_deadline(), None);
        assert_eq!(never.poll(t0 + 100_000 * S), None);
        let mut blank_only = IdleTimer::new(
            IdleSettings {
                dim_after: None,
                blank_after: Some(10 * S),
            },
            t0,
        );
        assert_eq!(blank_only.poll(t0 + 10 * S), Some(ScreenState::Blanked));
    }

    #[test]
    fn a_long_sleep_goes_straight_to_blank() {
        let t0 = Instant::now();
        let mut t = timer(t0);
        assert_eq!(t.poll(t0 + 1000 * S), Some(ScreenState::Blanked));
    }
}
