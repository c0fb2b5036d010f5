//! The game session: what a game on the board is made of beyond its moves — what the computer
//! is asked and answers, the network partner, the analysis's marks, what the player does to
//! it mid-game (`actions.rs`: the level, the sides, a result). Screens use it; it knows no
//! screen.

pub mod actions;
pub mod effect;
pub mod game;
pub mod marks;
pub mod partner;
pub mod player;
pub mod thinking;
