//! The shell's side of network games: starts hosting, browsing and joining for the
//! controller's lobby, sends the player's requests to the network thread, and hands the
//! network's events to the game's [`PartnerGame`] (a part of the controller). The network threads ring the UI thread through
//! `GameAdapter.network-ready`; nothing here waits on the network.

use crate::tr;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use chesspi_engine::game::Game;
use slint::ComponentHandle;

use crate::app::notices::bar::NoticeBar;
use crate::app::screens::network::partner::PartnerGame;
use crate::app::screens::{Controller, HostEntry, LanRequest, Lobby, NetworkEffect};
use crate::app::ui::{AppWindow, GameAdapter};
use crate::config::{LanConfig, PairingCode};
use crate::lan::codec::{PlayerCard, PlayerRating};
use crate::lan::discovery::{Browser, Discovery, HostColor};
use crate::lan::net::{Command, DialFailure, LanEvent, LanHandle, NetOptions};
use crate::lan::session::{
    CodeChoice, Event, LanClock, LinkState, SavedGame as SavedLanGame, Session, Timing,
};
use crate::storage::LanLink;
use crate::storage::StatsSummary;
use crate::storage::peer_rating::PeerRating;
use chesspi_engine::Color;
use std::io;

/// Network games of one app: at most one game (hosted or joined) and one browser at a time.
pub struct Network {
    config: LanConfig,
    name: String,
    window: slint::Weak<AppWindow>,
    lan: Option<LanHandle>,
    discovery: Option<Discovery>,
    browser: Option<Browser>,
    /// Our advert while hosting.
    advert: Option<String>,
    /// The host we joined (`None` while hosting): saved with the game to reconnect.
    joined: Option<String>,
    /// The player at this device as the partner was told (`None`: a guest).
    player: Option<PlayerCard>,
    /// While hosting: the addresses a guest may type (where discovery does not reach).
    typed_addresses: Vec<String>,
}

impl Network {
    /// How long the partner must be away before the game may be adjourned.
    pub fn adjourn_after(&self) -> std::time::Duration {
        self.config.adjourn_after
    }

    pub fn new(config: LanConfig, window: &AppWindow) -> Network {
        let name = config.display_name();
        Network {
            config,
            name,
            window: window.as_weak(),
            lan: None,
            discovery: None,
            browser: None,
            advert: None,
            joined: None,
            player: None,
            typed_addresses: Vec::new(),
        }
    }

    /// The addresses a hosted game listens on (tests connect to them).
    pub fn local_addrs(&self) -> Vec<SocketAddr> {
        self.lan
            .as_ref()
            .map(|l| l.local_addrs().to_vec())
            .unwrap_or_default()
    }

    fn wake(&self) -> impl Fn() + Send + Sync + 'static {
        let window = self.window.clone();
        move || {
            let _ = window.upgrade_in_event_loop(|w| {
                w.global::<GameAdapter>().invoke_network_ready();
            });
        }
    }

    fn discovery(&mut self) -> Option<&Discovery> {
        if !self.config.discovery {
            return None;
        }
        if self.discovery.is_none() {
            match Discovery::start(&self.config.interfaces) {
                Ok(d) => self.discovery = Some(d),
                Err(e) => log::warn!("{e}; hosts must be joined by address"),
            }
        }
        self.discovery.as_ref()
    }

    /// Carries out a lobby effect; `stats`: the record of the player at the device (what
    /// the partner is told of their rating; `None` without a saver: unrated).
    pub fn lobby(
        &mut self,
        effect: NetworkEffect,
        stats: Option<&StatsSummary>,
        c: &mut Controller,
        notices: &NoticeBar,
    ) {
        let player = local_player(c, stats);
        match effect {
            NetworkEffect::Host { local, clock } => self.host(local, clock, player, c, notices),
            NetworkEffect::Browse => self.browse(c),
            NetworkEffect::Join { target, code, .. } => {
                self.stop();
                let session = Session::guest(&self.name, &code, Timing::default())
                    .with_player(player.clone())
                    .with_forfeit_after(self.config.adjourn_after);
                match LanHandle::join(session, &target, NetOptions::default(), self.wake()) {
                    Ok(handle) => {
                        self.lan = Some(handle);
                        self.joined = Some(target);
                        self.player = player;
                    }
                    Err(e) => c.on(|l: &mut Lobby, cx| l.refused(cx, None, &e.to_string())),
                }
            }
            NetworkEffect::Cancel => self.stop(),
            NetworkEffect::Adjourn => {
                log::info!("network game adjourned; it waits in Saved games");
                self.stop();
            }
        }
    }

    fn host(
        &mut self,
        local: Color,
        clock: Option<crate::app::model::clock::TimeControl>,
        player: Option<PlayerCard>,
        c: &mut Controller,
        notices: &NoticeBar,
    ) {
        self.stop();
        let code = match &self.config.code {
            PairingCode::Random => CodeChoice::Random,
            PairingCode::Fixed(code) => CodeChoice::Fixed(code.clone()),
        };
        let session = Session::host(&self.name, code, local, Game::new(), Timing::default())
            .with_clock(clock.map(|tc| LanClock::new(tc.base, tc.increment)))
            .with_player(player.clone())
            .with_forfeit_after(self.config.adjourn_after);
        let code = session.code().to_string();
        let listen = self.config.listen_addrs();
        match LanHandle::host(session, &listen, NetOptions::default(), self.wake()) {
            Ok(handle) => {
                log::info!("hosting a network game on {:?}", handle.local_addrs());
                self.typed_addresses = typed_addresses(handle.local_addrs(), interface_addresses);
                self.lan = Some(handle);
                self.player = player;
                c.on(|l: &mut Lobby, _| l.hosting(&self.name, &code, &self.typed_addresses));
                let colour = match local {
                    Color::White => HostColor::White,
                    Color::Black => HostColor::Black,
                };
                let (name, port) = (self.name.clone(), self.config.port);
                if let Some(d) = self.discovery() {
                    match d.advertise(&name, colour, port) {
                        Ok(instance) => self.advert = Some(instance),
                        Err(e) => log::warn!("{e}; guests must type this device's address"),
                    }
                }
            }
            Err(e) => {
                log::error!("cannot host a network game: {e}");
                notices.raise(
                    crate::app::notices::Topic::Error,
                    tr!("Cannot offer a network game: {}", e),
                );
                c.on(Lobby::close);
            }
        }
    }

    fn browse(&mut self, c: &mut Controller) {
        if self.browser.is_some() {
            return;
        }
        let window = self.window.clone();
        let ring = move || {
            let _ = window.upgrade_in_event_loop(|w| {
                w.global::<GameAdapter>().invoke_network_ready();
            });
        };
        let browser = self.discovery().map(|d| d.browse(ring));
        c.on(|l: &mut Lobby, _| l.found(Vec::new()));
        match browser {
            Some(Ok(b)) => self.browser = Some(b),
            Some(Err(e)) => {
                log::warn!("{e}; hosts must be joined by address");
                c.on(|l: &mut Lobby, _| l.not_looking());
            }
            None => c.on(|l: &mut Lobby, _| l.not_looking()),
        }
    }

    /// Reconnects the network game restored after a restart: hosts it again, or joins its
    /// host again, resuming from the saved position. `player`: the player at this device as
    /// the partner is told ([`local_player`]); the partner's rating stays the one `link`
    /// kept from the pairing.
    pub fn resume(
        &mut self,
        peer: &str,
        local: Color,
        game: Game,
        link: LanLink,
        clock: Option<LanClock>,
        player: Option<PlayerCard>,
    ) {
        self.stop();
        let saved = SavedLanGame {
            game_id: link.game_id.clone(),
            game,
            local,
            partner: peer.to_string(),
        };
        let started = match &link.host {
            None => {
                let code = match &self.config.code {
                    PairingCode::Random => CodeChoice::Random,
                    PairingCode::Fixed(code) => CodeChoice::Fixed(code.clone()),
                };
                let session = Session::restore_host(&self.name, code, saved, Timing::default())
                    .with_clock(clock)
                    .with_player(player.clone())
                    .with_forfeit_after(self.config.adjourn_after);
                let listen = self.config.listen_addrs();
                LanHandle::host(session, &listen, NetOptions::default(), self.wake())
            }
            Some(target) => {
                let session = Session::restore_guest(&self.name, saved, Timing::default())
                    .with_clock(clock)
                    .with_player(player.clone())
                    .with_forfeit_after(self.config.adjourn_after);
                LanHandle::join(session, target, NetOptions::default(), self.wake())
            }
        };
        match started {
            Ok(handle) => {
                let id = crate::lan::secret::ResumeKey::parse(&link.game_id).game_id;
                log::info!("reconnecting the network game {id} with {peer}");
                self.lan = Some(handle);
                self.joined = link.host;
                self.player = player;
            }
            Err(e) => log::error!("cannot reconnect the network game: {e}"),
        }
    }

    /// Stops hosting, joining and browsing (without a goodbye: a game in progress can be
    /// picked up again by the partner).
    fn stop(&mut self) {
        self.browser = None;
        if let (Some(instance), Some(d)) = (self.advert.take(), &self.discovery) {
            d.withdraw(&instance);
        }
        self.lan = None;
        self.joined = None;
        self.player = None;
    }

    /// The player leaves the network game for good (a new game): say goodbye.
    pub fn leave(&mut self) {
        if let Some(lan) = &self.lan {
            lan.leave();
        }
        self.stop();
    }

    /// Whether a network game or lobby is running.
    pub fn is_active(&self) -> bool {
        self.lan.is_some() || self.browser.is_some()
    }

    /// Sends the player's request to the partner.
    /// `left` is the player's time left after the move just made (timed games).
    pub fn request(&self, request: LanRequest, left: Option<std::time::Duration>) {
        let Some(lan) = &self.lan else {
            log::warn!("no network game for {request:?}");
            return;
        };
        lan.send(match request {
            LanRequest::Play(mv) => match left {
                Some(left) => Command::PlayTimed { mv, left },
                None => Command::Play(mv),
            },
            LanRequest::Flag => Command::Flag,
            LanRequest::Offer(what) => Command::Offer(what),
            LanRequest::Answer { accept } => Command::Answer { accept },
            LanRequest::Resign => Command::Resign,
            LanRequest::ClaimForfeit => Command::ClaimForfeit,
        });
    }

    /// Takes what the network threads reported.
    pub fn receive(&mut self, c: &mut Controller, notices: &NoticeBar) {
        if let Some(b) = &self.browser {
            let found = b.hosts().into_iter().filter_map(host_entry).collect();
            c.on(|l: &mut Lobby, _| l.found(found));
        }
        let events = self.lan.as_ref().map(LanHandle::drain).unwrap_or_default();
        for event in events {
            self.event(event, c, notices);
        }
    }

    fn event(&mut self, event: LanEvent, c: &mut Controller, notices: &NoticeBar) {
        match event {
            LanEvent::Session(e) => self.session_event(e, c, notices),
            LanEvent::Refused(command, why) => {
                log::warn!("network: {command:?} refused: {why}");
                notices.raise(
                    crate::app::notices::Topic::Error,
                    tr!("Not sent to your partner: {}.", why),
                );
            }
            LanEvent::Unreachable(failure) => {
                let text = unreachable_text(&failure);
                c.on(|l: &mut Lobby, cx| l.refused(cx, None, &text));
            }
        }
    }

    fn session_event(&mut self, e: Event, c: &mut Controller, notices: &NoticeBar) {
        match e {
            Event::Link(state) => {
                c.part(|p: &mut PartnerGame, cx| p.link(cx, state));
                // The clocks stop with the link; a later welcome (host) carries them.
                if state != LinkState::Connected
                    && let (Some(lan), Some((white, black, _))) = (
                        &self.lan,
                        c.session().clocks.clock_times(std::time::Instant::now()),
                    )
                {
                    lan.send(Command::ClockTimes { white, black });
                }
            }
            Event::Clock(clock) => c.part(|p: &mut PartnerGame, cx| p.clock(cx, clock)),
            Event::Paired {
                partner,
                partner_rating,
                local,
                game,
                game_id,
                clock,
            } => {
                self.browser = None;
                if let (Some(instance), Some(d)) = (self.advert.take(), &self.discovery) {
                    d.withdraw(&instance);
                }
                let id = crate::lan::secret::ResumeKey::parse(&game_id).game_id;
                log::info!("network game {id} with {partner}, playing {local:?}");
                let resume = LanLink {
                    game_id,
                    host: self.joined.clone(),
                    peer_rating: rated_against(self.player.as_ref(), partner_rating),
                };
                c.part(|p: &mut PartnerGame, cx| {
                    p.paired(cx, &partner, local, game, resume, clock);
                });
            }
            Event::Resynced { game } => c.part(|p: &mut PartnerGame, cx| p.resynced(cx, game)),
            Event::PartnerMoved { ply, mv, clock } => {
                c.part(|p: &mut PartnerGame, cx| p.moved(cx, ply, mv, clock));
            }
            Event::Acked { .. } => {}
            Event::OffersCleared => c.part(|p: &mut PartnerGame, cx| p.offers_cleared(cx)),
            Event::MoveRejected { ply, text, .. } => {
                log::warn!("the partner refused our move {ply}: {text}");
                c.part(|p: &mut PartnerGame, cx| p.taken_back(cx, ply));
            }
            Event::OfferReceived(what) => c.part(|p: &mut PartnerGame, cx| p.offered(cx, what)),
            Event::OfferAnswered { what, accept } => {
                c.part(|p: &mut PartnerGame, cx| p.answered(cx, what, accept));
            }
            Event::TakenBack { ply } => c.part(|p: &mut PartnerGame, cx| p.taken_back(cx, ply)),
            Event::GameOver(outcome) => {
                c.part(|p: &mut PartnerGame, cx| p.game_over(cx, outcome));
            }
            Event::PartnerLeft => c.part(|p: &mut PartnerGame, cx| p.left(cx)),
            Event::Refused { code, text } => {
                self.stop();
                c.on(|l: &mut Lobby, cx| l.refused(cx, Some(code), &text));
            }
            Event::WrongCode { attempts } => {
                notices.inform(tr!("A wrong pairing code was tried ({})", attempts));
            }
            Event::CodeChanged(code) => {
                let name = self.name.clone();
                c.on(|l: &mut Lobby, _| l.hosting(&name, &code, &self.typed_addresses));
                notices.inform(tr!("Too many wrong codes: here is a new one"));
            }
            Event::PeerError { code, text } => {
                log::warn!("the partner reported {code:?}: {text}");
            }
        }
    }
}

/// The player at the device as a network partner is told: the roster's name and, from
/// `stats` (theirs, the saver's summary), the rating and deviation; a guest is told as none.
pub fn local_player(c: &Controller, stats: Option<&StatsSummary>) -> Option<PlayerCard> {
    let name = c.player().roster().name_of(c.player().current())?;
    let rating = stats.and_then(|s| PlayerRating::new(s.glicko.rating, s.glicko.deviation));
    Some(PlayerCard {
        name: name.as_str().to_string(),
        rating,
    })
}

/// What the game is rated against at its end: the partner's rating, when both devices told
/// theirs (so both rate the game or neither; an older peer or a guest at either device:
/// unrated).
fn rated_against(ours: Option<&PlayerCard>, theirs: Option<PlayerRating>) -> Option<PeerRating> {
    let theirs = theirs.filter(|_| ours.is_some_and(|p| p.rating.is_some()))?;
    PeerRating::new(theirs.rating(), theirs.deviation())
}

fn host_entry(h: crate::lan::discovery::FoundHost) -> Option<HostEntry> {
    let addr = h.socket_addrs().into_iter().next()?;
    Some(HostEntry {
        name: h.name,
        host_colour: match h.color {
            Some(HostColor::White) => Some(Color::White),
            Some(HostColor::Black) => Some(Color::Black),
            _ => None,
        },
        target: addr.to_string(),
    })
}

/// What a guest types to reach this host, with the port: every IPv4 address it listens on
/// that another device can use — link-local ones too (two ChessPIs on a bare cable have only
/// those, and no multicast DNS may reach across) — and loopback only when there is nothing
/// else (a second ChessPI on this machine). IPv6 is left out: the keypad has no letters.
/// `interfaces` lists the machine's addresses, asked for only when listening everywhere.
fn typed_addresses(
    listening: &[SocketAddr],
    interfaces: impl FnOnce() -> Vec<IpAddr>,
) -> Vec<String> {
    // (address, the port it listens on)
    let mut ips: Vec<(Ipv4Addr, u16)> = Vec::new();
    let mut everywhere = None;
    for addr in listening {
        match addr.ip() {
            ip if ip.is_unspecified() => everywhere = Some(addr.port()),
            IpAddr::V4(v4) => ips.push((v4, addr.port())),
            IpAddr::V6(_) => {}
        }
    }
    if let Some(port) = everywhere {
        ips.extend(interfaces().into_iter().filter_map(|ip| match ip {
            IpAddr::V4(v4) => Some((v4, port)),
            IpAddr::V6(_) => None,
        }));
    }
    ips.sort_by_key(|(ip, port)| (ip.is_link_local(), *ip, *port));
    ips.dedup();
    let reachable: Vec<_> = ips
        .iter()
        .copied()
        .filter(|(ip, _)| !ip.is_loopback())
        .collect();
    let shown = if reachable.is_empty() { ips } else { reachable };
    shown
        .into_iter()
        .take(3)
        .map(|(ip, port)| SocketAddr::new(IpAddr::V4(ip), port).to_string())
        .collect()
}

/// The machine's own addresses.
fn interface_addresses() -> Vec<IpAddr> {
    if_addrs::get_if_addrs()
        .map(|interfaces| interfaces.iter().map(if_addrs::Interface::ip).collect())
        .unwrap_or_default()
}

/// Why a host could not be reached, in the screen's language (the system's own words are
/// English only).
fn unreachable_text(failure: &DialFailure) -> String {
    let why = match failure.kind {
        io::ErrorKind::ConnectionRefused => tr!("nobody is hosting there"),
        io::ErrorKind::TimedOut => tr!("no answer"),
        io::ErrorKind::HostUnreachable | io::ErrorKind::NetworkUnreachable => {
            tr!("not reachable from this network")
        }
        io::ErrorKind::NotFound | io::ErrorKind::InvalidInput => tr!("no such address"),
        _ => failure.detail.clone(),
    };
    format!("{}: {why}", failure.target)
}

#[cfg(test)]
mod tests {
    use super::{rated_against, typed_addresses};
    use crate::lan::codec::{PlayerCard, PlayerRating};
    use std::net::IpAddr;

    /// The game is rated against the partner only when both devices told a rating.
    #[test]
    fn rated_only_when_both_devices_told_a_rating() {
        let theirs = PlayerRating::new(1400.0, 120.0);
        let card = |rating| PlayerCard {
            name: "Anna".into(),
            rating,
        };
        let rated = card(PlayerRating::new(1000.0, 500.0));
        let against = rated_against(Some(&rated), theirs).expect("rated");
        assert_eq!((against.rating(), against.deviation()), (1400.0, 120.0));
        assert_eq!(rated_against(Some(&rated), None), None, "an older peer");
        assert_eq!(
            rated_against(Some(&card(None)), theirs),
            None,
            "unrated here"
        );
        assert_eq!(rated_against(None, theirs), None, "a guest here");
    }

    fn addr(s: &str) -> std::net::SocketAddr {
        s.parse().expect("address")
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().expect("ip")
    }

    #[test]
    fn every_ipv4_address_a_guest_can_type_with_the_port() {
        let none = Vec::new;
        assert_eq!(
            typed_addresses(&[addr("10.0.0.5:7531")], none),
            ["10.0.0.5:7531"]
        );
        // Two ChessPIs on a bare cable: link-local addresses only.
        assert_eq!(
            typed_addresses(&[addr("169.254.10.20:7531")], none),
            ["169.254.10.20:7531"]
        );
        let machine = || {
            vec![
                ip("127.0.0.1"),
                ip("169.254.3.4"),
                ip("fe80::1"),
                ip("192.168.1.20"),
                ip("2001:db8::5"),
            ]
        };
        assert_eq!(
            typed_addresses(&[addr("0.0.0.0:7000"), addr("[::]:7000")], machine),
            ["192.168.1.20:7000", "169.254.3.4:7000"],
            "routable first, then link-local; no loopback, no IPv6"
        );
        // Listening on loopback only: that is the way in (another instance here).
        assert_eq!(
            typed_addresses(&[addr("127.0.0.1:7531")], none),
            ["127.0.0.1:7531"]
        );
        assert_eq!(
            typed_addresses(&[addr("0.0.0.0:7531")], || vec![ip("127.0.0.1")]),
            ["127.0.0.1:7531"]
        );
        assert!(typed_addresses(&[addr("[::1]:7531")], none).is_empty());
    }
}
