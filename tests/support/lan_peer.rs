//! The other side of a network game, written from docs/PROTOCOL.md: a peer that answers pings
//! itself (as a client must) and hands over every other object, a free loopback port, and the
//! app's network settings for loopback play.

use chesspi::app::boot::headless;
use chesspi::config::{LanConfig, PairingCode};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long a peer waits for the next object.
const PATIENCE: Duration = Duration::from_secs(10);

/// A port on 127.0.0.1 that nobody listened on a moment ago.
pub fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

/// The app's network settings for a game on 127.0.0.1 only: the device is called "Board",
/// listens on `port` (0: any free one), finds nobody by discovery and pairs with `code`.
pub fn lan_config(port: u16, code: &str) -> LanConfig {
    LanConfig {
        name: Some("Board".into()),
        port,
        listen: vec!["127.0.0.1".parse().expect("ip")],
        discovery: false,
        interfaces: Vec::new(),
        code: PairingCode::Fixed(code.into()),
        adjourn_after: chesspi::config::DEFAULT_ADJOURN_AFTER,
    }
}

/// The peer: writes lines, and a reader thread hands over every object but pings (which it
/// answers itself). While it waits it runs the headless app's event loop, if this thread has
/// one: the app under test may live in this process.
pub struct Peer {
    pub stream: TcpStream,
    lines: Receiver<Value>,
}

impl Peer {
    pub fn connect(addr: SocketAddr) -> Peer {
        Peer::on(TcpStream::connect(addr).expect("connect"))
    }

    /// The peer as a host: the next connection to `listener`, within the peer's patience.
    pub fn accept(listener: &TcpListener) -> Peer {
        let deadline = Instant::now() + PATIENCE;
        listener.set_nonblocking(true).expect("nonblocking");
        loop {
            headless::pump();
            match listener.accept() {
                Ok((stream, _)) => {
                    stream.set_nonblocking(false).expect("blocking");
                    return Peer::on(stream);
                }
                Err(_) if Instant::now() > deadline => panic!("nobody connected"),
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        }
    }

    /// The peer on a connection made already.
    pub fn on(stream: TcpStream) -> Peer {
        let mut writer = stream.try_clone().expect("clone");
        let reader = BufReader::new(stream.try_clone().expect("clone"));
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in reader.lines() {
                let Ok(line) = line else { break };
                let Ok(v) = serde_json::from_str::<Value>(&line) else {
                    break;
                };
                if v["type"] == "ping" {
                    let pong = json!({"type": "pong", "seq": v["seq"]});
                    let _ = writer.write_all(format!("{pong}\n").as_bytes());
                    continue;
                }
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Peer { stream, lines }
    }

    pub fn send(&mut self, v: &Value) {
        self.stream
            .write_all(format!("{v}\n").as_bytes())
            .expect("send");
    }

    /// The next object other than pong; `None` after `timeout`, or at once once the
    /// connection is closed and every object read.
    pub fn next_within(&mut self, timeout: Duration) -> Option<Value> {
        let deadline = Instant::now() + timeout;
        loop {
            headless::pump();
            match self.lines.recv_timeout(Duration::from_millis(10)) {
                Ok(v) if v["type"] == "pong" => {}
                Ok(v) => return Some(v),
                Err(RecvTimeoutError::Disconnected) => return None,
                Err(_) if Instant::now() > deadline => return None,
                Err(_) => {}
            }
        }
    }

    /// The next object other than pong, failing the test with `what` after the peer's
    /// patience.
    pub fn next(&mut self, what: &str) -> Value {
        self.next_within(PATIENCE)
            .unwrap_or_else(|| panic!("timed out waiting for {what}"))
    }
}
