//! Static evaluation: material and piece-square terms tapered between middlegame and endgame,
//! pawn structure, mobility, king safety, bishop pair and rooks on open files.
//!
//! Scores are centipawns from the side to move's point of view. The weights are hand-set
//! starting values (round numbers in the usual proportions); they are not yet tuned.

use crate::attacks::{bishop_attacks, king_attacks, knight_attacks, rook_attacks};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, File, Role, Square};

/// A middlegame and an endgame value, blended by the game phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Score {
    pub mg: i32,
    pub eg: i32,
}

const fn s(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
}

impl std::ops::Add for Score {
    type Output = Score;
    #[inline]
    fn add(self, o: Score) -> Score {
        s(self.mg + o.mg, self.eg + o.eg)
    }
}

impl std::ops::AddAssign for Score {
    #[inline]
    fn add_assign(&mut self, o: Score) {
        self.mg += o.mg;
        self.eg += o.eg;
    }
}

impl std::ops::SubAssign for Score {
    #[inline]
    fn sub_assign(&mut self, o: Score) {
        self.mg -= o.mg;
        self.eg -= o.eg;
    }
}

impl std::ops::Mul<i32> for Score {
    type Output = Score;
    #[inline]
    fn mul(self, k: i32) -> Score {
        s(self.mg * k, self.eg * k)
    }
}

/// Material by role (pawn, knight, bishop, rook, queen, king).
pub const MATERIAL: [Score; 6] = [
    s(82, 100),
    s(325, 300),
    s(335, 320),
    s(470, 530),
    s(960, 960),
    s(0, 0),
];

/// Single piece values for move ordering and exchange evaluation.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// Game phase contributed by each role; 24 at the start.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
const MAX_PHASE: i32 = 24;

const PASSED: [Score; 8] = [
    s(0, 0),
    s(5, 10),
    s(8, 15),
    s(15, 30),
    s(30, 55),
    s(55, 90),
    s(90, 140),
    s(0, 0),
];
const CONNECTED: [Score; 8] = [
    s(0, 0),
    s(3, 2),
    s(5, 4),
    s(8, 6),
    s(15, 12),
    s(25, 20),
    s(40, 35),
    s(0, 0),
];
const DOUBLED: Score = s(-10, -25);
const ISOLATED: Score = s(-12, -15);
const BISHOP_PAIR: Score = s(30, 50);
const ROOK_OPEN: Score = s(25, 10);
const ROOK_SEMI_OPEN: Score = s(12, 6);
const TEMPO: i32 = 10;
/// Per reachable square, relative to a typical count (knight 4, bishop 6, rook 7, queen 13).
const MOBILITY: [(Score, i32); 4] = [(s(4, 4), 4), (s(5, 5), 6), (s(2, 4), 7), (s(1, 2), 13)];
/// King attack weight of each attacking role (knight, bishop, rook, queen).
const KING_ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];
const SHIELD_NEAR: i32 = 12;
const SHIELD_FAR: i32 = 6;
const SHIELD_MISSING: i32 = -15;

/// Piece-square value for a white piece; built from simple shapes (centralisation, advance,
/// a castled king) rather than typed-in tables.
const fn pst_value(role: Role, sq: usize) -> Score {
    let file = (sq % 8) as i32;
    let rank = (sq / 8) as i32;
    // Distance from the centre, 2 (d4..e5) to 14 (corners).
    let centre = (2 * file - 7).abs() + (2 * rank - 7).abs();
    match role {
        Role::Pawn => {
            let central = if (file == 3 || file == 4) && rank >= 2 && rank <= 4 {
                12
            } else if (file == 2 || file == 5) && rank >= 2 && rank <= 4 {
                4
            } else {
                0
            };
            s(
                (rank - 1) * 3 + central,
                [0, 0, 5, 10, 18, 30, 50, 0][rank as usize],
            )
        }
        Role::Knight => s(18 - 4 * centre, 12 - 3 * centre),
        Role::Bishop => s(10 - 2 * centre, 8 - 2 * centre),
        Role::Rook => {
            let seventh = if rank == 6 { 15 } else { 0 };
            let central = if file == 3 || file == 4 { 5 } else { 0 };
            s(seventh + central, if rank == 6 { 10 } else { 0 })
        }
        Role::Queen => s(4 - centre, 12 - 2 * centre),
        Role::King => {
            let mg_rank = match rank {
                0 => 0,
                1 => -15,
                _ => -30 - 10 * rank,
            };
            let mg_file = [10, 20, 5, -10, -5, -10, 20, 10][file as usize];
            s(mg_rank + mg_file, 24 - 4 * centre)
        }
    }
}

/// Piece-square tables for White, material included; Black mirrors the square.
const PST: [[Score; 64]; 6] = {
    let mut table = [[s(0, 0); 64]; 6];
    let mut r = 0;
    while r < 6 {
        let role = [
            Role::Pawn,
            Role::Knight,
            Role::Bishop,
            Role::Rook,
            Role::Queen,
            Role::King,
        ][r];
        let mut sq = 0;
        while sq < 64 {
            let v = pst_value(role, sq);
            table[r][sq] = s(v.mg + MATERIAL[r].mg, v.eg + MATERIAL[r].eg);
            sq += 1;
        }
        r += 1;
    }
    table
};

const FILES: [Bitboard; 8] = {
    let mut f = [Bitboard(0); 8];
    let mut i = 0;
    while i < 8 {
        f[i] = Bitboard(0x0101_0101_0101_0101 << i);
        i += 1;
    }
    f
};

const fn adjacent_files(file: usize) -> Bitboard {
    let mut bb = 0u64;
    if file > 0 {
        bb |= 0x0101_0101_0101_0101 << (file - 1);
    }
    if file < 7 {
        bb |= 0x0101_0101_0101_0101 << (file + 1);
    }
    Bitboard(bb)
}

/// Squares in front of a square from `color`'s point of view, on its own and both adjacent
/// files: a pawn there can stop or capture a pawn on `sq`.
fn front_span(color: Color, sq: Square) -> Bitboard {
    let file = sq.file().index();
    let files = FILES[file] | adjacent_files(file);
    let rank = sq.rank().index();
    let ahead = match color {
        Color::White => {
            if rank == 7 {
                0
            } else {
                !0u64 << (8 * (rank + 1))
            }
        }
        Color::Black => {
            if rank == 0 {
                0
            } else {
                !0u64 >> (8 * (8 - rank))
            }
        }
    };
    files & Bitboard(ahead)
}

fn pawn_attacks_all(color: Color, pawns: Bitboard) -> Bitboard {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let p = pawns.0;
    Bitboard(match color {
        Color::White => ((p & NOT_A) << 7) | ((p & NOT_H) << 9),
        Color::Black => ((p & NOT_A) >> 9) | ((p & NOT_H) >> 7),
    })
}

/// The evaluation from the side to move's point of view, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = Score::default();
    let mut phase = 0;
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        let mut side = Score::default();
        for role in Role::ALL {
            for sq in pos.pieces(color, role) {
                let idx = match color {
                    Color::White => sq.index(),
                    Color::Black => sq.flip_vertical().index(),
                };
                side += PST[role.index()][idx];
                phase += PHASE[role.index()];
            }
        }
        side += pawn_structure(pos, color);
        side += pieces(pos, color);
        score += side * sign;
    }
    let phase = phase.min(MAX_PHASE);
    let blended = (score.mg * phase + score.eg * (MAX_PHASE - phase)) / MAX_PHASE;
    let white = scale_drawish(pos, blended);
    let relative = match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    };
    relative + TEMPO
}

/// Shrinks scores where the side ahead has no pawns and too little extra material to mate
/// (such as a lone minor piece, or rook against minor piece).
fn scale_drawish(pos: &Position, white: i32) -> i32 {
    let strong = if white >= 0 {
        Color::White
    } else {
        Color::Black
    };
    if pos.pieces(strong, Role::Pawn).nonempty() {
        return white;
    }
    let material = |c: Color| -> i32 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| pos.pieces(c, r).count() as i32 * SEE_VALUE[r.index()])
            .sum()
    };
    let diff = material(strong) - material(!strong);
    if diff <= SEE_VALUE[Role::Bishop.index()] {
        white / 8
    } else {
        white
    }
}

fn pawn_structure(pos: &Position, color: Color) -> Score {
    let mut score = Score::default();
    let ours = pos.pieces(color, Role::Pawn);
    let theirs = pos.pieces(!color, Role::Pawn);
    let supported_by = pawn_attacks_all(color, ours);
    for sq in ours {
        let file = sq.file().index();
        let rel_rank = sq.rank().relative_to(color).index();
        if (ours & adjacent_files(file)).is_empty() {
            score += ISOLATED;
        }
        if (front_span(color, sq) & theirs).is_empty()
            && (front_span(color, sq) & FILES[file] & ours).is_empty()
        {
            score += PASSED[rel_rank];
        }
        let phalanx = (ours & adjacent_files(file) & Bitboard::rank(sq.rank())).nonempty();
        if phalanx || supported_by.contains(sq) {
            score += CONNECTED[rel_rank];
        }
    }
    for file in File::ALL {
        let n = (ours & FILES[file.index()]).count() as i32;
        if n > 1 {
            score += DOUBLED * (n - 1);
        }
    }
    score
}

fn pieces(pos: &Position, color: Color) -> Score {
    let mut score = Score::default();
    let occ = pos.occupied();
    let own = pos.by_color(color);
    let enemy_pawn_attacks = pawn_attacks_all(!color, pos.pieces(!color, Role::Pawn));
    let safe = !own & !enemy_pawn_attacks;
    let enemy_king = pos.king_of(!color);
    let king_zone = king_attacks(enemy_king).with(enemy_king);
    let mut attack_units = 0;
    let mut attackers = 0;

    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        let (weight, typical) = MOBILITY[i];
        for sq in pos.pieces(color, role) {
            let attacks = match role {
                Role::Knight => knight_attacks(sq),
                Role::Bishop => bishop_attacks(sq, occ),
                Role::Rook => rook_attacks(sq, occ),
                _ => bishop_attacks(sq, occ) | rook_attacks(sq, occ),
            };
            score += weight * ((attacks & safe).count() as i32 - typical);
            let hits = (attacks & king_zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                attack_units += KING_ATTACK_UNITS[i] * hits;
            }
            if role == Role::Rook {
                let file = FILES[sq.file().index()];
                if (file & pos.pieces(color, Role::Pawn)).is_empty() {
                    score += if (file & pos.pieces(!color, Role::Pawn)).is_empty() {
                        ROOK_OPEN
                    } else {
                        ROOK_SEMI_OPEN
                    };
                }
            }
        }
    }
    if pos.pieces(color, Role::Bishop).count() >= 2 {
        score += BISHOP_PAIR;
    }
    // Attacks on the enemy king only matter with several pieces and a queen or more.
    if attackers >= 2 && pos.pieces(color, Role::Queen).nonempty() {
        score += s((attack_units * attack_units).min(600) / 2, 0);
    }
    score += king_shelter(pos, color);
    score
}

/// Pawns in front of a king on its back two ranks; open files next to it hurt.
fn king_shelter(pos: &Position, color: Color) -> Score {
    let king = pos.king_of(color);
    if king.rank().relative_to(color).index() > 1 {
        return s(-20, 0);
    }
    let pawns = pos.pieces(color, Role::Pawn);
    let file = king.file().index();
    let mut mg = 0;
    for f in file.saturating_sub(1)..=(file + 1).min(7) {
        let near = king
            .offset(
                f as i32 - file as i32,
                if color == Color::White { 1 } else { -1 },
            )
            .filter(|sq| pawns.contains(*sq));
        let far = king
            .offset(
                f as i32 - file as i32,
                if color == Color::White { 2 } else { -2 },
            )
            .filter(|sq| pawns.contains(*sq));
        mg += if near.is_some() {
            SHIELD_NEAR
        } else if far.is_some() {
            SHIELD_FAR
        } else {
            SHIELD_MISSING
        };
    }
    s(mg, 0)
}

/// Whether the side to move has pieces other than pawns and king (null move is unsafe in
/// pawn endings because of zugzwang).
pub fn has_non_pawn_material(pos: &Position) -> bool {
    let us = pos.turn();
    (pos.by_color(us) & !pos.by_role(Role::Pawn) & !pos.by_role(Role::King)).nonempty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).unwrap())
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(evaluate(&Position::startpos()), TEMPO);
    }

    #[test]
    fn symmetric_positions_mirror() {
        let white = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
        let black = "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3";
        assert_eq!(eval_fen(white), eval_fen(black));
    }

    #[test]
    fn material_counts() {
        // White is a knight up.
        assert!(eval_fen("4k3/8/8/8/8/8/3PPP2/2N1K3 w - - 0 1") > 250);
        assert!(eval_fen("4k3/8/8/8/8/8/3PPP2/2N1K3 b - - 0 1") < -250);
    }

    #[test]
    fn lone_minor_is_drawish() {
        assert!(eval_fen("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1").abs() < 60);
    }

    #[test]
    fn passed_pawn_is_good() {
        let passed = eval_fen("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1");
        let blocked = eval_fen("4k3/3p4/3P4/8/8/8/8/4K3 w - - 0 1");
        assert!(passed > blocked + 80, "{passed} vs {blocked}");
    }
}
