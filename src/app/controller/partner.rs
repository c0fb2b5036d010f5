//! The network partner as a source of moves, beside the computer: its moves, offers and
//! answers arrive from the network thread ([`crate::lan`]); the player's moves, offers and
//! answers leave as [`Effect::Lan`]. The network session checks everything a peer sends, so
//! what reaches here is already agreed; the controller still plays a move only in turn.

use super::{Controller, Dialog, Effect};
use crate::app::mode::{Mode, Setup};
use crate::lan::codec::OfferKind;
use crate::lan::session::LinkState;
use crate::storage::LanLink;
use chesspi_engine::game::{Game, Outcome};
use chesspi_engine::{Color, Move};

/// What the player asks of the network game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LanRequest {
    Play(Move),
    Offer(OfferKind),
    Answer { accept: bool },
    Resign,
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
}

impl Controller {
    /// The partner of the network game on the board.
    pub fn partner(&self) -> Option<&Partner> {
        match self.setup.mode {
            Mode::Network { .. } => self.partner.as_ref(),
            _ => None,
        }
    }

    pub(super) fn partner_name(&self) -> &str {
        self.partner.as_ref().map_or("Partner", |p| p.name.as_str())
    }

    pub(super) fn lan(&mut self, request: LanRequest) {
        self.effects.push(Effect::Lan(request));
    }

    /// A partner was found: the game the two devices agreed on, this device playing `local`.
    pub fn network_paired(&mut self, partner: &str, local: Color, game: Game, resume: LanLink) {
        let setup = Setup {
            mode: Mode::Network { local },
            level: self.setup.level,
        };
        let same_game = self
            .partner
            .as_ref()
            .is_some_and(|p| p.resume.game_id == resume.game_id);
        if same_game && self.setup == setup {
            // The same game again (a reconnect that paired anew): keep the board as it is.
            self.network_resynced(game);
        } else {
            self.start(setup, game);
        }
        self.partner = Some(Partner {
            name: partner.to_string(),
            link: LinkState::Connected,
            our_offer: None,
            resume,
        });
    }

    /// The game on the board was restored after a restart: its partner will be reconnected.
    pub fn network_restored(&mut self, partner: &str, resume: LanLink) {
        if let Mode::Network { .. } = self.setup.mode {
            self.partner = Some(Partner {
                name: partner.to_string(),
                link: LinkState::Lost,
                our_offer: None,
                resume,
            });
        }
    }

    /// The connection changed.
    pub fn network_link(&mut self, link: LinkState) {
        if let Some(p) = self.partner.as_mut() {
            p.link = link;
            if link != LinkState::Connected {
                // Offers do not survive a lost link (the session drops them too).
                p.our_offer = None;
                if matches!(self.dialog, Some(Dialog::PartnerOffer(_))) {
                    self.dialog = None;
                }
            }
        }
    }

    /// Offers on both sides were dropped with the link: an open offer dialog closes.
    pub fn network_offers_cleared(&mut self) {
        if let Some(p) = self.partner.as_mut() {
            p.our_offer = None;
        }
        if matches!(self.dialog, Some(Dialog::PartnerOffer(_))) {
            self.dialog = None;
        }
    }

    /// The partner played `mv` as half-move `ply`.
    pub fn partner_moved(&mut self, ply: u32, mv: Move) {
        let in_turn = self.setup.is_partner(self.game.position().turn());
        if usize::try_from(ply).ok() != Some(self.game.moves().len()) || !in_turn {
            log::warn!("partner move {mv} at ply {ply} does not fit the game; ignored");
            return;
        }
        if self.game.play(mv).is_ok() {
            self.note = None;
            self.after_change();
        }
    }

    /// The game as both devices now agree on it (after a reconnect or a refused move).
    pub fn network_resynced(&mut self, game: Game) {
        if self.game.moves() != game.moves() || self.game.outcome() != game.outcome() {
            self.game = game;
            self.review = None;
            self.after_change();
        }
    }

    /// An accepted takeback cut the game to `ply` half-moves.
    pub fn network_taken_back(&mut self, ply: u32) {
        let Ok(ply) = usize::try_from(ply) else {
            return;
        };
        while self.game.moves().len() > ply && self.game.undo().is_some() {}
        if let Some(p) = self.partner.as_mut() {
            p.our_offer = None;
        }
        self.note = Some("The move was taken back".to_string());
        self.review = None;
        self.after_change();
    }

    /// The network game ended (resignation, agreed draw, or a result the host reported).
    pub fn network_game_over(&mut self, outcome: Outcome) {
        if self.game.outcome() == Some(outcome) {
            return;
        }
        if self.game.set_outcome(outcome).is_ok() {
            self.after_change();
        }
    }

    /// The partner asks for a draw or a takeback.
    pub fn partner_offered(&mut self, what: OfferKind) {
        self.new_game = None;
        self.promotion = None;
        self.dialog = Some(Dialog::PartnerOffer(what));
    }

    /// The partner answered our offer.
    pub fn partner_answered(&mut self, what: OfferKind, accept: bool) {
        if let Some(p) = self.partner.as_mut() {
            p.our_offer = None;
        }
        let name = self.partner_name().to_string();
        self.note = Some(match (what, accept) {
            (OfferKind::Draw, true) => format!("{name} accepts the draw"),
            (OfferKind::Draw, false) => format!("{name} declines the draw — play on"),
            (OfferKind::Takeback, true) => format!("{name} agrees to the takeback"),
            (OfferKind::Takeback, false) => format!("{name} declines the takeback — play on"),
        });
    }

    /// The partner said goodbye.
    pub fn partner_left(&mut self) {
        if let Some(p) = self.partner.as_mut() {
            p.link = LinkState::Closed;
        }
        if !self.game.is_over() {
            let name = self.partner_name().to_string();
            self.note = Some(format!("{name} left the game"));
        }
    }

    /// Our offer leaves for the partner.
    pub(super) fn offer_to_partner(&mut self, what: OfferKind) {
        let connected = self
            .partner
            .as_ref()
            .is_some_and(|p| p.link == LinkState::Connected && p.our_offer.is_none());
        if !connected || self.game.is_over() {
            return;
        }
        if let Some(p) = self.partner.as_mut() {
            p.our_offer = Some(what);
        }
        let name = self.partner_name().to_string();
        self.note = Some(match what {
            OfferKind::Draw => format!("Draw offered — waiting for {name}"),
            OfferKind::Takeback => format!("Takeback asked — waiting for {name}"),
        });
        self.lan(LanRequest::Offer(what));
    }

    /// Whether "Ask for takeback" can be sent now: connected, no offer waiting, and a move of
    /// ours on the board.
    pub(super) fn can_ask_takeback(&self) -> bool {
        let Mode::Network { local } = self.setup.mode else {
            return false;
        };
        let ready = self
            .partner
            .as_ref()
            .is_some_and(|p| p.link == LinkState::Connected && p.our_offer.is_none());
        let positions = self.game.positions();
        let ours = (0..self.game.moves().len()).any(|i| positions[i].turn() == local);
        ready && ours && !self.game.is_over()
    }
}
