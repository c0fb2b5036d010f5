//! The position editor's screen: the controller's [`EditorView`] into the `EditorAdapter`, and
//! the screen's taps back into the controller.

use super::board::Tool;
use crate::app::screens::board_view::{board_piece, piece_of, square_view, update_squares};
use crate::app::screens::{
    CastlingChoice, Controller, Ctx, Dispatch, Editor, EditorPlay, EditorView,
};
use crate::app::ui::{AppWindow, BoardPiece, CastlingView, EditorAdapter, SquareView};
use crate::tr;
use chesspi_engine::Color;
use slint::{ComponentHandle, Model, ModelRc, VecModel};

/// The palette's piece back into a tool (none: the eraser).
fn tool_of(shown: BoardPiece) -> Tool {
    piece_of(shown).map_or(Tool::Eraser, Tool::Piece)
}

fn castling_view(c: &CastlingChoice) -> CastlingView {
    CastlingView {
        id: c.id().to_string().into(),
        label: c.label.as_str().into(),
        on: c.on,
    }
}

/// Shows the editor while it is open; touches only the squares that changed.
pub fn refresh(window: &AppWindow, c: &Controller) {
    let adapter = window.global::<EditorAdapter>();
    let Some(view) = c.shown::<Editor>().map(|e| e.view(c.session())) else {
        return;
    };
    show_squares(&adapter, &view);
    adapter.set_tool(match view.tool {
        Tool::Eraser => BoardPiece::None,
        Tool::Piece(p) => board_piece(Some(p)),
    });
    adapter.set_white_to_move(view.turn == Color::White);
    let castling: Vec<CastlingView> = view.castling.iter().map(castling_view).collect();
    let current = adapter.get_castling();
    if current.row_count() != castling.len() || current.iter().zip(&castling).any(|(a, b)| a != *b)
    {
        adapter.set_castling(ModelRc::new(VecModel::from(castling)));
    }
    adapter.set_message(view.message.into());
    adapter.set_message_alert(view.alert);
    adapter.set_ready(view.ready);
    adapter
        .set_computer_white(tr!("Play White against the computer (level {})", view.level).into());
    adapter
        .set_computer_black(tr!("Play Black against the computer (level {})", view.level).into());
}

fn show_squares(adapter: &EditorAdapter, view: &EditorView) {
    let squares: Vec<SquareView> = view.cells.iter().map(square_view).collect();
    if let Some(model) = update_squares(&adapter.get_squares(), squares) {
        adapter.set_squares(model);
    }
}

/// Wires the editor's taps and buttons to the controller through `dispatch`.
pub fn connect(window: &AppWindow, dispatch: &Dispatch) {
    let adapter = window.global::<EditorAdapter>();
    let on = |f: fn(&mut Editor, &mut Ctx)| {
        let d = dispatch.clone();
        move || d(Box::new(move |c: &mut Controller| c.on(f)))
    };
    let d = dispatch.clone();
    adapter.on_cell_tapped(move |col, row| {
        if let (Ok(col), Ok(row)) = (usize::try_from(col), usize::try_from(row)) {
            d(Box::new(move |c| {
                c.on(|e: &mut Editor, cx| e.tap(cx, col, row))
            }));
        }
    });
    let d = dispatch.clone();
    adapter.on_tool_chosen(move |shown| {
        let tool = tool_of(shown);
        d(Box::new(move |c| {
            c.on(|e: &mut Editor, _| e.choose_tool(tool))
        }));
    });
    let d = dispatch.clone();
    adapter.on_side_chosen(move |white| {
        let color = if white { Color::White } else { Color::Black };
        d(Box::new(move |c| {
            c.on(|e: &mut Editor, _| e.set_turn(color))
        }));
    });
    let d = dispatch.clone();
    adapter.on_castling_toggled(move |id| {
        if let Some((color, side)) = CastlingChoice::parse_id(&id) {
            d(Box::new(move |c| {
                c.on(|e: &mut Editor, _| e.toggle_castling(color, side))
            }));
        }
    });
    let d = dispatch.clone();
    adapter.on_play(move |id| {
        if let Some(play) = EditorPlay::from_id(&id) {
            d(Box::new(move |c| {
                c.on(|e: &mut Editor, cx| e.play(cx, play))
            }));
        }
    });
    adapter.on_clear(on(|e, _| e.clear()));
    adapter.on_start_position(on(|e, _| e.start_position()));
    adapter.on_done(on(|e, _| e.done()));
    adapter.on_edit(on(|e, _| e.back()));
    adapter.on_cancel(on(Editor::cancel));
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesspi_engine::{Piece, Role};

    #[test]
    fn the_palette_gives_back_the_piece_it_shows() {
        assert_eq!(tool_of(BoardPiece::None), Tool::Eraser);
        for color in Color::ALL {
            for role in Role::ALL {
                let p = Piece::new(color, role);
                assert_eq!(tool_of(board_piece(Some(p))), Tool::Piece(p));
            }
        }
    }
}
