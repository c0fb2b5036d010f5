//! Shared by the app's network tests: waiting on the headless event loop, tapping a square,
//! and a protocol peer written from docs/PROTOCOL.md that answers pings itself.

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::boot::screenshot::square_center;
use chesspi_engine::Square;
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

pub fn wait(what: &str, mut done: impl FnMut() -> bool) {
    assert!(
        headless::pump_until(Duration::from_secs(10), &mut done),
        "timed out waiting for {what}"
    );
}

pub fn tap(app: &App, name: &str) {
    let sq: Square = name.parse().expect("square");
    let (x, y) = square_center(sq, app.with_controller(|c| c.is_flipped()));
    headless::tap(x, y).expect("tap");
}

/// The peer: writes lines, and a reader thread hands over every object but pings (which it
/// answers itself, as a client must).
pub struct Peer {
    pub stream: TcpStream,
    lines: Receiver<Value>,
}

impl Peer {
    pub fn connect(addr: std::net::SocketAddr) -> Peer {
        Peer::on(TcpStream::connect(addr).expect("connect"))
    }

    /// The peer as a host: the next connection to `listener`.
    #[allow(
        dead_code,
        reason = "each test file that shares this module uses a part of it"
    )]
    pub fn accept(listener: &std::net::TcpListener) -> Peer {
        let deadline = Instant::now() + Duration::from_secs(10);
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

    fn on(stream: TcpStream) -> Peer {
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

    /// The next object other than pong, pumping the app's event loop meanwhile.
    pub fn next(&mut self, what: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            headless::pump();
            match self.lines.recv_timeout(Duration::from_millis(10)) {
                Ok(v) if v["type"] == "pong" => {}
                Ok(v) => return v,
                Err(_) if Instant::now() > deadline => panic!("timed out waiting for {what}"),
                Err(_) => {}
            }
        }
    }
}
