//! How a session is set up: its side, its pairing code, its timers.

use std::time::Duration;

/// Heartbeat and flood limits. The defaults are the protocol's; tests shorten them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timing {
    /// A ping is sent after this long without one.
    pub ping_every: Duration,
    /// A connection silent this long is lost and closed (also bounds the handshake).
    pub lost_after: Duration,
    /// Host: a connection without its `hello` this long after opening is closed (at most
    /// `lost_after`): a stranger's idle socket holds a place only briefly.
    pub hello_within: Duration,
    /// Host: after a wrong code, no code from that address is looked at for this long,
    /// doubled with each further wrong code from there (up to 64 times).
    pub wrong_code_wait: Duration,
    /// More than this many lines within `flood_window` closes the connection.
    pub flood_limit: usize,
    pub flood_window: Duration,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            ping_every: Duration::from_secs(1),
            lost_after: Duration::from_secs(4),
            hello_within: Duration::from_secs(2),
            wrong_code_wait: Duration::from_secs(1),
            flood_limit: 50,
            flood_window: Duration::from_secs(1),
        }
    }
}

/// Which end of the game this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Host,
    Guest,
}

/// The host's pairing code choice (config `lan.code`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodeChoice {
    /// A new random code each session, and after 5 wrong attempts.
    Random,
    /// Always this code (4 digits).
    Fixed(String),
}
