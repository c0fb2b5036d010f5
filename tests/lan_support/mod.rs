//! Helpers for the LAN tests: fast timers, endpoints that mirror their game from events, a
//! raw protocol client, and a TCP proxy that can black-hole the link. Loopback only.

#![allow(dead_code)]

use chesspi::lan::codec::{OfferKind, PlayerCard, PlayerRating};
use chesspi::lan::net::{LanEvent, LanHandle, NetOptions};
use chesspi::lan::session::{CodeChoice, Event, LinkState, SavedGame, Session, Timing};
use chesspi_engine::game::Game;
use chesspi_engine::{Color, Move};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub const CODE: &str = "1234";
/// Longest wait for one expected event.
pub const PATIENCE: Duration = Duration::from_secs(5);

/// The protocol's timers scaled down, so a lost link shows in 1 s. Heartbeats then bring
/// each side 8 lines a second of the 50 allowed. A wrong code locks the address (all tests
/// come from 127.0.0.1) for 10 ms, doubling.
pub fn fast() -> Timing {
    Timing {
        ping_every: Duration::from_millis(250),
        lost_after: Duration::from_millis(1000),
        wrong_code_wait: Duration::from_millis(10),
        ..Timing::default()
    }
}

pub fn net() -> NetOptions {
    NetOptions {
        retry_every: Duration::from_millis(50),
        connect_timeout: Duration::from_millis(500),
        write_timeout: Duration::from_secs(1),
    }
}

pub fn loopback() -> SocketAddr {
    "127.0.0.1:0".parse().unwrap()
}

/// One side as the app sees it: a handle plus the game rebuilt from its events.
pub struct Endpoint {
    pub handle: LanHandle,
    pub game: Game,
    pub local: Color,
    pub game_id: String,
    pub partner: String,
    /// The partner's rating as the pairing gave it.
    pub partner_rating: Option<PlayerRating>,
    pub log: Vec<LanEvent>,
}

impl Endpoint {
    pub fn new(handle: LanHandle) -> Endpoint {
        Endpoint {
            handle,
            game: Game::new(),
            local: Color::White,
            game_id: String::new(),
            partner: String::new(),
            partner_rating: None,
            log: Vec::new(),
        }
    }

    pub fn host(code: CodeChoice, color: Color) -> Endpoint {
        let session = Session::host("Host", code, color, Game::new(), fast());
        let handle = LanHandle::host(session, &[loopback()], net(), || {}).unwrap();
        Endpoint::new(handle)
    }

    pub fn host_on(session: Session, addr: SocketAddr) -> Endpoint {
        Endpoint::new(LanHandle::host(session, &[addr], net(), || {}).unwrap())
    }

    pub fn join(target: &str, code: &str) -> Endpoint {
        Endpoint::join_as(target, code, None)
    }

    /// A host on loopback announcing `player` (device name "Host").
    pub fn host_as(code: CodeChoice, color: Color, player: Option<PlayerCard>) -> Endpoint {
        let session = Session::host("Host", code, color, Game::new(), fast()).with_player(player);
        Endpoint::host_on(session, loopback())
    }

    /// A guest announcing `player` (device name "Guest").
    pub fn join_as(target: &str, code: &str, player: Option<PlayerCard>) -> Endpoint {
        let session = Session::guest("Guest", code, fast()).with_player(player);
        Endpoint::new(LanHandle::join(session, target, net(), || {}).unwrap())
    }

    pub fn addr(&self) -> String {
        self.handle.local_addrs()[0].to_string()
    }

    pub fn saved(&self) -> SavedGame {
        SavedGame {
            game_id: self.game_id.clone(),
            game: self.game.clone(),
            local: self.local,
            partner: self.partner.clone(),
        }
    }

    /// Mirrors what an app would do with an event.
    fn apply(&mut self, event: &LanEvent) {
        let LanEvent::Session(e) = event else { return };
        match e {
            Event::Paired {
                partner,
                partner_rating,
                local,
                game_id,
                game,
                ..
            } => {
                self.partner = partner.clone();
                self.partner_rating = *partner_rating;
                self.local = *local;
                self.game_id = game_id.clone();
                self.game = game.clone();
            }
            Event::Resynced { game } => self.game = game.clone(),
            Event::PartnerMoved { ply, mv, .. } => {
                assert_eq!(
                    *ply as usize,
                    self.game.moves().len(),
                    "partner move out of order"
                );
                self.game.play(*mv).unwrap();
            }
            Event::MoveRejected { ply, .. } | Event::TakenBack { ply } => {
                while self.game.moves().len() > *ply as usize {
                    self.game.undo();
                }
            }
            Event::GameOver(outcome) if self.game.outcome() != Some(*outcome) => {
                let _ = self.game.set_outcome(*outcome);
            }
            _ => {}
        }
    }

    /// Waits for an event matching `pred`, applying every event on the way.
    pub fn expect(&mut self, what: &str, pred: impl Fn(&LanEvent) -> bool) -> LanEvent {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(event) = self.handle.wait_event(left) else {
                panic!(
                    "no `{what}` within {PATIENCE:?}; events so far: {:#?}",
                    self.log
                );
            };
            self.apply(&event);
            self.log.push(event.clone());
            if pred(&event) {
                return event;
            }
        }
    }

    /// Applies the events that came already.
    pub fn settle(&mut self, quiet: Duration) {
        while let Some(event) = self.handle.wait_event(quiet) {
            self.apply(&event);
            self.log.push(event);
        }
    }

    pub fn expect_session(&mut self, what: &str, pred: impl Fn(&Event) -> bool) -> Event {
        match self.expect(what, |e| matches!(e, LanEvent::Session(s) if pred(s))) {
            LanEvent::Session(s) => s,
            _ => unreachable!(),
        }
    }

    pub fn expect_link(&mut self, link: LinkState) {
        self.expect_session(
            &format!("{link:?}"),
            |e| matches!(e, Event::Link(l) if *l == link),
        );
    }

    pub fn paired(&mut self) {
        self.expect_session("paired", |e| matches!(e, Event::Paired { .. }));
    }

    /// Plays `uci` locally (the app does the same: its board first, then the network).
    pub fn play(&mut self, uci: &str) -> Move {
        let mv = self.game.position().parse_uci_move(uci).unwrap();
        self.game.play(mv).unwrap();
        self.handle.play(mv);
        mv
    }

    pub fn expect_partner_move(&mut self) -> Move {
        match self.expect_session("partner move", |e| matches!(e, Event::PartnerMoved { .. })) {
            Event::PartnerMoved { mv, .. } => mv,
            _ => unreachable!(),
        }
    }

    pub fn expect_ack(&mut self, ply: u32) {
        self.expect_session(
            &format!("ack {ply}"),
            |e| matches!(e, Event::Acked { ply: p } if *p == ply),
        );
    }

    pub fn offer(&mut self, what: OfferKind) {
        self.handle.offer(what);
    }
}

/// A peer speaking the protocol by hand.
pub struct Raw {
    pub stream: TcpStream,
    reader: BufReader<TcpStream>,
}

impl Raw {
    pub fn connect(addr: &str) -> Raw {
        let stream = TcpStream::connect(addr).unwrap();
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        stream.set_nodelay(true).unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Raw { stream, reader }
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stream.write_all(bytes).unwrap();
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    /// The next line as JSON, skipping pings; `None` when the host closed.
    pub fn next(&mut self) -> Option<serde_json::Value> {
        loop {
            let v = self.next_line()?;
            if v["type"] != "ping" {
                return Some(v);
            }
        }
    }

    /// The next line as JSON, pings included; `None` when the host closed.
    pub fn next_line(&mut self) -> Option<serde_json::Value> {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) => None,
            Ok(_) => Some(serde_json::from_str(&line).unwrap()),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => None,
            Err(e) => panic!("no line from the host: {e}"),
        }
    }

    pub fn expect_type(&mut self, kind: &str) -> serde_json::Value {
        let v = self
            .next()
            .unwrap_or_else(|| panic!("closed while waiting for {kind}"));
        assert_eq!(v["type"], kind, "{v}");
        v
    }

    pub fn expect_error(&mut self, code: &str) -> serde_json::Value {
        let v = self.expect_type("error");
        assert_eq!(v["code"], code, "{v}");
        v
    }

    /// True when the host closed the connection (reads reach the end).
    pub fn closed(&mut self) -> bool {
        let mut rest = Vec::new();
        match self.reader.read_to_end(&mut rest) {
            Ok(_) => true,
            Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
        }
    }

    pub fn hello(&mut self, code: &str) -> serde_json::Value {
        self.send(&format!(
            r#"{{"type":"hello","protocol":1,"name":"Raw","code":"{code}","resume":null}}"#
        ));
        self.next().unwrap()
    }
}

/// A TCP relay on loopback that can swallow everything (a link that died silently).
pub struct Proxy {
    pub addr: SocketAddr,
    cut: Arc<AtomicBool>,
    conns: Arc<Mutex<Vec<TcpStream>>>,
}

impl Proxy {
    pub fn start(to: SocketAddr) -> Proxy {
        let listener = TcpListener::bind(loopback()).unwrap();
        let addr = listener.local_addr().unwrap();
        let cut = Arc::new(AtomicBool::new(false));
        let conns = Arc::new(Mutex::new(Vec::new()));
        let (cut2, conns2) = (cut.clone(), conns.clone());
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { return };
                if cut2.load(Ordering::SeqCst) {
                    continue; // dropped: refused while the link is down
                }
                let Ok(server) = TcpStream::connect(to) else {
                    continue;
                };
                let mut list = conns2.lock().unwrap();
                list.push(client.try_clone().unwrap());
                list.push(server.try_clone().unwrap());
                drop(list);
                pump(
                    client.try_clone().unwrap(),
                    server.try_clone().unwrap(),
                    cut2.clone(),
                );
                pump(server, client, cut2.clone());
            }
        });
        Proxy { addr, cut, conns }
    }

    /// From now on bytes vanish in both directions and new connections are dropped.
    pub fn cut(&self) {
        self.cut.store(true, Ordering::SeqCst);
    }

    /// Kills the dead relays and lets new connections through again.
    pub fn restore(&self) {
        for c in self.conns.lock().unwrap().drain(..) {
            let _ = c.shutdown(Shutdown::Both);
        }
        self.cut.store(false, Ordering::SeqCst);
    }
}

fn pump(mut from: TcpStream, mut to: TcpStream, cut: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        loop {
            let n = match from.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            if cut.load(Ordering::SeqCst) {
                continue;
            }
            if to.write_all(&buf[..n]).is_err() {
                break;
            }
        }
        if !cut.load(Ordering::SeqCst) {
            let _ = to.shutdown(Shutdown::Both);
        }
    });
}
