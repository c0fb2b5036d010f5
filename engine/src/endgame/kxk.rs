//! King and queen, or king and rook, against a lone king: the exact distance to mate of every
//! position, found by retrograde analysis.
//!
//! The side with the piece is the *strong* side, the lone king the *weak* side. A position is
//! the strong king's square, the piece's square and the weak king's square; each has an entry
//! with the strong side to move and one with the weak side to move. Entries hold the distance
//! to mate in plies with best play (the strong side mating as fast as it can, the weak side
//! lasting as long as it can), or say the position is drawn or cannot occur. Colours do not
//! matter here (there are no pawns), so the caller maps either colour onto the strong side.
//! Castling and the fifty-move rule are not known to the table.

use crate::attacks::{attacks, king_attacks};
use crate::bitboard::Bitboard;
use crate::types::{Color, Role, Square};

/// Entries per side to move: 64 strong king squares × 64 piece squares × 64 weak king squares.
const ENTRIES: usize = 64 * 64 * 64;

/// No legal position has these squares (two pieces on one square, kings side by side, the
/// side not to move in check).
const ILLEGAL: u8 = u8::MAX;
/// Drawn: a stalemate, or the weak king can take the piece (at once or by force).
const DRAW: u8 = u8::MAX - 1;
/// Not decided yet; only while the table is built.
const UNKNOWN: u8 = u8::MAX - 2;

/// What one entry says, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Entry {
    /// Mate with best play after this many plies (odd with the strong side to move; even
    /// with the weak side to move, 0 when it is checkmated).
    Mate {
        plies: u8,
    },
    Draw,
    /// The squares and side to move make no legal position.
    Illegal,
}

/// The index of a position: strong king, piece, weak king.
#[inline]
fn index(strong_king: Square, piece: Square, weak_king: Square) -> usize {
    (strong_king as usize) << 12 | (piece as usize) << 6 | weak_king as usize
}

#[inline]
fn unindex(i: usize) -> (Square, Square, Square) {
    (
        Square::ALL[i >> 12],
        Square::ALL[(i >> 6) & 63],
        Square::ALL[i & 63],
    )
}

/// The distance to mate of every K+Q v K or K+R v K position.
pub(super) struct DtmTable {
    role: Role,
    /// Entries with the strong side to move.
    strong: Box<[u8]>,
    /// Entries with the weak side to move.
    weak: Box<[u8]>,
}

impl DtmTable {
    /// Solves K + `role` v K. Only a queen or a rook make sense; any other piece gives a table
    /// that is correct for its moves too, but has no use here.
    pub(super) fn build(role: Role) -> DtmTable {
        let mut table = DtmTable {
            role,
            strong: vec![ILLEGAL; ENTRIES].into_boxed_slice(),
            weak: vec![ILLEGAL; ENTRIES].into_boxed_slice(),
        };
        // Legal weak-king moves not yet known to lose, per weak-to-move position: when this
        // falls to zero every move loses, and the position is lost.
        let mut unresolved_moves = vec![0u8; ENTRIES];
        let mut frontier = table.classify(&mut unresolved_moves);

        // Each pass takes the positions lost in `plies` with the weak side to move, marks
        // their strong-to-move predecessors won in `plies + 1`, and counts those off their own
        // weak-to-move predecessors; the ones with no move left are lost in `plies + 2`.
        let mut plies: u8 = 0;
        while !frontier.is_empty() {
            let mut won = Vec::new();
            for &i in &frontier {
                strong_predecessors(role, i, |p| {
                    if table.strong[p] == UNKNOWN {
                        table.strong[p] = plies + 1;
                        won.push(p);
                    }
                });
            }
            let mut lost = Vec::new();
            for &i in &won {
                let (strong_king, piece, weak_king) = unindex(i);
                let blocked = Bitboard::from_square(strong_king).with(piece);
                for from in king_attacks(weak_king) & !blocked {
                    let p = index(strong_king, piece, from);
                    if table.weak[p] == UNKNOWN {
                        unresolved_moves[p] -= 1;
                        if unresolved_moves[p] == 0 {
                            table.weak[p] = plies + 2;
                            lost.push(p);
                        }
                    }
                }
            }
            frontier = lost;
            plies += 2;
        }
        for v in table.strong.iter_mut().chain(table.weak.iter_mut()) {
            if *v == UNKNOWN {
                *v = DRAW;
            }
        }
        table
    }

    /// Sets every entry that is decided without looking ahead (illegal, checkmate, stalemate,
    /// the piece taken) and the weak side's move counts; returns the checkmates.
    fn classify(&mut self, unresolved_moves: &mut [u8]) -> Vec<usize> {
        let mut mates = Vec::new();
        for (i, moves_left) in unresolved_moves.iter_mut().enumerate() {
            let (strong_king, piece, weak_king) = unindex(i);
            if strong_king == piece
                || strong_king == weak_king
                || piece == weak_king
                || king_attacks(strong_king).contains(weak_king)
            {
                continue;
            }
            let occupied = Bitboard::from_square(strong_king)
                .with(piece)
                .with(weak_king);
            let piece_attacks = attacks(self.role, Color::White, piece, occupied);
            let check = piece_attacks.contains(weak_king);

            // Strong side to move: legal unless the weak king is in check.
            if !check {
                let king_moves = king_attacks(strong_king) & !king_attacks(weak_king) & !occupied;
                let piece_moves = piece_attacks & !occupied;
                self.strong[i] = if (king_moves | piece_moves).is_empty() {
                    DRAW
                } else {
                    UNKNOWN
                };
            }

            // Weak side to move: always legal here (a lone king gives no check).
            let guarded = king_attacks(strong_king)
                | attacks(self.role, Color::White, piece, occupied.without(weak_king));
            let reach = king_attacks(weak_king);
            if reach.contains(piece) && !king_attacks(strong_king).contains(piece) {
                self.weak[i] = DRAW;
                continue;
            }
            let moves = (reach & !guarded & !occupied).count();
            if moves > 0 {
                self.weak[i] = UNKNOWN;
                *moves_left = moves as u8;
            } else if check {
                self.weak[i] = 0;
                mates.push(i);
            } else {
                self.weak[i] = DRAW;
            }
        }
        mates
    }

    /// The entry of a position; `strong_to_move` says whose turn it is.
    pub(super) fn entry(
        &self,
        strong_king: Square,
        piece: Square,
        weak_king: Square,
        strong_to_move: bool,
    ) -> Entry {
        let i = index(strong_king, piece, weak_king);
        let v = if strong_to_move {
            self.strong[i]
        } else {
            self.weak[i]
        };
        match v {
            ILLEGAL => Entry::Illegal,
            DRAW | UNKNOWN => Entry::Draw,
            plies => Entry::Mate { plies },
        }
    }

    /// The longest distance to mate in plies with the strong side to move, and with the weak
    /// side to move.
    #[cfg(test)]
    pub(super) fn longest(&self) -> (u8, u8) {
        let longest = |entries: &[u8]| {
            entries
                .iter()
                .copied()
                .filter(|&v| v < UNKNOWN)
                .max()
                .unwrap_or(0)
        };
        (longest(&self.strong), longest(&self.weak))
    }

    /// Bytes the table holds.
    #[cfg(test)]
    pub(super) fn bytes(&self) -> usize {
        self.strong.len() + self.weak.len()
    }
}

/// Calls `visit` with every strong-to-move position from which one strong move reaches
/// the weak-to-move position `i`. Some may be illegal (the weak king in check); the
/// caller's look at the entry sorts those out.
fn strong_predecessors(role: Role, i: usize, mut visit: impl FnMut(usize)) {
    let (strong_king, piece, weak_king) = unindex(i);
    let occupied = Bitboard::from_square(strong_king)
        .with(piece)
        .with(weak_king);
    for from in king_attacks(strong_king) & !occupied & !king_attacks(weak_king) {
        visit(index(from, piece, weak_king));
    }
    // A piece's moves are their own reverse: it came from a square it attacks now.
    for from in attacks(role, Color::White, piece, occupied) & !occupied {
        visit(index(strong_king, from, weak_king));
    }
}
