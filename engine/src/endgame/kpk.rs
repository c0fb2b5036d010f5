//! King and pawn against king: won or drawn for every position, either side to move.
//!
//! Positions are seen with White holding the pawn on files a–d (the caller mirrors the
//! board). A won entry also holds its distance to conversion: the plies, with best play,
//! until White promotes to a queen or rook that wins (as the K+Q v K and K+R v K tables
//! say) — enough for the winning side to make progress and the losing side to resist
//! longest. Wins are found round by round: round `r` settles the positions won in exactly `r`
//! plies; what no round settles is drawn. The fifty-move rule is not known to the table.

use super::kxk::{DtmTable, Entry};
use crate::attacks::{king_attacks, pawn_attacks};
use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

/// Pawn squares: files a–d, ranks 2–7.
const PAWN_SQUARES: usize = 24;
/// Entries per side to move: pawn × white king × black king.
const ENTRIES: usize = PAWN_SQUARES * 64 * 64;

const ILLEGAL: u8 = u8::MAX;
const DRAW: u8 = u8::MAX - 1;
const UNKNOWN: u8 = u8::MAX - 2;

/// What one entry says, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PawnEntry {
    /// White wins, converting in this many plies.
    Won {
        plies: u8,
    },
    Drawn,
    Illegal,
}

/// The index of a normalised position: `pawn` on files a–d, ranks 2–7.
#[inline]
fn index(pawn: Square, white_king: Square, black_king: Square) -> usize {
    let p = (pawn.rank() as usize - 1) * 4 + pawn.file() as usize;
    p << 12 | (white_king as usize) << 6 | black_king as usize
}

#[inline]
fn unindex(i: usize) -> (Square, Square, Square) {
    let p = i >> 12;
    (
        Square::ALL[(p / 4 + 1) * 8 + p % 4],
        Square::ALL[(i >> 6) & 63],
        Square::ALL[i & 63],
    )
}

/// The K+P v K bitbase.
pub(super) struct KpkTable {
    /// Entries with White (the pawn's side) to move.
    white: Box<[u8]>,
    /// Entries with Black (the lone king) to move.
    black: Box<[u8]>,
}

impl KpkTable {
    /// Solves K+P v K; promotions are judged by the K+Q v K and K+R v K tables.
    pub(super) fn build(kqk: &DtmTable, krk: &DtmTable) -> KpkTable {
        let mut table = KpkTable {
            white: vec![ILLEGAL; ENTRIES].into_boxed_slice(),
            black: vec![ILLEGAL; ENTRIES].into_boxed_slice(),
        };
        table.classify();
        // Black's rounds are even, White's odd (round 0, checkmates, was `classify`'s). From
        // round 2 on, a round that settles nothing ends it: the next would need a position
        // settled in it.
        let mut round: u8 = 1;
        loop {
            let settled = if round.is_multiple_of(2) {
                table.black_round(round)
            } else {
                table.white_round(round, kqk, krk)
            };
            if settled == 0 && round >= 2 {
                break;
            }
            round += 1;
        }
        for v in table.white.iter_mut().chain(table.black.iter_mut()) {
            if *v == UNKNOWN {
                *v = DRAW;
            }
        }
        table
    }

    /// Marks illegal positions and Black's immediate results (stalemate and the pawn taken
    /// draw, checkmate wins in 0); the rest are unknown.
    fn classify(&mut self) {
        for i in 0..ENTRIES {
            let (pawn, white_king, black_king) = unindex(i);
            if pawn == white_king
                || pawn == black_king
                || white_king == black_king
                || king_attacks(white_king).contains(black_king)
            {
                continue;
            }
            let check = pawn_attacks(Color::White, pawn).contains(black_king);

            // White to move: illegal with Black in check.
            if !check {
                self.white[i] = UNKNOWN;
            }

            // Black to move.
            let moves = black_moves(pawn, white_king, black_king);
            self.black[i] = if moves.contains(pawn) {
                DRAW
            } else if moves.is_empty() {
                // No mate exists with a lone pawn, but a checkmate would be a win in 0.
                if check { 0 } else { DRAW }
            } else {
                UNKNOWN
            };
        }
    }

    /// Settles Black-to-move positions whose every move reaches a White win, the longest in
    /// `round - 1` plies. Returns how many it settled.
    fn black_round(&mut self, round: u8) -> usize {
        let mut settled = 0;
        for i in 0..ENTRIES {
            if self.black[i] != UNKNOWN {
                continue;
            }
            let (pawn, white_king, black_king) = unindex(i);
            let mut longest = 0;
            let mut all_won = true;
            for to in black_moves(pawn, white_king, black_king) {
                let v = self.white[index(pawn, white_king, to)];
                if v >= UNKNOWN {
                    all_won = false;
                    break;
                }
                longest = longest.max(v);
            }
            // A position whose longest loss is shorter was settled in an earlier round.
            if all_won && longest + 1 == round {
                self.black[i] = round;
                settled += 1;
            }
        }
        settled
    }

    /// Settles White-to-move positions with a move to a Black-to-move position lost in
    /// `round - 1` plies, and in round 1 those that promote to a win. Returns how many it
    /// settled.
    fn white_round(&mut self, round: u8, kqk: &DtmTable, krk: &DtmTable) -> usize {
        let mut settled = 0;
        for i in 0..ENTRIES {
            if self.white[i] != UNKNOWN {
                continue;
            }
            let (pawn, white_king, black_king) = unindex(i);
            let mut wins = round == 1 && promotes_to_win(pawn, white_king, black_king, kqk, krk);
            for_each_white_move(pawn, white_king, black_king, |pawn, white_king| {
                wins |= self.black[index(pawn, white_king, black_king)] == round - 1;
            });
            if wins {
                self.white[i] = round;
                settled += 1;
            }
        }
        settled
    }

    /// The entry of a normalised position (White holds the pawn, on files a–d).
    pub(super) fn entry(
        &self,
        pawn: Square,
        white_king: Square,
        black_king: Square,
        white_to_move: bool,
    ) -> PawnEntry {
        if pawn.file() as usize >= 4 || !(1..=6).contains(&(pawn.rank() as usize)) {
            return PawnEntry::Illegal;
        }
        let i = index(pawn, white_king, black_king);
        let v = if white_to_move {
            self.white[i]
        } else {
            self.black[i]
        };
        match v {
            ILLEGAL => PawnEntry::Illegal,
            DRAW | UNKNOWN => PawnEntry::Drawn,
            plies => PawnEntry::Won { plies },
        }
    }

    /// Counts of won and drawn legal positions, White to move and Black to move:
    /// `[white won, white drawn, black won, black drawn]`.
    #[cfg(test)]
    pub(super) fn counts(&self) -> [usize; 4] {
        let count = |entries: &[u8], won: bool| {
            entries
                .iter()
                .filter(|&&v| if won { v < UNKNOWN } else { v == DRAW })
                .count()
        };
        [
            count(&self.white, true),
            count(&self.white, false),
            count(&self.black, true),
            count(&self.black, false),
        ]
    }

    /// Bytes the table holds.
    #[cfg(test)]
    pub(super) fn bytes(&self) -> usize {
        self.white.len() + self.black.len()
    }
}

/// Squares the black king may move to (the pawn's square among them when it may take it).
#[inline]
fn black_moves(pawn: Square, white_king: Square, black_king: Square) -> Bitboard {
    king_attacks(black_king)
        & !king_attacks(white_king)
        & !pawn_attacks(Color::White, pawn)
        & !Bitboard::from_square(white_king)
}

/// Calls `visit(pawn, white_king)` after each White move that keeps the pawn on the board
/// below the eighth rank (promotions are `promotes_to_win`'s).
#[inline]
fn for_each_white_move(
    pawn: Square,
    white_king: Square,
    black_king: Square,
    mut visit: impl FnMut(Square, Square),
) {
    let occupied = Bitboard::from_square(pawn)
        .with(white_king)
        .with(black_king);
    for to in king_attacks(white_king) & !king_attacks(black_king) & !occupied {
        visit(pawn, to);
    }
    let Some(one) = pawn.offset(0, 1) else {
        return;
    };
    if occupied.contains(one) || pawn.rank() as usize == 6 {
        return;
    }
    visit(one, white_king);
    if pawn.rank() as usize == 1
        && let Some(two) = one.offset(0, 1)
        && !occupied.contains(two)
    {
        visit(two, white_king);
    }
}

/// Whether White, to move, promotes the pawn (on the seventh rank) to a queen or rook that
/// wins.
fn promotes_to_win(
    pawn: Square,
    white_king: Square,
    black_king: Square,
    kqk: &DtmTable,
    krk: &DtmTable,
) -> bool {
    if pawn.rank() as usize != 6 {
        return false;
    }
    let Some(queening) = pawn.offset(0, 1) else {
        return false;
    };
    if queening == white_king || queening == black_king {
        return false;
    }
    [kqk, krk].iter().any(|table| {
        matches!(
            table.entry(white_king, queening, black_king, false),
            Entry::Mate { .. }
        )
    })
}
