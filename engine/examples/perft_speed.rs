//! `cargo run --release -p chesspi-engine --example perft_speed [depth] [fen]`: perft with
//! timing, for quick measurements of the move generator alone.

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(6);
    let fen = args.collect::<Vec<_>>().join(" ");
    let fen = if fen.is_empty() {
        chesspi_engine::fen::STARTPOS.to_string()
    } else {
        fen
    };
    let pos = match chesspi_engine::Position::from_fen(&fen) {
        Ok(pos) => pos,
        Err(e) => {
            eprintln!("bad FEN: {e}");
            std::process::exit(2);
        }
    };
    let start = Instant::now();
    let nodes = chesspi_engine::perft::perft(&pos, depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {nodes} in {secs:.3} s: {:.1} Mnps",
        nodes as f64 / secs / 1e6
    );
}
