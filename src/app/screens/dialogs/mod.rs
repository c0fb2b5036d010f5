//! The menu and every dialog: what they offer, what a choice does, and how they look.

pub mod record;
#[cfg(test)]
mod tests;

use super::LanRequest;
use super::dialog::{Dialog, DialogOption, DialogView, ImportShown, SavedGameChoice};
use super::words::{claim_label, color_name};
use super::{Controller, Effect, Go, Purpose};
use crate::app::model::mode::Mode;
use crate::app::model::settings::{Setting, SettingsView};
use crate::app::screens::{Screen, ScreenKind};
use crate::app::session::partner::PartnerStep;
use crate::app::session::partner::rules::{can_adjourn, partner_name};
use crate::lan::codec::OfferKind;
use crate::lan::session::LinkState;
use crate::tr;
use chesspi_engine::Color;
use chesspi_engine::game::{Game, GameError, Outcome, Termination};

impl Controller {
    /// Lets the menu offer "Shut down" (on the device).
    pub fn allow_shutdown(&mut self) {
        self.shutdown_allowed = true;
    }

    /// The device settings to show in the Settings dialog.
    pub fn set_settings_view(&mut self, settings: SettingsView) {
        self.settings = settings;
        // A two-player board turns at once.
        self.turn_to_mover();
    }

    /// Offers what can be done with a game picked from the saved games list.
    pub fn choose_saved(&mut self, choice: SavedGameChoice) {
        self.dialog = Some(Dialog::SavedGame(choice));
    }

    /// Asks the user to confirm shutting down (the power key).
    pub fn ask_shutdown(&mut self) {
        self.screen.close(ScreenKind::NewGame);
        self.input.drop_promotion();
        self.dialog = Some(Dialog::ConfirmShutdown);
    }

    /// The dialog open now, if any.
    pub fn dialog(&self) -> Option<&Dialog> {
        self.dialog.as_ref()
    }

    /// A choice in the open dialog, by id.
    pub fn dialog_option(&mut self, id: &str) {
        let Some(dialog) = self.dialog.take() else {
            // No dialog over it: the lobby's choices are its own (the shell hands them over).
            return;
        };
        if let (Dialog::Settings, Some(setting)) = (&dialog, Setting::from_id(id)) {
            // The shell steps it and applies it; the dialog stays open to show the new value.
            self.session.effect(Effect::ChangeSetting(setting));
            self.dialog = Some(Dialog::Settings);
            return;
        }
        match (dialog, id) {
            (Dialog::Menu, "new") => self.open_new_game(),
            (Dialog::Menu, "flip") => self.flip(),
            (Dialog::Menu, "setup") => self.open_editor(),
            (Dialog::Menu, "analyse") => self.open_analysis_board(),
            (Dialog::Menu, "settings") => self.dialog = Some(Dialog::Settings),
            (Dialog::Menu, "stronger") => self.change_level(1),
            (Dialog::Menu, "weaker") => self.change_level(-1),
            (Dialog::Menu, "switch") => self.switch_sides(),
            (Dialog::Settings, "about") => self.dialog = Some(Dialog::About),
            (Dialog::Settings, "wifi") if self.wifi_allowed() => self.open_wifi(),
            (Dialog::Menu, "stats") => self.session.effect(Effect::ShowStatistics),
            (Dialog::Menu, "help") => self.open_help(),
            (Dialog::Menu, "threat") => self.ask_threat(),
            (Dialog::Menu, "train") => self.open_train(),
            (Dialog::Menu, "games") => {
                self.screen = Screen::SavedGames;
                self.session.effect(Effect::ShowGames);
            }
            (Dialog::SavedGame(g), "review") => self.session.effect(Effect::OpenSaved {
                id: g.id,
                resume: false,
            }),
            (Dialog::SavedGame(g), "analyse") => {
                self.analyse_on_open = true;
                self.session.effect(Effect::OpenSaved {
                    id: g.id,
                    resume: false,
                });
            }
            (Dialog::SavedGame(g), "resume") => self.session.effect(Effect::OpenSaved {
                id: g.id,
                resume: true,
            }),
            (Dialog::SavedGame(g), "delete") => self.dialog = Some(Dialog::ConfirmDelete(g)),
            (Dialog::ConfirmDelete(g), "delete") => {
                self.session.effect(Effect::DeleteSaved { id: g.id });
            }
            (Dialog::UsbFiles(files), id) => {
                if let Some(index) = id
                    .strip_prefix("file")
                    .and_then(|n| n.parse::<usize>().ok())
                    .filter(|&i| i < files.len())
                {
                    self.session.effect(Effect::ImportPgn { index });
                    self.dialog = Some(Dialog::Importing {
                        file: files[index].clone(),
                        progress: None,
                    });
                }
            }
            (Dialog::Importing { file, progress }, "cancel_import") => {
                self.session.effect(Effect::CancelImport);
                // Stopping takes one game: the outcome replaces this dialog.
                self.dialog = Some(Dialog::Importing { file, progress });
            }
            (Dialog::Menu | Dialog::Adjourn, "adjourn") => {
                self.go(Go::Partner(PartnerStep::Adjourn));
            }
            (Dialog::Menu | Dialog::Adjourn, "forfeit") => {
                self.go(Go::Partner(PartnerStep::ClaimForfeit));
            }
            (Dialog::Menu, "shutdown") => self.dialog = Some(Dialog::ConfirmShutdown),
            (Dialog::ConfirmShutdown, "shutdown") => {
                self.cancel_thinking();
                self.session.effect(Effect::Shutdown);
            }
            (Dialog::ResignOrDraw, "resign") => self.dialog = Some(Dialog::ConfirmResign),
            (Dialog::ResignOrDraw, "offer") => self.offer_draw(),
            (Dialog::ResignOrDraw | Dialog::ClaimDraw(_), "claim") => {
                self.end_game(Game::claim_draw);
            }
            (Dialog::ConfirmResign, "resign") => {
                let loser = self.session.resigning_color();
                if self.session.partner().is_some() && !self.session.game.is_over() {
                    self.session.effect(Effect::Lan(LanRequest::Resign));
                }
                self.end_game(|g| g.resign(loser));
            }
            (Dialog::PartnerOffer(_), "accept") => {
                self.session
                    .effect(Effect::Lan(LanRequest::Answer { accept: true }));
            }
            (Dialog::PartnerOffer(_), "decline") => {
                self.session
                    .effect(Effect::Lan(LanRequest::Answer { accept: false }));
            }
            (Dialog::DrawOffered { .. }, "accept") => self.end_game(Game::agree_draw),
            (Dialog::DrawOffered { by }, "decline") => {
                self.session.note = Some(tr!("{} declined the draw", color_name(!by)));
            }
            // "close", "cancel", "play on" and anything unknown just close the dialog.
            _ => {}
        }
    }

    /// The computer plays on at the next level up or down; the game is no longer rated (a
    /// win must be against the level that played all of it).
    fn change_level(&mut self, step: i8) {
        let Mode::Computer { .. } = self.session.setup.mode else {
            return;
        };
        let Some(level) = self
            .session
            .setup
            .level
            .number()
            .checked_add_signed(step)
            .and_then(chesspi_engine::level::Level::new)
        else {
            return;
        };
        self.session.setup.level = level;
        self.session.unrated = true;
        self.session
            .effect(Effect::LevelChosen { level, fits: false });
        self.session.note = Some(tr!(
            "The computer now plays at level {} — this game is not rated",
            level.number()
        ));
        // A search under way restarts at the new level.
        if self.session.is_computer_thinking() {
            self.cancel_thinking();
        }
        self.after_change();
    }

    /// The player takes the computer's side and the computer the player's, on the same board.
    fn switch_sides(&mut self) {
        let Mode::Computer { human } = self.session.setup.mode else {
            return;
        };
        self.cancel_thinking();
        self.session.setup.mode = Mode::Computer { human: !human };
        self.session.flipped = self.session.setup.bottom_color() == Color::Black;
        self.session.unrated = true;
        self.session.note = Some(tr!("Sides switched — this game is not rated"));
        self.after_change();
    }

    /// Ends the game by a result (resignation, agreement, claim) if the rules allow it now.
    pub(super) fn end_game(&mut self, end: impl FnOnce(&mut Game) -> Result<Outcome, GameError>) {
        if end(&mut self.session.game).is_ok() {
            self.after_change();
        }
    }

    /// A tap outside the dialog: the same as its cancel choice. A draw offer needs an answer.
    pub fn dialog_dismissed(&mut self) {
        if !matches!(
            self.dialog,
            Some(Dialog::DrawOffered { .. } | Dialog::PartnerOffer(_))
        ) {
            self.dialog = None;
        }
    }

    pub(super) fn offer_draw(&mut self) {
        match self.session.setup.mode {
            Mode::Friend => {
                self.dialog = Some(Dialog::DrawOffered {
                    by: self.session.game.position().turn(),
                });
            }
            // The engine judges the position; see the worker for its rule.
            Mode::Computer { .. } => {
                if self.human_to_move() && self.session.thinking.is_none() {
                    self.request(Purpose::DrawOffer);
                }
            }
            Mode::Network { .. } => self.go(Go::Partner(PartnerStep::Offer(OfferKind::Draw))),
            Mode::Demo => {}
        }
    }

    /// The open dialog as the screen shows it.
    pub fn dialog_view(&self) -> Option<DialogView> {
        // The lobby's steps show as dialogs too: the shell asks the lobby for them.
        let dialog = self.dialog.as_ref()?;
        Some(match dialog {
            Dialog::Menu => self.menu_view(),
            Dialog::SavedGame(g) => saved_game_view(g),
            Dialog::ConfirmDelete(g) => confirmation(
                &tr!("Delete this game?"),
                // "Two players will be gone" read as if people were deleted.
                tr!("The game “{}” will be gone for good.", g.title),
                vec![
                    option("delete", &tr!("Yes, delete it"), false, true),
                    option("cancel", &tr!("No, keep it"), true, false),
                ],
            ),
            Dialog::ConfirmShutdown => confirmation(
                &tr!("Shut down ChessPI?"),
                tr!("The game is saved and continues when you switch on again."),
                vec![
                    option("shutdown", &tr!("Shut down"), false, true),
                    option("cancel", &tr!("Cancel"), true, false),
                ],
            ),
            Dialog::Settings => self.settings_view(),
            Dialog::About => view(
                &tr!("About ChessPI"),
                tr!(
                    "ChessPI {} — a pocket chess computer. Free software under the GNU GPL \
                     version 3 or later. Pieces: Cburnett set (GPL). Font: DejaVu Sans.",
                    env!("CARGO_PKG_VERSION")
                ),
                vec![option("close", &tr!("Close"), true, false)],
            ),
            Dialog::ResignOrDraw => self.resign_or_draw_view(),
            Dialog::ConfirmResign => confirmation(
                &tr!("Resign this game?"),
                match self.session.setup.mode {
                    Mode::Friend => tr!(
                        "{} gives up and {} wins.",
                        color_name(self.session.resigning_color()),
                        color_name(!self.session.resigning_color())
                    ),
                    Mode::Network { .. } => tr!("{} wins the game.", partner_name(&self.session)),
                    _ => tr!("The computer wins the game."),
                },
                vec![
                    option("resign", &tr!("Yes, resign"), false, true),
                    option("cancel", &tr!("No, keep playing"), true, false),
                ],
            ),
            Dialog::DrawOffered { by } => view(
                &tr!("{} offers a draw", color_name(*by)),
                tr!("{}, do you accept?", color_name(!*by)),
                vec![
                    option("accept", &tr!("Accept the draw"), true, false),
                    option("decline", &tr!("Decline, play on"), false, false),
                ],
            ),
            Dialog::ClaimDraw(t) => view(
                &tr!("You may claim a draw"),
                match t {
                    Termination::FiftyMoves => tr!("50 moves without a capture or a pawn move."),
                    _ => tr!("This position has now occurred three times."),
                },
                vec![
                    option("claim", &tr!("Claim the draw"), true, false),
                    option("cancel", &tr!("Play on"), false, false),
                ],
            ),
            Dialog::PartnerOffer(what) => {
                let name = partner_name(&self.session);
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
                        option("accept", &accept, true, false),
                        option("decline", &tr!("Decline, play on"), false, false),
                    ],
                )
            }
            Dialog::Adjourn => view(
                &tr!("{} is not back", partner_name(&self.session)),
                tr!(
                    "Adjourn the game: it goes to Saved games, and either of you can play it on \
                     later with the same partner. Or claim the win, or keep waiting here."
                ),
                vec![
                    option("adjourn", &tr!("Adjourn the game"), true, false),
                    option("forfeit", &tr!("Claim the win"), false, false),
                    option("wait", &tr!("Keep waiting"), false, false),
                ],
            ),
            Dialog::Info { title, message } => view(
                title,
                message.clone(),
                vec![option("close", &tr!("Close"), true, false)],
            ),
            Dialog::UsbFiles(files) => view(
                &tr!("From USB stick"),
                tr!("Choose a PGN file: its games are added to Saved games."),
                std::iter::once(option("close", &tr!("Close"), true, false))
                    .chain(
                        files
                            .iter()
                            .enumerate()
                            .map(|(i, name)| option(&format!("file{i}"), name, false, false)),
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
                    "cancel_import",
                    &tr!("Stop the import"),
                    false,
                    false,
                )],
            ),
        })
    }

    fn menu_view(&self) -> DialogView {
        // Close first: in the same place whatever else the menu offers (see ui/dialogs.slint).
        let mut options = vec![
            option("close", &tr!("Close"), true, false),
            option("new", &tr!("New game"), false, false),
            option("setup", &tr!("Set up position"), false, false),
            option("analyse", &tr!("Analysis board"), false, false),
        ];
        // What a chess computer lets you change mid-game: the level and the sides.
        if let (Mode::Computer { .. }, false) =
            (self.session.setup.mode, self.session.game.is_over())
        {
            let n = self.session.setup.level.number();
            if n < 10 {
                options.push(option(
                    "stronger",
                    &tr!("Stronger: level {}", n + 1),
                    false,
                    false,
                ));
            }
            if n > 1 {
                options.push(option(
                    "weaker",
                    &tr!("Weaker: level {}", n - 1),
                    false,
                    false,
                ));
            }
            options.push(option("switch", &tr!("Switch sides"), false, false));
        }
        if self.can_ask_threat() {
            options.push(option("threat", &tr!("What is threatened?"), false, false));
        }
        if can_adjourn(&self.session) {
            options.push(option("adjourn", &tr!("Adjourn the game"), false, false));
            options.push(option("forfeit", &tr!("Claim the win"), false, false));
        }
        options.extend([
            option("games", &tr!("Saved games"), false, false),
            option("stats", &tr!("Your record"), false, false),
            option("settings", &tr!("Settings"), false, false),
            option(
                "train",
                &match self.puzzles_due() {
                    0 => tr!("Train"),
                    n => tr!("Train: {} due", n),
                },
                false,
                false,
            ),
            option("help", &tr!("Help"), false, false),
        ]);
        if self.shutdown_allowed {
            options.push(option("shutdown", &tr!("Shut down"), false, true));
        }
        view(&tr!("Menu"), String::new(), options)
    }

    fn settings_view(&self) -> DialogView {
        // Close first, as in the menu.
        let mut options = vec![option("close", &tr!("Close"), true, false)];
        options.extend(Setting::ALL.iter().filter_map(|setting| {
            let label = setting.label(&self.settings)?;
            Some(option(setting.id(), &label, false, false))
        }));
        if self.wifi_allowed() {
            options.push(option("wifi", &tr!("Wi-Fi…"), false, false));
        }
        options.push(option("about", &tr!("About ChessPI"), false, false));
        let message = if self.settings.brightness_percent.is_none() {
            tr!("Brightness and dimming are set on the device.")
        } else {
            tr!("Tap a setting to change it.")
        };
        view(&tr!("Settings"), message, options)
    }

    fn resign_or_draw_view(&self) -> DialogView {
        let mut options = Vec::new();
        // A claim ends the game on this screen alone: not in a network game.
        if let Some(t) = self
            .session
            .game
            .claimable_draw()
            .filter(|_| self.session.partner().is_none())
        {
            options.push(option("claim", &claim_label(t), true, false));
        }
        let resign = match self.session.setup.mode {
            Mode::Friend => tr!(
                "{} resigns",
                color_name(self.session.game.position().turn())
            ),
            _ => tr!("Resign"),
        };
        // Against the computer an offer is judged by a search, on the player's turn.
        let can_offer = match self.session.setup.mode {
            Mode::Computer { .. } => self.human_to_move() && self.session.thinking.is_none(),
            Mode::Network { .. } => self
                .session
                .partner()
                .is_some_and(|p| p.link == LinkState::Connected && p.our_offer.is_none()),
            _ => true,
        };
        if can_offer {
            options.push(option("offer", &tr!("Offer a draw"), false, false));
        }
        options.push(option("resign", &resign, false, true));
        options.push(option("cancel", &tr!("Keep playing"), false, false));
        view(&tr!("Resign or draw?"), String::new(), options)
    }

    /// Shows a message in a dialog (for other parts of the app: errors, notices).
    pub fn show_info(&mut self, title: &str, message: &str) {
        self.dialog = Some(Dialog::Info {
            title: title.to_string(),
            message: message.to_string(),
        });
    }

    /// Saved games → From USB stick: the PGN files found on the sticks (as the list names
    /// them), one to be chosen for import.
    pub fn show_usb_files(&mut self, names: Vec<String>) {
        self.dialog = Some(Dialog::UsbFiles(names));
    }

    /// An import's progress, shown while its dialog is open.
    pub fn import_progress(&mut self, shown: ImportShown) {
        if let Some(Dialog::Importing { progress, .. }) = &mut self.dialog {
            *progress = Some(shown);
        }
    }
}

fn saved_game_view(g: &SavedGameChoice) -> DialogView {
    let mut options = Vec::new();
    if g.readable {
        options.push(option(
            "review",
            &tr!("Review the moves"),
            !g.unfinished,
            false,
        ));
        options.push(option("analyse", &tr!("Analyse"), false, false));
    }
    if g.unfinished && g.readable {
        options.push(option("resume", &tr!("Play on"), true, false));
    }
    options.push(option("delete", &tr!("Delete"), false, true));
    options.push(option("cancel", &tr!("Back"), false, false));
    let message = if !g.readable {
        tr!("This file cannot be read; it can only be deleted.")
    } else if g.unfinished {
        tr!("Unfinished: playing on puts your current game in this list.")
    } else {
        String::new()
    };
    view(&g.title, message, options)
}

fn option(id: &str, label: &str, primary: bool, danger: bool) -> DialogOption {
    DialogOption {
        id: id.to_string(),
        label: label.to_string(),
        primary,
        danger,
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
