//! Players on one device, through the dialogs' choices: "Who is playing?" lists them with the
//! guest, a tap makes another the one at the device, Your record then shows their record, and
//! the next game is theirs (its save names them). Each player's record stays their own.

mod support;

use chesspi::app::boot::headless;
use chesspi::app::screens::{Action, Go};
use chesspi::app::ui::{DialogAdapter, StatusAdapter};
use chesspi::storage::players::{PlayerFiles, PlayerId, Roster};
use chesspi::storage::stats::{PlayerResult, Stats};
use chesspi::storage::{AutosaveStore, LoadOutcome, Who};
use chesspi_engine::Color;
use chesspi_engine::level::Level;
use slint::{ComponentHandle, Model};
use std::time::Duration;
use support::ui::{against_the_computer, pump_until, start_app};

const PATIENCE: Duration = Duration::from_secs(20);

fn options(dialog: &DialogAdapter) -> Vec<String> {
    dialog
        .get_options()
        .iter()
        .map(|o| o.label.to_string())
        .collect()
}

#[test]
fn another_player_comes_to_the_device() {
    headless::install().expect("headless");
    let state = tempfile::tempdir().expect("state");
    // Anna, added earlier, has won a game at level 3; player 1 has played none.
    let files = PlayerFiles::new(state.path());
    let mut roster = Roster::default();
    let anna = roster.add("Anna").expect("added");
    files.roster_store().save(&roster).expect("roster");
    let mut hers = Stats::new();
    hers.record(Level::new(3).expect("level"), PlayerResult::Win);
    files.save_stats(anna, &hers).expect("her record");

    let app = start_app(state.path(), against_the_computer(3), PATIENCE);
    let dialog = app.window().global::<DialogAdapter>();
    // The dialog that asks who is playing (Settings → Players opens the Players screen:
    // tests/ui_players_screen.rs); the window's option taps come here.
    app.update_controller(|c| c.go(Go::Players));
    headless::pump();
    assert_eq!(dialog.get_title(), "Who is playing?");
    assert_eq!(
        options(&dialog),
        ["Close", "Player 1 (playing)", "Anna", "Guest"]
    );
    app.update_controller(|c| c.dialog_option("player1"));
    headless::pump();
    let status = app.window().global::<StatusAdapter>();
    assert_eq!(status.get_notice(), "Anna is playing now.");

    // Her record arrives from the saver.
    pump_until("Anna's record", PATIENCE, || {
        app.update_controller(|c| {
            c.action(Action::Menu);
            c.dialog_option("stats");
        });
        headless::pump();
        let shown = dialog.get_message().contains("+1 =0 −0");
        dialog.invoke_option_chosen("close".into());
        headless::pump();
        shown
    });

    // The choice is kept, and her next game names her.
    let kept = files.roster_store().load().value;
    assert_eq!(kept.last(), Who::Player(anna));
    app.update_controller(|c| c.action(Action::NewGame));
    headless::pump();
    let form = app.window().global::<chesspi::app::ui::NewGameAdapter>();
    assert!(form.get_visible());
    form.invoke_start();
    headless::pump();
    pump_until("the new game saved", PATIENCE, || app.is_saved());
    let LoadOutcome::Restored(saved) = AutosaveStore::new(state.path()).load() else {
        panic!("a saved game");
    };
    let seat = saved.seats.get(Color::White).expect("a person plays White");
    assert_eq!(seat.who, Who::Player(anna));
    assert_eq!(seat.name, "Anna");
    // Player 1's record was not touched.
    assert_eq!(files.load_stats(PlayerId::FIRST).value, Stats::new());
}
