//! Debounce and hysteresis: a new status is shown only once it has held long enough, and a rise
//! while not charging must hold longer (a battery's voltage recovers when the load drops).

use std::time::{Duration, Instant};

use super::BatteryStatus;

/// Turns raw readings into the status shown on screen. Pure: time comes from the caller, so it
/// is tested with made-up instants.
#[derive(Debug, Clone)]
pub struct LevelFilter {
    debounce: Duration,
    rise_delay: Duration,
    shown: Option<BatteryStatus>,
    candidate: Option<(BatteryStatus, Instant)>,
}

impl LevelFilter {
    /// A filter that needs `debounce` for any change and at least `rise_delay` for a higher level
    /// without a charger.
    pub fn new(debounce: Duration, rise_delay: Duration) -> Self {
        Self {
            debounce,
            rise_delay,
            shown: None,
            candidate: None,
        }
    }

    /// The status currently shown, `None` before the first one settled.
    pub fn shown(&self) -> Option<&BatteryStatus> {
        self.shown.as_ref()
    }

    /// How long `next` must hold before it replaces what is shown.
    fn hold_time(&self, next: &BatteryStatus) -> Duration {
        match (&self.shown, next) {
            (Some(BatteryStatus::Level(old)), BatteryStatus::Level(new))
                if new.level > old.level && new.charging != Some(true) =>
            {
                self.rise_delay.max(self.debounce)
            }
            _ => self.debounce,
        }
    }

    /// Feeds one reading taken at `now`; returns the new shown status when it changes.
    pub fn update(&mut self, reading: BatteryStatus, now: Instant) -> Option<BatteryStatus> {
        if self.shown.as_ref() == Some(&reading) {
            self.candidate = None;
            return None;
        }
        let since = match &self.candidate {
            Some((candidate, since)) if *candidate == reading => *since,
            _ => {
                self.candidate = Some((reading.clone(), now));
                now
            }
        };
        if now.saturating_duration_since(since) >= self.hold_time(&reading) {
            self.candidate = None;
            self.shown = Some(reading.clone());
            Some(reading)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battery::{BatteryFault, BatteryLevel, BatteryReading};

    fn level(level: BatteryLevel, charging: Option<bool>) -> BatteryStatus {
        BatteryStatus::Level(BatteryReading { level, charging })
    }

    const S: Duration = Duration::from_secs(1);

    #[test]
    fn change_needs_debounce_time() {
        let t0 = Instant::now();
        let mut f = LevelFilter::new(5 * S, 60 * S);
        let medium = level(BatteryLevel::Medium, None);
        assert_eq!(f.update(medium.clone(), t0), None);
        assert_eq!(f.update(medium.clone(), t0 + 4 * S), None);
        assert_eq!(f.update(medium.clone(), t0 + 5 * S), Some(medium.clone()));
        assert_eq!(f.update(medium.clone(), t0 + 6 * S), None);
        assert_eq!(f.shown(), Some(&medium));
    }

    #[test]
    fn glitch_resets_the_timer() {
        let t0 = Instant::now();
        let mut f = LevelFilter::new(5 * S, 60 * S);
        let medium = level(BatteryLevel::Medium, None);
        let low = level(BatteryLevel::Low, None);
        f.update(medium.clone(), t0);
        f.update(medium.clone(), t0 + 5 * S);
        // A one-sample dip does not show.
        assert_eq!(f.update(low.clone(), t0 + 6 * S), None);
        assert_eq!(f.update(medium.clone(), t0 + 7 * S), None);
        assert_eq!(f.update(low.clone(), t0 + 12 * S), None);
        assert_eq!(f.update(low.clone(), t0 + 16 * S), None);
        assert_eq!(f.update(low.clone(), t0 + 17 * S), Some(low));
    }

    #[test]
    fn rise_without_charger_needs_the_longer_delay() {
        let t0 = Instant::now();
        let mut f = LevelFilter::new(S, 60 * S);
        let low = level(BatteryLevel::Low, Some(false));
        let medium = level(BatteryLevel::Medium, Some(false));
        f.update(low.clone(), t0);
        f.update(low.clone(), t0 + S);
        // Alternating readings never flicker the shown level.
        for i in 2..60 {
            let r = if i % 2 == 0 {
                medium.clone()
            } else {
                low.clone()
            };
            assert_eq!(f.update(r, t0 + i * S), None, "at {i}s");
        }
        assert_eq!(f.update(medium.clone(), t0 + 100 * S), None);
        assert_eq!(f.update(medium.clone(), t0 + 159 * S), None);
        assert_eq!(f.update(medium.clone(), t0 + 160 * S), Some(medium));
    }

    #[test]
    fn rise_while_charging_needs_only_debounce() {
        let t0 = Instant::now();
        let mut f = LevelFilter::new(S, 60 * S);
        f.update(level(BatteryLevel::Low, Some(false)), t0);
        f.update(level(BatteryLevel::Low, Some(false)), t0 + S);
        let charging = level(BatteryLevel::Medium, Some(true));
        assert_eq!(f.update(charging.clone(), t0 + 2 * S), None);
        assert_eq!(f.update(charging.clone(), t0 + 3 * S), Some(charging));
    }

    #[test]
    fn faults_are_debounced_like_levels() {
        let t0 = Instant::now();
        let mut f = LevelFilter::new(2 * S, 60 * S);
        let fault = BatteryStatus::Fault(BatteryFault::Reported("x".into()));
        assert_eq!(f.update(fault.clone(), t0), None);
        assert_eq!(f.update(fault.clone(), t0 + 2 * S), Some(fault));
        let high = level(BatteryLevel::High, None);
        assert_eq!(f.update(high.clone(), t0 + 3 * S), None);
        assert_eq!(f.update(high.clone(), t0 + 5 * S), Some(high));
    }

    #[test]
    fn zero_debounce_shows_at_once() {
        let mut f = LevelFilter::new(Duration::ZERO, Duration::ZERO);
        let full = level(BatteryLevel::Full, None);
        assert_eq!(f.update(full.clone(), Instant::now()), Some(full));
    }
}
