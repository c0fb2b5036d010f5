//! Static evaluation: material and piece-square terms tapered between middlegame and endgame,
//! pawn structure, mobility, threats, king safety, bishop pair and rooks on open files.
//!
//! Scores are centipawns from the side to move's point of view. Every weight lives in one
//! table, [`WEIGHTS`] (generated in `weights.rs` by the Texel tuner, `engine/examples/texel.rs`),
//! laid out as [`layout`] says. The evaluation is written once, generic over where its terms
//! go: summed into a score when playing, or counted per weight when tuning ([`trace`]).

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

/// A score from its middlegame and endgame parts.
pub const fn s(mg: i32, eg: i32) -> Score {
    Score { mg, eg }
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

pub mod network;
mod weights;
pub use weights::WEIGHTS;

/// Where each weight lives in [`WEIGHTS`]. Piece-square weights are from White's side, a1 = 0,
/// and exclude material; pawn-structure weights are by rank relative to the pawn's side.
pub mod layout {
    /// Material by role (pawn, knight, bishop, rook, queen, king).
    pub const MATERIAL: usize = 0;
    /// Piece-square weights by role, then by square of the a-d half of the board (the e-h
    /// half mirrors it: left-right symmetry halves what the data must pin down).
    pub const PST: usize = MATERIAL + 6;
    pub const PST_LEN: usize = 32;
    /// Mobility by number of safe squares reached: knight, bishop, rook, queen.
    pub const MOBILITY: [usize; 4] = {
        let first = PST + 6 * PST_LEN;
        [
            first,
            first + MOBILITY_LEN[0],
            first + MOBILITY_LEN[0] + MOBILITY_LEN[1],
            first + MOBILITY_LEN[0] + MOBILITY_LEN[1] + MOBILITY_LEN[2],
        ]
    };
    /// 0..=8 squares for a knight, 0..=13 bishop, 0..=14 rook, 0..=27 queen.
    pub const MOBILITY_LEN: [usize; 4] = [9, 14, 15, 28];
    pub const PASSED: usize = MOBILITY[3] + MOBILITY_LEN[3];
    pub const CONNECTED: usize = PASSED + 8;
    pub const DOUBLED: usize = CONNECTED + 8;
    pub const ISOLATED: usize = DOUBLED + 1;
    pub const BISHOP_PAIR: usize = ISOLATED + 1;
    pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
    pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
    /// A knight, bishop, rook or queen attacked by an enemy pawn.
    pub const PAWN_THREAT: usize = ROOK_SEMI_OPEN + 1;
    /// A rook or queen attacked by an enemy knight or bishop.
    pub const MINOR_THREAT: usize = PAWN_THREAT + 4;
    /// Attack on the enemy king by weighted attack units (capped), with a queen and two
    /// attackers or more.
    pub const KING_ATTACK: usize = MINOR_THREAT + 2;
    pub const KING_ATTACK_LEN: usize = 32;
    pub const SHIELD_NEAR: usize = KING_ATTACK + KING_ATTACK_LEN;
    pub const SHIELD_FAR: usize = SHIELD_NEAR + 1;
    pub const SHIELD_MISSING: usize = SHIELD_FAR + 1;
    /// The king off its back two ranks.
    pub const KING_EXPOSED: usize = SHIELD_MISSING + 1;
    pub const COUNT: usize = KING_EXPOSED + 1;

    /// The piece-square slot of square `sq` (a1 = 0): rank * 4 + file, files e-h mirrored.
    pub const fn pst_square(sq: usize) -> usize {
        let file = sq % 8;
        (sq / 8) * 4 + if file < 4 { file } else { 7 - file }
    }

    /// Name, first index and length of each group, for the tuner's report and generated file.
    pub const SECTIONS: [(&str, usize, usize); 21] = [
        ("material", MATERIAL, 6),
        ("pst pawn", PST, PST_LEN),
        ("pst knight", PST + PST_LEN, PST_LEN),
        ("pst bishop", PST + 2 * PST_LEN, PST_LEN),
        ("pst rook", PST + 3 * PST_LEN, PST_LEN),
        ("pst queen", PST + 4 * PST_LEN, PST_LEN),
        ("pst king", PST + 5 * PST_LEN, PST_LEN),
        ("mobility knight", MOBILITY[0], MOBILITY_LEN[0]),
        ("mobility bishop", MOBILITY[1], MOBILITY_LEN[1]),
        ("mobility rook", MOBILITY[2], MOBILITY_LEN[2]),
        ("mobility queen", MOBILITY[3], MOBILITY_LEN[3]),
        ("passed pawn", PASSED, 8),
        ("connected pawn", CONNECTED, 8),
        ("doubled, isolated pawn", DOUBLED, 2),
        ("bishop pair", BISHOP_PAIR, 1),
        ("rook on open, semi-open file", ROOK_OPEN, 2),
        ("pawn threat on knight, bishop, rook, queen", PAWN_THREAT, 4),
        ("minor threat on rook, queen", MINOR_THREAT, 2),
        ("king attack", KING_ATTACK, KING_ATTACK_LEN),
        ("shield near, far, missing", SHIELD_NEAR, 3),
        ("king exposed", KING_EXPOSED, 1),
    ];
}

/// Single piece values for move ordering and exchange evaluation.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// Game phase contributed by each role; 24 at the start.
const PHASE: [i32; 6] = [0, 1, 1, 2, 4, 0];
pub const MAX_PHASE: i32 = 24;
/// Bonus for the side to move (not tuned: game results cannot tell it apart).
pub const TEMPO: i32 = 10;
/// Weight of each attacking role (knight, bishop, rook, queen) per king-zone square it hits.
const KING_ATTACK_UNITS: [i32; 4] = [2, 2, 3, 5];

/// Material plus piece-square weight of each role and square, from White's side.
const PIECE_SQUARE: [[Score; 64]; 6] = {
    let mut table = [[s(0, 0); 64]; 6];
    let mut r = 0;
    while r < 6 {
        let mut sq = 0;
        while sq < 64 {
            let m = WEIGHTS[layout::MATERIAL + r];
            let p = WEIGHTS[layout::PST + r * layout::PST_LEN + layout::pst_square(sq)];
            table[r][sq] = s(m.mg + p.mg, m.eg + p.eg);
            sq += 1;
        }
        r += 1;
    }
    table
};

/// Where evaluation terms go.
trait Terms {
    /// `count` times weight `index` for `color`.
    fn add(&mut self, color: Color, index: usize, count: i32);

    /// A piece of `role` on `sq` (from White's side): its material and square weights.
    #[inline(always)]
    fn piece(&mut self, color: Color, role: Role, sq: usize) {
        self.add(color, layout::MATERIAL + role.index(), 1);
        let pst = layout::PST + role.index() * layout::PST_LEN + layout::pst_square(sq);
        self.add(color, pst, 1);
    }
}

/// Sums the terms into one score, White minus Black.
#[derive(Default)]
struct Sum(Score);

impl Terms for Sum {
    #[inline(always)]
    fn add(&mut self, color: Color, index: usize, count: i32) {
        match color {
            Color::White => self.0 += WEIGHTS[index] * count,
            Color::Black => self.0 -= WEIGHTS[index] * count,
        }
    }

    #[inline(always)]
    fn piece(&mut self, color: Color, role: Role, sq: usize) {
        match color {
            Color::White => self.0 += PIECE_SQUARE[role.index()][sq],
            Color::Black => self.0 -= PIECE_SQUARE[role.index()][sq],
        }
    }
}

/// Counts each weight's uses, White minus Black.
struct Counts(Vec<i32>);

impl Terms for Counts {
    fn add(&mut self, color: Color, index: usize, count: i32) {
        match color {
            Color::White => self.0[index] += count,
            Color::Black => self.0[index] -= count,
        }
    }
}

/// A position as the tuner sees it: the evaluation is
/// `scale * blend(sum of count * weight) + tempo` (White's view), where the blend weighs
/// middlegame and endgame parts by `phase`.
#[derive(Debug, Clone, PartialEq)]
pub struct Trace {
    /// Weight index and count (White minus Black), for the weights used.
    pub counts: Vec<(u16, i16)>,
    /// 0 (bare kings and pawns) to [`MAX_PHASE`] (all pieces).
    pub phase: i32,
    /// 1, or less where the side ahead cannot win ([`is_drawish`]).
    pub scale: f64,
    /// The side to move's bonus from White's view.
    pub tempo: i32,
}

/// The evaluation's terms for `pos`, for tuning.
pub fn trace(pos: &Position) -> Trace {
    let mut counts = Counts(vec![0; layout::COUNT]);
    let phase = terms(pos, &mut counts);
    let scale = if is_drawish(pos, white_unscaled(pos)) {
        0.125
    } else {
        1.0
    };
    Trace {
        counts: counts
            .0
            .iter()
            .enumerate()
            .filter(|&(_, &n)| n != 0)
            .map(|(i, &n)| (i as u16, n.clamp(i16::MIN as i32, i16::MAX as i32) as i16))
            .collect(),
        phase,
        scale,
        tempo: match pos.turn() {
            Color::White => TEMPO,
            Color::Black => -TEMPO,
        },
    }
}

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
    let unscaled = white_unscaled(pos);
    let white = if is_drawish(pos, unscaled) {
        unscaled / 8
    } else {
        unscaled
    };
    let relative = match pos.turn() {
        Color::White => white,
        Color::Black => -white,
    };
    relative + TEMPO
}

/// White's score before [`is_drawish`] scaling.
fn white_unscaled(pos: &Position) -> i32 {
    let mut sum = Sum::default();
    let phase = terms(pos, &mut sum);
    let score = sum.0;
    (score.mg * phase + score.eg * (MAX_PHASE - phase)) / MAX_PHASE
}

/// Every term of the evaluation into `out`; returns the game phase.
#[inline(always)]
fn terms(pos: &Position, out: &mut impl Terms) -> i32 {
    let mut phase = 0;
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in pos.pieces(color, role) {
                let idx = match color {
                    Color::White => sq.index(),
                    Color::Black => sq.flip_vertical().index(),
                };
                out.piece(color, role, idx);
                phase += PHASE[role.index()];
            }
        }
        pawn_structure(pos, color, out);
        pieces(pos, color, out);
    }
    phase.min(MAX_PHASE)
}

/// Whether the side ahead by `white` has no pawns and too little extra material to mate
/// (such as a lone minor piece, or rook against minor piece): such scores shrink.
fn is_drawish(pos: &Position, white: i32) -> bool {
    let strong = if white >= 0 {
        Color::White
    } else {
        Color::Black
    };
    if pos.pieces(strong, Role::Pawn).nonempty() {
        return false;
    }
    let material = |c: Color| -> i32 {
        [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| pos.pieces(c, r).count() as i32 * SEE_VALUE[r.index()])
            .sum()
    };
    material(strong) - material(!strong) <= SEE_VALUE[Role::Bishop.index()]
}

fn pawn_structure(pos: &Position, color: Color, out: &mut impl Terms) {
    let ours = pos.pieces(color, Role::Pawn);
    let theirs = pos.pieces(!color, Role::Pawn);
    let supported_by = pawn_attacks_all(color, ours);
    for sq in ours {
        let file = sq.file().index();
        let rel_rank = sq.rank().relative_to(color).index();
        if (ours & adjacent_files(file)).is_empty() {
            out.add(color, layout::ISOLATED, 1);
        }
        if (front_span(color, sq) & theirs).is_empty()
            && (front_span(color, sq) & FILES[file] & ours).is_empty()
        {
            out.add(color, layout::PASSED + rel_rank, 1);
        }
        let phalanx = (ours & adjacent_files(file) & Bitboard::rank(sq.rank())).nonempty();
        if phalanx || supported_by.contains(sq) {
            out.add(color, layout::CONNECTED + rel_rank, 1);
        }
    }
    for file in File::ALL {
        let n = (ours & FILES[file.index()]).count() as i32;
        if n > 1 {
            out.add(color, layout::DOUBLED, n - 1);
        }
    }
}

fn pieces(pos: &Position, color: Color, out: &mut impl Terms) {
    let occ = pos.occupied();
    let own = pos.by_color(color);
    let enemy_pawn_attacks = pawn_attacks_all(!color, pos.pieces(!color, Role::Pawn));
    let safe = !own & !enemy_pawn_attacks;
    let enemy_king = pos.king_of(!color);
    let king_zone = king_attacks(enemy_king).with(enemy_king);
    let enemy_heavy = pos.pieces(!color, Role::Rook) | pos.pieces(!color, Role::Queen);
    let mut attack_units = 0;
    let mut attackers = 0;

    for (i, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
        .into_iter()
        .enumerate()
    {
        let ours = pos.pieces(color, role);
        // Ours under attack from a pawn: it must move, or is lost.
        let threatened = (ours & enemy_pawn_attacks).count() as i32;
        if threatened > 0 {
            out.add(color, layout::PAWN_THREAT + i, threatened);
        }
        for sq in ours {
            let attacks = match role {
                Role::Knight => knight_attacks(sq),
                Role::Bishop => bishop_attacks(sq, occ),
                Role::Rook => rook_attacks(sq, occ),
                _ => bishop_attacks(sq, occ) | rook_attacks(sq, occ),
            };
            let reach = (attacks & safe).count() as usize;
            out.add(color, layout::MOBILITY[i] + reach, 1);
            let hits = (attacks & king_zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                attack_units += KING_ATTACK_UNITS[i] * hits;
            }
            match role {
                Role::Knight | Role::Bishop => {
                    for target in attacks & enemy_heavy {
                        let heavy = usize::from(pos.role_at(target) == Some(Role::Queen));
                        out.add(color, layout::MINOR_THREAT + heavy, 1);
                    }
                }
                Role::Rook => {
                    let file = FILES[sq.file().index()];
                    if (file & pos.pieces(color, Role::Pawn)).is_empty() {
                        let open = (file & pos.pieces(!color, Role::Pawn)).is_empty();
                        out.add(
                            color,
                            if open {
                                layout::ROOK_OPEN
                            } else {
                                layout::ROOK_SEMI_OPEN
                            },
                            1,
                        );
                    }
                }
                _ => {}
            }
        }
    }
    if pos.pieces(color, Role::Bishop).count() >= 2 {
        out.add(color, layout::BISHOP_PAIR, 1);
    }
    // Attacks on the enemy king only matter with several pieces and a queen or more.
    if attackers >= 2 && pos.pieces(color, Role::Queen).nonempty() {
        let units = (attack_units as usize).min(layout::KING_ATTACK_LEN - 1);
        out.add(color, layout::KING_ATTACK + units, 1);
    }
    king_shelter(pos, color, out);
}

/// Pawns in front of a king on its back two ranks; open files next to it hurt.
fn king_shelter(pos: &Position, color: Color, out: &mut impl Terms) {
    let king = pos.king_of(color);
    if king.rank().relative_to(color).index() > 1 {
        out.add(color, layout::KING_EXPOSED, 1);
        return;
    }
    let pawns = pos.pieces(color, Role::Pawn);
    let file = king.file().index();
    let forward = if color == Color::White { 1 } else { -1 };
    for f in file.saturating_sub(1)..=(file + 1).min(7) {
        let df = f as i32 - file as i32;
        let near = king.offset(df, forward).filter(|sq| pawns.contains(*sq));
        let far = king
            .offset(df, 2 * forward)
            .filter(|sq| pawns.contains(*sq));
        let index = if near.is_some() {
            layout::SHIELD_NEAR
        } else if far.is_some() {
            layout::SHIELD_FAR
        } else {
            layout::SHIELD_MISSING
        };
        out.add(color, index, 1);
    }
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
    fn layout_sections_cover_every_weight_once() {
        let mut next = 0;
        for (name, first, len) in layout::SECTIONS {
            assert_eq!(first, next, "{name}");
            next += len;
        }
        assert_eq!(next, layout::COUNT);
    }

    #[test]
    fn trace_reproduces_the_evaluation() {
        for fen in [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
            "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
            "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let t = trace(&pos);
            let (mut mg, mut eg) = (0.0, 0.0);
            for &(i, n) in &t.counts {
                mg += f64::from(n) * f64::from(WEIGHTS[i as usize].mg);
                eg += f64::from(n) * f64::from(WEIGHTS[i as usize].eg);
            }
            let rho = f64::from(t.phase) / f64::from(MAX_PHASE);
            let white = t.scale * (mg * rho + eg * (1.0 - rho)) + f64::from(t.tempo);
            let relative = if pos.turn() == Color::White {
                white
            } else {
                -white
            };
            // The engine rounds towards zero twice (blend, drawish scaling).
            assert!((relative - f64::from(evaluate(&pos))).abs() < 2.0, "{fen}");
        }
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
