//! How the game goes on after each change: the coach judges a person's move, the computer is
//! asked for its own, a person on move may claim a draw; the computer's answers taken; the
//! clocks kept in step and their flags. What needs the screen (the board's touches, a
//! dialog, Train) is left to the caller, told by the return values.

use super::coach::applies;
use super::effect::Effect;
use super::game::{GameSession, Unrated};
use super::thinking::{EndgameReply, Purpose, Reply, ThinkRequest};
use crate::app::model::mode::Mode;
use crate::tr;
use chesspi_engine::Color;
use chesspi_engine::coach::{CoachLevel, Judgement, Threat};
use chesspi_engine::game::Termination;
use std::time::Instant;

/// What is left for the caller once the session has taken the computer's answer.
#[derive(Debug)]
#[must_use]
pub enum Answered {
    /// Nothing: a stale answer, or one taken here (a hint, a declined draw, a threat).
    Taken,
    /// The game changed (the computer moved, or agreed to a draw): as after any change.
    Changed,
    /// The move judged stands without a word: the game goes on.
    GoesOn,
    /// The coach warns about the move: a piece in hand is let go.
    Warned,
    /// A move tried in Train was judged: for Train.
    Train(Option<Box<Judgement>>),
    /// The worker's answer in an endgame lesson: for Endgames.
    Endgame(EndgameReply),
}

impl GameSession {
    /// After every change of the game: the hint goes, the shell is told (to save it), and
    /// the coach judges a person's move. Returns whether it does (the game waits for its
    /// judgement); otherwise the game goes on ([`Self::next_turn`]). `book`: the computer
    /// may play from its opening book.
    pub fn changed(&mut self, book: bool) -> bool {
        self.thinking.set_hint(None);
        self.effect(Effect::GameChanged);
        if !self
            .coach
            .after_move(&self.game, self.setup, self.review.is_some())
        {
            return false;
        }
        self.cancel_thinking();
        self.request(Purpose::Judge, book);
        true
    }

    /// The game goes on: the computer is asked for its move, or the coach looks for the
    /// opponent's threat. Returns the draw a person on move may claim, offered once at each
    /// move, when `may_offer` (no dialog open): the caller asks them.
    pub fn next_turn(&mut self, book: bool, may_offer: bool) -> Option<Termination> {
        if self.game.is_over() {
            self.cancel_thinking();
            return None;
        }
        let turn = self.game.position().turn();
        if self.setup.is_computer(turn) {
            if self.setup.mode == Mode::Demo && self.game.claimable_draw().is_some() {
                // The demo would otherwise shuffle on until the automatic draw.
                if self.game.claim_draw().is_ok() {
                    self.effect(Effect::GameChanged);
                }
                return None;
            }
            if !self.is_computer_thinking() {
                self.cancel_thinking();
                self.request(Purpose::Move, book);
            }
        } else if let Some(termination) = self
            .game
            .claimable_draw()
            .filter(|_| self.setup.is_human(turn) && !self.setup.is_partner(!turn))
        {
            let ply = self.game.moves().len();
            if self.claim_offered_at != Some(ply) && may_offer {
                self.claim_offered_at = Some(ply);
                return Some(termination);
            }
        } else if self.coach.watches(&self.game, self.setup)
            && self.can_ask_threat()
            && !self.thinking.is_busy()
        {
            self.coach.looks_for_threat(false);
            self.request(Purpose::Threat, book);
        }
        None
    }

    /// Asks the computer's thread for `purpose` on the game as it stands.
    pub fn request(&mut self, purpose: Purpose, book: bool) {
        let id = self.thinking.begin(purpose);
        let clock = match purpose {
            Purpose::Move => self.clocks.engine_clock(self.game.position().turn()),
            Purpose::Hint
            | Purpose::DrawOffer
            | Purpose::Judge
            | Purpose::Threat
            | Purpose::TrainJudge
            | Purpose::EndgameProbe
            | Purpose::EndgameMove => None,
        };
        self.effect(Effect::Think(ThinkRequest {
            id,
            purpose,
            game: self.game.clone(),
            level: self.setup.level,
            clock,
            book,
        }));
    }

    /// Stops the search in progress; its answer, if it still comes, is stale.
    pub fn cancel_thinking(&mut self) {
        if self.thinking.stop() {
            self.effect(Effect::CancelThinking);
        }
    }

    /// Drops a hint and stops a search for one, or for a draw decision or a threat (the
    /// player moved on).
    pub fn cancel_hint(&mut self) {
        self.thinking.set_hint(None);
        if matches!(
            self.thinking.purpose(),
            Some(Purpose::Hint | Purpose::DrawOffer | Purpose::Threat)
        ) {
            self.cancel_thinking();
        }
    }

    /// The worker's answer to request `id`, taken into the game. Stale answers (after an
    /// undo, a new game, ...) are ignored.
    pub fn answered(&mut self, id: u64, reply: Reply) -> Answered {
        let Some(purpose) = self.thinking.answered(id) else {
            return Answered::Taken;
        };
        match (purpose, reply) {
            (Purpose::Move, Reply::Move(Some(mv))) => {
                let turn = self.game.position().turn();
                if self.setup.is_computer(turn) && self.game.play(mv).is_ok() {
                    return Answered::Changed;
                }
            }
            (Purpose::Hint, Reply::Move(mv)) if self.human_to_move() => self.thinking.set_hint(mv),
            (Purpose::DrawOffer, Reply::Draw { accept: true }) => {
                return match self.game.agree_draw() {
                    Ok(_) => Answered::Changed,
                    Err(_) => Answered::Taken,
                };
            }
            (Purpose::DrawOffer, Reply::Draw { accept: false }) => {
                self.note = Some(tr!("The computer declines the draw — play on"));
            }
            (Purpose::Judge, Reply::Judged(judgement)) => {
                return if self.coach.judged(&self.game, judgement) {
                    Answered::Warned
                } else {
                    Answered::GoesOn
                };
            }
            (Purpose::Threat, Reply::Threat(threat)) => {
                let say_nothing = self.coach.threat_found(self.game.moves().len(), threat);
                if say_nothing {
                    self.note = Some(tr!("Nothing is threatened right now"));
                }
            }
            (Purpose::TrainJudge, Reply::Judged(judgement)) => return Answered::Train(judgement),
            (Purpose::EndgameProbe | Purpose::EndgameMove, Reply::Endgame(reply)) => {
                return Answered::Endgame(reply);
            }
            _ => {}
        }
        Answered::Taken
    }

    /// Sets the coach for this game. Switched on, the game is no longer rated; switched off
    /// before it judged a move, it was no help, and the game is rated again (New game's
    /// "Coach: off" over the Settings' coach). Switched off, an open warning closes: `true`
    /// if one did (the game goes on, [`Self::next_turn`]).
    pub fn set_coach_level(&mut self, level: CoachLevel) -> bool {
        let closed = self.coach.set_level(level);
        if level.is_on() && applies(self.setup.mode) {
            self.set_unrated(Unrated::Coach);
        } else if !level.is_on() && !self.coach.helped() {
            self.record.withdraw(Unrated::Coach);
        }
        closed
    }

    /// The coach's Take back: the position before the move, nothing else changed (the clocks
    /// included). Returns whether it took a move back (the game changed).
    pub fn coach_take_back(&mut self) -> bool {
        if !self.coach.take_back() {
            return false;
        }
        self.cancel_thinking();
        self.game.undo();
        self.claim_offered_at = Some(self.game.moves().len());
        true
    }

    /// The opponent's threat shown on the board, if any.
    pub fn shown_threat(&self) -> Option<&Threat> {
        // A note (a declined draw) takes the status line, where the threat's words were: its
        // arrow goes with them.
        self.coach
            .threat_at(self.game.moves().len())
            .filter(|_| self.human_to_move() && self.note.is_none())
    }

    /// Whether the player may ask what is threatened: a person on move, in a game against
    /// the computer or between two.
    pub fn can_ask_threat(&self) -> bool {
        // Not while the last move is judged (two players): the worker does one search.
        applies(self.setup.mode)
            && self.human_to_move()
            && !self.game.position().is_check()
            && self.thinking.purpose() != Some(Purpose::Judge)
    }

    /// Menu → What is threatened?
    pub fn ask_threat(&mut self, book: bool) {
        if !self.can_ask_threat() {
            return;
        }
        self.cancel_hint();
        self.coach.looks_for_threat(true);
        self.request(Purpose::Threat, book);
    }

    /// Brings the clocks up to date after any change (see [`super::clocks::Clocks::sync`]).
    /// They run when the `network` game's rule says so, or else, with the player `at_board`
    /// (not away in a menu or another screen, the screen not asleep), while the game goes
    /// on and neither a held clock nor the coach (a move judged, a warning open) stops them.
    pub fn sync_clock(&mut self, now: Instant, network: Option<bool>, at_board: bool) {
        let may_run = network.unwrap_or_else(|| {
            at_board
                && !self.clock_is_held()
                && self.thinking.purpose() != Some(Purpose::Judge)
                && self.coach.advice().is_none()
                && !self.game.is_over()
        });
        let ply = self.game.moves().len();
        let turn: Color = self.game.position().turn();
        self.clocks.sync(ply, turn, may_run, now);
    }

    /// The clock's heartbeat: a fallen flag ends the game ("White wins on time", or a draw
    /// when the other side cannot mate by any sequence of legal moves). Returns whether it
    /// did (the game changed).
    pub fn clock_tick(&mut self, now: Instant) -> bool {
        let Some(color) = self.clocks.clock().and_then(|c| c.flagged(now)) else {
            return false;
        };
        if self.game.is_over() || self.game.flag(color).is_err() {
            return false;
        }
        self.cancel_thinking();
        if let Some(c) = self.clocks.clock_mut() {
            c.pause(now);
        }
        true
    }
}
