//! Network play: finding a partner (the lobby and its keypad, a hotspot without a router),
//! the game with them ([`partner::PartnerGame`]: moves, offers, reconnects, adjourning), and
//! clocks brought back for a game played on. The LAN session that carries it all is the
//! shell's (`shell/lan.rs`); the network game's clocks and what every screen may ask of it
//! are the session's ([`crate::app::session::partner`]).

pub mod clock;
pub mod hotspot;
pub mod lobby;
pub mod partner;
#[cfg(test)]
mod tests;
