//! The analysis board's search, off the UI thread: one thread for the board's life, which
//! searches the position it is given for its best lines (MultiPV) within a node budget,
//! reports each completed depth, and then sleeps on a condition variable until the next
//! position, a pause (the screen is dark on battery) or the end. It never spins.

use super::thread::{OnDrop, Thread};
use crate::app::screens::analysis::board::BoardReport;
use chesspi_engine::multipv::search_lines;
use chesspi_engine::search::{Score, SearchLimits, Searcher};
use chesspi_engine::{Move, Position};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Nodes per position: the Pi's analysis budget times eight (a few seconds there), then idle.
pub const BOARD_NODES: u64 = chesspi_engine::analysis::PI_NODES * 8;
/// Lines searched.
pub const LINES: usize = crate::app::screens::analysis::board::lines::MAX_LINES;
const HASH_MB: usize = 16;

struct Job {
    generation: u64,
    position: Position,
    history: Vec<u64>,
}

#[derive(Default)]
struct State {
    job: Option<Job>,
    paused: bool,
    quit: bool,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    /// Stops the search under way (a new position, a pause, the end).
    stop: AtomicBool,
    /// Searches started, for tests and the log.
    searches: AtomicU64,
}

/// The board's search thread. Dropping it ends the thread without waiting.
pub struct BoardWorker {
    shared: Arc<Shared>,
    thread: Thread,
}

impl BoardWorker {
    /// Starts the (idle) thread; `on_report` runs on it and must hand reports to the UI.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn start(on_report: impl Fn(BoardReport) + Send + 'static) -> std::io::Result<BoardWorker> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            stop: AtomicBool::new(false),
            searches: AtomicU64::new(0),
        });
        let (s, quitting) = (shared.clone(), shared.clone());
        let thread = Thread::spawn(
            "analysis-board",
            OnDrop::Leave,
            move || quitting.quit(),
            move || run(&s, &on_report),
        )?;
        Ok(BoardWorker { shared, thread })
    }

    /// Searches `position` (reached through positions hashed in `history`) instead of
    /// whatever was searched before.
    pub fn analyse(&self, generation: u64, position: Position, history: Vec<u64>) {
        if let Ok(mut state) = self.shared.state.lock() {
            state.job = Some(Job {
                generation,
                position,
                history,
            });
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        self.shared.wake.notify_all();
    }

    /// Holds the search (it resumes the same position when let go).
    pub fn set_paused(&self, paused: bool) {
        if let Ok(mut state) = self.shared.state.lock() {
            state.paused = paused;
            if paused {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
        }
        self.shared.wake.notify_all();
    }

    /// Ends the thread (within a search's poll).
    pub fn quit(&self) {
        self.shared.quit();
    }

    /// How many searches have started.
    pub fn searches(&self) -> u64 {
        self.shared.searches.load(Ordering::Relaxed)
    }

    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }
}

impl Shared {
    fn quit(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.quit = true;
            self.stop.store(true, Ordering::Relaxed);
        }
        self.wake.notify_all();
    }
}

fn run(shared: &Shared, on_report: &dyn Fn(BoardReport)) {
    let mut searcher = Searcher::new(HASH_MB);
    loop {
        let job = {
            let Ok(mut state) = shared.state.lock() else {
                return;
            };
            loop {
                if state.quit {
                    return;
                }
                if !state.paused
                    && let Some(job) = state.job.take()
                {
                    // Under the lock, so a newer position's stop is not lost.
                    shared.stop.store(false, Ordering::Relaxed);
                    break job;
                }
                state = match shared.wake.wait(state) {
                    Ok(s) => s,
                    Err(_) => return,
                };
            }
        };
        shared.searches.fetch_add(1, Ordering::Relaxed);
        let complete = search(shared, &job, &mut searcher, on_report);
        if !complete
            && let Ok(mut state) = shared.state.lock()
            && state.paused
            && state.job.is_none()
        {
            // Stopped by a pause: search this position again once the screen is back.
            state.job = Some(job);
        }
    }
}

/// Searches one position; false when stopped before its budget was spent.
fn search(
    shared: &Shared,
    job: &Job,
    searcher: &mut Searcher,
    on_report: &dyn Fn(BoardReport),
) -> bool {
    let legal = job.position.legal_moves().len();
    let lines = LINES.min(legal);
    if lines == 0 {
        on_report(BoardReport {
            generation: job.generation,
            lines: Vec::new(),
            finished: true,
        });
        return true;
    }
    let limits = SearchLimits {
        nodes: Some(BOARD_NODES),
        ..SearchLimits::default()
    }
    .on_threads(crate::config::search_threads());
    let mut depth_lines: Vec<(Score, u32, Vec<Move>)> = Vec::new();
    let mut last: Vec<(Score, u32, Vec<Move>)> = Vec::new();
    search_lines(
        searcher,
        &job.position,
        &job.history,
        &limits,
        lines,
        &shared.stop,
        &mut |k, info| {
            if k == 1 {
                depth_lines.clear();
            }
            depth_lines.push((info.score, info.depth, info.pv.clone()));
            if k == lines && !shared.stop.load(Ordering::Relaxed) {
                last = depth_lines.clone();
                on_report(BoardReport {
                    generation: job.generation,
                    lines: depth_lines.clone(),
                    finished: false,
                });
            }
        },
    );
    if shared.stop.load(Ordering::Relaxed) {
        return false;
    }
    on_report(BoardReport {
        generation: job.generation,
        lines: last,
        finished: true,
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    fn worker() -> (BoardWorker, mpsc::Receiver<BoardReport>) {
        let (tx, rx) = mpsc::channel();
        let w = BoardWorker::start(move |r| {
            let _ = tx.send(r);
        })
        .unwrap();
        (w, rx)
    }

    fn until_finished(rx: &mpsc::Receiver<BoardReport>, generation: u64) -> BoardReport {
        loop {
            let r = rx.recv_timeout(Duration::from_secs(60)).expect("a report");
            if r.generation == generation && r.finished {
                return r;
            }
        }
    }

    #[test]
    fn a_position_gets_three_lines_and_then_the_thread_idles() {
        let (w, rx) = worker();
        w.analyse(1, Position::startpos(), Vec::new());
        let r = until_finished(&rx, 1);
        assert_eq!(r.lines.len(), 3);
        let firsts: Vec<Move> = r.lines.iter().map(|l| l.2[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        // Idle: nothing more comes and no new search starts.
        assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
        assert_eq!(w.searches(), 1);
        w.quit();
        std::thread::sleep(Duration::from_millis(200));
        assert!(w.is_finished());
    }

    #[test]
    fn a_new_position_replaces_the_old_search_and_a_mate_has_no_lines() {
        let (w, rx) = worker();
        w.analyse(1, Position::startpos(), Vec::new());
        // Fool's mate: White is mated.
        let mated =
            Position::from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
                .unwrap();
        w.analyse(2, mated, Vec::new());
        let r = until_finished(&rx, 2);
        assert!(r.lines.is_empty());
        // Nothing of the first position after the second was asked for and finished.
        assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
    }

    #[test]
    fn a_pause_holds_the_search_and_letting_go_resumes_it() {
        let (w, rx) = worker();
        w.set_paused(true);
        w.analyse(5, Position::startpos(), Vec::new());
        assert!(rx.recv_timeout(Duration::from_millis(500)).is_err());
        assert_eq!(w.searches(), 0);
        w.set_paused(false);
        let r = until_finished(&rx, 5);
        assert_eq!(r.lines.len(), 3);
    }
}
