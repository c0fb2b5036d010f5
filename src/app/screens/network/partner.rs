//! The network partner as a source of moves, beside the computer: its moves, offers and
//! answers arrive from the network thread ([`crate::lan`]); the player's moves, offers and
//! answers leave as [`Effect::Lan`]. The network session checks everything a peer sends, so
//! what reaches here is already agreed; a move is still played only in turn.
//!
//! [`PartnerGame`] is a part of the controller ([`crate::app::screens::Parts`]): the shell
//! hands it the network's events (`c.part(|p: &mut PartnerGame, cx| p.moved(cx, ply, mv,
//! clock))`), other screens reach it through [`Go::Partner`], and what every screen may ask
//! of the game (its partner's name, whether it may be adjourned) is
//! [`crate::app::session::partner::rules`].

use crate::app::model::mode::{GameSetup, Mode};
use crate::app::screens::{Ctx, Dialog, Effect, Go, NetworkEffect};
use crate::app::session::game::GameSession;
use crate::app::session::partner::clock::{host_clock, partner_moved};
use crate::app::session::partner::rules::{can_adjourn, partner_name};
use crate::app::session::partner::{Away, LanRequest, Partner, PartnerStep};
use crate::lan::codec::OfferKind;
use crate::lan::session::{LanClock, LinkState};
use crate::storage::LanLink;
use crate::tr;
use chesspi_engine::game::{Game, Outcome};
use chesspi_engine::{Color, Move};
use std::time::{Duration, Instant};

/// What the controller keeps of the network game beside the session (which holds the
/// partner): how long the partner may be away before the game may be adjourned, and whether
/// a hotspot is up for it (`hotspot.rs`).
pub struct PartnerGame {
    /// The partner away this long: the game may be adjourned (`lan.adjourn_after_seconds`).
    adjourn_after: Duration,
    /// A hotspot was opened or joined for the network game: left when the game is.
    pub(super) hotspot: bool,
}

impl Default for PartnerGame {
    fn default() -> PartnerGame {
        PartnerGame {
            adjourn_after: crate::config::DEFAULT_ADJOURN_AFTER,
            hotspot: false,
        }
    }
}

impl PartnerGame {
    /// Sets how long the partner must be away before the game may be adjourned (config
    /// `lan.adjourn_after_seconds`).
    pub fn set_adjourn_after(&mut self, after: Duration) {
        self.adjourn_after = after;
    }

    /// What another screen asked of the network game, or its next step (see [`PartnerStep`]).
    pub fn step(&mut self, cx: &mut Ctx, step: PartnerStep) {
        match step {
            PartnerStep::Offer(what) => offer(cx, what),
            PartnerStep::ClaimForfeit => claim_forfeit(cx),
            PartnerStep::Adjourn => adjourn(cx),
            PartnerStep::HotspotUp => self.hotspot = true,
            PartnerStep::Joined { partner, clock } => {
                cx.session.partner = Some(*partner);
                host_clock(cx.session, clock);
            }
            PartnerStep::Adjourned { partner } => {
                cx.session.note = Some(tr!(
                    "The game with {} is adjourned: Menu, Saved games, Play on",
                    partner
                ));
            }
        }
    }

    /// A partner was found: the game the two devices agreed on, this device playing `local`.
    pub fn paired(
        &mut self,
        cx: &mut Ctx,
        partner: &str,
        local: Color,
        game: Game,
        resume: LanLink,
        clock: Option<LanClock>,
    ) {
        let setup = GameSetup {
            mode: Mode::Network { local },
            level: cx.session.setup.level,
        };
        let same_game = cx
            .session
            .partner
            .as_ref()
            .is_some_and(|p| p.resume.game_id == resume.game_id);
        let partner = Partner {
            name: partner.to_string(),
            link: LinkState::Connected,
            our_offer: None,
            resume,
            away: None,
        };
        if same_game && cx.session.setup == setup {
            // The same game again (a reconnect that paired anew): keep the board as it is.
            self.resynced(cx, game);
            cx.session.partner = Some(partner);
            // The host's clocks, if it sent them.
            if clock.is_some() {
                host_clock(cx.session, clock);
            }
        } else {
            // A new game, then its partner and the host's clocks (untimed without them).
            cx.go(Go::Start {
                setup,
                game,
                rated: true,
                coach: None,
                clock: None,
                sides: None,
            });
            cx.go(Go::Partner(PartnerStep::Joined {
                partner: Box::new(partner),
                clock,
            }));
        }
    }

    /// The connection changed.
    pub fn link(&mut self, cx: &mut Ctx, link: LinkState) {
        if let Some(p) = cx.session.partner.as_mut() {
            p.link = link;
            if link == LinkState::Connected {
                // Back: no adjourning, no claiming the win.
                p.away = None;
                if *cx.dialog == Some(Dialog::Adjourn) {
                    *cx.dialog = None;
                }
            } else if p.away.is_none() {
                p.away = Some(Away::now());
            }
            if link != LinkState::Connected {
                // What the status line said of the partner ("declines the draw", ...) is
                // older news than the lost link.
                cx.session.note = None;
            }
        }
        if link != LinkState::Connected {
            // Offers do not survive a lost link (the session drops them too).
            self.offers_cleared(cx);
        }
    }

    /// Offers on both sides were dropped with the link: an open offer dialog closes.
    pub fn offers_cleared(&mut self, cx: &mut Ctx) {
        cx.session.drop_our_offer();
        if matches!(cx.dialog, Some(Dialog::PartnerOffer(_))) {
            *cx.dialog = None;
        }
    }

    /// The host's clocks after a reconnect (`None`: untimed).
    pub fn clock(&mut self, cx: &mut Ctx, clock: Option<LanClock>) {
        host_clock(cx.session, clock);
    }

    /// The partner played `mv` as half-move `ply`.
    /// `clock` is the partner's time left after it, as its device reports it (advice).
    pub fn moved(&mut self, cx: &mut Ctx, ply: u32, mv: Move, clock: Option<Duration>) {
        let session = &mut *cx.session;
        let mover = session.game.position().turn();
        let in_turn = session.setup.is_partner(mover);
        if usize::try_from(ply).ok() != Some(session.game.moves().len()) || !in_turn {
            log::warn!("partner move {mv} at ply {ply} does not fit the game; ignored");
            return;
        }
        if session.game.play(mv).is_ok() {
            session.note = None;
            partner_moved(session, mover, clock, Instant::now());
            cx.go(Go::Resume);
        }
    }

    /// The game as both devices now agree on it (after a reconnect or a refused move).
    pub fn resynced(&mut self, cx: &mut Ctx, game: Game) {
        if cx.session.game.moves() != game.moves() || cx.session.game.outcome() != game.outcome() {
            cx.session.game = game;
            cx.session.review = None;
            cx.go(Go::Resume);
        }
    }

    /// An accepted takeback cut the game to `ply` half-moves.
    pub fn taken_back(&mut self, cx: &mut Ctx, ply: u32) {
        let Ok(ply) = usize::try_from(ply) else {
            return;
        };
        let session = &mut *cx.session;
        while session.game.moves().len() > ply && session.game.undo().is_some() {}
        if let Some(p) = session.partner.as_mut() {
            p.our_offer = None;
        }
        session.note = Some(tr!("The move was taken back"));
        session.review = None;
        cx.go(Go::Resume);
    }

    /// The network game ended (resignation, agreed draw, or a result the host reported).
    pub fn game_over(&mut self, cx: &mut Ctx, outcome: Outcome) {
        if cx.session.game.outcome() == Some(outcome) {
            return;
        }
        if cx.session.game.set_outcome(outcome).is_ok() {
            cx.go(Go::Resume);
        }
    }

    /// The partner asks for a draw or a takeback.
    pub fn offered(&mut self, cx: &mut Ctx, what: OfferKind) {
        cx.go(Go::Interrupt(Dialog::PartnerOffer(what)));
    }

    /// The partner answered our offer.
    pub fn answered(&mut self, cx: &mut Ctx, what: OfferKind, accept: bool) {
        if let Some(p) = cx.session.partner.as_mut() {
            p.our_offer = None;
        }
        let name = partner_name(cx.session);
        cx.session.note = Some(match (what, accept) {
            (OfferKind::Draw, true) => tr!("{} accepts the draw", name),
            (OfferKind::Draw, false) => tr!("{} declines the draw — play on", name),
            (OfferKind::Takeback, true) => tr!("{} agrees to the takeback", name),
            (OfferKind::Takeback, false) => tr!("{} declines the takeback — play on", name),
        });
    }

    /// The partner said goodbye.
    pub fn left(&mut self, cx: &mut Ctx) {
        if let Some(p) = cx.session.partner.as_mut() {
            p.link = LinkState::Closed;
        }
        if !cx.session.game.is_over() {
            let name = partner_name(cx.session);
            cx.session.note = Some(tr!("{} left the game", name));
        }
    }

    /// When the player may adjourn the game on the board, if the partner is away and it is
    /// not yet allowed (the shell wakes [`PartnerGame::away_check`] then).
    pub fn adjourn_due(&self, session: &GameSession) -> Option<Instant> {
        let away = session.partner()?.away?;
        if away.long_enough || session.game.is_over() {
            return None;
        }
        Some(away.since + self.adjourn_after)
    }

    /// The partner has been away long enough: offer to adjourn or claim the win (once; the
    /// menu keeps it).
    pub fn away_check(&mut self, cx: &mut Ctx, now: Instant) {
        if self.adjourn_due(cx.session).is_none_or(|due| due > now) {
            return;
        }
        if let Some(away) = cx.session.partner.as_mut().and_then(|p| p.away.as_mut()) {
            away.long_enough = true;
        }
        cx.go(Go::UnlessBusy(Dialog::Adjourn));
    }
}

/// Claims the win: the partner has been away long enough. The network session ends the
/// game (won by abandonment) and reports it as any end; if the partner is back meanwhile it
/// refuses, and the game goes on.
fn claim_forfeit(cx: &mut Ctx) {
    if !can_adjourn(cx.session) {
        return;
    }
    *cx.dialog = None;
    cx.effect(Effect::Lan(LanRequest::ClaimForfeit));
}

/// Adjourns the network game: the shell stops the network without a goodbye (the partner
/// keeps the game too), a new game takes the board, and the saver stores the adjourned one
/// in Saved games with what it needs to reconnect.
fn adjourn(cx: &mut Ctx) {
    if !can_adjourn(cx.session) {
        return;
    }
    let partner = partner_name(cx.session);
    cx.effect(Effect::Network(NetworkEffect::Adjourn));
    let setup = GameSetup {
        mode: Mode::Computer {
            human: Color::White,
        },
        level: cx.session.setup.level,
    };
    cx.go(Go::Start {
        setup,
        game: Game::new(),
        rated: true,
        coach: None,
        clock: None,
        sides: None,
    });
    cx.go(Go::Partner(PartnerStep::Adjourned { partner }));
}

/// Our offer leaves for the partner.
fn offer(cx: &mut Ctx, what: OfferKind) {
    let connected = cx
        .session
        .partner
        .as_ref()
        .is_some_and(|p| p.link == LinkState::Connected && p.our_offer.is_none());
    if !connected || cx.session.game.is_over() {
        return;
    }
    if let Some(p) = cx.session.partner.as_mut() {
        p.our_offer = Some(what);
    }
    let name = partner_name(cx.session);
    cx.session.note = Some(match what {
        OfferKind::Draw => tr!("Draw offered — waiting for {}", name),
        OfferKind::Takeback => tr!("Takeback asked — waiting for {}", name),
    });
    cx.effect(Effect::Lan(LanRequest::Offer(what)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::screens::Action;
    use crate::app::screens::Controller;
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
            peer_rating: None,
        };
        c.part(|p: &mut PartnerGame, cx| p.paired(cx, "Kitchen", local, Game::new(), link, None));
        c.part(|p: &mut PartnerGame, _| p.set_adjourn_after(Duration::from_secs(60)));
        c.take_effects();
        c
    }

    /// Whether the controller asked the network to claim the win.
    fn claimed(c: &mut Controller) -> bool {
        c.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::Lan(LanRequest::ClaimForfeit)))
    }

    /// The menu's entries that can be chosen now (the others stay, greyed).
    fn menu_ids(c: &mut Controller) -> Vec<String> {
        c.action(Action::Menu);
        let ids = c
            .dialog_view()
            .expect("the menu")
            .options
            .into_iter()
            .filter(|o| o.enabled)
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
        c.go(Go::Partner(PartnerStep::ClaimForfeit));
        assert!(!claimed(&mut c));
        assert!(!menu_ids(&mut c).contains(&"forfeit".to_string()));
        assert_eq!(c.get::<PartnerGame>().adjourn_due(c.session()), None);

        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Lost));
        c.go(Go::Partner(PartnerStep::ClaimForfeit));
        assert!(!claimed(&mut c), "not away long enough yet");
        let due = c
            .get::<PartnerGame>()
            .adjourn_due(c.session())
            .expect("due once away");
        c.part(|p: &mut PartnerGame, cx| p.away_check(cx, due - Duration::from_millis(1)));
        assert_eq!(c.dialog(), None);
        c.part(|p: &mut PartnerGame, cx| p.away_check(cx, due));
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
        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Connected));
        assert_eq!(c.dialog(), None);
        c.go(Go::Partner(PartnerStep::ClaimForfeit));
        assert!(!claimed(&mut c));
        assert!(!menu_ids(&mut c).contains(&"forfeit".to_string()));
        assert!(c.session().partner().is_some_and(|p| p.away.is_none()));

        // Gone again: the time counts afresh; then the menu keeps the choice.
        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Reconnecting));
        let due = c
            .get::<PartnerGame>()
            .adjourn_due(c.session())
            .expect("due again");
        c.part(|p: &mut PartnerGame, cx| p.away_check(cx, due));
        c.dialog_option("wait");
        assert!(menu_ids(&mut c).contains(&"forfeit".to_string()));
        c.action(Action::Menu);
        c.dialog_option("forfeit");
        assert!(claimed(&mut c));
        assert_eq!(c.dialog(), None);
        // The session ends the game; then there is nothing left to claim.
        c.part(|p: &mut PartnerGame, cx| {
            p.game_over(cx, Outcome::win(Color::White, Termination::Abandonment))
        });
        c.take_effects();
        c.go(Go::Partner(PartnerStep::ClaimForfeit));
        assert!(!claimed(&mut c));
        assert_eq!(c.get::<PartnerGame>().adjourn_due(c.session()), None);
    }

    #[test]
    fn a_win_by_forfeit_says_who_was_away() {
        let mut c = paired(Color::Black);
        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Lost));
        c.part(|p: &mut PartnerGame, cx| {
            p.game_over(cx, Outcome::win(Color::Black, Termination::Abandonment))
        });
        let card = c.game_view().result().expect("the result");
        assert_eq!(
            (card.title.as_str(), card.reason.as_str()),
            ("You win!", "your partner left")
        );

        let mut c = paired(Color::Black);
        c.part(|p: &mut PartnerGame, cx| {
            p.game_over(cx, Outcome::win(Color::White, Termination::Abandonment))
        });
        let card = c.game_view().result().expect("the result");
        assert_eq!(
            (card.title.as_str(), card.reason.as_str()),
            ("Kitchen wins", "you were away too long")
        );
    }
}
