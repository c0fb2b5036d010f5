//! Start-up: the config, the restored game, the display, the signals, the device's services;
//! and headless rendering for screenshots and tests.

pub mod display;
pub mod headless;
pub mod options;
pub mod screenshot;
pub mod signals;
pub mod start;
