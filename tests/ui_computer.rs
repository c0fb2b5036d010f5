//! The computer player through the real UI: it answers a move, gives hints, and never
//! blocks the screen (Undo during its search cancels it). One platform per process, so
//! the scenarios run in one test.

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::model::mode::{GameSetup, Level, Mode};
use chesspi::app::screens::Action;
use chesspi::app::screens::board_view::piece_of;
use chesspi::app::ui::{BoardPiece, GameAdapter};
use chesspi_engine::Color;
use chesspi_engine::game::Game;
use slint::{ComponentHandle, Model};
use std::time::{Duration, Instant};

mod support;
use support::ui::{press_action, tap_square};

fn start(setup: GameSetup) -> App {
    let app = App::new(Game::new(), setup).expect("the app starts");
    app.window().show().expect("show");
    app
}

fn moves(app: &App) -> usize {
    app.with_controller(|c| c.session().game().moves().len())
}

fn the_computer_answers() {
    let app = start(GameSetup::FIRST_START);
    tap_square(&app, "e2");
    tap_square(&app, "e4");
    let adapter = app.window().global::<GameAdapter>();
    assert!(
        adapter.get_thinking(),
        "the screen says the computer is thinking"
    );
    assert_eq!(
        adapter.get_status().replace('\u{a0}', " "),
        "Computer is thinking…"
    );
    // Waiting is shown by a dot stepping on a timer, not by redrawing at frame rate.
    headless::render().expect("a frame");
    assert!(
        !app.window().window().has_active_animations(),
        "no animation while waiting"
    );
    assert!(
        headless::pump_until(Duration::from_secs(30), || moves(&app) == 2),
        "the computer replied"
    );
    assert!(!adapter.get_thinking());
    assert_eq!(
        adapter.get_status().replace('\u{a0}', " "),
        "Your move — tap a piece"
    );
    // The reply slides to its square, then the overlay goes (nothing animates when idle).
    assert_ne!(
        adapter.get_slide_piece(),
        BoardPiece::None,
        "the computer's move slides in"
    );
    assert!(
        headless::pump_until(Duration::from_secs(2), || adapter.get_slide_piece()
            == BoardPiece::None),
        "the slide ends"
    );
    // The reply is a legal black move, shown on the board.
    let reply = app.with_controller(|c| c.session().game().moves()[1]);
    let after = app.with_controller(|c| *c.session().game().position());
    assert_eq!(
        after.piece_at(reply.to()).map(|p| p.color),
        Some(Color::Black)
    );
    let cell = app.with_controller(|c| c.game_view().cell_of(reply.to()));
    let shown = adapter.get_squares().row_data(cell).expect("cell");
    assert!(piece_of(shown.piece).is_some_and(|p| p.color == Color::Black) && shown.last_move);
}

fn the_computer_opens_when_the_player_is_black() {
    let app = start(GameSetup {
        mode: Mode::Computer {
            human: Color::Black,
        },
        level: GameSetup::FIRST_START.level,
    });
    assert!(app.with_controller(|c| c.session().is_flipped()));
    assert!(headless::pump_until(Duration::from_secs(30), || moves(
        &app
    ) == 1));
    assert_eq!(
        app.window()
            .global::<GameAdapter>()
            .get_bottom_player()
            .name,
        "You"
    );
}

fn a_hint_is_shown_on_the_board() {
    let app = start(GameSetup::FIRST_START);
    press_action(&app, Action::Hint);
    let adapter = app.window().global::<GameAdapter>();
    assert!(headless::pump_until(Duration::from_secs(30), || {
        adapter
            .get_status()
            .replace('\u{a0}', " ")
            .starts_with("Hint: ")
    }));
    let squares = adapter.get_squares();
    let hinted = (0..64)
        .filter(|&i| squares.row_data(i).is_some_and(|s| s.hint))
        .count();
    assert_eq!(hinted, 2, "the hint's two squares are marked");
}

fn undo_while_thinking_cancels_the_search() {
    let strongest = GameSetup {
        mode: Mode::Computer {
            human: Color::White,
        },
        level: Level::new(10).expect("level 10"),
    };
    let app = start(strongest);
    tap_square(&app, "g1");
    tap_square(&app, "f3");
    assert!(app.with_controller(|c| c.session().is_computer_thinking()));
    let started = Instant::now();
    press_action(&app, Action::Undo);
    assert!(
        started.elapsed() < Duration::from_millis(200),
        "Undo did not wait for the search"
    );
    assert_eq!(moves(&app), 0);
    // No late move arrives from the cancelled search.
    assert!(!headless::pump_until(
        Duration::from_millis(1500),
        || moves(&app) != 0
    ));
    assert_eq!(
        app.window()
            .global::<GameAdapter>()
            .get_status()
            .replace('\u{a0}', " "),
        "Your move — tap a piece"
    );
}

fn a_demo_plays_by_itself() {
    let app = start(GameSetup {
        mode: Mode::Demo,
        level: Level::new(1).expect("level 1"),
    });
    assert!(
        headless::pump_until(Duration::from_secs(30), || moves(&app) >= 3),
        "the demo moves on its own"
    );
}

/// A kiosk demo starts its next game by itself after one ends.
fn a_demo_loops() {
    // White to move mates at once (Ra8#).
    const MATE_IN_ONE: &str = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let pos = chesspi_engine::Position::from_fen(MATE_IN_ONE).expect("fen");
    let app = App::new(
        Game::from_position(pos),
        GameSetup {
            mode: Mode::Demo,
            level: Level::new(10).expect("level 10"),
        },
    )
    .expect("the app starts");
    app.window().show().expect("show");
    assert!(
        headless::pump_until(Duration::from_secs(30), || app
            .with_controller(|c| c.session().game().is_over())),
        "the demo game ends"
    );
    assert!(
        headless::pump_until(Duration::from_secs(15), || app.with_controller(|c| {
            !c.session().game().is_over()
                && c.session().game().initial_position().to_fen() != MATE_IN_ONE
        })),
        "the next demo game starts by itself"
    );
}

#[test]
fn ui_computer() {
    headless::install().expect("the headless platform installs");
    the_computer_answers();
    the_computer_opens_when_the_player_is_black();
    a_hint_is_shown_on_the_board();
    undo_while_thinking_cancels_the_search();
    a_demo_plays_by_itself();
    a_demo_loops();
}
