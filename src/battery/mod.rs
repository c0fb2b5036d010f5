//! Battery level: sources (GPIO comparators, sysfs fuel gauge, a text file, none), the mapping of
//! their readings to levels, debounce and hysteresis, and the monitor thread that reports changes,
//! a one-time low warning and the critical shutdown.
//!
//! Every source sits behind [`BatterySource`], so `rppal` (unmaintained since 0.22) is used in
//! `gpio.rs` only and a fork could replace it there.

mod comparators;
mod file;
mod filter;
mod gpio;
mod monitor;
mod percent;
mod sysfs;

use std::fmt;

use crate::config::{BatteryConfig, BatterySourceKind};

pub use comparators::comparator_status;
pub use file::{FileFormatError, FileSource, parse_battery_text};
pub use filter::LevelFilter;
pub use gpio::GpioSource;
pub use monitor::{BatteryEvent, BatteryMonitor, MonitorSettings, start_monitor};
pub use percent::{PercentThresholds, percent_level};
pub use sysfs::SysfsSource;

/// How full the battery is, as shown on screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum BatteryLevel {
    /// Not known (no reading yet, or the source cannot be read).
    Unknown,
    /// Near the cut-off: the app saves and shuts down.
    Critical,
    /// Below one third: warn once.
    Low,
    /// Between one and two thirds.
    Medium,
    /// Above two thirds.
    High,
    /// Charged.
    Full,
}

impl BatteryLevel {
    /// Lower case name, as in the battery file format.
    pub fn name(self) -> &'static str {
        match self {
            Self::Unknown => "unknown",
            Self::Critical => "critical",
            Self::Low => "low",
            Self::Medium => "medium",
            Self::High => "high",
            Self::Full => "full",
        }
    }
}

impl fmt::Display for BatteryLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level with what is known about the charger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BatteryReading {
    /// The level.
    pub level: BatteryLevel,
    /// `Some(true)` while a charger is connected, `Some(false)` when known not to be,
    /// `None` when the hardware cannot tell.
    pub charging: Option<bool>,
}

impl BatteryReading {
    /// Nothing known.
    pub const UNKNOWN: BatteryReading = BatteryReading {
        level: BatteryLevel::Unknown,
        charging: None,
    };
}

/// Readings that cannot be a battery level: shown as a fault, never as a level.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BatteryFault {
    /// A comparator says "above" a higher reference but another says "not above" a lower one.
    InconsistentComparators {
        /// The higher reference, in millivolts, reported as exceeded.
        above_mv: u32,
        /// The lower reference, in millivolts, reported as not exceeded.
        not_above_mv: u32,
    },
    /// The source reports a fault itself (the `file` source's `fault`, sysfs health).
    Reported(String),
}

impl fmt::Display for BatteryFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::InconsistentComparators {
                above_mv,
                not_above_mv,
            } => write!(
                f,
                "battery comparators disagree: above {}.{} V but not above {}.{} V",
                above_mv / 1000,
                above_mv % 1000 / 100,
                not_above_mv / 1000,
                not_above_mv % 1000 / 100
            ),
            Self::Reported(why) => write!(f, "battery fault: {why}"),
        }
    }
}

/// What a source reports, and what the screen shows.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum BatteryStatus {
    /// A level.
    Level(BatteryReading),
    /// Contradictory readings.
    Fault(BatteryFault),
}

impl BatteryStatus {
    /// The level, `Unknown` for a fault.
    pub fn level(&self) -> BatteryLevel {
        match self {
            Self::Level(r) => r.level,
            Self::Fault(_) => BatteryLevel::Unknown,
        }
    }

    /// Whether a charger is known to be connected.
    pub fn is_charging(&self) -> bool {
        matches!(
            self,
            Self::Level(BatteryReading {
                charging: Some(true),
                ..
            })
        )
    }
}

/// A source cannot be opened or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceError {
    /// The source (`gpio`, `sysfs`, `file`).
    pub source: &'static str,
    /// What went wrong and, where possible, what to do.
    pub message: String,
    /// Whether the hardware is simply not there (see [`SourceError::no_board`]).
    pub no_board: bool,
}

impl SourceError {
    pub(crate) fn new(source: &'static str, message: impl Into<String>) -> Self {
        Self {
            source,
            message: message.into(),
            no_board: false,
        }
    }

    /// The comparator pins are wired to nothing: a Pi without the battery board. Not an
    /// empty battery, so nothing is shut down for it.
    pub(crate) fn no_board() -> Self {
        Self {
            source: "gpio",
            message: "no battery board found: the comparator pins follow the pull resistors, \
                      nothing drives them (set battery.source to match the hardware)"
                .into(),
            no_board: true,
        }
    }
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "battery source {}: {}", self.source, self.message)
    }
}

impl std::error::Error for SourceError {}

/// Where battery readings come from. Implementations read once per call and do not block
/// for long (the monitor thread polls them).
pub trait BatterySource: Send {
    /// Short name for logs (`gpio`, `sysfs`, `file`).
    fn name(&self) -> &'static str;

    /// One raw (not yet debounced) reading.
    ///
    /// # Errors
    /// The source cannot be read right now; the monitor shows `Unknown` and keeps polling.
    fn read(&mut self) -> Result<BatteryStatus, SourceError>;
}

/// Opens the configured source. `Ok(None)` for `none`.
///
/// # Errors
/// The source cannot be opened: off a Raspberry Pi, `gpio` fails here with a clear message.
pub fn open_source(config: &BatteryConfig) -> Result<Option<Box<dyn BatterySource>>, SourceError> {
    Ok(match config.source {
        BatterySourceKind::None => None,
        BatterySourceKind::Gpio => Some(Box::new(GpioSource::open(&config.gpio)?)),
        BatterySourceKind::Sysfs => Some(Box::new(SysfsSource::open(&config.sysfs)?)),
        BatterySourceKind::File => Some(Box::new(FileSource::new(
            config.file.path.clone(),
            PercentThresholds::from(&config.sysfs),
        ))),
    })
}
