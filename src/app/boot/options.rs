//! What the app is started with: the options the command line (`crate::cli`) parses into.

use crate::app::model::clock::TimeControl;
use crate::app::model::mode::{ColourChoice, ModeChoice, NewGameForm};
use chesspi_engine::level::Level;
use std::path::PathBuf;

/// Options of the interactive app.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RunOptions {
    /// Start from this position (FEN) instead of the default new game.
    pub fen: Option<String>,
    /// The config file instead of the default one.
    pub config: Option<PathBuf>,
    /// Open straight into hosting or joining a network game.
    pub lan: Option<LanStart>,
    /// `--new`: start this game at once (from `fen` if given), after storing the game in
    /// progress in Saved games.
    pub new_game: Option<NewGame>,
}

/// `--new computer|friend|demo [--color ...] [--level N] [--clock M+S]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewGame {
    /// Computer, Friend or Demo (never Network: that is `--lan-host`/`--lan-join`).
    pub mode: ModeChoice,
    /// The player's colour against the computer (White unless given).
    pub colour: ColourChoice,
    /// The computer's level; the device's default level when absent.
    pub level: Option<Level>,
    /// The time control; no clocks when absent.
    pub clock: Option<TimeControl>,
}

/// `--lan-host` / `--lan-join`: a network game from the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LanStart {
    /// Host, playing this colour (`None`: drawn at random).
    Host {
        color: Option<chesspi_engine::Color>,
    },
    /// Join the host at `HOST[:PORT]`, with its pairing code if given (else it is asked for).
    Join {
        target: String,
        code: Option<String>,
    },
}

impl NewGame {
    /// The New game form this asks for; `default_level` when no level was given.
    pub fn form(&self, default_level: Level) -> NewGameForm {
        let mut form = NewGameForm::from_setup(&crate::app::model::mode::GameSetup::FIRST_START);
        form.mode = self.mode;
        form.colour = self.colour;
        form.level = self.level.unwrap_or(default_level);
        form.choose_clock(self.clock);
        form
    }
}
