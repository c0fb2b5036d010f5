//! The network partner as a source of moves, beside the computer: its moves, offers and
//! answers arrive from the network thread ([`crate::lan`]); the player's moves, offers and
//! answers leave as [`Effect::Lan`]. The network session checks everything a peer sends, so
//! what reaches here is already agreed; the controller still plays a move only in turn.

use crate::app::model::mode::{GameSetup, Mode};
use crate::app::screens::ScreenKind;
use crate::app::screens::{Controller, Dialog, Effect};
use crate::app::session::partner::{Away, LanRequest, Partner};
use crate::lan::codec::OfferKind;
use crate::lan::session::LinkState;
use crate::storage::LanLink;
use crate::tr;
use chesspi_engine::game::{Game, Outcome};
use chesspi_engine::{Color, Move};
use std::time::Instant;

impl Controller {
    /// The partner's name as texts show it: up to 32 characters may come over the network, a
    /// status line has room for about 14 beside its words.
    pub(in crate::app::screens) fn partner_name(&self) -> String {
        const SHOWN: usize = 14;
        let Some(p) = self.session.partner.as_ref() else {
            return tr!("Partner");
        };
        if p.name.chars().count() <= SHOWN {
            return p.name.clone();
        }
        let mut short: String = p.name.chars().take(SHOWN - 1).collect();
        short.push('…');
        short
    }

    pub(in crate::app::screens) fn lan(&mut self, request: LanRequest) {
        self.session.effect(Effect::Lan(request));
    }

    /// A partner was found: the game the two devices agreed on, this device playing `local`.
    pub fn network_paired(
        &mut self,
        partner: &str,
        local: Color,
        game: Game,
        resume: LanLink,
        clock: Option<crate::lan::session::LanClock>,
    ) {
        let setup = GameSetup {
            mode: Mode::Network { local },
            level: self.session.setup.level,
        };
        let same_game = self
            .session
            .partner
            .as_ref()
            .is_some_and(|p| p.resume.game_id == resume.game_id);
        if same_game && self.session.setup == setup {
            // The same game again (a reconnect that paired anew): keep the board as it is.
            self.network_resynced(game);
        } else {
            self.start(setup, game);
        }
        self.session.partner = Some(Partner {
            name: partner.to_string(),
            link: LinkState::Connected,
            our_offer: None,
            resume,
            away: None,
        });
        // The host's clocks (a new game starts untimed without them).
        if !same_game || clock.is_some() {
            self.network_clock(clock);
        }
    }

    /// The connection changed.
    pub fn network_link(&mut self, link: LinkState) {
        if let Some(p) = self.session.partner.as_mut() {
            p.link = link;
            if link == LinkState::Connected {
                // Back: no adjourning, no claiming the win.
                p.away = None;
                if self.dialog == Some(Dialog::Adjourn) {
                    self.dialog = None;
                }
            } else if p.away.is_none() {
                p.away = Some(Away::now());
            }
            if link != LinkState::Connected {
                // What the status line said of the partner ("declines the draw", ...) is
                // older news than the lost link.
                self.session.note = None;
            }
        }
        if link != LinkState::Connected {
            // Offers do not survive a lost link (the session drops them too).
            self.session.drop_our_offer();
            if matches!(self.dialog, Some(Dialog::PartnerOffer(_))) {
                self.dialog = None;
            }
        }
    }

    /// Offers on both sides were dropped with the link: an open offer dialog closes.
    pub fn network_offers_cleared(&mut self) {
        self.session.drop_our_offer();
        if matches!(self.dialog, Some(Dialog::PartnerOffer(_))) {
            self.dialog = None;
        }
    }

    /// The partner played `mv` as half-move `ply`.
    /// `clock` is the partner's time left after it, as its device reports it (advice).
    pub fn partner_moved(&mut self, ply: u32, mv: Move, clock: Option<std::time::Duration>) {
        let mover = self.session.game.position().turn();
        let in_turn = self.session.setup.is_partner(mover);
        if usize::try_from(ply).ok() != Some(self.session.game.moves().len()) || !in_turn {
            log::warn!("partner move {mv} at ply {ply} does not fit the game; ignored");
            return;
        }
        if self.session.game.play(mv).is_ok() {
            self.session.note = None;
            self.partner_clock(mover, clock, Instant::now());
            self.after_change();
        }
    }

    /// The game as both devices now agree on it (after a reconnect or a refused move).
    pub fn network_resynced(&mut self, game: Game) {
        if self.session.game.moves() != game.moves()
            || self.session.game.outcome() != game.outcome()
        {
            self.session.game = game;
            self.session.review = None;
            self.after_change();
        }
    }

    /// An accepted takeback cut the game to `ply` half-moves.
    pub fn network_taken_back(&mut self, ply: u32) {
        let Ok(ply) = usize::try_from(ply) else {
            return;
        };
        while self.session.game.moves().len() > ply && self.session.game.undo().is_some() {}
        if let Some(p) = self.session.partner.as_mut() {
            p.our_offer = None;
        }
        self.session.note = Some(tr!("The move was taken back"));
        self.session.review = None;
        self.after_change();
    }

    /// The network game ended (resignation, agreed draw, or a result the host reported).
    pub fn network_game_over(&mut self, outcome: Outcome) {
        if self.session.game.outcome() == Some(outcome) {
            return;
        }
        if self.session.game.set_outcome(outcome).is_ok() {
            self.after_change();
        }
    }

    /// The partner asks for a draw or a takeback.
    pub fn partner_offered(&mut self, what: OfferKind) {
        self.screen.close(ScreenKind::NewGame);
        self.input.drop_promotion();
        self.dialog = Some(Dialog::PartnerOffer(what));
    }

    /// The partner answered our offer.
    pub fn partner_answered(&mut self, what: OfferKind, accept: bool) {
        if let Some(p) = self.session.partner.as_mut() {
            p.our_offer = None;
        }
        let name = self.partner_name().to_string();
        self.session.note = Some(match (what, accept) {
            (OfferKind::Draw, true) => tr!("{} accepts the draw", name),
            (OfferKind::Draw, false) => tr!("{} declines the draw — play on", name),
            (OfferKind::Takeback, true) => tr!("{} agrees to the takeback", name),
            (OfferKind::Takeback, false) => tr!("{} declines the takeback — play on", name),
        });
    }

    /// The partner said goodbye.
    pub fn partner_left(&mut self) {
        if let Some(p) = self.session.partner.as_mut() {
            p.link = LinkState::Closed;
        }
        if !self.session.game.is_over() {
            let name = self.partner_name().to_string();
            self.session.note = Some(tr!("{} left the game", name));
        }
    }

    /// Sets how long the partner must be away before the game may be adjourned (config
    /// `lan.adjourn_after_seconds`).
    pub fn set_adjourn_after(&mut self, after: std::time::Duration) {
        self.adjourn_after = after;
    }

    /// When the player may adjourn the game on the board, if the partner is away and it is
    /// not yet allowed (the shell wakes [`Controller::partner_away_check`] then).
    pub fn adjourn_due(&self) -> Option<Instant> {
        let away = self.session.partner()?.away?;
        if away.long_enough || self.session.game.is_over() {
            return None;
        }
        Some(away.since + self.adjourn_after)
    }

    /// The partner has been away long enough: offer to adjourn or claim the win (once; the
    /// menu keeps it).
    pub fn partner_away_check(&mut self, now: Instant) {
        if self.adjourn_due().is_none_or(|due| due > now) {
            return;
        }
        if let Some(away) = self.session.partner.as_mut().and_then(|p| p.away.as_mut()) {
            away.long_enough = true;
        }
        let busy = self.dialog.is_some()
            || self.screen.new_game().is_some()
            || self.input.pending_promotion().is_some()
            || self.parts.viewing.is_viewing_saved();
        if !busy {
            self.dialog = Some(Dialog::Adjourn);
        }
    }

    /// Whether the game on the board may be adjourned, or its win claimed, now: the partner
    /// not connected, for long enough, and the game still on.
    pub(in crate::app::screens) fn can_adjourn(&self) -> bool {
        self.session.partner().is_some_and(|p| {
            p.link != LinkState::Connected && p.away.is_some_and(|a| a.long_enough)
        }) && !self.session.game.is_over()
    }

    /// Claims the win: the partner has been away long enough. The network session ends
    /// the game (won by abandonment) and reports it as any end; if the partner is back
    /// meanwhile it refuses, and the game goes on.
    pub(in crate::app::screens) fn claim_forfeit(&mut self) {
        if !self.can_adjourn() {
            return;
        }
        self.dialog = None;
        self.lan(LanRequest::ClaimForfeit);
    }

    /// Adjourns the network game: the shell stops the network without a goodbye (the
    /// partner keeps the game too), a new game takes the board, and the saver stores the
    /// adjourned one in Saved games with what it needs to reconnect.
    pub(in crate::app::screens) fn adjourn(&mut self) {
        if !self.can_adjourn() {
            return;
        }
        let name = self.partner_name().to_string();
        self.session
            .effect(Effect::Network(crate::app::screens::NetworkEffect::Adjourn));
        let setup = GameSetup {
            mode: Mode::Computer {
                human: Color::White,
            },
            level: self.session.setup.level,
        };
        self.start(setup, Game::new());
        self.session.note = Some(tr!(
            "The game with {} is adjourned: Menu, Saved games, Play on",
            name
        ));
    }

    /// Our offer leaves for the partner.
    pub(in crate::app::screens) fn offer_to_partner(&mut self, what: OfferKind) {
        let connected = self
            .session
            .partner
            .as_ref()
            .is_some_and(|p| p.link == LinkState::Connected && p.our_offer.is_none());
        if !connected || self.session.game.is_over() {
            return;
        }
        if let Some(p) = self.session.partner.as_mut() {
            p.our_offer = Some(what);
        }
        let name = self.partner_name().to_string();
        self.session.note = Some(match what {
            OfferKind::Draw => tr!("Draw offered — waiting for {}", name),
            OfferKind::Takeback => tr!("Takeback asked — waiting for {}", name),
        });
        self.lan(LanRequest::Offer(what));
    }

    /// Whether "Ask for takeback" can be sent now: connected, no offer waiting, and a move of
    /// ours on the board.
    pub(in crate::app::screens) fn can_ask_takeback(&self) -> bool {
        let Mode::Network { local } = self.session.setup.mode else {
            return false;
        };
        let ready = self
            .session
            .partner
            .as_ref()
            .is_some_and(|p| p.link == LinkState::Connected && p.our_offer.is_none());
        let positions = self.session.game.positions();
        let ours = (0..self.session.game.moves().len()).any(|i| positions[i].turn() == local);
        ready && ours && !self.session.game.is_over()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::screens::Action;
    use chesspi_engine::game::Termination;
    use chesspi_engine::level::Level;
    use std::time::Duration;

    fn paired(local: Color) -> Controller {
        let mut c = Controller::new(GameSetup {
            mode: Mode::Network { local },
            level: Level::DEFAULT,
        });
        let link = LanLink {
            game_id: "g".into(),
            host: None,
        };
        c.network_paired("Kitchen", local, Game::new(), link, None);
        c.set_adjourn_after(Duration::from_secs(60));
        c.take_effects();
        c
    }

    /// Whether the controller asked the network to claim the win.
    fn claimed(c: &mut Controller) -> bool {
        c.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::Lan(LanRequest::ClaimForfeit)))
    }

    fn menu_ids(c: &mut Controller) -> Vec<String> {
        c.action(Action::Menu);
        let ids = c
            .dialog_view()
            .expect("the menu")
            .options
            .into_iter()
            .map(|o| o.id)
            .collect();
        c.dialog_option("close");
        c.take_effects();
        ids
    }

    #[test]
    fn the_win_is_claimed_only_while_the_partner_is_away_long_enough() {
        let mut c = paired(Color::White);
        // Connected: nothing to claim, by any way.
        c.claim_forfeit();
        assert!(!claimed(&mut c));
        assert!(!menu_ids(&mut c).contains(&"forfeit".to_string()));
        assert_eq!(c.adjourn_due(), None);

        c.network_link(LinkState::Lost);
        c.claim_forfeit();
        assert!(!claimed(&mut c), "not away long enough yet");
        let due = c.adjourn_due().expect("due once away");
        c.partner_away_check(due - Duration::from_millis(1));
        assert_eq!(c.dialog(), None);
        c.partner_away_check(due);
        assert_eq!(c.dialog(), Some(&Dialog::Adjourn));
        let ids: Vec<_> = c
            .dialog_view()
            .expect("the offer")
            .options
            .into_iter()
            .map(|o| o.id)
            .collect();
        assert_eq!(ids, ["adjourn", "forfeit", "wait"]);

        // Back before the player chose: the offer goes, and a late tap claims nothing.
        c.network_link(LinkState::Connected);
        assert_eq!(c.dialog(), None);
        c.claim_forfeit();
        assert!(!claimed(&mut c));
        assert!(!menu_ids(&mut c).contains(&"forfeit".to_string()));
        assert!(c.session().partner().is_some_and(|p| p.away.is_none()));

        // Gone again: the time counts afresh; then the menu keeps the choice.
        c.network_link(LinkState::Reconnecting);
        let due = c.adjourn_due().expect("due again");
        c.partner_away_check(due);
        c.dialog_option("wait");
        assert!(menu_ids(&mut c).contains(&"forfeit".to_string()));
        c.action(Action::Menu);
        c.dialog_option("forfeit");
        assert!(claimed(&mut c));
        assert_eq!(c.dialog(), None);
        // The session ends the game; then there is nothing left to claim.
        c.network_game_over(Outcome::win(Color::White, Termination::Abandonment));
        c.take_effects();
        c.claim_forfeit();
        assert!(!claimed(&mut c));
        assert_eq!(c.adjourn_due(), None);
    }

    #[test]
    fn a_win_by_forfeit_says_who_was_away() {
        let mut c = paired(Color::Black);
        c.network_link(LinkState::Lost);
        c.network_game_over(Outcome::win(Color::Black, Termination::Abandonment));
        let card = c.result().expect("the result");
        assert_eq!(
            (card.title.as_str(), card.reason.as_str()),
            ("You win!", "your partner left")
        );

        let mut c = paired(Color::Black);
        c.network_game_over(Outcome::win(Color::White, Termination::Abandonment));
        let card = c.result().expect("the result");
        assert_eq!(
            (card.title.as_str(), card.reason.as_str()),
            ("Kitchen wins", "you were away too long")
        );
    }
}
