//! Endgames the engine knows exactly: K+Q v K and K+R v K to the move (distance to mate), and
//! K+P v K won or drawn; and the endgame lessons built on them (`lessons.rs`).
//!
//! The tables are solved by retrograde analysis the first time they are asked for (each
//! well under a second; then kept, about 1.2 MB in all) and shared by every thread.
//! [`probe`] tells a position's value, [`best_move`] a move that keeps it: the shortest mate
//! for the winner, the longest resistance for the loser. Neither knows the fifty-move rule
//! (the longest mate, K+R v K, takes 16 moves), nor castling: a position with castling
//! rights is not covered.

mod kpk;
mod kxk;
pub mod lessons;
#[cfg(test)]
mod tests;

use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, Role, Square};
use kpk::{KpkTable, PawnEntry};
use kxk::{DtmTable, Entry};
use std::sync::OnceLock;

/// The value of a position the tables cover, for the side to move.
///
/// Distances count the winner's moves, as a chess player says "mate in 3" (UCI's
/// `score mate` counts the same way): [`Verdict::WinIn`]`(1)` mates with this move,
/// [`Verdict::LossIn`]`(0)` is checkmate on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move mates with its `n`th move against the best defence (n ≥ 1).
    WinIn(u32),
    /// The side to move is mated by the opponent's `n`th move with best play (n = 0: it is
    /// checkmated now).
    LossIn(u32),
    /// The side to move wins (K+P v K: the bitbase knows no distance).
    Win,
    /// The side to move loses (K+P v K).
    Loss,
    /// Drawn with best play.
    Draw,
}

/// A game's result with best play, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Draw,
    Loss,
}

impl Verdict {
    /// The result, without the distance.
    pub fn outcome(self) -> Outcome {
        match self {
            Verdict::WinIn(_) | Verdict::Win => Outcome::Win,
            Verdict::LossIn(_) | Verdict::Loss => Outcome::Loss,
            Verdict::Draw => Outcome::Draw,
        }
    }

    /// The distance to mate in plies (half-moves), where known: `WinIn(n)` is `2n - 1`,
    /// `LossIn(n)` is `2n`.
    pub fn plies_to_mate(self) -> Option<u32> {
        match self {
            Verdict::WinIn(n) => Some((2 * n).saturating_sub(1)),
            Verdict::LossIn(n) => Some(2 * n),
            Verdict::Win | Verdict::Loss | Verdict::Draw => None,
        }
    }
}

/// What a table says of a position, for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Known {
    family: Family,
    outcome: Outcome,
    /// Plies to mate (K+Q v K, K+R v K) or to a winning promotion (K+P v K); 0 when drawn.
    plies: u32,
}

/// The materials the tables cover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    /// King and queen, or king and rook, against a lone king.
    Kxk,
    /// King and pawn against a lone king.
    Kpk,
}

/// The value of `pos` for the side to move, or `None` if the tables do not cover its
/// material (or it has castling rights). Builds the table it needs the first time.
pub fn probe(pos: &Position) -> Option<Verdict> {
    let known = lookup(pos)?;
    Some(match (known.family, known.outcome) {
        (_, Outcome::Draw) => Verdict::Draw,
        (Family::Kxk, Outcome::Win) => Verdict::WinIn(known.plies.div_ceil(2)),
        (Family::Kxk, Outcome::Loss) => Verdict::LossIn(known.plies / 2),
        (Family::Kpk, Outcome::Win) => Verdict::Win,
        (Family::Kpk, Outcome::Loss) => Verdict::Loss,
    })
}

/// A move that keeps the value of `pos`: the winner's quickest way to mate (K+P v K: to a
/// winning promotion), the loser's longest resistance, and in a draw a move that keeps the
/// draw. `None` if the tables do not cover `pos` or it has no legal move. Ties go to the
/// first move in the move generator's order, so the answer is always the same.
pub fn best_move(pos: &Position) -> Option<Move> {
    let family = lookup(pos)?.family;
    let mut best: Option<(i32, Move)> = None;
    pos.for_each_legal_move(|mv| {
        let mut child = *pos;
        child.play_unchecked(mv);
        let score = -score(&child, family);
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, mv));
        }
    });
    best.map(|(_, mv)| mv)
}

/// Above any distance: wins score `WON - distance`, losses `distance - WON`.
const WON: i32 = 1_000_000;
/// A ply within the table's own material weighs more than a whole mate after a conversion.
const PLY: i32 = 1000;

/// A position after a move from a `family` position, scored for its side to move: sooner
/// wins and later losses score higher. A move that leaves `family` (a capture, a promotion)
/// comes before any that stays; among those, the shorter mate after it.
fn score(child: &Position, family: Family) -> i32 {
    if child.is_insufficient_material() {
        return 0;
    }
    // A move from a covered position only reaches covered ones or bare material.
    let Some(known) = lookup(child) else {
        return 0;
    };
    let plies = known.plies as i32;
    let distance = if known.family == family {
        plies * PLY
    } else {
        plies
    };
    match known.outcome {
        Outcome::Win => WON - distance,
        Outcome::Draw => 0,
        Outcome::Loss => distance - WON,
    }
}

/// The material of `pos` if a table covers it: the colour and square of the one piece
/// besides the kings, and its role.
fn lone_piece(pos: &Position) -> Option<(Color, Role, Square)> {
    if !pos.castling_rights().is_empty() || pos.occupied().count() != 3 {
        return None;
    }
    let square = (pos.occupied() & !pos.by_role(Role::King)).first()?;
    let piece = pos.piece_at(square)?;
    Some((piece.color, piece.role, square))
}

fn lookup(pos: &Position) -> Option<Known> {
    let (strong, role, square) = lone_piece(pos)?;
    let strong_king = pos.king_of(strong);
    let weak_king = pos.king_of(!strong);
    let strong_to_move = pos.turn() == strong;
    let (family, won, plies) = match role {
        Role::Queen | Role::Rook => {
            let table = if role == Role::Queen { kqk() } else { krk() };
            match table.entry(strong_king, square, weak_king, strong_to_move) {
                Entry::Mate { plies } => (Family::Kxk, Some(strong_to_move), plies),
                Entry::Draw => (Family::Kxk, None, 0),
                Entry::Illegal => return None,
            }
        }
        Role::Pawn => {
            // Seen from White's side, pawn on files a–d.
            let flip = |sq: Square| {
                if strong == Color::White {
                    sq
                } else {
                    sq.flip_vertical()
                }
            };
            let (mut pawn, mut white_king, mut black_king) =
                (flip(square), flip(strong_king), flip(weak_king));
            if pawn.file() as usize >= 4 {
                [pawn, white_king, black_king] = [pawn, white_king, black_king].map(mirror);
            }
            match kpk().entry(pawn, white_king, black_king, strong_to_move) {
                PawnEntry::Won { plies } => (Family::Kpk, Some(strong_to_move), plies),
                PawnEntry::Drawn => (Family::Kpk, None, 0),
                PawnEntry::Illegal => return None,
            }
        }
        Role::Knight | Role::Bishop | Role::King => return None,
    };
    let outcome = match won {
        Some(true) => Outcome::Win,
        Some(false) => Outcome::Loss,
        None => Outcome::Draw,
    };
    Some(Known {
        family,
        outcome,
        plies: u32::from(plies),
    })
}

/// The square mirrored across the board's middle line between the d and e files.
fn mirror(sq: Square) -> Square {
    Square::ALL[sq as usize ^ 7]
}

fn kqk() -> &'static DtmTable {
    static TABLE: OnceLock<DtmTable> = OnceLock::new();
    TABLE.get_or_init(|| DtmTable::build(Role::Queen))
}

fn krk() -> &'static DtmTable {
    static TABLE: OnceLock<DtmTable> = OnceLock::new();
    TABLE.get_or_init(|| DtmTable::build(Role::Rook))
}

fn kpk() -> &'static KpkTable {
    static TABLE: OnceLock<KpkTable> = OnceLock::new();
    TABLE.get_or_init(|| KpkTable::build(kqk(), krk()))
}

/// Builds every table now (they are otherwise built on first use), e.g. on a background
/// thread before a lesson starts.
pub fn prepare() {
    kpk();
}
