//! What a game is set up as (who plays which side, at which level) and its clocks: plain
//! data that every screen, the saver and start-up share.

pub mod clock;
pub mod mode;
pub mod settings;
