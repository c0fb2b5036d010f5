//! ChessPI's chess engine: rules, notation, perft (and, later, search).
//!
//! The crate knows nothing of the UI, files or hardware. Every parser returns a typed error
//! and never panics.

#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod attacks;
pub mod bitboard;
pub mod fen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod types;
mod zobrist;

pub use bitboard::Bitboard;
pub use fen::FenError;
pub use moves::{Move, MoveKind, MoveList};
pub use position::{CastlingRights, CastlingSide, IllegalMoveError, Position};
pub use types::{Color, File, Piece, Rank, Role, Square};
