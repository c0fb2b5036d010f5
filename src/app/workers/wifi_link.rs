//! The UI thread's side of the Wi-Fi thread: requests out, reports in (woken through the
//! `WifiAdapter`), and a look every few seconds while the Wi-Fi screen is open — nothing
//! while it is closed.

use crate::app::ui::{AppWindow, WifiAdapter};
use crate::wifi::Wifi;
use crate::wifi::worker::{SCAN_TIME, WifiReport, WifiRequest, WifiWorker};
use slint::ComponentHandle;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

/// How often the open screen looks again (the signal, the address arriving).
pub const LOOK_EVERY: Duration = Duration::from_secs(4);

/// The Wi-Fi thread and its reports.
pub struct WifiLink {
    worker: WifiWorker,
    reports: Receiver<WifiReport>,
    /// Runs while the Wi-Fi screen is open.
    timer: slint::Timer,
}

impl WifiLink {
    /// Starts the Wi-Fi thread with `wifi`.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn start(window: &AppWindow, wifi: Box<dyn Wifi>) -> std::io::Result<WifiLink> {
        let (tx, reports) = mpsc::channel();
        let weak = window.as_weak();
        let worker = WifiWorker::start(wifi, SCAN_TIME, move |report| {
            if tx.send(report).is_ok() {
                let _ = weak.upgrade_in_event_loop(|w| {
                    w.global::<WifiAdapter>().invoke_report_ready();
                });
            }
        })?;
        Ok(WifiLink {
            worker,
            reports,
            timer: slint::Timer::default(),
        })
    }

    pub fn send(&self, request: WifiRequest) {
        self.worker.send(request);
    }

    /// The reports that came since the last call.
    pub fn take_reports(&self) -> Vec<WifiReport> {
        self.reports.try_iter().collect()
    }

    /// Looks every [`LOOK_EVERY`] while `open`, not at all otherwise.
    pub fn screen_open(&self, open: bool) {
        if !open {
            self.timer.stop();
        } else if !self.timer.running() {
            let tx = self.worker.sender();
            self.timer
                .start(slint::TimerMode::Repeated, LOOK_EVERY, move || {
                    let _ = tx.send(WifiRequest::Look);
                });
        }
    }
}
