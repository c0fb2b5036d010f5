//! The device's side of the Settings dialog: each step applied at once (brightness and
//! dimming through the power watcher) and kept for the state directory.

use crate::app::model::settings::{Setting, SettingsView};
use crate::config::Config;
use crate::i18n::Language;
use crate::power::idle::IdleSettings;
use crate::power::watcher::PowerWatcher;
use crate::sound::{SpeakMoves, SpeakerState, Volume};
use crate::storage::{DeviceSettings, IdleTime};
use chesspi_engine::level::Level;
use std::time::Duration;

/// The settings a person changes on the device, applied at once and stored in the state
/// directory (never in the admin's config file).
pub struct DeviceControls {
    settings: DeviceSettings,
    admin: Config,
    power: Option<PowerWatcher>,
}

/// Brightness steps of the Settings dialog, percent.
const BRIGHTNESS_STEPS: [u8; 4] = [30, 55, 80, 100];
/// Dimming steps of the Settings dialog, seconds; 0 never dims.
const DIM_STEPS: [u64; 5] = [60, 120, 300, 600, 0];
/// The screen goes off this many times the dimming time after the last touch.
const BLANK_FACTOR: u32 = 5;

impl DeviceControls {
    /// `settings` as read from the state directory, over `admin`; `power` drives the
    /// backlight (absent on a desktop, where the Settings dialog offers no light settings).
    pub fn new(settings: DeviceSettings, admin: Config, power: Option<PowerWatcher>) -> Self {
        DeviceControls {
            settings,
            admin,
            power,
        }
    }

    /// The settings to store.
    pub fn settings(&self) -> DeviceSettings {
        self.settings
    }

    /// The admin's config the settings are checked against.
    pub fn admin(&self) -> &Config {
        &self.admin
    }

    fn effective(&self) -> Config {
        self.settings.effective(&self.admin).0
    }

    /// What the Settings dialog shows, with `speaker` as the sound thread found it.
    pub fn view(&self, speaker: SpeakerState) -> SettingsView {
        let display = self.effective().display;
        let sound_and_language =
            SettingsView::of(&self.settings, display.language.resolve(), speaker);
        if self.power.is_none() {
            return sound_and_language;
        }
        SettingsView {
            brightness_percent: Some(display.brightness_percent),
            dim_after: Some(display.dim_after),
            ..sound_and_language
        }
    }

    /// How loud sounds are.
    pub fn volume(&self) -> Volume {
        self.settings.volume()
    }

    /// Which moves are spoken.
    pub fn speak_moves(&self) -> SpeakMoves {
        self.settings.speak_moves()
    }

    /// The language the screen speaks now.
    pub fn language(&self) -> Language {
        self.effective().display.language.resolve()
    }

    /// Steps `setting` to its next value and applies it to the screen.
    pub fn step(&mut self, setting: Setting) {
        let display = self.effective().display;
        match setting {
            Setting::Brightness => {
                let now = display.brightness_percent;
                let next = BRIGHTNESS_STEPS
                    .iter()
                    .copied()
                    .find(|&b| b > now)
                    .unwrap_or(BRIGHTNESS_STEPS[0]);
                self.settings.brightness_percent = Some(next);
                if let Some(power) = &self.power {
                    power.set_brightness(next);
                }
            }
            Setting::DimAfter => {
                let now = display.dim_after.map_or(0, |d| d.as_secs());
                let index = DIM_STEPS.iter().position(|&s| s == now);
                let next = match index {
                    Some(i) => DIM_STEPS[(i + 1) % DIM_STEPS.len()],
                    // A value from the admin's config that is not a step: start the steps.
                    None => DIM_STEPS[0],
                };
                let (dim, blank) = if next == 0 {
                    (IdleTime::Never, IdleTime::Never)
                } else {
                    let dim = Duration::from_secs(next);
                    (IdleTime::After(dim), IdleTime::After(dim * BLANK_FACTOR))
                };
                self.settings.dim_after = Some(dim);
                self.settings.blank_after = Some(blank);
                if let Some(power) = &self.power {
                    let display = self.effective().display;
                    power.set_idle(IdleSettings {
                        dim_after: display.dim_after,
                        blank_after: display.blank_after,
                    });
                }
            }
            // The rest are stored values (the shell then applies them where they act).
            _ => {
                setting.step(&mut self.settings, display.language.resolve());
            }
        }
    }

    /// Remembers the level of the game just started for the next New game, and whether it
    /// was the level that fits the player (New game then follows the player's rating).
    /// The coach new games start with: the player's own, when another comes to the device.
    pub fn set_coach(&mut self, coach: chesspi_engine::coach::CoachLevel) {
        self.settings.coach = Some(coach);
    }

    pub fn choose_level(&mut self, level: Level, fits: bool) {
        self.settings.default_level = Some(level);
        self.settings.fitting_level = Some(fits);
    }

    /// Whether New game starts at the level that fits the player.
    pub fn fitting_level(&self) -> bool {
        self.settings.fitting_level()
    }
}
