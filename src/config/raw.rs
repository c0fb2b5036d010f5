//! The file's shape, as serde reads it. Private to the config module: every value is checked and
//! turned into the domain types of `super` before anyone else sees it.

use super::lan::RawLan;
use super::sound::RawSound;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawConfig {
    pub display: RawDisplay,
    pub engine: RawEngine,
    pub battery: RawBattery,
    pub power: RawPower,
    pub storage: RawStorage,
    pub logging: RawLogging,
    pub lan: RawLan,
    pub sound: RawSound,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawDisplay {
    pub backlight: String,
    pub brightness_percent: u8,
    pub dim_after_seconds: u64,
    pub dim_brightness_percent: u8,
    pub blank_after_seconds: u64,
    pub input_devices: Vec<String>,
    pub language: String,
}

impl Default for RawDisplay {
    fn default() -> Self {
        Self {
            backlight: "auto".into(),
            brightness_percent: 100,
            dim_after_seconds: 120,
            dim_brightness_percent: 20,
            blank_after_seconds: 600,
            input_devices: Vec::new(),
            language: "auto".into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawEngine {
    pub default_level: u8,
    pub max_think_seconds: f64,
    pub hash_mb: u32,
    /// Absent: every core the device has.
    pub threads: Option<u32>,
}

impl Default for RawEngine {
    fn default() -> Self {
        Self {
            default_level: 4,
            max_think_seconds: 3.0,
            hash_mb: 16,
            threads: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawBattery {
    pub source: String,
    pub poll_interval_ms: u64,
    pub debounce_ms: u64,
    pub rise_delay_seconds: u64,
    pub critical_grace_seconds: u64,
    pub gpio: RawGpioBattery,
    pub sysfs: RawSysfsBattery,
    pub file: RawFileBattery,
}

impl Default for RawBattery {
    fn default() -> Self {
        Self {
            source: "gpio".into(),
            poll_interval_ms: 2000,
            debounce_ms: 5000,
            rise_delay_seconds: 60,
            critical_grace_seconds: 30,
            gpio: RawGpioBattery::default(),
            sysfs: RawSysfsBattery::default(),
            file: RawFileBattery::default(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawGpioBattery {
    pub full: RawPin,
    pub above_two_thirds: RawPin,
    pub above_one_third: RawPin,
    pub above_cutoff: RawPin,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub charging: Option<RawPin>,
}

impl Default for RawGpioBattery {
    fn default() -> Self {
        Self {
            full: RawPin::new(5),
            above_two_thirds: RawPin::new(6),
            above_one_third: RawPin::new(13),
            above_cutoff: RawPin::new(19),
            charging: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPin {
    pub pin: u8,
    #[serde(default = "default_active")]
    pub active: String,
    #[serde(default = "default_pull")]
    pub pull: String,
}

impl RawPin {
    fn new(pin: u8) -> Self {
        Self {
            pin,
            active: default_active(),
            pull: default_pull(),
        }
    }
}

fn default_active() -> String {
    "high".into()
}

fn default_pull() -> String {
    "off".into()
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawSysfsBattery {
    pub path: String,
    pub low_percent: u8,
    pub critical_percent: u8,
}

impl Default for RawSysfsBattery {
    fn default() -> Self {
        Self {
            path: "auto".into(),
            low_percent: 20,
            critical_percent: 5,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawFileBattery {
    pub path: String,
}

impl Default for RawFileBattery {
    fn default() -> Self {
        Self {
            path: "/run/chesspi/battery".into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawPower {
    pub power_key: bool,
    pub shutdown_command: Vec<String>,
}

impl Default for RawPower {
    fn default() -> Self {
        Self {
            power_key: true,
            shutdown_command: vec!["systemctl".into(), "poweroff".into()],
        }
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize, Default)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawStorage {
    pub state_dir: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawLogging {
    pub level: String,
}

impl Default for RawLogging {
    fn default() -> Self {
        Self {
            level: "info".into(),
        }
    }
}
