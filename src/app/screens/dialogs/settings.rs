//! The device's side of the Settings dialog: each step applied at once (brightness and
//! dimming through the power watcher) and kept for the state directory.

use crate::config::Config;
use crate::i18n::Language;
use crate::power::idle::IdleSettings;
use crate::power::watcher::PowerWatcher;
use crate::sound::{SpeakMoves, SpeakerState, Volume};
use crate::storage::{DeviceSettings, IdleTime};
use crate::tr;
use chesspi_engine::coach::CoachLevel;
use chesspi_engine::level::Level;
use std::time::Duration;

/// A setting the Settings dialog steps through: its row (the label with its value) is
/// [`Setting::label`], its next value [`DeviceControls::step`], and where it acts the shell's
/// `apply_settings` (sound) or the controller's [`SettingsView`] (book, board, coach).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    Brightness,
    DimAfter,
    Language,
    /// The computer's opening book: on or off.
    Book,
    /// Two players: the board turns to the player on move, or not.
    TurnBoard,
    /// The coach new games start with: off, blunders, mistakes too.
    Coach,
    /// Sound: the next volume step (after the loudest, off).
    Volume,
    /// Spoken moves: off, the opponent's, all.
    SpeakMoves,
}

/// The device settings as the Settings dialog shows them and the game follows them
/// (`None`: not on this device).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingsView {
    pub brightness_percent: Option<u8>,
    /// `Some(None)`: never dims.
    pub dim_after: Option<Option<Duration>>,
    /// The screen's language (every device has this one).
    pub language: Language,
    pub volume: Volume,
    pub speak_moves: SpeakMoves,
    /// Whether a sound device was found.
    pub speaker: SpeakerState,
    /// Whether the computer plays from its opening book.
    pub book: bool,
    /// Two players: the board turns to the player on move.
    pub turn_board: bool,
    /// The coach a new game starts with.
    pub coach: CoachLevel,
}

impl Default for SettingsView {
    fn default() -> SettingsView {
        SettingsView {
            brightness_percent: None,
            dim_after: None,
            language: Language::default(),
            volume: Volume::default(),
            speak_moves: SpeakMoves::default(),
            speaker: SpeakerState::default(),
            book: true,
            turn_board: false,
            coach: CoachLevel::Off,
        }
    }
}

impl Setting {
    /// The rows of the Settings dialog, in order.
    pub const ALL: [Setting; 8] = [
        Setting::Brightness,
        Setting::DimAfter,
        Setting::Language,
        Setting::Book,
        Setting::TurnBoard,
        Setting::Coach,
        Setting::Volume,
        Setting::SpeakMoves,
    ];

    /// The row's id in the dialog.
    pub fn id(self) -> &'static str {
        match self {
            Setting::Brightness => "brightness",
            Setting::DimAfter => "dim",
            Setting::Language => "language",
            Setting::Book => "book",
            Setting::TurnBoard => "turn",
            Setting::Coach => "coach",
            Setting::Volume => "sound",
            Setting::SpeakMoves => "speak",
        }
    }

    pub fn from_id(id: &str) -> Option<Setting> {
        Setting::ALL.into_iter().find(|s| s.id() == id)
    }

    /// The row: what it is and its value now (`None`: not on this device).
    pub fn label(self, view: &SettingsView) -> Option<String> {
        Some(match self {
            Setting::Brightness => tr!("Brightness: {} %", view.brightness_percent?),
            Setting::DimAfter => match view.dim_after? {
                None => tr!("Dim the screen: never"),
                Some(d) if d.as_secs() % 60 == 0 => {
                    tr!("Dim the screen after {} min", d.as_secs() / 60)
                }
                Some(d) => tr!("Dim the screen after {} s", d.as_secs()),
            },
            Setting::Language => tr!("Language: {}", view.language.native_name()),
            Setting::Book if view.book => tr!("Opening book: on"),
            Setting::Book => tr!("Opening book: off"),
            Setting::TurnBoard if view.turn_board => tr!("Two players: board turns"),
            Setting::TurnBoard => tr!("Two players: board stays"),
            Setting::Coach => match view.coach {
                CoachLevel::Off => tr!("Coach: off"),
                CoachLevel::Blunders => tr!("Coach: warns of blunders"),
                CoachLevel::Mistakes => tr!("Coach: warns of mistakes"),
            },
            Setting::Volume => match view.speaker {
                SpeakerState::Missing => tr!("Sound: no speaker found"),
                _ if view.volume.is_mute() => tr!("Sound: off"),
                _ => tr!("Sound: {} %", view.volume.percent()),
            },
            Setting::SpeakMoves => match view.speak_moves {
                SpeakMoves::Off => tr!("Speak moves: off"),
                SpeakMoves::Opponent => tr!("Speak moves: opponent's"),
                SpeakMoves::All => tr!("Speak moves: all"),
            },
        })
    }
}

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
        let sound_and_language = SettingsView {
            language: display.language.resolve(),
            volume: self.settings.volume(),
            speak_moves: self.settings.speak_moves(),
            speaker,
            book: self.settings.book(),
            turn_board: self.settings.turn_board(),
            coach: self.settings.coach(),
            ..SettingsView::default()
        };
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
            // The shell applies it to the screen (it owns the window).
            Setting::Language => {
                let now = display.language.resolve();
                let all = Language::ALL;
                let i = all.iter().position(|&l| l == now).unwrap_or(0);
                self.settings.language = Some(all[(i + 1) % all.len()]);
            }
            // The shell hands it to the controller, for the computer's next move.
            Setting::Book => self.settings.opening_book = Some(!self.settings.book()),
            // The shell hands it to the controller, which turns the board at once.
            Setting::TurnBoard => self.settings.turn_board = Some(!self.settings.turn_board()),
            // The shell hands these to the sound thread.
            Setting::Volume => self.settings.volume = Some(self.settings.volume().next()),
            Setting::SpeakMoves => {
                self.settings.speak_moves = Some(self.settings.speak_moves().next());
            }
            // The shell hands it to the controller, for the next new game.
            Setting::Coach => self.settings.coach = Some(self.settings.coach().next()),
        }
    }

    /// Remembers the level of the game just started for the next New game, and whether it
    /// was the level that fits the player (New game then follows the player's rating).
    pub fn choose_level(&mut self, level: Level, fits: bool) {
        self.settings.default_level = Some(level);
        self.settings.fitting_level = Some(fits);
    }

    /// Whether New game starts at the level that fits the player.
    pub fn fitting_level(&self) -> bool {
        self.settings.fitting_level()
    }
}
