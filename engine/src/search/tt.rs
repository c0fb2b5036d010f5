//! Transposition table: one entry per slot, indexed by the Zobrist hash.

use crate::moves::Move;

/// What a stored score says about the true value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (a beta cut-off).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
    /// The score is exact.
    Exact,
}

impl Bound {
    /// What a search of a node learnt: `best` against the window it was searched with
    /// (`original_alpha`, `beta`) and the alpha it ended with.
    pub fn of(best: i32, original_alpha: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct Slot {
    key: u64,
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Bound in the low 2 bits (0 = empty), generation above.
    flags: u8,
}

/// A probed entry.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub mv: Option<Move>,
    /// Score with mate distances relative to the probing node (see [`score_from_tt`]).
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

pub struct TranspositionTable {
    slots: Vec<Slot>,
    generation: u8,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

impl TranspositionTable {
    /// A table using about `mb` megabytes (at least one slot).
    pub fn new(mb: usize) -> TranspositionTable {
        let count = (mb.max(1) * 1024 * 1024 / SLOT_BYTES).max(1);
        TranspositionTable {
            slots: vec![Slot::default(); count],
            generation: 0,
        }
    }

    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.generation = 0;
    }

    /// Marks the start of a new search so older entries are replaced first.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 0x3F;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.slots.len() as u128) >> 64) as usize
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<Entry> {
        let slot = self.slots[self.index(key)];
        if slot.key != key || slot.flags & 3 == 0 {
            return None;
        }
        let bound = match slot.flags & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        };
        Some(Entry {
            mv: (slot.mv != 0).then(|| Move::from_bits(slot.mv)),
            score: score_from_tt(slot.score as i32, ply),
            eval: slot.eval as i32,
            depth: slot.depth as i32,
            bound,
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        key: u64,
        ply: usize,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let index = self.index(key);
        let slot = &mut self.slots[index];
        let same = slot.key == key;
        let old_generation = slot.flags >> 2;
        // Keep a deeper entry of this search for another position.
        if !same && old_generation == self.generation && slot.depth as i32 > depth + 3 {
            return;
        }
        let mv_bits = match mv {
            Some(m) => m.to_bits(),
            None if same => slot.mv,
            None => 0,
        };
        *slot = Slot {
            key,
            mv: mv_bits,
            score: score_to_tt(score, ply) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, 255) as u8,
            flags: (self.generation << 2)
                | match bound {
                    Bound::Lower => 1,
                    Bound::Upper => 2,
                    Bound::Exact => 3,
                },
        };
    }

    /// Permille of slots used in this search (for `info hashfull`).
    pub fn hashfull(&self) -> usize {
        let sample = self.slots.len().min(1000);
        self.slots[..sample]
            .iter()
            .filter(|s| s.flags & 3 != 0 && s.flags >> 2 == self.generation)
            .count()
            * 1000
            / sample.max(1)
    }
}

use super::{MATE, MATE_BOUND};

/// Mate scores are stored relative to the node, not the root, so they stay right when the
/// same position is reached at another ply.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        (score - ply as i32).min(MATE)
    } else if score <= -MATE_BOUND {
        (score + ply as i32).max(-MATE)
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_are_node_relative() {
        let mut tt = TranspositionTable::new(1);
        // Mate in 3 plies from a node at ply 5 is a mate 8 plies from the root.
        tt.store(42, 5, None, MATE - 8, 0, 4, Bound::Exact);
        let at_ply_2 = tt.probe(42, 2).unwrap();
        assert_eq!(at_ply_2.score, MATE - 5);
        assert!(tt.probe(43, 2).is_none());
    }
}
