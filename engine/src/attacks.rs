//! Attack tables. Leapers and rays are computed at compile time by `const fn`; sliding pieces
//! use magic bitboards (found by `build.rs`), the portable fast path that needs no BMI2.

use crate::bitboard::Bitboard;
use crate::types::{Color, Role, Square};

pub(crate) struct Magic {
    pub mask: u64,
    pub magic: u64,
    pub shift: u32,
    pub offset: usize,
}

include!(concat!(env!("OUT_DIR"), "/magics.rs"));

const fn leaper_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < deltas.len() {
            if let Some(to) = Square::ALL[sq].offset(deltas[i].0, deltas[i].1) {
                table[sq] |= 1 << to as u32;
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

const fn step_toward(from: Square, to: Square) -> Option<(i32, i32)> {
    let df = to.file() as i32 - from.file() as i32;
    let dr = to.rank() as i32 - from.rank() as i32;
    if (df == 0 && dr == 0) || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return None;
    }
    Some((df.signum(), dr.signum()))
}

/// BETWEEN[a][b]: squares strictly between two aligned squares; LINE[a][b]: the whole line
/// through both (empty when not aligned).
static BETWEEN_LINE: ([[u64; 64]; 64], [[u64; 64]; 64]) = {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if let Some((df, dr)) = step_toward(Square::ALL[a], Square::ALL[b]) {
                let mut cur = Square::ALL[a].offset(df, dr);
                while let Some(sq) = cur {
                    if sq as usize == b {
                        break;
                    }
                    between[a][b] |= 1 << sq as u32;
                    cur = sq.offset(df, dr);
                }
                let mut full = 1u64 << a;
                let mut cur = Square::ALL[a].offset(df, dr);
                while let Some(sq) = cur {
                    full |= 1 << sq as u32;
                    cur = sq.offset(df, dr);
                }
                let mut cur = Square::ALL[a].offset(-df, -dr);
                while let Some(sq) = cur {
                    full |= 1 << sq as u32;
                    cur = sq.offset(-df, -dr);
                }
                line[a][b] = full;
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
};

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq as usize])
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq as usize])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color as usize][sq as usize])
}

#[inline]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let index = ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize + m.offset;
    Bitboard(SLIDER_ATTACKS[index])
}

#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK_MAGICS[sq as usize], occupied)
}

#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP_MAGICS[sq as usize], occupied)
}

#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares a piece attacks (pawns: diagonal captures only).
#[inline]
pub fn attacks(role: Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    match role {
        Role::Pawn => pawn_attacks(color, sq),
        Role::Knight => knight_attacks(sq),
        Role::Bishop => bishop_attacks(sq, occupied),
        Role::Rook => rook_attacks(sq, occupied),
        Role::Queen => queen_attacks(sq, occupied),
        Role::King => king_attacks(sq),
    }
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.0[a as usize][b as usize])
}

/// The full line (rank, file or diagonal) through `a` and `b`, or empty if not aligned.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(BETWEEN_LINE.1[a as usize][b as usize])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sliders_stop_at_blockers() {
        let occ = Bitboard::from_square(Square::E6) | Bitboard::from_square(Square::C4);
        let rook = rook_attacks(Square::E4, occ);
        assert!(rook.contains(Square::E6));
        assert!(!rook.contains(Square::E7));
        assert!(rook.contains(Square::C4));
        assert!(!rook.contains(Square::B4));
        assert!(rook.contains(Square::H4));
        assert!(rook.contains(Square::E1));
        assert_eq!(rook.count(), 2 + 2 + 3 + 3);
        assert_eq!(bishop_attacks(Square::A1, Bitboard::EMPTY).count(), 7);
        assert_eq!(queen_attacks(Square::D4, Bitboard::EMPTY).count(), 27);
    }

    #[test]
    fn rays() {
        assert_eq!(between(Square::A1, Square::D4).count(), 2);
        assert_eq!(between(Square::A1, Square::B3), Bitboard::EMPTY);
        assert_eq!(line(Square::B2, Square::C3).count(), 8);
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(king_attacks(Square::E4).count(), 8);
        assert_eq!(pawn_attacks(Color::White, Square::A2).count(), 1);
    }
}
