//! Players on one device, through the dialogs' choices: "Who is playing?" lists them with the
//! guest, a tap makes another the one at the device, Your record then shows their record, and
//! the next game is theirs (its save names them). Each player's record stays their own.

mod support;

use chesspi::app::boot::headless;
use chesspi::app::screens::{Action, Go};
use chesspi::app::shell::device::DeviceControls;
use chesspi::app::ui::{DialogAdapter, StatusAdapter};
use chesspi::config::Config;
use chesspi::storage::DeviceSettings;
use chesspi::storage::players::{PlayerFiles, PlayerId, Roster};
use chesspi::storage::stats::{PlayerResult, Stats};
use chesspi::storage::{AutosaveStore, LoadOutcome, Who};
use chesspi_engine::Color;
use chesspi_engine::coach::CoachLevel;
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

/// One headless platform per process: the cases run in turn.
#[test]
fn ui_players() {
    headless::install().expect("headless");
    another_player_comes_to_the_device();
    a_game_between_two_seated_players_rates_both();
    a_device_set_to_ask_asks_who_plays_at_start();
}

/// With "Ask at start" on, the device opens "Who is playing?" when it starts.
fn a_device_set_to_ask_asks_who_plays_at_start() {
    let state = tempfile::tempdir().expect("state");
    let files = PlayerFiles::new(state.path());
    let mut roster = Roster::default();
    roster.add("Anna").expect("added");
    roster.set_ask_at_start(true);
    files.roster_store().save(&roster).expect("roster");
    let app = start_app(state.path(), against_the_computer(3), PATIENCE);
    let dialog = app.window().global::<DialogAdapter>();
    assert!(dialog.get_visible());
    assert_eq!(dialog.get_title(), "Who is playing?");
    assert_eq!(options(&dialog), ["Close", "Player 1", "Anna", "Guest"]);

    // Without it, the game comes first.
    let state = tempfile::tempdir().expect("state");
    let app = start_app(state.path(), against_the_computer(3), PATIENCE);
    assert!(!app.window().global::<DialogAdapter>().get_visible());
}

fn another_player_comes_to_the_device() {
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
    app.enable_device(DeviceControls::new(
        DeviceSettings::default(),
        Config::default(),
        None,
    ));
    let dialog = app.window().global::<DialogAdapter>();
    // The dialog that asks who is playing (Settings → Players opens the Players screen:
    // tests/ui_players_screen.rs); the window's option taps come here.
    app.update_controller(|c| c.go(Go::Players));
    headless::pump();
    assert_eq!(dialog.get_title(), "Who is playing?");
    assert_eq!(options(&dialog), ["Close", "Player 1", "Anna", "Guest"]);
    assert!(
        dialog.get_message().starts_with("Now: Player 1."),
        "{}",
        dialog.get_message()
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

    // Her coach is her own: set while she plays, back when she comes again.
    let coach = |app: &chesspi::app::App| app.with_controller(|c| c.settings().coach);
    let step_coach = |app: &chesspi::app::App| {
        app.update_controller(|c| {
            c.action(Action::Menu);
            c.dialog_option("settings");
            c.dialog_option("coach");
            c.dialog_option("close");
        });
        headless::pump();
    };
    step_coach(&app);
    assert_eq!(coach(&app), CoachLevel::Blunders);
    let choose = |app: &chesspi::app::App, id: &str| {
        app.update_controller(|c| {
            c.go(Go::Players);
            c.dialog_option(id);
        });
        headless::pump();
    };
    choose(&app, "player0");
    step_coach(&app);
    assert_eq!(coach(&app), CoachLevel::Mistakes, "player 1 changes it");
    choose(&app, "player1");
    assert_eq!(coach(&app), CoachLevel::Blunders, "Anna's again");
    pump_until("the players written", PATIENCE, || {
        let roster = files.roster_store().load().value;
        roster.get(anna).and_then(|p| p.coach) == Some(CoachLevel::Blunders)
            && roster.get(PlayerId::FIRST).and_then(|p| p.coach) == Some(CoachLevel::Mistakes)
    });
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

/// Two players at one board, seated on New game: the game is rated for both, each against
/// the other, and each one's record says so.
fn a_game_between_two_seated_players_rates_both() {
    let state = tempfile::tempdir().expect("state");
    let files = PlayerFiles::new(state.path());
    let mut roster = Roster::default();
    let anna = roster.add("Anna").expect("added");
    files.roster_store().save(&roster).expect("roster");

    let app = start_app(state.path(), support::ui::FRIEND, PATIENCE);
    app.update_controller(|c| c.action(Action::NewGame));
    headless::pump();
    let form = app.window().global::<chesspi::app::ui::NewGameAdapter>();
    form.invoke_mode_chosen("friend".into());
    headless::pump();
    let seats = || -> Vec<String> { form.get_players().iter().map(|s| s.to_string()).collect() };
    assert_eq!(seats(), ["White: Player 1", "Black: Guest"]);
    assert!(
        form.get_note().contains("Rated when two players"),
        "{}",
        form.get_note()
    );
    // Black's seat: the next player, skipping the one at White.
    form.invoke_player_tapped(1);
    headless::pump();
    assert_eq!(seats(), ["White: Player 1", "Black: Anna"]);
    assert_eq!(
        form.get_note(),
        "Rated: Player 1 against Anna, each rating moves."
    );
    // White's seat goes round: Anna is at Black, so the guest, then player 1 again.
    form.invoke_player_tapped(0);
    headless::pump();
    assert_eq!(seats(), ["White: Guest", "Black: Anna"]);
    form.invoke_player_tapped(0);
    headless::pump();
    assert_eq!(seats(), ["White: Player 1", "Black: Anna"]);
    form.invoke_start();
    headless::pump();
    pump_until("the new game saved", PATIENCE, || app.is_saved());

    // Fool's mate: Anna (Black) wins.
    for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
        support::ui::tap_square(&app, from);
        support::ui::tap_square(&app, to);
        headless::pump();
    }
    pump_until("the finished game saved", PATIENCE, || {
        app.is_saved() && app.with_controller(|c| c.session().game().is_over())
    });
    pump_until("both records", PATIENCE, || {
        files.load_stats(anna).value.summary().people.wins == 1
    });
    let first = files.load_stats(PlayerId::FIRST).value.summary();
    let hers = files.load_stats(anna).value.summary();
    assert_eq!(first.people.losses, 1);
    assert!(
        hers.rating > 1000 && first.rating < 1000,
        "{hers:?} {first:?}"
    );
    let status = app.window().global::<StatusAdapter>();
    assert!(
        status.get_notice().contains("Player 1: 1000 →"),
        "{}",
        status.get_notice()
    );
}
