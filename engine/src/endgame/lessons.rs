//! Endgame lessons.
