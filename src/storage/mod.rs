//! Files the app keeps: where they live and how they are written without ever being torn.

pub mod atomic;
pub mod autosave;
pub mod dirs;
pub mod quarantine;
pub mod timestamp;

pub use atomic::write_atomic;
pub use autosave::{AutosaveError, AutosaveStore, Clocks, GameMode, LoadOutcome, SavedGame};
pub use dirs::{StateDirError, resolve_state_dir, state_dir};
