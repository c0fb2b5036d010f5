//! Quiescence search: captures and promotions (every move when in check) until the position
//! is quiet, so that the tree's leaves are never scored in the middle of an exchange.

use super::ordering::{MovePicker, captured, see_ge};
use super::tt::Bound;
use super::{INFINITY, MATE, MAX_PLY, Worker};
use crate::eval::SEE_VALUE;
use crate::position::Position;

impl Worker<'_> {
    pub(super) fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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
        let bound = Bound::of(best, original_alpha, alpha, beta);
        let eval_to_store = if in_check { 0 } else { stand_pat };
        self.tt
            .store(key, ply, best_move, best, eval_to_store, 0, bound);
        best
    }
}
