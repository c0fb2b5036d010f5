//! Looking through games: the moves of the game on the board, and a saved game shown in place
//! of the current one, which is put back after.
//!
//! [`Viewing`] is a part of the controller ([`crate::app::screens::Parts`]), reached with
//! `c.part(|v: &mut Viewing, cx| …)` and read with `c.get::<Viewing>()`. What it asks of the
//! analysis, the board's touches or the open screen goes as a [`Go`].

use crate::app::model::mode::GameSetup;
use crate::app::screens::ScreenKind;
use crate::app::screens::{AnalysisMarks, Ctx, Go, ResultCard};
use crate::app::session::game::GameSession;
use chesspi_engine::game::Game;

/// A saved game shown for review in place of the current game, which is put back after.
#[derive(Debug, Clone)]
pub(in crate::app::screens) struct Saved {
    pub(in crate::app::screens) white: String,
    pub(in crate::app::screens) black: String,
    pub(in crate::app::screens) result: Option<ResultCard>,
    /// The current game, put aside.
    game: Game,
    setup: GameSetup,
    flipped: bool,
    /// Its archive id, once known (the analysis is stored there).
    id: Option<String>,
}

/// A saved game to show, once the current game is back (see [`Viewing::view_saved`]).
#[derive(Debug, Clone)]
pub struct SavedGame {
    game: Game,
    white: String,
    black: String,
    result: Option<ResultCard>,
}

/// Looking through games: set while a saved game is looked through, holding the current game.
#[derive(Debug, Clone, Default)]
pub struct Viewing {
    saved: Option<Saved>,
}

impl Viewing {
    /// Leaves the list of saved games (closed, or a game from it opened).
    pub fn close_list(&mut self, cx: &mut Ctx) {
        cx.go(Go::Close(ScreenKind::SavedGames));
    }

    /// A tap on a move of the move list: the board shows the position after it, without
    /// changing the game (as on lichess). Back to the game with "Back to game", or by playing.
    /// Not while the board waits for something else (see `Go::ShowMove`).
    pub fn move_tapped(&mut self, cx: &mut Ctx, row: usize, black: bool) {
        let game = &cx.session.game;
        // A game that starts with Black to move has "…" for White in its first row.
        let offset = usize::from(game.initial_position().turn() == chesspi_engine::Color::Black);
        let Some(ply) = (2 * row + 1 + usize::from(black)).checked_sub(offset) else {
            return;
        };
        if ply == 0 || ply > game.moves().len() {
            return;
        }
        cx.go(Go::ShowMove(ply));
    }

    /// Browsing the moves of the game being played (not a saved game, not a finished one).
    pub fn is_browsing(&self, session: &GameSession) -> bool {
        session.review.is_some() && self.saved.is_none() && !session.game.is_over()
    }

    /// Whether a saved game is being reviewed (the current game is put aside meanwhile).
    pub fn is_viewing_saved(&self) -> bool {
        self.saved.is_some()
    }

    /// The saved game under review, if one is.
    pub(in crate::app::screens) fn saved(&self) -> Option<&Saved> {
        self.saved.as_ref()
    }

    /// The archive id of the saved game under review, once known.
    pub(in crate::app::screens) fn saved_id(&self) -> Option<String> {
        self.saved.as_ref().and_then(|v| v.id.clone())
    }

    /// Another game replaces the one on the board: the saved game is let go, and the
    /// current game with it (the new one takes its place).
    pub(in crate::app::screens) fn forget(&mut self) {
        self.saved = None;
    }

    /// Shows a saved game for review from its first position. The current game (already on
    /// disk) is put aside and comes back with Done; the computer stops thinking meanwhile.
    pub fn view_saved(
        &mut self,
        cx: &mut Ctx,
        game: Game,
        white: &str,
        black: &str,
        result: Option<ResultCard>,
    ) {
        // Back to the current game first (it goes on as after Done), then the saved game.
        self.leave_saved(cx);
        cx.go(Go::ViewSaved(Box::new(SavedGame {
            game,
            white: white.to_string(),
            black: black.to_string(),
            result,
        })));
    }

    /// The saved game takes the board's place, once the current game is back (`Go::ViewSaved`,
    /// which also clears the board's touches and closes New game).
    pub(in crate::app::screens) fn show_saved(&mut self, cx: &mut Ctx, saved: SavedGame) {
        // Stop whatever the current game asked the computer for.
        cx.cancel_thinking();
        cx.go(Go::DropAnalysis);
        let current = std::mem::replace(&mut cx.session.game, saved.game);
        self.saved = Some(Saved {
            white: saved.white,
            black: saved.black,
            result: saved.result,
            game: current,
            setup: cx.session.setup,
            flipped: cx.session.flipped,
            id: None,
        });
        cx.session.thinking.set_hint(None);
        *cx.dialog = None;
        cx.session.note = None;
        cx.session.review = Some(0);
    }

    /// The saved game under review is `id` in the archive, with its stored analysis if it
    /// has one; "Analyse" from the saved games list starts one if not.
    pub fn saved_opened(&mut self, cx: &mut Ctx, id: &str, marks: Option<AnalysisMarks>) {
        let Some(v) = self.saved.as_mut() else {
            return;
        };
        v.id = Some(id.to_string());
        cx.go(Go::SavedOpened(marks));
    }

    /// Puts the current game back after reviewing a saved one.
    pub fn leave_saved(&mut self, cx: &mut Ctx) {
        if let Some(v) = self.saved.take() {
            cx.go(Go::DropAnalysis);
            cx.session.game = v.game;
            cx.session.setup = v.setup;
            cx.session.flipped = v.flipped;
            cx.session.review = None;
            cx.go(Go::Resume);
        }
    }
}
