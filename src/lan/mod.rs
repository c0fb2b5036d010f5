//! LAN play: two ChessPIs play one game over TCP (protocol v1, docs/PROTOCOL.md).
//!
//! - [`codec`]: bytes <-> messages, no I/O (the fuzz target's entry point).
//! - [`session`]: the state machine of one side, driven by messages and ticks.
//! - [`net`]: the network threads; the app talks to them through [`net::LanHandle`].
//! - [`discovery`]: DNS-SD `_chesspi._tcp` adverts and browsing.
//!
//! No Slint types here. The app builds a [`session::Session`] (`host`, `guest`, or
//! `restore_*` from a [`session::SavedGame`]), hands it to [`net::LanHandle::host`] or
//! [`net::LanHandle::join`] with a wake callback, sends commands (`play`, `offer`, `answer`,
//! `resign`, `leave`) and, when woken, drains [`net::LanEvent`]s on its own thread. Nothing
//! there blocks: the UI thread never waits on the network.

pub mod codec;
pub mod discovery;
pub mod net;
pub mod random;
pub mod secret;
pub mod session;
