//! The board: taps and drags on squares, promotion, and the player's moves.

use crate::app::model::mode::Mode;
use crate::app::screens::Controller;
use crate::app::screens::board_input::Touch;
use crate::app::screens::{Effect, LanRequest};
use chesspi_engine::{Move, Role, Square};

impl Controller {
    /// The squares a promotion waits for (the picker is open).
    pub fn pending_promotion(&self) -> Option<(Square, Square)> {
        self.input.pending_promotion()
    }

    /// The board square at a cell of the screen's board, as the board is turned.
    pub fn square_at(&self, col: usize, row: usize) -> Option<Square> {
        crate::app::screens::board_view::display_square(self.session.flipped, col, row)
    }

    /// The screen's cell showing `sq`, as the board is turned.
    pub fn cell_of(&self, sq: Square) -> usize {
        crate::app::screens::board_view::display_cell(self.session.flipped, sq)
    }

    /// A finger down on the board (`None`: off it): selects a piece of the side to move, or
    /// moves the selected one there.
    pub fn press(&mut self, square: Option<Square>) {
        self.session.note = None;
        // The player is back at the board: a held clock runs again (see `hold_clock`).
        self.session.clocks.release();
        // A touch on the board while browsing the moves goes back to the game and counts.
        if self.parts.viewing.is_browsing(&self.session) {
            self.session.review = None;
        }
        if !self.session.human_to_move() {
            self.input.end_press();
            return;
        }
        let touch = self.input.press(self.session.game.position(), square);
        self.touched(touch);
    }

    /// The finger up (`None`: off the board), after a drag or not.
    pub fn release(&mut self, square: Option<Square>, dragged: bool) {
        let touch = self
            .input
            .release(self.session.game.position(), square, dragged);
        self.touched(touch);
    }

    fn touched(&mut self, touch: Touch) {
        match touch {
            Touch::Move(mv) => self.play_human(mv),
            Touch::Missed => self.session.effect(crate::app::screens::Effect::Sound(
                crate::sound::Cue::Illegal,
            )),
            Touch::Nothing | Touch::Selection | Touch::Promotion => {}
        }
    }

    /// The promotion picker's answer; `None` cancels (the pawn stays selected).
    pub fn choose_promotion(&mut self, role: Option<Role>) {
        if let Some(mv) = self
            .input
            .choose_promotion(self.session.game.position(), role)
        {
            self.play_human(mv);
        }
    }

    /// Turns the board; saved with the game so a restart shows it the same way.
    pub(in crate::app::screens) fn flip(&mut self) {
        self.session.flipped = !self.session.flipped;
        if !self.parts.viewing.is_viewing_saved() {
            self.session
                .effect(crate::app::screens::Effect::GameChanged);
        }
    }

    pub(in crate::app::screens) fn play_human(&mut self, mv: Move) {
        if self.session.human_to_move() && self.session.game.play(mv).is_ok() {
            if matches!(self.session.setup.mode, Mode::Network { .. }) {
                self.session.effect(Effect::Lan(LanRequest::Play(mv)));
            }
            self.session.cancel_hint();
            self.after_change();
        }
    }
}
