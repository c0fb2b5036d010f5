//! The Endgames screen: the controller's [`EndgamesView`](super::EndgamesView) into the
//! `EndgamesAdapter`, and the screen's taps back into the controller.

use super::{Endgames, EndgamesView};
use crate::app::screens::board_view::{promotion_role, square_view, update_squares};
use crate::app::screens::{Controller, Dispatch};
use crate::app::ui::{AppWindow, EndgameItemView, EndgamesAdapter};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::rc::Rc;

/// Shows the list or the lesson while Endgames is open.
pub fn refresh(window: &AppWindow, c: &Controller) {
    let adapter = window.global::<EndgamesAdapter>();
    let Some(view) = c.shown::<Endgames>().map(|e| e.view(c.player().endgames())) else {
        return;
    };
    match view {
        EndgamesView::List(list) => {
            adapter.set_lesson_open(false);
            let items: Vec<EndgameItemView> = list
                .items
                .into_iter()
                .map(|item| EndgameItemView {
                    lesson: item
                        .lesson
                        .and_then(|i| i32::try_from(i).ok())
                        .unwrap_or(-1),
                    text: item.text.into(),
                    detail: item.detail.into(),
                    passed: item.passed,
                    column: i32::try_from(item.column).unwrap_or(0),
                    y: i32::try_from(item.y).unwrap_or(0),
                })
                .collect();
            adapter.set_items(ModelRc::from(Rc::new(VecModel::from(items))));
            adapter.set_progress(list.progress.into());
            adapter.set_page(list.page.into());
            adapter.set_can_prev(list.can_prev);
            adapter.set_can_next(list.can_next);
        }
        EndgamesView::Lesson(lesson) => {
            adapter.set_lesson_open(true);
            let squares = lesson.cells.iter().map(square_view).collect();
            if let Some(model) = update_squares(&adapter.get_squares(), squares) {
                adapter.set_squares(model);
            }
            adapter.set_area(lesson.area.into());
            adapter.set_title(lesson.title.into());
            adapter.set_summary(lesson.summary.into());
            adapter.set_goal(lesson.goal.into());
            adapter.set_status(lesson.status.into());
            adapter.set_ended(lesson.result.is_some());
            adapter.set_passed(lesson.result == Some(true));
            adapter.set_verdict(lesson.verdict.into());
            adapter.set_promotion_visible(lesson.promotion.is_some());
            adapter.set_promotion_white(lesson.promotion != Some(chesspi_engine::Color::Black));
        }
    }
}

/// Wires the screen's taps.
pub fn connect(window: &AppWindow, dispatch: &Dispatch) {
    let adapter = window.global::<EndgamesAdapter>();
    let d = dispatch.clone();
    adapter.on_lesson_chosen(move |index| {
        if let Ok(index) = usize::try_from(index) {
            d(Box::new(move |c| {
                c.on(|e: &mut Endgames, cx| e.choose(cx, index));
            }));
        }
    });
    let d = dispatch.clone();
    adapter.on_cell_tapped(move |col, row| {
        if let (Ok(col), Ok(row)) = (usize::try_from(col), usize::try_from(row)) {
            d(Box::new(move |c| {
                c.on(|e: &mut Endgames, cx| e.tap(cx, col, row));
            }));
        }
    });
    let d = dispatch.clone();
    adapter.on_button(move |id| {
        d(Box::new(move |c| {
            c.on(|e: &mut Endgames, cx| e.button(cx, &id))
        }));
    });
    let d = dispatch.clone();
    adapter.on_promotion_chosen(move |role| {
        d(Box::new(move |c| {
            c.on(|e: &mut Endgames, cx| e.choose_promotion(cx, promotion_role(role)));
        }));
    });
}
