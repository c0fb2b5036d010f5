//! Power cuts during play: the real app (headless, with its saver thread) plays and takes back
//! moves by tapping the board in a child process, which is killed with SIGKILL at a random
//! moment. After every kill the saved game must be exactly what the screen last showed, or the
//! change the child had just asked for; the files must never be damaged. Each run restores
//! what the previous one left, as the device does after a power cut.

use chesspi::app::boot::headless;
use chesspi::app::ui::GameAdapter;
use chesspi::app::{App, screens::Action};
use chesspi::storage::{Archive, AutosaveStore, GameSummary, LoadOutcome};
use chesspi_engine::Move;
use chesspi_engine::game::Game;
use chesspi_engine::san::to_san;
use slint::{ComponentHandle, Model};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

mod support;
use support::child::{child_test, from_env, spawn_reporting};
use support::rng::Rng;
use support::ui::{FRIEND, start_app, tap_square};

const STATE_ENV: &str = "CHESSPI_POWERCUT_STATE";
const SEED_ENV: &str = "CHESSPI_POWERCUT_SEED";

/// The moves as the screen's move list shows them, in SAN.
fn shown_moves(app: &App) -> Vec<String> {
    let rows = app.window().global::<GameAdapter>().get_moves();
    let mut moves = Vec::new();
    for row in rows.iter() {
        for san in [row.white, row.black] {
            let san = san.to_string();
            // The list shows "…" for White's missing move after a Black start.
            if !san.is_empty() && san != "…" && san != "..." {
                moves.push(san);
            }
        }
    }
    moves
}

fn san_moves(game: &Game) -> Vec<String> {
    game.positions()
        .iter()
        .zip(game.moves())
        .map(|(pos, &m)| to_san(pos, m))
        .collect()
}

/// The text after `marker` in a report line. The test harness may print its own words first
/// on the same line (it does when it runs tests one at a time).
fn after_marker<'a>(line: &'a str, marker: &str) -> Option<&'a str> {
    line.find(marker).map(|i| &line[i + marker.len()..])
}

/// Writes one report line to the parent in a single write, flushed.
fn report(kind: &str, moves: &[String]) {
    let line = format!("{kind} {}\n", moves.join(" "));
    let mut out = std::io::stdout().lock();
    out.write_all(line.as_bytes()).expect("stdout");
    out.flush().expect("stdout");
}

/// The child: plays until it is killed.
#[test]
#[ignore = "run by power_cuts_never_lose_a_shown_move as a child process"]
fn powercut_child() {
    let Some(dir) = std::env::var_os(STATE_ENV) else {
        return;
    };
    let dir = Path::new(&dir);
    let seed: u64 = from_env(SEED_ENV).unwrap_or(1);
    let mut rng = Rng::new(seed);
    headless::install().expect("headless platform");

    let app = start_app(dir, FRIEND, Duration::from_secs(10));
    report("SHOWN", &shown_moves(&app));

    loop {
        // A claimable draw opens a dialog; play on.
        app.update_controller(|c| c.dialog_dismissed());
        let game = app.with_controller(|c| c.session().game().clone());
        let can_undo = app.with_controller(|c| {
            c.game_view()
                .actions()
                .iter()
                .any(|a| a.action == Action::Undo && a.enabled)
        });
        let mut next = game.clone();
        if game.is_over() || (can_undo && rng.below(5) == 0) {
            next.undo();
            report("INTENT", &san_moves(&next));
            app.update_controller(|c| c.action(Action::Undo));
        } else {
            let moves: Vec<Move> = game.position().legal_moves().iter().copied().collect();
            let m = moves[rng.below(moves.len())];
            next.play(m).expect("legal");
            report("INTENT", &san_moves(&next));
            tap_square(&app, &m.from().to_string());
            tap_square(&app, &m.to().to_string());
            if let Some(role) = m.promotion() {
                app.update_controller(|c| c.play(|p, cx, _| p.choose_promotion(cx, Some(role))));
            }
        }
        // Report the change the moment the screen shows it, saved or not: the app must not
        // show it before it is on disk.
        let want = san_moves(&next);
        assert!(
            headless::pump_until(Duration::from_secs(10), || shown_moves(&app) == want),
            "the screen never showed {want:?}"
        );
        report("SHOWN", &want);
    }
}

#[test]
fn power_cuts_never_lose_a_shown_move() {
    let runs: u64 = from_env("CHESSPI_POWERCUT_RUNS").unwrap_or(100);
    let dir = tempfile::tempdir().expect("tempdir");
    let mut expected: Option<Vec<String>> = None;
    let mut total_changes = 0usize;
    for run in 0..runs {
        let seed = 0x5eed_0000 + run;
        let (mut child, rx, reader) = spawn_reporting(
            child_test("powercut_child")
                .env(STATE_ENV, dir.path())
                .env(SEED_ENV, seed.to_string()),
        );
        // Kill after a random number of changes (so every run gets past start-up), at a random
        // moment within that change.
        let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let changes_before_kill = 1 + rng.below(25);
        let extra_delay = Duration::from_micros(rng.below(8000) as u64);
        let mut last_shown: Option<Vec<String>> = None;
        let mut last_intent: Option<Vec<String>> = None;
        let mut first_shown = true;
        let mut seen = 0;
        let deadline = Instant::now() + Duration::from_secs(120);
        let parse =
            |rest: &str| -> Vec<String> { rest.split_whitespace().map(str::to_string).collect() };
        while Instant::now() < deadline {
            let Ok(line) = rx.recv_timeout(Duration::from_secs(60)) else {
                break;
            };
            if let Some(rest) = after_marker(&line, "SHOWN ") {
                let shown = parse(rest);
                if first_shown {
                    // The restored game is what the previous run left on disk.
                    if let Some(expected) = &expected {
                        assert_eq!(&shown, expected, "run {run}: restored game");
                    }
                    first_shown = false;
                }
                last_shown = Some(shown);
                last_intent = None;
                seen += 1;
                if seen > changes_before_kill {
                    std::thread::sleep(extra_delay);
                    break;
                }
            } else if let Some(rest) = after_marker(&line, "INTENT ") {
                last_intent = Some(parse(rest));
                if seen == changes_before_kill {
                    // Kill while the change is being saved.
                    std::thread::sleep(extra_delay);
                    break;
                }
            }
        }
        // SIGKILL: no destructor, no flush, as a power cut.
        child.kill().expect("kill");
        let status = child.wait().expect("wait");
        assert!(!status.success(), "run {run}: the child ended by itself");
        // Lines written before the kill are still in the pipe.
        while let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
            if let Some(rest) = after_marker(&line, "SHOWN ") {
                last_shown = Some(parse(rest));
                last_intent = None;
            } else if let Some(rest) = after_marker(&line, "INTENT ") {
                last_intent = Some(parse(rest));
            }
        }
        let _ = reader.join();
        let last_shown = last_shown.unwrap_or_else(|| panic!("run {run}: nothing was shown"));

        let saved = match AutosaveStore::new(dir.path()).load() {
            LoadOutcome::Restored(saved) => san_moves(&saved.game),
            other => panic!("run {run}: the autosave is not intact: {other:?}"),
        };
        assert!(
            saved == last_shown || Some(&saved) == last_intent.as_ref(),
            "run {run}: saved {saved:?}, shown {last_shown:?}, asked for {last_intent:?}"
        );
        total_changes += seen;
        expected = Some(saved);
    }
    // Games left unfinished or finished along the way are whole, readable PGN.
    if let Ok(archive) = Archive::open(dir.path()) {
        for summary in archive.list().expect("list") {
            assert!(
                !matches!(summary, GameSummary::Damaged { .. }),
                "damaged archive file: {summary:?}"
            );
        }
    }
    eprintln!("{runs} power cuts after {total_changes} shown changes");
    assert!(total_changes >= runs as usize, "the runs made progress");
}
