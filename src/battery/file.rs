//! The `file` source: a text file a developer or a test writes, re-read at every poll.
//!
//! Format: a level (`full`, `high`, `medium`, `low`, `critical`, `unknown`), a percentage
//! (`42%` or `42`), or `fault` with an optional reason; then optionally `charging` or
//! `discharging`. Blank lines and `#` comments are ignored.

use std::fmt;
use std::fs;
use std::path::PathBuf;

use super::{
    BatteryFault, BatteryLevel, BatteryReading, BatterySource, BatteryStatus, PercentThresholds,
    SourceError, percent_level,
};

/// The file content is not in the format above.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileFormatError(pub String);

impl fmt::Display for FileFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}; expected a level (full, high, medium, low, critical, unknown), a percentage or \
             `fault`, optionally followed by `charging` or `discharging`",
            self.0
        )
    }
}

impl std::error::Error for FileFormatError {}

/// Parses battery file text. `previous` is the level read last time (for the hysteresis of
/// percentages).
///
/// # Errors
/// Empty content or an unknown word.
pub fn parse_battery_text(
    text: &str,
    previous: BatteryLevel,
    thresholds: PercentThresholds,
) -> Result<BatteryStatus, FileFormatError> {
    let line = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or_default().trim())
        .find(|l| !l.is_empty())
        .ok_or_else(|| FileFormatError("empty battery file".into()))?;
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or_default().to_ascii_lowercase();
    if first == "fault" {
        let why = words.collect::<Vec<_>>().join(" ");
        let why = if why.is_empty() {
            "reported by the battery file".to_string()
        } else {
            why
        };
        return Ok(BatteryStatus::Fault(BatteryFault::Reported(why)));
    }
    let level = match first.as_str() {
        "full" => BatteryLevel::Full,
        "high" => BatteryLevel::High,
        "medium" => BatteryLevel::Medium,
        "low" => BatteryLevel::Low,
        "critical" => BatteryLevel::Critical,
        "unknown" => BatteryLevel::Unknown,
        word => {
            let digits = word.strip_suffix('%').unwrap_or(word);
            let percent: u8 = digits
                .parse()
                .ok()
                .filter(|p| *p <= 100)
                .ok_or_else(|| FileFormatError(format!("unknown battery level `{word}`")))?;
            percent_level(percent, previous, thresholds)
        }
    };
    let charging = match words.next().map(str::to_ascii_lowercase).as_deref() {
        None => None,
        Some("charging") => Some(true),
        Some("discharging") => Some(false),
        Some(other) => return Err(FileFormatError(format!("unknown charger state `{other}`"))),
    };
    if let Some(extra) = words.next() {
        return Err(FileFormatError(format!("unexpected `{extra}`")));
    }
    Ok(BatteryStatus::Level(BatteryReading { level, charging }))
}

/// Follows a battery file.
pub struct FileSource {
    path: PathBuf,
    thresholds: PercentThresholds,
    previous: BatteryLevel,
}

impl FileSource {
    /// A source reading `path` at every poll. The file need not exist yet.
    pub fn new(path: PathBuf, thresholds: PercentThresholds) -> Self {
        Self {
            path,
            thresholds,
            previous: BatteryLevel::Unknown,
        }
    }
}

impl BatterySource for FileSource {
    fn name(&self) -> &'static str {
        "file"
    }

    fn read(&mut self) -> Result<BatteryStatus, SourceError> {
        let text = fs::read_to_string(&self.path)
            .map_err(|e| SourceError::new("file", format!("{}: {e}", self.path.display())))?;
        let status = parse_battery_text(&text, self.previous, self.thresholds)
            .map_err(|e| SourceError::new("file", format!("{}: {e}", self.path.display())))?;
        self.previous = status.level();
        Ok(status)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: PercentThresholds = PercentThresholds {
        low: 20,
        critical: 5,
    };

    fn parse(text: &str) -> Result<BatteryStatus, FileFormatError> {
        parse_battery_text(text, BatteryLevel::Unknown, T)
    }

    fn reading(level: BatteryLevel, charging: Option<bool>) -> BatteryStatus {
        BatteryStatus::Level(BatteryReading { level, charging })
    }

    #[test]
    fn parses_levels_percentages_and_charger_state() {
        assert_eq!(parse("high\n"), Ok(reading(BatteryLevel::High, None)));
        assert_eq!(
            parse("  LOW charging"),
            Ok(reading(BatteryLevel::Low, Some(true)))
        );
        assert_eq!(
            parse("# test\n\n42% discharging\n"),
            Ok(reading(BatteryLevel::Medium, Some(false)))
        );
        assert_eq!(parse("3"), Ok(reading(BatteryLevel::Critical, None)));
        assert_eq!(
            parse("fault wires crossed"),
            Ok(BatteryStatus::Fault(BatteryFault::Reported(
                "wires crossed".into()
            )))
        );
    }

    #[test]
    fn rejects_garbage() {
        for text in [
            "",
            "\n# only a comment\n",
            "half",
            "101%",
            "high plugged",
            "low charging now",
            "-1",
        ] {
            assert!(parse(text).is_err(), "{text:?}");
        }
    }
}
