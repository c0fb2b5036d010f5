//! The game on the board and what goes with it while it is played: who plays which side,
//! the moment looked at, the hint, the computer's search in progress, the clocks and the
//! network partner. One value, owned by the controller; screens read it and change it
//! through its methods.

use super::effect::Effect;
use super::partner::{Away, Partner};
use super::thinking::Purpose;
use crate::app::model::clock::{GameClock, TimeControl};
use crate::app::model::mode::{GameSetup, Mode};
use crate::lan::session::{LanClock, LinkState};
use crate::storage::LanLink;
use chesspi_engine::game::{Game, Termination};
use chesspi_engine::search::Clock;
use chesspi_engine::{Color, Move, Position};
use std::time::{Duration, Instant};

/// A game and how it is being played.
pub struct GameSession {
    pub(in crate::app) game: Game,
    pub(in crate::app) setup: GameSetup,
    /// Black at the bottom.
    pub(in crate::app) flipped: bool,
    pub(in crate::app) hint: Option<Move>,
    /// Ply of the position shown while reviewing a finished game.
    pub(in crate::app) review: Option<usize>,
    /// The search in progress and what it is for.
    pub(in crate::app) thinking: Option<(u64, Purpose)>,
    pub(in crate::app) next_request: u64,
    /// The ply at which a claimable draw was last offered, so it is offered once.
    pub(in crate::app) claim_offered_at: Option<usize>,
    /// A one-off message for the status line (e.g. a declined draw offer).
    pub(in crate::app) note: Option<String>,
    /// Counts the games started, so saving can tell a new game from a changed one.
    pub(in crate::app) serial: u64,
    /// The level was changed or the sides switched during this game: it is not rated.
    pub(in crate::app) unrated: bool,
    /// The game's clocks, for a timed game.
    pub(in crate::app) clock: Option<GameClock>,
    /// Moves on the board when the clocks were last brought up to date.
    pub(in crate::app) clock_ply: usize,
    /// Clocks brought back (a restart, Play on) wait for the player's first touch of the
    /// board before the player's clock runs again.
    pub(in crate::app) clock_held: bool,
    /// The partner of a network game.
    pub(in crate::app) partner: Option<Partner>,
    /// What the shell is asked to do, oldest first: emptied after each change.
    outbox: Vec<Effect>,
}

impl GameSession {
    /// A game as it stands, set up as `setup`, the board turned to the person at the bottom.
    pub fn new(game: Game, setup: GameSetup) -> GameSession {
        GameSession {
            game,
            setup,
            flipped: setup.bottom_color() == Color::Black,
            hint: None,
            review: None,
            thinking: None,
            next_request: 1,
            claim_offered_at: None,
            note: None,
            serial: 0,
            unrated: false,
            clock: None,
            clock_ply: 0,
            clock_held: false,
            partner: None,
            outbox: Vec::new(),
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

    /// Changes whenever another game replaces the current one.
    pub fn serial(&self) -> u64 {
        self.serial
    }

    /// Whether the game counts for the player's rating.
    pub fn is_rated(&self) -> bool {
        !self.unrated
    }

    /// The restored game was already taken out of the rating.
    pub fn set_unrated(&mut self) {
        self.unrated = true;
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

    /// The clocks of the network game on the board, as the protocol carries them.
    pub fn lan_clock(&self, now: Instant) -> Option<LanClock> {
        let c = self.clock.as_ref()?;
        Some(LanClock {
            base: c.control().base,
            increment: c.control().increment,
            white: c.remaining(Color::White, now),
            black: c.remaining(Color::Black, now),
        })
    }

    /// The player's time left after the move just made, to send with it.
    pub fn clock_after_last_move(&self) -> Option<Duration> {
        let c = self.clock.as_ref()?;
        (c.after_moves().len() == self.game.moves().len())
            .then(|| c.after_moves().last().copied())
            .flatten()
    }

    /// Whether the board shows an earlier position (reviewing or browsing).
    pub fn is_reviewing(&self) -> bool {
        self.review.is_some()
    }

    /// A game against the computer that ended before the player's first move: it is not
    /// rated (the storage's rule, [`crate::storage::stats::player_moved`]), and says so.
    pub fn is_aborted(&self) -> bool {
        match self.setup.mode {
            // A mate or stalemate from a set-up position is a result, not an abort.
            Mode::Computer { human } => {
                self.game.outcome().is_some_and(|o| {
                    !matches!(
                        o.termination,
                        Termination::Checkmate | Termination::Stalemate
                    )
                }) && !crate::storage::stats::player_moved(&self.game, human)
            }
            _ => false,
        }
    }

    /// Whether Undo takes back a resignation or an agreed or claimed draw (only that: the
    /// game goes on from the same position).
    pub fn can_reopen(&self) -> bool {
        let ends_by_choice = self.game.outcome().is_some_and(|o| {
            use chesspi_engine::game::Termination::*;
            matches!(
                o.termination,
                Resignation | Agreement | ThreefoldRepetition | FiftyMoves
            )
        });
        ends_by_choice && matches!(self.setup.mode, Mode::Computer { .. } | Mode::Friend)
    }

    /// Who resigns: the player on move between two people, the person against the computer.
    pub fn resigning_color(&self) -> Color {
        match self.setup.mode {
            Mode::Computer { human } | Mode::Network { local: human } => human,
            Mode::Friend | Mode::Demo => self.game.position().turn(),
        }
    }

    /// The clocks of the game on the board, if it has any.
    pub fn clock(&self) -> Option<&GameClock> {
        self.clock.as_ref()
    }

    /// Gives the game on the board these clocks (a new timed game, or restored ones).
    pub fn set_clock(&mut self, clock: Option<GameClock>) {
        self.clock = clock;
        self.clock_ply = self.game.moves().len();
        self.clock_held = false;
    }

    /// Clocks brought back after a restart or for Play on: the player's clock waits, paused,
    /// until the player touches the board (the computer's runs while it thinks).
    pub fn hold_clock(&mut self) {
        self.clock_held = self.clock.is_some() && !self.game.is_over();
    }

    /// The remaining times to save: White's and Black's, and the control.
    pub fn clock_times(&self, now: Instant) -> Option<(Duration, Duration, TimeControl)> {
        let c = self.clock.as_ref()?;
        Some((
            c.remaining(Color::White, now),
            c.remaining(Color::Black, now),
            c.control(),
        ))
    }

    /// What the computer's search gets of the clock: its own time and increment.
    pub fn engine_clock(&self, color: Color) -> Option<Clock> {
        let clock = self.clock.as_ref()?;
        Some(Clock {
            remaining: clock.remaining(color, Instant::now()),
            increment: clock.control().increment,
            moves_to_go: None,
        })
    }

    /// Whether the computer is searching for its move.
    pub fn is_computer_thinking(&self) -> bool {
        matches!(self.thinking, Some((_, Purpose::Move)))
    }
}
