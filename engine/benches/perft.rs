//! Perft speed of ChessPI's move generator against the fastest Rust move generators on
//! crates.io, measured in the same run on the same machine: single thread, no hashing, bulk
//! counting at the leaves for every library.
//!
//! `cargo bench -p chesspi-engine --bench perft` runs the full measurement; under `cargo test`
//! it only checks that all four agree at a shallow depth.

use std::hint::black_box;
use std::time::Instant;

const POSITIONS: [(&str, &str, u32); 3] = [
    (
        "start",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        6,
    ),
    (
        "kiwipete",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        5,
    ),
    ("position 3", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 7),
];

fn chesspi(fen: &str, depth: u32) -> u64 {
    let pos = chesspi_engine::Position::from_fen(fen).expect("valid FEN");
    chesspi_engine::perft::perft(&pos, depth)
}

fn cozy(fen: &str, depth: u32) -> u64 {
    fn go(board: &cozy_chess::Board, depth: u32) -> u64 {
        let mut nodes = 0;
        if depth == 1 {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        } else {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += go(&child, depth - 1);
                }
                false
            });
        }
        nodes
    }
    let board: cozy_chess::Board = fen.parse().expect("valid FEN");
    go(&board, depth)
}

fn shakmaty(fen: &str, depth: u32) -> u64 {
    use shakmaty::{CastlingMode, Chess, fen::Fen};
    let fen: Fen = fen.parse().expect("valid FEN");
    let pos: Chess = fen.into_position(CastlingMode::Standard).expect("legal");
    shakmaty::perft(&pos, depth)
}

fn chess_crate(fen: &str, depth: u32) -> u64 {
    use std::str::FromStr;
    fn go(board: &chess::Board, depth: u32) -> u64 {
        let moves = chess::MoveGen::new_legal(board);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut nodes = 0;
        let mut child = *board;
        for mv in moves {
            board.make_move(mv, &mut child);
            nodes += go(&child, depth - 1);
        }
        nodes
    }
    let board = chess::Board::from_str(fen).expect("valid FEN");
    go(&board, depth)
}

type Perft = fn(&str, u32) -> u64;

const LIBRARIES: [(&str, Perft); 4] = [
    ("chesspi", chesspi),
    ("cozy-chess", cozy),
    ("shakmaty", shakmaty),
    ("chess", chess_crate),
];

fn main() {
    let full = std::env::args().any(|a| a == "--bench");
    let rounds = if full { 5 } else { 1 };
    println!(
        "{:<12} {:<11} {:>5} {:>12} {:>9} {:>8}",
        "position", "library", "depth", "nodes", "Mnps", "ratio"
    );
    for (name, fen, depth) in POSITIONS {
        let depth = if full { depth } else { 3 };
        // Rounds go round-robin over the libraries and each keeps its best time, so a
        // disturbance from other processes hits every library alike.
        let mut best = [f64::MAX; LIBRARIES.len()];
        let mut nodes = [0u64; LIBRARIES.len()];
        for _ in 0..rounds {
            for (i, (_, perft)) in LIBRARIES.iter().enumerate() {
                let start = Instant::now();
                nodes[i] = black_box(perft(black_box(fen), depth));
                best[i] = best[i].min(start.elapsed().as_secs_f64());
            }
        }
        let ours = nodes[0] as f64 / best[0] / 1e6;
        for (i, (lib, _)) in LIBRARIES.iter().enumerate() {
            assert_eq!(nodes[i], nodes[0], "{lib} disagrees on {name}");
            let mnps = nodes[i] as f64 / best[i] / 1e6;
            println!(
                "{name:<12} {lib:<11} {depth:>5} {:>12} {mnps:>9.1} {:>8.2}",
                nodes[i],
                ours / mnps
            );
        }
    }
    println!("ratio = chesspi Mnps / library Mnps (above 1: chesspi is faster)");
}
