//! The shell's side of the analysis board: its search thread (started when the board opens,
//! ended when it closes), the position handed to it after every change, its lines carried to
//! the controller on the UI thread, the pause while the screen is dark on battery, and the
//! screen's state and taps.

use super::analysis_board_worker::{BoardReport, BoardWorker};
use super::controller::Controller;
use super::shell::with_shell;
use super::ui::{AnalysisBoardAdapter, AppWindow, BoardLineView, StatusAdapter};
use super::view::{promotion_role, square_view, update_squares};
use super::{Shell, ui};
use slint::{ComponentHandle, Model, ModelRc, VecModel};
use std::cell::RefCell;
use std::rc::Weak;
use std::sync::mpsc::{self, Receiver, Sender};

/// The board's search thread, while the board is open, and the channel of its reports.
pub(super) struct BoardLink {
    worker: Option<BoardWorker>,
    /// The generation last handed to the worker.
    sent: u64,
    tx: Sender<BoardReport>,
    reports: Receiver<BoardReport>,
}

impl BoardLink {
    pub(super) fn new() -> BoardLink {
        let (tx, reports) = mpsc::channel();
        BoardLink {
            worker: None,
            sent: 0,
            tx,
            reports,
        }
    }
}

/// After every change: searches the board's position if it is new, or ends the thread once
/// the board is closed.
pub(super) fn sync(s: &mut Shell, window: &AppWindow) {
    let link = &mut s.board_link;
    let Some((generation, position, history)) = s.controller.analysis_board_request() else {
        if let Some(worker) = link.worker.take() {
            worker.quit();
        }
        link.sent = 0;
        return;
    };
    if link.worker.is_none() {
        let tx = link.tx.clone();
        let weak = window.as_weak();
        match BoardWorker::start(move |report| {
            if tx.send(report).is_ok() {
                let _ = weak.upgrade_in_event_loop(|w| {
                    w.global::<AnalysisBoardAdapter>().invoke_report_ready();
                });
            }
        }) {
            Ok(worker) => {
                worker.set_paused(must_pause(window));
                link.worker = Some(worker);
            }
            Err(e) => {
                log::error!("cannot start the analysis board's search: {e}");
                return;
            }
        }
        // Lines of a board closed before may still be in the channel.
        while link.reports.try_recv().is_ok() {}
    }
    if link.sent != generation
        && let Some(worker) = &link.worker
    {
        worker.analyse(generation, position, history);
        link.sent = generation;
    }
}

/// The screen dimmed or woke, or charging changed.
pub(super) fn power_changed(s: &Shell, window: &AppWindow) {
    if let Some(worker) = &s.board_link.worker {
        worker.set_paused(must_pause(window));
    }
}

/// Nothing runs while the screen is dark unless the device is charging.
fn must_pause(window: &AppWindow) -> bool {
    let status = window.global::<StatusAdapter>();
    status.get_screen_asleep() && !status.get_battery_charging()
}

/// Shows the board while it is open; touches only what changed.
pub(super) fn refresh(window: &AppWindow, c: &Controller) {
    let adapter = window.global::<AnalysisBoardAdapter>();
    let Some(view) = c.analysis_board_view() else {
        adapter.set_visible(false);
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
    adapter.set_visible(true);
}

/// Wires the screen's taps and the worker's wake-ups.
pub(super) fn connect(shell: &Weak<RefCell<Shell>>, window: &AppWindow) {
    let adapter = window.global::<AnalysisBoardAdapter>();
    {
        let (shell, weak) = (shell.clone(), window.as_weak());
        adapter.on_cell_tapped(move |col, row| {
            if let (Ok(col), Ok(row)) = (usize::try_from(col), usize::try_from(row)) {
                with_shell(&shell, &weak, |c| c.analysis_board_tap(col, row));
            }
        });
    }
    {
        let (shell, weak) = (shell.clone(), window.as_weak());
        adapter.on_button(move |id| {
            with_shell(&shell, &weak, |c| c.analysis_board_button(&id));
        });
    }
    {
        let (shell, weak) = (shell.clone(), window.as_weak());
        adapter.on_promotion_chosen(move |role| {
            with_shell(&shell, &weak, |c| {
                c.analysis_board_choose_promotion(promotion_role(role))
            });
        });
    }
    {
        let (shell, weak) = (shell.clone(), window.as_weak());
        adapter.on_report_ready(move || receive(&shell, &weak));
    }
}

fn receive(shell: &Weak<RefCell<Shell>>, window: &slint::Weak<ui::AppWindow>) {
    let Some(rc) = shell.upgrade() else { return };
    let reports: Vec<BoardReport> = rc.borrow().board_link.reports.try_iter().collect();
    if reports.is_empty() {
        return;
    }
    with_shell(shell, window, |c| {
        for report in reports {
            c.analysis_board_report(report);
        }
    });
}
