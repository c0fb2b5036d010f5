//! The game session: the game on the board and how it is played ([`game`]), how it goes on
//! after each change ([`turns`]), what the player does to it mid-game ([`actions`]: the
//! level, the sides, a result), what the computer is asked and answers ([`thinking`]), the
//! coach ([`coach`]), the clocks ([`clocks`]), the network partner, the player's puzzles
//! ([`player`]), the analysis's marks. Screens use it; it knows no screen.

pub mod actions;
pub mod assist;
pub mod assisting;
pub mod clocks;
pub mod coach;
pub mod effect;
pub mod game;
pub mod marks;
pub mod partner;
pub mod player;
pub mod thinking;
pub mod turns;
