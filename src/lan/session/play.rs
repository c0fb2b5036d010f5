//! Moves, acks, offers and resignation, from the partner and from the local player.
//! Only a legal move in turn, an accepted offer or a resignation changes the game.

use super::{ConnId, Event, LocalError, MAX_CLOCK, Role, Session};
use crate::lan::codec::{ErrorCode, ErrorMsg, Message, OfferKind};
use chesspi_engine::Move;
use chesspi_engine::game::Game;
use std::time::Duration;

impl Session {
    /// Partner's move number `ply`.
    pub(super) fn on_move(&mut self, id: ConnId, ply: u32, uci: &str, clock: Option<u64>) {
        let count = self.ply_count();
        let partner = !self.local;
        if ply < count {
            // Already have it? Then the ack was lost: acknowledge again.
            let i = ply as usize;
            let before = &self.game.positions()[i];
            let same = before.turn() == partner
                && before
                    .parse_uci_move(uci)
                    .is_ok_and(|mv| self.game.moves().get(i) == Some(&mv));
            if same {
                self.send(id, Message::Ack { ply });
            } else {
                self.reject(id, ErrorCode::BadPly, ply, format!("we are at ply {count}"));
            }
            return;
        }
        if ply > count {
            self.reject(id, ErrorCode::BadPly, ply, format!("we are at ply {count}"));
            return;
        }
        if self.game.is_over() {
            self.reject(id, ErrorCode::IllegalMove, ply, "the game is over".into());
            return;
        }
        if self.game.position().turn() != partner {
            self.reject(id, ErrorCode::NotYourTurn, ply, "it is our move".into());
            return;
        }
        let mv = match self.game.position().parse_uci_move(uci) {
            Ok(mv) => mv,
            Err(e) => {
                self.reject(id, ErrorCode::IllegalMove, ply, e.to_string());
                return;
            }
        };
        if self.game.play(mv).is_err() {
            self.reject(id, ErrorCode::IllegalMove, ply, "not playable".into());
            return;
        }
        self.send(id, Message::Ack { ply });
        // A clock value means something only in a timed game, and is never above the limit.
        let clock = clock
            .filter(|_| self.clock.is_some())
            .map(Duration::from_millis)
            .filter(|&t| t <= MAX_CLOCK);
        if let (Some(c), Some(left)) = (self.clock.as_mut(), clock) {
            c.set_left(partner, left);
        }
        self.event(Event::PartnerMoved { ply, mv, clock });
        self.announce_end();
    }

    /// The partner's flag fell with `ply` half-moves played: it loses on time (a draw when
    /// we cannot mate), if that fits the game; otherwise nothing changes.
    pub(super) fn on_flag(&mut self, id: ConnId, ply: u32) {
        let count = self.ply_count();
        if ply != count {
            self.reject(id, ErrorCode::BadPly, ply, format!("we are at ply {count}"));
        } else if self.game.is_over() {
            self.reject(id, ErrorCode::IllegalMove, ply, "the game is over".into());
        } else if self.role == Role::Host && self.clock.is_none() {
            // The host decides the time control; a guest takes the host's flag even when it
            // plays untimed itself (it kept none of an odd control), so both games end alike.
            let text = "the game is untimed: no flag can fall".into();
            self.reject(id, ErrorCode::IllegalMove, ply, text);
        } else if self.game.position().turn() == self.local {
            self.reject(
                id,
                ErrorCode::NotYourTurn,
                ply,
                "our clock runs, not yours".into(),
            );
        } else if self.game.flag(!self.local).is_ok() {
            self.announce_end();
        }
    }

    fn reject(&mut self, id: ConnId, code: ErrorCode, ply: u32, text: String) {
        log::warn!("lan: partner's move {ply} refused: {code} {text}");
        self.send(
            id,
            Message::Error(ErrorMsg {
                code,
                ply: Some(ply),
                text,
            }),
        );
    }

    pub(super) fn on_ack(&mut self, ply: u32) {
        if self.unacked == Some(ply) {
            self.unacked = None;
            self.event(Event::Acked { ply });
        }
    }

    pub(super) fn on_offer(&mut self, id: ConnId, what: OfferKind) {
        let possible = !self.game.is_over()
            && (what == OfferKind::Draw || last_ply_of(&self.game, !self.local).is_some());
        if possible && self.their_offer.is_none() {
            self.their_offer = Some(what);
            self.event(Event::OfferReceived(what));
        } else if !possible || self.their_offer != Some(what) {
            // Declined at once: an offer that cannot be granted, or a second kind while one
            // waits (its sender must not wait for an answer that would never come). The same
            // offer again is the one already waiting.
            self.send(
                id,
                Message::Reply {
                    what,
                    accept: false,
                    ply: None,
                },
            );
        }
    }

    pub(super) fn on_reply(&mut self, id: ConnId, what: OfferKind, accept: bool, ply: Option<u32>) {
        if self.our_offer != Some(what) {
            let text = "no such offer is pending";
            self.send(id, Message::error(ErrorCode::BadMessage, text));
            return;
        }
        if accept && what == OfferKind::Takeback {
            // The cut must take back our last move (and the partner's answer to it, if
            // played) and leave us on move: anything else is refused.
            let count = self.ply_count();
            let Some(cut) = ply.filter(|&n| {
                n < count
                    && count - n <= 2
                    && self.game.positions()[n as usize].turn() == self.local
            }) else {
                self.send(
                    id,
                    Message::error(ErrorCode::BadMessage, "bad takeback ply"),
                );
                return;
            };
            self.our_offer = None;
            self.cut_to(cut);
            self.event(Event::OfferAnswered { what, accept });
            self.event(Event::TakenBack { ply: cut });
            return;
        }
        self.our_offer = None;
        self.event(Event::OfferAnswered { what, accept });
        if accept && what == OfferKind::Draw && self.game.agree_draw().is_ok() {
            self.announce_end();
        }
    }

    pub(super) fn on_resign(&mut self) {
        if self.game.resign(!self.local).is_ok() {
            self.announce_end();
        }
    }

    pub(super) fn on_peer_error(&mut self, id: ConnId, e: ErrorMsg) {
        let about_our_move = matches!(
            e.code,
            ErrorCode::BadPly | ErrorCode::NotYourTurn | ErrorCode::IllegalMove
        ) && e.ply.is_some()
            && e.ply == self.unacked;
        if about_our_move && let Some(ply) = e.ply {
            // The partner did not take it: drop it so both games stay the agreed moves.
            self.unacked = None;
            self.cut_to(ply);
            self.event(Event::MoveRejected {
                ply,
                code: e.code,
                text: e.text,
            });
            return;
        }
        log::warn!("lan: {id:?} reports {} {}", e.code, e.text);
        self.event(Event::PeerError {
            code: e.code,
            text: e.text,
        });
    }

    /// Undoes moves until `ply` remain.
    fn cut_to(&mut self, ply: u32) {
        while self.ply_count() > ply {
            if self.game.undo().is_none() {
                break;
            }
        }
        if self.unacked.is_some_and(|p| p >= ply) {
            self.unacked = None;
        }
    }

    pub(super) fn announce_end(&mut self) {
        if let Some(outcome) = self.game.outcome() {
            self.event(Event::GameOver(outcome));
        }
    }

    /// Plays the local player's move and sends it (now, or when the link is back).
    /// Returns its ply.
    ///
    /// # Errors
    /// Not paired, closed, game over, not our turn, or illegal.
    pub fn play(&mut self, mv: Move) -> Result<u32, LocalError> {
        self.play_timed(mv, None)
    }

    /// [`Session::play`] in a timed game: `left` is our time left after the move (increment
    /// included), sent with it.
    ///
    /// # Errors
    /// As [`Session::play`].
    pub fn play_timed(&mut self, mv: Move, left: Option<Duration>) -> Result<u32, LocalError> {
        self.check_open()?;
        if self.game.is_over() {
            return Err(LocalError::GameOver);
        }
        if self.game.position().turn() != self.local {
            return Err(LocalError::NotYourTurn);
        }
        self.game.play(mv).map_err(|_| LocalError::IllegalMove)?;
        let ply = self.ply_count() - 1;
        self.unacked = Some(ply);
        let left = left
            .filter(|_| self.clock.is_some())
            .map(|t| t.min(MAX_CLOCK));
        if let (Some(c), Some(t)) = (self.clock.as_mut(), left) {
            c.set_left(self.local, t);
        }
        self.send_active(Message::Move {
            ply,
            uci: mv.to_uci(),
            clock: left.map(|t| u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
        });
        self.announce_end();
        Ok(ply)
    }

    /// Offers a draw or asks for a takeback.
    ///
    /// # Errors
    /// Not connected, game over, an offer already pending, nothing to take back.
    pub fn offer(&mut self, what: OfferKind) -> Result<(), LocalError> {
        self.check_open()?;
        if self.active.is_none() {
            return Err(LocalError::NotConnected);
        }
        if self.game.is_over() {
            return Err(LocalError::GameOver);
        }
        if self.our_offer.is_some() {
            return Err(LocalError::OfferPending);
        }
        if what == OfferKind::Takeback && last_ply_of(&self.game, self.local).is_none() {
            return Err(LocalError::NothingToTakeBack);
        }
        self.our_offer = Some(what);
        self.send_active(Message::Offer { what });
        Ok(())
    }

    /// Answers the partner's offer.
    ///
    /// # Errors
    /// No offer pending (or it was cleared with the link).
    pub fn answer(&mut self, accept: bool) -> Result<(), LocalError> {
        self.check_open()?;
        let what = self.their_offer.take().ok_or(LocalError::NoOffer)?;
        let mut ply = None;
        let mut accept = accept && !self.game.is_over();
        if accept && what == OfferKind::Takeback {
            // Back to just before the partner's last move.
            ply = last_ply_of(&self.game, !self.local);
            accept = ply.is_some();
        }
        self.send_active(Message::Reply { what, accept, ply });
        match (accept, what, ply) {
            (true, OfferKind::Draw, _) if self.game.agree_draw().is_ok() => self.announce_end(),
            (true, OfferKind::Takeback, Some(cut)) => {
                self.cut_to(cut);
                self.event(Event::TakenBack { ply: cut });
            }
            _ => {}
        }
        Ok(())
    }

    /// The local player resigns.
    ///
    /// # Errors
    /// Not paired, closed, or the game is over.
    pub fn resign(&mut self) -> Result<(), LocalError> {
        self.check_open()?;
        self.game
            .resign(self.local)
            .map_err(|_| LocalError::GameOver)?;
        // Host: a later welcome carries the result. Guest: say it after reconnecting.
        if !self.send_active(Message::Resign) && !self.role.is_host() {
            self.resign_unsent = true;
        }
        self.announce_end();
        Ok(())
    }

    /// Our flag fell (the local player is on move with no time left): we lose on time, or
    /// draw when the partner cannot mate. The partner is told now, or after reconnecting.
    ///
    /// # Errors
    /// Not paired, closed, the game is over, or it is not our move.
    pub fn flag(&mut self) -> Result<(), LocalError> {
        self.check_open()?;
        if self.game.is_over() {
            return Err(LocalError::GameOver);
        }
        if self.game.position().turn() != self.local {
            return Err(LocalError::NotYourTurn);
        }
        if let Some(c) = self.clock.as_mut() {
            c.set_left(self.local, Duration::ZERO);
        }
        let ply = self.ply_count();
        self.game
            .flag(self.local)
            .map_err(|_| LocalError::GameOver)?;
        // Host: a later welcome carries the result. Guest: say it after reconnecting.
        if !self.send_active(Message::Flag { ply }) && !self.role.is_host() {
            self.flag_unsent = true;
        }
        self.announce_end();
        Ok(())
    }

    pub(super) fn check_open(&self) -> Result<(), LocalError> {
        if self.closed {
            Err(LocalError::Closed)
        } else if !self.is_paired() {
            Err(LocalError::NotPaired)
        } else {
            Ok(())
        }
    }
}

/// The ply (0-based index) of `color`'s last move in `game`.
fn last_ply_of(game: &Game, color: chesspi_engine::Color) -> Option<u32> {
    let positions = game.positions();
    (0..game.moves().len())
        .rev()
        .find(|&i| positions[i].turn() == color)
        .and_then(|i| u32::try_from(i).ok())
}
