//! The partner of a network game, as the app knows it, and what the player asks of that game.
//! What the game on the board allows with a partner, every screen may ask ([`rules`]); its
//! clocks run on both devices ([`clock`]). The network screen's `PartnerGame` carries out the
//! rest.

pub mod clock;
pub mod rules;

use crate::lan::codec::OfferKind;
use crate::lan::session::{LanClock, LinkState};
use crate::storage::LanLink;
use chesspi_engine::{Color, Move};
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

/// What the shell must do for the lobby.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkEffect {
    /// Offer a game, this device playing `local`, with clocks when `clock` is set.
    Host {
        local: Color,
        clock: Option<crate::app::model::clock::TimeControl>,
    },
    /// Look for hosts nearby (their list comes back through `Lobby::found`).
    Browse,
    /// Join the host at `target` (`HOST:PORT`) with its pairing code.
    Join {
        target: String,
        name: String,
        code: String,
    },
    /// Stop hosting, browsing or joining.
    Cancel,
    /// Stop the network game without a goodbye: it was adjourned and can be played on later.
    Adjourn,
}

/// What the network game is asked for by a screen that cannot name it (the menu, the side
/// panel, the lobby), or its next step once a new game took the board: carried out by the
/// network screen's `PartnerGame` (through `Go::Partner`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PartnerStep {
    /// The player offers a draw or asks for a takeback.
    Offer(OfferKind),
    /// The player claims the win: the partner has been away long enough.
    ClaimForfeit,
    /// The player adjourns the game.
    Adjourn,
    /// A hotspot was opened or joined for the game being set up: it is left with the game.
    HotspotUp,
    /// The game just started is played with `partner`, timed by the host's `clock`.
    Joined {
        partner: Box<Partner>,
        clock: Option<LanClock>,
    },
    /// The game just started took the place of the adjourned one with `partner`.
    Adjourned { partner: String },
}
