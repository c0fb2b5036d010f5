//! Idle dimming, backlight, the power key and shutdown.

pub mod shutdown;

pub use shutdown::{ShutdownCommand, ShutdownError};
