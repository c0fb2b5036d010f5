//! Assist's search, off the UI thread: one thread, started at the first touch Assist grades,
//! that searches the position it is given once (every move scored), hands back the grades of
//! each iteration, has the coach judge the touched pieces' moves near a band's edge (on as
//! many threads as the engine setting gives), and then sleeps on a condition variable until
//! the next touch, position or the end. The link on the UI thread keeps it in step with the
//! game's [`GameSession::assist_request`]: a new position replaces the search, a new touch in
//! the same position only adds its piece's judgements, none stops it.

use super::thread::{OnDrop, Thread};
use crate::app::session::assisting::AssistRequest;
use crate::app::session::game::GameSession;
use crate::app::ui::{AppWindow, GameAdapter};
use chesspi_engine::Square;
use chesspi_engine::coach::assist::ASSIST_DEADLINE_MS;
use chesspi_engine::coach::{Assist, Grades, Judging};
use slint::ComponentHandle;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long after a touch the coach's verdicts on its piece are taken; after that the colours
/// stay as they are.
const DEADLINE: Duration = Duration::from_millis(ASSIST_DEADLINE_MS);

/// Grades of one of Assist's searches.
#[derive(Debug, Clone)]
pub struct AssistReport {
    pub generation: u64,
    pub grades: Grades,
}

#[derive(Default)]
struct State {
    job: Option<AssistRequest>,
    /// The generation of the job the worker took last.
    taken: Option<u64>,
    quit: bool,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    /// Stops the search under way (a new position, a move made, the end).
    stop: AtomicBool,
}

impl Shared {
    /// Replaces the job (none: only stops the search under way). A job for the position
    /// under way (another touch) lets the work on it go on and is taken after it.
    fn set_job(&self, job: Option<AssistRequest>) {
        if let Ok(mut state) = self.state.lock() {
            let same = job
                .as_ref()
                .map(|j| j.generation)
                .is_some_and(|g| Some(g) == state.taken);
            state.job = job;
            if !same {
                self.stop.store(true, Ordering::Relaxed);
            }
        }
        self.wake.notify_all();
    }

    fn quit(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.quit = true;
            self.stop.store(true, Ordering::Relaxed);
        }
        self.wake.notify_all();
    }
}

/// The thread. Dropping it ends the thread without waiting.
struct AssistWorker {
    shared: Arc<Shared>,
    _thread: Thread,
}

impl AssistWorker {
    fn start(on_report: impl Fn(AssistReport) + Send + 'static) -> std::io::Result<AssistWorker> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            stop: AtomicBool::new(false),
        });
        let (s, quitting) = (shared.clone(), shared.clone());
        let thread = Thread::spawn(
            "assist",
            OnDrop::Leave,
            move || quitting.quit(),
            move || run(&s, &on_report),
        )?;
        Ok(AssistWorker {
            shared,
            _thread: thread,
        })
    }
}

fn run(shared: &Shared, on_report: &dyn Fn(AssistReport)) {
    let mut assist = Assist::default();
    let threads = crate::config::search_threads();
    // The position last graded: its generation, grades and the pieces settled there.
    let mut graded: Option<(u64, Grades, Vec<Square>)> = None;
    loop {
        let job = {
            let Ok(mut state) = shared.state.lock() else {
                return;
            };
            loop {
                if state.quit {
                    return;
                }
                if let Some(job) = state.job.take() {
                    // Under the lock, so a newer position's stop is not lost.
                    shared.stop.store(false, Ordering::Relaxed);
                    state.taken = Some(job.generation);
                    break job;
                }
                state = match shared.wake.wait(state) {
                    Ok(s) => s,
                    Err(_) => return,
                };
            }
        };
        let generation = job.generation;
        let mut report = |grades: &Grades| {
            on_report(AssistReport {
                generation,
                grades: grades.clone(),
            });
        };
        if graded.as_ref().map(|g| g.0) != Some(generation) {
            // A finished game or a cancelled search has nothing to show: the errors say no
            // more.
            let judging = Judging {
                touched: &job.touched,
                threads,
                until: Some(Instant::now() + DEADLINE),
            };
            graded = assist
                .grade(
                    &job.position,
                    &job.history,
                    &judging,
                    &shared.stop,
                    &mut report,
                )
                .ok()
                .map(|grades| (generation, grades, job.touched.clone()));
        }
        let Some((_, grades, settled)) = graded.as_mut() else {
            continue;
        };
        // Pieces touched after the search: the coach judges their moves near an edge.
        for &square in &job.touched {
            if settled.contains(&square) {
                continue;
            }
            // Cancelled, the verdicts so far stay in `grades` and the rest come with the job
            // that stopped it, if it is for this position.
            let judging = Judging {
                touched: &[square],
                threads,
                until: Some(Instant::now() + DEADLINE),
            };
            match assist.settle(
                &job.position,
                &job.history,
                grades,
                &judging,
                &shared.stop,
                &mut report,
            ) {
                Ok(_) => settled.push(square),
                Err(_) => break,
            }
        }
    }
}

/// The UI thread's side: the thread (once Assist is first wanted), the search last asked
/// for, and the channel of its grades.
pub struct AssistLink {
    worker: Option<AssistWorker>,
    /// The generation and the count of touched pieces handed to the worker, while wanted.
    sent: Option<(u64, usize)>,
    tx: Sender<AssistReport>,
    reports: Receiver<AssistReport>,
}

impl Default for AssistLink {
    fn default() -> AssistLink {
        let (tx, reports) = mpsc::channel();
        AssistLink {
            worker: None,
            sent: None,
            tx,
            reports,
        }
    }
}

impl AssistLink {
    /// After every change: searches the position Assist wants graded if it is new, or stops
    /// the search once none is wanted (a move was made).
    pub fn sync(&mut self, session: &GameSession, window: &AppWindow) {
        let request = session.assist_request();
        if request.as_ref().map(|r| (r.generation, r.touched.len())) == self.sent {
            return;
        }
        let Some(request) = request else {
            self.sent = None;
            if let Some(worker) = &self.worker {
                worker.shared.set_job(None);
            }
            return;
        };
        if self.worker.is_none() {
            let tx = self.tx.clone();
            let weak = window.as_weak();
            match AssistWorker::start(move |report| {
                if tx.send(report).is_ok() {
                    let _ = weak.upgrade_in_event_loop(|w| {
                        w.global::<GameAdapter>().invoke_assist_ready();
                    });
                }
            }) {
                Ok(worker) => self.worker = Some(worker),
                Err(e) => {
                    log::error!("cannot start Assist's search: {e}");
                    return;
                }
            }
        }
        if let Some(worker) = &self.worker {
            self.sent = Some((request.generation, request.touched.len()));
            worker.shared.set_job(Some(request));
        }
    }

    /// The grades that came since the last call.
    pub fn take_reports(&self) -> Vec<AssistReport> {
        self.reports.try_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesspi_engine::Position;
    use std::time::Duration;

    fn worker() -> (AssistWorker, Receiver<AssistReport>) {
        let (tx, rx) = mpsc::channel();
        let w = AssistWorker::start(move |r| {
            let _ = tx.send(r);
        })
        .expect("thread");
        (w, rx)
    }

    fn request(generation: u64, position: Position) -> AssistRequest {
        AssistRequest {
            generation,
            history: vec![position.hash()],
            position,
            touched: Vec::new(),
        }
    }

    #[test]
    fn a_position_is_graded_deeper_and_deeper_and_then_the_thread_idles() {
        let (w, rx) = worker();
        w.shared.set_job(Some(request(3, Position::startpos())));
        let first = rx.recv_timeout(Duration::from_secs(60)).expect("grades");
        assert_eq!(first.generation, 3);
        assert_eq!(first.grades.moves.len(), 20);
        let mut last = first;
        while let Ok(r) = rx.recv_timeout(Duration::from_secs(5)) {
            assert!(r.grades.depth > last.grades.depth);
            last = r;
        }
        assert!(
            last.grades
                .moves
                .iter()
                .any(|g| g.grade() == chesspi_engine::coach::Grade::Good)
        );
    }

    #[test]
    fn another_touch_in_the_same_position_does_not_search_again() {
        let (w, rx) = worker();
        let mut job = request(5, Position::startpos());
        job.touched = vec![Square::G1];
        w.shared.set_job(Some(job.clone()));
        let mut last = rx.recv_timeout(Duration::from_secs(60)).expect("grades");
        while let Ok(r) = rx.recv_timeout(Duration::from_secs(5)) {
            last = r;
        }
        job.touched.push(Square::B1);
        w.shared.set_job(Some(job));
        // Only the coach's verdicts on b1's moves may follow: no new iterations.
        while let Ok(r) = rx.recv_timeout(Duration::from_secs(5)) {
            assert_eq!(r.generation, 5);
            assert_eq!(r.grades.depth, last.grades.depth);
        }
    }

    #[test]
    fn no_job_stops_the_search() {
        let (w, rx) = worker();
        w.shared.set_job(Some(request(1, Position::startpos())));
        w.shared.set_job(None);
        // Whatever came before the stop, nothing comes long after it.
        std::thread::sleep(Duration::from_millis(300));
        while rx.try_recv().is_ok() {}
        assert!(rx.recv_timeout(Duration::from_millis(500)).is_err());
    }
}
