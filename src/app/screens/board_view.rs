//! A board's squares as the screen shows them — shared by the game, the editor and the
//! analysis board: the plain cells, and their Slint models (changing only what changed, so
//! the software renderer repaints as little as possible).

use crate::app::ui::{AssistGrade, BoardPiece, PromotionRole, SquareView};
use chesspi_engine::coach::Grade;
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
    /// A square the coach's warning is about.
    pub warned: bool,
    pub target: bool,
    pub capture: bool,
    /// Assist's grade of the selected piece's move here.
    pub assist: Option<Grade>,
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
    /// The squares the coach's warning is about.
    pub warned: &'a [Square],
    /// Assist's grades of the selected piece's moves (empty: none to show).
    pub assist: &'a [(Move, Grade)],
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
            warned: marks.warned.contains(&sq),
            target,
            capture: target
                && (piece.is_some()
                    || marks
                        .targets
                        .iter()
                        .any(|m| m.to() == sq && m.is_en_passant())),
            // A promotion's four moves share a square: the best of them shows.
            assist: marks
                .assist
                .iter()
                .filter(|(m, _)| m.to() == sq)
                .map(|&(_, g)| g)
                .min(),
            file_label: (cell / 8 == 7).then(|| sq.file().char()),
            rank_label: (cell % 8 == 0).then(|| sq.rank().char()),
        };
    }
    cells
}

/// The square at display column `col` and row `row` (from the top-left) of a board turned
/// (`flipped`: Black at the bottom) or not.
pub fn display_square(flipped: bool, col: usize, row: usize) -> Option<Square> {
    if col > 7 || row > 7 {
        return None;
    }
    let (file, rank) = if flipped {
        (7 - col, row)
    } else {
        (col, 7 - row)
    };
    Square::new(rank * 8 + file)
}

/// The display cell (0..63, row-major from the top-left) of `sq` on a board turned or not.
pub fn display_cell(flipped: bool, sq: Square) -> usize {
    let (file, rank) = (sq.file().index(), sq.rank().index());
    if flipped {
        rank * 8 + (7 - file)
    } else {
        (7 - rank) * 8 + file
    }
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
        warned: cell.warned,
        target: cell.target,
        capture: cell.capture,
        assist: match cell.assist {
            None => AssistGrade::None,
            Some(Grade::Good) => AssistGrade::Good,
            Some(Grade::Inaccuracy) => AssistGrade::Inaccuracy,
            Some(Grade::Bad) => AssistGrade::Bad,
        },
        file_label: label(cell.file_label),
        rank_label: label(cell.rank_label),
    }
}

/// Arrows over a board (the analysis's better move, the coach's).
/// The board's size in the arrow's coordinates: 60 per square.
pub const BOARD_BOX: f32 = 480.0;

/// An arrow from display cell `from` to `to` (0..63, row-major from the top-left) as SVG
/// path commands in a [`BOARD_BOX`]-wide box: a shaft and a head whose tip stops short of the
/// target square's centre (a one-square move's reaches past it, to be seen).
pub fn arrow_path(from: usize, to: usize) -> String {
    const SQUARE: f32 = BOARD_BOX / 8.0;
    const SHAFT: f32 = 12.0;
    const HEAD_LEN: f32 = 26.0;
    const HEAD_WIDTH: f32 = 34.0;
    const SHORT: f32 = 10.0;
    let centre = |cell: usize| {
        (
            (cell % 8) as f32 * SQUARE + SQUARE / 2.0,
            (cell / 8) as f32 * SQUARE + SQUARE / 2.0,
        )
    };
    let (fx, fy) = centre(from);
    let (tx, ty) = centre(to);
    let len = (tx - fx).hypot(ty - fy);
    if from == to || len <= HEAD_LEN + SHORT {
        return String::new();
    }
    let (dx, dy) = ((tx - fx) / len, (ty - fy) / len);
    let (nx, ny) = (-dy, dx);
    // A move to a neighbouring square: from centre to centre the arrow would be a small head
    // over the piece. It starts at the back of its square and ends past the target's centre.
    let (fx, fy, reach) = if len < 1.5 * SQUARE {
        (fx - dx * 24.0, fy - dy * 24.0, SHORT)
    } else {
        (fx, fy, -SHORT)
    };
    let (tipx, tipy) = (tx + dx * reach, ty + dy * reach);
    let (bx, by) = (tipx - dx * HEAD_LEN, tipy - dy * HEAD_LEN);
    let points = [
        (fx + nx * SHAFT / 2.0, fy + ny * SHAFT / 2.0),
        (bx + nx * SHAFT / 2.0, by + ny * SHAFT / 2.0),
        (bx + nx * HEAD_WIDTH / 2.0, by + ny * HEAD_WIDTH / 2.0),
        (tipx, tipy),
        (bx - nx * HEAD_WIDTH / 2.0, by - ny * HEAD_WIDTH / 2.0),
        (bx - nx * SHAFT / 2.0, by - ny * SHAFT / 2.0),
        (fx - nx * SHAFT / 2.0, fy - ny * SHAFT / 2.0),
    ];
    let mut path = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        path.push_str(if i == 0 { "M " } else { " L " });
        path.push_str(&format!("{x:.1} {y:.1}"));
    }
    path.push_str(" Z");
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_point_from_square_to_square() {
        // e2 (cell 52) to e4 (cell 36) on an unflipped board: straight up the e-file.
        let path = arrow_path(52, 36);
        assert_eq!(
            path,
            "M 276.0 390.0 L 276.0 306.0 L 287.0 306.0 L 270.0 280.0 L 253.0 306.0 \
             L 264.0 306.0 L 264.0 390.0 Z"
        );
        // A knight's move ends short of its square's centre, inside the board.
        let path = arrow_path(62, 45);
        let numbers: Vec<f32> = path
            .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
            .filter_map(|t| t.parse().ok())
            .collect();
        assert_eq!(numbers.len(), 14, "{path}");
        assert!(
            numbers.iter().all(|v| (0.0..=BOARD_BOX).contains(v)),
            "{path}"
        );
        assert_eq!(arrow_path(10, 10), "");
    }

    #[test]
    fn a_one_square_arrow_spans_both_squares() {
        let span = |path: &str| {
            let n: Vec<f32> = path
                .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
                .filter_map(|t| t.parse().ok())
                .collect();
            let xs = n.iter().step_by(2);
            let ys = n.iter().skip(1).step_by(2);
            let (x0, x1) = xs.fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
            let (y0, y1) = ys.fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
            (x1 - x0, y1 - y0)
        };
        // g1 (cell 62) to h1 (cell 63): a king's step, along the rank.
        let (w, _) = span(&arrow_path(62, 63));
        assert!(w >= 80.0, "{w}: it shows beyond the pieces' middle");
        // e4 (cell 36) to d5 (cell 27): one step diagonally.
        let (w, h) = span(&arrow_path(36, 27));
        assert!(w >= 55.0 && h >= 55.0, "{w}x{h}");
        // Both inside the board.
        let path = arrow_path(56, 57);
        assert!(
            path.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
                .filter_map(|t| t.parse::<f32>().ok())
                .all(|v| (0.0..=BOARD_BOX).contains(&v)),
            "{path}"
        );
    }

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
