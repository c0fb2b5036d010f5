//! Transposition table: one entry per slot, indexed by the Zobrist hash, shared by every
//! search thread without locks.
//!
//! A slot is two `AtomicU64`s: the entry's data and the key XOR the data (Hyatt's lockless
//! scheme). Two threads may write one slot at once and a reader may see one word of each
//! write; the key it recovers then does not match, so a torn entry reads as a miss instead of
//! another position's move and score. Relaxed orderings suffice: a slot is verified by its own
//! contents, and plain loads and stores on x86-64 and AArch64 cost what the old struct did.

use crate::moves::Move;
use std::sync::atomic::{AtomicU64, Ordering};

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

/// An entry's fields, packed into one 64-bit word for the atomic slot.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Data {
    mv: u16,
    score: i16,
    eval: i16,
    depth: u8,
    /// Bound in the low 2 bits (0 = empty), generation above.
    flags: u8,
}

impl Data {
    fn pack(self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.eval as u16) << 32
            | u64::from(self.depth) << 48
            | u64::from(self.flags) << 56
    }

    fn unpack(word: u64) -> Data {
        Data {
            mv: word as u16,
            score: (word >> 16) as u16 as i16,
            eval: (word >> 32) as u16 as i16,
            depth: (word >> 48) as u8,
            flags: (word >> 56) as u8,
        }
    }
}

/// One slot: `check` holds the key XOR `data`; all zero is empty.
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The key and data as read now; a torn read yields a key no position is probed with
    /// (but the one it was written for, when both writes were of the same data).
    #[inline]
    fn read(&self) -> (u64, Data) {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (check ^ data, Data::unpack(data))
    }

    #[inline]
    fn write(&self, key: u64, data: Data) {
        let word = data.pack();
        self.data.store(word, Ordering::Relaxed);
        self.check.store(key ^ word, Ordering::Relaxed);
    }
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
    /// Changed only between searches (`&mut self`), read by every thread.
    generation: u8,
}

const SLOT_BYTES: usize = std::mem::size_of::<Slot>();

impl TranspositionTable {
    /// A table using about `mb` megabytes (at least one slot).
    pub fn new(mb: usize) -> TranspositionTable {
        let count = (mb.max(1) * 1024 * 1024 / SLOT_BYTES).max(1);
        TranspositionTable {
            slots: (0..count).map(|_| Slot::default()).collect(),
            generation: 0,
        }
    }

    pub fn clear(&mut self) {
        for slot in &mut self.slots {
            *slot.check.get_mut() = 0;
            *slot.data.get_mut() = 0;
        }
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
        let (slot_key, slot) = self.slots[self.index(key)].read();
        if slot_key != key || slot.flags & 3 == 0 {
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
        &self,
        key: u64,
        ply: usize,
        mv: Option<Move>,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let slot = &self.slots[self.index(key)];
        let (old_key, old) = slot.read();
        let same = old_key == key;
        let old_generation = old.flags >> 2;
        // Keep a deeper entry of this search for another position.
        if !same && old_generation == self.generation && old.depth as i32 > depth + 3 {
            return;
        }
        let mv_bits = match mv {
            Some(m) => m.to_bits(),
            None if same => old.mv,
            None => 0,
        };
        slot.write(
            key,
            Data {
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
            },
        );
    }

    /// Permille of slots used in this search (for `info hashfull`).
    pub fn hashfull(&self) -> usize {
        let sample = self.slots.len().min(1000);
        self.slots[..sample]
            .iter()
            .map(|s| Data::unpack(s.data.load(Ordering::Relaxed)).flags)
            .filter(|flags| flags & 3 != 0 && flags >> 2 == self.generation)
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
        let tt = TranspositionTable::new(1);
        // Mate in 3 plies from a node at ply 5 is a mate 8 plies from the root.
        tt.store(42, 5, None, MATE - 8, 0, 4, Bound::Exact);
        let at_ply_2 = tt.probe(42, 2).unwrap();
        assert_eq!(at_ply_2.score, MATE - 5);
        assert!(tt.probe(43, 2).is_none());
    }

    /// A table of `count` slots, so that many keys share a slot.
    fn with_slots(count: usize) -> TranspositionTable {
        TranspositionTable {
            slots: (0..count).map(|_| Slot::default()).collect(),
            generation: 0,
        }
    }

    /// What the stress test stores for `key`: every field derived from the key, so a read
    /// that mixes two writes shows as fields that do not belong to the key probed.
    fn fields_of(key: u64) -> (Move, i32, i32, i32) {
        let mv = Move::from_bits(((key >> 7) as u16 & 0x0FFF) | 1);
        let score = (key % 2001) as i32 - 1000;
        let eval = (key >> 20) as i32 % 3000 - 1500;
        // Depths within 3 of each other: the replacement rule never keeps an old entry.
        let depth = (key >> 40) as i32 % 4;
        (mv, score, eval, depth)
    }

    #[test]
    fn concurrent_writers_never_yield_a_torn_entry() {
        const WRITERS: u64 = 2;
        const READERS: u64 = 2;
        const KEYS: u64 = 8;
        const ROUNDS: u64 = 2_000_000;
        // One slot for every key: each write lands on another key's entry, under readers.
        let tt = with_slots(1);
        // All start at once, so that reads and writes overlap even on a busy machine.
        let start = std::sync::Barrier::new((WRITERS + READERS) as usize);
        let key = |i: u64| (i + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let hits = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for t in 0..WRITERS {
                let (tt, start) = (&tt, &start);
                scope.spawn(move || {
                    start.wait();
                    for round in 0..ROUNDS {
                        let k = key((round * 7 + t * 13) % KEYS);
                        let (mv, score, eval, depth) = fields_of(k);
                        tt.store(k, 0, Some(mv), score, eval, depth, Bound::Exact);
                    }
                });
            }
            for t in 0..READERS {
                let (tt, hits, start) = (&tt, &hits, &start);
                scope.spawn(move || {
                    start.wait();
                    for round in 0..ROUNDS {
                        let probed = key((round * 11 + t * 5 + 3) % KEYS);
                        if let Some(e) = tt.probe(probed, 0) {
                            let (mv, score, eval, depth) = fields_of(probed);
                            assert_eq!(
                                (e.mv, e.score, e.eval, e.depth, e.bound),
                                (Some(mv), score, eval, depth, Bound::Exact),
                                "torn entry for key {probed:#x}"
                            );
                            hits.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        // The probes found entries (the check above ran), and the table is whole afterwards.
        assert!(hits.load(Ordering::Relaxed) > 0);
        for i in 0..KEYS {
            if let Some(e) = tt.probe(key(i), 0) {
                assert_eq!(e.score, fields_of(key(i)).1);
            }
        }
    }

    #[test]
    fn a_slot_written_halfway_reads_as_a_miss() {
        // What a reader sees between another thread's two stores: the new data beside the
        // old check word. It must not pass for either key.
        let tt = with_slots(1);
        tt.store(1, 0, None, 10, 0, 3, Bound::Exact);
        let old_check = tt.slots[0].check.load(Ordering::Relaxed);
        tt.store(2, 0, None, 20, 0, 4, Bound::Lower);
        tt.slots[0].check.store(old_check, Ordering::Relaxed);
        assert!(tt.probe(1, 0).is_none());
        assert!(tt.probe(2, 0).is_none());
    }

    #[test]
    fn data_packs_losslessly() {
        let data = Data {
            mv: 0xBEEF,
            score: -31_000,
            eval: 1234,
            depth: 200,
            flags: 0xFF,
        };
        assert_eq!(Data::unpack(data.pack()), data);
    }
}
