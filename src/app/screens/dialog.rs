//! Which dialog is open over the screen, and a dialog as the window shows it: shared by every
//! screen that opens one (each dialog's offers and choices are in [`super::dialogs`]).

use crate::lan::codec::OfferKind;
use chesspi_engine::Color;
use chesspi_engine::game::Termination;

/// The open dialog, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Dialog {
    Menu,
    About,
    /// Resign, offer a draw, or claim one.
    ResignOrDraw,
    ConfirmResign,
    /// Two players: the other one answers a draw offer.
    DrawOffered {
        by: Color,
    },
    /// A claimable draw offered to the player on move.
    ClaimDraw(Termination),
    /// The network partner offers a draw or asks for a takeback.
    PartnerOffer(OfferKind),
    /// The partner has been away long enough: adjourn the game, claim the win, or keep
    /// waiting.
    Adjourn,
    /// The power key or the menu asked to turn the device off.
    ConfirmShutdown,
    /// Brightness, dimming, and About.
    Settings,
    /// What to do with a game of the saved games list.
    SavedGame(SavedGameChoice),
    /// Deleting a saved game needs a second tap.
    ConfirmDelete(SavedGameChoice),
    /// Something to read and close.
    Info {
        title: String,
        message: String,
    },
    /// Saved games → From USB stick: the PGN files found on the sticks, as the list names
    /// them; one is chosen to import.
    UsbFiles(Vec<String>),
    /// A file being imported: how far it has come (none yet at its start), and Cancel.
    Importing {
        file: String,
        progress: Option<ImportShown>,
    },
    /// Settings → Players: who is at the device, chosen among the players' names as they
    /// were when it opened (the guest last); `current` marks the one playing.
    Players {
        names: Vec<String>,
        current: usize,
    },
    /// Removing player `id` (called `name`) needs a second tap: their record and puzzles go.
    ConfirmRemovePlayer {
        id: crate::storage::players::PlayerId,
        name: String,
    },
}

impl Dialog {
    /// Whether the player is away from the game while it is open, so its clock waits. An
    /// offer or a question about the game on the board is part of playing it: the clock runs.
    /// (No wildcard: a new dialog must say which it is.)
    pub fn pauses_the_clock(&self) -> bool {
        match self {
            Dialog::Menu
            | Dialog::Settings
            | Dialog::About
            | Dialog::ConfirmShutdown
            | Dialog::SavedGame(_)
            | Dialog::ConfirmDelete(_)
            | Dialog::Players { .. }
            | Dialog::ConfirmRemovePlayer { .. }
            | Dialog::Info { .. } => true,
            // The USB stick's dialogs open over Saved games, which pauses it already.
            Dialog::ResignOrDraw
            | Dialog::ConfirmResign
            | Dialog::DrawOffered { .. }
            | Dialog::ClaimDraw(_)
            | Dialog::PartnerOffer(_)
            | Dialog::Adjourn
            | Dialog::UsbFiles(_)
            | Dialog::Importing { .. } => false,
        }
    }
}

/// How far an import has come, as its dialog says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportShown {
    pub games_read: usize,
    pub stored: usize,
    /// Of the text read, 0–100.
    pub percent: u8,
}

/// A saved game picked from the list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedGameChoice {
    /// The archive id.
    pub id: String,
    /// "You – Level 4 (≈1390), 12 Nov 2026", as the list shows it.
    pub title: String,
    /// Whether it can be continued.
    pub unfinished: bool,
    /// Whether it can be read at all (a damaged file can only be deleted).
    pub readable: bool,
}

/// A choice in a dialog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialogOption {
    pub id: String,
    pub label: String,
    pub primary: bool,
    pub danger: bool,
    /// Shown greyed, keeping its place, when it cannot be chosen now.
    pub enabled: bool,
    /// A person's name, which may be one long word: it breaks anywhere, at the normal size.
    pub name: bool,
}

/// A dialog as the screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialogView {
    pub title: String,
    pub message: String,
    pub options: Vec<DialogOption>,
    /// A confirmation of something that cannot be undone (resign, delete, shut down): its
    /// two choices side by side near the top of the screen, clear of every button that opens
    /// one (those sit lower: see ui/dialogs.slint), so a second tap where the opener was
    /// confirms nothing.
    pub confirmation: bool,
}
