//! The shell's side of game analysis: starting and cancelling the worker, carrying its
//! reports to the controller on the UI thread, pausing it while the screen is dark on
//! battery, and storing a finished analysis with the saved game.

use super::analysis_worker::{AnalysisReport, AnalysisWorker};
use super::shell::with_shell;
use super::ui::{AnalysisAdapter, AppWindow, StatusAdapter};
use super::{Shell, ui};
use chesspi_engine::analysis::GameAnalysis;
use chesspi_engine::{Move, Position};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::rc::Weak;
use std::sync::mpsc::{self, Receiver, Sender};

/// The running analysis and the channel its reports come through.
pub(super) struct AnalysisLink {
    worker: Option<AnalysisWorker>,
    tx: Sender<AnalysisReport>,
    reports: Receiver<AnalysisReport>,
}

impl AnalysisLink {
    pub(super) fn new() -> AnalysisLink {
        let (tx, reports) = mpsc::channel();
        AnalysisLink {
            worker: None,
            tx,
            reports,
        }
    }
}

/// Starts analysing (stopping any analysis before it).
pub(super) fn start(s: &mut Shell, window: &AppWindow, id: u64, start: Position, moves: Vec<Move>) {
    cancel(s);
    let tx = s.analysis.tx.clone();
    let weak = window.as_weak();
    match AnalysisWorker::start(id, start, moves, move |report| {
        if tx.send(report).is_ok() {
            let _ = weak.upgrade_in_event_loop(|w| {
                w.global::<AnalysisAdapter>().invoke_report_ready();
            });
        }
    }) {
        Ok(worker) => {
            worker.set_paused(must_pause(window));
            s.analysis.worker = Some(worker);
        }
        Err(e) => {
            log::error!("cannot start the analysis: {e}");
            s.controller.analysis_report(AnalysisReport::Failed {
                id,
                error: e.to_string(),
            });
        }
    }
}

/// Stops the running analysis at once (its thread ends within a search's poll).
pub(super) fn cancel(s: &mut Shell) {
    if let Some(worker) = s.analysis.worker.take() {
        worker.cancel();
    }
}

/// Keeps a finished analysis with its saved game.
pub(super) fn store(s: &mut Shell, saved: Option<String>, analysis: Box<GameAnalysis>) {
    s.analysis.worker = None;
    match &s.saving {
        Some(saving) => saving.saver.annotate(saved.as_deref(), analysis),
        None => log::info!("the analysis is not stored: games are not saved here"),
    }
}

/// Nothing runs while the screen is dark unless the device is charging.
fn must_pause(window: &AppWindow) -> bool {
    let status = window.global::<StatusAdapter>();
    status.get_screen_asleep() && !status.get_battery_charging()
}

/// Wires the worker's wake-ups and the power changes.
pub(super) fn connect(shell: &Weak<RefCell<Shell>>, window: &AppWindow) {
    let adapter = window.global::<AnalysisAdapter>();
    {
        let (shell, weak) = (shell.clone(), window.as_weak());
        adapter.on_report_ready(move || receive(&shell, &weak));
    }
    {
        let (shell, weak) = (shell.clone(), window.as_weak());
        adapter.on_power_changed(move || {
            if let (Some(rc), Some(w)) = (shell.upgrade(), weak.upgrade()) {
                let s = rc.borrow();
                if let Some(worker) = &s.analysis.worker {
                    worker.set_paused(must_pause(&w));
                }
                super::analysis_board_link::power_changed(&s, &w);
            }
        });
    }
    {
        let (shell, weak) = (shell.clone(), window.as_weak());
        adapter.on_graph_tapped(move |fraction| {
            with_shell(&shell, &weak, |c| c.graph_tapped(fraction));
        });
    }
}

fn receive(shell: &Weak<RefCell<Shell>>, window: &slint::Weak<ui::AppWindow>) {
    let Some(rc) = shell.upgrade() else { return };
    let reports: Vec<AnalysisReport> = rc.borrow().analysis.reports.try_iter().collect();
    if reports.is_empty() {
        return;
    }
    with_shell(shell, window, |c| {
        for report in reports {
            c.analysis_report(report);
        }
    });
}
