//! The app's configuration: one TOML file (default `/etc/chesspi/chesspi.toml`) read into checked
//! domain types. `config/chesspi.toml` in the repository documents every key and its default.
//!
//! Unknown keys, wrong types and out-of-range values are errors naming the key, line and column.
//! A missing file means the defaults; at start-up a bad file should not brick the device: see
//! [`Config::load_or_defaults`].

mod error;
mod lan;
mod logging;
mod raw;
mod sound;
mod threads;

pub use threads::{search_threads, set_search_threads};

use crate::i18n::Language;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub use error::ConfigError;
pub use lan::{DEFAULT_ADJOURN_AFTER, DEFAULT_LAN_PORT, LanConfig, PairingCode};
pub use logging::{LogLevel, init_logging};
pub use sound::SoundConfig;

use raw::{RawConfig, RawPin};

/// Where the config is read from when `--config` is not given.
pub const DEFAULT_CONFIG_PATH: &str = "/etc/chesspi/chesspi.toml";

/// The complete, validated configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Backlight, idle dimming and input devices.
    pub display: DisplayConfig,
    /// The computer player.
    pub engine: EngineConfig,
    /// Battery level source and thresholds.
    pub battery: BatteryConfig,
    /// Power key and shutdown.
    pub power: PowerConfig,
    /// Where state is kept.
    pub storage: StorageConfig,
    /// Log verbosity.
    pub logging: LoggingConfig,
    /// LAN play.
    pub lan: LanConfig,
    /// Sound output.
    pub sound: SoundConfig,
}

/// Which backlight to drive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BacklightLocation {
    /// The first directory under `/sys/class/backlight`.
    Auto,
    /// A backlight directory (containing `brightness` and `max_brightness`).
    Path(PathBuf),
}

/// `[display]`: backlight and idle behaviour.
#[derive(Debug, Clone, PartialEq)]
pub struct DisplayConfig {
    /// The backlight to drive.
    pub backlight: BacklightLocation,
    /// Brightness while in use, percent of the maximum (1..=100).
    pub brightness_percent: u8,
    /// Idle time before dimming; `None` never dims.
    pub dim_after: Option<Duration>,
    /// Brightness while dimmed, percent of the maximum (1..=100).
    pub dim_brightness_percent: u8,
    /// Idle time before the backlight goes off; `None` never blanks.
    pub blank_after: Option<Duration>,
    /// Input device names to watch; empty finds touchscreens and power keys by capability.
    pub input_devices: Vec<String>,
    /// The screen's language.
    pub language: LanguageChoice,
}

/// `display.language`: a fixed language, or the environment's (`LANG`, `LC_MESSAGES`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LanguageChoice {
    #[default]
    Auto,
    Fixed(Language),
}

impl LanguageChoice {
    /// The language this choice means here and now.
    pub fn resolve(self) -> Language {
        match self {
            LanguageChoice::Auto => Language::from_environment(),
            LanguageChoice::Fixed(l) => l,
        }
    }
}

/// `[engine]`: the computer player.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineConfig {
    /// Level of a new game against the computer (1..=10).
    pub default_level: u8,
    /// Longest time the computer may think for one move, whatever the level.
    pub max_think_time: Duration,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Threads of the searches the player waits for (the coach, Hint, analysis, level 10),
    /// 1..=64; `None`: as many as the device has cores.
    pub threads: Option<usize>,
}

/// Which battery source to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BatterySourceKind {
    /// Comparator outputs on GPIO inputs (the original hardware).
    Gpio,
    /// Linux `power_supply` class (UPS boards with a fuel gauge).
    Sysfs,
    /// A text file written by a developer or a test.
    File,
    /// No battery: the indicator is hidden.
    None,
}

/// `[battery]`: source, timing and per-source settings.
#[derive(Debug, Clone, PartialEq)]
pub struct BatteryConfig {
    /// Which source to read.
    pub source: BatterySourceKind,
    /// Time between two readings.
    pub poll_interval: Duration,
    /// A new reading must hold this long before it is shown.
    pub debounce: Duration,
    /// A higher level while not charging must hold this long (hysteresis: the voltage recovers
    /// when the load drops, which must not make the icon flicker).
    pub rise_delay: Duration,
    /// Time between the critical warning and the shutdown command.
    pub critical_grace: Duration,
    /// Settings of the `gpio` source.
    pub gpio: GpioBatteryConfig,
    /// Settings of the `sysfs` source.
    pub sysfs: SysfsBatteryConfig,
    /// Settings of the `file` source.
    pub file: FileBatteryConfig,
}

/// Which logic level means "true" on a pin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActiveLevel {
    /// High (3.3 V) means true.
    High,
    /// Low (0 V) means true.
    Low,
}

/// The pin's internal pull resistor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pull {
    /// No pull resistor (the comparator drives the line).
    Off,
    /// Pull up.
    Up,
    /// Pull down.
    Down,
}

/// One GPIO input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PinConfig {
    /// BCM pin number (0..=27).
    pub pin: u8,
    /// Which level means "true".
    pub active: ActiveLevel,
    /// Pull resistor.
    pub pull: Pull,
}

/// `[battery.gpio]`: one comparator per reference voltage, plus an optional charger input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GpioBatteryConfig {
    /// True above 4.1 V.
    pub full: PinConfig,
    /// True above 3.7 V.
    pub above_two_thirds: PinConfig,
    /// True above 3.3 V.
    pub above_one_third: PinConfig,
    /// True above 3.0 V (the supply is cut below it).
    pub above_cutoff: PinConfig,
    /// True while a charger is connected, if wired.
    pub charging: Option<PinConfig>,
}

/// `[battery.sysfs]`: a `power_supply` device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SysfsBatteryConfig {
    /// The device directory; `None` picks the first `type = Battery` under
    /// `/sys/class/power_supply`.
    pub path: Option<PathBuf>,
    /// At or below this capacity the level is low.
    pub low_percent: u8,
    /// At or below this capacity the level is critical.
    pub critical_percent: u8,
}

/// `[battery.file]`: a text file followed live.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileBatteryConfig {
    /// The file.
    pub path: PathBuf,
}

/// A program and its arguments, run without a shell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    /// The program (looked up in `PATH`).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
}

/// `[power]`: power key and shutdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PowerConfig {
    /// Whether KEY_POWER asks to shut down.
    pub power_key: bool,
    /// What shuts the device down.
    pub shutdown_command: CommandLine,
}

/// `[storage]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StorageConfig {
    /// Overrides the state directory (else `$STATE_DIRECTORY`, else the XDG data directory).
    pub state_dir: Option<PathBuf>,
}

/// `[logging]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LoggingConfig {
    /// Level used unless `RUST_LOG` says otherwise.
    pub level: LogLevel,
}

impl Default for Config {
    fn default() -> Self {
        match validate(RawConfig::default()) {
            Ok(config) => config,
            // The built-in defaults are checked by a unit test; this arm is unreachable in practice.
            Err(e) => unreachable!("built-in config defaults are invalid: {e:?}"),
        }
    }
}

/// The message and process exit code of `chesspi --check-config PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckOutcome {
    /// One line for stdout (success) or stderr (failure).
    pub message: String,
    /// 0 when the file is valid, 1 otherwise.
    pub exit_code: i32,
}

impl Config {
    /// Reads and validates `path`. A missing file gives the defaults.
    ///
    /// # Errors
    /// The file exists but cannot be read, is not TOML, has an unknown key, a wrong type or a
    /// value out of range. The error names the key, line and column.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        match std::fs::read_to_string(path) {
            Ok(text) => Config::parse(&text, path),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
            Err(source) => Err(ConfigError::Read {
                path: path.to_path_buf(),
                source,
            }),
        }
    }

    /// Start-up loading that never fails: a bad file gives the defaults plus the error, which
    /// the app logs and shows on screen.
    pub fn load_or_defaults(path: &Path) -> (Config, Option<ConfigError>) {
        match Config::load(path) {
            Ok(config) => (config, None),
            Err(e) => (Config::default(), Some(e)),
        }
    }

    /// Parses config text; `path` only names the file in errors.
    ///
    /// # Errors
    /// As [`Config::load`].
    pub fn parse(text: &str, path: &Path) -> Result<Config, ConfigError> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| {
            let span = e.span();
            ConfigError::Invalid {
                path: path.to_path_buf(),
                key: span.as_ref().and_then(|s| error::key_at(text, s.start)),
                position: span.map(|s| error::line_column(text, s.start)),
                message: e.message().trim_end().to_string(),
            }
        })?;
        validate(raw).map_err(|v| {
            let span = error::span_of(text, &v.key);
            ConfigError::Invalid {
                path: path.to_path_buf(),
                key: Some(v.key),
                position: span.map(|s| error::line_column(text, s.start)),
                message: v.message,
            }
        })
    }
}

/// The default config path: systemd's `$CONFIGURATION_DIRECTORY` if set, else
/// [`DEFAULT_CONFIG_PATH`].
pub fn default_config_path() -> PathBuf {
    match std::env::var_os("CONFIGURATION_DIRECTORY") {
        Some(dirs) if !dirs.is_empty() => {
            let dirs = dirs.to_string_lossy().into_owned();
            let first = dirs.split(':').next().unwrap_or_default().to_string();
            PathBuf::from(first).join("chesspi.toml")
        }
        _ => PathBuf::from(DEFAULT_CONFIG_PATH),
    }
}

/// Validates a config file for `chesspi --check-config PATH`. Unlike [`Config::load`], a
/// missing file is an error: the user asked about that file.
///
/// # Errors
/// The file is missing, unreadable or invalid.
pub fn check_config(path: &Path) -> Result<Config, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    Config::parse(&text, path)
}

/// [`check_config`] as the CLI reports it: the line to print and the exit code.
pub fn check_config_outcome(path: &Path) -> CheckOutcome {
    match check_config(path) {
        Ok(_) => CheckOutcome {
            message: format!("{}: OK", path.display()),
            exit_code: 0,
        },
        Err(e) => CheckOutcome {
            message: e.to_string(),
            exit_code: 1,
        },
    }
}

/// A value that parsed but is not allowed.
#[derive(Debug)]
struct Violation {
    key: String,
    message: String,
}

fn violation(key: &str, message: impl Into<String>) -> Violation {
    Violation {
        key: key.to_string(),
        message: message.into(),
    }
}

fn percent(key: &str, value: u8) -> Result<u8, Violation> {
    if (1..=100).contains(&value) {
        Ok(value)
    } else {
        Err(violation(key, format!("must be 1..=100, got {value}")))
    }
}

fn optional_seconds(secs: u64) -> Option<Duration> {
    (secs > 0).then(|| Duration::from_secs(secs))
}

fn ranged_ms(key: &str, value: u64, min: u64, max: u64) -> Result<Duration, Violation> {
    if (min..=max).contains(&value) {
        Ok(Duration::from_millis(value))
    } else {
        Err(violation(
            key,
            format!("must be {min}..={max}, got {value}"),
        ))
    }
}

fn ranged_secs(key: &str, value: u64, max: u64) -> Result<Duration, Violation> {
    if value <= max {
        Ok(Duration::from_secs(value))
    } else {
        Err(violation(key, format!("must be 0..={max}, got {value}")))
    }
}

fn validate(raw: RawConfig) -> Result<Config, Violation> {
    Ok(Config {
        display: validate_display(raw.display)?,
        engine: validate_engine(raw.engine)?,
        battery: validate_battery(raw.battery)?,
        power: validate_power(raw.power)?,
        storage: StorageConfig {
            state_dir: (!raw.storage.state_dir.is_empty())
                .then(|| PathBuf::from(raw.storage.state_dir)),
        },
        logging: LoggingConfig {
            level: raw.logging.level.parse().map_err(|_| {
                violation(
                    "logging.level",
                    format!(
                        "unknown level `{}`, expected off, error, warn, info, debug or trace",
                        raw.logging.level
                    ),
                )
            })?,
        },
        lan: lan::validate(raw.lan)?,
        sound: sound::validate(raw.sound)?,
    })
}

fn validate_display(d: raw::RawDisplay) -> Result<DisplayConfig, Violation> {
    let brightness_percent = percent("display.brightness_percent", d.brightness_percent)?;
    let dim_brightness_percent =
        percent("display.dim_brightness_percent", d.dim_brightness_percent)?;
    if dim_brightness_percent > brightness_percent {
        return Err(violation(
            "display.dim_brightness_percent",
            format!("must not exceed display.brightness_percent ({brightness_percent})"),
        ));
    }
    let dim_after = optional_seconds(d.dim_after_seconds);
    let blank_after = optional_seconds(d.blank_after_seconds);
    if let (Some(dim), Some(blank)) = (dim_after, blank_after)
        && blank <= dim
    {
        return Err(violation(
            "display.blank_after_seconds",
            format!(
                "must be greater than display.dim_after_seconds ({}), or 0 to never blank",
                dim.as_secs()
            ),
        ));
    }
    if d.input_devices.iter().any(String::is_empty) {
        return Err(violation(
            "display.input_devices",
            "device names must not be empty",
        ));
    }
    Ok(DisplayConfig {
        backlight: match d.backlight.as_str() {
            "auto" => BacklightLocation::Auto,
            "" => {
                return Err(violation(
                    "display.backlight",
                    "must be \"auto\" or a directory",
                ));
            }
            p => BacklightLocation::Path(PathBuf::from(p)),
        },
        brightness_percent,
        dim_after,
        dim_brightness_percent,
        blank_after,
        input_devices: d.input_devices,
        language: match d.language.as_str() {
            "auto" => LanguageChoice::Auto,
            code => LanguageChoice::Fixed(Language::from_code(code).ok_or_else(|| {
                violation(
                    "display.language",
                    format!("must be \"auto\", \"en\" or \"de\", got {code:?}"),
                )
            })?),
        },
    })
}

fn validate_engine(e: raw::RawEngine) -> Result<EngineConfig, Violation> {
    if !(1..=10).contains(&e.default_level) {
        return Err(violation(
            "engine.default_level",
            format!("must be 1..=10, got {}", e.default_level),
        ));
    }
    if !(e.max_think_seconds.is_finite() && (0.1..=600.0).contains(&e.max_think_seconds)) {
        return Err(violation(
            "engine.max_think_seconds",
            format!("must be 0.1..=600, got {}", e.max_think_seconds),
        ));
    }
    if !(1..=1024).contains(&e.hash_mb) {
        return Err(violation(
            "engine.hash_mb",
            format!("must be 1..=1024, got {}", e.hash_mb),
        ));
    }
    if let Some(threads) = e.threads
        && !(1..=64).contains(&threads)
    {
        return Err(violation(
            "engine.threads",
            format!("must be 1..=64, got {threads}"),
        ));
    }
    Ok(EngineConfig {
        default_level: e.default_level,
        max_think_time: Duration::from_secs_f64(e.max_think_seconds),
        hash_mb: e.hash_mb as usize,
        threads: e.threads.map(|t| t as usize),
    })
}

fn validate_battery(b: raw::RawBattery) -> Result<BatteryConfig, Violation> {
    let source = match b.source.as_str() {
        "gpio" => BatterySourceKind::Gpio,
        "sysfs" => BatterySourceKind::Sysfs,
        "file" => BatterySourceKind::File,
        "none" => BatterySourceKind::None,
        other => {
            return Err(violation(
                "battery.source",
                format!("unknown source `{other}`, expected gpio, sysfs, file or none"),
            ));
        }
    };
    let gpio = validate_gpio(&b.gpio)?;
    if !(1..100).contains(&b.sysfs.critical_percent)
        || b.sysfs.critical_percent >= b.sysfs.low_percent
    {
        return Err(violation(
            "battery.sysfs.critical_percent",
            "must be at least 1 and below battery.sysfs.low_percent",
        ));
    }
    if b.sysfs.low_percent > 90 {
        return Err(violation("battery.sysfs.low_percent", "must be at most 90"));
    }
    if b.file.path.is_empty() {
        return Err(violation("battery.file.path", "must not be empty"));
    }
    Ok(BatteryConfig {
        source,
        poll_interval: ranged_ms("battery.poll_interval_ms", b.poll_interval_ms, 100, 60_000)?,
        debounce: ranged_ms("battery.debounce_ms", b.debounce_ms, 0, 60_000)?,
        rise_delay: ranged_secs("battery.rise_delay_seconds", b.rise_delay_seconds, 3600)?,
        critical_grace: ranged_secs(
            "battery.critical_grace_seconds",
            b.critical_grace_seconds,
            600,
        )?,
        gpio,
        sysfs: SysfsBatteryConfig {
            path: (b.sysfs.path != "auto").then(|| PathBuf::from(&b.sysfs.path)),
            low_percent: b.sysfs.low_percent,
            critical_percent: b.sysfs.critical_percent,
        },
        file: FileBatteryConfig {
            path: PathBuf::from(b.file.path),
        },
    })
}

fn validate_pin(key: &str, p: &RawPin) -> Result<PinConfig, Violation> {
    if p.pin > 27 {
        return Err(violation(
            &format!("{key}.pin"),
            format!("BCM pin must be 0..=27, got {}", p.pin),
        ));
    }
    let active = match p.active.as_str() {
        "high" => ActiveLevel::High,
        "low" => ActiveLevel::Low,
        other => {
            return Err(violation(
                &format!("{key}.active"),
                format!("unknown level `{other}`, expected high or low"),
            ));
        }
    };
    let pull = match p.pull.as_str() {
        "off" => Pull::Off,
        "up" => Pull::Up,
        "down" => Pull::Down,
        other => {
            return Err(violation(
                &format!("{key}.pull"),
                format!("unknown pull `{other}`, expected off, up or down"),
            ));
        }
    };
    Ok(PinConfig {
        pin: p.pin,
        active,
        pull,
    })
}

fn validate_gpio(g: &raw::RawGpioBattery) -> Result<GpioBatteryConfig, Violation> {
    let config = GpioBatteryConfig {
        full: validate_pin("battery.gpio.full", &g.full)?,
        above_two_thirds: validate_pin("battery.gpio.above_two_thirds", &g.above_two_thirds)?,
        above_one_third: validate_pin("battery.gpio.above_one_third", &g.above_one_third)?,
        above_cutoff: validate_pin("battery.gpio.above_cutoff", &g.above_cutoff)?,
        charging: match &g.charging {
            Some(p) => Some(validate_pin("battery.gpio.charging", p)?),
            None => None,
        },
    };
    let named = [
        ("full", Some(config.full)),
        ("above_two_thirds", Some(config.above_two_thirds)),
        ("above_one_third", Some(config.above_one_third)),
        ("above_cutoff", Some(config.above_cutoff)),
        ("charging", config.charging),
    ];
    for (i, (name, pin)) in named.iter().enumerate() {
        let Some(pin) = pin else { continue };
        if let Some((other, _)) = named[..i]
            .iter()
            .find(|(_, p)| p.is_some_and(|p| p.pin == pin.pin))
        {
            return Err(violation(
                &format!("battery.gpio.{name}.pin"),
                format!(
                    "BCM pin {} is already used by battery.gpio.{other}",
                    pin.pin
                ),
            ));
        }
    }
    Ok(config)
}

fn validate_power(p: raw::RawPower) -> Result<PowerConfig, Violation> {
    let mut parts = p.shutdown_command.into_iter();
    let program = parts.next().filter(|s| !s.is_empty()).ok_or_else(|| {
        violation(
            "power.shutdown_command",
            "must name a program, e.g. [\"systemctl\", \"poweroff\"]",
        )
    })?;
    Ok(PowerConfig {
        power_key: p.power_key,
        shutdown_command: CommandLine {
            program,
            args: parts.collect(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_defaults_are_valid() {
        assert!(validate(RawConfig::default()).is_ok());
    }

    fn key_paths(prefix: &str, table: &toml::Table, out: &mut Vec<String>) {
        for (k, v) in table {
            let path = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            match v {
                toml::Value::Table(t) => key_paths(&path, t, out),
                _ => out.push(path),
            }
        }
    }

    /// The documented file must set every key there is (so every key is documented), and only
    /// keys there are. Optional keys (none by default) appear as comments and are not counted.
    #[test]
    fn documented_file_sets_every_key() {
        let text = include_str!("../../config/chesspi.toml");
        let file: toml::Table = toml::from_str(text).expect("documented config parses");
        let defaults = toml::Table::try_from(RawConfig::default()).expect("defaults serialize");
        let (mut in_file, mut in_defaults) = (Vec::new(), Vec::new());
        key_paths("", &file, &mut in_file);
        key_paths("", &defaults, &mut in_defaults);
        in_file.sort();
        in_defaults.sort();
        assert_eq!(in_file, in_defaults);
        // The optional charger pin is documented in a comment.
        assert!(text.contains("# charging = { pin ="));
    }
}
