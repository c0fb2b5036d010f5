//! A command-line LAN peer that plays legal moves by itself: a partner for trying the app or
//! another client without a second device.
//!
//! ```sh
//! cargo run --example lan_peer -- host [--listen 127.0.0.1:7531] [--code 1234] [--color white|black]
//! cargo run --example lan_peer -- join 127.0.0.1:7531 --code 1234
//! ```
//!
//! It prints every event, answers offers (accepts takebacks, declines draws) and stops when
//! the game ends (after its last move's ack, with a bye), the partner leaves, or after
//! `--moves N` of its own moves.

use chesspi::lan::codec::OfferKind;
use chesspi::lan::net::{LanEvent, LanHandle, NetOptions};
use chesspi::lan::session::{CodeChoice, Event, Session, Timing};
use chesspi_engine::Color;
use chesspi_engine::game::Game;
use std::time::Duration;

struct Args {
    join: Option<String>,
    listen: String,
    code: String,
    color: Color,
    moves: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let mut parsed = Args {
        join: None,
        listen: "127.0.0.1:7531".into(),
        code: "1234".into(),
        color: Color::White,
        moves: usize::MAX,
    };
    match args.next().as_deref() {
        Some("host") => {}
        Some("join") => parsed.join = Some(args.next().ok_or("join needs HOST:PORT")?),
        _ => return Err("usage: lan_peer host|join [HOST:PORT] [options]".into()),
    }
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--listen" => parsed.listen = value,
            "--code" => parsed.code = value,
            "--color" if value == "white" => parsed.color = Color::White,
            "--color" if value == "black" => parsed.color = Color::Black,
            "--moves" => parsed.moves = value.parse().map_err(|_| "bad --moves")?,
            _ => return Err(format!("unknown option {flag} {value}")),
        }
    }
    Ok(parsed)
}

fn main() {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let handle = match &args.join {
        Some(target) => {
            let session = Session::guest("lan_peer", &args.code, Timing::default());
            LanHandle::join(session, target, NetOptions::default(), || {})
        }
        None => {
            let code = CodeChoice::Fixed(args.code.clone());
            let session =
                Session::host("lan_peer", code, args.color, Game::new(), Timing::default());
            let listen = match args.listen.parse() {
                Ok(addr) => addr,
                Err(_) => {
                    eprintln!("bad --listen {}", args.listen);
                    std::process::exit(2);
                }
            };
            let handle = LanHandle::host(session, &[listen], NetOptions::default(), || {});
            if let Ok(h) = &handle {
                println!("hosting on {:?}, code {}", h.local_addrs(), args.code);
            }
            handle
        }
    };
    let handle = match handle {
        Ok(h) => h,
        Err(e) => {
            eprintln!("cannot start: {e}");
            std::process::exit(1);
        }
    };
    play(&handle, args.moves);
}

/// Mirrors the game from the events and moves when it is our turn.
fn play(handle: &LanHandle, max_moves: usize) {
    let mut game = Game::new();
    let mut local = None;
    let mut played = 0;
    // Our last move until the partner acknowledges it.
    let mut unacked = None;
    loop {
        let Some(event) = handle.wait_event(Duration::from_secs(3600)) else {
            continue;
        };
        println!("{event:?}");
        match event {
            LanEvent::Session(Event::Paired {
                local: l, game: g, ..
            }) => {
                local = Some(l);
                game = g;
            }
            LanEvent::Session(Event::Resynced { game: g }) => game = g,
            LanEvent::Session(Event::PartnerMoved { mv, .. }) => {
                let _ = game.play(mv);
            }
            LanEvent::Session(Event::TakenBack { ply } | Event::MoveRejected { ply, .. }) => {
                while game.moves().len() > ply as usize {
                    game.undo();
                }
            }
            LanEvent::Session(Event::OfferReceived(what)) => {
                handle.answer(what == OfferKind::Takeback);
            }
            LanEvent::Session(Event::Acked { ply }) if unacked == Some(ply) => unacked = None,
            LanEvent::Session(Event::GameOver(outcome)) => {
                println!("game over: {outcome}");
                return finish(handle, unacked);
            }
            LanEvent::Session(Event::PartnerLeft | Event::Refused { .. }) => return,
            _ => {}
        }
        if game.is_over() {
            println!("game over: {:?}", game.outcome());
            return finish(handle, unacked);
        }
        if local == Some(game.position().turn()) && played < max_moves {
            // A varied but reproducible choice among the legal moves.
            let legal = game.position().legal_moves();
            let mv = legal.as_slice()[(game.moves().len() * 7 + 3) % legal.len()];
            std::thread::sleep(Duration::from_millis(300));
            if game.play(mv).is_ok() {
                println!("playing {mv}");
                unacked = u32::try_from(game.moves().len() - 1).ok();
                handle.play(mv);
                played += 1;
            }
        }
    }
}

/// Leaves a finished game the way the protocol asks: the last move acknowledged (or a few
/// seconds' wait for it), then `bye`. The handle, dropped after, sends the bye before it
/// closes: its worker takes commands in order.
fn finish(handle: &LanHandle, mut unacked: Option<u32>) {
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    while unacked.is_some() {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match handle.wait_event(left) {
            Some(LanEvent::Session(Event::Acked { ply })) if unacked == Some(ply) => unacked = None,
            Some(event) => println!("{event:?}"),
            None => break,
        }
    }
    handle.leave();
}
