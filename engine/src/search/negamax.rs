//! The principal variation search below the root: transposition table cut-offs, null move,
//! reverse futility, late move pruning and reductions, and draws by rule inside the tree.

use super::ordering::{MovePicker, is_bad_capture_score, is_tactical, see_ge};
use super::tt::Bound;
use super::{INFINITY, MATE, MATE_BOUND, MAX_PLY, Worker};
use crate::eval;
use crate::moves::Move;
use crate::position::Position;

impl Worker<'_> {
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

    pub(super) fn negamax(
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
            // Played only once needed: most pruned moves never are.
            let mut played: Option<Position> = None;
            if best > -MATE_BOUND && !in_check && ply > 0 {
                if !tactical {
                    // Late move pruning and futility for quiet moves.
                    if !pv_node && depth <= 6 && quiet_count as i32 >= lmp_limit {
                        continue;
                    }
                    // Not a check: the static evaluation says nothing of a mate, and a
                    // mating check after a sacrifice is exactly a quiet move far below alpha
                    // (pruned, it hid 1.Qg8+ Rxg8 2.Nf7# from the search to depth 10).
                    if depth <= 6
                        && static_eval + 100 + 100 * depth <= alpha
                        && !played.get_or_insert_with(|| after(pos, mv)).is_check()
                    {
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
            let child = played.unwrap_or_else(|| after(pos, mv));
            let gives_check = child.is_check();
            self.hashes.push(child.hash());
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
        let bound = Bound::of(best, original_alpha, alpha, beta);
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
}

/// The position after `mv`.
fn after(pos: &Position, mv: Move) -> Position {
    let mut child = *pos;
    child.play_unchecked(mv);
    child
}
