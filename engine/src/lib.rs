//! ChessPI's chess engine: rules, notation, perft, search and levels.
//!
//! The crate knows nothing of the UI, files or hardware. Every parser returns a typed error
//! and never panics.

#![cfg_attr(not(test), deny(clippy::unwrap_used))]
// A cut of text by byte index panics inside a character (one such cut of a PGN tag from a
// stick aborted the app): text is cut with `get`, `split_once`, `strip_prefix` and the like.
#![cfg_attr(not(test), deny(clippy::string_slice))]

pub mod analysis;
pub mod attacks;
pub mod bitboard;
pub mod coach;
pub mod endgame;
pub mod eval;
pub mod fen;
pub mod game;
pub mod level;
pub mod moves;
pub mod multipv;
pub mod openings;
pub mod perft;
pub mod pgn;
pub mod position;
pub mod san;
pub mod search;
pub mod types;
pub mod uci;
pub mod uci_move;
mod zobrist;

pub use bitboard::Bitboard;
pub use fen::FenError;
pub use moves::{Move, MoveKind, MoveList};
pub use pgn::{GameResult, PgnError, PgnGame};
pub use position::{
    CastlingRights, CastlingSide, IllegalMoveError, Position, PositionError, Setup,
};
pub use san::{ParseSanError, San, SanError};
pub use types::{Color, File, Piece, Rank, Role, Square};
pub use uci_move::UciMoveError;
