//! The network threads: sockets in, [`Session`] in the middle, events out to the app.
//!
//! One session thread owns the [`Session`] and every socket's write half; one reader thread
//! per connection frames and decodes lines; the host has one acceptor thread per listening
//! address; the guest dials from short-lived connector threads (connecting may take seconds).
//! The app only sends [`Command`]s and drains [`LanEvent`]s when its wake callback rings: it
//! never waits on the network.

use super::codec::{self, DecodeError, Frame, LineReader, Message, OfferKind};
use super::session::{ConnId, Event, LocalError, Output, Role, Session};
use chesspi_engine::Move;
use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// The protocol's default TCP port.
pub const DEFAULT_PORT: u16 = 7531;

/// Most connections a host keeps open at once (the partner plus guests in their handshake);
/// the session's door keeps to it.
pub use super::session::MAX_CONNECTIONS;

/// Timers of the network layer (the session's own are in its [`super::session::Timing`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NetOptions {
    /// Guest: pause between two connection attempts.
    pub retry_every: Duration,
    /// Guest: longest wait for one connection attempt.
    pub connect_timeout: Duration,
    /// Longest a write may block before the connection is given up.
    pub write_timeout: Duration,
}

impl Default for NetOptions {
    fn default() -> Self {
        NetOptions {
            retry_every: Duration::from_secs(1),
            connect_timeout: Duration::from_secs(3),
            write_timeout: Duration::from_secs(2),
        }
    }
}

/// What the app asks of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Play(Move),
    /// A move in a timed game, with our time left after it.
    PlayTimed {
        mv: Move,
        left: Duration,
    },
    /// Our time ran out.
    Flag,
    /// The app's clocks now (stopped when the link dropped), for the next `welcome`.
    ClockTimes {
        white: Duration,
        black: Duration,
    },
    Offer(OfferKind),
    Answer {
        accept: bool,
    },
    Resign,
    /// The partner has been away long enough: we win by forfeit.
    ClaimForfeit,
    /// Say bye and stop for good.
    Leave,
}

/// What the app is told.
#[derive(Debug, Clone)]
pub enum LanEvent {
    /// From the session: moves, offers, link state, ...
    Session(Event),
    /// A [`Command`] was refused; the game is unchanged.
    Refused(Command, LocalError),
    /// Guest: the host could not be reached (retrying).
    Unreachable(DialFailure),
}

/// Why a host could not be reached: the address tried and the system's error. The screen
/// says it in the user's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialFailure {
    /// `HOST[:PORT]` as dialled.
    pub target: String,
    pub kind: io::ErrorKind,
    /// The system's own account (English), for the kinds the screen has no words for.
    pub detail: String,
}

enum Input {
    Command(Command),
    Opened(TcpStream),
    /// Boxed: a `welcome` is far larger than the other inputs.
    Line(ConnId, Box<Result<Message, DecodeError>>),
    Closed(ConnId),
    DialFailed(DialFailure),
    Shutdown,
}

type Wake = Arc<dyn Fn() + Send + Sync>;

/// The app's handle on a LAN game. Dropping it closes every socket without a bye (the
/// partner sees a lost link and waits: the game can be resumed); [`LanHandle::leave`] says bye.
pub struct LanHandle {
    inputs: Sender<Input>,
    events: Receiver<LanEvent>,
    local_addrs: Vec<SocketAddr>,
    stop: Arc<AtomicBool>,
    worker: Option<JoinHandle<()>>,
    /// Host: one thread per listening address.
    acceptors: Vec<(SocketAddr, JoinHandle<()>)>,
}

impl LanHandle {
    /// Hosts `session` (a host session) on every address of `listen` (port 0 picks one).
    /// `wake` runs on a network thread whenever events are waiting.
    ///
    /// # Errors
    /// A listening socket could not be bound, or a thread not started.
    pub fn host(
        session: Session,
        listen: &[SocketAddr],
        options: NetOptions,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> io::Result<LanHandle> {
        if session.role() != Role::Host {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a host session",
            ));
        }
        let listeners = listen
            .iter()
            .map(|&addr| bind(addr))
            .collect::<io::Result<Vec<_>>>()?;
        let local_addrs = listeners
            .iter()
            .map(TcpListener::local_addr)
            .collect::<io::Result<Vec<_>>>()?;
        let (inputs, inbox) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let mut acceptors = Vec::new();
        for (listener, addr) in listeners.into_iter().zip(&local_addrs) {
            let (inputs, stop) = (inputs.clone(), stop.clone());
            let thread = spawn("lan-accept", move || accept(&listener, &inputs, &stop))?;
            acceptors.push((*addr, thread));
        }
        let (worker, events) = LanHandle::start(
            session,
            None,
            inbox,
            inputs.clone(),
            options,
            Arc::new(wake),
        )?;
        Ok(LanHandle {
            inputs,
            events,
            local_addrs,
            stop,
            worker: Some(worker),
            acceptors,
        })
    }

    /// Joins the host at `target` (`HOST:PORT`) with `session` (a guest session, new or
    /// restored). Connects in the background and reconnects after a lost link.
    ///
    /// # Errors
    /// A thread could not be started.
    pub fn join(
        session: Session,
        target: &str,
        options: NetOptions,
        wake: impl Fn() + Send + Sync + 'static,
    ) -> io::Result<LanHandle> {
        if session.role() != Role::Guest {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "not a guest session",
            ));
        }
        let (inputs, inbox) = mpsc::channel();
        let wake: Wake = Arc::new(wake);
        let target = Some(target.to_string());
        let (worker, events) =
            LanHandle::start(session, target, inbox, inputs.clone(), options, wake)?;
        Ok(LanHandle {
            inputs,
            events,
            local_addrs: Vec::new(),
            stop: Arc::new(AtomicBool::new(false)),
            worker: Some(worker),
            acceptors: Vec::new(),
        })
    }

    fn start(
        session: Session,
        target: Option<String>,
        inbox: Receiver<Input>,
        inputs: Sender<Input>,
        options: NetOptions,
        wake: Wake,
    ) -> io::Result<(JoinHandle<()>, Receiver<LanEvent>)> {
        let (events_tx, events) = mpsc::channel();
        // Only a guest dials, at once.
        let next_dial = target.as_ref().map(|_| Instant::now());
        let worker = Worker {
            session,
            target,
            options,
            inputs: inputs.clone(),
            streams: HashMap::new(),
            next_id: Arc::new(AtomicU64::new(1)),
            events: events_tx,
            wake,
            dialing: false,
            next_dial,
            unreachable_told: false,
        };
        let thread = spawn("lan-session", move || worker.run(&inbox))?;
        Ok((thread, events))
    }

    /// The addresses the host listens on (with the real port when 0 was asked).
    pub fn local_addrs(&self) -> &[SocketAddr] {
        &self.local_addrs
    }

    /// Sends a command to the game; the answer comes as events.
    pub fn send(&self, command: Command) {
        let _ = self.inputs.send(Input::Command(command));
    }

    pub fn play(&self, mv: Move) {
        self.send(Command::Play(mv));
    }

    pub fn offer(&self, what: OfferKind) {
        self.send(Command::Offer(what));
    }

    pub fn answer(&self, accept: bool) {
        self.send(Command::Answer { accept });
    }

    pub fn resign(&self) {
        self.send(Command::Resign);
    }

    /// Says bye to the partner and ends the game's network side for good.
    pub fn leave(&self) {
        self.send(Command::Leave);
    }

    /// The next waiting event, if any (never blocks).
    pub fn try_event(&self) -> Option<LanEvent> {
        self.events.try_recv().ok()
    }

    /// Every waiting event (never blocks).
    pub fn drain(&self) -> Vec<LanEvent> {
        self.events.try_iter().collect()
    }

    /// Waits up to `timeout` for an event: for tests and tools, never on the UI thread.
    pub fn wait_event(&self, timeout: Duration) -> Option<LanEvent> {
        self.events.recv_timeout(timeout).ok()
    }
}

impl Drop for LanHandle {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = self.inputs.send(Input::Shutdown);
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
        // Wake the acceptors blocked in accept(); one that cannot be woken is left to end
        // at its next connection rather than block the caller.
        for (addr, thread) in self.acceptors.drain(..) {
            match TcpStream::connect_timeout(&wake_addr(addr), Duration::from_millis(200)) {
                Ok(_) => {
                    let _ = thread.join();
                }
                Err(e) => log::warn!("lan: cannot stop the listener on {addr}: {e}"),
            }
        }
    }
}

/// Where to connect to reach a listener bound to `addr` (the unspecified address listens on
/// loopback too).
fn wake_addr(addr: SocketAddr) -> SocketAddr {
    let mut target = addr;
    if addr.ip().is_unspecified() {
        target.set_ip(match addr {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    target
}

/// Binds `addr`; the IPv6 wildcard falls back to the IPv4 one where IPv6 is off.
fn bind(addr: SocketAddr) -> io::Result<TcpListener> {
    match TcpListener::bind(addr) {
        Err(e) if addr.is_ipv6() && addr.ip().is_unspecified() => {
            log::info!("lan: cannot listen on {addr} ({e}), trying IPv4 only");
            TcpListener::bind(SocketAddr::new(
                std::net::Ipv4Addr::UNSPECIFIED.into(),
                addr.port(),
            ))
        }
        result => result,
    }
}

fn spawn(name: &str, f: impl FnOnce() + Send + 'static) -> io::Result<JoinHandle<()>> {
    std::thread::Builder::new().name(name.to_string()).spawn(f)
}

fn accept(listener: &TcpListener, inputs: &Sender<Input>, stop: &AtomicBool) {
    for stream in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        match stream {
            Ok(stream) => {
                if inputs.send(Input::Opened(stream)).is_err() {
                    return;
                }
            }
            Err(e) => {
                log::warn!("lan: accept failed: {e}");
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }
}

/// Reads one connection: frames, decodes and forwards its lines until it closes.
fn read_lines(id: ConnId, mut stream: TcpStream, inputs: &Sender<Input>) {
    let mut reader = LineReader::new();
    let mut frames = Vec::new();
    let mut buf = [0u8; 2048];
    loop {
        let n = match stream.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n,
        };
        reader.feed(&buf[..n], &mut frames);
        for frame in frames.drain(..) {
            let line = match frame {
                Frame::Line(line) => codec::decode(&line),
                Frame::TooLong => Err(DecodeError::TooLong),
            };
            let too_long = matches!(line, Err(DecodeError::TooLong));
            if inputs.send(Input::Line(id, Box::new(line))).is_err() || too_long {
                let _ = inputs.send(Input::Closed(id));
                return;
            }
        }
    }
    let _ = inputs.send(Input::Closed(id));
}

fn dial(target: &str, timeout: Duration) -> io::Result<TcpStream> {
    let mut last = io::Error::new(io::ErrorKind::NotFound, "no address");
    for addr in target.to_socket_addrs()? {
        match TcpStream::connect_timeout(&addr, timeout) {
            Ok(stream) => return Ok(stream),
            Err(e) => last = e,
        }
    }
    Err(last)
}

struct Worker {
    session: Session,
    /// Guest: the host to dial.
    target: Option<String>,
    options: NetOptions,
    inputs: Sender<Input>,
    streams: HashMap<ConnId, TcpStream>,
    next_id: Arc<AtomicU64>,
    events: Sender<LanEvent>,
    wake: Wake,
    dialing: bool,
    next_dial: Option<Instant>,
    unreachable_told: bool,
}

impl Worker {
    fn run(mut self, inbox: &Receiver<Input>) {
        loop {
            let now = Instant::now();
            self.maybe_dial(now);
            // A dial time counts only while dialing is wanted: a deadline left in the past
            // would spin this loop.
            let dial = self.next_dial.filter(|_| self.wants_dial());
            let deadline = [self.session.next_deadline(), dial]
                .into_iter()
                .flatten()
                .min();
            let input = match deadline {
                Some(d) => inbox.recv_timeout(d.saturating_duration_since(now)),
                None => inbox.recv().map_err(|_| RecvTimeoutError::Disconnected),
            };
            let now = Instant::now();
            match input {
                Ok(Input::Shutdown) | Err(RecvTimeoutError::Disconnected) => break,
                Ok(input) => self.handle(input, now),
                Err(RecvTimeoutError::Timeout) => {}
            }
            self.session.tick(now);
            self.flush();
        }
        for stream in self.streams.values() {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }

    fn handle(&mut self, input: Input, now: Instant) {
        match input {
            Input::Command(command) => self.command(command),
            Input::Opened(stream) => self.opened(stream, now),
            Input::Line(id, line) => self.session.received(id, *line, now),
            Input::Closed(id) => {
                if let Some(stream) = self.streams.remove(&id) {
                    let _ = stream.shutdown(Shutdown::Both);
                }
                self.session.connection_closed(id);
            }
            Input::DialFailed(why) => {
                self.dialing = false;
                self.next_dial = Some(now + self.options.retry_every);
                if !self.unreachable_told {
                    self.unreachable_told = true;
                    self.tell(LanEvent::Unreachable(why));
                }
            }
            Input::Shutdown => {}
        }
    }

    fn command(&mut self, command: Command) {
        let result = match command {
            Command::Play(mv) => self.session.play(mv).map(|_| ()),
            Command::PlayTimed { mv, left } => self.session.play_timed(mv, Some(left)).map(|_| ()),
            Command::Flag => self.session.flag(),
            Command::ClockTimes { white, black } => {
                self.session.set_clock_times(white, black);
                Ok(())
            }
            Command::Offer(what) => self.session.offer(what),
            Command::Answer { accept } => self.session.answer(accept),
            Command::Resign => self.session.resign(),
            Command::ClaimForfeit => self.session.claim_forfeit(Instant::now()).map(|_| ()),
            Command::Leave => {
                self.session.leave();
                Ok(())
            }
        };
        if let Err(e) = result {
            self.tell(LanEvent::Refused(command, e));
        }
    }

    fn opened(&mut self, stream: TcpStream, now: Instant) {
        self.dialing = false;
        let id = ConnId(self.next_id.fetch_add(1, Ordering::Relaxed));
        let peer = stream.peer_addr();
        // The host's door decides before the connection costs a thread: each address gets
        // few places, and all of them together at most MAX_CONNECTIONS.
        let admitted = match (self.session.role(), &peer) {
            (Role::Host, Ok(peer)) => self.session.accepted(id, peer.ip(), now),
            _ => {
                self.session.connection_opened(id, now);
                true
            }
        };
        if !admitted {
            let _ = stream.shutdown(Shutdown::Both);
            return;
        }
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(self.options.write_timeout));
        let reader = stream.try_clone().and_then(|reader| {
            let inputs = self.inputs.clone();
            spawn("lan-read", move || read_lines(id, reader, &inputs))
        });
        if let Err(e) = reader {
            log::warn!("lan: cannot read a new connection: {e}");
            let _ = stream.shutdown(Shutdown::Both);
            self.session.connection_closed(id);
            return;
        }
        if let Ok(peer) = peer {
            log::info!("lan: {id:?} connected with {peer}");
        }
        self.unreachable_told = false;
        self.streams.insert(id, stream);
    }

    fn wants_dial(&self) -> bool {
        self.target.is_some()
            && self.streams.is_empty()
            && !self.session.is_closed()
            && !self.dialing
    }

    /// Guest: dial when there is no connection and the session still wants one.
    fn maybe_dial(&mut self, now: Instant) {
        let Some(target) = self.target.clone() else {
            return;
        };
        if !self.wants_dial() {
            return;
        }
        match self.next_dial {
            Some(at) if at <= now => {}
            Some(_) => return,
            None => {
                // The link just went: try again after the pause.
                self.next_dial = Some(now + self.options.retry_every);
                return;
            }
        }
        self.next_dial = None;
        self.dialing = true;
        self.session.reconnecting();
        self.flush();
        let (timeout, inputs) = (self.options.connect_timeout, self.inputs.clone());
        let started = spawn("lan-dial", move || {
            let _ = match dial(&target, timeout) {
                Ok(stream) => inputs.send(Input::Opened(stream)),
                Err(e) => inputs.send(Input::DialFailed(DialFailure {
                    kind: e.kind(),
                    detail: e.to_string(),
                    target,
                })),
            };
        });
        if started.is_err() {
            self.dialing = false;
            self.next_dial = Some(now + self.options.retry_every);
        }
    }

    /// Carries out the session's outputs.
    fn flush(&mut self) {
        let mut told = false;
        while let Some(output) = self.session.poll() {
            match output {
                Output::Send(id, message) => self.write(id, &message),
                Output::Close(id) => {
                    if let Some(stream) = self.streams.remove(&id) {
                        let _ = stream.shutdown(Shutdown::Both);
                    }
                }
                Output::Event(event) => {
                    told = true;
                    let _ = self.events.send(LanEvent::Session(event));
                }
            }
        }
        if told {
            (self.wake)();
        }
    }

    fn write(&mut self, id: ConnId, message: &Message) {
        let Some(stream) = self.streams.get_mut(&id) else {
            return;
        };
        let written = codec::encode(message)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
            .and_then(|line| stream.write_all(&line));
        if let Err(e) = written {
            log::warn!("lan: {id:?}: cannot send {}: {e}", message.type_name());
            if let Some(stream) = self.streams.remove(&id) {
                let _ = stream.shutdown(Shutdown::Both);
            }
            self.session.connection_closed(id);
        }
    }

    fn tell(&mut self, event: LanEvent) {
        let _ = self.events.send(event);
        (self.wake)();
    }
}
