//! Each dialog as the window shows it: its title, its words, and its choices in order, built
//! from the choices' values ([`super::choice`]) and what the controller tells of the game and
//! the device ([`DialogFacts`]).

use super::choice::{
    AdjournChoice, ChoiceId, ClaimChoice, CloseChoice, DeleteChoice, ImportChoice, MenuChoice,
    OfferAnswer, PlayersChoice, RemovePlayerChoice, ResignChoice, ResignOrDrawChoice,
    SavedGameAction, SettingsChoice, ShutdownChoice, UsbChoice,
};
use crate::app::model::mode::Mode;
use crate::app::model::settings::{Setting, SettingsView};
use crate::app::screens::dialog::{Dialog, DialogOption, DialogView, SavedGameChoice};
use crate::app::screens::words::{claim_label, color_name};
use crate::app::session::game::GameSession;
use crate::lan::codec::OfferKind;
use crate::lan::session::LinkState;
use crate::tr;
use chesspi_engine::game::Termination;

/// What the dialogs' words and choices depend on beyond the dialog itself: read from the
/// controller each time one is drawn.
pub struct DialogFacts<'a> {
    pub session: &'a GameSession,
    /// The device settings, as Settings shows them.
    pub settings: &'a SettingsView,
    /// A person may move now (a draw may be offered to the computer).
    pub human_to_move: bool,
    /// The menu offers "What is threatened?".
    pub can_ask_threat: bool,
    /// The menu offers to adjourn the network game or claim its win.
    pub can_adjourn: bool,
    /// Puzzles due, as the menu's Train says.
    pub puzzles_due: usize,
    /// The menu offers "Shut down" (on the device).
    pub shutdown_allowed: bool,
    /// Settings offers Wi-Fi.
    pub wifi_allowed: bool,
    /// The network partner's name as texts show it.
    pub partner_name: String,
}

impl DialogFacts<'_> {
    /// `dialog` as the window shows it.
    pub fn view(&self, dialog: &Dialog) -> DialogView {
        match dialog {
            Dialog::Menu => self.menu(),
            Dialog::SavedGame(g) => saved_game(g),
            Dialog::ConfirmDelete(g) => confirmation(
                &tr!("Delete this game?"),
                // "Two players will be gone" read as if people were deleted.
                tr!("The game “{}” will be gone for good.", g.title),
                vec![
                    option(DeleteChoice::Delete, &tr!("Yes, delete it"), false, true),
                    option(DeleteChoice::Keep, &tr!("No, keep it"), true, false),
                ],
            ),
            Dialog::ConfirmShutdown => confirmation(
                &tr!("Shut down ChessPI?"),
                tr!("The game is saved and continues when you switch on again."),
                vec![
                    option(ShutdownChoice::ShutDown, &tr!("Shut down"), false, true),
                    option(ShutdownChoice::Cancel, &tr!("Cancel"), true, false),
                ],
            ),
            Dialog::Settings => self.settings(),
            Dialog::About => view(
                &tr!("About ChessPI"),
                tr!(
                    "ChessPI {} — a pocket chess computer. Free software under the GNU GPL \
                     version 3 or later. Pieces: Cburnett set (GPL). Font: DejaVu Sans.",
                    env!("CARGO_PKG_VERSION")
                ),
                vec![option(CloseChoice::Close, &tr!("Close"), true, false)],
            ),
            Dialog::ResignOrDraw => self.resign_or_draw(),
            Dialog::ConfirmResign => self.confirm_resign(),
            Dialog::DrawOffered { by } => view(
                &tr!("{} offers a draw", color_name(*by)),
                tr!("{}, do you accept?", color_name(!*by)),
                vec![
                    option(OfferAnswer::Accept, &tr!("Accept the draw"), true, false),
                    option(OfferAnswer::Decline, &tr!("Decline, play on"), false, false),
                ],
            ),
            Dialog::ClaimDraw(t) => view(
                &tr!("You may claim a draw"),
                match t {
                    Termination::FiftyMoves => tr!("50 moves without a capture or a pawn move."),
                    _ => tr!("This position has now occurred three times."),
                },
                vec![
                    option(ClaimChoice::Claim, &tr!("Claim the draw"), true, false),
                    option(ClaimChoice::PlayOn, &tr!("Play on"), false, false),
                ],
            ),
            Dialog::PartnerOffer(what) => self.partner_offer(*what),
            Dialog::Adjourn => view(
                &tr!("{} is not back", self.partner_name),
                tr!(
                    "Adjourn the game: it goes to Saved games, and either of you can play it on \
                     later with the same partner. Or claim the win, or keep waiting here."
                ),
                vec![
                    option(
                        AdjournChoice::Adjourn,
                        &tr!("Adjourn the game"),
                        true,
                        false,
                    ),
                    option(AdjournChoice::Forfeit, &tr!("Claim the win"), false, false),
                    option(AdjournChoice::Wait, &tr!("Keep waiting"), false, false),
                ],
            ),
            Dialog::Info { title, message } => view(
                title,
                message.clone(),
                vec![option(CloseChoice::Close, &tr!("Close"), true, false)],
            ),
            Dialog::UsbFiles(files) => view(
                &tr!("From USB stick"),
                tr!("Choose a PGN file: its games are added to Saved games."),
                std::iter::once(option(UsbChoice::Close, &tr!("Close"), true, false))
                    .chain(
                        files
                            .iter()
                            .enumerate()
                            .map(|(i, name)| option(UsbChoice::File(i), name, false, false)),
                    )
                    .collect(),
            ),
            Dialog::Players { names, current } => view(
                &tr!("Who is playing?"),
                tr!(
                    "Now: {}. Each player has their own record, rating and puzzles; a guest's \
                     games are not rated.",
                    names.get(*current).map_or("", String::as_str)
                ),
                std::iter::once(option(PlayersChoice::Close, &tr!("Close"), true, false))
                    .chain(
                        names
                            .iter()
                            .enumerate()
                            .map(|(i, name)| named(PlayersChoice::Pick(i), name)),
                    )
                    .collect(),
            ),
            Dialog::Importing { file, progress } => view(
                &tr!("From USB stick"),
                match progress {
                    None => tr!("Reading the games of {}…", file),
                    Some(p) => tr!(
                        "Reading the games of {}: {} %\n{} read, {} added to Saved games.",
                        file,
                        p.percent,
                        p.games_read,
                        p.stored
                    ),
                },
                vec![option(
                    ImportChoice::Stop,
                    &tr!("Stop the import"),
                    false,
                    false,
                )],
            ),
            Dialog::ConfirmRemovePlayer { name, .. } => confirmation(
                // The name in the message, which wraps: it may be 24 wide letters.
                &tr!("Remove a player?"),
                tr!(
                    "Remove {}? Their record and puzzles are deleted; their saved games stay.",
                    name
                ),
                vec![
                    option(RemovePlayerChoice::Remove, &tr!("Yes, remove"), false, true),
                    option(RemovePlayerChoice::Keep, &tr!("Cancel"), true, false),
                ],
            ),
        }
    }

    /// The menu: a fixed grid, each entry always in its place (a disabled one stays, greyed),
    /// so a tap where an entry was never lands on another. Two places serve two kinds of game:
    /// the level's steps against the computer (or between two players, disabled), adjourning
    /// and claiming the win in a network game.
    fn menu(&self) -> DialogView {
        let session = self.session;
        let computer_on =
            matches!(session.setup.mode, Mode::Computer { .. }) && !session.game.is_over();
        let n = session.setup.level.number();
        let (fifth, sixth) = if matches!(session.setup.mode, Mode::Network { .. }) {
            (
                when(
                    self.can_adjourn,
                    MenuChoice::Adjourn,
                    &tr!("Adjourn the game"),
                ),
                when(self.can_adjourn, MenuChoice::Forfeit, &tr!("Claim the win")),
            )
        } else if computer_on {
            (
                if n < 10 {
                    option(
                        MenuChoice::Stronger,
                        &tr!("Stronger: level {}", n + 1),
                        false,
                        false,
                    )
                } else {
                    disabled(MenuChoice::Stronger, &tr!("Stronger"))
                },
                if n > 1 {
                    option(
                        MenuChoice::Weaker,
                        &tr!("Weaker: level {}", n - 1),
                        false,
                        false,
                    )
                } else {
                    disabled(MenuChoice::Weaker, &tr!("Weaker"))
                },
            )
        } else {
            (
                disabled(MenuChoice::Stronger, &tr!("Stronger")),
                disabled(MenuChoice::Weaker, &tr!("Weaker")),
            )
        };
        let train = match self.puzzles_due {
            0 => tr!("Train"),
            n => tr!("Train: {} due", n),
        };
        let mut options = vec![
            // Close first, in the top left corner (see ui/dialogs.slint).
            option(MenuChoice::Close, &tr!("Close"), true, false),
            option(MenuChoice::New, &tr!("New game"), false, false),
            option(MenuChoice::Setup, &tr!("Set up position"), false, false),
            // The game's own row: the level (or the network's two) and the sides.
            fifth,
            sixth,
            when(computer_on, MenuChoice::Switch, &tr!("Switch sides")),
            option(MenuChoice::Analyse, &tr!("Analysis board"), false, false),
            when(
                self.can_ask_threat,
                MenuChoice::Threat,
                &tr!("What is threatened?"),
            ),
            option(MenuChoice::Games, &tr!("Saved games"), false, false),
            // Learning, one row in the Menu's three columns.
            option(MenuChoice::Train, &train, false, false),
            option(MenuChoice::Openings, &tr!("Openings"), false, false),
            option(MenuChoice::Endgames, &tr!("Endgames"), false, false),
            option(MenuChoice::Stats, &tr!("Your record"), false, false),
            option(MenuChoice::Settings, &tr!("Settings"), false, false),
            option(MenuChoice::Help, &tr!("Help"), false, false),
        ];
        // Last: a desktop without it has nothing after it to move.
        if self.shutdown_allowed {
            options.push(option(MenuChoice::Shutdown, &tr!("Shut down"), false, true));
        }
        view(&tr!("Menu"), String::new(), options)
    }

    fn settings(&self) -> DialogView {
        // Close first, as in the menu.
        let mut options = vec![option(SettingsChoice::Close, &tr!("Close"), true, false)];
        options.extend(Setting::ALL.iter().filter_map(|&setting| {
            let label = setting.label(self.settings)?;
            Some(option(
                SettingsChoice::Change(setting),
                &label,
                false,
                false,
            ))
        }));
        options.push(option(
            SettingsChoice::Players,
            &tr!("Players…"),
            false,
            false,
        ));
        if self.wifi_allowed {
            options.push(option(SettingsChoice::Wifi, &tr!("Wi-Fi…"), false, false));
        }
        options.push(option(
            SettingsChoice::About,
            &tr!("About ChessPI"),
            false,
            false,
        ));
        let message = if self.settings.brightness_percent.is_none() {
            tr!("Brightness and dimming are set on the device.")
        } else {
            tr!("Tap a setting to change it.")
        };
        view(&tr!("Settings"), message, options)
    }

    fn resign_or_draw(&self) -> DialogView {
        let session = self.session;
        let mut options = Vec::new();
        // A claim ends the game on this screen alone: not in a network game.
        if let Some(t) = session
            .game
            .claimable_draw()
            .filter(|_| session.partner().is_none())
        {
            options.push(option(
                ResignOrDrawChoice::Claim,
                &claim_label(t),
                true,
                false,
            ));
        }
        let resign = match session.setup.mode {
            Mode::Friend => tr!("{} resigns", color_name(session.game.position().turn())),
            _ => tr!("Resign"),
        };
        // Against the computer an offer is judged by a search, on the player's turn.
        let can_offer = match session.setup.mode {
            Mode::Computer { .. } => self.human_to_move && !session.thinking.is_busy(),
            Mode::Network { .. } => session
                .partner()
                .is_some_and(|p| p.link == LinkState::Connected && p.our_offer.is_none()),
            _ => true,
        };
        if can_offer {
            options.push(option(
                ResignOrDrawChoice::Offer,
                &tr!("Offer a draw"),
                false,
                false,
            ));
        }
        options.push(option(ResignOrDrawChoice::Resign, &resign, false, true));
        options.push(option(
            ResignOrDrawChoice::KeepPlaying,
            &tr!("Keep playing"),
            false,
            false,
        ));
        view(&tr!("Resign or draw?"), String::new(), options)
    }

    fn confirm_resign(&self) -> DialogView {
        let loser = self.session.setup.resigning_color(&self.session.game);
        confirmation(
            &tr!("Resign this game?"),
            match self.session.setup.mode {
                Mode::Friend => tr!(
                    "{} gives up and {} wins.",
                    color_name(loser),
                    color_name(!loser)
                ),
                Mode::Network { .. } => tr!("{} wins the game.", self.partner_name),
                _ => tr!("The computer wins the game."),
            },
            vec![
                option(ResignChoice::Resign, &tr!("Yes, resign"), false, true),
                option(
                    ResignChoice::KeepPlaying,
                    &tr!("No, keep playing"),
                    true,
                    false,
                ),
            ],
        )
    }

    fn partner_offer(&self, what: OfferKind) -> DialogView {
        let name = &self.partner_name;
        let (title, accept) = match what {
            OfferKind::Draw => (tr!("{} offers a draw", name), tr!("Accept the draw")),
            OfferKind::Takeback => (
                tr!("{} asks to take back a move", name),
                tr!("Allow the takeback"),
            ),
        };
        view(
            &title,
            tr!("Do you agree?"),
            vec![
                option(OfferAnswer::Accept, &accept, true, false),
                option(OfferAnswer::Decline, &tr!("Decline, play on"), false, false),
            ],
        )
    }
}

fn saved_game(g: &SavedGameChoice) -> DialogView {
    let mut options = Vec::new();
    if g.readable {
        options.push(option(
            SavedGameAction::Review,
            &tr!("Review the moves"),
            !g.unfinished,
            false,
        ));
        options.push(option(
            SavedGameAction::Analyse,
            &tr!("Analyse"),
            false,
            false,
        ));
    }
    if g.unfinished && g.readable {
        options.push(option(
            SavedGameAction::Resume,
            &tr!("Play on"),
            true,
            false,
        ));
    }
    options.push(option(SavedGameAction::Delete, &tr!("Delete"), false, true));
    options.push(option(SavedGameAction::Back, &tr!("Back"), false, false));
    let message = if !g.readable {
        tr!("This file cannot be read; it can only be deleted.")
    } else if g.unfinished {
        tr!("Unfinished: playing on puts your current game in this list.")
    } else {
        String::new()
    };
    view(&g.title, message, options)
}

fn option(choice: impl ChoiceId, label: &str, primary: bool, danger: bool) -> DialogOption {
    DialogOption {
        id: choice.id().into_owned(),
        label: label.to_string(),
        primary,
        danger,
        enabled: true,
        name: false,
    }
}

/// A person's name as a choice (see [`DialogOption::name`]).
fn named(choice: impl ChoiceId, label: &str) -> DialogOption {
    DialogOption {
        name: true,
        ..option(choice, label, false, false)
    }
}

/// An entry shown greyed: it keeps its place, but cannot be chosen now.
fn disabled(choice: impl ChoiceId, label: &str) -> DialogOption {
    DialogOption {
        enabled: false,
        ..option(choice, label, false, false)
    }
}

/// An entry that can be chosen only `now`.
fn when(now: bool, choice: impl ChoiceId, label: &str) -> DialogOption {
    if now {
        option(choice, label, false, false)
    } else {
        disabled(choice, label)
    }
}

fn view(title: &str, message: String, options: Vec<DialogOption>) -> DialogView {
    DialogView {
        title: title.to_string(),
        message,
        options,
        confirmation: false,
    }
}

/// A confirmation (see [`DialogView::confirmation`]): the confirming choice, then the safe one.
fn confirmation(title: &str, message: String, options: Vec<DialogOption>) -> DialogView {
    DialogView {
        confirmation: true,
        ..view(title, message, options)
    }
}
