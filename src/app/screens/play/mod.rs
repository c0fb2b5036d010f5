//! The game screen: the board's taps and drags, the side panel's buttons, the computer's
//! thinking (and its worker thread), the clocks, and the words the screen shows.

pub mod board;
pub mod buttons;
pub mod present;
#[cfg(test)]
mod tests;
pub mod thinking;
pub mod timing;
pub mod view;
