//! Search: iterative deepening PVS with a transposition table.
