//! The engine's evaluation: a small neural network (768 inputs per side → [`HIDDEN`] → 1 of
//! [`BUCKETS`] outputs, chosen by the number of pieces on the board),
//! trained on positions labelled by Stockfish's static evaluation (`engine/examples/nnue.rs`,
//! docs/benchmarks/history.md "The analysis network" and "A network learned from Stockfish's static
//! evaluation"). Play, hints and analysis all search with it.
//!
//! Inputs: one per (piece colour relative to the perspective, role, square seen from that
//! side), both perspectives sharing the weights. The hidden layer is clipped to 0..=1 ([`QA`]
//! in integers) and the output is centipawns for the side to move on the engine's scale
//! (trained through the analysis model's ×1.72 to Stockfish's, then calibrated against
//! Stockfish), the scale the search's margins were set on.
//!
//! A search evaluates through [`Accumulators`]: a position's hidden sums come from its
//! parent's by the two to four inputs a move changes, not from all its pieces.
//!
//! The weights are integers in `analysis.nnue` (little-endian): `HIDDEN` as u32, the input
//! weights (i16, 768 × HIDDEN, by input), the hidden biases (i16), the output weights (i16,
//! per bucket 2 × HIDDEN: side to move's half first) and the output biases (i32 per bucket, in
//! `QA * QB` units).

use crate::position::Position;
use crate::types::{Color, Role, Square};

/// Hidden units per perspective.
pub const HIDDEN: usize = 256;
/// Inputs per perspective: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// The integer that stands for 1.0 in the hidden layer.
pub const QA: i32 = 255;
/// The integer that stands for 1.0 in the output weights.
pub const QB: i32 = 64;
/// The output (1.0) in centipawns.
pub const SCALE: i32 = 400;
/// Output layers, one per band of four in the piece count (kings included): what a
/// hidden feature is worth differs between the middlegame and an endgame.
pub const BUCKETS: usize = 8;
/// The largest evaluation, well inside the search's mate scores whatever the weights.
pub const LIMIT: i32 = 20_000;

const FILE: &[u8] = include_bytes!("analysis.nnue");
const HEADER_LEN: usize = 4;
const FILE_LEN: usize =
    HEADER_LEN + 2 * (INPUTS * HIDDEN + HIDDEN + BUCKETS * 2 * HIDDEN) + 4 * BUCKETS;
// A network of another shape must not build.
const _: () = assert!(FILE.len() == FILE_LEN);
const _: () = assert!(u32::from_le_bytes([FILE[0], FILE[1], FILE[2], FILE[3]]) as usize == HIDDEN);

/// The network's integer weights.
pub struct Network {
    input: Vec<[i16; HIDDEN]>,
    bias: [i16; HIDDEN],
    output: Vec<[i16; 2 * HIDDEN]>,
    output_bias: [i32; BUCKETS],
}

/// The output layer for a position with `pieces` pieces (kings included).
#[inline]
pub fn bucket(pieces: u32) -> usize {
    ((pieces as usize).saturating_sub(1) / 4).min(BUCKETS - 1)
}

/// The input of `color`'s `role` on `sq`, seen from `perspective` (Black's sees the board
/// mirrored top to bottom and its own pieces as "ours").
#[inline]
pub fn input_index(perspective: Color, color: Color, role: Role, sq: Square) -> usize {
    let (theirs, square) = match perspective {
        Color::White => (color != perspective, sq.index()),
        Color::Black => (color != perspective, sq.index() ^ 56),
    };
    usize::from(theirs) * 384 + role.index() * 64 + square
}

/// Every active input of `pos` from `perspective`.
pub fn active_inputs(pos: &Position, perspective: Color, mut visit: impl FnMut(usize)) {
    for color in Color::ALL {
        for role in Role::ALL {
            for sq in pos.pieces(color, role) {
                visit(input_index(perspective, color, role, sq));
            }
        }
    }
}

/// A network file of the wrong shape.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkFileError {
    pub len: usize,
    pub hidden: u32,
}

impl std::fmt::Display for NetworkFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "a network file of {} bytes with {} hidden units; expected {FILE_LEN} bytes and \
             {HIDDEN} units",
            self.len, self.hidden
        )
    }
}

impl std::error::Error for NetworkFileError {}

impl Network {
    /// Reads a network file (the built-in one is checked when the crate builds).
    ///
    /// # Errors
    /// [`NetworkFileError`] when its size or width is not this build's.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkFileError> {
        let word = |at: usize| {
            bytes
                .get(at..at + 4)
                .map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let hidden = word(0);
        if bytes.len() != FILE_LEN || hidden as usize != HIDDEN {
            return Err(NetworkFileError {
                len: bytes.len(),
                hidden,
            });
        }
        let mut values = bytes[HEADER_LEN..FILE_LEN - 4 * BUCKETS]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]));
        let mut next = || values.next().unwrap_or(0);
        let mut input = vec![[0i16; HIDDEN]; INPUTS];
        for row in &mut input {
            row.iter_mut().for_each(|w| *w = next());
        }
        let mut bias = [0i16; HIDDEN];
        bias.iter_mut().for_each(|b| *b = next());
        let mut output = vec![[0i16; 2 * HIDDEN]; BUCKETS];
        for row in &mut output {
            row.iter_mut().for_each(|w| *w = next());
        }
        let mut output_bias = [0i32; BUCKETS];
        for (b, o) in output_bias.iter_mut().enumerate() {
            *o = word(FILE_LEN - 4 * (BUCKETS - b)) as i32;
        }
        Ok(Network {
            input,
            bias,
            output,
            output_bias,
        })
    }

    /// The hidden sums of `pos` from both perspectives (White's first), from scratch.
    fn refresh(&self, pos: &Position) -> Sums {
        let mut sums = [self.bias; 2];
        for (perspective, acc) in Color::ALL.into_iter().zip(&mut sums) {
            active_inputs(pos, perspective, |i| add_row(acc, &self.input[i]));
        }
        sums
    }

    /// The output for the side to move from the hidden sums.
    fn output(&self, sums: &Sums, us: Color, pieces: u32) -> i32 {
        let (ours, theirs) = match us {
            Color::White => (&sums[0], &sums[1]),
            Color::Black => (&sums[1], &sums[0]),
        };
        let b = bucket(pieces);
        let (w_ours, w_theirs) = self.output[b].split_at(HIDDEN);
        let sum = i64::from(self.output_bias[b])
            + i64::from(dot(ours, w_ours))
            + i64::from(dot(theirs, w_theirs));
        let cp = sum * i64::from(SCALE) / i64::from(QA * QB);
        cp.clamp(i64::from(-LIMIT), i64::from(LIMIT)) as i32
    }

    /// The evaluation of `pos` for the side to move, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos), pos.turn(), pos.occupied().count())
    }
}

/// Hidden sums per perspective (White's, Black's). Wrapping: a sum updated move by move is
/// then always the one computed from scratch, whatever the order, and never panics; the
/// trainer's weight clip keeps a real network's sums inside i16, where they are exact.
type Sums = [[i16; HIDDEN]; 2];

// One half's products fit in i32 whatever the weights: the clipped sums are at most QA.
const _: () = assert!(HIDDEN as i64 * QA as i64 * 32_768 <= i32::MAX as i64);

/// The clipped hidden sums times the output weights, in the integer form SIMD multiplies
/// fastest (i16 × i16 added pairwise into i32).
#[inline]
fn dot(sums: &[i16; HIDDEN], weights: &[i16]) -> i32 {
    sums.iter()
        .zip(weights)
        .map(|(a, w)| i32::from((*a).clamp(0, QA as i16)) * i32::from(*w))
        .sum()
}

#[inline]
fn add_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_add(*w);
    }
}

#[inline]
fn sub_row(acc: &mut [i16; HIDDEN], row: &[i16; HIDDEN]) {
    for (a, w) in acc.iter_mut().zip(row) {
        *a = a.wrapping_sub(*w);
    }
}

/// The 12 piece sets of a position (colour-major, as [`input_index`] orders them).
type Placement = [u64; 12];

fn placement(pos: &Position) -> Placement {
    let mut p = [0u64; 12];
    for (c, color) in Color::ALL.into_iter().enumerate() {
        for (r, role) in Role::ALL.into_iter().enumerate() {
            p[c * 6 + r] = pos.pieces(color, role).0;
        }
    }
    p
}

fn distance(a: &Placement, b: &Placement) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}

/// One position's sums, kept for the next evaluation near it.
#[derive(Clone)]
struct Slot {
    /// Whether the slot holds a position yet.
    filled: bool,
    placement: Placement,
    sums: Sums,
}

/// Evaluates search positions incrementally: the sums of the positions last evaluated at
/// each ply are kept, and a new position's come from its parent's (or its last sibling's) by
/// the few inputs a move changes instead of all of them. The result is exactly
/// [`Network::evaluate`]'s.
pub struct Accumulators {
    slots: Vec<Slot>,
}

impl Accumulators {
    /// Room for `plies` plies (deeper ones are evaluated from scratch).
    pub fn new(plies: usize) -> Accumulators {
        let empty = Slot {
            filled: false,
            placement: [0; 12],
            sums: [[0; HIDDEN]; 2],
        };
        Accumulators {
            slots: vec![empty; plies],
        }
    }

    /// The built-in network's evaluation of `pos`, reached at `ply` of the search.
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        self.evaluate_with(network(), pos, ply)
    }

    /// `net`'s evaluation of `pos`, reached at `ply` of the search.
    pub fn evaluate_with(&mut self, net: &Network, pos: &Position, ply: usize) -> i32 {
        if ply >= self.slots.len() {
            return net.evaluate(pos);
        }
        let target = placement(pos);
        let (before, rest) = self.slots.split_at_mut(ply);
        let slot = &mut rest[0];
        let parent = before.last().filter(|s| s.filled);
        // The nearer of this ply's last position and the parent, if near enough that
        // updating beats refreshing (a refresh adds one row per piece).
        let pieces: u32 = target.iter().map(|b| b.count_ones()).sum();
        let here = slot.filled.then(|| distance(&slot.placement, &target));
        let from_parent = parent.map(|p| distance(&p.placement, &target));
        match (here, from_parent) {
            (Some(h), p) if h < pieces && p.is_none_or(|p| h <= p) => update(net, slot, &target),
            (_, Some(p)) if p < pieces => {
                if let Some(parent) = parent {
                    slot.placement = parent.placement;
                    slot.sums = parent.sums;
                }
                update(net, slot, &target);
            }
            _ => {
                slot.placement = target;
                slot.sums = net.refresh(pos);
            }
        }
        slot.filled = true;
        net.output(&slot.sums, pos.turn(), pieces)
    }
}

/// Moves `slot`'s sums from its placement to `target`'s.
fn update(net: &Network, slot: &mut Slot, target: &Placement) {
    for (set, (&from, &to)) in slot.placement.iter().zip(target).enumerate() {
        if from == to {
            continue;
        }
        let color = Color::ALL[set / 6];
        let role = Role::ALL[set % 6];
        for (perspective, acc) in Color::ALL.into_iter().zip(&mut slot.sums) {
            for sq in crate::bitboard::Bitboard(from & !to) {
                sub_row(acc, &net.input[input_index(perspective, color, role, sq)]);
            }
            for sq in crate::bitboard::Bitboard(to & !from) {
                add_row(acc, &net.input[input_index(perspective, color, role, sq)]);
            }
        }
    }
    slot.placement = *target;
}

/// The built-in network, read once.
pub fn network() -> &'static Network {
    static NETWORK: std::sync::OnceLock<Network> = std::sync::OnceLock::new();
    NETWORK.get_or_init(|| Network::from_bytes(FILE).expect("checked when the crate builds"))
}

/// The network's evaluation of `pos` for the side to move, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    network().evaluate(pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_of_another_shape_is_refused() {
        assert!(Network::from_bytes(FILE).is_ok());
        let err = Network::from_bytes(&FILE[..FILE_LEN - 1]).err();
        assert_eq!(err.map(|e| e.len), Some(FILE_LEN - 1));
        let mut wider = FILE.to_vec();
        wider[0] = wider[0].wrapping_add(1);
        assert!(Network::from_bytes(&wider).is_err());
        assert!(Network::from_bytes(&[]).is_err());
    }

    #[test]
    fn extreme_weights_stay_inside_the_limit() {
        // Every weight at its largest: sums wrap, the evaluation is clamped, nothing panics,
        // and move-by-move sums still equal the ones from scratch.
        let mut file = FILE.to_vec();
        for pair in file[HEADER_LEN..FILE_LEN - 4 * BUCKETS].chunks_exact_mut(2) {
            pair.copy_from_slice(&i16::MAX.to_le_bytes());
        }
        for word in file[FILE_LEN - 4 * BUCKETS..].chunks_exact_mut(4) {
            word.copy_from_slice(&i32::MAX.to_le_bytes());
        }
        let net = Network::from_bytes(&file).expect("same shape");
        let mut acc = Accumulators::new(8);
        let mut pos = Position::startpos();
        for (ply, uci) in ["e2e4", "d7d5", "e4d5", "d8d5"].into_iter().enumerate() {
            let full = net.evaluate(&pos);
            assert!(full.abs() <= LIMIT, "{full}");
            assert_eq!(acc.evaluate_with(&net, &pos, ply), full);
            let mv = pos.parse_uci_move(uci).expect("legal");
            pos.play_unchecked(mv);
        }
    }

    /// A small deterministic generator for the random walks below.
    fn next(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn incremental_sums_are_the_sums_from_scratch() {
        // Random walks down and back up a search path: each position evaluated at its ply,
        // after its parent, a sibling, a position far away, or nothing at that ply.
        let net = network();
        let mut acc = Accumulators::new(6);
        let mut seed = 0x9E37_79B9_7F4A_7C15;
        let mut checked = 0;
        for _ in 0..300 {
            let mut pos = Position::startpos();
            let mut path = vec![pos];
            for _ in 0..(next(&mut seed) % 40) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[(next(&mut seed) % moves.len() as u64) as usize]);
                path.push(pos);
            }
            // Evaluate a stretch of the path at shifted plies (beyond the room too).
            let shift = (next(&mut seed) % 4) as usize;
            for (ply, p) in path.iter().enumerate().skip(path.len().saturating_sub(9)) {
                let at = (ply + shift) % 9;
                assert_eq!(acc.evaluate(p, at), net.evaluate(p), "{}", p.to_fen());
                checked += 1;
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn inputs_mirror_between_the_sides() {
        // White's knight on g1 seen by White is Black's knight on g8 seen by Black.
        let white = input_index(Color::White, Color::White, Role::Knight, Square::G1);
        let black = input_index(Color::Black, Color::Black, Role::Knight, Square::G8);
        assert_eq!(white, black);
        assert_eq!(white, Role::Knight.index() * 64 + 6);
        let theirs = input_index(Color::White, Color::Black, Role::Knight, Square::G8);
        assert_eq!(theirs, 384 + Role::Knight.index() * 64 + 62);
    }

    #[test]
    fn a_symmetric_position_is_the_same_for_either_side_to_move() {
        let white =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
        let black =
            Position::from_fen("rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR b KQkq - 2 3");
        let (Ok(white), Ok(black)) = (white, black) else {
            panic!("FEN")
        };
        assert_eq!(evaluate(&white), evaluate(&black));
    }

    #[test]
    fn material_counts() {
        // A queen up is far better than level, whoever is to move: more than 4 pawns on the
        // engine's scale, about 7 on lichess's (×1.72).
        let fen = |f: &str| Position::from_fen(f).expect("FEN");
        let level = fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        for queen_up in [
            fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1"),
        ] {
            assert!(
                evaluate(&queen_up) > evaluate(&level) + 400,
                "{}",
                queen_up.to_fen()
            );
        }
    }
}
