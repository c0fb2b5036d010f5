//! The kiosk app, in layers that depend one way (see docs/ARCHITECTURE.md):
//! - [`model`]: what a game is set up as and its clocks — plain data, no screen;
//! - [`screens`]: one folder per screen or feature, each with its state, its logic on the
//!   [`screens::Controller`] and its view adapter (Slint models);
//! - [`notices`] and [`saving`]: the status bar's notices and the saver thread;
//! - [`shell`]: the window's event loop — callbacks in, effects out, nothing of a feature;
//! - [`boot`]: start-up — config, restore, display, signals, headless rendering.

pub mod boot;
#[cfg(test)]
mod import_rules;
pub mod model;
pub mod notices;
pub mod saving;
pub mod screens;
pub mod session;
pub mod shell;
pub mod workers;

/// The Slint screens compiled from `ui/`.
#[allow(clippy::all, clippy::unwrap_used)]
pub mod ui {
    slint::include_modules!();
}

pub use boot::start::{initial_game, run};
pub use shell::{App, AppError, apply_language};
