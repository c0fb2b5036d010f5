//! The coach during a game, as the screen shows it. What the coach knows and does (each move
//! of a person at the board judged before the computer answers, the warning and its choices,
//! the threat looked for) is the game session's (`session/coach.rs`, `session/turns.rs`);
//! here is its view: the warning's card, the marked squares and the arrows (`view.rs`).

#[cfg(test)]
mod tests;
pub mod view;
