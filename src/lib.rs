//! ChessPI, the kiosk app, as a library: `main.rs` is a thin wrapper, and the integration
//! tests drive the same code headless.

#![cfg_attr(not(test), deny(clippy::unwrap_used))]

pub mod app;
pub mod battery;
pub mod cli;
pub mod config;
pub mod i18n;
pub mod lan;
pub mod power;
pub mod sound;
pub mod storage;
pub mod text;
pub mod wifi;
