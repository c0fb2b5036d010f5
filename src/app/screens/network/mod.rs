//! Network play: finding a partner (the lobby and its keypad), the game with them (moves,
//! offers, reconnects), the shared clock, and the LAN session that carries it all.

pub mod clock;
pub mod hotspot;
pub mod lan;
pub mod lobby;
pub mod partner;
#[cfg(test)]
mod tests;
