//! Move ordering (hash move, good captures by MVV-LVA, killers, history, bad captures) and
//! static exchange evaluation.

use crate::attacks::{bishop_attacks, rook_attacks};
use crate::eval::SEE_VALUE;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{Color, Role, Square};

const HASH_MOVE: i32 = 1 << 30;
const GOOD_CAPTURE: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
const BAD_CAPTURE: i32 = -(1 << 28);
/// History scores stay within ±HISTORY_MAX so they never reach the killers' band.
pub const HISTORY_MAX: i32 = 1 << 14;

/// The role a move captures, if any (a pawn for en passant).
#[inline]
pub fn captured(pos: &Position, mv: Move) -> Option<Role> {
    match mv.kind() {
        MoveKind::EnPassant => Some(Role::Pawn),
        MoveKind::Castle => None,
        _ => pos.role_at(mv.to()),
    }
}

/// Captures and promotions: the moves quiescence search looks at.
#[inline]
pub fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.promotion().is_some() || captured(pos, mv).is_some()
}

/// Whether the exchange started by `mv` on its target square wins at least `threshold`
/// centipawns for the mover, with both sides recapturing least valuable piece first.
/// Pins are ignored.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    if mv.is_castle() {
        return threshold <= 0;
    }
    let from = mv.from();
    let to = mv.to();
    let victim = captured(pos, mv).map_or(0, |r| SEE_VALUE[r.index()]);
    let promo_gain = mv
        .promotion()
        .map_or(0, |r| SEE_VALUE[r.index()] - SEE_VALUE[Role::Pawn.index()]);
    let mut swap = victim + promo_gain - threshold;
    if swap < 0 {
        return false;
    }
    let mover = match mv.promotion() {
        Some(r) => r,
        None => pos.role_at(from).unwrap_or(Role::Pawn),
    };
    swap = SEE_VALUE[mover.index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied().without(from).with(to);
    if mv.is_en_passant() {
        occ = occ.without(Square::from_coords(to.file(), from.rank()));
    }
    let diag = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let orth = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let mut attackers = pos.attackers_to(to, occ) & occ;
    let mut side = pos.turn();
    let mut result = true;
    loop {
        side = !side;
        attackers &= occ;
        let ours = attackers & pos.by_color(side);
        if ours.is_empty() {
            break;
        }
        result = !result;
        let mut least = None;
        for role in Role::ALL {
            let bb = ours & pos.by_role(role);
            if let Some(sq) = bb.first() {
                least = Some((role, sq));
                break;
            }
        }
        let Some((role, sq)) = least else { break };
        if role == Role::King {
            // The king may only take last: if the other side still attacks, it cannot.
            return if (attackers & pos.by_color(!side)).nonempty() {
                !result
            } else {
                result
            };
        }
        swap = SEE_VALUE[role.index()] - swap;
        if swap < result as i32 {
            break;
        }
        occ = occ.without(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= bishop_attacks(to, occ) & diag;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= rook_attacks(to, occ) & orth;
        }
    }
    result
}

/// Quiet-move history: how often a from-to pair caused a cut-off, per side.
pub struct History {
    table: Box<[[[i32; 64]; 64]; 2]>,
}

impl History {
    pub fn new() -> History {
        History {
            table: Box::new([[[0; 64]; 64]; 2]),
        }
    }

    pub fn clear(&mut self) {
        *self.table = [[[0; 64]; 64]; 2];
    }

    #[inline]
    pub fn get(&self, color: Color, mv: Move) -> i32 {
        self.table[color.index()][mv.from().index()][mv.to().index()]
    }

    /// Moves the entry towards ±HISTORY_MAX by `bonus` (negative for a malus), with gravity
    /// so that old results fade.
    pub fn update(&mut self, color: Color, mv: Move, bonus: i32) {
        let entry = &mut self.table[color.index()][mv.from().index()][mv.to().index()];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }
}

/// Hands out the moves of a list best first (selection sort, so a cut-off early saves the
/// sorting of the rest).
pub struct MovePicker {
    moves: MoveList,
    scores: [i32; 256],
    next: usize,
}

impl MovePicker {
    /// Orders every move of `moves`.
    pub fn new(
        pos: &Position,
        moves: MoveList,
        hash_move: Option<Move>,
        killers: [Option<Move>; 2],
        history: &History,
    ) -> MovePicker {
        let mut scores = [0; 256];
        let us = pos.turn();
        for (i, &mv) in moves.iter().enumerate() {
            scores[i] = if Some(mv) == hash_move {
                HASH_MOVE
            } else if is_tactical(pos, mv) {
                capture_score(pos, mv)
            } else if Some(mv) == killers[0] {
                KILLER + 1
            } else if Some(mv) == killers[1] {
                KILLER
            } else {
                history.get(us, mv)
            };
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    /// Captures and promotions only (quiescence), best first; in check, every evasion.
    pub fn tactical(pos: &Position, hash_move: Option<Move>) -> MovePicker {
        let all = pos.legal_moves();
        let in_check = pos.is_check();
        let mut moves = MoveList::new();
        let mut scores = [0; 256];
        for &mv in all.iter() {
            let tactical = is_tactical(pos, mv);
            // Under-promotions without capture are not worth a look here.
            let useful = tactical
                && !matches!(mv.promotion(), Some(r) if r != Role::Queen && captured(pos, mv).is_none());
            if !in_check && !useful {
                continue;
            }
            scores[moves.len()] = if Some(mv) == hash_move {
                HASH_MOVE
            } else if tactical {
                capture_score(pos, mv)
            } else {
                0
            };
            moves.push(mv);
        }
        MovePicker {
            moves,
            scores,
            next: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// The next best move and its ordering score.
    pub fn next(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        if self.next >= n {
            return None;
        }
        let mut best = self.next;
        for i in self.next + 1..n {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.as_mut_slice().swap(self.next, best);
        self.scores.swap(self.next, best);
        let result = (self.moves[self.next], self.scores[self.next]);
        self.next += 1;
        Some(result)
    }
}

/// Good captures (SEE not losing) by most valuable victim, then least valuable attacker;
/// losing captures after the quiet moves.
fn capture_score(pos: &Position, mv: Move) -> i32 {
    let victim = captured(pos, mv).map_or(0, |r| SEE_VALUE[r.index()]);
    let attacker = pos.role_at(mv.from()).map_or(0, |r| r.index() as i32);
    let promo = mv.promotion().map_or(0, |r| SEE_VALUE[r.index()]);
    let mvv_lva = (victim + promo) * 8 - attacker;
    if see_ge(pos, mv, 0) {
        GOOD_CAPTURE + mvv_lva
    } else {
        BAD_CAPTURE + mvv_lva
    }
}

/// True for the ordering scores of losing captures.
pub fn is_bad_capture_score(score: i32) -> bool {
    score < -HISTORY_MAX * 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::uci::parse_move;

    fn see(fen: &str, mv: &str, threshold: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let mv = parse_move(&pos, mv).unwrap();
        see_ge(&pos, mv, threshold)
    }

    #[test]
    fn exchanges() {
        // Rook takes an undefended pawn.
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(see(fen, "e1e5", 100));
        assert!(!see(fen, "e1e5", 101));
        // Knight takes a pawn defended by a pawn: loses the knight for a pawn.
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(!see(fen, "d3e5", 0));
        assert!(see(fen, "d3e5", -250));
        // Quiet move onto a square attacked by a pawn.
        let fen = "4k3/8/3p4/8/2N5/8/8/4K3 w - - 0 1";
        assert!(!see(fen, "c4e5", 0));
        assert!(see(fen, "c4a5", 0));
    }
}
