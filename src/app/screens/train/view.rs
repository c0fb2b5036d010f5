//! Train's screen: the controller's [`TrainView`](super::TrainView) into the `TrainAdapter`,
//! and the screen's taps back into the controller.

use super::Training;
use crate::app::screens::board_view::{arrow_path, promotion_role, square_view, update_squares};
use crate::app::screens::{Controller, Dispatch};
use crate::app::ui::{AppWindow, TrainAdapter};
use slint::ComponentHandle;

/// Shows the puzzle while Train is open; touches only the squares that changed.
pub fn refresh(window: &AppWindow, c: &Controller) {
    let adapter = window.global::<TrainAdapter>();
    let Some(view) = c.shown::<Training>().map(|t| t.view(c.player().puzzles())) else {
        return;
    };
    let squares = view.cells.iter().map(square_view).collect();
    if let Some(model) = update_squares(&adapter.get_squares(), squares) {
        adapter.set_squares(model);
    }
    adapter.set_title(view.title.into());
    adapter.set_prompt(view.prompt.into());
    adapter.set_verdict(view.verdict.into());
    adapter.set_solved(view.solved == Some(true));
    adapter.set_tried(view.solved.is_some());
    adapter.set_record(view.record.into());
    adapter.set_arrow(
        view.arrow
            .map(|(from, to)| arrow_path(from, to))
            .unwrap_or_default()
            .into(),
    );
    adapter.set_arrow_good(view.arrow_good);
    adapter.set_can_next(view.can_next);
    adapter.set_thinking(view.thinking);
    adapter.set_promotion_visible(view.promotion.is_some());
    adapter.set_promotion_white(view.promotion != Some(chesspi_engine::Color::Black));
}

/// Wires the screen's taps.
pub fn connect(window: &AppWindow, dispatch: &Dispatch) {
    let adapter = window.global::<TrainAdapter>();
    let d = dispatch.clone();
    adapter.on_cell_tapped(move |col, row| {
        if let (Ok(col), Ok(row)) = (usize::try_from(col), usize::try_from(row)) {
            d(Box::new(move |c| {
                c.on(|t: &mut Training, cx| t.tap(cx, col, row));
            }));
        }
    });
    let d = dispatch.clone();
    adapter.on_button(move |id| {
        d(Box::new(move |c| {
            c.on(|t: &mut Training, cx| t.button(cx, &id))
        }));
    });
    let d = dispatch.clone();
    adapter.on_promotion_chosen(move |role| {
        d(Box::new(move |c| {
            c.on(|t: &mut Training, cx| t.choose_promotion(cx, promotion_role(role)));
        }));
    });
}
