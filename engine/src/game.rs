//! A game: start position, moves, result and its reason, with takeback.
