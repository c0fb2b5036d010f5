//! Lazy SMP: with `threads` above one, helper threads search the same root at the same time,
//! sharing only the transposition table. They find different parts of the tree first (each
//! skips some depths, so it runs ahead of the main thread), and what they store makes the
//! main thread's search cheaper. The main thread alone reports and chooses the move; the
//! helpers stop when it returns, and all are joined before the search does (scoped threads).
//!
//! Node limits count the nodes of every thread (as `go nodes` does in other engines): the
//! threads spend one budget together. With one thread nothing here runs, so a search is
//! exactly what it was before threads existed (the bench signature holds).

use super::ordering::History;
use super::{MAX_PLY, SearchInfo, SearchLimits, SearchResult, Searcher, Worker};
use crate::eval::network::Accumulators;
use crate::position::Position;
use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// How many threads a search uses: 1 to [`Threads::MAX`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Threads(u8);

impl Threads {
    /// One thread: deterministic, the default.
    pub const ONE: Threads = Threads(1);
    /// The most threads a search takes (UCI's `Threads` option's maximum).
    pub const MAX: Threads = Threads(64);

    /// `count` threads.
    ///
    /// # Errors
    /// [`ThreadsError::OutOfRange`] unless `count` is 1 to 64.
    pub fn new(count: usize) -> Result<Threads, ThreadsError> {
        if (1..=Threads::MAX.get()).contains(&count) {
            Ok(Threads(count as u8))
        } else {
            Err(ThreadsError::OutOfRange(count.to_string()))
        }
    }

    /// `count` brought into 1 to 64 (for a core count, which may be anything).
    pub fn clamped(count: usize) -> Threads {
        Threads(count.clamp(1, Threads::MAX.get()) as u8)
    }

    /// One per core the system gives this process (one when it cannot tell): the Pi 3's
    /// four, for a caller that wants every core to think.
    pub fn available() -> Threads {
        Threads::clamped(std::thread::available_parallelism().map_or(1, usize::from))
    }

    /// The count, 1 to 64.
    pub fn get(self) -> usize {
        usize::from(self.0)
    }
}

impl Default for Threads {
    fn default() -> Self {
        Threads::ONE
    }
}

impl fmt::Display for Threads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Why a thread count was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ThreadsError {
    /// A whole number outside 1 to 64 (kept as text: it may not fit any integer).
    OutOfRange(String),
    /// Not a whole number.
    NotANumber(String),
}

impl fmt::Display for ThreadsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let max = Threads::MAX;
        match self {
            ThreadsError::OutOfRange(n) => write!(f, "Threads is 1 to {max}, not {n}"),
            ThreadsError::NotANumber(text) => {
                write!(f, "Threads expects a number 1 to {max}, not '{text}'")
            }
        }
    }
}

impl std::error::Error for ThreadsError {}

impl FromStr for Threads {
    type Err = ThreadsError;

    fn from_str(text: &str) -> Result<Threads, ThreadsError> {
        let text = text.trim();
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(ThreadsError::NotANumber(text.to_string()));
        }
        // Digits only: a failed parse is a number too large for usize.
        match text.parse::<usize>() {
            Ok(count) => Threads::new(count),
            Err(_) => Err(ThreadsError::OutOfRange(text.to_string())),
        }
    }
}

/// A helper thread's own tables, kept between searches like the main thread's.
pub(super) struct HelperState {
    history: History,
    accumulators: Accumulators,
}

impl HelperState {
    fn new() -> HelperState {
        HelperState {
            history: History::new(),
            accumulators: Accumulators::new(MAX_PLY + 1),
        }
    }

    pub(super) fn clear(&mut self) {
        self.history.clear();
    }
}

/// Which depths helper `n` (1..) skips: helpers interleave their iterations so that at any
/// time some run ahead of the main thread (the skip pattern of Stockfish 7–9's Lazy SMP).
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether helper `helper` (1..) leaves out the iteration at `depth`.
pub(super) fn skips(helper: usize, depth: u32) -> bool {
    let i = helper.saturating_sub(1) % SKIP_SIZE.len();
    ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 == 1
}

/// Limits of a helper: none but the root moves; it runs until the main thread is done.
fn helper_limits(limits: &SearchLimits) -> SearchLimits {
    SearchLimits {
        infinite: true,
        searchmoves: limits.searchmoves.clone(),
        ..SearchLimits::default()
    }
}

/// Sets the helpers' stop flag when dropped: also when the main thread's search unwinds, so
/// a panic can never leave the scope waiting for helpers that search forever.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl Searcher {
    /// [`Searcher::search`] with `limits.threads` threads; `hashes` ends with the root's.
    pub(super) fn search_parallel(
        &mut self,
        root: &Position,
        hashes: &[u64],
        limits: &SearchLimits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let (mut result, helper_nodes) = self.search_threads(root, hashes, limits, stop, info);
        result.nodes += helper_nodes.iter().sum::<u64>();
        result
    }

    /// The main thread's result and each helper's nodes (none for a helper the system
    /// refused to start).
    fn search_threads(
        &mut self,
        root: &Position,
        hashes: &[u64],
        limits: &SearchLimits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> (SearchResult, Vec<u64>) {
        let helpers = limits.threads.get().saturating_sub(1);
        if self.helpers.len() < helpers {
            self.helpers.resize_with(helpers, HelperState::new);
        }
        let helper_limits = helper_limits(limits);
        let helpers_stop = AtomicBool::new(false);
        let nodes = AtomicU64::new(0);
        let tt = &self.tt;
        std::thread::scope(|scope| {
            let _stop_helpers = StopOnDrop(&helpers_stop);
            let mut running = Vec::with_capacity(helpers);
            for (i, state) in self.helpers[..helpers].iter_mut().enumerate() {
                let (helpers_stop, nodes, helper_limits) = (&helpers_stop, &nodes, &helper_limits);
                let spawned = std::thread::Builder::new()
                    .name(format!("search helper {}", i + 1))
                    .spawn_scoped(scope, move || {
                        let mut worker = Worker::new(
                            tt,
                            &mut state.accumulators,
                            &mut state.history,
                            helpers_stop,
                            helper_limits,
                            hashes.to_vec(),
                        );
                        worker.shared_nodes = Some(nodes);
                        worker.helper = Some(i + 1);
                        worker.iterate(root, &mut |_| {});
                        worker.nodes
                    });
                // A thread the system refuses is a helper less, not a failed search.
                if let Ok(handle) = spawned {
                    running.push(handle);
                }
            }
            let mut main = Worker::new(
                tt,
                &mut self.accumulators,
                &mut self.history,
                stop,
                limits,
                hashes.to_vec(),
            );
            main.shared_nodes = Some(&nodes);
            let result = main.iterate(root, info);
            helpers_stop.store(true, Ordering::Relaxed);
            let helper_nodes = running
                .into_iter()
                .map(|handle| handle.join().unwrap_or(0))
                .collect();
            (result, helper_nodes)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts_are_bounded() {
        assert_eq!(Threads::default(), Threads::ONE);
        assert_eq!("1".parse::<Threads>().map(Threads::get), Ok(1));
        assert_eq!(" 4 ".parse::<Threads>().map(Threads::get), Ok(4));
        assert_eq!("64".parse::<Threads>().map(Threads::get), Ok(64));
        assert_eq!(
            "0".parse::<Threads>(),
            Err(ThreadsError::OutOfRange("0".into()))
        );
        assert_eq!(
            "65".parse::<Threads>(),
            Err(ThreadsError::OutOfRange("65".into()))
        );
        let huge = "99999999999999999999999";
        assert_eq!(
            huge.parse::<Threads>(),
            Err(ThreadsError::OutOfRange(huge.into()))
        );
        for bad in ["abc", "", "-1", "2.5", "+3"] {
            assert!(
                matches!(bad.parse::<Threads>(), Err(ThreadsError::NotANumber(_))),
                "{bad}"
            );
        }
        assert_eq!(Threads::clamped(0), Threads::ONE);
        assert_eq!(Threads::clamped(4).get(), 4);
        assert_eq!(Threads::clamped(1000), Threads::MAX);
        assert!((1..=64).contains(&Threads::available().get()));
        assert!(Threads::new(65).is_err() && Threads::new(0).is_err());
    }

    #[test]
    fn helpers_interleave_depths() {
        // The first helper searches the even depths, the second the odd ones.
        let even: Vec<u32> = (1..=8).filter(|&d| !skips(1, d)).collect();
        assert_eq!(even, [2, 4, 6, 8]);
        let odd: Vec<u32> = (1..=8).filter(|&d| !skips(2, d)).collect();
        assert_eq!(odd, [1, 3, 5, 7]);
        // Every helper searches some depths: none idles.
        for helper in 1..=64 {
            assert!((1..=10).any(|d| !skips(helper, d)), "{helper}");
        }
    }

    #[test]
    fn every_helper_searches() {
        let root = Position::startpos();
        let limits = SearchLimits {
            depth: Some(8),
            threads: Threads::new(3).expect("3 threads"),
            ..SearchLimits::default()
        };
        let stop = AtomicBool::new(false);
        let mut searcher = Searcher::new(4);
        let (result, helper_nodes) =
            searcher.search_threads(&root, &[root.hash()], &limits, &stop, &mut |_| {});
        assert_eq!(result.depth, 8);
        assert_eq!(helper_nodes.len(), 2);
        assert!(helper_nodes.iter().all(|&n| n > 0), "{helper_nodes:?}");
    }
}
