//! The UI thread's side of game analysis: starting and cancelling the worker, taking its
//! reports for the controller, and pausing it while the shell says so (the screen dark on
//! battery). The shell
//! owns the link and stores a finished analysis with the saved game.

use super::Analysis;
use super::worker::{AnalysisReport, AnalysisWorker};
use crate::app::screens::{Controller, Dispatch};
use crate::app::ui::{AnalysisAdapter, AppWindow};
use chesspi_engine::{Move, Position};
use slint::ComponentHandle;
use std::sync::mpsc::{self, Receiver, Sender};

/// The running analysis and the channel its reports come through.
pub struct AnalysisLink {
    worker: Option<AnalysisWorker>,
    tx: Sender<AnalysisReport>,
    reports: Receiver<AnalysisReport>,
}

impl Default for AnalysisLink {
    fn default() -> AnalysisLink {
        let (tx, reports) = mpsc::channel();
        AnalysisLink {
            worker: None,
            tx,
            reports,
        }
    }
}

impl AnalysisLink {
    /// Starts analysing (stopping any analysis before it); a thread that cannot start is
    /// reported to `controller` as a failed analysis.
    pub fn start(
        &mut self,
        controller: &mut Controller,
        window: &AppWindow,
        id: u64,
        start: Position,
        moves: Vec<Move>,
        paused: bool,
    ) {
        self.cancel();
        let tx = self.tx.clone();
        let weak = window.as_weak();
        let threads = crate::config::search_threads();
        match AnalysisWorker::start(id, start, moves, threads, move |report| {
            if tx.send(report).is_ok() {
                let _ = weak.upgrade_in_event_loop(|w| {
                    w.global::<AnalysisAdapter>().invoke_report_ready();
                });
            }
        }) {
            Ok(worker) => {
                worker.set_paused(paused);
                self.worker = Some(worker);
            }
            Err(e) => {
                log::error!("cannot start the analysis: {e}");
                let failed = AnalysisReport::Failed {
                    id,
                    error: e.to_string(),
                };
                controller.part(|a: &mut Analysis, cx| a.report(cx, failed));
            }
        }
    }

    /// Stops the running analysis at once (its thread ends within a search's poll).
    pub fn cancel(&mut self) {
        if let Some(worker) = self.worker.take() {
            worker.cancel();
        }
    }

    /// The analysis finished: its thread has ended.
    pub fn finished(&mut self) {
        self.worker = None;
    }

    /// The screen dimmed or woke, or charging changed: `paused` says whether to wait.
    pub fn power_changed(&self, paused: bool) {
        if let Some(worker) = &self.worker {
            worker.set_paused(paused);
        }
    }

    /// The reports that came since the last call.
    pub fn take_reports(&self) -> Vec<AnalysisReport> {
        self.reports.try_iter().collect()
    }
}

/// Wires the graph's taps.
pub fn connect(window: &AppWindow, dispatch: &Dispatch) {
    let d = dispatch.clone();
    window
        .global::<AnalysisAdapter>()
        .on_graph_tapped(move |fraction| {
            d(Box::new(move |c: &mut Controller| {
                c.part(|a: &mut Analysis, cx| a.graph_tapped(cx, fraction));
            }))
        });
}
