//! The computer player: one worker thread that owns the engine's searcher and answers
//! requests one at a time, so the UI thread never waits for a search.

use super::controller::{Purpose, ThinkRequest};
use chesspi_engine::search::Searcher;
use chesspi_engine::Move;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Hash table size of the app's searcher: small, the Pi 3 has 1 GB for everything.
const HASH_MB: usize = 16;

/// The worker's answer to one request.
#[derive(Debug, Clone, Copy)]
pub struct Answer {
    pub id: u64,
    pub purpose: Purpose,
    pub mv: Option<Move>,
    /// How long the search took.
    pub elapsed: Duration,
}

struct Job {
    request: ThinkRequest,
    stop: Arc<AtomicBool>,
}

/// Handle to the worker thread. Dropping it stops the search in progress and ends the thread.
pub struct ComputerPlayer {
    jobs: Option<Sender<Job>>,
    current_stop: Option<Arc<AtomicBool>>,
    thread: Option<JoinHandle<()>>,
}

impl ComputerPlayer {
    /// Starts the worker. `on_answer` runs on the worker thread for every finished search;
    /// it must hand the answer to the UI thread (e.g. through `slint::invoke_from_event_loop`).
    pub fn start(on_answer: impl Fn(Answer) + Send + 'static) -> std::io::Result<ComputerPlayer> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("computer".to_string())
            .spawn(move || work(&inbox, &on_answer))?;
        Ok(ComputerPlayer {
            jobs: Some(jobs),
            current_stop: None,
            thread: Some(thread),
        })
    }

    /// Starts a search, stopping the one in progress (its answer becomes stale).
    pub fn think(&mut self, request: ThinkRequest) {
        self.cancel();
        let stop = Arc::new(AtomicBool::new(false));
        self.current_stop = Some(stop.clone());
        if let Some(jobs) = &self.jobs
            && jobs.send(Job { request, stop }).is_err()
        {
            log::error!("the computer player's thread has stopped");
        }
    }

    /// Stops the search in progress, if any.
    pub fn cancel(&mut self) {
        if let Some(stop) = self.current_stop.take() {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

impl Drop for ComputerPlayer {
    fn drop(&mut self) {
        self.cancel();
        // Closing the channel ends the worker's loop.
        self.jobs.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn work(inbox: &Receiver<Job>, on_answer: &dyn Fn(Answer)) {
    let mut searcher = Searcher::new(HASH_MB);
    while let Ok(mut job) = inbox.recv() {
        // Only the newest request matters; earlier ones were cancelled by it.
        while let Ok(newer) = inbox.try_recv() {
            job = newer;
        }
        if job.stop.load(Ordering::Relaxed) {
            continue;
        }
        let started = Instant::now();
        let request = &job.request;
        let mv = match request.purpose {
            Purpose::Move => searcher.choose_move(&request.game, request.level, &job.stop),
            Purpose::Hint => searcher.hint(&request.game, &job.stop),
        };
        if job.stop.load(Ordering::Relaxed) {
            continue;
        }
        on_answer(Answer {
            id: request.id,
            purpose: request.purpose,
            mv,
            elapsed: started.elapsed(),
        });
    }
}
