//! Analysing a game on the device, headless: a fool's mate played by taps, "Analyse" tapped,
//! the graph drawn, a tap on the graph moves the board, the blunder is marked, "Next mistake"
//! finds it, the analysis lands in the saved game's PGN and comes back with it without
//! analysing again, every move judged as before; it waits while the screen is dark on battery; a new game cancels it. Slint allows one platform per
//! process, so the scenario runs as one test.

use chesspi::app::boot::headless;
use chesspi::app::screens::play::view::panel_action;
use chesspi::app::screens::{Analysis, Viewing};
use chesspi::app::ui::{
    AnalysisAdapter, BoardPiece, DialogAdapter, GameAdapter, GamesAdapter, MoveMark, PanelAction,
    StatusAdapter,
};
use chesspi::app::{App, screens::Action};
use chesspi_engine::Square;
use chesspi_engine::game::Game;
use slint::{ComponentHandle, Model};
use std::path::Path;
use std::time::Duration;

mod support;
use support::ui::{FRIEND, pump_until, start_app_ignoring_notices, tap_square};

/// The side panel's buttons: two rows under the move list (see ui/side-panel.slint).
const PANEL_X: f32 = 488.0;
const PANEL_W: f32 = 304.0;
const BUTTONS_Y: f32 = 480.0 - 8.0 - 114.0;
/// The graph, under the result card while an analysis is shown.
const GRAPH_Y: f32 = 26.0 + 8.0 + 62.0 + 6.0 + 27.0;

/// How long the app may take for what the test waits for.
const PATIENCE: Duration = Duration::from_secs(30);

/// Taps the side panel's button `index` when it shows `across` to a row, `first` on the first.
fn tap_button(app: &App, index: usize, first: usize, across: usize, action: Action) {
    let actions = app.window().global::<GameAdapter>().get_actions();
    let at = actions
        .iter()
        .position(|a| a.action == panel_action(action));
    assert_eq!(at, Some(index), "{action:?}: {:?}", buttons(app));
    // A button that has just taken its place ignores taps for a moment.
    headless::pump_until(Duration::from_millis(450), || app.action_armed(action));
    let (row, place, n) = if index < first {
        (0, index, first)
    } else {
        (1, index - first, across)
    };
    let w = PANEL_W / n as f32;
    let x = PANEL_X + w * (place as f32 + 0.5);
    let y = BUTTONS_Y + row as f32 * 60.0 + 27.0;
    headless::tap(x, y).expect("tap");
    headless::pump();
}

fn buttons(app: &App) -> Vec<PanelAction> {
    let actions = app.window().global::<GameAdapter>().get_actions();
    actions.iter().map(|a| a.action).collect()
}

fn piece_at(app: &App, name: &str) -> BoardPiece {
    let sq: Square = name.parse().expect("square");
    let cell = app.with_controller(|c| c.game_view().cell_of(sq));
    let squares = app.window().global::<GameAdapter>().get_squares();
    squares.row_data(cell).expect("cell").piece
}

fn choose(app: &App, id: &str) {
    pump_until("the save", PATIENCE, || app.is_saved());
    app.window()
        .global::<DialogAdapter>()
        .invoke_option_chosen(id.into());
    headless::pump();
}

/// What the analysis says about each move, and its accuracy line, shown move by move.
fn verdicts(app: &App) -> Vec<String> {
    let moves = app.with_controller(|c| c.session().game().moves().len());
    let mut said: Vec<String> = (1..=moves)
        .map(|ply| {
            app.update_controller(|c| {
                c.part(|a: &mut Analysis, cx| a.graph_tapped(cx, ply as f32 / moves as f32));
            });
            app.with_controller(|c| {
                c.get::<Analysis>()
                    .view(c.session())
                    .expect("an analysis")
                    .line
            })
        })
        .collect();
    said.push(
        app.window()
            .global::<AnalysisAdapter>()
            .get_accuracy()
            .into(),
    );
    said
}

fn stored_pgn(dir: &Path) -> String {
    let games = dir.join("games");
    std::fs::read_dir(&games)
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| std::fs::read_to_string(e.path()).ok())
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn analyse_a_finished_game_and_open_it_again() {
    headless::install().expect("headless");
    let dir = tempfile::tempdir().expect("tempdir");
    let app = start_app_ignoring_notices(dir.path(), FRIEND, PATIENCE);
    for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
        tap_square(&app, from);
        tap_square(&app, to);
        pump_until("the move saved", PATIENCE, || app.is_saved());
    }
    assert!(app.with_controller(|c| c.session().game().is_over()));

    // Game over: New game, Review, Undo / Analyse, Flip, Menu.
    let analysis = app.window().global::<AnalysisAdapter>();
    tap_button(&app, 3, 3, 3, Action::Analyse);
    assert!(
        app.with_controller(|c| c.get::<Analysis>().exists()),
        "{:?}",
        buttons(&app)
    );
    assert!(analysis.get_visible());
    pump_until("the graph", PATIENCE, || analysis.get_white_area() != "");
    pump_until("the deep pass", PATIENCE, || !analysis.get_running());
    assert!(
        analysis.get_accuracy().starts_with("Accuracy: White "),
        "{}",
        analysis.get_accuracy()
    );
    let shown_before = verdicts(&app);
    assert!(
        shown_before[3].starts_with("Qh4#: best move"),
        "{shown_before:?}"
    );
    let shot = std::env::temp_dir().join("chesspi-analysis.png");
    headless::render()
        .expect("render")
        .0
        .save_png(&shot)
        .expect("png");

    // The blunder 2. g4 is marked in the move list, in the blunder's colour.
    let rows = app.window().global::<GameAdapter>().get_moves();
    let second = rows.row_data(1).expect("row 2");
    assert_eq!(
        (
            second.white.as_str(),
            second.white_mark.as_str(),
            second.white_kind
        ),
        ("g4", "??", MoveMark::Blunder)
    );
    assert_eq!(second.black_mark, "", "the mate is the best move");

    // A tap on the graph a quarter across: the position after 1. f3.
    headless::tap(PANEL_X + PANEL_W * 0.25, GRAPH_Y).expect("tap");
    headless::pump();
    assert_eq!(
        piece_at(&app, "f3"),
        BoardPiece::WhitePawn,
        "a white pawn on f3"
    );
    assert_eq!(piece_at(&app, "f2"), BoardPiece::None);
    assert_eq!(piece_at(&app, "e5"), BoardPiece::None, "before 1… e5");

    // Next mistake: the blunder, with the better move in words.
    let first_review = buttons(&app);
    assert_eq!(
        first_review,
        [
            PanelAction::ReviewFirst,
            PanelAction::ReviewBack,
            PanelAction::ReviewForward,
            PanelAction::ReviewLast,
            PanelAction::NextMistake,
            PanelAction::Flip,
            PanelAction::SetUp,
            PanelAction::ReviewDone,
        ]
    );
    tap_button(&app, 4, 4, 4, Action::NextMistake);
    assert_eq!(
        piece_at(&app, "g4"),
        BoardPiece::WhitePawn,
        "the position after 2. g4"
    );
    assert!(
        analysis.get_line().starts_with("g4??"),
        "{}",
        analysis.get_line()
    );
    assert!(
        analysis.get_line().contains("was best"),
        "{}",
        analysis.get_line()
    );
    assert!(
        analysis.get_arrow().starts_with("M "),
        "the better move's arrow"
    );
    tap_button(&app, 0, 4, 4, Action::ReviewFirst);
    assert_eq!(analysis.get_arrow(), "", "no arrow at the start");
    tap_button(&app, 4, 4, 4, Action::NextMistake);

    // The analysis is in the saved game's PGN, lichess-style.
    pump_until("the annotated PGN", PATIENCE, || {
        stored_pgn(dir.path()).contains("[%eval")
    });
    let pgn = stored_pgn(dir.path());
    assert!(pgn.contains("2. g4 $4"), "{pgn}");
    assert!(pgn.contains("[WhiteAccuracy "), "{pgn}");

    tap_button(&app, 7, 4, 4, Action::ReviewDone);
    assert!(
        !app.with_controller(|c| c.session().is_reviewing()),
        "Done tapped"
    );

    // A restart with the finished game on the board keeps the analysed copy.
    drop(app);
    let app = start_app_ignoring_notices(dir.path(), FRIEND, PATIENCE);
    assert!(app.with_controller(|c| c.session().game().is_over()));
    let files = std::fs::read_dir(dir.path().join("games"))
        .expect("games")
        .count();
    assert_eq!(files, 1);
    assert!(stored_pgn(dir.path()).contains("2. g4 $4"), "analysis kept");
    let analysis = app.window().global::<AnalysisAdapter>();
    // ... and shows it again: the accuracy on the result card, Analyse without analysing.
    pump_until("the stored analysis", PATIENCE, || {
        app.with_controller(|c| c.get::<Analysis>().exists())
    });
    assert!(
        analysis.get_accuracy().starts_with("Accuracy: White "),
        "{}",
        analysis.get_accuracy()
    );
    app.update_controller(|c| c.action(Action::Analyse));
    assert!(analysis.get_visible());
    assert_eq!(analysis.get_progress(), 1.0, "nothing to analyse again");
    // Every move is judged as it was before the restart (Qh4# still the best move).
    assert_eq!(verdicts(&app), shown_before, "{}", stored_pgn(dir.path()));

    // A new game, and the saved game opened again: analysed already.
    app.update_controller(|c| c.start(FRIEND, Game::new()));
    pump_until("the new game saved", PATIENCE, || app.is_saved());
    assert!(!analysis.get_visible());
    app.update_controller(|c| c.action(Action::Menu));
    choose(&app, "games");
    let games = app.window().global::<GamesAdapter>();
    pump_until("the list", PATIENCE, || games.get_games().row_count() == 1);
    games.invoke_game_chosen(games.get_games().row_data(0).expect("row").id);
    headless::pump();
    choose(&app, "review");
    pump_until("the review", PATIENCE, || {
        app.with_controller(|c| c.get::<Viewing>().is_viewing_saved())
    });
    assert!(analysis.get_visible());
    assert!(!analysis.get_running(), "not analysed again");
    assert!(analysis.get_white_area() != "");
    let rows = app.window().global::<GameAdapter>().get_moves();
    assert_eq!(rows.row_data(1).expect("row 2").white_mark, "??");
    app.update_controller(|c| c.action(Action::ReviewDone));

    // Another game: analysed while the screen is dark on battery, it waits; charging, it
    // goes on; a new game cancels it.
    app.update_controller(|c| c.start(FRIEND, Game::new()));
    for (from, to) in [
        ("e2", "e4"),
        ("f7", "f6"),
        ("d2", "d4"),
        ("g7", "g5"),
        ("d1", "h5"),
    ] {
        tap_square(&app, from);
        tap_square(&app, to);
        pump_until("the move saved", PATIENCE, || app.is_saved());
    }
    let status = app.window().global::<StatusAdapter>();
    status.invoke_screen_changed(true);
    // The waking touch would only wake the screen: the button is pressed from the code.
    app.update_controller(|c| c.action(Action::Analyse));
    assert!(analysis.get_visible());
    headless::pump_until(Duration::from_millis(500), || false);
    assert_eq!(analysis.get_white_area(), "", "paused while dark");
    assert_eq!(analysis.get_progress(), 0.0);
    status.invoke_charging_changed(true);
    pump_until("the graph while charging", PATIENCE, || {
        analysis.get_white_area() != ""
    });
    app.update_controller(|c| c.start(FRIEND, Game::new()));
    assert!(!app.with_controller(|c| c.get::<Analysis>().exists()));
    pump_until("the new game saved", PATIENCE, || app.is_saved());
    assert!(!analysis.get_visible());
}
