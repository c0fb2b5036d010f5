//! Portable Game Notation: writing games and reading the main line of real-world files.
