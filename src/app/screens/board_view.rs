//! A board's squares as the screen shows them — shared by the game, the editor and the
//! analysis board: the plain cells, and their Slint models (changing only what changed, so
//! the software renderer repaints as little as possible).

use crate::app::ui::{BoardPiece, PromotionRole, SquareView};
use chesspi_engine::{Color, Move, Piece, Position, Role, Square};
use slint::{Model, ModelRc, SharedString, VecModel};
use std::rc::Rc;

/// One square as the screen shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CellView {
    pub piece: Option<Piece>,
    pub square_light: bool,
    pub selected: bool,
    pub last_move: bool,
    pub check: bool,
    pub hint: bool,
    pub target: bool,
    pub capture: bool,
    pub file_label: Option<char>,
    pub rank_label: Option<char>,
}

/// What a board shows besides its pieces.
pub struct BoardMarks<'a> {
    pub selected: Option<Square>,
    /// The selected piece's legal moves.
    pub targets: &'a [Move],
    pub last: Option<Move>,
    pub hint: Option<Move>,
}

/// The 64 cells of `pos` in display order (row-major from the top-left); `square_at` maps a
/// display column and row to its square. The game's board and the analysis board share it.
pub fn board_cells(
    pos: &Position,
    marks: &BoardMarks,
    square_at: impl Fn(usize, usize) -> Option<Square>,
) -> [CellView; 64] {
    let check = pos.is_check().then(|| pos.king_of(pos.turn()));
    let touches = |m: Option<Move>, sq: Square| m.is_some_and(|m| m.from() == sq || m.to() == sq);
    let mut cells = [CellView::default(); 64];
    for (cell, view) in cells.iter_mut().enumerate() {
        let Some(sq) = square_at(cell % 8, cell / 8) else {
            continue;
        };
        let piece = pos.piece_at(sq);
        let target = marks.targets.iter().any(|m| m.to() == sq);
        *view = CellView {
            piece,
            square_light: sq.is_light(),
            selected: marks.selected == Some(sq),
            last_move: touches(marks.last, sq),
            check: check == Some(sq),
            hint: touches(marks.hint, sq),
            target,
            capture: target
                && (piece.is_some()
                    || marks
                        .targets
                        .iter()
                        .any(|m| m.to() == sq && m.is_en_passant())),
            file_label: (cell / 8 == 7).then(|| sq.file().char()),
            rank_label: (cell % 8 == 0).then(|| sq.rank().char()),
        };
    }
    cells
}

/// Every piece and how the screen names it.
const BOARD_PIECES: [(Color, Role, BoardPiece); 12] = [
    (Color::White, Role::Pawn, BoardPiece::WhitePawn),
    (Color::White, Role::Knight, BoardPiece::WhiteKnight),
    (Color::White, Role::Bishop, BoardPiece::WhiteBishop),
    (Color::White, Role::Rook, BoardPiece::WhiteRook),
    (Color::White, Role::Queen, BoardPiece::WhiteQueen),
    (Color::White, Role::King, BoardPiece::WhiteKing),
    (Color::Black, Role::Pawn, BoardPiece::BlackPawn),
    (Color::Black, Role::Knight, BoardPiece::BlackKnight),
    (Color::Black, Role::Bishop, BoardPiece::BlackBishop),
    (Color::Black, Role::Rook, BoardPiece::BlackRook),
    (Color::Black, Role::Queen, BoardPiece::BlackQueen),
    (Color::Black, Role::King, BoardPiece::BlackKing),
];

/// A piece (or an empty square) as the .slint files draw it (ui/pieces.slint).
pub fn board_piece(piece: Option<Piece>) -> BoardPiece {
    piece
        .and_then(|p| {
            BOARD_PIECES
                .iter()
                .find(|(color, role, _)| p.color == *color && p.role == *role)
        })
        .map_or(BoardPiece::None, |&(_, _, shown)| shown)
}

/// The piece the screen names (`None` for `BoardPiece::None`).
pub fn piece_of(shown: BoardPiece) -> Option<Piece> {
    BOARD_PIECES
        .iter()
        .find(|(_, _, b)| *b == shown)
        .map(|&(color, role, _)| Piece::new(color, role))
}

/// The promotion picker's answer (ui/dialogs.slint); `None` cancels.
pub fn promotion_role(role: PromotionRole) -> Option<Role> {
    match role {
        PromotionRole::Knight => Some(Role::Knight),
        PromotionRole::Bishop => Some(Role::Bishop),
        PromotionRole::Rook => Some(Role::Rook),
        PromotionRole::Queen => Some(Role::Queen),
        _ => None,
    }
}

/// Puts `squares` into a board's model, changing only the cells that differ (the renderer
/// redraws what changed); a new model when the count differs, for the caller to set.
pub fn update_squares(
    model: &ModelRc<SquareView>,
    squares: Vec<SquareView>,
) -> Option<ModelRc<SquareView>> {
    if model.row_count() != squares.len() {
        return Some(ModelRc::from(Rc::new(VecModel::from(squares))));
    }
    for (i, sq) in squares.into_iter().enumerate() {
        if model.row_data(i).as_ref() != Some(&sq) {
            model.set_row_data(i, sq);
        }
    }
    None
}

pub fn square_view(cell: &CellView) -> SquareView {
    let label = |c: Option<char>| {
        c.map(|c| SharedString::from(c.to_string()))
            .unwrap_or_default()
    };
    SquareView {
        piece: board_piece(cell.piece),
        light: cell.square_light,
        selected: cell.selected,
        last_move: cell.last_move,
        check: cell.check,
        hint: cell.hint,
        target: cell.target,
        capture: cell.capture,
        file_label: label(cell.file_label),
        rank_label: label(cell.rank_label),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_has_its_own_name_on_screen() {
        for &(color, role, shown) in &BOARD_PIECES {
            let piece = Piece::new(color, role);
            assert_eq!(board_piece(Some(piece)), shown);
            assert_eq!(piece_of(shown), Some(piece));
        }
        assert_eq!(board_piece(None), BoardPiece::None);
        assert_eq!(piece_of(BoardPiece::None), None);
    }
}
