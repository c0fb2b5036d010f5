//! The app with its storage, headless: a finished game lands in Saved games and the record,
//! can be reviewed and deleted; a game left for a new one can be resumed. Slint allows one
//! platform per process, so the scenario runs as one test.

use chesspi::app::boot::headless;
use chesspi::app::model::mode::GameSetup;
use chesspi::app::saving;
use chesspi::app::screens::Viewing;
use chesspi::app::ui::{DialogAdapter, GameAdapter, GamesAdapter, Screen};
use chesspi::app::{App, screens::Action};
use chesspi_engine::game::Game;
use chesspi_engine::level::Level;
use slint::{ComponentHandle, Model};
use std::time::Duration;

mod support;
use support::ui::{FRIEND, pump_until, start_app, tap_square};

/// How long the app may take for what the test waits for.
const PATIENCE: Duration = Duration::from_secs(10);

fn play(app: &App, moves: &[(&str, &str)]) {
    for (from, to) in moves {
        tap_square(app, from);
        tap_square(app, to);
        assert!(
            headless::pump_until(Duration::from_secs(10), || app.is_saved()),
            "saved"
        );
    }
}

fn dialog_options(app: &App) -> Vec<String> {
    let d = app.window().global::<DialogAdapter>();
    if !d.get_visible() {
        return Vec::new();
    }
    d.get_options().iter().map(|o| o.id.to_string()).collect()
}

fn choose(app: &App, id: &str) {
    // The screen shows a change once it is on disk.
    pump_until("the save", PATIENCE, || app.is_saved());
    assert!(
        dialog_options(app).iter().any(|o| o == id),
        "'{id}' not offered: {:?}",
        dialog_options(app)
    );
    app.window()
        .global::<DialogAdapter>()
        .invoke_option_chosen(id.into());
    headless::pump();
}

fn open_saved_games(app: &App) -> Vec<(String, String)> {
    app.update_controller(|c| c.action(Action::Menu));
    choose(app, "games");
    let games = app.window().global::<GamesAdapter>();
    assert!(app.window().global::<GameAdapter>().get_screen() == Screen::SavedGames);
    pump_until("the list", PATIENCE, || {
        games.get_message() != "Reading the saved games…"
    });
    games
        .get_games()
        .iter()
        .map(|g| (g.title.to_string(), g.result.to_string()))
        .collect()
}

#[test]
fn saved_games_review_delete_and_resume() {
    headless::install().expect("headless");
    let dir = tempfile::tempdir().expect("tempdir");
    let app = start_app(dir.path(), FRIEND, PATIENCE);

    // An empty list says so.
    assert!(open_saved_games(&app).is_empty());
    let games = app.window().global::<GamesAdapter>();
    assert!(games.get_message().contains("No saved games"));
    games.invoke_close();
    assert!(app.window().global::<GameAdapter>().get_screen() != Screen::SavedGames);

    // Fool's mate: the finished game is stored.
    play(
        &app,
        &[("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")],
    );
    assert!(app.with_controller(|c| c.session().game().is_over()));
    let list = open_saved_games(&app);
    assert_eq!(
        list,
        vec![("Two players".to_string(), "Black won".to_string())],
        "one finished game, Black won"
    );
    headless::render()
        .expect("render")
        .0
        .save_png(&std::env::temp_dir().join("chesspi-saved-games.png"))
        .expect("png");

    // Review it: the first position, the players from the file, the recorded result.
    let id = games.get_games().row_data(0).expect("row").id;
    games.invoke_game_chosen(id.clone());
    headless::pump();
    assert_eq!(
        dialog_options(&app),
        ["review", "analyse", "delete", "cancel"]
    );
    choose(&app, "review");
    pump_until("the review", PATIENCE, || {
        app.with_controller(|c| c.get::<Viewing>().is_viewing_saved())
    });
    assert!(app.window().global::<GameAdapter>().get_screen() != Screen::SavedGames);
    let adapter = app.window().global::<GameAdapter>();
    assert_eq!(
        adapter.get_status().replace('\u{a0}', " "),
        "Reviewing: the start position"
    );
    assert_eq!(adapter.get_result_title(), "Black wins");
    app.update_controller(|c| c.action(Action::ReviewLast));
    assert!(
        adapter
            .get_status()
            .replace('\u{a0}', " ")
            .starts_with("Reviewing: after 2… Qh4#")
    );
    app.update_controller(|c| c.action(Action::ReviewDone));
    assert!(!app.with_controller(|c| c.get::<Viewing>().is_viewing_saved()));

    // An unfinished game left for a new one is stored and can be resumed.
    app.update_controller(|c| {
        c.start(FRIEND, Game::new());
    });
    play(&app, &[("d2", "d4"), ("d7", "d5")]);
    // The device plays at level 7 now; a resumed two-player game keeps it for the next game
    // against the computer.
    let level7 = GameSetup {
        level: Level::new(7).expect("level"),
        ..FRIEND
    };
    app.update_controller(|c| {
        c.start(level7, Game::new());
    });
    pump_until("the new game saved", PATIENCE, || app.is_saved());
    let list = open_saved_games(&app);
    assert_eq!(list.len(), 2, "{list:?}");
    assert_eq!(list[0].1, "Unfinished", "newest first: {list:?}");
    let id = games.get_games().row_data(0).expect("row").id;
    games.invoke_game_chosen(id);
    headless::pump();
    choose(&app, "resume");
    pump_until("the resumed game", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 2)
    });
    pump_until("the resumed game saved", PATIENCE, || app.is_saved());
    assert_eq!(app.with_controller(|c| c.session().setup()), level7);
    play(&app, &[("c2", "c4")]);
    // The game on the board is not a saved game: only the finished one is listed.
    let list = open_saved_games(&app);
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0].1, "Black won", "{list:?}");
    games.invoke_close();

    // The tester's repro (issue 10): leave the game for a new one, play it on from Saved
    // games, play more, leave it again and play it on again: every move is still there.
    app.update_controller(|c| {
        c.start(FRIEND, Game::new());
    });
    pump_until("the new game saved", PATIENCE, || app.is_saved());
    let list = open_saved_games(&app);
    assert_eq!(list.len(), 2, "{list:?}");
    let id = games.get_games().row_data(0).expect("row").id;
    games.invoke_game_chosen(id);
    headless::pump();
    choose(&app, "resume");
    pump_until("the resumed game", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 3)
    });
    pump_until("the resumed game saved", PATIENCE, || app.is_saved());
    play(&app, &[("e7", "e6"), ("b1", "c3")]);
    let list = open_saved_games(&app);
    assert_eq!(
        list.len(),
        1,
        "no stale copy of the game on the board: {list:?}"
    );
    games.invoke_close();
    app.update_controller(|c| {
        c.start(FRIEND, Game::new());
    });
    pump_until("the new game saved", PATIENCE, || app.is_saved());
    let list = open_saved_games(&app);
    assert_eq!(list.len(), 2, "{list:?}");
    let id = games.get_games().row_data(0).expect("row").id;
    games.invoke_game_chosen(id);
    headless::pump();
    choose(&app, "resume");
    pump_until("the resumed game", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 5)
    });
    pump_until("the resumed game saved", PATIENCE, || app.is_saved());

    // Delete the finished game, with confirmation.
    let finished = games
        .get_games()
        .iter()
        .find(|g| g.result == "Black won")
        .expect("the finished game")
        .id;
    games.invoke_game_chosen(finished);
    headless::pump();
    choose(&app, "delete");
    choose(&app, "delete");
    pump_until("the shorter list", PATIENCE, || {
        games.get_games().row_count() == 0
    });
    games.invoke_close();

    // The record counts nothing: two-player games are not rated.
    app.update_controller(|c| c.action(Action::Menu));
    choose(&app, "stats");
    let d = app.window().global::<DialogAdapter>();
    assert_eq!(d.get_title(), "Your record");
    assert!(
        d.get_message().contains("No rated games"),
        "{}",
        d.get_message()
    );

    // The turned board is saved with the game and comes back after a restart.
    d.invoke_option_chosen("close".into());
    headless::pump();
    app.update_controller(|c| c.action(Action::Flip));
    pump_until("the flip saved", PATIENCE, || app.is_saved());
    let restored = saving::restore(
        &mut chesspi::storage::AutosaveStore::new(dir.path()),
        (Game::new(), FRIEND),
    );
    assert!(restored.flipped);

    // The tester's repro: a finished game taken back and finished again, at the same move,
    // is stored again (taking it back removed the stored copy).
    app.update_controller(|c| {
        c.start(FRIEND, Game::new());
    });
    pump_until("the new game saved", PATIENCE, || app.is_saved());
    let before = open_saved_games(&app);
    games.invoke_close();
    let mate = [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")];
    play(&app, &mate);
    pump_until("the mate saved", PATIENCE, || app.is_saved());
    assert_eq!(open_saved_games(&app).len(), before.len() + 1);
    games.invoke_close();
    app.update_controller(|c| c.action(Action::Undo));
    pump_until("the takeback saved", PATIENCE, || app.is_saved());
    play(&app, &mate[3..]);
    pump_until("the mate saved again", PATIENCE, || app.is_saved());
    app.update_controller(|c| {
        c.start(FRIEND, Game::new());
    });
    pump_until("the new game saved", PATIENCE, || app.is_saved());
    let list = open_saved_games(&app);
    assert_eq!(list.len(), before.len() + 1, "{list:?}");
    assert_eq!(
        list[0],
        ("Two players".to_string(), "Black won".to_string()),
        "the game finished again is stored, newest first: {list:?}"
    );
}
