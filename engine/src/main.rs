//! `chesspi-engine`: ChessPI's engine as a UCI program.

use chesspi_engine::Position;
use chesspi_engine::perft;
use chesspi_engine::uci::UciCommand;
use std::io::{self, BufRead, Write};

/// Engine state between commands.
struct Engine {
    position: Position,
    /// Hash of every position of the game so far, the current one last.
    history: Vec<u64>,
}

impl Engine {
    fn new() -> Engine {
        let position = Position::startpos();
        Engine {
            position,
            history: vec![position.hash()],
        }
    }

    /// Handles one command; returns false when the engine should exit.
    fn handle(&mut self, command: UciCommand) -> bool {
        match command {
            UciCommand::Uci => {
                println!("id name ChessPI {}", env!("CARGO_PKG_VERSION"));
                println!("id author the ChessPI authors");
                println!("uciok");
            }
            UciCommand::IsReady => println!("readyok"),
            UciCommand::UciNewGame => *self = Engine::new(),
            UciCommand::Position { start, moves } => {
                let mut pos = start;
                self.history = vec![pos.hash()];
                for mv in moves {
                    pos.play_unchecked(mv);
                    self.history.push(pos.hash());
                }
                self.position = pos;
            }
            UciCommand::Perft(depth) => {
                let mut total = 0;
                for (mv, count) in perft::divide(&self.position, depth) {
                    println!("{mv}: {count}");
                    total += count;
                }
                if depth == 0 {
                    total = 1;
                }
                println!();
                println!("Nodes searched: {total}");
            }
            UciCommand::Quit => return false,
            UciCommand::Debug(_) | UciCommand::Stop | UciCommand::PonderHit => {}
            UciCommand::SetOption { name, .. } => println!("info string unknown option '{name}'"),
            UciCommand::Go(_) => println!("info string search not available yet"),
        }
        true
    }
}

fn main() {
    let mut engine = Engine::new();
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let keep_going = match UciCommand::parse(&line) {
            Ok(command) => engine.handle(command),
            Err(chesspi_engine::uci::UciError::Empty) => true,
            Err(e) => {
                println!("info string {e}");
                true
            }
        };
        let _ = io::stdout().flush();
        if !keep_going {
            break;
        }
    }
}
