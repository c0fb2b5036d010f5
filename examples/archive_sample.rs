//! Writes random games through the archive and exports them as one PGN file, with the facts
//! an independent reader must find: `tools/check_archive_pgn.py` checks them with python-chess.
//!
//! `cargo run --example archive_sample -- OUT_DIR [GAMES]`

use chesspi::storage::{Archive, GameMode, SavedGame, export_all};
use chesspi_engine::game::Game;
use chesspi_engine::level::Level;
use chesspi_engine::{Color, Position};
use std::error::Error;
use std::fmt::Write as _;
use std::path::PathBuf;

/// A small deterministic generator, so a sample can be made again.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().ok_or("usage: archive_sample OUT_DIR [GAMES]")?);
    let games: usize = args.next().map_or(Ok(200), |n| n.parse())?;
    std::fs::create_dir_all(&dir)?;
    let state = dir.join("state");
    let archive = Archive::open(&state)?;
    let mut rng = Rng(0x1234_5678_9abc_def1);
    let mut expected = String::new();
    // Some games start from a set-up position, to exercise the FEN and SetUp tags.
    let starts = [
        None,
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        Some("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        Some("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2"),
    ];
    for i in 0..games {
        let mut game = match starts[i % starts.len()] {
            None => Game::new(),
            Some(fen) => Game::from_position(Position::from_fen(fen)?),
        };
        let limit = 1 + rng.below(300);
        while !game.is_over() && game.moves().len() < limit {
            let moves: Vec<_> = game.position().legal_moves().iter().copied().collect();
            game.play(moves[rng.below(moves.len())])?;
        }
        // Games cut short end in one of the ways a person ends them, or stay unfinished.
        if !game.is_over() {
            let turn = game.position().turn();
            // An ending the rules refuse (no claimable draw, say) leaves the game unfinished.
            let _ = match rng.below(5) {
                0 => game.resign(turn),
                1 => game.agree_draw(),
                2 => game.flag(turn),
                3 => game.claim_draw(),
                _ => Err(chesspi_engine::game::GameError::NoDrawToClaim),
            };
        }
        let mode = match i % 3 {
            0 => GameMode::VsComputer {
                human: if i % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                },
                level: Level::new(1 + (i % 10) as u8).ok_or("level")?,
            },
            1 => GameMode::TwoPlayers,
            _ => GameMode::ComputerVsComputer {
                white: Level::new(3).ok_or("level")?,
                black: Level::new(8).ok_or("level")?,
            },
        };
        let result = match game.outcome().and_then(|o| o.winner) {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None if game.is_over() => "1/2-1/2",
            None => "*",
        };
        writeln!(
            expected,
            "{}\t{}\t{}",
            game.moves().len(),
            result,
            game.position().to_fen()
        )?;
        archive.store(&SavedGame::new(mode, game))?;
    }
    let report = export_all(&archive, &dir)?;
    std::fs::write(dir.join("expected.tsv"), expected)?;
    println!("{}", report.path.display());
    Ok(())
}
