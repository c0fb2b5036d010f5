//! Viewing a saved game (looking through its moves) in place of the current one, which is put
//! back after.

use crate::app::model::mode::GameSetup;
use crate::app::screens::ScreenKind;
use crate::app::screens::{AnalysisMarks, Controller, ResultCard};
use chesspi_engine::game::Game;

/// A saved game shown for review in place of the current game, which is put back after.
#[derive(Debug, Clone)]
pub(in crate::app::screens) struct Viewing {
    pub(in crate::app::screens) white: String,
    pub(in crate::app::screens) black: String,
    pub(in crate::app::screens) result: Option<ResultCard>,
    pub(in crate::app::screens) game: Game,
    pub(in crate::app::screens) setup: GameSetup,
    pub(in crate::app::screens) flipped: bool,
    /// Its archive id, once known (the analysis is stored there).
    pub(in crate::app::screens) id: Option<String>,
}

impl Controller {
    /// Leaves the list of saved games (closed, or a game from it opened).
    pub fn close_saved_games(&mut self) {
        self.screen.close(ScreenKind::SavedGames);
    }

    /// A tap on a move of the move list: the board shows the position after it, without
    /// changing the game (as on lichess). Back to the game with "Back to game", or by playing.
    pub fn move_tapped(&mut self, row: usize, black: bool) {
        if self.input.pending_promotion().is_some()
            || self.screen.new_game().is_some()
            || self.dialog.is_some()
        {
            return;
        }
        // A game that starts with Black to move has "…" for White in its first row.
        let offset = usize::from(
            self.session.game.initial_position().turn() == chesspi_engine::Color::Black,
        );
        let Some(ply) = (2 * row + 1 + usize::from(black)).checked_sub(offset) else {
            return;
        };
        if ply == 0 || ply > self.session.game.moves().len() {
            return;
        }
        self.input.deselect();
        self.input.end_press();
        self.session.review = Some(ply);
    }

    /// Browsing the moves of the game being played (not a saved game, not a finished one).
    pub(in crate::app::screens) fn is_browsing(&self) -> bool {
        self.session.review.is_some()
            && self.parts.viewing.is_none()
            && !self.session.game.is_over()
    }

    /// Whether a saved game is being reviewed (the current game is put aside meanwhile).
    pub fn is_viewing_saved(&self) -> bool {
        self.parts.viewing.is_some()
    }

    /// Shows a saved game for review from its first position. The current game (already on
    /// disk) is put aside and comes back with Done; the computer stops thinking meanwhile.
    pub fn view_saved(&mut self, game: Game, white: &str, black: &str, result: Option<ResultCard>) {
        // Back to the current game first, then stop whatever it asked the computer for.
        self.leave_saved();
        self.session.cancel_thinking();
        self.drop_analysis();
        let current = std::mem::replace(&mut self.session.game, game);
        self.parts.viewing = Some(Viewing {
            white: white.to_string(),
            black: black.to_string(),
            result,
            game: current,
            setup: self.session.setup,
            flipped: self.session.flipped,
            id: None,
        });
        self.input.clear();
        self.session.thinking.set_hint(None);
        self.dialog = None;
        self.screen.close(ScreenKind::NewGame);
        self.session.note = None;
        self.session.review = Some(0);
    }

    /// The saved game under review is `id` in the archive, with its stored analysis if it
    /// has one; "Analyse" from the saved games list starts one if not.
    pub fn saved_opened(&mut self, id: &str, marks: Option<AnalysisMarks>) {
        let Some(v) = self.parts.viewing.as_mut() else {
            return;
        };
        v.id = Some(id.to_string());
        match marks {
            Some(marks) => self.set_stored_marks(marks),
            None if self.analyse_on_open => self.start_analysis(),
            None => {}
        }
        self.analyse_on_open = false;
    }

    /// Puts the current game back after reviewing a saved one.
    pub(in crate::app::screens) fn leave_saved(&mut self) {
        if let Some(v) = self.parts.viewing.take() {
            self.drop_analysis();
            self.session.game = v.game;
            self.session.setup = v.setup;
            self.session.flipped = v.flipped;
            self.session.review = None;
            self.after_change();
        }
    }
}
