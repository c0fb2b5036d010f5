//! The Settings dialog's rows: which settings there are, their labels and the values the
//! game follows. Plain data: the shell applies a step (`shell::device`), screens read it.

use crate::i18n::Language;
use crate::sound::{SpeakMoves, SpeakerState, Volume};
use crate::tr;
use chesspi_engine::coach::CoachLevel;
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
