//! Power cut at the storage level: a child process plays and autosaves in a loop and is killed
//! with SIGKILL at random moments, many times over the same state directory. After every kill
//! the autosave must load, must hold at least the last move the child reported as saved, and
//! must never be set aside as damaged.
//!
//! The child is this test binary run again with `--ignored --exact powercut_child` and an
//! environment variable naming the state directory.
//!
//! Limits: SIGKILL stops the process but keeps the kernel's page cache, so this checks that no
//! instant of a save leaves a torn or half-renamed file; that the data also reaches the SD card
//! is `write_atomic`'s fsync of the file and the directory, which only real power cuts test.

use std::io::{BufRead, BufReader, Read};
use std::process::Stdio;
use std::time::Duration;

use chesspi::storage::{AutosaveStore, GameMode, LoadOutcome, SavedGame};
use chesspi_engine::Color;
use chesspi_engine::game::Game;
use chesspi_engine::level::Level;

mod support;
use support::child::{child_test, from_env};
use support::rng::Rng;

const CHILD_DIR_ENV: &str = "CHESSPI_POWERCUT_CHILD_DIR";
const CHILD_SEED_ENV: &str = "CHESSPI_POWERCUT_CHILD_SEED";

fn new_game() -> SavedGame {
    SavedGame::new(
        GameMode::VsComputer {
            human: Color::White,
            level: Level::DEFAULT,
        },
        Game::new(),
    )
}

/// The child: continue the saved game (or start one), then forever play a random legal move
/// (sometimes take one back, start a new game at the end), save, and report the save.
#[test]
#[ignore = "child process of sigkill_during_saves_never_loses_a_saved_move"]
fn powercut_child() {
    let Ok(dir) = std::env::var(CHILD_DIR_ENV) else {
        return;
    };
    let seed = from_env(CHILD_SEED_ENV).unwrap_or(1);
    let mut rng = Rng::new(seed);
    let mut store = AutosaveStore::new(std::path::Path::new(&dir));
    let mut saved = match store.load() {
        LoadOutcome::Restored(g) => *g,
        LoadOutcome::Fresh => new_game(),
        LoadOutcome::Recovered { reason, .. } => panic!("child found a damaged file: {reason}"),
    };
    loop {
        if saved.game.is_over() {
            saved = new_game();
        } else if rng.below(10) == 0 && !saved.game.moves().is_empty() {
            saved.game.undo();
        } else {
            let moves = saved.game.position().legal_moves();
            let mv = moves[rng.below(moves.len())];
            saved.game.play(mv).expect("legal move");
        }
        let seq = store.save(&saved).expect("save");
        println!(
            "SAVED {seq} {:016x} {}",
            saved.id,
            saved.game.position().to_fen()
        );
    }
}

/// What the child reported after a save returned.
#[derive(Debug, Clone, PartialEq)]
struct Report {
    seq: u64,
    id: u64,
    fen: String,
}

/// Reads a report from a complete line (a line cut by the kill is no report). The first report
/// of a child shares its line with libtest's `test powercut_child ... `.
fn parse_report(line: &str) -> Option<Report> {
    let line = line.strip_suffix('\n')?;
    let rest = &line[line.find("SAVED ")? + "SAVED ".len()..];
    let mut parts = rest.splitn(3, ' ');
    Some(Report {
        seq: parts.next()?.parse().ok()?,
        id: u64::from_str_radix(parts.next()?, 16).ok()?,
        fen: parts.next()?.to_string(),
    })
}

#[test]
fn sigkill_during_saves_never_loses_a_saved_move() {
    let runs: u32 = from_env("CHESSPI_POWERCUT_RUNS").unwrap_or(200);
    let seed: u64 = from_env("CHESSPI_POWERCUT_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(7, |d| d.as_nanos() as u64)
    });
    eprintln!("power-cut test: {runs} runs, CHESSPI_POWERCUT_SEED={seed}");
    let mut rng = Rng::new(seed);
    let dir = tempfile::tempdir().expect("tempdir");

    // What is on disk after the previous run.
    let mut previous: Option<Report> = None;
    let mut total_saves = 0usize;
    let mut killed_mid_run = 0u32;
    for run in 0..runs {
        let mut child = child_test("powercut_child")
            .args(["--test-threads", "1"])
            .env(CHILD_DIR_ENV, dir.path())
            .env(CHILD_SEED_ENV, rng.next_u64().to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn child");
        let stdout = child.stdout.take().expect("child stdout");
        let mut reader = BufReader::new(stdout);

        // Let the child report a random number of saves (0 kills it during start-up or its
        // first save), then a random fraction of a save more, then cut.
        let wait_for = rng.below(12) as u64;
        let mut reports = Vec::new();
        let mut line = String::new();
        while (reports.len() as u64) < wait_for {
            line.clear();
            if reader.read_line(&mut line).expect("read child") == 0 {
                break;
            }
            reports.extend(parse_report(&line));
        }
        std::thread::sleep(Duration::from_micros(rng.below(20_000) as u64));
        child.kill().expect("SIGKILL child");
        let status = child.wait().expect("wait child");
        assert!(
            !status.success(),
            "run {run}: the child exited by itself ({status}); it must loop until killed"
        );
        let mut rest = String::new();
        reader.read_to_string(&mut rest).expect("read child");
        reports.extend(rest.split_inclusive('\n').filter_map(parse_report));
        if reports.len() as u64 > wait_for {
            killed_mid_run += 1;
        }
        total_saves += reports.len();
        let last = reports.last().cloned().or(previous.clone());

        // The file must load, never be set aside, and hold the last reported save or the one
        // after it (which may have completed between the report and the kill).
        let mut store = AutosaveStore::new(dir.path());
        match store.load() {
            LoadOutcome::Restored(game) => {
                let last = last
                    .as_ref()
                    .unwrap_or_else(|| panic!("run {run}: a game on disk that no one reported"));
                let seq = store.sequence();
                assert!(
                    seq == last.seq || seq == last.seq + 1,
                    "run {run} (seed {seed}): loaded save {seq}, last reported {}",
                    last.seq
                );
                if seq == last.seq {
                    assert_eq!(game.id, last.id, "run {run} (seed {seed})");
                    assert_eq!(
                        game.game.position().to_fen(),
                        last.fen,
                        "run {run} (seed {seed})"
                    );
                }
                // The next child continues from what is on disk (load has replayed it), which
                // may be one save beyond the last report.
                let on_disk = Report {
                    seq,
                    id: game.id,
                    fen: game.game.position().to_fen(),
                };
                previous = Some(on_disk);
            }
            LoadOutcome::Fresh => assert!(
                last.is_none(),
                "run {run} (seed {seed}): saves were reported but no file is there"
            ),
            LoadOutcome::Recovered { reason, .. } => {
                panic!("run {run} (seed {seed}): autosave damaged after SIGKILL: {reason}")
            }
        }
    }
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        names.iter().all(|n| !n.contains(".bad-")),
        "a file was set aside: {names:?}"
    );
    eprintln!(
        "power-cut test: {total_saves} reported saves, {killed_mid_run} runs killed with saves \
         still being reported"
    );
    assert!(
        total_saves > runs as usize,
        "too few saves to mean anything"
    );
}
