//! The analysis board's screen: the controller's [`AnalysisBoardView`] into the
//! `AnalysisBoardAdapter`, and the screen's taps back into the controller.
//!
//! [`AnalysisBoardView`]: crate::app::screens::AnalysisBoardView

use super::Session;
use crate::app::screens::board_view::{promotion_role, square_view, update_squares};
use crate::app::screens::{Controller, Dispatch};
use crate::app::ui::{AnalysisBoardAdapter, AppWindow, BoardLineView};
use slint::{ComponentHandle, Model, ModelRc, VecModel};

/// Shows the board while it is open; touches only what changed.
pub fn refresh(window: &AppWindow, c: &Controller) {
    let adapter = window.global::<AnalysisBoardAdapter>();
    let Some(view) = c.shown::<Session>().map(Session::view) else {
        return;
    };
    let squares = view.cells.iter().map(square_view).collect();
    if let Some(model) = update_squares(&adapter.get_squares(), squares) {
        adapter.set_squares(model);
    }
    let lines: Vec<BoardLineView> = view
        .lines
        .iter()
        .map(|l| BoardLineView {
            score: l.score.as_str().into(),
            moves: l.moves.as_str().into(),
        })
        .collect();
    let current = adapter.get_lines();
    if current.row_count() != lines.len() || current.iter().zip(&lines).any(|(a, b)| a != *b) {
        adapter.set_lines(ModelRc::new(VecModel::from(lines)));
    }
    adapter.set_white_share(view.white_share);
    adapter.set_flipped(view.flipped);
    adapter.set_status(view.status.into());
    adapter.set_can_back(view.can_back);
    adapter.set_can_forward(view.can_forward);
    adapter.set_promotion_white(view.promotion != Some(chesspi_engine::Color::Black));
    adapter.set_promotion_visible(view.promotion.is_some());
}

/// Wires the screen's taps.
pub fn connect(window: &AppWindow, dispatch: &Dispatch) {
    let adapter = window.global::<AnalysisBoardAdapter>();
    let d = dispatch.clone();
    adapter.on_cell_tapped(move |col, row| {
        if let (Ok(col), Ok(row)) = (usize::try_from(col), usize::try_from(row)) {
            d(Box::new(move |c| {
                c.on(|s: &mut Session, _| s.tap(col, row))
            }));
        }
    });
    let d = dispatch.clone();
    adapter.on_button(move |id| {
        d(Box::new(move |c| {
            c.on(|s: &mut Session, cx| s.button(cx, &id))
        }))
    });
    let d = dispatch.clone();
    adapter.on_promotion_chosen(move |role| {
        d(Box::new(move |c| {
            c.on(|s: &mut Session, _| s.choose_promotion(promotion_role(role)))
        }));
    });
}
