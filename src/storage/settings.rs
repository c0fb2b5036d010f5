//! Settings changed on the device (Settings screen), kept in `<state>/settings.toml` and laid
//! over the admin's config. The admin's file in `/etc` is never rewritten.
//!
//! Only settings the config has can be changed: the default level, the brightness and the idle
//! times before dimming and blanking. A value not set on the device follows the config. One is
//! the device's alone: whether the computer plays from its opening book (on unless switched off).
//!
//! The file is written by the app only (it carries a checksum line): a damaged or impossible
//! file is set aside and ignored, reported once.

use std::fmt;
use std::time::Duration;

use crate::sound::{SpeakMoves, Volume};
use chesspi_engine::coach::{AssistLimit, CoachLevel};
use chesspi_engine::level::Level;
use serde::{Deserialize, Serialize};

use super::store::{Sealable, SealedStore, StoreError};
use crate::config::{Config, LanguageChoice};
use crate::i18n::Language;

/// The settings file's name in the state directory.
pub const SETTINGS_FILE: &str = "settings.toml";

/// An idle time: after this long without input, or never.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdleTime {
    /// Never.
    Never,
    /// After this long.
    After(Duration),
}

impl IdleTime {
    fn from_seconds(secs: u64) -> IdleTime {
        if secs == 0 {
            IdleTime::Never
        } else {
            IdleTime::After(Duration::from_secs(secs))
        }
    }

    fn seconds(self) -> u64 {
        match self {
            IdleTime::Never => 0,
            IdleTime::After(d) => d.as_secs(),
        }
    }

    fn as_option(self) -> Option<Duration> {
        match self {
            IdleTime::Never => None,
            IdleTime::After(d) => Some(d),
        }
    }
}

/// Settings changed on the device; `None` follows the admin config.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DeviceSettings {
    /// Level of a new game against the computer.
    pub default_level: Option<Level>,
    /// Brightness while in use, percent (1..=100).
    pub brightness_percent: Option<u8>,
    /// Idle time before dimming.
    pub dim_after: Option<IdleTime>,
    /// Idle time before the backlight goes off.
    pub blank_after: Option<IdleTime>,
    /// The screen's language.
    pub language: Option<Language>,
    /// Whether the computer plays from its opening book; `None`: on.
    pub opening_book: Option<bool>,
    /// Two players on one screen: the board turns to the player on move; `None`: off.
    pub turn_board: Option<bool>,
    /// The coach of a new game; `None`: off.
    pub coach: Option<CoachLevel>,
    /// New game offers the level that fits the player's rating; `None`: off.
    pub fitting_level: Option<bool>,
    /// How loud sounds and speech are; `None`: [`Volume::DEFAULT`].
    pub volume: Option<Volume>,
    /// Which moves are spoken; `None`: none.
    pub speak_moves: Option<SpeakMoves>,
    /// Assist's touches a move in games against the computer; `None`: off.
    pub assist: Option<AssistLimit>,
}

/// A device setting out of range, or settings that contradict each other or the config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidSetting {
    /// The setting.
    pub key: &'static str,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for InvalidSetting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "setting `{}`: {}", self.key, self.message)
    }
}

/// Why device settings were refused.
pub type SettingsError = StoreError<DeviceSettings>;

/// Reads and writes `<state>/settings.toml`.
pub type SettingsStore = SealedStore<DeviceSettings>;

impl DeviceSettings {
    /// Whether the computer plays from its opening book (on unless switched off).
    pub fn book(&self) -> bool {
        self.opening_book.unwrap_or(true)
    }

    /// Whether the board turns to the player on move in a two-player game (off unless set).
    pub fn turn_board(&self) -> bool {
        self.turn_board.unwrap_or(false)
    }

    /// Whether New game starts at the level that fits the player (off unless set).
    pub fn fitting_level(&self) -> bool {
        self.fitting_level.unwrap_or(false)
    }

    /// The coach a new game starts with (off unless set).
    pub fn coach(&self) -> CoachLevel {
        self.coach.unwrap_or_default()
    }

    /// How loud ChessPI plays (modest unless set).
    pub fn volume(&self) -> Volume {
        self.volume.unwrap_or_default()
    }

    /// Assist's touches a move (off unless set).
    pub fn assist(&self) -> AssistLimit {
        self.assist.unwrap_or_default()
    }

    /// Which moves are spoken (none unless set).
    pub fn speak_moves(&self) -> SpeakMoves {
        self.speak_moves.unwrap_or_default()
    }

    /// The admin config with these settings laid over it.
    ///
    /// If the brightness is set below the config's dimmed brightness, the dimmed brightness is
    /// lowered to it: dimming must never brighten the screen.
    ///
    /// # Errors
    /// [`StoreError::Invalid`]: brightness outside 1..=100, or blanking not after dimming
    /// (the same rule as the config's).
    pub fn overlay(&self, admin: &Config) -> Result<Config, SettingsError> {
        let mut config = admin.clone();
        if let Some(level) = self.default_level {
            config.engine.default_level = level.number();
        }
        if let Some(b) = self.brightness_percent {
            if !(1..=100).contains(&b) {
                return Err(StoreError::Invalid(InvalidSetting {
                    key: "brightness_percent",
                    message: format!("must be 1..=100, got {b}"),
                }));
            }
            config.display.brightness_percent = b;
            config.display.dim_brightness_percent = config.display.dim_brightness_percent.min(b);
        }
        if let Some(t) = self.dim_after {
            config.display.dim_after = t.as_option();
        }
        if let Some(t) = self.blank_after {
            config.display.blank_after = t.as_option();
        }
        if let Some(language) = self.language {
            config.display.language = LanguageChoice::Fixed(language);
        }
        if let (Some(dim), Some(blank)) = (config.display.dim_after, config.display.blank_after)
            && blank <= dim
        {
            return Err(StoreError::Invalid(InvalidSetting {
                key: "blank_after_seconds",
                message: format!(
                    "the screen must go off after it dims ({} s), or never",
                    dim.as_secs()
                ),
            }));
        }
        Ok(config)
    }

    /// [`DeviceSettings::overlay`] for start-up: settings that no longer fit the config (the
    /// admin changed it) are ignored, with the reason to log.
    pub fn effective(&self, admin: &Config) -> (Config, Option<SettingsError>) {
        match self.overlay(admin) {
            Ok(config) => (config, None),
            Err(e) => (admin.clone(), Some(e)),
        }
    }
}

impl SettingsStore {
    /// Checks `settings` against the admin config, saves them atomically and returns the
    /// config now in effect.
    ///
    /// # Errors
    /// [`StoreError::Invalid`] (nothing is saved) or [`StoreError::Write`] (the previous
    /// file is unchanged).
    pub fn update(
        &self,
        settings: &DeviceSettings,
        admin: &Config,
    ) -> Result<Config, SettingsError> {
        let config = settings.overlay(admin)?;
        self.save(settings).map_err(StoreError::Write)?;
        Ok(config)
    }
}

/// The TOML shape of `settings.toml`; opaque, public only as [`Sealable::Raw`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSettings {
    format: String,
    version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    default_level: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    brightness_percent: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dim_after_seconds: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    blank_after_seconds: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    language: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    opening_book: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    turn_board: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    coach: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fitting_level: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    volume_percent: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    speak_moves: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    assist_touches: Option<u8>,
}

impl Sealable for DeviceSettings {
    const FILE: &'static str = SETTINGS_FILE;
    const FORMAT: &'static str = "chesspi-settings";
    const VERSION: u32 = 1;
    const HEADER: &'static str = "# ChessPI settings changed on the device (written by ChessPI; \
        the admin's configuration is /etc/chesspi/chesspi.toml). Do not edit.";
    const NOUN: &'static str = "the device settings";
    type Raw = RawSettings;
    type Invalid = InvalidSetting;

    fn to_raw(&self) -> RawSettings {
        RawSettings {
            format: Self::FORMAT.to_string(),
            version: Self::VERSION,
            default_level: self.default_level.map(Level::number),
            brightness_percent: self.brightness_percent,
            dim_after_seconds: self.dim_after.map(IdleTime::seconds),
            blank_after_seconds: self.blank_after.map(IdleTime::seconds),
            language: self.language.map(|l| l.code().to_string()),
            opening_book: self.opening_book,
            turn_board: self.turn_board,
            coach: self.coach.map(|c| c.code().to_string()),
            fitting_level: self.fitting_level,
            volume_percent: self.volume.map(Volume::percent),
            speak_moves: self.speak_moves.map(|s| s.key().to_string()),
            assist_touches: self.assist.map(AssistLimit::touches),
        }
    }

    fn format_of(raw: &RawSettings) -> (&str, u32) {
        (&raw.format, raw.version)
    }

    fn from_raw(raw: RawSettings) -> Result<DeviceSettings, InvalidSetting> {
        let default_level = raw
            .default_level
            .map(|n| {
                Level::new(n).ok_or(InvalidSetting {
                    key: "default_level",
                    message: format!("must be 1..=10, got {n}"),
                })
            })
            .transpose()?;
        if let Some(b) = raw.brightness_percent
            && !(1..=100).contains(&b)
        {
            return Err(InvalidSetting {
                key: "brightness_percent",
                message: format!("must be 1..=100, got {b}"),
            });
        }
        let language = raw
            .language
            .map(|code| {
                Language::from_code(&code).ok_or(InvalidSetting {
                    key: "language",
                    message: format!("must be \"en\" or \"de\", got {code:?}"),
                })
            })
            .transpose()?;
        let coach = raw
            .coach
            .map(|code| {
                CoachLevel::from_code(&code).ok_or(InvalidSetting {
                    key: "coach",
                    message: format!("must be \"off\", \"blunders\" or \"mistakes\", got {code:?}"),
                })
            })
            .transpose()?;
        let volume = raw
            .volume_percent
            .map(|p| match Volume::nearest(p) {
                v if v.percent() == p => Ok(v),
                _ => Err(InvalidSetting {
                    key: "volume_percent",
                    message: format!("must be one of {:?}, got {p}", Volume::STEPS),
                }),
            })
            .transpose()?;
        let speak_moves = raw
            .speak_moves
            .map(|key| {
                SpeakMoves::from_key(&key).ok_or(InvalidSetting {
                    key: "speak_moves",
                    message: format!("must be \"off\", \"opponent\" or \"all\", got {key:?}"),
                })
            })
            .transpose()?;
        let assist = raw
            .assist_touches
            .map(|n| {
                AssistLimit::new(n).ok_or(InvalidSetting {
                    key: "assist_touches",
                    message: format!("must be 0..={}, got {n}", AssistLimit::MAX),
                })
            })
            .transpose()?;
        Ok(DeviceSettings {
            assist,
            language,
            coach,
            volume,
            speak_moves,
            fitting_level: raw.fitting_level,
            opening_book: raw.opening_book,
            turn_board: raw.turn_board,
            default_level,
            brightness_percent: raw.brightness_percent,
            dim_after: raw.dim_after_seconds.map(IdleTime::from_seconds),
            blank_after: raw.blank_after_seconds.map(IdleTime::from_seconds),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::sealed::{seal, unseal};
    use crate::storage::store::{decode, encode};

    /// Values behind a valid checksum are still checked.
    #[test]
    fn sealed_but_impossible_files_are_refused() {
        let all = DeviceSettings {
            default_level: Level::new(5),
            brightness_percent: Some(80),
            dim_after: Some(IdleTime::Never),
            blank_after: Some(IdleTime::After(Duration::from_secs(300))),
            language: Some(Language::German),
            opening_book: Some(false),
            turn_board: Some(true),
            coach: Some(CoachLevel::Mistakes),
            fitting_level: Some(true),
            volume: Some(Volume::nearest(80)),
            speak_moves: Some(SpeakMoves::Opponent),
            assist: AssistLimit::new(3),
        };
        let text = encode(&all);
        assert!(text.contains("assist_touches = 3"), "{text}");
        assert!(!DeviceSettings::default().assist().is_on());
        assert!(text.contains("volume_percent = 80"), "{text}");
        assert!(text.contains("speak_moves = \"opponent\""), "{text}");
        assert_eq!(DeviceSettings::default().volume(), Volume::DEFAULT);
        assert_eq!(DeviceSettings::default().speak_moves(), SpeakMoves::Off);
        assert_eq!(
            decode::<DeviceSettings>(text.as_bytes()).expect("decode"),
            all
        );
        assert!(text.contains("opening_book = false"), "{text}");
        assert!(text.contains("turn_board = true"), "{text}");
        assert!(text.contains("coach = \"mistakes\""), "{text}");
        assert!(text.contains("fitting_level = true"), "{text}");
        assert!(all.fitting_level() && !DeviceSettings::default().fitting_level());
        assert_eq!(DeviceSettings::default().coach(), CoachLevel::Off);
        assert!(all.turn_board() && !DeviceSettings::default().turn_board());
        assert!(
            !all.book() && DeviceSettings::default().book(),
            "the book is on by default"
        );
        let body = unseal(&text).expect("sealed");
        let cases = [
            (body.replace("version = 1", "version = 7"), "version 7"),
            (
                body.replace("default_level = 5", "default_level = 0"),
                "default_level",
            ),
            (
                body.replace("assist_touches = 3", "assist_touches = 7"),
                "assist_touches",
            ),
            (
                body.replace("brightness_percent = 80", "brightness_percent = 101"),
                "brightness_percent",
            ),
            (
                body.replace("brightness_percent = 80", "brightness_percent = -1"),
                "malformed",
            ),
            (format!("{body}hash_mb = 4\n"), "hash_mb"),
            (
                body.replace("language = \"de\"", "language = \"fr\""),
                "language",
            ),
            (
                body.replace("coach = \"mistakes\"", "coach = \"always\""),
                "coach",
            ),
            (
                body.replace("volume_percent = 80", "volume_percent = 85"),
                "volume_percent",
            ),
            (
                body.replace("speak_moves = \"opponent\"", "speak_moves = \"loud\""),
                "speak_moves",
            ),
        ];
        for (bad, needle) in cases {
            let err = decode::<DeviceSettings>(seal(&bad).as_bytes()).expect_err(needle);
            assert!(err.to_string().contains(needle), "{err} lacks {needle}");
        }
    }
}
