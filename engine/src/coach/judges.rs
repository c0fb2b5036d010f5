//! The coach's judgements of a few moves on several threads at once, for Assist: a queue of
//! moves that can be fed while the judges already work, and the lanes that take from it.

use super::Coach;
use crate::analysis::MoveClass;
use crate::moves::Move;
use crate::position::Position;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Condvar, Mutex};
use std::thread::Scope;
use std::time::Duration;

/// How often a lane waiting for moves looks at the stop flag (it is set without a wake-up).
const STOP_POLL: Duration = Duration::from_millis(20);

#[derive(Default)]
struct State {
    waiting: VecDeque<Move>,
    /// Every move ever queued: none is judged twice.
    seen: Vec<Move>,
    /// No more moves will come: a lane with nothing to take ends.
    closed: bool,
}

/// Moves waiting for a judge.
#[derive(Default)]
pub(super) struct Queue {
    state: Mutex<State>,
    ready: Condvar,
}

impl Queue {
    /// Queues `mv` unless it was queued before.
    pub(super) fn push(&self, mv: Move) {
        if let Ok(mut state) = self.state.lock()
            && !state.seen.contains(&mv)
        {
            state.seen.push(mv);
            state.waiting.push_back(mv);
            self.ready.notify_one();
        }
    }

    /// No more moves: lanes end once the queue is empty.
    pub(super) fn close(&self) {
        if let Ok(mut state) = self.state.lock() {
            state.closed = true;
        }
        self.ready.notify_all();
    }

    /// The next move to judge; `None` once the queue is closed and empty, or stopped.
    fn next(&self, stop: &AtomicBool) -> Option<Move> {
        let mut state = self.state.lock().ok()?;
        loop {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Some(mv) = state.waiting.pop_front() {
                return Some(mv);
            }
            if state.closed {
                return None;
            }
            state = self.ready.wait_timeout(state, STOP_POLL).ok()?.0;
        }
    }
}

/// What a lane needs: the position judged, the queue, where verdicts go and the stop flag.
#[derive(Clone, Copy)]
pub(super) struct Work<'a> {
    pub position: &'a Position,
    pub history: &'a [u64],
    pub queue: &'a Queue,
    pub stop: &'a AtomicBool,
}

/// Starts a lane on `scope`: `coach` judges queued moves, as `explain` does, until the queue
/// is closed and empty, sending each verdict to `verdicts`.
pub(super) fn start_lane<'scope>(
    scope: &'scope Scope<'scope, '_>,
    coach: &'scope mut Coach,
    work: Work<'scope>,
    verdicts: Sender<(Move, MoveClass)>,
) {
    scope.spawn(move || {
        while let Some(mv) = work.queue.next(work.stop) {
            if let Ok(j) = coach.judge(work.position, work.history, mv, work.stop)
                && verdicts.send((mv, j.verdict)).is_err()
            {
                break;
            }
        }
    });
}
