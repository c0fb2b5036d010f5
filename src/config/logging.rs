//! Logging to stderr (journald on the device) with `log` + `simple_logger`.

use std::fmt;
use std::io::IsTerminal;
use std::str::FromStr;

/// How much to log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogLevel {
    /// Nothing.
    Off,
    /// Errors only.
    Error,
    /// Errors and warnings.
    Warn,
    /// Notable events (start, config source, game saved, …).
    Info,
    /// Details for developers.
    Debug,
    /// Everything.
    Trace,
}

/// A level name that is not one of off, error, warn, info, debug, trace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownLogLevel(pub String);

impl fmt::Display for UnknownLogLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown log level `{}`", self.0)
    }
}

impl std::error::Error for UnknownLogLevel {}

impl FromStr for LogLevel {
    type Err = UnknownLogLevel;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "off" => Ok(Self::Off),
            "error" => Ok(Self::Error),
            "warn" => Ok(Self::Warn),
            "info" => Ok(Self::Info),
            "debug" => Ok(Self::Debug),
            "trace" => Ok(Self::Trace),
            _ => Err(UnknownLogLevel(s.to_string())),
        }
    }
}

impl From<LogLevel> for log::LevelFilter {
    fn from(level: LogLevel) -> Self {
        match level {
            LogLevel::Off => Self::Off,
            LogLevel::Error => Self::Error,
            LogLevel::Warn => Self::Warn,
            LogLevel::Info => Self::Info,
            LogLevel::Debug => Self::Debug,
            LogLevel::Trace => Self::Trace,
        }
    }
}

/// Installs the global logger: stderr, `level` unless `RUST_LOG` names another one. Timestamps
/// and colours are left out under systemd (journald adds its own, detected by `$JOURNAL_STREAM`).
///
/// # Errors
/// A logger is already installed (only the first call in a process succeeds).
pub fn init_logging(level: LogLevel) -> Result<(), log::SetLoggerError> {
    let logger = simple_logger::SimpleLogger::new()
        .with_level(level.into())
        .with_colors(std::io::stderr().is_terminal())
        .env();
    let logger = if std::env::var_os("JOURNAL_STREAM").is_some() {
        logger.without_timestamps()
    } else {
        logger
    };
    logger.init()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_case_insensitively() {
        assert_eq!("INFO".parse(), Ok(LogLevel::Info));
        assert_eq!("trace".parse(), Ok(LogLevel::Trace));
        assert!("loud".parse::<LogLevel>().is_err());
    }
}
