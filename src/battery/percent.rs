//! Percent capacity (fuel gauges, the `file` source) to levels, with a margin so a capacity
//! wobbling around a boundary does not flip the level.

use super::BatteryLevel;
use crate::config::SysfsBatteryConfig;

/// A rise needs this many percent beyond the boundary; a fall is taken at once.
const RISE_MARGIN_PERCENT: u8 = 2;
/// At or above: full.
const FULL_PERCENT: u8 = 95;
/// At or above: high (two thirds).
const HIGH_PERCENT: u8 = 67;

/// Where the low and critical levels begin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PercentThresholds {
    /// At or below: low.
    pub low: u8,
    /// At or below: critical.
    pub critical: u8,
}

impl From<&SysfsBatteryConfig> for PercentThresholds {
    fn from(c: &SysfsBatteryConfig) -> Self {
        Self {
            low: c.low_percent,
            critical: c.critical_percent,
        }
    }
}

fn plain_level(percent: u8, t: PercentThresholds) -> BatteryLevel {
    match percent {
        p if p <= t.critical => BatteryLevel::Critical,
        p if p <= t.low => BatteryLevel::Low,
        p if p < HIGH_PERCENT => BatteryLevel::Medium,
        p if p < FULL_PERCENT => BatteryLevel::High,
        _ => BatteryLevel::Full,
    }
}

/// The level for `percent` (clamped to 100), given the level shown before.
///
/// Falling levels apply at the boundary; a rise must clear the boundary by a small margin.
pub fn percent_level(
    percent: u8,
    previous: BatteryLevel,
    thresholds: PercentThresholds,
) -> BatteryLevel {
    let percent = percent.min(100);
    let level = plain_level(percent, thresholds);
    if previous == BatteryLevel::Unknown || level <= previous {
        return level;
    }
    let with_margin = plain_level(percent.saturating_sub(RISE_MARGIN_PERCENT), thresholds);
    with_margin.max(previous)
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: PercentThresholds = PercentThresholds {
        low: 20,
        critical: 5,
    };

    #[test]
    fn maps_percent_to_levels() {
        let u = BatteryLevel::Unknown;
        assert_eq!(percent_level(100, u, T), BatteryLevel::Full);
        assert_eq!(percent_level(95, u, T), BatteryLevel::Full);
        assert_eq!(percent_level(94, u, T), BatteryLevel::High);
        assert_eq!(percent_level(67, u, T), BatteryLevel::High);
        assert_eq!(percent_level(66, u, T), BatteryLevel::Medium);
        assert_eq!(percent_level(21, u, T), BatteryLevel::Medium);
        assert_eq!(percent_level(20, u, T), BatteryLevel::Low);
        assert_eq!(percent_level(6, u, T), BatteryLevel::Low);
        assert_eq!(percent_level(5, u, T), BatteryLevel::Critical);
        assert_eq!(percent_level(0, u, T), BatteryLevel::Critical);
        assert_eq!(percent_level(255, u, T), BatteryLevel::Full);
    }

    #[test]
    fn rising_needs_a_margin_falling_does_not() {
        let mut shown = percent_level(66, BatteryLevel::Unknown, T);
        assert_eq!(shown, BatteryLevel::Medium);
        for p in [67, 66, 67, 68, 67] {
            shown = percent_level(p, shown, T);
            assert_eq!(shown, BatteryLevel::Medium, "at {p}");
        }
        shown = percent_level(69, shown, T);
        assert_eq!(shown, BatteryLevel::High);
        assert_eq!(percent_level(66, shown, T), BatteryLevel::Medium);
    }
}
