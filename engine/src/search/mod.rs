//! Search: iterative deepening principal variation search with aspiration windows, a
//! transposition table, quiescence search, null move, late move reductions and futility
//! pruning. Single-threaded; the caller stops it through an `AtomicBool`.

pub mod bench;
mod limits;
mod ordering;
mod tt;

pub use limits::{Clock, SearchLimits, Weakness};

use crate::eval::network::Accumulators;
use crate::eval::{self, SEE_VALUE};
use crate::game::Game;
use crate::moves::Move;
use crate::position::Position;
use ordering::{History, MovePicker, captured, is_bad_capture_score, is_tactical, see_ge};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tt::{Bound, TranspositionTable};

/// Score of being mated now; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 32_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 2 * MAX_PLY as i32;
const INFINITY: i32 = MATE + 1;
/// Deepest ply the search reaches (quiescence included).
pub const MAX_PLY: usize = 128;

/// How often (in nodes) the stop flag and the clock are looked at: about 0.3 ms here.
const CHECK_EVERY: u64 = 1024;
const ASPIRATION_DELTA: i32 = 25;

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
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: usize,
    pub pv: Vec<Move>,
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
}

/// The per-search state.
struct Worker<'a> {
    tt: &'a mut TranspositionTable,
    accumulators: &'a mut Accumulators,
    history: &'a mut History,
    stop: &'a AtomicBool,
    limits: &'a SearchLimits,
    start: Instant,
    nodes: u64,
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
        }
    }

    /// Caps the thinking time of [`Searcher::choose_move`] and [`Searcher::hint`] (a slow
    /// device must not think longer than its owner allows). `None` leaves the limits' own times.
    pub fn set_time_cap(&mut self, cap: Option<Duration>) {
        self.time_cap = cap;
    }

    fn capped(&self, mut limits: SearchLimits) -> SearchLimits {
        if let Some(cap) = self.time_cap {
            limits.movetime = Some(limits.movetime.map_or(cap, |t| t.min(cap)));
        }
        limits
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash_size(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// Forgets everything learnt (for a new game), so searches repeat exactly.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.clear();
    }

    /// Seeds the random choices of the weak levels (for reproducible tests).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = seed | 1;
    }

    /// A suggestion for the player to move, at a strong but quick setting.
    pub fn hint(&mut self, game: &Game, stop: &AtomicBool) -> Option<Move> {
        if game.is_over() {
            return None;
        }
        let limits = SearchLimits {
            nodes: Some(HINT_NODES),
            movetime: Some(HINT_TIME),
            ..SearchLimits::default()
        };
        self.game_move(game, limits, stop)
    }

    /// The best move for the side to move in `game` within `limits`, shortened by the time
    /// cap, or `None` when there is no legal move. Blocks until done or `stop` is set; a
    /// stopped search still returns the best move found so far. (The levels' computer player,
    /// [`Searcher::choose_move`], is built on this in [`crate::level`].)
    pub fn game_move(
        &mut self,
        game: &Game,
        limits: SearchLimits,
        stop: &AtomicBool,
    ) -> Option<Move> {
        let limits = self.capped(limits);
        self.search(
            game.position(),
            game.history_hashes(),
            &limits,
            stop,
            &mut |_| {},
        )
        .best_move
    }

    /// The next seed for a weak level's imprecise choice.
    pub fn next_seed(&mut self) -> u64 {
        // xorshift64
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
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
        let root_index = hashes.len() - 1;
        let mut worker = Worker {
            tt: &mut self.tt,
            accumulators: &mut self.accumulators,
            history: &mut self.history,
            stop,
            limits,
            start: Instant::now(),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            hashes,
            root_index,
            killers: [[None; 2]; MAX_PLY + 1],
            static_evals: [0; MAX_PLY + 1],
            pv: Box::new([[None; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            lmr: lmr_table(),
        };
        worker.iterate(root, info)
    }
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new(DEFAULT_HASH_MB)
    }
}

/// Transposition table size when none is asked for, small enough for a 1 GB device.
pub const DEFAULT_HASH_MB: usize = 16;
const HINT_NODES: u64 = 400_000;
const HINT_TIME: Duration = Duration::from_millis(1500);

fn seed_from_clock() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x9E37_79B9, |d| d.as_nanos() as u64);
    nanos | 1
}

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

impl Worker<'_> {
    fn iterate(&mut self, root: &Position, info: &mut dyn FnMut(&SearchInfo)) -> SearchResult {
        let mut root_moves: Vec<RootMove> = root
            .legal_moves()
            .iter()
            .filter(|mv| self.limits.searchmoves.is_empty() || self.limits.searchmoves.contains(mv))
            .map(|&mv| RootMove {
                mv,
                score: -INFINITY,
                previous: -INFINITY,
            })
            .collect();
        let mut result = SearchResult {
            best_move: root_moves.first().map(|r| r.mv),
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        if root_moves.is_empty() {
            result.score = Score::Cp(if root.is_check() { -MATE } else { 0 });
            return result;
        }
        // Order the first iteration by a quick look (captures first).
        let picker_order = {
            let mut picker = MovePicker::new(
                root,
                root.legal_moves(),
                self.tt.probe(root.hash(), 0).and_then(|e| e.mv),
                [None; 2],
                self.history,
            );
            let mut order = Vec::new();
            while let Some((mv, _)) = picker.next() {
                order.push(mv);
            }
            order
        };
        root_moves.sort_by_key(|r| picker_order.iter().position(|m| *m == r.mv));

        let exact_all = self.limits.weakness.is_some();
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, 100);
        let mut score = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let mut delta = ASPIRATION_DELTA;
            let (mut alpha, mut beta) = if depth >= 4 && !exact_all {
                (
                    (score - delta).max(-INFINITY),
                    (score + delta).min(INFINITY),
                )
            } else {
                (-INFINITY, INFINITY)
            };
            loop {
                let s = self.root_search(root, &mut root_moves, depth as i32, alpha, beta);
                if self.stopped {
                    break;
                }
                if s <= alpha {
                    beta = (alpha + beta) / 2;
                    alpha = (s - delta).max(-INFINITY);
                } else if s >= beta {
                    beta = (s + delta).min(INFINITY);
                } else {
                    score = s;
                    break;
                }
                delta += delta / 2 + 5;
                if delta > 1000 {
                    alpha = -INFINITY;
                    beta = INFINITY;
                }
            }
            // A stopped iteration still counts when its first (best so far) move was searched
            // completely and beat the previous best.
            root_moves.sort_by_key(|r| std::cmp::Reverse(r.score));
            if self.stopped && depth > 1 {
                if root_moves[0].score > -INFINITY
                    && root_moves[0].mv != result.best_move.unwrap_or(root_moves[0].mv)
                {
                    result.best_move = Some(root_moves[0].mv);
                    result.ponder = None;
                }
                break;
            }
            for r in &mut root_moves {
                r.previous = r.score;
            }
            let pv = self.root_pv(root_moves[0].mv);
            result.best_move = Some(root_moves[0].mv);
            result.ponder = pv.get(1).copied();
            result.score = Score::from_internal(root_moves[0].score);
            result.depth = depth;
            result.pv = pv.clone();
            info(&SearchInfo {
                depth,
                seldepth: self.seldepth as u32,
                score: result.score,
                nodes: self.nodes,
                time: self.start.elapsed(),
                hashfull: self.tt.hashfull(),
                pv,
            });
            if self.should_stop_after_iteration(root_moves[0].score) {
                break;
            }
            if self.stopped {
                break;
            }
        }
        result.nodes = self.nodes;
        if let Some(weakness) = self.limits.weakness {
            // Scores of the last complete iteration (a stopped one is partial).
            let scored: Vec<(Move, i32)> = root_moves
                .iter()
                .map(|r| {
                    (
                        r.mv,
                        if r.previous == -INFINITY {
                            i32::MIN
                        } else {
                            r.previous
                        },
                    )
                })
                .collect();
            if let Some(mv) = weakness.choose_from(&scored)
                && result.best_move != Some(mv)
            {
                // The line and the expected reply were the best move's, not this one's.
                result.best_move = Some(mv);
                result.ponder = None;
                result.pv = vec![mv];
            }
        }
        result
    }

    fn should_stop_after_iteration(&self, score: i32) -> bool {
        if let Some(mate) = self.limits.mate
            && score >= MATE_BOUND
            && (MATE - score + 1) / 2 <= mate as i32
        {
            return true;
        }
        if self.limits.infinite {
            return false;
        }
        if let Some(soft) = self.limits.soft_time
            && self.start.elapsed() >= soft
        {
            return true;
        }
        false
    }

    /// The principal variation from the triangular table, starting with `first`.
    fn root_pv(&self, first: Move) -> Vec<Move> {
        let mut pv = vec![first];
        if self.pv[0][0] == Some(first) {
            pv.extend((1..self.pv_len[0]).map_while(|i| self.pv[0][i]));
        }
        pv
    }

    fn root_search(
        &mut self,
        root: &Position,
        root_moves: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let exact_all = self.limits.weakness.is_some();
        // Best-first: last iteration's scores (stable, so ties keep their order).
        root_moves.sort_by_key(|r| std::cmp::Reverse(r.previous));
        for r in root_moves.iter_mut() {
            r.score = -INFINITY;
        }
        self.pv_len[0] = 0;
        let mut best = -INFINITY;
        let mut best_move = None;
        let in_check = root.is_check();
        #[allow(clippy::needless_range_loop)] // the index also drives reductions
        for i in 0..root_moves.len() {
            let mv = root_moves[i].mv;
            let mut child = *root;
            child.play_unchecked(mv);
            self.hashes.push(child.hash());
            self.nodes += 1;
            let extension = i32::from(child.is_check());
            let new_depth = depth - 1 + extension;
            let score = if i == 0 || exact_all {
                let a = if exact_all { -INFINITY } else { alpha };
                -self.negamax(&child, new_depth, -beta, -a, 1, false)
            } else {
                let reduction = if depth >= 3 && i >= 3 && !is_tactical(root, mv) && !in_check {
                    (self.lmr[depth.min(63) as usize][i.min(63)] - 1).max(0)
                } else {
                    0
                };
                let mut s =
                    -self.negamax(&child, new_depth - reduction, -alpha - 1, -alpha, 1, true);
                if s > alpha && reduction > 0 {
                    s = -self.negamax(&child, new_depth, -alpha - 1, -alpha, 1, true);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, new_depth, -beta, -alpha, 1, false);
                }
                s
            };
            self.hashes.pop();
            if self.stopped {
                break;
            }
            if score > best || exact_all {
                root_moves[i].score = score;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    self.update_pv(0, mv);
                    if score >= beta {
                        break;
                    }
                    if !exact_all {
                        alpha = score;
                    }
                }
            }
        }
        if !self.stopped
            && let Some(mv) = best_move
        {
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            let eval = self.evaluate(root, 0);
            self.tt
                .store(root.hash(), 0, Some(mv), best, eval, depth, bound);
        }
        best
    }

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
            if let Some(hard) = self.limits.movetime.or(self.limits.hard_time)
                && !self.limits.infinite
                && self.start.elapsed() >= hard
            {
                self.stopped = true;
            }
        }
    }

    /// A draw by repetition for the search: the position repeats one on the search path (at or
    /// after the root: the side that could avoid it chose not to), or it occurred twice in
    /// the game before the root (a real threefold). A single earlier occurrence in the game
    /// is no draw: the opponent may still play on.
    fn is_repetition(&self, pos: &Position) -> bool {
        let n = self.hashes.len();
        let window = (pos.halfmove_clock() as usize).min(n.saturating_sub(1));
        let key = pos.hash();
        let mut in_game = 0;
        // The same side is to move an even number of plies back, four at the least.
        let mut i = 4;
        while i <= window {
            let at = n - 1 - i;
            if self.hashes[at] == key {
                if at >= self.root_index {
                    return true;
                }
                in_game += 1;
                if in_game == 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv_len[ply] = 0;
        let in_check = pos.is_check();
        if depth <= 0 && !in_check {
            return self.qsearch(pos, alpha, beta, ply);
        }
        depth = depth.max(1);
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // Draws by rule inside the tree: 50 moves, repetition, no mating material.
        if pos.halfmove_clock() >= 100 && (!in_check || pos.has_legal_moves()) {
            return 0;
        }
        if self.is_repetition(pos) || pos.is_insufficient_material() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        // Mate distance pruning.
        let alpha_m = alpha.max(-MATE + ply as i32);
        let beta_m = beta.min(MATE - ply as i32 - 1);
        if alpha_m >= beta_m {
            return alpha_m;
        }

        let key = pos.hash();
        let entry = self.tt.probe(key, ply);
        let hash_move = entry.and_then(|e| e.mv);
        if let Some(e) = entry
            && !pv_node
            && e.depth >= depth
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            }
        {
            return e.score;
        }

        let static_eval = if in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| self.evaluate(pos, ply), |e| e.eval)
        };
        self.static_evals[ply] = static_eval;
        let improving = !in_check && ply >= 2 && static_eval > self.static_evals[ply - 2];
        self.killers[ply + 1] = [None; 2];

        if !pv_node && !in_check {
            // Reverse futility: far above beta at low depth, assume it holds.
            if depth <= 7
                && static_eval - 80 * (depth - i32::from(improving)) >= beta
                && static_eval < MATE_BOUND
            {
                return static_eval;
            }
            // Null move: give the opponent a free move; if still above beta, cut.
            if depth >= 3
                && static_eval >= beta
                && eval::has_non_pawn_material(pos)
                && self.hashes.last() != Some(&0)
            {
                let r = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                let mut child = *pos;
                child.play_null();
                // A zero hash marks the null move so two nulls never follow each other.
                self.hashes.push(0);
                let score =
                    -self.negamax(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, !cut_node);
                self.hashes.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }
        // Without a hash move this node was never searched: spend less on it.
        if hash_move.is_none() && depth >= 4 && (pv_node || cut_node) {
            depth -= 1;
        }

        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut picker = MovePicker::new(pos, moves, hash_move, self.killers[ply], self.history);
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0;
        let mut quiets_tried: [Option<Move>; 64] = [None; 64];
        let mut quiet_count: usize = 0;
        let original_alpha = alpha;
        let us = pos.turn();
        let lmp_limit = (3 + depth * depth) / if improving { 1 } else { 2 };

        while let Some((mv, order)) = picker.next() {
            let tactical = is_tactical(pos, mv);
            let killer = self.killers[ply].contains(&Some(mv));
            if best > -MATE_BOUND && !in_check && ply > 0 {
                if !tactical {
                    // Late move pruning and futility for quiet moves.
                    if !pv_node && depth <= 6 && quiet_count as i32 >= lmp_limit {
                        continue;
                    }
                    if depth <= 6 && static_eval + 100 + 100 * depth <= alpha {
                        continue;
                    }
                    if depth <= 6 && !see_ge(pos, mv, -30 * depth * depth) {
                        continue;
                    }
                } else if depth <= 6
                    && is_bad_capture_score(order)
                    && !see_ge(pos, mv, -100 * depth)
                {
                    continue;
                }
            }
            let mut child = *pos;
            child.play_unchecked(mv);
            self.hashes.push(child.hash());
            let gives_check = child.is_check();
            let new_depth = depth - 1 + i32::from(gives_check);
            searched += 1;

            let score = if searched == 1 {
                -self.negamax(
                    &child,
                    new_depth,
                    -beta,
                    -alpha,
                    ply + 1,
                    !pv_node && !cut_node,
                )
            } else {
                let mut reduction = 0;
                if depth >= 3 && searched > 1 + usize::from(pv_node) && !tactical {
                    reduction = self.lmr[depth.min(63) as usize][searched.min(63)];
                    reduction -= i32::from(pv_node);
                    reduction += i32::from(!improving);
                    reduction += i32::from(cut_node);
                    reduction -= i32::from(gives_check);
                    reduction -= i32::from(killer);
                    reduction -= self.history.get(us, mv) / 6000;
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                let mut s = -self.negamax(
                    &child,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                );
                if s > alpha && reduction > 0 {
                    s = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, !cut_node);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, false);
                }
                s
            };
            self.hashes.pop();
            if self.stopped {
                return 0;
            }
            if !tactical && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = Some(mv);
                quiet_count += 1;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if !tactical {
                            self.reward_quiet(pos, ply, depth, mv, &quiets_tried[..quiet_count]);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let eval_to_store = if in_check { 0 } else { static_eval };
        self.tt
            .store(key, ply, best_move, best, eval_to_store, depth, bound);
        best
    }

    fn reward_quiet(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        mv: Move,
        tried: &[Option<Move>],
    ) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = (depth * depth * 16).min(1600);
        let us = pos.turn();
        self.history.update(us, mv, bonus);
        for other in tried.iter().flatten() {
            if *other != mv {
                self.history.update(us, *other, -bonus);
            }
        }
    }

    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.tick();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.evaluate(pos, ply);
        }
        let in_check = pos.is_check();
        let key = pos.hash();
        let entry = self.tt.probe(key, ply);
        if let Some(e) = entry
            && match e.bound {
                Bound::Exact => true,
                Bound::Lower => e.score >= beta,
                Bound::Upper => e.score <= alpha,
            }
        {
            return e.score;
        }
        let stand_pat = if in_check {
            -INFINITY
        } else {
            entry.map_or_else(|| self.evaluate(pos, ply), |e| e.eval)
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut best_move = None;
        let mut picker = MovePicker::tactical(pos, entry.and_then(|e| e.mv));
        if in_check && picker.len() == 0 {
            return -MATE + ply as i32;
        }
        while let Some((mv, _)) = picker.next() {
            if !in_check {
                // Delta pruning: even winning the piece cannot reach alpha.
                let gain = captured(pos, mv).map_or(0, |r| SEE_VALUE[r.index()])
                    + mv.promotion()
                        .map_or(0, |r| SEE_VALUE[r.index()] - SEE_VALUE[0]);
                if stand_pat + gain + 200 <= alpha {
                    continue;
                }
                if !see_ge(pos, mv, 0) {
                    continue;
                }
            }
            let mut child = *pos;
            child.play_unchecked(mv);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let eval_to_store = if in_check { 0 } else { stand_pat };
        self.tt
            .store(key, ply, best_move, best, eval_to_store, 0, bound);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_cap_shortens_but_never_lengthens() {
        let mut searcher = Searcher::new(1);
        let limits = SearchLimits {
            nodes: Some(400_000),
            movetime: Some(Duration::from_secs(3)),
            ..SearchLimits::default()
        };
        let own = limits.movetime;
        assert_eq!(searcher.capped(limits.clone()).movetime, own);
        searcher.set_time_cap(Some(Duration::from_millis(50)));
        assert_eq!(
            searcher.capped(limits.clone()).movetime,
            Some(Duration::from_millis(50))
        );
        searcher.set_time_cap(Some(Duration::from_secs(600)));
        assert_eq!(searcher.capped(limits).movetime, own);
        let none = SearchLimits::default();
        assert_eq!(
            searcher.capped(none).movetime,
            Some(Duration::from_secs(600))
        );
    }
}
