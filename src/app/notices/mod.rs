//! The notice bar's queue: what the status bar's one line of warnings and news shows.
//!
//! Several things want that line at once (a battery warning, a failed save, a rating change),
//! so notices are kept by topic and the most urgent one is shown: critical battery above
//! everything, then warnings (low battery, errors), then information. A warning stays as long
//! as its condition holds and goes when the condition ends; information goes by itself after
//! [`INFO_FOR`]. The critical countdown counts. Pure logic with the time passed in, so it is
//! tested without a window or a clock.

pub mod bar;

use crate::tr;
use std::time::{Duration, Instant};

use crate::battery::{BatteryEvent, BatteryFault, BatteryLevel, BatteryStatus};

/// How long information (a rating change, an export done) stays on screen.
pub const INFO_FOR: Duration = Duration::from_secs(6);

/// How urgent a notice is; the most urgent one is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    Info,
    Warning,
    Critical,
}

/// What a notice is about. A topic has at most one notice: a newer one replaces it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    /// The battery is empty: the countdown to switching off, or switching off now.
    BatteryCritical,
    /// The shutdown command failed or is running.
    Shutdown,
    BatteryLow,
    BatteryFault,
    /// The game could not be saved (or saving is slow).
    Saving,
    /// Something the player asked for failed (a setting not stored, an export); stays until
    /// dismissed or replaced.
    Error,
    /// Games are being copied to a USB stick.
    Export,
    /// News that goes by itself.
    Info,
}

impl Topic {
    fn priority(self) -> Priority {
        match self {
            Topic::BatteryCritical | Topic::Shutdown => Priority::Critical,
            Topic::BatteryLow | Topic::BatteryFault | Topic::Saving | Topic::Error => {
                Priority::Warning
            }
            Topic::Info | Topic::Export => Priority::Info,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Text {
    Fixed(String),
    /// "Switching off in N s", N counted down to the deadline.
    SwitchingOffAt(Instant),
}

#[derive(Debug, Clone)]
struct Entry {
    topic: Topic,
    text: Text,
    /// Raise order: among equals the newest is shown.
    seq: u64,
    expires: Option<Instant>,
    dismissed: bool,
}

/// The notice on screen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub text: String,
    pub priority: Priority,
}

/// The queue of notices.
#[derive(Debug, Default)]
pub struct Notices {
    entries: Vec<Entry>,
    seq: u64,
}

impl Notices {
    pub fn new() -> Notices {
        Notices::default()
    }

    fn put(&mut self, topic: Topic, text: Text, expires: Option<Instant>) {
        self.seq += 1;
        let seq = self.seq;
        match self.entries.iter_mut().find(|e| e.topic == topic) {
            Some(e) => {
                // The same words again (a repeated reading) do not bring back a dismissed notice.
                if e.text != text {
                    e.dismissed = false;
                    e.seq = seq;
                }
                e.text = text;
                e.expires = expires;
            }
            None => self.entries.push(Entry {
                topic,
                text,
                seq,
                expires,
                dismissed: false,
            }),
        }
    }

    /// Shows `text` for `topic` until [`Notices::clear`] (or a tap, for what can be dismissed).
    pub fn raise(&mut self, topic: Topic, text: impl Into<String>) {
        self.put(topic, Text::Fixed(text.into()), None);
    }

    /// Shows information that goes by itself after [`INFO_FOR`].
    pub fn inform(&mut self, text: impl Into<String>, now: Instant) {
        // News replaces older news: each is shown whole or not at all.
        self.entries.retain(|e| e.topic != Topic::Info);
        self.put(Topic::Info, Text::Fixed(text.into()), Some(now + INFO_FOR));
    }

    /// The condition behind `topic` has ended.
    pub fn clear(&mut self, topic: Topic) {
        self.entries.retain(|e| e.topic != topic);
    }

    /// A tap on the notice: it goes, unless it is critical (the device is about to switch off:
    /// that must stay on screen). A dismissed warning comes back if its words change.
    pub fn dismiss(&mut self, now: Instant) {
        let Some(i) = self.shown_index(now) else {
            return;
        };
        if self.entries[i].topic.priority() < Priority::Critical {
            self.entries[i].dismissed = true;
        }
    }

    fn shown_index(&self, now: Instant) -> Option<usize> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.dismissed && e.expires.is_none_or(|t| t > now))
            .max_by_key(|(_, e)| (e.topic.priority(), e.seq))
            .map(|(i, _)| i)
    }

    /// What the notice bar shows at `now`.
    pub fn shown(&self, now: Instant) -> Option<Shown> {
        let e = &self.entries[self.shown_index(now)?];
        let text = match &e.text {
            Text::Fixed(t) => t.clone(),
            Text::SwitchingOffAt(deadline) => {
                let left = deadline.saturating_duration_since(now);
                let secs = left.as_millis().div_ceil(1000);
                tr!(
                    "Battery empty: the game is saved. Switching off in {} s unless charging.",
                    secs
                )
            }
        };
        Some(Shown {
            text,
            priority: e.topic.priority(),
        })
    }

    /// When the shown text may next change by itself (news expiring, the countdown's next
    /// second); `None` when nothing will, so an idle screen needs no timer.
    pub fn next_change(&self, now: Instant) -> Option<Instant> {
        let mut next: Option<Instant> = None;
        let mut consider = |t: Instant| {
            if t > now && next.is_none_or(|n| t < n) {
                next = Some(t);
            }
        };
        for e in self.entries.iter().filter(|e| !e.dismissed) {
            if let Some(t) = e.expires {
                consider(t);
            }
            if let Text::SwitchingOffAt(deadline) = e.text
                && deadline > now
            {
                // The next whole second before the deadline.
                let left = deadline - now;
                let fraction = Duration::from_nanos((left.as_nanos() % 1_000_000_000) as u64);
                consider(if fraction.is_zero() {
                    now + Duration::from_secs(1)
                } else {
                    now + fraction
                });
            }
        }
        next
    }

    /// Takes a battery event into account.
    pub fn battery(&mut self, event: &BatteryEvent, now: Instant) {
        match event {
            BatteryEvent::Changed(status) => {
                match status {
                    BatteryStatus::Fault(fault) => {
                        // The details are in the log; the screen says it in a player's words.
                        let why = match fault {
                            BatteryFault::InconsistentComparators { .. } => {
                                tr!("the battery sensors disagree")
                            }
                            BatteryFault::Reported(why) => why.clone(),
                        };
                        self.raise(Topic::BatteryFault, tr!("Battery level unknown: {}.", why));
                    }
                    BatteryStatus::Level(_) => self.clear(Topic::BatteryFault),
                }
                let recovered = matches!(
                    status.level(),
                    BatteryLevel::Medium | BatteryLevel::High | BatteryLevel::Full
                );
                if status.is_charging() || recovered {
                    self.clear(Topic::BatteryLow);
                }
            }
            BatteryEvent::LowWarning => {
                self.raise(
                    Topic::BatteryLow,
                    tr!("Battery low — connect the charger soon."),
                );
            }
            BatteryEvent::Critical { shutdown_in } => {
                self.put(
                    Topic::BatteryCritical,
                    Text::SwitchingOffAt(now + *shutdown_in),
                    None,
                );
            }
            BatteryEvent::CriticalCancelled => {
                self.clear(Topic::BatteryCritical);
                self.clear(Topic::Shutdown);
                self.inform(tr!("Charging — the device stays on."), now);
            }
            BatteryEvent::ShuttingDown => {
                self.raise(Topic::BatteryCritical, tr!("Battery empty: switching off…"));
            }
            // "Switching off…" would stay up forever: say what happened and what to do.
            BatteryEvent::ShutdownFailed(e) => {
                self.clear(Topic::BatteryCritical);
                self.raise(
                    Topic::Shutdown,
                    tr!(
                        "Battery empty, but switching off failed ({}). Connect the charger \
                         now; the game is saved.",
                        e
                    ),
                );
            }
            BatteryEvent::StillOn => {
                self.clear(Topic::BatteryCritical);
                self.raise(
                    Topic::Shutdown,
                    tr!(
                        "Battery empty, but the device did not switch off. Connect the \
                         charger now; the game is saved."
                    ),
                );
            }
            BatteryEvent::NoBoard => self.inform(
                tr!("No battery board found (battery.source): the battery level is not shown."),
                now,
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battery::BatteryReading;

    #[test]
    fn a_shutdown_that_did_not_happen_is_told_and_the_charger_ends_it() {
        let t0 = Instant::now();
        let mut n = Notices::default();
        n.battery(
            &BatteryEvent::Critical {
                shutdown_in: Duration::from_secs(30),
            },
            t0,
        );
        n.battery(&BatteryEvent::ShuttingDown, t0);
        assert!(text(&n, t0).contains("switching off…"));
        n.battery(&BatteryEvent::StillOn, t0);
        let said = text(&n, t0);
        assert!(said.contains("did not switch off"), "{said}");
        assert!(said.contains("charger"), "what to do: {said}");
        n.battery(&BatteryEvent::CriticalCancelled, t0);
        assert!(!text(&n, t0).contains("Battery empty"), "{}", text(&n, t0));
    }

    #[test]
    fn a_bare_pi_is_told_once_and_never_switched_off() {
        let t0 = Instant::now();
        let mut n = Notices::default();
        n.battery(&BatteryEvent::NoBoard, t0);
        let shown = n.shown(t0).expect("a notice");
        assert!(shown.text.contains("battery.source"), "{}", shown.text);
        assert_ne!(shown.priority, Priority::Critical);
        assert!(n.shown(t0 + INFO_FOR * 2).is_none(), "it goes by itself");
    }

    fn level(level: BatteryLevel, charging: bool) -> BatteryEvent {
        BatteryEvent::Changed(BatteryStatus::Level(BatteryReading {
            level,
            charging: Some(charging),
        }))
    }

    fn text(n: &Notices, now: Instant) -> String {
        n.shown(now).map(|s| s.text).unwrap_or_default()
    }

    #[test]
    fn critical_battery_stays_above_news_and_counts_down() {
        let t0 = Instant::now();
        let mut n = Notices::new();
        n.battery(
            &BatteryEvent::Critical {
                shutdown_in: Duration::from_secs(15),
            },
            t0,
        );
        assert!(text(&n, t0).contains("Switching off in 15 s"));
        // The game ends meanwhile: the rating change does not hide the countdown.
        n.inform("Your rating: 1200 → 1224", t0);
        let t4 = t0 + Duration::from_millis(4200);
        assert!(
            text(&n, t4).contains("Switching off in 11 s"),
            "{}",
            text(&n, t4)
        );
        // A tap does not hide it either.
        n.dismiss(t4);
        assert!(text(&n, t4).contains("Switching off in 11 s"));
        // The next change is the next whole second.
        assert_eq!(n.next_change(t4), Some(t0 + Duration::from_secs(5)));
        // Charging cancels it; the news it was hiding has gone by now, the charging news shows.
        let t7 = t0 + Duration::from_secs(7);
        n.battery(&BatteryEvent::CriticalCancelled, t7);
        assert_eq!(text(&n, t7), "Charging — the device stays on.");
        assert_eq!(text(&n, t7 + INFO_FOR), "");
        assert_eq!(n.next_change(t7 + INFO_FOR), None, "nothing left to time");
    }

    #[test]
    fn low_battery_comes_back_after_news_and_goes_when_charging() {
        let t0 = Instant::now();
        let mut n = Notices::new();
        n.battery(&level(BatteryLevel::Low, false), t0);
        n.battery(&BatteryEvent::LowWarning, t0);
        assert!(text(&n, t0).starts_with("Battery low"));
        n.inform("Your rating: 1200 → 1190", t0);
        // Warnings rank above news.
        assert!(text(&n, t0).starts_with("Battery low"));
        n.raise(Topic::Saving, "The game could not be saved: disk full");
        assert!(text(&n, t0).starts_with("The game could not be saved"));
        n.clear(Topic::Saving);
        assert!(text(&n, t0).starts_with("Battery low"));
        // Plugged in: the warning goes at once.
        n.battery(&level(BatteryLevel::Low, true), t0);
        assert_eq!(text(&n, t0), "Your rating: 1200 → 1190");
    }

    #[test]
    fn news_shows_when_nothing_more_urgent_and_goes_by_itself() {
        let t0 = Instant::now();
        let mut n = Notices::new();
        n.inform("3 games written to /media/usb", t0);
        assert_eq!(text(&n, t0), "3 games written to /media/usb");
        assert_eq!(n.next_change(t0), Some(t0 + INFO_FOR));
        assert_eq!(text(&n, t0 + INFO_FOR), "");
    }

    #[test]
    fn a_battery_rising_to_medium_clears_low_and_fault_goes_with_a_reading() {
        let t0 = Instant::now();
        let mut n = Notices::new();
        n.battery(&BatteryEvent::LowWarning, t0);
        n.battery(&level(BatteryLevel::Medium, false), t0);
        assert_eq!(text(&n, t0), "");
        n.battery(
            &BatteryEvent::Changed(BatteryStatus::Fault(BatteryFault::Reported(
                "no reading".to_string(),
            ))),
            t0,
        );
        assert!(text(&n, t0).starts_with("Battery level unknown"));
        n.dismiss(t0);
        assert_eq!(text(&n, t0), "");
        n.battery(&level(BatteryLevel::High, false), t0);
        assert_eq!(text(&n, t0), "");
        assert!(n.entries.is_empty());
    }

    #[test]
    fn a_dismissed_warning_returns_only_when_its_words_change() {
        let t0 = Instant::now();
        let mut n = Notices::new();
        n.raise(Topic::Saving, "Saving is slow");
        n.dismiss(t0);
        n.raise(Topic::Saving, "Saving is slow");
        assert_eq!(text(&n, t0), "");
        n.raise(Topic::Saving, "The game could not be saved: disk full");
        assert!(text(&n, t0).starts_with("The game could not be saved"));
    }
}
