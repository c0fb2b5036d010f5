//! What each dialog's choice does: on the game session, as an effect for the shell, as
//! another dialog, or as a [`Go`] to the feature that owns it (a screen, the board, the
//! network game). The dialog chosen in is already closed; a choice that keeps it open sets
//! it again.

use super::choice::{
    AdjournChoice, Choice, ClaimChoice, DeleteChoice, ImportChoice, MenuChoice, OfferAnswer,
    RemovePlayerChoice, ResignChoice, ResignOrDrawChoice, SavedGameAction, SettingsChoice,
    ShutdownChoice,
};
use crate::app::model::mode::Mode;
use crate::app::screens::dialog::{Dialog, SavedGameChoice};
use crate::app::screens::words::color_name;
use crate::app::screens::{Ctx, Effect, Go, LanRequest};
use crate::lan::codec::OfferKind;
use crate::tr;
use chesspi_engine::game::{Game, GameError, Outcome};

impl Choice {
    /// Does what the choice asks.
    pub fn act(self, cx: &mut Ctx) {
        match self {
            Choice::Menu(choice) => choice.act(cx),
            Choice::Settings(choice) => choice.act(cx),
            Choice::SavedGame(game, action) => action.act(cx, game),
            Choice::ConfirmDelete(game, DeleteChoice::Delete) => {
                cx.effect(Effect::DeleteSaved { id: game.id });
            }
            Choice::ConfirmShutdown(ShutdownChoice::ShutDown) => {
                cx.cancel_thinking();
                cx.effect(Effect::Shutdown);
            }
            Choice::ResignOrDraw(choice) => choice.act(cx),
            Choice::ConfirmResign(ResignChoice::Resign) => resign(cx),
            Choice::DrawOffered { answer, by } => match answer {
                OfferAnswer::Accept => end_game(cx, Game::agree_draw),
                OfferAnswer::Decline => {
                    cx.session.note = Some(tr!("{} declined the draw", color_name(!by)));
                }
            },
            Choice::ClaimDraw(ClaimChoice::Claim) => end_game(cx, Game::claim_draw),
            Choice::PartnerOffer(answer) => cx.effect(Effect::Lan(LanRequest::Answer {
                accept: answer == OfferAnswer::Accept,
            })),
            Choice::Adjourn(AdjournChoice::Adjourn) => cx.go(Go::Adjourn),
            Choice::Adjourn(AdjournChoice::Forfeit) => cx.go(Go::ClaimForfeit),
            Choice::Player(index) => cx.go(Go::ChoosePlayer(index)),
            Choice::UsbFile { mut files, index } => {
                cx.effect(Effect::ImportPgn { index });
                *cx.dialog = Some(Dialog::Importing {
                    file: files.swap_remove(index),
                    progress: None,
                });
            }
            Choice::Importing {
                file,
                progress,
                choice: ImportChoice::Stop,
            } => {
                cx.effect(Effect::CancelImport);
                // Stopping takes one game: the outcome replaces this dialog.
                *cx.dialog = Some(Dialog::Importing { file, progress });
            }
            // Keep, cancel, play on, keep waiting, close: the dialog just closes.
            Choice::ConfirmDelete(_, DeleteChoice::Keep)
            | Choice::ConfirmShutdown(ShutdownChoice::Cancel)
            | Choice::ConfirmResign(ResignChoice::KeepPlaying)
            | Choice::ClaimDraw(ClaimChoice::PlayOn)
            | Choice::Adjourn(AdjournChoice::Wait)
            | Choice::ConfirmRemovePlayer(_, RemovePlayerChoice::Keep)
            | Choice::Close => {}
            Choice::ConfirmRemovePlayer(id, RemovePlayerChoice::Remove) => {
                cx.go(Go::RemovePlayer(id));
            }
        }
    }
}

impl MenuChoice {
    fn act(self, cx: &mut Ctx) {
        match self {
            MenuChoice::Close => {}
            MenuChoice::New => cx.go(Go::NewGame),
            MenuChoice::Flip => cx.go(Go::Flip),
            MenuChoice::Setup => cx.go(Go::Editor),
            MenuChoice::Analyse => cx.go(Go::AnalysisBoardAt(*cx.session.shown_position())),
            MenuChoice::Settings => *cx.dialog = Some(Dialog::Settings),
            MenuChoice::Stronger => change_level(cx, 1),
            MenuChoice::Weaker => change_level(cx, -1),
            MenuChoice::Switch => {
                if cx.session.switch_sides() {
                    cx.cancel_thinking();
                    cx.go(Go::Resume);
                }
            }
            MenuChoice::Threat => cx.go(Go::AskThreat),
            MenuChoice::Adjourn => cx.go(Go::Adjourn),
            MenuChoice::Forfeit => cx.go(Go::ClaimForfeit),
            MenuChoice::Games => cx.go(Go::SavedGames),
            MenuChoice::Stats => cx.effect(Effect::ShowStatistics),
            MenuChoice::Train => cx.go(Go::Train),
            MenuChoice::Endgames => cx.go(Go::Endgames),
            MenuChoice::Help => cx.go(Go::Help),
            MenuChoice::Shutdown => *cx.dialog = Some(Dialog::ConfirmShutdown),
            MenuChoice::Openings => cx.go(Go::Openings),
        }
    }
}

impl SettingsChoice {
    fn act(self, cx: &mut Ctx) {
        match self {
            SettingsChoice::Close => {}
            SettingsChoice::Change(setting) => {
                // The shell steps it and applies it; the dialog stays open to show the new
                // value.
                cx.effect(Effect::ChangeSetting(setting));
                *cx.dialog = Some(Dialog::Settings);
            }
            SettingsChoice::Wifi if cx.wifi_allowed => cx.go(Go::Wifi),
            SettingsChoice::Wifi => {}
            SettingsChoice::About => *cx.dialog = Some(Dialog::About),
            SettingsChoice::Players => cx.go(Go::PlayersScreen),
        }
    }
}

impl SavedGameAction {
    fn act(self, cx: &mut Ctx, game: SavedGameChoice) {
        let resume = match self {
            SavedGameAction::Review => false,
            SavedGameAction::Analyse => {
                cx.go(Go::AnalyseOnOpen);
                false
            }
            SavedGameAction::Resume => true,
            SavedGameAction::Delete => {
                *cx.dialog = Some(Dialog::ConfirmDelete(game));
                return;
            }
            SavedGameAction::Back => return,
        };
        cx.effect(Effect::OpenSaved {
            id: game.id,
            resume,
        });
    }
}

impl ResignOrDrawChoice {
    fn act(self, cx: &mut Ctx) {
        match self {
            ResignOrDrawChoice::Claim => end_game(cx, Game::claim_draw),
            ResignOrDrawChoice::Offer => offer_draw(cx),
            ResignOrDrawChoice::Resign => *cx.dialog = Some(Dialog::ConfirmResign),
            ResignOrDrawChoice::KeepPlaying => {}
        }
    }
}

/// The computer one level up or down; a search under way restarts at the new level.
fn change_level(cx: &mut Ctx, step: i8) {
    if cx.session.change_level(step) {
        if cx.session.is_computer_thinking() {
            cx.cancel_thinking();
        }
        cx.go(Go::Resume);
    }
}

/// Ends the game by a result (resignation, agreement, claim) if the rules allow it now.
fn end_game(cx: &mut Ctx, end: impl FnOnce(&mut Game) -> Result<Outcome, GameError>) {
    if cx.session.end_game(end) {
        cx.go(Go::Resume);
    }
}

/// The resignation confirmed: the partner of a network game is told.
fn resign(cx: &mut Ctx) {
    let loser = cx.session.setup.resigning_color(&cx.session.game);
    if cx.session.partner().is_some() && !cx.session.game.is_over() {
        cx.effect(Effect::Lan(LanRequest::Resign));
    }
    end_game(cx, |g| g.resign(loser));
}

/// A draw offered: to the other player here, to the computer, or to the network partner.
fn offer_draw(cx: &mut Ctx) {
    match cx.session.setup.mode {
        Mode::Friend => {
            *cx.dialog = Some(Dialog::DrawOffered {
                by: cx.session.game.position().turn(),
            });
        }
        // The engine judges the position; see the worker for its rule.
        Mode::Computer { .. } => cx.go(Go::DrawOfferToComputer),
        Mode::Network { .. } => cx.go(Go::OfferToPartner(OfferKind::Draw)),
        Mode::Demo => {}
    }
}
