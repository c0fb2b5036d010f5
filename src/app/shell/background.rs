//! Saved games analysed in the background, so the player's mistakes become puzzles without
//! anyone asking: on the device while the screen is dark and the battery charges, on a
//! desktop after [`IDLE_BEFORE_WORK`] without a touch. One game at a time, newest first, with
//! the same analysis as Analyse (`screens::analysis::worker`); a finished one is stored with
//! its game ([`Saver::annotate`](crate::app::saving::Saver::annotate)), which makes the puzzles.

use super::Shell;
use crate::app::saving::UnanalysedGame;
use crate::app::screens::analysis::worker::{AnalysisReport, AnalysisWorker};
use crate::app::ui::{AnalysisAdapter, AppWindow};
use slint::ComponentHandle;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

/// On a desktop (no screen that sleeps) the work waits for this long without a touch.
pub const IDLE_BEFORE_WORK: Duration = Duration::from_secs(60);

/// The background analysis: at most one game at a time.
pub struct Background {
    /// The game being analysed, and its worker.
    running: Option<(u64, AnalysisWorker)>,
    /// A search of the saved games is under way (the saver answers).
    asking: bool,
    /// Games analysed (or that could not be) since the start: not asked for again.
    done: Vec<u64>,
    /// The desktop's idle time is over.
    idle: bool,
    /// Restarted by every change: runs out after [`IDLE_BEFORE_WORK`].
    idle_timer: slint::Timer,
    tx: Sender<AnalysisReport>,
    reports: Receiver<AnalysisReport>,
}

impl Default for Background {
    fn default() -> Background {
        let (tx, reports) = mpsc::channel();
        Background {
            running: None,
            asking: false,
            done: Vec::new(),
            idle: false,
            idle_timer: slint::Timer::default(),
            tx,
            reports,
        }
    }
}

impl Background {
    /// The reports that came since the last call.
    pub fn take_reports(&self) -> Vec<AnalysisReport> {
        self.reports.try_iter().collect()
    }
}

/// Whether the background may work now: on the device while the screen is dark and the
/// battery charges; on a desktop once idle.
fn may_work(s: &Shell) -> bool {
    let device = s.device.shutdown.is_some();
    if device {
        s.device.power.asleep && s.device.power.charging
    } else {
        s.workers.background.idle
    }
}

/// Something happened (a touch, a move, a power change): the desktop's idle time starts
/// again, and work under way pauses or goes on as the device allows.
pub fn touched(s: &mut Shell, shell: &std::rc::Rc<std::cell::RefCell<Shell>>, window: &AppWindow) {
    if s.saving.is_none() {
        return;
    }
    s.workers.background.idle = false;
    let weak = std::rc::Rc::downgrade(shell);
    let win = window.as_weak();
    s.workers.background.idle_timer.start(
        slint::TimerMode::SingleShot,
        IDLE_BEFORE_WORK,
        move || {
            if let (Some(rc), Some(w)) = (weak.upgrade(), win.upgrade()) {
                let mut guard = rc.borrow_mut();
                guard.workers.background.idle = true;
                poke(&mut guard, &w);
            }
        },
    );
    poke(s, window);
}

/// Starts, pauses or resumes the work as the device allows.
pub fn poke(s: &mut Shell, _window: &AppWindow) {
    let allowed = may_work(s);
    if let Some((_, worker)) = &s.workers.background.running {
        worker.set_paused(!allowed);
        return;
    }
    if !allowed || s.workers.background.asking {
        return;
    }
    if let Some(saving) = &s.saving {
        s.workers.background.asking = true;
        saving
            .saver
            .find_unanalysed(s.workers.background.done.clone());
    }
}

/// The saver's answer: a game to analyse, or none left.
pub fn found(s: &mut Shell, window: &AppWindow, game: Option<Box<UnanalysedGame>>) {
    s.workers.background.asking = false;
    let Some(game) = game else {
        return;
    };
    if s.workers.background.running.is_some() {
        return;
    }
    let tx = s.workers.background.tx.clone();
    let weak = window.as_weak();
    let game_id = game.game_id;
    log::info!("analysing saved game {game_id:016x} in the background");
    // One thread: nobody waits for it, and the device is idle on its battery.
    let threads = chesspi_engine::search::Threads::ONE;
    match AnalysisWorker::start(game_id, game.start, game.moves, threads, move |report| {
        if tx.send(report).is_ok() {
            let _ = weak.upgrade_in_event_loop(|w| {
                w.global::<AnalysisAdapter>().invoke_report_ready();
            });
        }
    }) {
        Ok(worker) => {
            worker.set_paused(!may_work(s));
            s.workers.background.running = Some((game_id, worker));
        }
        Err(e) => {
            log::error!("cannot start the background analysis: {e}");
            s.workers.background.done.push(game_id);
        }
    }
}

/// The worker's reports: a finished analysis is stored (and makes puzzles), then the next
/// game.
pub fn received(s: &mut Shell, window: &AppWindow) {
    for report in s.workers.background.take_reports() {
        let finished = match report {
            AnalysisReport::Pass {
                id,
                analysis,
                last: true,
            } => {
                if let Some(saving) = &s.saving {
                    saving.saver.annotate_game(id, analysis);
                }
                id
            }
            AnalysisReport::Failed { id, error } => {
                log::warn!("saved game {id:016x} cannot be analysed: {error}");
                id
            }
            AnalysisReport::Progress { .. } | AnalysisReport::Pass { .. } => continue,
        };
        if s.workers
            .background
            .running
            .as_ref()
            .is_some_and(|(g, _)| *g == finished)
        {
            s.workers.background.running = None;
        }
        s.workers.background.done.push(finished);
        poke(s, window);
    }
}
