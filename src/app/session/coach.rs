//! The coach in a game: each move of a person at the board is judged (on the computer's
//! thread, by `chesspi_engine::coach`) before the computer answers. A move the coach warns
//! about stops the game until the player takes it back, plays on, or asks to be shown the
//! better move; with the coach on, the opponent's threat is looked for after its move.
//! [`Coaching`] keeps what the coach knows; the session (`turns.rs`) asks the computer and
//! carries out the player's choices. Games with the coach on are not rated.

use crate::app::model::mode::{GameSetup, Mode};
use chesspi_engine::Square;
use chesspi_engine::coach::{CoachLevel, Judgement, Threat};
use chesspi_engine::game::Game;

/// The coach's state in the game on the board.
#[derive(Debug, Clone, Default)]
pub struct Coaching {
    level: CoachLevel,
    /// The last move judged: the number of moves then and the position's hash after it (a
    /// move taken back and played again differently is judged again).
    judged: Option<(usize, u64)>,
    advice: Option<Advice>,
    /// The opponent's threat shown, and the number of moves it is for.
    threat: Option<(usize, Threat)>,
    /// The player asked for the threat (Menu): "nothing" is said too.
    threat_asked: bool,
    /// The coach judged a move or looked for a threat in this game: switched off, the game
    /// still had its help.
    helped: bool,
}

/// The player's answer to the coach's warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CoachAnswer {
    /// The move is taken back.
    TakeBack,
    /// The move stands and the game goes on.
    PlayOn,
    /// The better move is drawn and explained.
    ShowMe,
}

/// A warning on screen.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    pub judgement: Box<Judgement>,
    /// "Show me" was tapped: the better move is drawn and explained.
    pub showing_better: bool,
}

/// Whether the coach takes part in this kind of game: a person against the computer, or two
/// at one screen.
pub fn applies(mode: Mode) -> bool {
    matches!(mode, Mode::Computer { .. } | Mode::Friend)
}

impl Coaching {
    /// How much the coach says in this game.
    pub fn level(&self) -> CoachLevel {
        self.level
    }

    /// The warning on screen, if any.
    pub fn advice(&self) -> Option<&Advice> {
        self.advice.as_ref()
    }

    /// Whether the coach judged a move or looked for a threat since the game started.
    pub fn helped(&self) -> bool {
        self.helped
    }

    /// Whether the threat looked for was the player's own question.
    pub fn asked_threat(&self) -> bool {
        self.threat_asked
    }

    /// Play on: the warning closes; `true` if there was one (the game goes on with the move).
    pub fn play_on(&mut self) -> bool {
        self.advice.take().is_some()
    }

    /// Show me: the better move drawn on the board, and why it is better.
    pub fn show_me(&mut self) {
        if let Some(advice) = &mut self.advice {
            advice.showing_better = true;
        }
    }

    /// The squares the warning is about, or the piece the `shown` threat is after.
    pub fn marks(&self, shown: Option<&Threat>) -> Vec<Square> {
        if let Some(advice) = &self.advice {
            return advice.judgement.reason.squares();
        }
        match shown {
            Some(Threat::Wins { wins, .. }) => vec![wins.square],
            _ => Vec::new(),
        }
    }

    /// The threat found in the position after `moves` moves, if any.
    pub(super) fn threat_at(&self, moves: usize) -> Option<&Threat> {
        self.threat
            .as_ref()
            .filter(|(at, _)| *at == moves)
            .map(|(_, threat)| threat)
    }

    /// Sets the level; switched off, an open warning closes: `true` if one did.
    pub(super) fn set_level(&mut self, level: CoachLevel) -> bool {
        self.level = level;
        !level.is_on() && self.advice.take().is_some()
    }

    /// A new game (or one brought back): no warning, no threat; the moves it starts with
    /// were played before, only new ones are judged. A game brought back with moves may have
    /// had the coach's help before.
    pub(in crate::app) fn forget(&mut self, game: &Game) {
        *self = Coaching {
            level: self.level,
            judged: Some((game.moves().len(), game.position().hash())),
            helped: !game.moves().is_empty(),
            ..Coaching::default()
        };
    }

    /// After a change of `game`: a warning and a threat no longer hold. Returns whether the
    /// last move is to be judged (a person at the board played it, and it was not judged).
    pub(super) fn after_move(&mut self, game: &Game, setup: GameSetup, reviewing: bool) -> bool {
        // The game changed under the warning (a takeback, a new game): it no longer holds.
        self.advice = None;
        let moves = game.moves().len();
        if self.threat.as_ref().is_some_and(|(at, _)| *at != moves) {
            self.threat = None;
        }
        if !self.level.is_on() || !applies(setup.mode) || reviewing {
            return false;
        }
        let Some(before) = moves.checked_sub(1).map(|i| &game.positions()[i]) else {
            return false;
        };
        if !setup.is_human(before.turn()) {
            return false;
        }
        self.judged != Some((moves, game.position().hash()))
    }

    /// The judgement of the last move of `game` arrived (`None`: it could not be judged).
    /// Returns whether the coach warns (the game waits for the player's choice).
    pub(super) fn judged(&mut self, game: &Game, judgement: Option<Box<Judgement>>) -> bool {
        self.helped = true;
        let moves = game.moves().len();
        self.judged = Some((moves, game.position().hash()));
        match judgement {
            Some(judgement)
                if self.level.warns(judgement.verdict)
                    && moves > 0
                    && judgement.played == game.moves()[moves - 1] =>
            {
                self.advice = Some(Advice {
                    judgement,
                    showing_better: false,
                });
                true
            }
            _ => false,
        }
    }

    /// Take back: the warning closes and the move, played again, is judged again; `false`
    /// without a warning.
    pub(super) fn take_back(&mut self) -> bool {
        if self.advice.take().is_none() {
            return false;
        }
        self.judged = None;
        true
    }

    /// Whether the coach looks for the threat of the opponent's move just played: the coach
    /// on, against the computer.
    pub(super) fn watches(&self, game: &Game, setup: GameSetup) -> bool {
        let opponent_moved = game
            .moves()
            .len()
            .checked_sub(1)
            .is_some_and(|i| !setup.is_human(game.positions()[i].turn()));
        self.level.is_on() && matches!(setup.mode, Mode::Computer { .. }) && opponent_moved
    }

    /// A threat is looked for: `asked` by the player, or by the coach on its own.
    pub(super) fn looks_for_threat(&mut self, asked: bool) {
        self.threat_asked = asked;
    }

    /// The threat search answered for the position after `moves` moves. Returns whether
    /// the player is told that nothing is threatened (they asked).
    pub(super) fn threat_found(&mut self, moves: usize, threat: Option<Threat>) -> bool {
        self.helped = true;
        let asked = std::mem::take(&mut self.threat_asked);
        match threat {
            Some(threat) => {
                self.threat = Some((moves, threat));
                false
            }
            None => asked,
        }
    }
}
