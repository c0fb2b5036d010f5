//! UTC calendar times for file names and PGN tags, without a date-time dependency.

use std::time::{SystemTime, UNIX_EPOCH};

/// Seconds since the Unix epoch now (0 on a clock set before 1970).
pub fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A UTC date and time to the second.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct UtcDateTime {
    /// Calendar year, e.g. 2026.
    pub year: i64,
    /// 1..=12.
    pub month: u8,
    /// 1..=31.
    pub day: u8,
    /// 0..=23.
    pub hour: u8,
    /// 0..=59.
    pub minute: u8,
    /// 0..=59.
    pub second: u8,
}

impl UtcDateTime {
    /// The calendar time of `t`; times before 1970 (a Pi without its clock set is at 1970, not
    /// before) are clamped to the epoch.
    pub fn from_system_time(t: SystemTime) -> UtcDateTime {
        let secs = t.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
        UtcDateTime::from_unix_seconds(secs)
    }

    /// The current time.
    pub fn now() -> UtcDateTime {
        UtcDateTime::from_system_time(SystemTime::now())
    }

    /// The calendar time `secs` seconds after 1970-01-01T00:00:00Z.
    pub fn from_unix_seconds(secs: u64) -> UtcDateTime {
        let days = i64::try_from(secs / 86_400).unwrap_or(i64::MAX / 2);
        let rem = secs % 86_400;
        let (year, month, day) = civil_from_days(days);
        // The casts below take values already reduced below 60, 24, 13 or 32.
        UtcDateTime {
            year,
            month: month as u8,
            day: day as u8,
            hour: (rem / 3600) as u8,
            minute: (rem / 60 % 60) as u8,
            second: (rem % 60) as u8,
        }
    }

    /// `YYYY.MM.DD`, the PGN `Date` format.
    pub fn pgn_date(&self) -> String {
        format!("{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }

    /// `HH:MM:SS`, the PGN `UTCTime` format.
    pub fn pgn_time(&self) -> String {
        format!("{:02}:{:02}:{:02}", self.hour, self.minute, self.second)
    }

    /// `YYYYMMDDTHHMMSSZ`, for file names (sorts like the time it names).
    pub fn compact(&self) -> String {
        format!(
            "{:04}{:02}{:02}T{:02}{:02}{:02}Z",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }
}

/// Year, month and day of a day count since 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        let t = UtcDateTime::from_unix_seconds(0);
        assert_eq!(t.compact(), "19700101T000000Z");
        // 2000-02-29 (leap day of a century leap year) 12:34:56.
        let t = UtcDateTime::from_unix_seconds(951_827_696);
        assert_eq!(t.pgn_date(), "2000.02.29");
        assert_eq!(t.pgn_time(), "12:34:56");
        // 2026-11-22 04:25:25.
        let t = UtcDateTime::from_unix_seconds(1_795_321_525);
        assert_eq!(t.compact(), "20261122T042525Z");
        let t = UtcDateTime::from_unix_seconds(4_102_444_799);
        assert_eq!(t.compact(), "20991231T235959Z");
    }
}
