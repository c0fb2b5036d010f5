//! Assist by touch: with Assist on (two touches a move), a tap on the knight colours its
//! target squares as the engine grades them, a second piece is coloured too, a third touched
//! in the same turn colours nothing, and the game is not rated. After a move the count starts
//! again.

mod support;

use chesspi::app::boot::headless;
use chesspi::app::screens::board_view::display_cell;
use chesspi::app::session::game::Unrated;
use chesspi::app::shell::device::DeviceControls;
use chesspi::app::ui::{AssistGrade, GameAdapter};
use chesspi::config::Config;
use chesspi::storage::DeviceSettings;
use chesspi_engine::coach::{Assist, AssistLimit, Grade, Grades, Judging};
use chesspi_engine::{Position, Square};
use slint::{ComponentHandle, Model};
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use support::ui::{against_the_computer, pump_until, sq, start_app, tap_square};

const PATIENCE: Duration = Duration::from_secs(60);

/// The grade the board shows on `square` (White at the bottom).
fn shown(app: &chesspi::app::App, square: Square) -> AssistGrade {
    let squares = app.window().global::<GameAdapter>().get_squares();
    squares
        .row_data(display_cell(false, square))
        .map_or(AssistGrade::None, |s| s.assist)
}

fn as_shown(grade: Grade) -> AssistGrade {
    match grade {
        Grade::Good => AssistGrade::Good,
        Grade::Inaccuracy => AssistGrade::Inaccuracy,
        Grade::Bad => AssistGrade::Bad,
    }
}

/// Whether the board shows exactly the engine's grades of the piece on `from`.
fn shows_grades_of(app: &chesspi::app::App, grades: &Grades, from: Square) -> bool {
    grades
        .from_square(from)
        .all(|g| shown(app, g.mv.to()) == as_shown(g.grade()))
}

fn coloured(app: &chesspi::app::App) -> usize {
    let squares = app.window().global::<GameAdapter>().get_squares();
    squares
        .iter()
        .filter(|s| s.assist != AssistGrade::None)
        .count()
}

/// One headless platform per process: the cases run in turn.
#[test]
fn ui_assist() {
    headless::install().expect("headless");
    let state = tempfile::tempdir().expect("state");
    let app = start_app(state.path(), against_the_computer(1), PATIENCE);
    app.enable_device(DeviceControls::new(
        DeviceSettings {
            assist: AssistLimit::new(2),
            ..DeviceSettings::default()
        },
        Config::default(),
        None,
    ));
    // The game is not rated.
    assert_eq!(
        app.with_controller(|c| c.session().record().unrated()),
        Some(Unrated::Assist)
    );

    // What the engine says of the start position, searched as the worker searches it: the
    // knight touched first, its moves near an edge judged by the coach, then the pawn's.
    let start = Position::startpos();
    let (mut assist, stop) = (Assist::default(), AtomicBool::new(false));
    let judging = Judging {
        touched: &[sq("g1")],
        threads: chesspi::config::search_threads(),
        until: None,
    };
    let mut grades = assist
        .grade(&start, &[start.hash()], &judging, &stop, &mut |_| {})
        .expect("graded");
    let pawn = Judging {
        touched: &[sq("e2")],
        ..judging
    };
    assist
        .settle(
            &start,
            &[start.hash()],
            &mut grades,
            &pawn,
            &stop,
            &mut |_| {},
        )
        .expect("settled");

    // The knight: its two squares coloured as the engine grades them, the board's dots kept.
    tap_square(&app, "g1");
    pump_until("the knight's grades", PATIENCE, || {
        shows_grades_of(&app, &grades, sq("g1")) && coloured(&app) == 2
    });
    // The player's line says why the game is not rated.
    let bottom = app.window().global::<GameAdapter>().get_bottom_player();
    assert!(
        bottom.detail.contains("Not rated: assist"),
        "{}",
        bottom.detail
    );
    let squares = app.window().global::<GameAdapter>().get_squares();
    let f3 = squares.row_data(display_cell(false, sq("f3"))).expect("f3");
    assert!(f3.target, "the legal-move dot stays");
    assert_eq!(
        shown(&app, sq("f3")),
        AssistGrade::Good,
        "Nf3 is a good move"
    );

    // The second piece: the pawn on e2, graded from the same search.
    tap_square(&app, "e2");
    pump_until("the pawn's grades", PATIENCE, || {
        shows_grades_of(&app, &grades, sq("e2")) && coloured(&app) == 2
    });
    // The third: past the limit, nothing is coloured, though the pawn is selected.
    tap_square(&app, "d2");
    pump_until("the third piece selected", PATIENCE, || {
        app.with_controller(|c| c.session().assist().refused())
    });
    headless::pump_until(Duration::from_millis(500), || false);
    assert_eq!(coloured(&app), 0, "past the limit, no colours");
    let d2_targets = app
        .window()
        .global::<GameAdapter>()
        .get_squares()
        .iter()
        .filter(|s| s.target)
        .count();
    assert_eq!(d2_targets, 2, "the board still shows the pawn's moves");
    // A piece touched before still shows its colours.
    tap_square(&app, "g1");
    pump_until("the knight's grades again", PATIENCE, || {
        shows_grades_of(&app, &grades, sq("g1")) && coloured(&app) == 2
    });

    // A move: the computer answers, and the next turn counts afresh.
    tap_square(&app, "f3");
    pump_until("the computer's answer", PATIENCE, || {
        app.with_controller(|c| c.session().game().moves().len() == 2)
    });
    assert_eq!(coloured(&app), 0);
    tap_square(&app, "b1");
    pump_until("the other knight's grades", PATIENCE, || coloured(&app) > 0);
    assert!(app.with_controller(|c| c.session().assist().touched() == [sq("b1")]));
    assert_eq!(
        app.with_controller(|c| c.session().record().unrated()),
        Some(Unrated::Assist)
    );
}
