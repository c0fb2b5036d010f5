//! hello / welcome / error: pairing a new guest, and resuming a game on a new connection.

use super::player::shown_name;
use super::{CodeChoice, ConnId, Event, LanClock, LinkState, MAX_WRONG_CODES, Role, Session};
use crate::lan::codec::{
    ErrorCode, Hello, Message, PROTOCOL_VERSION, PlayerRating, Resume, Welcome,
};
use crate::lan::random;
use crate::lan::secret;
use chesspi_engine::game::{Game, Outcome, Termination};
use chesspi_engine::{Color, Position};
use std::time::Instant;

impl Session {
    pub(super) fn send_hello(&mut self, id: ConnId) {
        let resume = self.is_paired().then(|| Resume {
            game: self.game_id.clone(),
            ply: self.ply_count(),
            forfeit: self.forfeit_claimed,
            secret: self.secret.clone(),
        });
        let hello = Hello {
            protocol: PROTOCOL_VERSION,
            name: self.name.clone(),
            code: self.pairing.code.clone(),
            resume,
            player: self.player.clone(),
        };
        self.send(id, Message::Hello(hello));
    }

    pub(super) fn ply_count(&self) -> u32 {
        u32::try_from(self.game.moves().len()).unwrap_or(u32::MAX)
    }

    fn welcome(&self) -> Welcome {
        Welcome {
            protocol: PROTOCOL_VERSION,
            name: self.name.clone(),
            game: self.game_id.clone(),
            you: (!self.local).into(),
            start: self.game.initial_position().to_fen(),
            moves: self.game.moves().iter().map(|m| m.to_uci()).collect(),
            result: self.game.outcome().map(|o| o.result_str().to_string()),
            clock: self.clock.map(LanClock::to_msg),
            termination: self
                .game
                .outcome()
                .and_then(|o| match o.termination {
                    Termination::Time => Some("time"),
                    Termination::Abandonment => Some("abandoned"),
                    _ => None,
                })
                .map(str::to_string),
            // Only ever to the partner: a guest that gave the code or the secret itself.
            secret: self.secret.clone(),
            player: self.player.clone(),
        }
    }

    /// Host: a guest greets us.
    pub(super) fn on_hello(&mut self, id: ConnId, hello: Hello, now: Instant) {
        let name = shown_name(&hello.name, hello.player.as_ref());
        let rating = hello.player.and_then(|p| p.rating);
        match hello.resume {
            Some(resume) => {
                // The secret is the partner's credential (the code may have changed since);
                // the id alone, which a PGN or a log may show, is not. Both wrong look alike.
                if !self.is_paired() || !self.proves_partner(&resume) {
                    self.refuse(id, ErrorCode::UnknownGame, "no such game here");
                    return;
                }
                log::info!(
                    "lan: {name} resumes at ply {} (we have {})",
                    resume.ply,
                    self.ply_count()
                );
                // Judged before the guest counts as connected again.
                self.take_forfeit_claim(&resume, now);
                self.partner = Some(name);
                self.partner_rating = rating;
                self.mark_playing(id, now);
                // The welcome carries every move: our move in flight is delivered by it.
                self.unacked = None;
                self.send(id, Message::Welcome(self.welcome()));
            }
            None if self.is_paired() => self.refuse(id, ErrorCode::Busy, "already playing"),
            None => self.pair_by_code(id, &hello.code, (name, rating), now),
        }
    }

    /// Whether a `resume` names our game and shows its secret (a game saved before there
    /// were secrets has none: its id is all there is).
    fn proves_partner(&self, resume: &Resume) -> bool {
        let game = secret::same(&resume.game, &self.game_id);
        let key = match (&self.secret, &resume.secret) {
            (None, _) => true,
            (Some(ours), Some(theirs)) => secret::same(theirs, ours),
            (Some(_), None) => false,
        };
        game & key
    }

    /// Host: a new guest gives the pairing code, unless its address must wait after wrong
    /// codes (then the code is not even looked at, so waiting out the answer tells nothing).
    /// `partner`: the guest's name to show and its player's rating.
    fn pair_by_code(
        &mut self,
        id: ConnId,
        code: &str,
        (name, rating): (String, Option<PlayerRating>),
        now: Instant,
    ) {
        let from = self.conns.get(&id).and_then(|c| c.origin);
        if let Some(left) = self.strikes.locked(from, now) {
            let secs = left.as_millis().div_ceil(1000);
            let text = format!("too many wrong codes: try again in {secs} s");
            self.refuse(id, ErrorCode::Wait, &text);
            return;
        }
        if !secret::same(code, &self.pairing.code) {
            self.strikes.strike(from, self.timing.wrong_code_wait, now);
            self.wrong_code(id);
            return;
        }
        self.pairing.wrong = 0;
        self.partner = Some(name.clone());
        self.partner_rating = rating;
        self.mark_playing(id, now);
        self.send(id, Message::Welcome(self.welcome()));
        self.event(Event::Paired {
            partner: name,
            partner_rating: rating,
            local: self.local,
            game_id: self.resume_key().to_string(),
            game: self.game.clone(),
            clock: self.clock,
        });
    }

    fn wrong_code(&mut self, id: ConnId) {
        self.pairing.wrong += 1;
        self.refuse(id, ErrorCode::BadCode, "wrong pairing code");
        self.event(Event::WrongCode {
            attempts: self.pairing.wrong,
        });
        if self.pairing.wrong >= MAX_WRONG_CODES {
            self.pairing.wrong = 0;
            // A fixed code is the owner's choice; only a random one is replaced.
            if self.pairing.choice == CodeChoice::Random {
                let old = std::mem::take(&mut self.pairing.code);
                let mut code = random::pairing_code();
                while code == old {
                    code = random::pairing_code();
                }
                self.pairing.code = code.clone();
                self.event(Event::CodeChanged(code));
            }
        }
    }

    /// Guest: the host refused us during the handshake.
    pub(super) fn on_refusal(&mut self, id: ConnId, code: ErrorCode, text: String) {
        log::warn!("lan: host refused: {code} {text}");
        self.closed = true;
        self.close(id);
        self.event(Event::Refused { code, text });
        self.set_link(LinkState::Closed);
    }

    /// Guest: the host accepted us and sent the whole game.
    pub(super) fn on_welcome(&mut self, id: ConnId, w: Welcome, now: Instant) {
        let welcomed = game_from_welcome(&w, self.forfeit_claimed).and_then(|game| {
            let clock = w.clock.as_ref().map(LanClock::from_msg).transpose()?;
            Ok((game, clock))
        });
        let (host_game, clock) = match welcomed {
            Ok(welcomed) => welcomed,
            Err(why) => {
                self.send(id, Message::error(ErrorCode::BadMessage, why.clone()));
                self.on_refusal(id, ErrorCode::BadMessage, why);
                return;
            }
        };
        let name = shown_name(&w.name, w.player.as_ref());
        let rating = w.player.as_ref().and_then(|p| p.rating);
        if !self.is_paired() {
            self.game_id = w.game;
            // A secret of a form we do not keep is left out: the game resumes by its id.
            self.secret = w.secret.filter(|s| secret::acceptable(s));
            self.game = host_game;
            self.local = w.you.into();
            self.partner = Some(name.clone());
            self.partner_rating = rating;
            self.clock = clock;
            self.mark_playing(id, now);
            self.event(Event::Paired {
                partner: name,
                partner_rating: rating,
                local: self.local,
                game_id: self.resume_key().to_string(),
                game: self.game.clone(),
                clock,
            });
            return;
        }
        if w.game != self.game_id || Color::from(w.you) != self.local {
            self.on_refusal(
                id,
                ErrorCode::UnknownGame,
                "the host has another game".into(),
            );
            return;
        }
        if !self.welcome_after_claim(id, &host_game) {
            return;
        }
        self.partner = Some(name);
        self.partner_rating = rating;
        self.mark_playing(id, now);
        // The host decides the clocks; ours stood still while the link was down.
        self.clock = clock;
        self.event(Event::Clock(clock));
        self.reconcile(id, host_game);
    }

    /// Adopts the host's game, keeping our move the host had not received yet.
    fn reconcile(&mut self, id: ConnId, host_game: Game) {
        let ours = self.game.moves();
        let theirs = host_game.moves();
        let resend = match self.unacked {
            // Not into a game the host has ended (e.g. it resigned meanwhile).
            Some(ply)
                if ply as usize == theirs.len()
                    && ours.len() == theirs.len() + 1
                    && !host_game.is_over() =>
            {
                ours.starts_with(theirs).then_some(ours[ply as usize])
            }
            _ => None,
        };
        let unchanged = ours == theirs && self.game.outcome() == host_game.outcome();
        match resend {
            Some(mv) => {
                // The game now is the host's plus our move, as before.
                log::info!("lan: resending move {} ({mv})", theirs.len());
                self.send(
                    id,
                    Message::Move {
                        ply: self.ply_count() - 1,
                        uci: mv.to_uci(),
                        clock: self.clock.map(|c| {
                            u64::try_from(c.left(self.local).as_millis()).unwrap_or(u64::MAX)
                        }),
                    },
                );
            }
            None => {
                self.unacked = None;
                if !unchanged {
                    self.game = host_game;
                    if self.resign_unsent {
                        // Our resignation stands on the agreed game; fails if it already ended.
                        let _ = self.game.resign(self.local);
                    }
                    if self.flag_unsent && self.game.position().turn() == self.local {
                        // So does our fallen flag, if we are still the side on move there.
                        let _ = self.game.flag(self.local);
                    }
                    self.event(Event::Resynced {
                        game: self.game.clone(),
                    });
                }
            }
        }
        if std::mem::take(&mut self.resign_unsent) {
            self.send(id, Message::Resign);
        }
        let flagged = self
            .game
            .outcome()
            .is_some_and(|o| o.termination == Termination::Time);
        if std::mem::take(&mut self.flag_unsent) && flagged {
            let ply = self.ply_count();
            self.send(id, Message::Flag { ply });
        }
    }
}

/// Rebuilds the host's game from its welcome. `claimed`: we claimed the win by forfeit, so
/// the host may confirm it.
fn game_from_welcome(w: &Welcome, claimed: bool) -> Result<Game, String> {
    let start = Position::from_fen(&w.start).map_err(|e| format!("bad start FEN: {e}"))?;
    let mut game = Game::from_position(start);
    for (i, text) in w.moves.iter().enumerate() {
        let mv = game
            .position()
            .parse_uci_move(text)
            .map_err(|e| format!("move {i}: {e}"))?;
        game.play(mv).map_err(|e| format!("move {i}: {e}"))?;
    }
    if let Some(result) = &w.result
        && !game.is_over()
    {
        // Results the moves do not explain came from a resignation or an agreed draw.
        let (decisive, drawn) = match w.termination.as_deref() {
            Some("time") => (Termination::Time, Termination::Time),
            Some("abandoned") => (Termination::Abandonment, Termination::Abandonment),
            _ => (Termination::Resignation, Termination::Agreement),
        };
        let outcome = match result.as_str() {
            "1-0" => Outcome::win(Color::White, decisive),
            "0-1" => Outcome::win(Color::Black, decisive),
            "1/2-1/2" => Outcome::draw(drawn),
            other => return Err(format!("bad result `{other}`")),
        };
        // A forfeit is the host's win over us (we were away), ours only when we claimed it,
        // and never a draw.
        let you = Color::from(w.you);
        let fits = outcome.winner == Some(!you) || (claimed && outcome.winner == Some(you));
        if decisive == Termination::Abandonment && !fits {
            return Err(format!("`abandoned` with result `{result}` does not fit"));
        }
        game.set_outcome(outcome).map_err(|e| e.to_string())?;
    }
    Ok(game)
}

impl Role {
    pub fn is_host(self) -> bool {
        self == Role::Host
    }
}
