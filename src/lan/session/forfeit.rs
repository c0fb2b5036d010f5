//! Winning by forfeit: the partner has been away longer than the adjournment time, and the
//! player claims the win (docs/PROTOCOL.md §6). Only the claimer's device decides it; the
//! partner learns it when it comes back: a host's `welcome` carries the result with
//! `"termination":"abandoned"`, a guest's `hello` says `"forfeit":true` in its `resume`.

use super::{ConnId, LocalError, Role, Session};
use crate::lan::codec::{Message, Resume};
use chesspi_engine::Color;
use chesspi_engine::game::{Game, Outcome, Termination};
use std::time::{Duration, Instant};

/// How long the partner must be away before a forfeit may be claimed, unless the app sets
/// it (config `lan.adjourn_after_seconds`).
pub const DEFAULT_FORFEIT_AFTER: Duration = Duration::from_secs(120);

impl Session {
    /// The partner away this long: the local player may claim the win, and a partner's claim
    /// against us is taken (the app passes `lan.adjourn_after_seconds`).
    #[must_use]
    pub fn with_forfeit_after(mut self, after: Duration) -> Session {
        self.forfeit_after = after;
        self
    }

    /// Whether we won by forfeit (our claim).
    pub fn forfeit_claimed(&self) -> bool {
        self.forfeit_claimed
    }

    /// Notes when the partner's connection went (called on every tick).
    pub(super) fn note_away(&mut self, now: Instant) {
        if self.active.is_some() || !self.is_paired() {
            self.away_since = None;
        } else if self.away_since.is_none() {
            self.away_since = Some(now);
        }
    }

    /// Whether the partner is away long enough for a forfeit: not connected, and either gone
    /// for `forfeit_after` or we were off ourselves (restored, not connected since), so
    /// nobody was here to see them.
    fn away_long_enough(&self, now: Instant) -> bool {
        self.active.is_none()
            && (self.restored
                || self
                    .away_since
                    .is_some_and(|t| now.saturating_duration_since(t) >= self.forfeit_after))
    }

    /// The local player claims the win: the partner has been away long enough. The game
    /// ends as won by abandonment here; the partner is told when it comes back (a host
    /// keeps listening, a guest keeps dialing, while the app keeps the session).
    ///
    /// # Errors
    /// Not paired, closed, the partner connected, not away long enough, or the game over.
    pub fn claim_forfeit(&mut self, now: Instant) -> Result<Outcome, LocalError> {
        self.check_open()?;
        if self.active.is_some() {
            return Err(LocalError::PartnerConnected);
        }
        if !self.away_long_enough(now) {
            return Err(LocalError::TooSoon);
        }
        let outcome = self
            .game
            .abandon(!self.local)
            .map_err(|_| LocalError::GameOver)?;
        // Whatever we had in flight is not played now.
        self.unacked = None;
        self.resign_unsent = false;
        self.flag_unsent = false;
        self.forfeit_claimed = true;
        self.announce_end();
        Ok(outcome)
    }

    /// Host: a resuming guest claims the win by forfeit. Taken only for the game in
    /// progress at our ply, with the guest not connected here and away long enough by our
    /// own measure (or we were off): a partner who is here cannot be made to lose by it.
    /// Returns whether the game ended; otherwise the resume goes on as a plain one.
    pub(super) fn take_forfeit_claim(&mut self, resume: &Resume, now: Instant) -> bool {
        if !resume.forfeit || self.role != Role::Host || self.game.is_over() {
            return false;
        }
        if resume.ply != self.ply_count() || !self.away_long_enough(now) {
            log::warn!(
                "lan: the guest's forfeit claim at ply {} refused (we have {}, away {:?})",
                resume.ply,
                self.ply_count(),
                self.away_since.map(|t| now.saturating_duration_since(t))
            );
            return false;
        }
        if self.game.abandon(self.local).is_err() {
            return false;
        }
        log::info!("lan: the guest claimed the win by forfeit; the game is over");
        self.unacked = None;
        self.announce_end();
        true
    }

    /// Guest, back after our claim: the host's game must be ours, won by forfeit. If it is
    /// not (an older host, a refused claim, or the host ended the game another way
    /// meanwhile), our result stands here: say bye and stop. Returns whether to go on.
    pub(super) fn welcome_after_claim(&mut self, id: ConnId, host_game: &Game) -> bool {
        if !self.forfeit_claimed {
            return true;
        }
        let same =
            host_game.moves() == self.game.moves() && host_game.outcome() == self.game.outcome();
        if same {
            return true;
        }
        log::warn!(
            "lan: the host did not take our forfeit claim ({:?}); our result stands here",
            host_game.outcome()
        );
        self.send(id, Message::Bye);
        self.closed = true;
        self.close(id);
        self.set_link(super::LinkState::Closed);
        false
    }
}

/// Whether `local` won `game` by forfeit: restored after a restart, the claim is still ours
/// to tell (and a host's game in progress must not replace it).
pub(super) fn won_by_forfeit(game: &Game, local: Color) -> bool {
    game.outcome()
        .is_some_and(|o| o.termination == Termination::Abandonment && o.winner == Some(local))
}
