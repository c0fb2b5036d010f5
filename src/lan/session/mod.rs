//! One side of a LAN game as a plain state machine: no sockets, no clock of its own. The
//! network thread feeds it connections, decoded lines and ticks; the app feeds it local
//! actions; it answers with [`Output`]s (messages to send, connections to close, events).
//!
//! The session outlives connections: a dropped link keeps the game, and a new connection
//! resumes it (by game id and ply, see docs/PROTOCOL.md).

mod door;
mod events;
mod forfeit;
mod handshake;
mod lan_clock;
mod play;
mod player;
mod setup;
#[cfg(test)]
mod tests;

use super::codec::{DecodeError, ErrorCode, Message, OfferKind, PlayerCard, PlayerRating};
use super::random;
use super::secret::{self, ResumeKey};
use chesspi_engine::Color;
use chesspi_engine::game::Game;
use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

pub use door::{MAX_CONNECTIONS, UNPAIRED_PER_ADDRESS};
pub use events::{Event, LinkState, LocalError, Output};
pub use forfeit::DEFAULT_FORFEIT_AFTER;
pub use lan_clock::{LanClock, MAX_CLOCK};
pub use player::{MAX_NAME_CHARS, clean_name};
pub use setup::{CodeChoice, Role, Timing};

/// Names one transport connection; given by the network layer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConnId(pub u64);

/// A game saved during play, enough to resume it with the same partner.
#[derive(Debug, Clone)]
pub struct SavedGame {
    /// What resumes the game ([`ResumeKey`] as a string: the game id and the resume secret).
    /// A secret: saved on the device, never shown or exported.
    pub game_id: String,
    pub game: Game,
    pub local: Color,
    pub partner: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Handshake,
    Playing,
}

#[derive(Debug)]
struct Conn {
    phase: Phase,
    /// Where it comes from (host), for the door's limits.
    origin: door::Origin,
    /// When the connection opened: the handshake must be done within its time (see
    /// [`Session::handshake_time`]), whatever the peer sends meanwhile.
    opened: Instant,
    last_heard: Instant,
    last_ping: Instant,
    /// Arrival times of the latest lines, for the flood limit.
    recent: VecDeque<Instant>,
}

/// The host's pairing code and the wrong attempts against it.
#[derive(Debug)]
struct Pairing {
    choice: CodeChoice,
    code: String,
    wrong: u32,
}

/// Wrong codes before the host makes a new one.
pub const MAX_WRONG_CODES: u32 = 5;

/// One side of a LAN game.
#[derive(Debug)]
pub struct Session {
    role: Role,
    name: String,
    timing: Timing,
    /// Host: the code guests must give. Guest: the code we give.
    pairing: Pairing,
    game_id: String,
    /// Proves the partner when it resumes (host: made at the start; guest: from `welcome`).
    /// `None` in a game saved before there were secrets: then the id alone resumes it.
    secret: Option<String>,
    /// Host: wrong codes per address.
    strikes: door::Strikebook,
    game: Game,
    local: Color,
    partner: Option<String>,
    /// The player at this device, announced to the partner (`None`: a guest, unrated).
    player: Option<PlayerCard>,
    /// The partner's rating as its latest handshake gave it (`None`: unrated).
    partner_rating: Option<PlayerRating>,
    /// Our last move, sent but not yet acknowledged.
    unacked: Option<u32>,
    /// We resigned while the link was down (guest): tell the host after the welcome.
    resign_unsent: bool,
    /// Our flag fell while the link was down (guest): tell the host after the welcome.
    flag_unsent: bool,
    /// The clocks of a timed game: the host's choice, sent in `welcome`.
    clock: Option<LanClock>,
    /// The partner away this long: a forfeit may be claimed (ours or the partner's).
    forfeit_after: Duration,
    /// Since when the partner has had no connection (noted by `tick`).
    away_since: Option<Instant>,
    /// Restored from a save and not connected since: this device was away itself, for a
    /// time it cannot know.
    restored: bool,
    /// We won by forfeit (the partner away too long): a guest says so when it gets back.
    forfeit_claimed: bool,
    our_offer: Option<OfferKind>,
    their_offer: Option<OfferKind>,
    conns: BTreeMap<ConnId, Conn>,
    active: Option<ConnId>,
    link: LinkState,
    closed: bool,
    ping_seq: u64,
    out: VecDeque<Output>,
}

impl Session {
    fn base(role: Role, name: &str, timing: Timing, pairing: Pairing, saved: SavedGame) -> Session {
        let key = ResumeKey::parse(&saved.game_id);
        Session {
            role,
            name: clean_name(name),
            timing,
            pairing,
            game_id: key.game_id,
            secret: key.secret,
            strikes: door::Strikebook::default(),
            game: saved.game,
            local: saved.local,
            partner: None,
            player: None,
            partner_rating: None,
            unacked: None,
            resign_unsent: false,
            flag_unsent: false,
            clock: None,
            forfeit_after: DEFAULT_FORFEIT_AFTER,
            away_since: None,
            restored: false,
            forfeit_claimed: false,
            our_offer: None,
            their_offer: None,
            conns: BTreeMap::new(),
            active: None,
            link: LinkState::Waiting,
            closed: false,
            ping_seq: 0,
            out: VecDeque::new(),
        }
    }

    /// A host offering a new game from `game`'s position, taking `local`.
    pub fn host(name: &str, code: CodeChoice, local: Color, game: Game, timing: Timing) -> Session {
        let current = match &code {
            CodeChoice::Random => random::pairing_code(),
            CodeChoice::Fixed(c) => c.clone(),
        };
        let pairing = Pairing {
            choice: code,
            code: current,
            wrong: 0,
        };
        let key = ResumeKey {
            game_id: random::game_id(),
            secret: Some(secret::new_secret()),
        };
        let saved = SavedGame {
            game_id: key.to_string(),
            game,
            local,
            partner: String::new(),
        };
        Session::base(Role::Host, name, timing, pairing, saved)
    }

    /// A host restored from its saved game: it waits for that partner to resume.
    pub fn restore_host(name: &str, code: CodeChoice, saved: SavedGame, timing: Timing) -> Session {
        let mut s = Session::host(name, code, saved.local, Game::new(), timing);
        let key = ResumeKey::parse(&saved.game_id);
        (s.game_id, s.secret) = (key.game_id, key.secret);
        s.game = saved.game;
        s.partner = Some(saved.partner);
        s.link = LinkState::Lost;
        s.restored = true;
        s.forfeit_claimed = forfeit::won_by_forfeit(&s.game, s.local);
        s
    }

    /// A guest joining with the host's pairing code.
    pub fn guest(name: &str, code: &str, timing: Timing) -> Session {
        let pairing = Pairing {
            choice: CodeChoice::Fixed(code.to_string()),
            code: code.to_string(),
            wrong: 0,
        };
        let saved = SavedGame {
            game_id: String::new(),
            game: Game::new(),
            local: Color::Black,
            partner: String::new(),
        };
        Session::base(Role::Guest, name, timing, pairing, saved)
    }

    /// A guest restored from its saved game: it resumes with the host it played.
    pub fn restore_guest(name: &str, saved: SavedGame, timing: Timing) -> Session {
        let mut s = Session::guest(name, "", timing);
        let key = ResumeKey::parse(&saved.game_id);
        (s.game_id, s.secret) = (key.game_id, key.secret);
        s.game = saved.game;
        s.local = saved.local;
        s.partner = Some(saved.partner);
        s.link = LinkState::Lost;
        s.restored = true;
        s.forfeit_claimed = forfeit::won_by_forfeit(&s.game, s.local);
        s
    }

    /// The session of a timed game (host: its time control and clocks; a restored guest:
    /// its clocks until the host's welcome replaces them).
    #[must_use]
    pub fn with_clock(mut self, clock: Option<LanClock>) -> Session {
        self.clock = clock;
        self
    }

    /// The clocks as last known here (timed games).
    pub fn clock(&self) -> Option<LanClock> {
        self.clock
    }

    /// The app's clocks now (e.g. stopped when the link dropped): a later `welcome` carries
    /// them. Ignored in an untimed game.
    pub fn set_clock_times(&mut self, white: Duration, black: Duration) {
        if let Some(c) = self.clock.as_mut() {
            c.white = white.min(MAX_CLOCK);
            c.black = black.min(MAX_CLOCK);
        }
    }

    pub fn role(&self) -> Role {
        self.role
    }

    /// The game as both sides agreed it, plus our move in flight if any.
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn local_color(&self) -> Color {
        self.local
    }

    /// The game's id (the protocol's `game`; not secret).
    pub fn game_id(&self) -> &str {
        &self.game_id
    }

    /// What resumes this game: its id and the resume secret (to save, never to show).
    pub fn resume_key(&self) -> ResumeKey {
        ResumeKey {
            game_id: self.game_id.clone(),
            secret: self.secret.clone(),
        }
    }

    pub fn partner(&self) -> Option<&str> {
        self.partner.as_deref()
    }

    /// Host: the code a guest must give now.
    pub fn code(&self) -> &str {
        &self.pairing.code
    }

    pub fn link(&self) -> LinkState {
        self.link
    }

    pub fn is_paired(&self) -> bool {
        self.partner.is_some()
    }

    /// True after bye or a refusal: no reconnecting.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Our move waiting for its ack.
    pub fn unacked(&self) -> Option<u32> {
        self.unacked
    }

    /// What to save so the game survives a power cut (None before pairing).
    pub fn saved(&self) -> Option<SavedGame> {
        Some(SavedGame {
            game_id: self.resume_key().to_string(),
            game: self.game.clone(),
            local: self.local,
            partner: self.partner.clone()?,
        })
    }

    /// The next output, oldest first.
    pub fn poll(&mut self) -> Option<Output> {
        self.out.pop_front()
    }

    /// All pending outputs.
    pub fn drain(&mut self) -> Vec<Output> {
        self.out.drain(..).collect()
    }

    /// A transport connection opened (guest: connected; host: accepted from an address it
    /// does not know, see [`Session::accepted`]).
    pub fn connection_opened(&mut self, id: ConnId, now: Instant) {
        self.open(id, None, now);
    }

    fn open(&mut self, id: ConnId, origin: door::Origin, now: Instant) {
        if self.closed {
            // Say why, so a guest stops dialing instead of retrying a silent close forever.
            if self.role == Role::Host {
                let text = "this game is over for the network: the partner left";
                self.send(id, Message::error(ErrorCode::Closed, text));
            }
            self.out.push_back(Output::Close(id));
            return;
        }
        self.conns.insert(
            id,
            Conn {
                phase: Phase::Handshake,
                origin,
                opened: now,
                last_heard: now,
                last_ping: now,
                recent: VecDeque::new(),
            },
        );
        if self.role == Role::Guest {
            self.send_hello(id);
        }
    }

    /// The transport connection closed (by the peer or an error).
    pub fn connection_closed(&mut self, id: ConnId) {
        self.forget(id);
    }

    /// The guest's network layer starts trying to reach the host again.
    pub fn reconnecting(&mut self) {
        if self.role == Role::Guest && self.is_paired() && !self.closed {
            self.set_link(LinkState::Reconnecting);
        }
    }

    /// One line arrived on `id`, decoded or not.
    pub fn received(&mut self, id: ConnId, line: Result<Message, DecodeError>, now: Instant) {
        let Some(conn) = self.conns.get_mut(&id) else {
            return;
        };
        conn.last_heard = now;
        conn.recent.push_back(now);
        while conn
            .recent
            .front()
            .is_some_and(|t| now.duration_since(*t) >= self.timing.flood_window)
        {
            conn.recent.pop_front();
        }
        if conn.recent.len() > self.timing.flood_limit {
            log::warn!(
                "lan: {id:?} sends more than {} lines a second",
                self.timing.flood_limit
            );
            self.refuse(id, ErrorCode::Flood, "too many messages");
            return;
        }
        let phase = conn.phase;
        match line {
            Ok(message) => self.dispatch(id, phase, message, now),
            Err(DecodeError::TooLong) => self.refuse(id, ErrorCode::TooLong, "line too long"),
            Err(DecodeError::Version(v)) => {
                self.refuse(id, ErrorCode::Version, &format!("protocol {v} is not 1"));
            }
            Err(e) => {
                log::debug!("lan: {id:?}: {e}");
                self.send(id, Message::error(e.code(), e.to_string()));
            }
        }
    }

    /// Time passed: sends pings, closes silent connections, notes since when the partner
    /// is away.
    pub fn tick(&mut self, now: Instant) {
        let mut silent = Vec::new();
        let mut ping = Vec::new();
        let handshake_time = self.handshake_time();
        for (&id, conn) in &mut self.conns {
            let handshake_over = conn.phase == Phase::Handshake
                && now.saturating_duration_since(conn.opened) >= handshake_time;
            if handshake_over
                || now.saturating_duration_since(conn.last_heard) >= self.timing.lost_after
            {
                silent.push(id);
            } else if conn.phase == Phase::Playing
                && now.saturating_duration_since(conn.last_ping) >= self.timing.ping_every
            {
                conn.last_ping = now;
                ping.push(id);
            }
        }
        for id in ping {
            self.ping_seq += 1;
            self.send(id, Message::Ping { seq: self.ping_seq });
        }
        for id in silent {
            log::info!("lan: {id:?} silent or without handshake in time, closing");
            self.close(id);
        }
        self.note_away(now);
    }

    /// How long after opening a connection must have finished its handshake: a guest waits
    /// for the host's `welcome` as long as for any sign of life; a host gives a stranger
    /// less to say its `hello` (a guest sends it at once).
    fn handshake_time(&self) -> Duration {
        match self.role {
            Role::Guest => self.timing.lost_after,
            Role::Host => self.timing.hello_within.min(self.timing.lost_after),
        }
    }

    /// The earliest time [`Session::tick`] has something to do.
    pub fn next_deadline(&self) -> Option<Instant> {
        let handshake_time = self.handshake_time();
        self.conns
            .values()
            .flat_map(|c| {
                let lost = c.last_heard + self.timing.lost_after;
                let ping =
                    (c.phase == Phase::Playing).then(|| c.last_ping + self.timing.ping_every);
                let handshake = (c.phase == Phase::Handshake).then(|| c.opened + handshake_time);
                [Some(lost), ping, handshake]
            })
            .flatten()
            .min()
    }

    /// Leaves for good: says bye and closes.
    pub fn leave(&mut self) {
        if let Some(id) = self.active {
            self.send(id, Message::Bye);
        }
        let ids: Vec<ConnId> = self.conns.keys().copied().collect();
        self.closed = true;
        for id in ids {
            self.close(id);
        }
        self.set_link(LinkState::Closed);
    }

    fn dispatch(&mut self, id: ConnId, phase: Phase, mut message: Message, now: Instant) {
        // A peer's error text reaches the log and the screen: one line, no bidi overrides,
        // not kilobytes.
        if let Message::Error(e) = &mut message {
            e.text = crate::text::shown(&e.text, PEER_TEXT_CHARS);
        }
        match (message, phase) {
            (Message::Ping { seq }, _) => self.send(id, Message::Pong { seq }),
            (Message::Pong { .. }, _) => {}
            (Message::Bye, _) => {
                if self.active == Some(id) {
                    self.event(Event::PartnerLeft);
                    self.closed = true;
                    self.close(id);
                    self.set_link(LinkState::Closed);
                } else {
                    self.close(id);
                }
            }
            (Message::Hello(hello), Phase::Handshake) if self.role == Role::Host => {
                self.on_hello(id, hello, now);
            }
            (Message::Welcome(w), Phase::Handshake) if self.role == Role::Guest => {
                self.on_welcome(id, w, now);
            }
            (Message::Error(e), Phase::Handshake) if self.role == Role::Guest => {
                self.on_refusal(id, e.code, e.text);
            }
            (Message::Error(e), Phase::Playing) => self.on_peer_error(id, e),
            // Only the partner's errors count: a connection without a handshake is a
            // stranger, and its error must not take back our move.
            (Message::Error(e), Phase::Handshake) => {
                log::info!("lan: {id:?} before its handshake reports {}", e.code);
            }
            (_, Phase::Handshake) if self.role == Role::Host => {
                self.refuse(id, ErrorCode::HelloFirst, "send hello first");
            }
            // A host's messages before its welcome mean nothing to us.
            (_, Phase::Handshake) => {}
            (message @ (Message::Hello(_) | Message::Welcome(_)), Phase::Playing) => {
                let text = format!("unexpected {}", message.type_name());
                self.send(id, Message::error(ErrorCode::BadMessage, text));
            }
            (Message::Move { ply, uci, clock }, Phase::Playing) => {
                self.on_move(id, ply, &uci, clock);
            }
            (Message::Flag { ply }, Phase::Playing) => self.on_flag(id, ply),
            (Message::Ack { ply }, Phase::Playing) => self.on_ack(ply),
            (Message::Offer { what }, Phase::Playing) => self.on_offer(id, what),
            (Message::Reply { what, accept, ply }, Phase::Playing) => {
                self.on_reply(id, what, accept, ply);
            }
            (Message::Resign, Phase::Playing) => self.on_resign(),
        }
    }

    fn send(&mut self, id: ConnId, message: Message) {
        self.out.push_back(Output::Send(id, message));
    }

    /// Sends to the partner if connected.
    fn send_active(&mut self, message: Message) -> bool {
        match self.active {
            Some(id) => {
                self.send(id, message);
                true
            }
            None => false,
        }
    }

    fn event(&mut self, event: Event) {
        self.out.push_back(Output::Event(event));
    }

    fn set_link(&mut self, link: LinkState) {
        if self.link != link {
            self.link = link;
            self.event(Event::Link(link));
        }
    }

    /// Answers with an error and closes.
    fn refuse(&mut self, id: ConnId, code: ErrorCode, text: &str) {
        self.send(id, Message::error(code, text));
        self.close(id);
    }

    fn close(&mut self, id: ConnId) {
        if self.conns.contains_key(&id) {
            self.out.push_back(Output::Close(id));
            self.forget(id);
        }
    }

    fn forget(&mut self, id: ConnId) {
        if self.conns.remove(&id).is_none() || self.active != Some(id) {
            return;
        }
        self.active = None;
        if self.our_offer.take().is_some() | self.their_offer.take().is_some() {
            self.event(Event::OffersCleared);
        }
        if !self.closed {
            self.set_link(LinkState::Lost);
        }
    }

    fn mark_playing(&mut self, id: ConnId, now: Instant) {
        if let Some(old) = self.active.take().filter(|&old| old != id) {
            // The partner came back on a new connection; the old one is dead. Its offers
            // die with it, but the link does not count as lost.
            self.conns.remove(&old);
            self.out.push_back(Output::Close(old));
            if self.our_offer.take().is_some() | self.their_offer.take().is_some() {
                self.event(Event::OffersCleared);
            }
        }
        if let Some(conn) = self.conns.get_mut(&id) {
            conn.phase = Phase::Playing;
            conn.last_ping = now;
        }
        self.active = Some(id);
        self.away_since = None;
        self.restored = false;
        self.set_link(LinkState::Connected);
    }
}

/// The most characters of a peer's error text kept (the screen shows one line of it).
const PEER_TEXT_CHARS: usize = 160;
