//! The analysis evaluation: a small neural network (768 inputs per side → [`HIDDEN`] → 1),
//! trained on positions labelled by Stockfish's searches (`engine/examples/nnue.rs`,
//! docs/BENCHMARKS.md "The analysis network"). Analysis uses it to judge moves; play keeps
//! the hand-written evaluation its levels are calibrated with.
//!
//! Inputs: one per (piece colour relative to the perspective, role, square seen from that
//! side), both perspectives sharing the weights. The hidden layer is clipped to 0..=1 ([`QA`]
//! in integers) and the output is centipawns for the side to move on the hand-written
//! evaluation's scale (trained through the analysis model's ×1.72 to Stockfish's, then
//! calibrated against Stockfish), so the search's margins and the model hold for both.
//!
//! The weights are integers in `analysis.nnue` (little-endian): `HIDDEN` as u32, the input
//! weights (i16, 768 × HIDDEN, by input), the hidden biases (i16), the output weights (i16,
//! 2 × HIDDEN: side to move's half first) and the output bias (i32, in `QA * QB` units).

use crate::position::Position;
use crate::types::{Color, Role, Square};

/// Hidden units per perspective.
pub const HIDDEN: usize = 128;
/// Inputs per perspective: 2 colours × 6 roles × 64 squares.
pub const INPUTS: usize = 768;
/// The integer that stands for 1.0 in the hidden layer.
pub const QA: i32 = 255;
/// The integer that stands for 1.0 in the output weights.
pub const QB: i32 = 64;
/// The output (1.0) in centipawns.
pub const SCALE: i32 = 400;
/// The largest evaluation, well inside the search's mate scores whatever the weights.
pub const LIMIT: i32 = 20_000;

const FILE: &[u8] = include_bytes!("analysis.nnue");
const HEADER_LEN: usize = 4;
const FILE_LEN: usize = HEADER_LEN + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
// A network of another shape must not build.
const _: () = assert!(FILE.len() == FILE_LEN);
const _: () = assert!(u32::from_le_bytes([FILE[0], FILE[1], FILE[2], FILE[3]]) as usize == HIDDEN);

/// The network's integer weights.
pub struct Network {
    input: Vec<[i16; HIDDEN]>,
    bias: [i16; HIDDEN],
    output: [i16; 2 * HIDDEN],
    output_bias: i32,
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
        let mut values = bytes[HEADER_LEN..FILE_LEN - 4]
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]));
        let mut next = || values.next().unwrap_or(0);
        let mut input = vec![[0i16; HIDDEN]; INPUTS];
        for row in &mut input {
            row.iter_mut().for_each(|w| *w = next());
        }
        let mut bias = [0i16; HIDDEN];
        bias.iter_mut().for_each(|b| *b = next());
        let mut output = [0i16; 2 * HIDDEN];
        output.iter_mut().for_each(|w| *w = next());
        Ok(Network {
            input,
            bias,
            output,
            output_bias: word(FILE_LEN - 4) as i32,
        })
    }

    fn accumulate(&self, pos: &Position, perspective: Color) -> [i16; HIDDEN] {
        let mut acc = self.bias;
        active_inputs(pos, perspective, |i| {
            // Saturating: no overflow whatever a file holds (32 pieces of the trained weights
            // stay far inside i16).
            for (a, w) in acc.iter_mut().zip(&self.input[i]) {
                *a = a.saturating_add(*w);
            }
        });
        acc
    }

    /// The evaluation of `pos` for the side to move, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let us = pos.turn();
        let ours = self.accumulate(pos, us);
        let theirs = self.accumulate(pos, !us);
        let (w_ours, w_theirs) = self.output.split_at(HIDDEN);
        let mut sum = i64::from(self.output_bias);
        for (a, w) in ours.iter().zip(w_ours) {
            sum += i64::from(i32::from(*a).clamp(0, QA) * i32::from(*w));
        }
        for (a, w) in theirs.iter().zip(w_theirs) {
            sum += i64::from(i32::from(*a).clamp(0, QA) * i32::from(*w));
        }
        let cp = sum * i64::from(SCALE) / i64::from(QA * QB);
        cp.clamp(i64::from(-LIMIT), i64::from(LIMIT)) as i32
    }
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
        // Every weight at its largest: sums saturate, the evaluation is clamped, nothing panics.
        let mut file = FILE.to_vec();
        for pair in file[HEADER_LEN..FILE_LEN - 4].chunks_exact_mut(2) {
            pair.copy_from_slice(&i16::MAX.to_le_bytes());
        }
        file[FILE_LEN - 4..].copy_from_slice(&i32::MAX.to_le_bytes());
        let net = Network::from_bytes(&file).expect("same shape");
        let pos = Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
            .expect("FEN");
        assert_eq!(net.evaluate(&pos), LIMIT);
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
        let level = Position::from_fen("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1");
        let queen = Position::from_fen("3qk3/pppppppp/8/8/8/8/PPPPPPPP/4K3 b - - 0 1");
        let (Ok(level), Ok(queen)) = (level, queen) else {
            panic!("FEN")
        };
        assert!(evaluate(&queen) > evaluate(&level) + 400);
    }
}
