//! ChessPI, the kiosk app, as a library: `main.rs` is a thin wrapper, and the integration
//! tests drive the same code headless.

#![cfg_attr(not(test), deny(clippy::unwrap_used))]
// A cut of text by byte index panics inside a character (one such cut of a PGN tag from a
// stick aborted the app): text is cut with `get`, `split_once`, `strip_prefix` and the like.
#![cfg_attr(not(test), deny(clippy::string_slice))]

pub mod app;
pub mod battery;
pub mod cli;
pub mod config;
#[cfg(test)]
mod doc_paths;
pub mod i18n;
pub mod lan;
pub mod power;
pub mod sound;
pub mod storage;
pub mod text;
pub mod wifi;
