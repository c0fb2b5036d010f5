//! Saved games: the list's rows, an import's words, and looking through a saved game in place
//! of the current one (the controller's [`viewing::Viewing`] part).

pub mod import;
pub mod list;
#[cfg(test)]
mod tests;
pub mod viewing;
