//! The game on the board and what goes with it while it is played: who plays which side,
//! the moment looked at, the computer's search and hint ([`Thinking`]), the clocks
//! ([`Clocks`]), the coach ([`Coaching`]) and the network partner. One value, owned by the
//! controller; screens read it and change it through its methods (how the game goes on
//! after a change is `turns.rs`).

use super::assisting::Assisting;
use super::clocks::Clocks;
use super::coach::Coaching;
use super::effect::Effect;
use super::partner::{Away, Partner};
use super::thinking::{Purpose, Thinking};
use crate::app::model::clock::GameClock;
use crate::app::model::mode::{GameSetup, Mode};
use crate::lan::session::LinkState;
use crate::storage::{LanLink, Sides};
use chesspi_engine::coach::CoachLevel;
use chesspi_engine::game::Game;
use chesspi_engine::{Color, Move, Position};

/// A game and how it is being played.
pub struct GameSession {
    pub(in crate::app) game: Game,
    pub(in crate::app) setup: GameSetup,
    /// Black at the bottom.
    pub(in crate::app) flipped: bool,
    /// Ply of the position shown while reviewing a finished game.
    pub(in crate::app) review: Option<usize>,
    /// The computer's search in progress, and the hint it found.
    pub(in crate::app) thinking: Thinking,
    /// The ply at which a claimable draw was last offered, so it is offered once.
    pub(in crate::app) claim_offered_at: Option<usize>,
    /// A one-off message for the status line (e.g. a declined draw offer).
    pub(in crate::app) note: Option<String>,
    /// Which game this is, and whether it counts for the rating.
    pub(super) record: Record,
    /// The game's clocks, for a timed game.
    pub(in crate::app) clocks: Clocks,
    /// The partner of a network game.
    pub(in crate::app) partner: Option<Partner>,
    /// The coach: each move of a person judged, its warning, the threat shown.
    pub(in crate::app) coach: Coaching,
    /// What the shell is asked to do, oldest first: emptied after each change.
    outbox: Vec<Effect>,
    /// Assist: the pieces touched this turn and their moves' grades.
    pub(super) assist: Assisting,
}

/// How the game on the board counts: which game it is (saving tells a new game from a changed
/// one) and whether it is rated.
#[derive(Debug, Clone, Copy, Default)]
pub struct Record {
    /// Counts the games started.
    serial: u64,
    /// Why the game no longer counts for the rating, if it does not (the first reason).
    unrated: Option<Unrated>,
    /// Who of the device's players sits at each side.
    sides: Sides,
}

impl Record {
    /// Changes whenever another game replaces the current one.
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// Whether the game counts for the player's rating (as far as the game's own changes
    /// go: the storage also leaves out set-up positions and games the player made no move in).
    pub fn is_rated(&self) -> bool {
        self.unrated.is_none()
    }

    /// Why the game does not count for the player's rating, if it does not.
    pub fn unrated(&self) -> Option<Unrated> {
        self.unrated
    }

    /// Who of the device's players sits at each side.
    pub fn sides(&self) -> Sides {
        self.sides
    }

    /// Takes back `why`, if it is the reason the game is not rated.
    pub(super) fn withdraw(&mut self, why: Unrated) {
        if self.unrated == Some(why) {
            self.unrated = None;
        }
    }
}

/// Why a game against the computer does not count for the player's rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unrated {
    /// The coach is on: its warnings are help a rated game does not get.
    Coach,
    /// The computer's level was changed during the game.
    LevelChanged,
    /// The player took the computer's side.
    SidesSwitched,
    /// Played on after its result, which counted already.
    PlayedOn,
    /// From a position set up by hand.
    SetUp,
    /// Changed during play (after a restart, which change is not kept).
    Changed,
    /// A guest plays a side: their games count for no one (and between two people only two
    /// players count).
    Guest,
    /// Assist is on: its colours are help a rated game does not get.
    Assist,
}

impl GameSession {
    /// A game as it stands, set up as `setup`, the board turned to the person at the bottom.
    pub fn new(game: Game, setup: GameSetup) -> GameSession {
        GameSession {
            game,
            setup,
            flipped: setup.bottom_color() == Color::Black,
            review: None,
            thinking: Thinking::default(),
            claim_offered_at: None,
            note: None,
            record: Record::default(),
            clocks: Clocks::default(),
            partner: None,
            coach: Coaching::default(),
            outbox: Vec::new(),
            assist: Assisting::default(),
        }
    }

    /// Asks the shell for `effect`.
    pub fn effect(&mut self, effect: Effect) {
        self.outbox.push(effect);
    }

    /// Effects asked for since the last call, oldest first.
    pub fn take_effects(&mut self) -> Vec<Effect> {
        std::mem::take(&mut self.outbox)
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn setup(&self) -> GameSetup {
        self.setup
    }

    /// Which game this is, and whether it counts for the rating.
    pub fn record(&self) -> Record {
        self.record
    }

    /// Who of the device's players sits at each side (a new game starts with the player at
    /// the device at both).
    pub fn set_sides(&mut self, sides: Sides) {
        self.record.sides = sides;
        // Seated anew: a guest seated before is no reason any more.
        self.record.withdraw(Unrated::Guest);
        let guest = [Color::White, Color::Black]
            .into_iter()
            .any(|c| self.setup.is_human(c) && sides.of(c) == crate::storage::Who::Guest);
        if guest {
            // A guest is a known reason; "changed" is what a restart says when it knows none.
            self.record.unrated = match self.record.unrated {
                None | Some(Unrated::Changed) => Some(Unrated::Guest),
                other => other,
            };
        }
    }

    /// The game no longer counts for the rating, for `why` (the first reason is kept).
    pub fn set_unrated(&mut self, why: Unrated) {
        self.record.unrated.get_or_insert(why);
    }

    /// Turns the board as it was saved (after a restart).
    pub fn set_flipped(&mut self, flipped: bool) {
        self.flipped = flipped;
    }

    pub fn is_flipped(&self) -> bool {
        self.flipped
    }

    /// The position on the board (the reviewed one while reviewing).
    pub fn shown_position(&self) -> &Position {
        match self.review {
            Some(ply) => &self.game.positions()[ply],
            None => self.game.position(),
        }
    }

    /// The move that led to the shown position.
    pub fn shown_last_move(&self) -> Option<Move> {
        let ply = self.review.unwrap_or(self.game.moves().len());
        ply.checked_sub(1).map(|i| self.game.moves()[i])
    }

    /// The partner of the network game on the board.
    pub fn partner(&self) -> Option<&Partner> {
        match self.setup.mode {
            Mode::Network { .. } => self.partner.as_ref(),
            _ => None,
        }
    }

    /// Our offer is void: its "waiting for" note goes with it.
    pub fn drop_our_offer(&mut self) {
        if self
            .partner
            .as_mut()
            .and_then(|p| p.our_offer.take())
            .is_some()
        {
            self.note = None;
        }
    }

    /// The game on the board was restored after a restart: its partner will be reconnected.
    pub fn network_restored(&mut self, partner: &str, resume: LanLink) {
        if let Mode::Network { .. } = self.setup.mode {
            self.partner = Some(Partner {
                name: partner.to_string(),
                link: LinkState::Lost,
                our_offer: None,
                resume,
                away: Some(Away::now()),
            });
        }
    }

    /// Whether the board shows an earlier position (reviewing or browsing).
    pub fn is_reviewing(&self) -> bool {
        self.review.is_some()
    }

    /// The clocks of the game on the board, if it has any.
    pub fn clock(&self) -> Option<&GameClock> {
        self.clocks.clock()
    }

    /// Gives the game on the board these clocks (a new timed game, or restored ones).
    pub fn set_clock(&mut self, clock: Option<GameClock>) {
        self.clocks.set(clock, self.game.moves().len());
    }

    /// Clocks brought back after a restart or for Play on: the player's clock waits, paused,
    /// until the player touches the board (the computer's runs while it thinks).
    pub fn hold_clock(&mut self) {
        self.clocks.hold(self.game.is_over());
    }

    /// Whether the player's clock waits for a touch of the board (see [`Self::hold_clock`]).
    pub fn clock_is_held(&self) -> bool {
        self.clocks.is_held() && self.partner().is_none() && self.human_to_move()
    }

    /// Whether the computer is searching for its move.
    pub fn is_computer_thinking(&self) -> bool {
        self.thinking.purpose() == Some(Purpose::Move)
    }

    /// The coach in this game: its level, its warning, the threat it found.
    pub fn coach(&self) -> &Coaching {
        &self.coach
    }

    /// Whether a person may move now.
    pub fn human_to_move(&self) -> bool {
        !self.game.is_over()
            && self.review.is_none()
            && self.setup.is_human(self.game.position().turn())
            && self.coach.advice().is_none()
    }

    /// Another game replaces this one (a new game, or one restored from disk), set up as
    /// `setup`, the coach at `coach`: no review, note, claim, partner or clocks from the last.
    pub fn replace(&mut self, setup: GameSetup, game: Game, coach: CoachLevel) {
        self.record.serial += 1;
        self.game = game;
        self.setup = setup;
        self.flipped = setup.bottom_color() == Color::Black;
        self.review = None;
        self.claim_offered_at = None;
        self.note = None;
        self.partner = None;
        self.record.unrated = None;
        self.coach.forget(&self.game);
        self.set_coach_level(coach);
        self.forget_assist();
        self.set_clock(None);
    }
}
