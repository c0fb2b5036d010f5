//! The analysis board through the real UI, by taps: Menu → Analysis board shows the game's
//! position and the engine's lines appear; a move for White and one for Black are played by
//! taps, one is taken back, and Done leaves the board and ends its search thread. A pawn
//! reaching the last rank opens the promotion picker over the board: tapping outside it
//! leaves the position alone, its knight makes a knight.
//! Slint allows one platform per process, so the scenario runs as one test.

use chesspi::app::App;
use chesspi::app::boot::headless::{self, Frame};
use chesspi::app::screens::analysis::board::Session;
use chesspi::app::screens::{Action, Go};
use chesspi::app::ui::{
    AnalysisBoardAdapter, BoardPiece, DialogAdapter, GameAdapter, Screen, StatusAdapter,
};
use chesspi_engine::Position;
use slint::{ComponentHandle, Model};
use std::time::Duration;

mod support;
use support::ui::{
    action_point, against_the_computer, dialog_settles, menu_option_point, pump_until,
    square_point, start_app, tap_saved,
};

/// How long the app may take for what the test waits for.
const PATIENCE: Duration = Duration::from_secs(60);

/// A tap once the app has saved, then until what it changed is saved too.
fn tap_at(app: &App, point: (f32, f32)) {
    tap_saved(app, point, PATIENCE);
}

/// The side panel's Menu button: the last of the second row of three.
fn open_menu(app: &App) {
    let menu = action_point(app, Action::Menu);
    let actions = app.window().global::<GameAdapter>().get_actions();
    assert_eq!(actions.row_count(), 6, "three buttons to a row");
    tap_at(app, menu);
    assert!(app.window().global::<DialogAdapter>().get_visible());
}

// The board's panel (ui/analysis-board.slint): from x 508, 8 px padding, two rows of two
// buttons at the bottom, 54 px high and 6 px apart.
const BACK: (f32, f32) = (583.5, 385.0);
const DONE: (f32, f32) = (724.5, 445.0);

fn render() -> Frame {
    headless::render().expect("render").0
}

/// The promotion picker's buttons (ui/dialogs.slint), queen first, found on screen by their
/// light background on row `y` of the dimmed board: the centres of all four.
fn picker_buttons(frame: &Frame) -> [(f32, f32); 4] {
    let y = 240;
    let left = (20..460)
        .find(|&x| frame.rgb(x, y) == (0xf0, 0xd9, 0xb5))
        .expect("the picker's buttons are drawn over the board");
    // 92 px buttons, 12 px apart.
    std::array::from_fn(|i| (left as f32 + 46.0 + i as f32 * 104.0, y as f32))
}

fn board_fen(app: &App) -> String {
    app.with_controller(|c| {
        c.shown::<Session>()
            .map(Session::request)
            .map(|(_, pos, _)| pos.to_fen())
    })
    .expect("the board is open")
}

/// Threads of this process named like the board's search thread.
fn search_threads() -> usize {
    std::fs::read_dir("/proc/self/task")
        .expect("/proc/self/task")
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.trim() == "analysis-board")
        .count()
}

const IDLE_WINDOW: Duration = Duration::from_secs(5);

/// User plus system CPU time of this process, in clock ticks (fields 14 and 15 of stat).
fn cpu_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    // The name may hold spaces: the fields after it start behind the last ')'.
    let rest = &stat[stat.rfind(')').expect("a name") + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime")
}

#[test]
fn ui_analysis_board() {
    headless::install().expect("the headless platform installs");
    let dir = tempfile::tempdir().expect("tempdir");
    let app = start_app(dir.path(), against_the_computer(1), PATIENCE);
    let board = app.window().global::<AnalysisBoardAdapter>();
    assert_eq!(search_threads(), 0, "no search before the board opens");

    open_menu(&app);
    dialog_settles();
    tap_at(&app, menu_option_point(&app, "analyse"));
    assert!(
        app.window().global::<GameAdapter>().get_screen() == Screen::AnalysisBoard,
        "Menu → Analysis board opens it"
    );
    assert_eq!(board_fen(&app), chesspi_engine::fen::STARTPOS);
    assert_eq!(search_threads(), 1);
    pump_until("three lines", PATIENCE, || {
        board.get_lines().row_count() == 3
    });
    let first = board.get_lines().row_data(0).expect("a line");
    assert!(first.moves.starts_with("1. "), "{}", first.moves);
    assert!(first.score.starts_with('+') || first.score.starts_with('\u{2212}'));

    // Both sides move by taps.
    tap_at(&app, square_point(&app, "e2"));
    tap_at(&app, square_point(&app, "e4"));
    tap_at(&app, square_point(&app, "e7"));
    tap_at(&app, square_point(&app, "e5"));
    assert_eq!(
        board_fen(&app),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    // The lines are of the new position: White's second move.
    pump_until("lines after 1. e4 e5", PATIENCE, || {
        board
            .get_lines()
            .row_data(0)
            .is_some_and(|l| l.moves.starts_with("2. "))
    });
    assert!(board.get_can_back() && !board.get_can_forward());

    tap_at(&app, BACK);
    assert_eq!(
        board_fen(&app),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert!(board.get_can_forward());
    pump_until("Black's lines", PATIENCE, || {
        board
            .get_lines()
            .row_data(0)
            .is_some_and(|l| l.moves.starts_with("1\u{2026} "))
    });

    // The search ends within its node budget and then the board costs nothing: the
    // process's CPU time over a few seconds with the board open (the UI loop pumped).
    pump_until("the search of the position to finish", PATIENCE, || {
        board.get_status().contains("done")
    });
    let before = cpu_ticks();
    let t = std::time::Instant::now();
    while t.elapsed() < IDLE_WINDOW {
        headless::pump();
        std::thread::sleep(Duration::from_millis(50));
    }
    let used = cpu_ticks() - before;
    println!("idle with the board open: {used} ticks in {IDLE_WINDOW:?}");
    // 100 ticks a second: under 2% of one core.
    assert!(used * 50 <= IDLE_WINDOW.as_secs() * 100, "{used} ticks");

    // The screen goes dark on battery: a new position waits, unsearched, until it wakes.
    let status = app.window().global::<StatusAdapter>();
    status.invoke_charging_changed(false);
    status.invoke_screen_changed(true);
    app.update_controller(|c| c.on(|s: &mut Session, cx| s.button(cx, "forward")));
    let t = std::time::Instant::now();
    while t.elapsed() < Duration::from_millis(1500) {
        headless::pump();
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(board.get_lines().row_count(), 0, "no search while dark");
    status.invoke_screen_changed(false);
    pump_until("lines after waking", PATIENCE, || {
        board
            .get_lines()
            .row_data(0)
            .is_some_and(|l| l.moves.starts_with("2. "))
    });

    tap_at(&app, DONE);
    assert!(
        app.window().global::<GameAdapter>().get_screen() != Screen::AnalysisBoard,
        "Done leaves the board"
    );
    // The game itself is untouched.
    assert_eq!(app.with_controller(|c| c.session().game().moves().len()), 0);
    pump_until("the search thread to end", PATIENCE, || {
        search_threads() == 0
    });

    promotion(&app);
}

/// A white pawn on e7: the picker asks; a tap outside it changes nothing, the knight promotes.
fn promotion(app: &App) {
    const FEN: &str = "8/4P1k1/8/8/8/8/8/4K3 w - - 0 1";
    let board = app.window().global::<AnalysisBoardAdapter>();
    let pos = Position::from_fen(FEN).expect("a legal position");
    app.update_controller(|c| c.go(Go::AnalysisBoardAt(pos)));
    assert!(app.window().global::<GameAdapter>().get_screen() == Screen::AnalysisBoard);
    tap_at(app, square_point(app, "e7"));
    tap_at(app, square_point(app, "e8"));
    assert!(board.get_promotion_visible(), "the picker opens");
    assert!(board.get_promotion_white());
    assert_eq!(board_fen(app), FEN);

    // The dimmed board above the picker's card is outside it: cancel.
    tap_at(app, (240.0, 60.0));
    assert!(!board.get_promotion_visible());
    assert_eq!(board_fen(app), FEN, "cancel leaves the position");
    assert!(!board.get_can_back());

    // The pawn is still selected: e8 asks again; the fourth button is the knight.
    tap_at(app, square_point(app, "e8"));
    assert!(board.get_promotion_visible());
    let knight = picker_buttons(&render())[3];
    tap_at(app, knight);
    assert!(!board.get_promotion_visible());
    assert_eq!(board_fen(app), "4N3/6k1/8/8/8/8/8/4K3 b - - 0 1");
    let e8 = app.with_controller(|c| c.game_view().cell_of("e8".parse().expect("e8")));
    let shown = board.get_squares().row_data(e8).expect("e8's cell");
    assert_eq!(
        shown.piece,
        BoardPiece::WhiteKnight,
        "a white knight drawn on e8"
    );
    // The engine's lines are of the promoted position: Black to move.
    pump_until("Black's lines after e8=N", PATIENCE, || {
        board
            .get_lines()
            .row_data(0)
            .is_some_and(|l| l.moves.starts_with("1\u{2026} K"))
    });

    tap_at(app, DONE);
    pump_until("the search thread to end", PATIENCE, || {
        search_threads() == 0
    });
}
