//! Saved games: the list's rows, and looking through a saved game in place of the current one.

pub mod import;
pub mod list;
#[cfg(test)]
mod tests;
pub mod viewing;
