//! Idle dimming, the backlight, the power key and shutdown.
//!
//! [`PowerWatcher::start`] runs everything on background threads; the pure idle logic is in
//! [`idle`] and tested with made-up instants.

pub mod backlight;
pub mod idle;
pub mod input;
pub mod shutdown;
pub mod watcher;

pub use backlight::{Backlight, SysfsBacklight};
pub use idle::{IdleSettings, IdleTimer, InputEvent, InputOutcome, ScreenState};
pub use shutdown::{ShutdownCommand, ShutdownError};
pub use watcher::{InputSender, PowerEvent, PowerSettings, PowerWatcher, TouchGate};
