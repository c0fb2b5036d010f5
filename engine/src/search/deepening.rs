//! Iterative deepening: one search per depth, each within an aspiration window around the
//! last score, and the search of the root moves (all of them with an open window when a weak
//! level must score them for its imprecise choice).

use super::ordering::{MovePicker, is_tactical};
use super::tt::Bound;
use super::{
    INFINITY, MATE, MATE_BOUND, MAX_PLY, RootMove, Score, SearchInfo, SearchResult, Worker,
};
use crate::moves::Move;
use crate::position::Position;

const ASPIRATION_DELTA: i32 = 25;

impl Worker<'_> {
    pub(super) fn iterate(
        &mut self,
        root: &Position,
        info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
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

        let exact_all = self.limits.weakness.is_some() || self.limits.score_all;
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, 100);
        let mut score = 0;
        for depth in 1..=max_depth {
            if self.helper.is_some_and(|h| super::smp::skips(h, depth)) {
                continue;
            }
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
            let root_scores = if self.limits.score_all {
                root_moves
                    .iter()
                    .map(|r| (r.mv, Score::from_internal(r.score)))
                    .collect()
            } else {
                Vec::new()
            };
            info(&SearchInfo {
                depth,
                seldepth: self.seldepth as u32,
                score: result.score,
                nodes: self.total_nodes(),
                time: self.start.elapsed(),
                hashfull: self.tt.hashfull(),
                pv,
                root_scores,
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
            weakness.overrule(&root_moves, &mut result);
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
        let exact_all = self.limits.weakness.is_some() || self.limits.score_all;
        // Best-first: last iteration's scores (stable, so ties keep their order).
        root_moves.sort_by_key(|r| std::cmp::Reverse(r.previous));
        for r in root_moves.iter_mut() {
            r.score = -INFINITY;
        }
        self.pv_len[0] = 0;
        let original_alpha = alpha;
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
            // A fail low of the aspiration window is an upper bound, not the root's value,
            // and its best move is no better than the others: keep the stored one.
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let eval = self.evaluate(root, 0);
            let mv = (bound != Bound::Upper).then_some(mv);
            self.tt.store(root.hash(), 0, mv, best, eval, depth, bound);
        }
        best
    }
}
