//! Perft: counts the leaf nodes of the legal move tree, the standard test (and benchmark) of
//! a move generator. Bulk-counts at the last ply; no hashing.

use crate::moves::Move;
use crate::position::Position;

/// Number of leaf nodes `depth` plies below `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves() as u64,
        _ => {
            let mut nodes = 0;
            pos.for_each_legal_move(|mv| {
                let mut child = *pos;
                child.play_unchecked(mv);
                nodes += perft(&child, depth - 1);
            });
            nodes
        }
    }
}

/// Leaf counts below each root move, in move generation order ("divide").
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            child.play_unchecked(mv);
            (mv, perft(&child, depth - 1))
        })
        .collect()
}
