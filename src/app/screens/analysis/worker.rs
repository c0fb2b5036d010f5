//! Analysing a game off the UI thread: one thread per analysis, a fast pass first (a graph
//! within a few seconds) and then a deeper one, with progress reports, a pause (the screen is
//! dark and the device runs on battery) and a cancel flag that ends it at once.

use chesspi_engine::analysis::{AnalysisLimits, Analyzer, GameAnalysis, Progress};
use chesspi_engine::search::Threads;
use chesspi_engine::{Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

/// Nodes per position of the fast pass: about a second for 40 moves here.
pub const FAST_NODES: u64 = 4_000;
/// Nodes per position of the deep pass: the Pi's budget (about 0.3 s per position there).
pub const DEEP_NODES: u64 = chesspi_engine::analysis::PI_NODES;
/// The hash table of the analysis (the computer player keeps its own).
const HASH_MB: usize = 16;

/// What the worker reports, on its own thread.
#[derive(Debug)]
pub enum AnalysisReport {
    /// Positions done in the current pass (`pass` 0 is the fast one).
    Progress {
        id: u64,
        pass: usize,
        progress: Progress,
    },
    /// A pass finished; `last` when no deeper one follows.
    Pass {
        id: u64,
        analysis: Box<GameAnalysis>,
        last: bool,
    },
    /// The game cannot be analysed (an illegal move).
    Failed { id: u64, error: String },
}

/// The passes and their node budgets.
pub const PASSES: [u64; 2] = [FAST_NODES, DEEP_NODES];

/// Shared between the handle and the thread: cancelled, paused.
struct Flags {
    stop: AtomicBool,
    paused: Mutex<bool>,
    wake: Condvar,
}

/// One analysis running on its thread. Dropping it cancels the analysis without waiting.
pub struct AnalysisWorker {
    flags: Arc<Flags>,
    thread: Option<JoinHandle<()>>,
}

impl AnalysisWorker {
    /// Starts analysing the game played from `start` with `moves`; `on_report` runs on the
    /// worker thread and must hand the report to the UI thread.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn start(
        id: u64,
        start: Position,
        moves: Vec<Move>,
        threads: Threads,
        on_report: impl Fn(AnalysisReport) + Send + 'static,
    ) -> std::io::Result<AnalysisWorker> {
        let flags = Arc::new(Flags {
            stop: AtomicBool::new(false),
            paused: Mutex::new(false),
            wake: Condvar::new(),
        });
        let shared = flags.clone();
        let thread = std::thread::Builder::new()
            .name("analysis".to_string())
            .spawn(move || run(id, &start, &moves, threads, &shared, &on_report))?;
        Ok(AnalysisWorker {
            flags,
            thread: Some(thread),
        })
    }

    /// Stops the analysis; nothing more is reported once the search notices (at once).
    pub fn cancel(&self) {
        self.flags.stop.store(true, Ordering::Relaxed);
        self.flags.wake.notify_all();
    }

    /// Holds the analysis between two positions (`true`) or lets it go on.
    pub fn set_paused(&self, paused: bool) {
        if let Ok(mut p) = self.flags.paused.lock() {
            *p = paused;
        }
        self.flags.wake.notify_all();
    }

    /// Whether the thread has ended (finished or cancelled).
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(JoinHandle::is_finished)
    }
}

impl Drop for AnalysisWorker {
    fn drop(&mut self) {
        // The UI thread does not wait: the thread ends by itself within a search's poll.
        self.cancel();
    }
}

fn run(
    id: u64,
    start: &Position,
    moves: &[Move],
    threads: Threads,
    flags: &Flags,
    on_report: &dyn Fn(AnalysisReport),
) {
    for (pass, nodes) in PASSES.into_iter().enumerate() {
        let limits = AnalysisLimits {
            nodes: Some(nodes),
            movetime: None,
            depth: None,
            threads,
        };
        let mut analyzer = match Analyzer::with_hash(limits, HASH_MB) {
            Ok(a) => a,
            Err(e) => {
                on_report(AnalysisReport::Failed {
                    id,
                    error: e.to_string(),
                });
                return;
            }
        };
        let mut progress = |progress: Progress| {
            hold_while_paused(flags);
            if !flags.stop.load(Ordering::Relaxed) {
                on_report(AnalysisReport::Progress { id, pass, progress });
            }
        };
        hold_while_paused(flags);
        match analyzer.analyse(start, moves, &flags.stop, &mut progress) {
            Ok(analysis) => on_report(AnalysisReport::Pass {
                id,
                analysis: Box::new(analysis),
                last: pass + 1 == PASSES.len(),
            }),
            Err(chesspi_engine::analysis::AnalysisError::Cancelled) => return,
            Err(e) => {
                on_report(AnalysisReport::Failed {
                    id,
                    error: e.to_string(),
                });
                return;
            }
        }
    }
}

/// Waits without spinning while paused and not cancelled.
fn hold_while_paused(flags: &Flags) {
    let Ok(mut paused) = flags.paused.lock() else {
        return;
    };
    while *paused && !flags.stop.load(Ordering::Relaxed) {
        paused = match flags.wake.wait(paused) {
            Ok(p) => p,
            Err(_) => return,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesspi_engine::pgn::read_games;
    use std::sync::mpsc;
    use std::time::{Duration, Instant};

    const GAME: &str = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 \
        7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 *";

    fn game() -> (Position, Vec<Move>) {
        let g = read_games(GAME).remove(0).unwrap();
        (g.start, g.moves)
    }

    fn wait_finished(w: &AnalysisWorker, limit: Duration) -> Duration {
        let t = Instant::now();
        while !w.is_finished() && t.elapsed() < limit {
            std::thread::sleep(Duration::from_millis(1));
        }
        t.elapsed()
    }

    #[test]
    fn a_cancelled_analysis_stops_within_100_ms() {
        let (start, moves) = game();
        let (tx, rx) = mpsc::channel();
        let w = AnalysisWorker::start(7, start, moves, Threads::ONE, move |r| {
            let _ = tx.send(r);
        })
        .unwrap();
        // Under way: the first position is done.
        let first = rx.recv_timeout(Duration::from_secs(10)).unwrap();
        assert!(matches!(first, AnalysisReport::Progress { id: 7, .. }));
        w.cancel();
        let took = wait_finished(&w, Duration::from_secs(2));
        assert!(w.is_finished(), "still running after {took:?}");
        assert!(took < Duration::from_millis(100), "took {took:?}");
        // Nothing after the cancel but what was already on its way.
        while let Ok(r) = rx.try_recv() {
            assert!(!matches!(r, AnalysisReport::Pass { .. }), "{r:?}");
        }
    }

    #[test]
    fn a_paused_analysis_waits_and_a_cancel_still_ends_it() {
        let (start, moves) = game();
        let (tx, rx) = mpsc::channel();
        let w = AnalysisWorker::start(1, start, moves, Threads::ONE, move |r| {
            let _ = tx.send(r);
        })
        .unwrap();
        w.set_paused(true);
        // Drain what came before the pause took hold, then nothing more arrives.
        std::thread::sleep(Duration::from_millis(300));
        while rx.try_recv().is_ok() {}
        assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
        assert!(!w.is_finished());
        w.cancel();
        wait_finished(&w, Duration::from_secs(2));
        assert!(w.is_finished());
    }

    #[test]
    fn both_passes_report_a_whole_analysis() {
        let (start, moves) = game();
        let (tx, rx) = mpsc::channel();
        let _w = AnalysisWorker::start(3, start, moves.clone(), Threads::ONE, move |r| {
            let _ = tx.send(r);
        })
        .unwrap();
        let mut passes = Vec::new();
        while let Ok(r) = rx.recv_timeout(Duration::from_secs(60)) {
            if let AnalysisReport::Pass { analysis, last, .. } = r {
                assert_eq!(analysis.moves.len(), moves.len());
                passes.push(last);
                if last {
                    break;
                }
            }
        }
        assert_eq!(passes, vec![false, true]);
    }
}
