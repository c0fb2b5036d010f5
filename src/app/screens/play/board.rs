//! The board: taps and drags on squares, promotion, and the player's moves.

use crate::app::model::mode::Mode;
use crate::app::screens::Controller;
use crate::app::screens::LanRequest;
use chesspi_engine::{Move, Role, Square};

#[derive(Debug, Clone, Copy)]
pub(in crate::app::screens) struct Press {
    pub(in crate::app::screens) square: Square,
    /// The square was already selected: a tap on it (no drag) deselects.
    pub(in crate::app::screens) was_selected: bool,
}

impl Controller {
    /// The squares a promotion is waiting for (the picker is open).
    pub fn pending_promotion(&self) -> Option<(Square, Square)> {
        self.promotion
    }

    /// The square shown at a display cell (column and row from the top-left).
    pub fn square_at(&self, col: usize, row: usize) -> Option<Square> {
        crate::app::screens::board_view::display_square(self.session.flipped, col, row)
    }

    /// The display cell (0..63, row-major from the top-left) of a square.
    pub fn cell_of(&self, sq: Square) -> usize {
        crate::app::screens::board_view::display_cell(self.session.flipped, sq)
    }

    /// The legal moves of the piece on `from` (in the current position).
    pub(in crate::app::screens) fn legal_from(&self, from: Square) -> Vec<Move> {
        let moves = self.session.game.position().legal_moves();
        moves.iter().copied().filter(|m| m.from() == from).collect()
    }

    pub(in crate::app::screens) fn is_target(&self, from: Square, to: Square) -> bool {
        self.legal_from(from).iter().any(|m| m.to() == to)
    }

    /// A finger or mouse button went down on a square (`None`: off the board).
    pub fn press(&mut self, square: Option<Square>) {
        self.press = None;
        self.session.note = None;
        // The player is back at the board: a held clock runs again (see `hold_clock`).
        self.session.clock_held = false;
        // A touch on the board while browsing the moves goes back to the game and counts.
        if self.is_browsing() {
            self.session.review = None;
        }
        if !self.human_to_move() || self.promotion.is_some() {
            return;
        }
        let Some(sq) = square else {
            self.selected = None;
            return;
        };
        if let Some(from) = self.selected
            && from != sq
            && self.is_target(from, sq)
        {
            self.move_from_to(from, sq);
            return;
        }
        let own = self
            .session
            .game
            .position()
            .piece_at(sq)
            .is_some_and(|p| p.color == self.session.game.position().turn());
        if own {
            self.press = Some(Press {
                square: sq,
                was_selected: self.selected == Some(sq),
            });
            self.selected = Some(sq);
        } else {
            // A piece was picked and this square is no move for it.
            if self.selected.take().is_some() {
                self.refuse_move();
            }
        }
    }

    /// The finger or button came up (`None`: off the board). `dragged` when it moved away
    /// from where it went down.
    pub fn release(&mut self, square: Option<Square>, dragged: bool) {
        let Some(press) = self.press.take() else {
            return;
        };
        if self.selected != Some(press.square) {
            return;
        }
        if dragged {
            // A drop on a legal target moves; anywhere else the piece goes back, still selected.
            match square {
                Some(to) if to != press.square && self.is_target(press.square, to) => {
                    self.move_from_to(press.square, to);
                }
                Some(to) if to != press.square => self.refuse_move(),
                _ => {}
            }
        } else if square == Some(press.square) && press.was_selected {
            self.selected = None;
        }
    }

    pub(in crate::app::screens) fn move_from_to(&mut self, from: Square, to: Square) {
        let candidates: Vec<Move> = self
            .legal_from(from)
            .into_iter()
            .filter(|m| m.to() == to)
            .collect();
        match candidates.as_slice() {
            [] => {}
            [mv] => self.play_human(*mv),
            // Several moves between the same squares: a promotion; ask which piece.
            _ => self.promotion = Some((from, to)),
        }
    }

    /// The move tried is not legal: a soft sound says so (the piece simply stays).
    fn refuse_move(&mut self) {
        self.effects.push(crate::app::screens::Effect::Sound(
            crate::sound::Cue::Illegal,
        ));
    }

    /// The promotion picker's answer; `None` cancels (the pawn stays selected).
    pub fn choose_promotion(&mut self, role: Option<Role>) {
        let Some((from, to)) = self.promotion.take() else {
            return;
        };
        let Some(role) = role else {
            self.selected = Some(from);
            return;
        };
        let mv = self
            .legal_from(from)
            .into_iter()
            .find(|m| m.to() == to && m.promotion() == Some(role));
        if let Some(mv) = mv {
            self.play_human(mv);
        }
    }

    /// Turns the board; saved with the game so a restart shows it the same way.
    pub(in crate::app::screens) fn flip(&mut self) {
        self.session.flipped = !self.session.flipped;
        if self.viewing.is_none() {
            self.effects.push(crate::app::screens::Effect::GameChanged);
        }
    }

    pub(in crate::app::screens) fn play_human(&mut self, mv: Move) {
        if self.human_to_move() && self.session.game.play(mv).is_ok() {
            if matches!(self.session.setup.mode, Mode::Network { .. }) {
                self.lan(LanRequest::Play(mv));
            }
            self.cancel_hint();
            self.after_change();
        }
    }
}
