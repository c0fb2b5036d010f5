//! What a session tells the app and the network layer, and why a local action fails.

use super::LanClock;
use crate::lan::codec::{ErrorCode, Message, OfferKind, PlayerRating};
use chesspi_engine::game::{Game, Outcome};
use chesspi_engine::{Color, Move};
use std::fmt;
use std::time::Duration;

use super::ConnId;

/// What the app is told.
#[derive(Debug, Clone)]
pub enum Event {
    Link(LinkState),
    /// A new game began with a partner: the app shows `game` with `local` at the bottom.
    Paired {
        /// The partner's player's name when it sent one, else its device's.
        partner: String,
        /// The partner's rating before the game (`None`: an older peer or a guest of its
        /// device: the game is unrated).
        partner_rating: Option<PlayerRating>,
        local: Color,
        /// What resumes the game: a [`crate::lan::secret::ResumeKey`] as a string, the game
        /// id and its secret. To save on the device, never to show or export.
        game_id: String,
        game: Game,
        /// The clocks, in a timed game (the host's choice).
        clock: Option<LanClock>,
    },
    /// Guest: the host's clocks after a reconnect (`None`: the game is untimed); they
    /// replace ours, which stood still while the link was down.
    Clock(Option<LanClock>),
    /// After a reconnect the game was replaced by the agreed one (e.g. the partner's move
    /// that was in flight); the app shows `game`.
    Resynced {
        game: Game,
    },
    /// The partner played `mv` as half-move `ply` (0-based).
    PartnerMoved {
        ply: u32,
        mv: Move,
        /// The partner's time left after the move, as its device says (only advice: the
        /// app checks it against its own clock).
        clock: Option<Duration>,
    },
    /// The partner confirmed our move `ply`.
    Acked {
        ply: u32,
    },
    /// The partner refused our move `ply`; it was taken back locally.
    MoveRejected {
        ply: u32,
        code: ErrorCode,
        text: String,
    },
    /// The partner asks for a draw or a takeback: answer with [`Session::answer`].
    OfferReceived(OfferKind),
    /// The partner answered our offer.
    OfferAnswered {
        what: OfferKind,
        accept: bool,
    },
    /// Offers pending on either side were dropped with the link.
    OffersCleared,
    /// The game was cut back to `ply` half-moves by an accepted takeback.
    TakenBack {
        ply: u32,
    },
    /// The game ended (resignation, agreed draw, or the result the host reported).
    GameOver(Outcome),
    /// The partner said bye.
    PartnerLeft,
    /// The host refused us (guest only); the session is closed.
    Refused {
        code: ErrorCode,
        text: String,
    },
    /// A guest gave a wrong code (host only).
    WrongCode {
        attempts: u32,
    },
    /// After too many wrong codes the host made a new one (host only).
    CodeChanged(String),
    /// The partner complained about something we sent (for the log).
    PeerError {
        code: ErrorCode,
        text: String,
    },
}

/// What the session asks of the network layer and the app.
#[derive(Debug, Clone)]
pub enum Output {
    Send(ConnId, Message),
    /// Close this connection (after sending what was queued before).
    Close(ConnId),
    Event(Event),
}

/// Why a local action was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LocalError {
    /// No partner yet.
    NotPaired,
    /// Offers need the partner on the line.
    NotConnected,
    GameOver,
    NotYourTurn,
    IllegalMove,
    /// We already have an offer waiting for its reply.
    OfferPending,
    /// There is no offer from the partner to answer.
    NoOffer,
    /// A takeback needs a move of ours to take back.
    NothingToTakeBack,
    /// The session was closed (bye or refusal).
    Closed,
    /// A forfeit is claimed only against a partner who is not connected.
    PartnerConnected,
    /// A forfeit is claimed only once the partner has been away long enough.
    TooSoon,
}

impl fmt::Display for LocalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LocalError::NotPaired => "no partner yet",
            LocalError::NotConnected => "the partner is not connected",
            LocalError::GameOver => "the game is over",
            LocalError::NotYourTurn => "it is not your turn",
            LocalError::IllegalMove => "the move is not legal",
            LocalError::OfferPending => "an offer is already waiting for an answer",
            LocalError::NoOffer => "there is no offer to answer",
            LocalError::NothingToTakeBack => "there is no move to take back",
            LocalError::Closed => "the network game is closed",
            LocalError::PartnerConnected => "the partner is connected",
            LocalError::TooSoon => "the partner has not been away long enough",
        })
    }
}

impl std::error::Error for LocalError {}

/// The connection to the partner, as the status bar shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkState {
    /// No partner yet (host waiting, guest before the first welcome).
    Waiting,
    /// Handshake done, messages flow.
    Connected,
    /// The link dropped or went silent; the host waits, the guest will retry.
    Lost,
    /// The guest is trying to reach the host again.
    Reconnecting,
    /// Over for good: bye, refusal, or left.
    Closed,
}
