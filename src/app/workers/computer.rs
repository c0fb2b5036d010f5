//! The computer player: one worker thread that owns the engine's searcher and answers
//! requests one at a time, so the UI thread never waits for a search.

use super::thread::{OnDrop, Thread};
use crate::app::screens::{EndgameReply, Purpose, Reply, ThinkRequest};
use chesspi_engine::coach::{Coach, Judgement};
use chesspi_engine::game::Game;
use chesspi_engine::search::{Score, SearchLimits, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};
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
#[derive(Debug, Clone)]
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

/// A search's flags: `stop` ends it (its best move so far is the answer), `discard` drops
/// its answer.
type Flags = (Arc<AtomicBool>, Arc<AtomicBool>);

/// Handle to the worker thread. Dropping it stops the search in progress and ends the thread.
pub struct ComputerPlayer {
    jobs: Sender<Job>,
    /// The search in progress: its flags, shared with the thread's stop.
    current: Arc<Mutex<Option<Flags>>>,
    /// Declared after `jobs`, so it is dropped after the channel is closed: the worker's
    /// loop then ends once the search in progress is stopped.
    thread: Thread,
}

impl ComputerPlayer {
    /// Starts the worker. `on_answer` runs on the worker thread for every finished search;
    /// it must hand the answer to the UI thread (e.g. through `slint::invoke_from_event_loop`).
    pub fn start(
        settings: EngineSettings,
        on_answer: impl Fn(Answer) + Send + 'static,
    ) -> std::io::Result<ComputerPlayer> {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let current = Arc::new(Mutex::new(None));
        let stopping = current.clone();
        let thread = Thread::spawn(
            "computer",
            OnDrop::Join,
            move || cancel(&stopping),
            move || work(settings, &inbox, &on_answer),
        )?;
        Ok(ComputerPlayer {
            jobs,
            current,
            thread,
        })
    }

    /// Starts a search, stopping the one in progress (its answer becomes stale).
    pub fn think(&mut self, request: ThinkRequest) {
        self.cancel();
        let stop = Arc::new(AtomicBool::new(false));
        let discard = Arc::new(AtomicBool::new(false));
        if let Ok(mut current) = self.current.lock() {
            *current = Some((stop.clone(), discard.clone()));
        }
        let job = Job {
            request,
            stop,
            discard,
        };
        if self.jobs.send(job).is_err() || self.thread.is_finished() {
            log::error!("the computer player's thread has stopped");
        }
    }

    /// Stops the search in progress, if any; its answer is dropped.
    pub fn cancel(&mut self) {
        cancel(&self.current);
    }

    /// Ends the search in progress now: its best move so far is the answer.
    pub fn move_now(&self) {
        if let Ok(current) = self.current.lock()
            && let Some((stop, _)) = current.as_ref()
        {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// Stops the search in progress and drops its answer.
fn cancel(current: &Mutex<Option<Flags>>) {
    if let Ok(mut current) = current.lock()
        && let Some((stop, discard)) = current.take()
    {
        discard.store(true, Ordering::Relaxed);
        stop.store(true, Ordering::Relaxed);
    }
}

fn work(settings: EngineSettings, inbox: &Receiver<Job>, on_answer: &dyn Fn(Answer)) {
    let mut searcher = Searcher::new(settings.hash_mb);
    searcher.set_time_cap(settings.max_think_time);
    // The cores the device gives (the Pi 3 has four) think in the strong levels' clock
    // games, Hint, level 10 and the coach; levels 1-9 stay on one thread, as the engine decides.
    let threads = crate::config::search_threads();
    searcher.set_threads(threads);
    // Its own small table: a judgement must not disturb the computer's.
    let mut coach = Coach::default();
    coach.set_threads(threads);
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
                Some(clock) => Reply::Move(timed_move(
                    &mut searcher,
                    request,
                    clock,
                    settings.max_think_time,
                    &job.stop,
                )),
            },
            Purpose::Hint => Reply::Move(searcher.hint(&request.game, &job.stop)),
            Purpose::DrawOffer => Reply::Draw {
                accept: accepts_draw(&mut searcher, &request.game, &job.stop),
            },
            Purpose::Judge | Purpose::TrainJudge => {
                Reply::Judged(judge_last_move(&mut coach, &request.game, &job.stop))
            }
            Purpose::Threat => Reply::Threat(coach.threat(request.game.position(), &job.stop)),
            Purpose::EndgameProbe | Purpose::EndgameMove => {
                Reply::Endgame(endgame_reply(&mut searcher, request, &job.stop))
            }
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

/// The coach's judgement of the game's last move.
fn judge_last_move(coach: &mut Coach, game: &Game, stop: &AtomicBool) -> Option<Box<Judgement>> {
    let ply = game.moves().len().checked_sub(1)?;
    let positions = game.positions();
    let history: Vec<u64> = positions[..=ply].iter().map(|p| p.hash()).collect();
    match coach.judge(&positions[ply], &history, game.moves()[ply], stop) {
        Ok(judgement) => Some(Box::new(judgement)),
        Err(e) => {
            log::warn!("the coach could not judge {}: {e}", game.moves()[ply]);
            None
        }
    }
}

/// The answer in an endgame lesson: for [`Purpose::EndgameMove`] the computer's move at full
/// strength — the tables' where they cover the position (the quickest mate, the longest
/// defence), else the search at the request's level — and what the tables say of every
/// position, the reply's included. The tables are built here the first time, off the UI
/// thread.
fn endgame_reply(
    searcher: &mut Searcher,
    request: &ThinkRequest,
    stop: &AtomicBool,
) -> EndgameReply {
    use chesspi_engine::endgame::{best_move, probe};
    let mut game = request.game.clone();
    let mut reply = None;
    if request.purpose == Purpose::EndgameMove && !game.is_over() {
        let mv = best_move(game.position())
            .or_else(|| searcher.choose_move_with_book(&game, request.level, stop, false));
        reply = mv.filter(|&mv| game.play(mv).is_ok());
    }
    let values = game.positions().iter().map(probe).collect();
    EndgameReply { reply, values }
}

/// The time the computer keeps back per move for the UI thread and the pacing.
const MOVE_OVERHEAD: Duration = Duration::from_millis(100);

/// A move on the clock. Levels 8-10 manage their time like an engine on a clock (their node
/// budget would ignore the clock), and the clock, not the config's `max_think_seconds`, is
/// their limit: whoever chose 15+10 wants the computer to use it. Levels 1-7 keep their node
/// budget, which makes their strength, and the cap, and never take more than the clock allows.
fn timed_move(
    searcher: &mut Searcher,
    request: &ThinkRequest,
    clock: chesspi_engine::search::Clock,
    cap: Option<Duration>,
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
    let on_the_clock = request.level.number() >= 8;
    if on_the_clock {
        limits.nodes = None;
        limits.movetime = None;
        limits.soft_time = timed.soft_time;
        searcher.set_time_cap(None);
    }
    limits.hard_time = timed.hard_time;
    let mv = searcher.game_move(&request.game, limits, stop);
    if on_the_clock {
        searcher.set_time_cap(cap);
    }
    mv
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

#[cfg(test)]
mod tests {
    use super::*;
    use chesspi_engine::level::Level;
    use chesspi_engine::search::Clock;

    fn request(level: u8) -> ThinkRequest {
        let mut game = Game::new();
        // Out of the book: an open middlegame with many moves to weigh.
        for mv in [
            "e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3",
        ] {
            let mv = game.position().parse_uci_move(mv).expect("legal");
            game.play(mv).expect("legal");
        }
        ThinkRequest {
            id: 1,
            purpose: Purpose::Move,
            game,
            level: Level::new(level).expect("level"),
            clock: None,
            book: false,
        }
    }

    /// On a clock, levels 8-10 think as long as the clock allows, past the untimed cap; the
    /// cap is back for the next untimed move.
    #[test]
    fn strong_levels_on_a_clock_take_their_time_from_the_clock() {
        let cap = Duration::from_millis(20);
        let mut searcher = Searcher::new(1);
        searcher.set_time_cap(Some(cap));
        // Sudden death with 30 s: at least 0.6 s for this move (its soft limit), thirty times
        // the cap; the gaps are wide because a loaded machine overruns a cap by a few 100 ms.
        let clock = Clock {
            remaining: Duration::from_secs(30),
            increment: Duration::ZERO,
            moves_to_go: None,
        };
        let stop = AtomicBool::new(false);
        let started = Instant::now();
        let mv = timed_move(&mut searcher, &request(10), clock, Some(cap), &stop);
        let level_10 = started.elapsed();
        assert!(mv.is_some());
        assert!(
            level_10 > Duration::from_millis(500),
            "level 10 stopped at the cap: {level_10:?}"
        );
        assert!(level_10 < Duration::from_secs(30), "{level_10:?}");

        // Untimed, the cap holds again (the search checks the time between nodes).
        let started = Instant::now();
        let untimed = searcher.choose_move_with_book(&request(10).game, Level::MAX, &stop, false);
        assert!(untimed.is_some());
        assert!(
            started.elapsed() < Duration::from_millis(450),
            "{:?}",
            started.elapsed()
        );
    }
}
