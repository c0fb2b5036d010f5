//! The Settings dialog's rows: which settings there are, their labels, their next values and
//! the values the game follows. A setting is written here (its row and its step), in
//! `storage/settings.rs` (its stored field) and where it acts (the shell's `apply_settings`,
//! or the controller reading [`SettingsView`]); the screen's light, which needs the power
//! watcher, is stepped by the shell (`shell::device`).

use crate::i18n::Language;
use crate::sound::{SpeakMoves, SpeakerState, Volume};
use crate::storage::DeviceSettings;
use crate::tr;
use chesspi_engine::coach::{AssistLimit, CoachLevel};
use std::time::Duration;

/// A setting the Settings dialog steps through: its row (the label with its value) is
/// [`Setting::label`], its next value [`Setting::step`], and where it acts the shell's
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
    /// Assist: off, or 1 to 6 touched pieces a move graded.
    Assist,
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
    /// Assist's touches a move in games against the computer.
    pub assist: AssistLimit,
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
            assist: AssistLimit::OFF,
        }
    }
}

impl SettingsView {
    /// What the stored settings show, in `language` with the sound device as `speaker`
    /// (the screen's light, which the power watcher keeps, is the shell's to add).
    pub fn of(stored: &DeviceSettings, language: Language, speaker: SpeakerState) -> SettingsView {
        SettingsView {
            language,
            volume: stored.volume(),
            speak_moves: stored.speak_moves(),
            speaker,
            book: stored.book(),
            turn_board: stored.turn_board(),
            coach: stored.coach(),
            assist: stored.assist(),
            ..SettingsView::default()
        }
    }
}

impl Setting {
    /// The rows of the Settings dialog, in order.
    pub const ALL: [Setting; 9] = [
        Setting::Brightness,
        Setting::DimAfter,
        Setting::Language,
        Setting::Book,
        Setting::TurnBoard,
        Setting::Coach,
        Setting::Volume,
        Setting::SpeakMoves,
        Setting::Assist,
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
            Setting::Assist => "assist",
        }
    }

    /// Steps the stored value to its next one; `false` for the screen's light (brightness,
    /// dimming), which the shell steps with the power watcher.
    pub fn step(self, stored: &mut DeviceSettings, language_now: Language) -> bool {
        match self {
            Setting::Brightness | Setting::DimAfter => return false,
            Setting::Language => {
                let all = Language::ALL;
                let i = all.iter().position(|&l| l == language_now).unwrap_or(0);
                stored.language = Some(all[(i + 1) % all.len()]);
            }
            Setting::Book => stored.opening_book = Some(!stored.book()),
            Setting::TurnBoard => stored.turn_board = Some(!stored.turn_board()),
            Setting::Coach => stored.coach = Some(stored.coach().next()),
            Setting::Volume => stored.volume = Some(stored.volume().next()),
            Setting::SpeakMoves => stored.speak_moves = Some(stored.speak_moves().next()),
            Setting::Assist => stored.assist = Some(stored.assist().next()),
        }
        true
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
            Setting::Assist => match view.assist.touches() {
                0 => tr!("Assist: off"),
                1 => tr!("Assist: 1 touch a move"),
                n => tr!("Assist: {} touches a move", n),
            },
        })
    }
}
