//! The computer player: one worker thread that owns the engine's searcher and answers
//! requests one at a time, so the UI thread never waits for a search.

use super::controller::{Purpose, Reply, ThinkRequest};
use chesspi_engine::game::Game;
use chesspi_engine::search::{Score, SearchLimits, Searcher};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How the computer player may use the device: memory for its hash table and the longest
/// time per move (from the `[engine]` config section).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineSettings {
    pub hash_mb: usize,
    pub max_think_time: Option<Duration>,
}

impl Default for EngineSettings {
    /// A small table (the Pi 3 has 1 GB for everything) and the levels' own times.
    fn default() -> Self {
        EngineSettings {
            hash_mb: 16,
            max_think_time: None,
        }
    }
}

/// The computer accepts a draw when it judges itself at least this far behind (centipawns).
const DRAW_ACCEPT_MARGIN: i32 = 50;
/// Search effort for judging a draw offer: a quick, fixed look.
const DRAW_NODES: u64 = 200_000;
const DRAW_TIME: Duration = Duration::from_secs(2);

/// The worker's answer to one request.
#[derive(Debug, Clone, Copy)]
pub struct Answer {
    pub id: u64,
    pub purpose: Purpose,
    pub reply: Reply,
    /// How long the search took.
    pub elapsed: Duration,
}

struct Job {
    request: ThinkRequest,
    /// Ends the search: its best move so far is the answer ("Move now").
    stop: Arc<AtomicBool>,
    /// The answer is no longer wanted (a takeback, a new game): nothing is sent.
    discard: Arc<AtomicBool>,
}

/// Handle to the worker thread. Dropping it stops the search in progress and ends the thread.
pub struct ComputerPlayer {
    jobs: Option<Sender<Job>>,
    /// The search in progress: its stop and discard flags.
    current: Option<(Arc<AtomicBool>, Arc<AtomicBool>)>,
    thread: Option<JoinHandle<()>>,
}

impl ComputerPlayer {
    /// Starts the worker. `on_answer` runs on the worker thread for every finished search;
    /// it must hand the answer to the UI thread (e.g. through `slint::invoke_from_event_loop`).
    pub fn start(
        settings: EngineSettings,
        on_answer: impl Fn(Answer) + Send + 'static,
    ) -> std::io::Result<ComputerPlayer> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let thread = std::thread::Builder::new()
            .name("computer".to_string())
            .spawn(move || work(settings, &inbox, &on_answer))?;
        Ok(ComputerPlayer {
            jobs: Some(jobs),
            current: None,
            thread: Some(thread),
        })
    }

    /// Starts a search, stopping the one in progress (its answer becomes stale).
    pub fn think(&mut self, request: ThinkRequest) {
        self.cancel();
        let stop = Arc::new(AtomicBool::new(false));
        let discard = Arc::new(AtomicBool::new(false));
        self.current = Some((stop.clone(), discard.clone()));
        if let Some(jobs) = &self.jobs
            && jobs
                .send(Job {
                    request,
                    stop,
                    discard,
                })
                .is_err()
        {
            log::error!("the computer player's thread has stopped");
        }
    }

    /// Stops the search in progress, if any; its answer is dropped.
    pub fn cancel(&mut self) {
        if let Some((stop, discard)) = self.current.take() {
            discard.store(true, Ordering::Relaxed);
            stop.store(true, Ordering::Relaxed);
        }
    }

    /// Ends the search in progress now: its best move so far is the answer.
    pub fn move_now(&self) {
        if let Some((stop, _)) = &self.current {
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

fn work(settings: EngineSettings, inbox: &Receiver<Job>, on_answer: &dyn Fn(Answer)) {
    let mut searcher = Searcher::new(settings.hash_mb);
    searcher.set_time_cap(settings.max_think_time);
    while let Ok(mut job) = inbox.recv() {
        // Only the newest request matters; earlier ones were cancelled by it.
        while let Ok(newer) = inbox.try_recv() {
            job = newer;
        }
        if job.discard.load(Ordering::Relaxed) {
            continue;
        }
        let started = Instant::now();
        let request = &job.request;
        let reply = match request.purpose {
            Purpose::Move => match request.clock {
                None => Reply::Move(searcher.choose_move_with_book(
                    &request.game,
                    request.level,
                    &job.stop,
                    request.book,
                )),
                Some(clock) => Reply::Move(timed_move(&mut searcher, request, clock, &job.stop)),
            },
            Purpose::Hint => Reply::Move(searcher.hint(&request.game, &job.stop)),
            Purpose::DrawOffer => Reply::Draw {
                accept: accepts_draw(&mut searcher, &request.game, &job.stop),
            },
        };
        if job.discard.load(Ordering::Relaxed) {
            continue;
        }
        on_answer(Answer {
            id: request.id,
            purpose: request.purpose,
            reply,
            elapsed: started.elapsed(),
        });
    }
}

/// The time the computer keeps back per move for the UI thread and the pacing.
const MOVE_OVERHEAD: Duration = Duration::from_millis(100);

/// A move on the clock. Levels 8-10 manage their time like an engine on a clock (their node
/// budget would ignore the clock); levels 1-7 keep their node budget, which makes their
/// strength, but never take more than the clock allows.
fn timed_move(
    searcher: &mut Searcher,
    request: &ThinkRequest,
    clock: chesspi_engine::search::Clock,
    stop: &AtomicBool,
) -> Option<chesspi_engine::Move> {
    if request.game.is_over() {
        return None;
    }
    // Book moves cost no time.
    let seed = searcher.next_seed();
    if request.book
        && let Some(mv) = chesspi_engine::openings::book_move(request.game.position(), seed)
    {
        return Some(mv);
    }
    let mut limits = request.level.limits(seed);
    let timed = SearchLimits::from_clock(clock, MOVE_OVERHEAD);
    if request.level.number() >= 8 {
        limits.nodes = None;
        limits.movetime = None;
        limits.soft_time = timed.soft_time;
    }
    limits.hard_time = timed.hard_time;
    searcher.game_move(&request.game, limits, stop)
}

/// Judges a draw offered by the player on move: the computer (the other side) accepts when
/// a quick search says it stands worse by [`DRAW_ACCEPT_MARGIN`] or more.
fn accepts_draw(searcher: &mut Searcher, game: &Game, stop: &AtomicBool) -> bool {
    let limits = SearchLimits {
        nodes: Some(DRAW_NODES),
        movetime: Some(DRAW_TIME),
        ..SearchLimits::default()
    };
    let result = searcher.search(
        game.position(),
        game.history_hashes(),
        &limits,
        stop,
        &mut |_| {},
    );
    // The score is from the point of view of the player on move, who offered the draw.
    match result.score {
        Score::Cp(cp) => cp >= DRAW_ACCEPT_MARGIN,
        Score::Mate(moves) => moves > 0,
    }
}
