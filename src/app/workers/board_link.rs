//! The UI thread's side of the analysis board's search: its thread (started when the board
//! opens, ended when it closes), the position handed to it after every change, its lines
//! taken for the controller, and the pause while the screen is dark on battery.

use super::board::BoardWorker;
use crate::app::screens::Controller;
use crate::app::screens::analysis::board::{BoardReport, Session};
use crate::app::ui::{AnalysisBoardAdapter, AppWindow};
use slint::ComponentHandle;
use std::sync::mpsc::{self, Receiver, Sender};

/// The board's search thread, while the board is open, and the channel of its reports.
pub struct BoardLink {
    worker: Option<BoardWorker>,
    /// The generation last handed to the worker.
    sent: u64,
    tx: Sender<BoardReport>,
    reports: Receiver<BoardReport>,
}

impl Default for BoardLink {
    fn default() -> BoardLink {
        let (tx, reports) = mpsc::channel();
        BoardLink {
            worker: None,
            sent: 0,
            tx,
            reports,
        }
    }
}

impl BoardLink {
    /// After every change: searches the board's position if it is new, or ends the thread
    /// once the board is closed.
    pub fn sync(&mut self, controller: &Controller, window: &AppWindow, paused: bool) {
        let Some((generation, position, history)) =
            controller.shown::<Session>().map(Session::request)
        else {
            if let Some(worker) = self.worker.take() {
                worker.quit();
            }
            self.sent = 0;
            return;
        };
        if self.worker.is_none() {
            let tx = self.tx.clone();
            let weak = window.as_weak();
            match BoardWorker::start(move |report| {
                if tx.send(report).is_ok() {
                    let _ = weak.upgrade_in_event_loop(|w| {
                        w.global::<AnalysisBoardAdapter>().invoke_report_ready();
                    });
                }
            }) {
                Ok(worker) => {
                    worker.set_paused(paused);
                    self.worker = Some(worker);
                }
                Err(e) => {
                    log::error!("cannot start the analysis board's search: {e}");
                    return;
                }
            }
            // Lines of a board closed before may still be in the channel.
            while self.reports.try_recv().is_ok() {}
        }
        if self.sent != generation
            && let Some(worker) = &self.worker
        {
            worker.analyse(generation, position, history);
            self.sent = generation;
        }
    }

    /// The screen dimmed or woke, or charging changed: `paused` says whether to wait.
    pub fn power_changed(&self, paused: bool) {
        if let Some(worker) = &self.worker {
            worker.set_paused(paused);
        }
    }

    /// The lines that came since the last call.
    pub fn take_reports(&self) -> Vec<BoardReport> {
        self.reports.try_iter().collect()
    }
}
