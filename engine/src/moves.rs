//! Moves and move lists.

use crate::types::{Role, Square};
use std::fmt;

/// What kind of move a [`Move`] is, beyond its squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Any move that is not one of the others (captures included).
    Normal,
    /// A pawn captures en passant; `to` is the square the pawn lands on.
    EnPassant,
    /// The king castles; `from`/`to` are the king's squares (e1g1, e1c1, e8g8, e8c8).
    Castle,
    /// A pawn reaches the last rank and becomes this role.
    Promotion(Role),
}

/// A move in 16 bits: from (6), to (6), kind (4). Only [`crate::Position`] hands out moves
/// that are legal; a `Move` on its own is just a pair of squares with a kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_EP: u16 = 1;
const KIND_CASTLE: u16 = 2;
const KIND_PROMO: u16 = 4; // + role - knight (0..=3)

impl Move {
    #[inline]
    pub const fn new(from: Square, to: Square, kind: MoveKind) -> Move {
        let k = match kind {
            MoveKind::Normal => KIND_NORMAL,
            MoveKind::EnPassant => KIND_EP,
            MoveKind::Castle => KIND_CASTLE,
            MoveKind::Promotion(role) => KIND_PROMO + (role as u16 - Role::Knight as u16),
        };
        Move(from as u16 | (to as u16) << 6 | k << 12)
    }

    #[inline]
    pub(crate) const fn normal(from: Square, to: Square) -> Move {
        Move(from as u16 | (to as u16) << 6)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::ALL[(self.0 & 63) as usize]
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square::ALL[((self.0 >> 6) & 63) as usize]
    }

    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 12 {
            KIND_EP => MoveKind::EnPassant,
            KIND_CASTLE => MoveKind::Castle,
            k if k >= KIND_PROMO => {
                MoveKind::Promotion(Role::ALL[(k - KIND_PROMO) as usize + Role::Knight as usize])
            }
            _ => MoveKind::Normal,
        }
    }

    #[inline]
    pub const fn promotion(self) -> Option<Role> {
        match self.kind() {
            MoveKind::Promotion(role) => Some(role),
            _ => None,
        }
    }

    #[inline]
    pub const fn is_castle(self) -> bool {
        self.0 >> 12 == KIND_CASTLE
    }

    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.0 >> 12 == KIND_EP
    }

    /// The 16-bit encoding, for compact storage (transposition tables, files).
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// Rebuilds a move from [`Move::to_bits`]. Any value gives some move; whether it is legal
    /// is for a position to decide.
    #[inline]
    pub const fn from_bits(bits: u16) -> Move {
        let kind = bits >> 12;
        if kind == 3 || kind > 7 {
            Move(bits & 0x0FFF)
        } else {
            Move(bits)
        }
    }

    /// UCI long algebraic notation: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
    pub fn to_uci(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(role) = self.promotion() {
            write!(f, "{}", role.char())?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

/// Upper bound on legal moves in any reachable position is 218; 256 leaves headroom.
pub const MAX_MOVES: usize = 256;

/// A fixed-capacity list of moves that never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, mv: Move) {
        // Legal positions never exceed MAX_MOVES; a debug build checks the bound.
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        for kind in [
            MoveKind::Normal,
            MoveKind::EnPassant,
            MoveKind::Castle,
            MoveKind::Promotion(Role::Knight),
            MoveKind::Promotion(Role::Bishop),
            MoveKind::Promotion(Role::Rook),
            MoveKind::Promotion(Role::Queen),
        ] {
            let mv = Move::new(Square::E7, Square::D8, kind);
            assert_eq!(mv.from(), Square::E7);
            assert_eq!(mv.to(), Square::D8);
            assert_eq!(mv.kind(), kind);
            assert_eq!(Move::from_bits(mv.to_bits()), mv);
        }
        assert_eq!(
            Move::new(Square::E7, Square::E8, MoveKind::Promotion(Role::Queen)).to_string(),
            "e7e8q"
        );
    }
}
