//! A board's touch input, the same on every board that takes moves (the game, Train, the
//! analysis board): a piece selected by a tap or picked up by a press, moved by a second tap
//! or a drop, a pawn's promotion waiting for its piece. It only reads the position; what a
//! move does is the screen's.

use chesspi_engine::{Move, Position, Role, Square};

/// What a touch came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Touch {
    /// Nothing changed (a tap on an empty square with nothing selected, the picker open).
    Nothing,
    /// A piece of the side to move is selected now, or the selection was let go.
    Selection,
    /// A move: the screen plays it.
    Move(Move),
    /// A pawn reached the last rank: the promotion picker opens.
    Promotion,
    /// A selected piece was sent where it cannot go (the game sounds it): after a tap the
    /// selection is gone, after a drag the piece is back and still selected.
    Missed,
}

/// A press on a square, until its release.
#[derive(Debug, Clone, Copy)]
struct Press {
    square: Square,
    /// The square was selected before: a tap on it (no drag) lets it go.
    was_selected: bool,
}

/// The selection, a press in progress, and a promotion waiting for its piece.
#[derive(Debug, Clone, Default)]
pub struct BoardInput {
    selected: Option<Square>,
    press: Option<Press>,
    promotion: Option<(Square, Square)>,
}

/// The legal moves of the piece on `from`.
pub fn moves_from(pos: &Position, from: Square) -> Vec<Move> {
    let moves = pos.legal_moves();
    moves.iter().copied().filter(|m| m.from() == from).collect()
}

impl BoardInput {
    pub fn selected(&self) -> Option<Square> {
        self.selected
    }

    /// The squares a promotion waits for (the picker is open).
    pub fn pending_promotion(&self) -> Option<(Square, Square)> {
        self.promotion
    }

    /// Forgets the selection, a press and a waiting promotion (the position changed).
    pub fn clear(&mut self) {
        *self = BoardInput::default();
    }

    /// Lets the selected piece go (a press in progress then comes to nothing).
    pub fn deselect(&mut self) {
        self.selected = None;
    }

    /// Forgets a press in progress (the board takes no move now).
    pub fn end_press(&mut self) {
        self.press = None;
    }

    /// Closes the promotion picker unanswered; the pawn stays selected.
    pub fn drop_promotion(&mut self) {
        self.promotion = None;
    }

    /// The selected piece's moves (the board marks their squares).
    pub fn targets(&self, pos: &Position) -> Vec<Move> {
        self.selected
            .map(|from| moves_from(pos, from))
            .unwrap_or_default()
    }

    /// A tap: a press and its release on the same square.
    pub fn tap(&mut self, pos: &Position, square: Square) -> Touch {
        match self.press(pos, Some(square)) {
            Touch::Selection => self.release(pos, Some(square), false),
            other => other,
        }
    }

    /// A finger down on `square` (`None`: off the board).
    pub fn press(&mut self, pos: &Position, square: Option<Square>) -> Touch {
        self.press = None;
        if self.promotion.is_some() {
            return Touch::Nothing;
        }
        let Some(sq) = square else {
            self.selected = None;
            return Touch::Selection;
        };
        if let Some(from) = self.selected
            && from != sq
            && moves_from(pos, from).iter().any(|m| m.to() == sq)
        {
            return self.move_from_to(pos, from, sq);
        }
        if pos.piece_at(sq).is_some_and(|p| p.color == pos.turn()) {
            self.press = Some(Press {
                square: sq,
                was_selected: self.selected == Some(sq),
            });
            self.selected = Some(sq);
            Touch::Selection
        } else if self.selected.take().is_some() {
            Touch::Missed
        } else {
            Touch::Nothing
        }
    }

    /// The finger up on `square` (`None`: off the board), after a drag or not.
    pub fn release(&mut self, pos: &Position, square: Option<Square>, dragged: bool) -> Touch {
        let Some(press) = self.press.take() else {
            return Touch::Nothing;
        };
        if self.selected != Some(press.square) {
            return Touch::Nothing;
        }
        if dragged {
            // A drop on a legal target moves; anywhere else the piece goes back, still selected.
            return match square {
                Some(to)
                    if to != press.square
                        && moves_from(pos, press.square).iter().any(|m| m.to() == to) =>
                {
                    self.move_from_to(pos, press.square, to)
                }
                Some(to) if to != press.square => Touch::Missed,
                _ => Touch::Selection,
            };
        }
        if square == Some(press.square) && press.was_selected {
            self.selected = None;
        }
        Touch::Selection
    }

    fn move_from_to(&mut self, pos: &Position, from: Square, to: Square) -> Touch {
        let candidates: Vec<Move> = moves_from(pos, from)
            .into_iter()
            .filter(|m| m.to() == to)
            .collect();
        match candidates.as_slice() {
            [] => Touch::Nothing,
            [mv] => {
                self.selected = None;
                Touch::Move(*mv)
            }
            // Several moves between the same squares: a promotion; ask which piece.
            _ => {
                self.promotion = Some((from, to));
                Touch::Promotion
            }
        }
    }

    /// The picker's answer: the promotion move, or `None` when cancelled (the pawn stays
    /// selected).
    pub fn choose_promotion(&mut self, pos: &Position, role: Option<Role>) -> Option<Move> {
        let (from, to) = self.promotion.take()?;
        let Some(role) = role else {
            self.selected = Some(from);
            return None;
        };
        self.selected = None;
        moves_from(pos, from)
            .into_iter()
            .find(|m| m.to() == to && m.promotion() == Some(role))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().expect("square")
    }

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).expect("fen")
    }

    #[test]
    fn a_tap_selects_a_second_tap_moves_and_a_tap_on_the_selection_lets_it_go() {
        let start = Position::startpos();
        let mut input = BoardInput::default();
        assert_eq!(input.tap(&start, sq("e2")), Touch::Selection);
        assert_eq!(input.selected(), Some(sq("e2")));
        assert_eq!(input.targets(&start).len(), 2);
        assert_eq!(input.tap(&start, sq("e2")), Touch::Selection);
        assert_eq!(input.selected(), None);
        input.tap(&start, sq("g1"));
        assert!(matches!(input.tap(&start, sq("f3")), Touch::Move(m) if m.to() == sq("f3")));
    }

    #[test]
    fn a_selected_piece_sent_nowhere_it_can_go_is_missed_and_let_go() {
        let start = Position::startpos();
        let mut input = BoardInput::default();
        input.tap(&start, sq("e2"));
        assert_eq!(input.tap(&start, sq("e5")), Touch::Missed);
        assert_eq!(input.selected(), None);
        assert_eq!(input.tap(&start, sq("e5")), Touch::Nothing);
    }

    #[test]
    fn a_drag_moves_and_a_drop_off_target_keeps_the_piece_selected() {
        let start = Position::startpos();
        let mut input = BoardInput::default();
        input.press(&start, Some(sq("e2")));
        assert_eq!(input.release(&start, None, true), Touch::Selection);
        assert_eq!(input.selected(), Some(sq("e2")));
        input.press(&start, Some(sq("e2")));
        assert!(matches!(
            input.release(&start, Some(sq("e4")), true),
            Touch::Move(m) if m.to() == sq("e4")
        ));
    }

    #[test]
    fn a_promotion_waits_for_its_piece_and_a_cancel_keeps_the_pawn_selected() {
        let p = pos("8/4P3/8/8/8/8/k7/4K3 w - - 0 1");
        let mut input = BoardInput::default();
        input.tap(&p, sq("e7"));
        assert_eq!(input.tap(&p, sq("e8")), Touch::Promotion);
        assert_eq!(
            input.tap(&p, sq("e1")),
            Touch::Nothing,
            "the picker is open"
        );
        assert_eq!(input.choose_promotion(&p, None), None);
        assert_eq!(input.selected(), Some(sq("e7")));
        input.tap(&p, sq("e8"));
        let mv = input
            .choose_promotion(&p, Some(Role::Knight))
            .expect("a move");
        assert_eq!(mv.promotion(), Some(Role::Knight));
    }
}
