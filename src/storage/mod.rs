//! Files the app keeps: where they live and how they are written without ever being torn.

pub mod atomic;
pub mod dirs;

pub use atomic::write_atomic;
pub use dirs::{StateDirError, resolve_state_dir, state_dir};
