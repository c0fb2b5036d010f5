//! The position editor through the real UI, by taps: Menu → Set up position, pieces put on the
//! board, an illegal position refused with the reason, fixed, then played against the computer
//! (which answers), saved with its FEN; and a moment of a reviewed game taken into the editor.
//! Slint allows one platform per process, so the scenario runs as one test.

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::screens::Action;
use chesspi::app::ui::{BoardPiece, EditorAdapter, GameAdapter, Screen};
use chesspi::storage::archive::Archive;
use chesspi_engine::Color;
use slint::{ComponentHandle, Model};
use std::path::Path;
use std::time::Duration;

mod support;
use support::ui::{
    action_point, against_the_computer, dialog_settles, menu_option_point, pump_until, sq,
    square_point, start_app, tap_saved,
};

/// How long the app may take for what the test waits for.
const PATIENCE: Duration = Duration::from_secs(30);

/// A tap, then until what it changed is on disk: the screen shows a change only then.
fn tap_at(app: &App, point: (f32, f32)) {
    tap_saved(app, point, PATIENCE);
}

/// A side-panel button, read once the app has saved (the panel shows the saved state).
fn press_action(app: &App, action: Action) {
    pump_until("the save", PATIENCE, || app.is_saved());
    tap_at(app, action_point(app, action));
}

// The editor's panel (ui/editor.slint): 8 px padding, a 28 px title, then rows 6 px apart.
const PANEL_LEFT: f32 = 488.0;
const PANEL_WIDTH: f32 = 304.0;

/// The palette's two rows (ui/editor.slint): kings first.
const PALETTE: [[BoardPiece; 6]; 2] = [
    [
        BoardPiece::WhiteKing,
        BoardPiece::WhiteQueen,
        BoardPiece::WhiteRook,
        BoardPiece::WhiteBishop,
        BoardPiece::WhiteKnight,
        BoardPiece::WhitePawn,
    ],
    [
        BoardPiece::BlackKing,
        BoardPiece::BlackQueen,
        BoardPiece::BlackRook,
        BoardPiece::BlackBishop,
        BoardPiece::BlackKnight,
        BoardPiece::BlackPawn,
    ],
];

/// A piece of the palette.
fn palette(piece: BoardPiece) -> (f32, f32) {
    let (row, index) = (0..2)
        .flat_map(|row| (0..6).map(move |index| (row, index)))
        .find(|&(row, index)| PALETTE[row][index] == piece)
        .expect("a piece of the palette");
    let left = PANEL_LEFT + (PANEL_WIDTH - 303.0) / 2.0;
    (
        left + index as f32 * 51.0 + 24.0,
        42.0 + row as f32 * 54.0 + 24.0,
    )
}

const ERASER: (f32, f32) = (PANEL_LEFT + 48.7, 174.0);
const CLEAR: (f32, f32) = (PANEL_LEFT + 152.0, 174.0);
const WHITE_TO_MOVE: (f32, f32) = (PANEL_LEFT + 74.5, 228.0);
const BLACK_TO_MOVE: (f32, f32) = (PANEL_LEFT + 229.5, 228.0);
const CASTLING_ROW: f32 = 282.0;
const CANCEL: (f32, f32) = (PANEL_LEFT + 74.5, 445.0);
const DONE: (f32, f32) = (PANEL_LEFT + 229.5, 445.0);
/// When the position is legal: the three ways to play it, full width.
const PLAY_WHITE: (f32, f32) = (640.0, 138.0);

const WHITE_KING: BoardPiece = BoardPiece::WhiteKing;
const WHITE_ROOK: BoardPiece = BoardPiece::WhiteRook;
const WHITE_PAWN: BoardPiece = BoardPiece::WhitePawn;
const BLACK_KING: BoardPiece = BoardPiece::BlackKing;
const BLACK_ROOK: BoardPiece = BoardPiece::BlackRook;
const BLACK_PAWN: BoardPiece = BoardPiece::BlackPawn;

fn choose(app: &App, piece: BoardPiece) {
    tap_at(app, palette(piece));
    assert_eq!(
        app.window().global::<EditorAdapter>().get_tool(),
        piece,
        "the palette took the tap"
    );
}

fn put(app: &App, piece: BoardPiece, squares: &[&str]) {
    choose(app, piece);
    for s in squares {
        tap_at(app, square_point(app, s));
    }
}

fn editor_fen(app: &App) -> String {
    use chesspi::app::screens::Editor;
    app.with_controller(|c| c.shown::<Editor>().map(Editor::board).map(|b| b.to_fen()))
        .expect("the editor is open")
}

/// The FEN the editor builds below: White may castle short.
const SET_UP: &str = "r5k1/5ppp/8/8/8/8/5PPP/4K2R w K - 0 1";

fn set_up_a_position_and_play_it(app: &App, dir: &Path) {
    let editor = app.window().global::<EditorAdapter>();
    press_action(app, Action::Menu);
    dialog_settles();
    tap_at(app, menu_option_point(app, "setup"));
    assert!(
        app.window().global::<GameAdapter>().get_screen() == Screen::Editor,
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
    assert_eq!(editor.get_tool(), BoardPiece::None);
    tap_at(app, square_point(app, "a1"));
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
    tap_at(app, square_point(app, "b8"));
    assert_eq!(editor_fen(app), SET_UP);
    tap_at(app, DONE);
    assert!(!editor.get_message_alert(), "{}", editor.get_message());
    assert!(editor.get_ready());

    tap_at(app, PLAY_WHITE);
    assert!(
        app.window().global::<GameAdapter>().get_screen() != Screen::Editor,
        "the game starts"
    );
    assert_eq!(
        app.with_controller(|c| c.session().game().initial_position().to_fen()),
        SET_UP
    );
    assert!(
        !app.with_controller(|c| c.session().record().is_rated()),
        "a set-up game is not rated"
    );
    // Castle short (the right set in the editor), and the computer answers.
    tap_at(app, square_point(app, "e1"));
    tap_at(app, square_point(app, "g1"));
    assert_eq!(
        app.with_controller(|c| c.session().game().position().piece_at(sq("g1"))),
        Some(chesspi_engine::Piece::new(
            Color::White,
            chesspi_engine::Role::King
        ))
    );
    pump_until("the computer's reply", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 2)
    });

    // Resigned, the game goes to the archive with its start position.
    app.update_controller(|c| {
        c.action(Action::ResignOrDraw);
        c.dialog_option("resign");
        c.dialog_option("resign");
    });
    pump_until("the save", PATIENCE, || app.is_saved());
    let archive = Archive::open(dir).expect("archive");
    let games = archive.list().expect("list");
    assert_eq!(games.len(), 1, "{games:?}");
    let pgn = archive.read_text(games[0].id()).expect("pgn");
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{SET_UP}\"]")), "{pgn}");
}

fn a_reviewed_moment_goes_into_the_editor(app: &App) {
    press_action(app, Action::Review);
    press_action(app, Action::ReviewBack);
    let shown = app.with_controller(|c| c.session().shown_position().to_fen());
    assert_ne!(
        shown,
        app.with_controller(|c| c.session().game().position().to_fen())
    );
    press_action(app, Action::SetUp);
    assert!(
        app.window().global::<GameAdapter>().get_screen() == Screen::Editor,
        "Review → Set up opens the editor"
    );
    // The same board, side and castling rights; the move counters start again.
    let fields = |fen: &str| fen.split(' ').take(4).collect::<Vec<_>>().join(" ");
    assert_eq!(fields(&editor_fen(app)), fields(&shown));
    // Cancel: back to the review, where it was.
    tap_at(app, CANCEL);
    assert!(app.window().global::<GameAdapter>().get_screen() != Screen::Editor);
    assert!(app.with_controller(|c| c.session().is_reviewing()));
    assert_eq!(
        app.with_controller(|c| c.session().shown_position().to_fen()),
        shown
    );
}

#[test]
fn ui_setup() {
    headless::install().expect("the headless platform installs");
    let dir = tempfile::tempdir().expect("tempdir");
    let app = start_app(dir.path(), against_the_computer(1), PATIENCE);
    set_up_a_position_and_play_it(&app, dir.path());
    a_reviewed_moment_goes_into_the_editor(&app);
}
