//! The Openings screen: the controller's [`OpeningsView`](super::OpeningsView) into the
//! `OpeningsAdapter`, and the screen's taps back into the controller.

use super::{OpeningsPage, OpeningsScreen};
use crate::app::screens::board_view::{arrow_path, promotion_role, square_view, update_squares};
use crate::app::screens::{Controller, Dispatch};
use crate::app::ui::{AppWindow, OpeningRowView, OpeningsAdapter, OpeningsPage as Shown};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::rc::Rc;

/// Shows the page while Openings is open; the board touches only the squares that changed.
pub fn refresh(window: &AppWindow, c: &Controller) {
    let adapter = window.global::<OpeningsAdapter>();
    let now = crate::storage::timestamp::unix_now();
    let Some(view) = c
        .shown::<OpeningsScreen>()
        .map(|o| o.view(c.player().openings(), now))
    else {
        return;
    };
    adapter.set_page(match view.page {
        OpeningsPage::Families => Shown::Families,
        OpeningsPage::Openings => Shown::Openings,
        OpeningsPage::Colour => Shown::Colour,
        OpeningsPage::Drill => Shown::Drill,
    });
    adapter.set_title(view.title.into());
    adapter.set_subtitle(view.subtitle.into());
    let rows: Vec<OpeningRowView> = view
        .rows
        .into_iter()
        .map(|r| OpeningRowView {
            name: r.name.into(),
            detail: r.detail.into(),
            due: r.due,
        })
        .collect();
    adapter.set_rows(ModelRc::from(Rc::new(VecModel::from(rows))));
    adapter.set_can_previous(view.can_previous);
    adapter.set_can_next(view.can_next);
    adapter.set_can_white(view.can_white);
    adapter.set_can_black(view.can_black);
    let Some(drill) = view.drill else {
        return;
    };
    let squares = drill.cells.iter().map(square_view).collect();
    if let Some(model) = update_squares(&adapter.get_squares(), squares) {
        adapter.set_squares(model);
    }
    adapter.set_prompt(drill.prompt.into());
    adapter.set_verdict(drill.verdict.into());
    adapter.set_missed(drill.missed);
    adapter.set_complete(drill.complete);
    adapter.set_moves(drill.moves.into());
    adapter.set_arrow(
        drill
            .arrow
            .map(|(from, to)| arrow_path(from, to))
            .unwrap_or_default()
            .into(),
    );
    adapter.set_can_book(drill.can_book);
    adapter.set_promotion_visible(drill.promotion.is_some());
    adapter.set_promotion_white(drill.promotion != Some(chesspi_engine::Color::Black));
}

/// Wires the screen's taps.
pub fn connect(window: &AppWindow, dispatch: &Dispatch) {
    let adapter = window.global::<OpeningsAdapter>();
    let d = dispatch.clone();
    adapter.on_cell_tapped(move |col, row| {
        if let (Ok(col), Ok(row)) = (usize::try_from(col), usize::try_from(row)) {
            d(Box::new(move |c| {
                c.on(|o: &mut OpeningsScreen, cx| o.tap(cx, col, row));
            }));
        }
    });
    let d = dispatch.clone();
    adapter.on_row_tapped(move |index| {
        if let Ok(index) = usize::try_from(index) {
            d(Box::new(move |c| {
                c.on(|o: &mut OpeningsScreen, _| o.tap_row(index));
            }));
        }
    });
    let d = dispatch.clone();
    adapter.on_button(move |id| {
        d(Box::new(move |c| {
            c.on(|o: &mut OpeningsScreen, cx| o.button(cx, &id));
        }));
    });
    let d = dispatch.clone();
    adapter.on_promotion_chosen(move |role| {
        d(Box::new(move |c| {
            c.on(|o: &mut OpeningsScreen, cx| o.choose_promotion(cx, promotion_role(role)));
        }));
    });
}
