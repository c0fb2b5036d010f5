//! The real UI driven headless, as a finger would: waiting on the event loop, taps on squares,
//! side-panel buttons and menu options, and the app started on a state directory as the
//! device starts it. The headless platform must be installed first (`headless::install`).

use chesspi::app::boot::headless;
use chesspi::app::boot::screenshot::square_center;
use chesspi::app::model::mode::{GameSetup, Level, Mode};
use chesspi::app::saving;
use chesspi::app::screens::Action;
use chesspi::app::screens::play::view::panel_action;
use chesspi::app::ui::{DialogAdapter, GameAdapter};
use chesspi::app::{App, initial_game};
use chesspi_engine::game::Game;
use chesspi_engine::{Color, Square};
use slint::{ComponentHandle, Model};
use std::path::Path;
use std::time::Duration;

/// Two players on one board, at the default level.
pub const FRIEND: GameSetup = GameSetup {
    mode: Mode::Friend,
    level: Level::DEFAULT,
};

/// White against the computer at `level` (1 to 10).
pub fn against_the_computer(level: u8) -> GameSetup {
    GameSetup {
        mode: Mode::Computer {
            human: Color::White,
        },
        level: Level::new(level).expect("a level from 1 to 10"),
    }
}

/// Runs the app's event loop until `done`, failing the test after `timeout` with `what`.
pub fn pump_until(what: &str, timeout: Duration, done: impl FnMut() -> bool) {
    assert!(
        headless::pump_until(timeout, done),
        "timed out waiting for {what}"
    );
}

/// The square called `name` ("e4").
pub fn sq(name: &str) -> Square {
    name.parse().expect("a square name")
}

/// The centre of square `name` on the board as the app shows it now (turned or not). The
/// position editor's board is in the same place.
pub fn square_point(app: &App, name: &str) -> (f32, f32) {
    square_center(sq(name), app.with_controller(|c| c.session().is_flipped()))
}

/// A tap on square `name` of the board shown.
pub fn tap_square(app: &App, name: &str) {
    let (x, y) = square_point(app, name);
    headless::tap(x, y).expect("tap");
}

/// A tap at `(x, y)` once the app has saved, then until what the tap changed is saved too:
/// the screen shows a change only once it is on disk. Each wait may take `patience`.
pub fn tap_saved(app: &App, (x, y): (f32, f32), patience: Duration) {
    pump_until("the save", patience, || app.is_saved());
    headless::tap(x, y).expect("tap");
    pump_until("the save", patience, || app.is_saved());
}

/// The centre of the side panel's button `index` of `count` (ui/side-panel.slint): three to
/// a row at the bottom; with seven (Review) four on the first row, with eight (a finished
/// game's review offers Analyse) four to a row.
pub fn action_center(index: usize, count: usize) -> (f32, f32) {
    let first = if count > 6 { 4 } else { 3 };
    let (col, row, across) = if index < first {
        (index, 0, first)
    } else {
        let rest = (count - first).max(3);
        ((index - first) % rest, 1 + (index - first) / rest, rest)
    };
    let width = (304.0 - (across - 1) as f32 * 6.0) / across as f32;
    let x = 488.0 + col as f32 * 310.0 / across as f32 + width / 2.0;
    let y = 480.0 - 8.0 - 114.0 + row as f32 * 60.0 + 27.0;
    (x, y)
}

/// The centre of the side panel's button `action` as the panel shows it now.
pub fn action_point(app: &App, action: Action) -> (f32, f32) {
    // A button that has just taken its place ignores taps for a moment: wait as a finger would.
    headless::pump_until(Duration::from_millis(450), || app.action_armed(action));
    action_point_now(app, action)
}

/// [`action_point`] without waiting for the button to take taps.
pub fn action_point_now(app: &App, action: Action) -> (f32, f32) {
    let actions = app.window().global::<GameAdapter>().get_actions();
    let index = actions
        .iter()
        .position(|a| a.action == panel_action(action))
        .unwrap_or_else(|| panic!("no {action:?} button"));
    action_center(index, actions.row_count())
}

/// A tap on the side panel's button `action`.
pub fn press_action(app: &App, action: Action) {
    let (x, y) = action_point(app, action);
    headless::tap(x, y).expect("tap");
}

/// The centre of option `id` of the open menu of two columns (more than five options) or
/// three (more than 14), title only: the card starts 16 px from the top, 18 px padding, a
/// 26 px title line, then rows of buttons 62 px apart (58 from seven rows).
pub fn menu_option_point(app: &App, id: &str) -> (f32, f32) {
    let dialog = app.window().global::<DialogAdapter>();
    assert!(dialog.get_visible(), "the menu is open");
    let options = dialog.get_options();
    let count = options.row_count();
    assert!(count > 5, "a menu of two or three columns");
    let i = options
        .iter()
        .position(|o| o.id == id)
        .unwrap_or_else(|| panic!("no '{id}' in the menu"));
    let title = 30.0;
    // More than 14 choices (the Menu) take three columns of a 768 px card, else two of 600.
    let columns = if count > 14 { 3 } else { 2 };
    let card = if columns == 3 { 768.0 } else { 600.0 };
    let inner = card - 36.0;
    let width = (inner - (columns - 1) as f32 * 10.0) / columns as f32;
    // Seven rows sit closer (ui/dialogs.slint), and a card that tall starts above 16 px.
    let rows = count.div_ceil(columns) as f32;
    let pitch = if rows > 6.0 { 58.0 } else { 62.0 };
    let height = 18.0 + title + 10.0 + rows * pitch - 10.0 + 18.0;
    let top = f32::min(16.0, 480.0 - height) + 18.0 + title + 10.0;
    let left = (800.0 - card) / 2.0 + 18.0;
    let x = left + (i % columns) as f32 * (inner + 10.0) / columns as f32 + width / 2.0;
    let y = top + (i / columns) as f32 * pitch + (pitch - 10.0) / 2.0;
    (x, y)
}

/// The centre of option `id` of the open one-column dialog with a title and no message: the
/// card is 420 px wide and centred, then as [`menu_option_point`].
pub fn dialog_option_point(app: &App, id: &str) -> (f32, f32) {
    let dialog = app.window().global::<DialogAdapter>();
    assert!(dialog.get_visible(), "a dialog is open");
    assert_eq!(dialog.get_message(), "", "a dialog without a message");
    let options = dialog.get_options();
    let count = options.row_count();
    assert!(count <= 5, "a one-column dialog");
    let i = options
        .iter()
        .position(|o| o.id == id)
        .unwrap_or_else(|| panic!("no '{id}' in the dialog"));
    let title = 30.0;
    let height = 18.0 + title + 10.0 + count as f32 * 62.0 - 10.0 + 18.0;
    let top = (480.0 - height) / 2.0 + 18.0 + title + 10.0;
    (400.0, top + i as f32 * 62.0 + 26.0)
}

/// Waits until a dialog just opened takes taps on its choices (400 ms: ui/dialogs.slint). A
/// frame is drawn first, as the device draws one when the dialog appears: the dialog's timer
/// starts with it.
pub fn dialog_settles() {
    headless::render().expect("a frame");
    headless::pump_until(Duration::from_millis(450), || false);
}

/// Two players on one board, starting from `fen` (the usual start when `None`), without
/// storage: the window shown.
pub fn friend_game(fen: Option<&str>) -> App {
    let (game, mut setup) = initial_game(fen).expect("valid start");
    setup.mode = Mode::Friend;
    let app = App::new(game, setup).expect("the app starts");
    app.window().show().expect("the window shows");
    app
}

/// The app as the device starts it on the state directory `dir`: the game saved there
/// restored (a new game with `setup` when there is none), saving on, the window shown;
/// returned once its first save is on disk, which may take `patience`. Opening the state
/// directory must give no notice (a damaged file set aside, an archive that cannot open).
pub fn start_app(dir: &Path, setup: GameSetup, patience: Duration) -> App {
    start(dir, setup, patience, true)
}

/// [`start_app`], whatever notices opening the state directory gives.
pub fn start_app_ignoring_notices(dir: &Path, setup: GameSetup, patience: Duration) -> App {
    start(dir, setup, patience, false)
}

fn start(dir: &Path, setup: GameSetup, patience: Duration, no_notices: bool) -> App {
    let (restored, stores, notices) = saving::open(dir, (Game::new(), setup));
    if no_notices {
        assert!(notices.is_empty(), "{notices:?}");
    }
    let app = App::new(restored.game, restored.setup).expect("app");
    app.enable_saving(stores, restored.identity).expect("saver");
    app.window().show().expect("window");
    pump_until("the first save", patience, || app.is_saved());
    app
}
