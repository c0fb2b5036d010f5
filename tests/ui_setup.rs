//! The position editor through the real UI, by taps: Menu → Set up position, pieces put on the
//! board, an illegal position refused with the reason, fixed, then played against the computer
//! (which answers), saved with its FEN; and a moment of a reviewed game taken into the editor.
//! Slint allows one platform per process, so the scenario runs as one test.

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::boot::screenshot::square_center;
use chesspi::app::model::mode::{GameSetup, Level, Mode};
use chesspi::app::saving;
use chesspi::app::screens::Action;
use chesspi::app::ui::{DialogAdapter, EditorAdapter, GameAdapter};
use chesspi::storage::archive::Archive;
use chesspi_engine::game::Game;
use chesspi_engine::{Color, Square};
use slint::{ComponentHandle, Model};
use std::path::Path;
use std::time::Duration;

fn sq(name: &str) -> Square {
    name.parse().expect("a square name")
}

fn pump_until(what: &str, mut done: impl FnMut() -> bool) {
    assert!(
        headless::pump_until(Duration::from_secs(30), &mut done),
        "timed out waiting for {what}"
    );
}

/// A tap, then until what it changed is on disk: the screen shows a change only then.
fn tap_at(app: &App, (x, y): (f32, f32)) {
    pump_until("the save", || app.is_saved());
    headless::tap(x, y).expect("tap");
    pump_until("the save", || app.is_saved());
}

/// A tap on a square of whichever board is shown (the game's or the editor's: same place).
fn tap_square(app: &App, name: &str) {
    let flipped = app.with_controller(|c| c.is_flipped());
    tap_at(app, square_center(sq(name), flipped));
}

/// The side panel's buttons: three to a row; with seven (Review) four on the first row.
fn press_action(app: &App, id: &str) {
    pump_until("the save", || app.is_saved());
    let actions = app.window().global::<GameAdapter>().get_actions();
    let i = actions
        .iter()
        .position(|a| a.id == id)
        .unwrap_or_else(|| panic!("no '{id}' button"));
    let first = if actions.row_count() > 6 { 4 } else { 3 };
    let (col, row, across) = if i < first {
        (i, 0, first)
    } else {
        // Eight (a finished game's review offers Analyse) go four to a row.
        let rest = (actions.row_count() - first).max(3);
        ((i - first) % rest, 1 + (i - first) / rest, rest)
    };
    let width = (304.0 - (across - 1) as f32 * 6.0) / across as f32;
    let x = 488.0 + col as f32 * 310.0 / across as f32 + width / 2.0;
    let y = 480.0 - 8.0 - 114.0 + row as f32 * 60.0 + 27.0;
    tap_at(app, (x, y));
}

/// A choice of the two-column menu (more than five options), title only: the card is centred,
/// 18 px padding, a 26 px title line, then rows of 52 px buttons 62 px apart.
fn tap_menu_option(app: &App, id: &str) {
    let dialog = app.window().global::<DialogAdapter>();
    assert!(dialog.get_visible(), "the menu is open");
    let options = dialog.get_options();
    let count = options.row_count();
    assert!(count > 5, "a two-column menu");
    let i = options
        .iter()
        .position(|o| o.id == id)
        .unwrap_or_else(|| panic!("no '{id}' in the menu"));
    let rows = count.div_ceil(2) as f32;
    let title = 30.0;
    let height = 18.0 + title + 10.0 + rows * 62.0 - 10.0 + 18.0;
    let top = (480.0 - height) / 2.0 + 18.0 + title + 10.0;
    let x = 100.0 + 18.0 + (i % 2) as f32 * 287.0 + 277.0 / 2.0;
    let y = top + (i / 2) as f32 * 62.0 + 26.0;
    tap_at(app, (x, y));
}

// The editor's panel (ui/editor.slint): 8 px padding, a 28 px title, then rows 6 px apart.
const PANEL_LEFT: f32 = 488.0;
const PANEL_WIDTH: f32 = 304.0;

/// A piece of the palette by code (1..6 white pawn..king, 7..12 black): kings first.
fn palette(code: i32) -> (f32, f32) {
    let (row, index) = if code <= 6 {
        (0, 6 - code)
    } else {
        (1, 12 - code)
    };
    let left = PANEL_LEFT + (PANEL_WIDTH - 301.0) / 2.0;
    (
        left + index as f32 * 51.0 + 23.0,
        42.0 + row as f32 * 52.0 + 23.0,
    )
}

const ERASER: (f32, f32) = (PANEL_LEFT + 48.7, 170.0);
const CLEAR: (f32, f32) = (PANEL_LEFT + 152.0, 170.0);
const WHITE_TO_MOVE: (f32, f32) = (PANEL_LEFT + 74.5, 224.0);
const BLACK_TO_MOVE: (f32, f32) = (PANEL_LEFT + 229.5, 224.0);
const CASTLING_ROW: f32 = 278.0;
const CANCEL: (f32, f32) = (PANEL_LEFT + 74.5, 445.0);
const DONE: (f32, f32) = (PANEL_LEFT + 229.5, 445.0);
/// When the position is legal: the three ways to play it, full width.
const PLAY_WHITE: (f32, f32) = (640.0, 138.0);

const WHITE_KING: i32 = 6;
const WHITE_ROOK: i32 = 4;
const WHITE_PAWN: i32 = 1;
const BLACK_KING: i32 = 12;
const BLACK_ROOK: i32 = 10;
const BLACK_PAWN: i32 = 7;

fn choose(app: &App, code: i32) {
    tap_at(app, palette(code));
    assert_eq!(
        app.window().global::<EditorAdapter>().get_tool(),
        code,
        "the palette took the tap"
    );
}

fn put(app: &App, code: i32, squares: &[&str]) {
    choose(app, code);
    for s in squares {
        tap_square(app, s);
    }
}

fn editor_fen(app: &App) -> String {
    app.with_controller(|c| c.editor_board().map(|b| b.to_fen()))
        .expect("the editor is open")
}

fn start_app(dir: &Path) -> App {
    let setup = GameSetup {
        mode: Mode::Computer {
            human: Color::White,
        },
        level: Level::new(1).expect("level 1"),
    };
    let (restored, stores, notices) = saving::open(dir, (Game::new(), setup));
    assert!(notices.is_empty(), "{notices:?}");
    let app = App::new(restored.game, restored.setup).expect("app");
    app.enable_saving(stores, restored.identity).expect("saver");
    app.window().show().expect("window");
    pump_until("the first save", || app.is_saved());
    app
}

/// The FEN the editor builds below: White may castle short.
const SET_UP: &str = "r5k1/5ppp/8/8/8/8/5PPP/4K2R w K - 0 1";

fn set_up_a_position_and_play_it(app: &App, dir: &Path) {
    let editor = app.window().global::<EditorAdapter>();
    press_action(app, "menu");
    tap_menu_option(app, "setup");
    assert!(
        editor.get_visible(),
        "Menu → Set up position opens the editor"
    );
    // It starts from the position on the board.
    assert_eq!(editor_fen(app), chesspi_engine::fen::STARTPOS);

    tap_at(app, CLEAR);
    assert_eq!(editor_fen(app), "8/8/8/8/8/8/8/8 w - - 0 1");
    put(app, WHITE_KING, &["e1"]);
    put(app, WHITE_ROOK, &["h1"]);
    put(app, WHITE_PAWN, &["f2", "g2", "h2"]);
    // King and rook at home: White's short castling is offered, and only that.
    let castling: Vec<String> = editor
        .get_castling()
        .iter()
        .map(|c| c.id.to_string())
        .collect();
    assert_eq!(castling, ["K"]);
    tap_at(app, (640.0, CASTLING_ROW));
    assert!(editor.get_castling().iter().all(|c| c.on));

    // No black king yet.
    tap_at(app, DONE);
    assert!(editor.get_message_alert());
    assert_eq!(
        editor.get_message(),
        "There is no black king: put one on the board."
    );
    put(app, BLACK_KING, &["g8"]);
    put(app, BLACK_PAWN, &["f7", "g7", "h7", "a1"]);
    put(app, BLACK_ROOK, &["a8"]);
    // The black pawn on a1 is refused.
    tap_at(app, DONE);
    assert!(editor.get_message_alert());
    assert!(
        editor
            .get_message()
            .starts_with("The pawn on a1 cannot be there"),
        "{}",
        editor.get_message()
    );
    tap_at(app, ERASER);
    assert_eq!(editor.get_tool(), 0);
    tap_square(app, "a1");
    tap_at(app, BLACK_TO_MOVE);
    assert!(!editor.get_white_to_move());
    tap_at(app, WHITE_TO_MOVE);
    assert!(editor.get_white_to_move());
    // A white rook on b8 checks the black king, but it is White's move.
    put(app, WHITE_ROOK, &["b8"]);
    tap_at(app, DONE);
    assert_eq!(
        editor.get_message(),
        "Black is in check but it is White's move: change the side to move or the position."
    );
    // A second tap with the rook takes it off again.
    tap_square(app, "b8");
    assert_eq!(editor_fen(app), SET_UP);
    tap_at(app, DONE);
    assert!(!editor.get_message_alert(), "{}", editor.get_message());
    assert!(editor.get_ready());

    tap_at(app, PLAY_WHITE);
    assert!(!editor.get_visible(), "the game starts");
    assert_eq!(
        app.with_controller(|c| c.game().initial_position().to_fen()),
        SET_UP
    );
    assert!(
        !app.with_controller(|c| c.is_rated()),
        "a set-up game is not rated"
    );
    // Castle short (the right set in the editor), and the computer answers.
    tap_square(app, "e1");
    tap_square(app, "g1");
    assert_eq!(
        app.with_controller(|c| c.game().position().piece_at(sq("g1"))),
        Some(chesspi_engine::Piece::new(
            Color::White,
            chesspi_engine::Role::King
        ))
    );
    pump_until("the computer's reply", || {
        app.with_controller(|c| c.game().moves().len() == 2)
    });

    // Resigned, the game goes to the archive with its start position.
    app.update_controller(|c| {
        c.action(Action::ResignOrDraw);
        c.dialog_option("resign");
        c.dialog_option("resign");
    });
    pump_until("the save", || app.is_saved());
    let archive = Archive::open(dir).expect("archive");
    let games = archive.list().expect("list");
    assert_eq!(games.len(), 1, "{games:?}");
    let pgn = archive.read_text(games[0].id()).expect("pgn");
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{SET_UP}\"]")), "{pgn}");
}

fn a_reviewed_moment_goes_into_the_editor(app: &App) {
    let editor = app.window().global::<EditorAdapter>();
    press_action(app, "review");
    press_action(app, "back");
    let shown = app.with_controller(|c| c.shown_position().to_fen());
    assert_ne!(shown, app.with_controller(|c| c.game().position().to_fen()));
    press_action(app, "setup");
    assert!(editor.get_visible(), "Review → Set up opens the editor");
    // The same board, side and castling rights; the move counters start again.
    let fields = |fen: &str| fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
    assert_eq!(fields(&editor_fen(app)), fields(&shown));
    // Cancel: back to the review, where it was.
    tap_at(app, CANCEL);
    assert!(!editor.get_visible());
    assert!(app.with_controller(|c| c.is_reviewing()));
    assert_eq!(app.with_controller(|c| c.shown_position().to_fen()), shown);
}

#[test]
fn ui_setup() {
    headless::install().expect("the headless platform installs");
    let dir = tempfile::tempdir().expect("tempdir");
    let app = start_app(dir.path());
    set_up_a_position_and_play_it(&app, dir.path());
    a_reviewed_moment_goes_into_the_editor(&app);
}
