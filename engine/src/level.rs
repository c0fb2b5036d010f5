//! Playing levels 1..10 with their measured Elo.
