//! LAN play: two ChessPIs play one game over TCP (protocol v1, docs/PROTOCOL.md).
//!
//! - [`codec`]: bytes <-> messages, no I/O (the fuzz target's entry point).
//! - [`session`]: the state machine of one side, driven by messages and ticks.
//! - [`net`]: the network threads; the app talks to them through [`net::LanHandle`].
//! - [`discovery`]: DNS-SD `_chesspi._tcp` adverts and browsing.
//!
//! No Slint types here: the app polls [`net::LanHandle`] when its wake callback rings.

pub mod codec;
pub mod discovery;
pub mod net;
pub mod random;
pub mod session;
