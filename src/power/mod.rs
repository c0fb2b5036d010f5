//! Power.
