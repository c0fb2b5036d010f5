//! Measures the kiosk screen headless with the software renderer (the device's renderer):
//! a full redraw of the whole 800x480 window, and a tap on a piece until its legal targets
//! are rendered. Numbers go to docs/BENCHMARKS.md.
//!
//! `cargo run --release --example ui_bench`

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::boot::screenshot::square_center;
use chesspi::app::model::mode::GameSetup;
use chesspi_engine::Square;
use chesspi_engine::game::Game;
use slint::ComponentHandle;
use std::time::{Duration, Instant};

const ROUNDS: usize = 50;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    headless::install()?;
    let started = Instant::now();
    let app = App::new(Game::new(), GameSetup::FIRST_START)?;
    app.window().show()?;
    let (_, first) = headless::render()?;
    println!(
        "first frame: {:.1} ms after creating the app ({:.1} ms rendering)",
        started.elapsed().as_secs_f64() * 1e3,
        first.as_secs_f64() * 1e3
    );

    let mut full = Vec::new();
    for _ in 0..ROUNDS {
        full.push(headless::render()?.1);
    }
    println!(
        "full redraw (800x480): median {:.2} ms, max {:.2} ms over {ROUNDS}",
        median(full.clone()).as_secs_f64() * 1e3,
        full.iter().max().copied().unwrap_or_default().as_secs_f64() * 1e3
    );

    // Tap a piece and render: the time from the finger to the highlighted frame.
    let mut taps = Vec::new();
    for i in 0..ROUNDS {
        let sq = if i % 2 == 0 { Square::G1 } else { Square::B1 };
        let (x, y) = square_center(sq, false);
        let t = Instant::now();
        headless::tap(x, y)?;
        headless::render()?;
        taps.push(t.elapsed());
    }
    println!(
        "tap to highlighted frame: median {:.2} ms, max {:.2} ms over {ROUNDS}",
        median(taps.clone()).as_secs_f64() * 1e3,
        taps.iter().max().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
    Ok(())
}
