//! Each dialog's choices as values. The window names a choice by its id: the ids are written
//! here only, the views build their options from these values, and [`Choice::parse`] is the
//! one place an id from the window becomes a choice.

use crate::app::model::settings::Setting;
use crate::app::screens::dialog::{Dialog, ImportShown, SavedGameChoice};
use chesspi_engine::Color;
use std::borrow::Cow;

/// A choice as the window names it (its option's id).
pub trait ChoiceId {
    fn id(&self) -> Cow<'static, str>;
}

/// A dialog's choices, each with its id, and the choice an id names.
macro_rules! choices {
    ($($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident = $id:literal,)* })*) => {$(
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)*
        }

        impl $name {
            /// The choice with this id, if this dialog has one.
            fn from_id(id: &str) -> Option<$name> {
                match id {
                    $($id => Some($name::$variant),)*
                    _ => None,
                }
            }
        }

        impl ChoiceId for $name {
            fn id(&self) -> Cow<'static, str> {
                Cow::Borrowed(match self {
                    $($name::$variant => $id,)*
                })
            }
        }
    )*};
}

choices! {
    /// The Menu's choices (Flip is no longer shown, but still understood).
    MenuChoice {
        Close = "close",
        New = "new",
        Flip = "flip",
        Setup = "setup",
        Analyse = "analyse",
        Settings = "settings",
        /// The computer one level up.
        Stronger = "stronger",
        /// The computer one level down.
        Weaker = "weaker",
        /// The player takes the computer's side.
        Switch = "switch",
        Threat = "threat",
        Adjourn = "adjourn",
        Forfeit = "forfeit",
        Games = "games",
        Stats = "stats",
        Train = "train",
        Help = "help",
        Endgames = "endgames",
        Shutdown = "shutdown",
        Openings = "openings",
    }

    /// What to do with a game picked from the saved games list.
    SavedGameAction {
        Review = "review",
        Analyse = "analyse",
        Resume = "resume",
        Delete = "delete",
        Back = "cancel",
    }

    /// Deleting a saved game, confirmed or not.
    DeleteChoice {
        Delete = "delete",
        Keep = "cancel",
    }

    /// Shutting down, confirmed or not.
    ShutdownChoice {
        ShutDown = "shutdown",
        Cancel = "cancel",
    }

    /// Resign, offer a draw, or claim one.
    ResignOrDrawChoice {
        Claim = "claim",
        Offer = "offer",
        Resign = "resign",
        KeepPlaying = "cancel",
    }

    /// Resigning, confirmed or not.
    ResignChoice {
        Resign = "resign",
        KeepPlaying = "cancel",
    }

    /// A claimable draw offered to the player on move.
    ClaimChoice {
        Claim = "claim",
        PlayOn = "cancel",
    }

    /// The answer to an offer (a draw, a takeback).
    OfferAnswer {
        Accept = "accept",
        Decline = "decline",
    }

    /// The partner is away: adjourn, claim the win, or keep waiting.
    AdjournChoice {
        Adjourn = "adjourn",
        Forfeit = "forfeit",
        Wait = "wait",
    }

    /// A message or About: only Close.
    CloseChoice {
        Close = "close",
    }

    /// A file being imported: stop it.
    ImportChoice {
        Stop = "cancel_import",
    }

    /// Removing a player, confirmed or not.
    RemovePlayerChoice {
        Remove = "remove",
        Keep = "cancel",
    }
}

/// Settings' choices: a device setting's row, Wi-Fi, About.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettingsChoice {
    Close,
    /// Step this setting to its next value.
    Change(Setting),
    Wifi,
    About,
    Players,
}

impl SettingsChoice {
    fn from_id(id: &str) -> Option<SettingsChoice> {
        if let Some(setting) = Setting::from_id(id) {
            return Some(SettingsChoice::Change(setting));
        }
        match id {
            "close" => Some(SettingsChoice::Close),
            "wifi" => Some(SettingsChoice::Wifi),
            "players" => Some(SettingsChoice::Players),
            "about" => Some(SettingsChoice::About),
            _ => None,
        }
    }
}

impl ChoiceId for SettingsChoice {
    fn id(&self) -> Cow<'static, str> {
        Cow::Borrowed(match self {
            SettingsChoice::Close => "close",
            SettingsChoice::Change(setting) => setting.id(),
            SettingsChoice::Wifi => "wifi",
            SettingsChoice::Players => "players",
            SettingsChoice::About => "about",
        })
    }
}

/// From USB stick: a PGN file to import, by its place in the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsbChoice {
    Close,
    File(usize),
}

impl UsbChoice {
    fn from_id(id: &str) -> Option<UsbChoice> {
        if id == "close" {
            return Some(UsbChoice::Close);
        }
        let index = id.strip_prefix("file")?.parse::<usize>().ok()?;
        Some(UsbChoice::File(index))
    }
}

impl ChoiceId for UsbChoice {
    fn id(&self) -> Cow<'static, str> {
        match self {
            UsbChoice::Close => Cow::Borrowed("close"),
            UsbChoice::File(index) => Cow::Owned(format!("file{index}")),
        }
    }
}

/// Players: one of them (or the guest), by place in the list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayersChoice {
    Close,
    Pick(usize),
}

impl PlayersChoice {
    fn from_id(id: &str) -> Option<PlayersChoice> {
        if id == "close" {
            return Some(PlayersChoice::Close);
        }
        let index = id.strip_prefix("player")?.parse::<usize>().ok()?;
        Some(PlayersChoice::Pick(index))
    }
}

impl ChoiceId for PlayersChoice {
    fn id(&self) -> Cow<'static, str> {
        match self {
            PlayersChoice::Close => Cow::Borrowed("close"),
            PlayersChoice::Pick(index) => Cow::Owned(format!("player{index}")),
        }
    }
}

/// A choice in the open dialog: which dialog, its choice, and what the dialog held that the
/// choice needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    Menu(MenuChoice),
    Settings(SettingsChoice),
    SavedGame(SavedGameChoice, SavedGameAction),
    ConfirmDelete(SavedGameChoice, DeleteChoice),
    ConfirmShutdown(ShutdownChoice),
    ResignOrDraw(ResignOrDrawChoice),
    ConfirmResign(ResignChoice),
    /// Two players: the answer to `by`'s draw offer.
    DrawOffered {
        by: Color,
        answer: OfferAnswer,
    },
    ClaimDraw(ClaimChoice),
    /// The answer to the network partner's offer.
    PartnerOffer(OfferAnswer),
    Adjourn(AdjournChoice),
    /// The file `index` of the list `files`.
    UsbFile {
        files: Vec<String>,
        index: usize,
    },
    /// The import dialog, and its choice.
    Importing {
        file: String,
        progress: Option<ImportShown>,
        choice: ImportChoice,
    },
    /// The player (or guest) at place `index` of the Players list.
    Player(usize),
    /// Removing player `id`, confirmed or not.
    ConfirmRemovePlayer(crate::storage::players::PlayerId, RemovePlayerChoice),
    /// The Close of a message, About or the USB list.
    Close,
}

impl Choice {
    /// The choice the window's `id` names in `dialog`; `None` for an id it does not know
    /// (the dialog then just closes).
    pub fn parse(dialog: Dialog, id: &str) -> Option<Choice> {
        Some(match dialog {
            Dialog::Menu => Choice::Menu(MenuChoice::from_id(id)?),
            Dialog::Settings => Choice::Settings(SettingsChoice::from_id(id)?),
            Dialog::SavedGame(game) => Choice::SavedGame(game, SavedGameAction::from_id(id)?),
            Dialog::ConfirmDelete(game) => Choice::ConfirmDelete(game, DeleteChoice::from_id(id)?),
            Dialog::ConfirmShutdown => Choice::ConfirmShutdown(ShutdownChoice::from_id(id)?),
            Dialog::ResignOrDraw => Choice::ResignOrDraw(ResignOrDrawChoice::from_id(id)?),
            Dialog::ConfirmResign => Choice::ConfirmResign(ResignChoice::from_id(id)?),
            Dialog::DrawOffered { by } => Choice::DrawOffered {
                by,
                answer: OfferAnswer::from_id(id)?,
            },
            Dialog::ClaimDraw(_) => Choice::ClaimDraw(ClaimChoice::from_id(id)?),
            Dialog::PartnerOffer(_) => Choice::PartnerOffer(OfferAnswer::from_id(id)?),
            Dialog::Adjourn => Choice::Adjourn(AdjournChoice::from_id(id)?),
            Dialog::About | Dialog::Info { .. } => {
                CloseChoice::from_id(id)?;
                Choice::Close
            }
            Dialog::UsbFiles(files) => match UsbChoice::from_id(id)? {
                UsbChoice::Close => Choice::Close,
                // A file no longer listed is no choice.
                UsbChoice::File(index) if index < files.len() => Choice::UsbFile { files, index },
                UsbChoice::File(_) => return None,
            },
            Dialog::Players { names, .. } => match PlayersChoice::from_id(id)? {
                PlayersChoice::Close => Choice::Close,
                PlayersChoice::Pick(index) if index < names.len() => Choice::Player(index),
                PlayersChoice::Pick(_) => return None,
            },
            Dialog::Importing { file, progress } => Choice::Importing {
                file,
                progress,
                choice: ImportChoice::from_id(id)?,
            },
            Dialog::ConfirmRemovePlayer { id: player, .. } => {
                Choice::ConfirmRemovePlayer(player, RemovePlayerChoice::from_id(id)?)
            }
        })
    }
}
