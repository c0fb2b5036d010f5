//! Puzzles appear without anyone asking: a finished game with a blunder of the player's lies
//! in Saved games; on the device, once the screen is dark and the battery charges, the app
//! analyses it in the background, and Menu → Train offers the blunder as a puzzle, which is
//! solved by taps on Train's board. Slint allows one platform per process: one test.

use chesspi::app::boot::headless;
use chesspi::app::boot::screenshot::square_center;
use chesspi::app::model::mode::GameSetup;
use chesspi::app::screens::ScreenKind;
use chesspi::app::screens::train::Training;
use chesspi::app::ui::StatusAdapter;
use chesspi::config::CommandLine;
use chesspi::power::ShutdownCommand;
use chesspi::storage::{Archive, GameMode, SavedGame};
use chesspi_engine::Color;
use slint::ComponentHandle;
use std::time::Duration;

mod support;
use support::ui::{pump_until, start_app};

/// The background analysis of a five-move game, a debug build's search included.
const PATIENCE: Duration = Duration::from_secs(120);

#[test]
fn a_saved_blunder_becomes_a_puzzle_while_the_device_charges() {
    headless::install().expect("headless");
    let dir = tempfile::tempdir().expect("tempdir");
    // You (Black) lost to the computer: 2... Qg5?? 3. Nxg5, then resigned.
    let mut game = support::games::game_with("e2e4 e7e5 g1f3 d8g5 f3g5");
    game.resign(Color::Black).expect("resign");
    let saved = SavedGame::new(
        GameMode::VsComputer {
            human: Color::Black,
            level: support::games::level(4),
        },
        game,
    );
    Archive::open(dir.path())
        .expect("archive")
        .store(&saved)
        .expect("stored");

    let app = start_app(dir.path(), GameSetup::FIRST_START, PATIENCE);
    // The device (it can shut down): nothing runs while the screen is on.
    app.enable_shutdown(ShutdownCommand::new(CommandLine {
        program: "true".into(),
        args: Vec::new(),
    }));
    let status = app.window().global::<StatusAdapter>();
    status.invoke_charging_changed(true);
    assert!(
        !headless::pump_until(Duration::from_secs(2), || {
            app.with_controller(|c| !c.player().puzzles().puzzles().is_empty())
        }),
        "nothing is analysed while the screen is on"
    );
    status.invoke_screen_changed(true);
    pump_until("the puzzle from the background analysis", PATIENCE, || {
        app.with_controller(|c| !c.player().puzzles().puzzles().is_empty())
    });
    status.invoke_screen_changed(false);
    let puzzle = app.with_controller(|c| c.player().puzzles().puzzles()[0].clone());
    assert_eq!(puzzle.mistake.to_string(), "d8g5");
    assert!(
        dir.path().join("players/1/puzzles.toml").exists(),
        "kept on the device"
    );

    app.update_controller(|c| {
        c.action(chesspi::app::screens::Action::Menu);
        c.dialog_option("train");
    });
    assert_eq!(app.with_controller(|c| c.screen()), ScreenKind::Train);
    // Black at the bottom; the best move, tapped.
    let best = puzzle.best;
    for square in [best.from(), best.to()] {
        let (x, y) = square_center(square, true);
        headless::tap(x, y).expect("tap");
    }
    let view = app
        .with_controller(|c| c.shown::<Training>().map(|t| t.view(c.player().puzzles())))
        .expect("Train shows");
    assert_eq!(view.solved, Some(true), "{}", view.verdict);
    pump_until("the try on disk", PATIENCE, || {
        std::fs::read_to_string(dir.path().join("players/1/puzzles.toml"))
            .is_ok_and(|t| t.contains("solved = 1"))
    });
}
