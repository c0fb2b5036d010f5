//! A stick with a 50 MB PGN of 100 000 games, imported as the owner would (Saved games → From
//! USB stick → the file), headless with the device's software renderer:
//! 1. the UI thread's frames while the import runs (render time and the longest gap between
//!    two frames, which is the longest the screen could not redraw);
//! 2. the saver's answer to an autosave sent every 200 ms during a second import (of the same
//!    size), against the same saver idle;
//! 3. Saved games with 10 000 games (8 000 there before, 2 000 from the file): the listing on
//!    the saver's side cold and again, then opening the screen and drawing it.
//!
//! `cargo run --release --example import_stress` (needs ~1 GB of free disk in the temp dir).
//! Numbers go to docs/BENCHMARKS.md.

use std::fmt::Write as _;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::model::mode::{GameSetup, Level, Mode};
use chesspi::app::saving::{self, Report, Saver, UsbMedia};
use chesspi::app::screens::Viewing;
use chesspi::app::ui::{DialogAdapter, GamesAdapter};
use chesspi::storage::Archive;
use chesspi_engine::game::Game;
use slint::{ComponentHandle, Model};

const FRIEND: GameSetup = GameSetup {
    mode: Mode::Friend,
    level: Level::DEFAULT,
};

/// About 500 bytes a game, like a real database's: 100 000 games make 50 MB.
fn big_file(games: usize) -> String {
    let moves = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 6. Re1 b5 7. Bb3 d6 \
                 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 \
                 14. Bg5 b4 15. Nb1 h6 16. Bh4 c5 17. dxe5 Nxe4 18. Bxe7 Qxe7 19. exd6 Qf6 \
                 20. Nbd2 Nxd6 21. Nc4 Nxc4 22. Bxc4 Nb6 23. Ne5 Rae8 24. Bxf7+ Rxf7 \
                 25. Nxf7 Rxe1+ 26. Qxe1 Kxf7 27. Qe3 Qg5 28. Qxg5 hxg5 1/2-1/2";
    let mut text = String::with_capacity(games * 520);
    for i in 0..games {
        write!(
            text,
            "[Event \"Stress {i}\"]\n[Site \"?\"]\n[Date \"2026.11.28\"]\n[Round \"{i}\"]\n\
             [White \"Player {i}\"]\n[Black \"Opponent {i}\"]\n[Result \"1/2-1/2\"]\n\
             [ECO \"C92\"]\n[Opening \"Ruy Lopez\"]\n\n{moves}\n\n"
        )
        .expect("write");
    }
    text
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn percentile(samples: &mut [Duration], p: f64) -> Duration {
    samples.sort();
    samples[((samples.len() - 1) as f64 * p).round() as usize]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let state = tempfile::tempdir()?;
    let media = tempfile::tempdir()?;
    std::fs::create_dir_all(media.path().join("STICK"))?;
    let file = media.path().join("STICK/huge.pgn");
    let text = big_file(100_000);
    std::fs::write(&file, &text)?;
    println!("file: {:.1} MB, 100 000 games", text.len() as f64 / 1e6);
    drop(text);

    let listing = fill_archive(state.path(), 4)?;
    ui_frames_during_import(state.path(), media.path())?;
    autosave_during_import(&file)?;
    println!("{listing}");
    Ok(())
}

/// 2 000 games `files` times, stored before the app starts; the listing of them timed.
fn fill_archive(
    state: &std::path::Path,
    files: usize,
) -> Result<String, Box<dyn std::error::Error>> {
    let archive = Archive::open(state)?;
    let started = Instant::now();
    // Each file's time: flat if storing a game does not grow with the archive.
    let mut each = Vec::new();
    for _ in 0..files {
        let text = big_file(2_000);
        let t = Instant::now();
        archive.import_pgn(&text)?;
        each.push(format!("{:.1} s", t.elapsed().as_secs_f64()));
    }
    let stored = started.elapsed();
    let fresh = Archive::open(state)?;
    let t = Instant::now();
    let list = fresh.list()?;
    let cold = t.elapsed();
    let t = Instant::now();
    let again = fresh.list()?;
    let warm = t.elapsed();
    assert_eq!(list.len(), again.len());
    let t = Instant::now();
    let rows: Vec<_> = list
        .iter()
        .map(chesspi::app::screens::saved_games::list::row)
        .collect();
    let rows_took = t.elapsed();
    Ok(format!(
        "\n3. {} games stored in {:.1} s (2 000 a file: {}); listing (saver side): first {:.0} ms, \
         again {:.0} ms; rows made {:.0} ms",
        rows.len(),
        stored.as_secs_f64(),
        each.join(", "),
        ms(cold),
        ms(warm),
        ms(rows_took)
    ))
}

/// Part 1: the real app, the import started by its dialog, frames rendered as fast as the
/// event loop allows until the outcome shows.
fn ui_frames_during_import(
    state: &std::path::Path,
    media: &std::path::Path,
) -> Result<(), Box<dyn std::error::Error>> {
    headless::install()?;
    let (restored, mut stores, _) = saving::open(state, (Game::new(), FRIEND));
    stores.usb = UsbMedia {
        root: media.to_path_buf(),
        any_folder_is_a_stick: true,
    };
    let app = App::new(restored.game, restored.setup)?;
    app.enable_saving(stores, restored.identity)?;
    app.window().show()?;
    headless::pump_until(Duration::from_secs(20), || app.is_saved());
    app.update_controller(|c| {
        c.action(chesspi::app::screens::Action::Menu);
        c.dialog_option("games");
    });
    let games = app.window().global::<GamesAdapter>();
    headless::pump_until(Duration::from_secs(20), || games.get_can_import());
    let before = games.get_games().row_count();
    games.invoke_import();
    headless::pump();
    let dialog = app.window().global::<DialogAdapter>();
    let started = Instant::now();
    app.update_controller(|c| c.dialog_option("file0"));
    let mut renders = Vec::new();
    let mut gaps = Vec::new();
    let mut last = Instant::now();
    let mut progress_seen = 0;
    while !dialog.get_message().contains("are in Saved games") {
        headless::pump();
        let (_, took) = headless::render()?;
        renders.push(took);
        let now = Instant::now();
        gaps.push(now - last);
        last = now;
        if dialog.get_message().contains('%') {
            progress_seen += 1;
        }
        if started.elapsed() > Duration::from_secs(600) {
            return Err("the import did not end in 10 minutes".into());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let took = started.elapsed();
    println!(
        "\n1. UI while importing (import took {:.1} s)",
        took.as_secs_f64()
    );
    println!(
        "   frames: {}, render p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        renders.len(),
        ms(percentile(&mut renders, 0.5)),
        ms(percentile(&mut renders, 0.99)),
        ms(percentile(&mut renders, 1.0))
    );
    println!(
        "   gap between frames (5 ms sleep included): p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        ms(percentile(&mut gaps, 0.5)),
        ms(percentile(&mut gaps, 0.99)),
        ms(percentile(&mut gaps, 1.0))
    );
    println!("   frames showing progress: {progress_seen}");
    println!(
        "   outcome:\n     {}",
        dialog.get_message().replace('\n', "\n     ")
    );
    // The list as it was before the import, and the 2 000 from it.
    let rows = before + 2_000;
    headless::pump_until(Duration::from_secs(60), || {
        games.get_games().row_count() == rows
    });
    println!("   Saved games rows: {}", games.get_games().row_count());
    // Opened again: the whole list from the saver, then drawn.
    app.update_controller(|c| {
        c.part(|v: &mut Viewing, cx| v.close_list(cx));
    });
    headless::pump();
    let t = Instant::now();
    app.update_controller(|c| {
        c.action(chesspi::app::screens::Action::Menu);
        c.dialog_option("games");
    });
    games.set_games(slint::ModelRc::default());
    headless::pump_until(Duration::from_secs(60), || {
        games.get_games().row_count() == rows
    });
    let listed = t.elapsed();
    let mut frames = Vec::new();
    for _ in 0..20 {
        frames.push(headless::render()?.1);
    }
    println!(
        "   Saved games opened again with {rows} games: rows shown after {:.0} ms; \
         a frame of the list: p50 {:.1} ms, max {:.1} ms",
        ms(listed),
        ms(percentile(&mut frames, 0.5)),
        ms(percentile(&mut frames, 1.0))
    );
    Ok(())
}

/// Part 2: the saver alone; an autosave every 200 ms while it imports.
fn autosave_during_import(file: &std::path::Path) -> Result<(), Box<dyn std::error::Error>> {
    let state = tempfile::tempdir()?;
    let (_, stores, _) = saving::open(state.path(), (Game::new(), FRIEND));
    let (tx, rx) = mpsc::channel();
    let mut saver = Saver::start(stores, None, move |r| {
        let _ = tx.send(r);
    })?;
    let moves = [
        "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6",
    ];
    // The first `n` moves: another position to save each time.
    let game_of = |n: usize| -> Result<Game, Box<dyn std::error::Error>> {
        let mut game = Game::new();
        for mv in &moves[..n] {
            let mv = game.position().parse_uci_move(mv)?;
            game.play(mv)?;
        }
        Ok(game)
    };
    let mut idle = Vec::new();
    for n in 1..=4 {
        let game = game_of(n)?;
        let sent = Instant::now();
        let seq = saver.submit(1, &FRIEND, &game).ok_or("saver stopped")?;
        wait_saved(&rx, seq)?;
        idle.push(sent.elapsed());
    }
    saver.import(file.to_path_buf());
    let started = Instant::now();
    let mut busy = Vec::new();
    let mut i = 0;
    let outcome = loop {
        std::thread::sleep(Duration::from_millis(200));
        i += 1;
        let game = game_of(i % 8 + 1)?;
        let sent = Instant::now();
        let seq = saver.submit(1, &FRIEND, &game).ok_or("saver stopped")?;
        match wait_saved(&rx, seq)? {
            Some(report) => break report,
            None => busy.push(sent.elapsed()),
        }
        if started.elapsed() > Duration::from_secs(600) {
            return Err("no end in 10 minutes".into());
        }
    };
    println!("\n2. Autosave answered by the saver");
    println!(
        "   idle: max {:.1} ms over {}; while importing: p50 {:.1} ms, max {:.1} ms over {}",
        ms(percentile(&mut idle, 1.0)),
        idle.len(),
        ms(percentile(&mut busy, 0.5)),
        ms(percentile(&mut busy, 1.0)),
        busy.len()
    );
    println!(
        "   import: {outcome} in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    saver.stop();
    Ok(())
}

/// Waits for save `seq`; an import's outcome seen on the way is returned (as text) after it.
fn wait_saved(rx: &mpsc::Receiver<Report>, seq: u64) -> Result<Option<String>, String> {
    let mut outcome = None;
    loop {
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(Report::Saved(r)) if r.seq >= seq => return Ok(outcome),
            Ok(Report::Imported { result, .. }) => {
                outcome = Some(match result {
                    Ok(r) => format!(
                        "{} stored, stopped by {:?}, file cut {:?}",
                        r.imported.len(),
                        r.stopped,
                        r.file_cut
                    ),
                    Err(e) => format!("failed: {e}"),
                });
            }
            Ok(_) => {}
            Err(e) => return Err(format!("no save report: {e}")),
        }
    }
}
