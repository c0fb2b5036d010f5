//! The partner of a network game, as the app knows it, and what the player asks of that game.

use crate::lan::codec::OfferKind;
use crate::lan::session::LinkState;
use crate::storage::LanLink;
use chesspi_engine::Move;
use std::time::Instant;

/// What the player asks of the network game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LanRequest {
    Play(Move),
    Offer(OfferKind),
    Answer {
        accept: bool,
    },
    Resign,
    /// Our time ran out (timed games).
    Flag,
    /// The partner has been away long enough: we win by forfeit.
    ClaimForfeit,
}

/// The partner not connected: since when, and whether for long enough
/// (`lan.adjourn_after_seconds`) that the player may adjourn the game or claim the win.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Away {
    pub since: Instant,
    pub long_enough: bool,
}

impl Away {
    pub fn now() -> Away {
        Away {
            since: Instant::now(),
            long_enough: false,
        }
    }
}

/// The partner of a network game, as this screen knows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partner {
    pub name: String,
    pub link: LinkState,
    /// Our offer waiting for the partner's answer.
    pub our_offer: Option<OfferKind>,
    /// How to find the partner again after a restart (saved with the game).
    pub resume: LanLink,
    /// The partner not connected (`None` while connected).
    pub away: Option<Away>,
}
