//! Battery.
