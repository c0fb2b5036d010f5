//! Search: iterative deepening principal variation search with aspiration windows, a
//! transposition table, quiescence search, null move, late move reductions and futility
//! pruning. The caller stops it through an `AtomicBool`. With `SearchLimits::threads` above
//! one, helper threads search the same root into the shared table (Lazy SMP, `smp.rs`).
//!
//! One concern per file: this one holds the API (scores, results, the [`Searcher`]) and the
//! per-search state; `deepening.rs` runs the iterations and searches the root moves,
//! `negamax.rs` the tree below them, `quiescence.rs` the captures at its leaves, and
//! `policy.rs` decides which move the kiosk plays (the time cap, hints, and the weak levels'
//! imprecise choice). `limits.rs` bounds a search, `ordering.rs` orders its moves and `tt.rs`
//! is its transposition table, safe to share between threads.

pub mod bench;
mod deepening;
mod limits;
mod negamax;
mod ordering;
mod policy;
mod quiescence;
mod smp;
mod tt;

pub use limits::{Clock, SearchLimits};
pub use ordering::see_ge;
pub use policy::Weakness;
pub use smp::{Threads, ThreadsError};

use crate::eval::network::Accumulators;
use crate::moves::Move;
use crate::position::Position;
use ordering::History;
use policy::seed_from_clock;
use smp::HelperState;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tt::TranspositionTable;

/// Score of being mated now; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
const INFINITY: i32 = MATE + 1;
/// Deepest ply the search reaches (quiescence included).
pub const MAX_PLY: usize = 128;

/// How often (in nodes) the stop flag and the clock are looked at: about 0.3 ms here.
const CHECK_EVERY: u64 = 1024;

/// A search score as UCI reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Score {
    /// Centipawns from the side to move's point of view.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated).
    Mate(i32),
}

impl Score {
    fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Cp(score)
        }
    }
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Progress after each completed iteration.
#[derive(Debug, Clone)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    /// Nodes searched so far by every thread (with several, nearly: each adds its own in
    /// batches).
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: usize,
    pub pv: Vec<Move>,
    /// Every root move's score in this iteration, from the side to move's view, best first;
    /// only with [`SearchLimits::score_all`] (empty otherwise).
    pub root_scores: Vec<(Move, Score)>,
}

impl SearchInfo {
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1) as u64;
        self.nodes.saturating_mul(1_000_000) / micros
    }
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct SearchResult {
    /// The move to play; `None` only when there is no legal move.
    pub best_move: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    pub score: Score,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched by every thread.
    pub nodes: u64,
    pub pv: Vec<Move>,
}

/// The engine's search state that lives between searches: hash table and history.
pub struct Searcher {
    tt: TranspositionTable,
    history: History,
    /// The network's sums along the search path.
    accumulators: Accumulators,
    rng: u64,
    /// The longest a kiosk move or hint may take, whatever the level (the device's config).
    time_cap: Option<Duration>,
    /// Threads for the kiosk's unbudgeted full-strength searches (see `Searcher::set_threads`).
    kiosk_threads: Threads,
    /// Helper threads' own tables, kept between searches (grown on demand).
    helpers: Vec<HelperState>,
}

/// The per-search state.
struct Worker<'a> {
    tt: &'a TranspositionTable,
    accumulators: &'a mut Accumulators,
    history: &'a mut History,
    stop: &'a AtomicBool,
    limits: &'a SearchLimits,
    start: Instant,
    /// Nodes of this thread.
    nodes: u64,
    /// Every thread's nodes, when several search: each adds its own in batches.
    shared_nodes: Option<&'a AtomicU64>,
    /// This thread's nodes already added to `shared_nodes`.
    flushed: u64,
    /// A helper thread's number (1..): it skips some depths and reports nothing.
    helper: Option<usize>,
    seldepth: usize,
    stopped: bool,
    /// Hashes of the game so far and the current search path.
    hashes: Vec<u64>,
    /// Index of the root in `hashes`: earlier entries are the game's history.
    root_index: usize,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    static_evals: [i32; MAX_PLY + 1],
    pv: Box<[[Option<Move>; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    lmr: [[i32; 64]; 64],
}

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` megabytes.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            history: History::new(),
            accumulators: Accumulators::new(MAX_PLY + 1),
            rng: seed_from_clock(),
            time_cap: None,
            kiosk_threads: Threads::ONE,
            helpers: Vec::new(),
        }
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_size(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// Forgets everything learnt (for a new game), so searches repeat exactly.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
        for helper in &mut self.helpers {
            helper.clear();
        }
    }

    /// Searches `root` within `limits`. `history` holds the hashes of the game's positions
    /// up to and including `root` (for repetitions); it may be empty. `info` is called after
    /// every completed iteration.
    pub fn search(
        &mut self,
        root: &Position,
        history: &[u64],
        limits: &SearchLimits,
        stop: &AtomicBool,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.tt.new_search();
        let mut hashes: Vec<u64> = history.to_vec();
        if hashes.last() != Some(&root.hash()) {
            hashes.push(root.hash());
        }
        if limits.threads.get() > 1 {
            return self.search_parallel(root, &hashes, limits, stop, info);
        }
        let mut worker = Worker::new(
            &self.tt,
            &mut self.accumulators,
            &mut self.history,
            stop,
            limits,
            hashes,
        );
        worker.iterate(root, info)
    }
}

impl Searcher {
    /// Lengthens `line` (moves from `root`) with the best moves the transposition table holds
    /// after it, up to `max` moves: a search's principal variation stops where a table hit
    /// cut it short. Stops at a move that is not legal or a position seen before.
    pub fn extend_line(&self, root: &Position, line: &mut Vec<Move>, max: usize) {
        let mut pos = *root;
        let mut seen = vec![pos.hash()];
        for &mv in line.iter() {
            if !pos.is_legal(mv) {
                return;
            }
            pos.play_unchecked(mv);
            seen.push(pos.hash());
        }
        while line.len() < max {
            let Some(mv) = self.tt.probe(pos.hash(), 0).and_then(|e| e.mv) else {
                return;
            };
            if !pos.is_legal(mv) {
                return;
            }
            pos.play_unchecked(mv);
            if seen.contains(&pos.hash()) {
                return;
            }
            seen.push(pos.hash());
            line.push(mv);
        }
    }
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(DEFAULT_HASH_MB)
    }
}

/// Transposition table size when none is asked for, small enough for a 1 GB device.
pub const DEFAULT_HASH_MB: usize = 16;

fn lmr_table() -> [[i32; 64]; 64] {
    let mut table = [[0; 64]; 64];
    for (depth, row) in table.iter_mut().enumerate().skip(1) {
        for (moves, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25) as i32;
        }
    }
    table
}

/// A root move with the score of its last complete search.
#[derive(Clone, Copy)]
struct RootMove {
    mv: Move,
    score: i32,
    /// Score from the previous iteration, for ordering.
    previous: i32,
}

impl<'a> Worker<'a> {
    /// A worker for one thread; `hashes` ends with the root's.
    fn new(
        tt: &'a TranspositionTable,
        accumulators: &'a mut Accumulators,
        history: &'a mut History,
        stop: &'a AtomicBool,
        limits: &'a SearchLimits,
        hashes: Vec<u64>,
    ) -> Worker<'a> {
        Worker {
            tt,
            accumulators,
            history,
            stop,
            limits,
            start: Instant::now(),
            nodes: 0,
            shared_nodes: None,
            flushed: 0,
            helper: None,
            seldepth: 0,
            stopped: false,
            root_index: hashes.len().saturating_sub(1),
            hashes,
            killers: [[None; 2]; MAX_PLY + 1],
            static_evals: [0; MAX_PLY + 1],
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            lmr: lmr_table(),
        }
    }
}

impl Worker<'_> {
    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][0] = Some(mv);
        let child_len = if ply < MAX_PLY {
            self.pv_len[ply + 1]
        } else {
            0
        };
        for i in 0..child_len {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len + 1;
    }

    /// The static evaluation of `pos`, reached at `ply`.
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        self.accumulators.evaluate(pos, ply)
    }

    /// Counts a node and looks at the stop conditions every so often.
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if let Some(max) = self.limits.nodes
            && self.nodes >= max
        {
            self.stopped = true;
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            }
            if let Some(shared) = self.shared_nodes {
                self.flush_nodes(shared);
            }
            if let Some(hard) = self.limits.movetime.or(self.limits.hard_time)
                && !self.limits.infinite
                && self.start.elapsed() >= hard
            {
                self.stopped = true;
            }
        }
    }

    /// Adds this thread's new nodes to the shared count; the main thread's node limit is
    /// spent by all threads together (as `go nodes` counts in other engines).
    #[cold]
    fn flush_nodes(&mut self, shared: &AtomicU64) {
        let fresh = self.nodes - self.flushed;
        self.flushed = self.nodes;
        let total = shared.fetch_add(fresh, Ordering::Relaxed) + fresh;
        if let Some(max) = self.limits.nodes
            && total >= max
        {
            self.stopped = true;
        }
    }

    /// Nodes of every thread so far (for `info`); exact with one thread.
    fn total_nodes(&self) -> u64 {
        match self.shared_nodes {
            Some(shared) => shared.load(Ordering::Relaxed) + self.nodes - self.flushed,
            None => self.nodes,
        }
    }
}
