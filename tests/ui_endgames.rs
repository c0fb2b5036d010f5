//! Endgames by touch, on the headless window with the real computer and saver: Menu →
//! Endgames, a K+R v K lesson chosen on the list and played to mate by taps against the
//! computer (the player's moves found with the tables' `best_move`, the computer's answers
//! its own), passed with the move count judged against the shortest mate and kept on disk;
//! then a K+P v K lesson failed by the one move that throws the win away. Slint allows one
//! platform per process: one test.

mod support;

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::boot::screenshot::square_center;
use chesspi::app::model::mode::GameSetup;
use chesspi::app::screens::endgames::{Endgames, EndgamesView, LessonView};
use chesspi::app::screens::{Action, ScreenKind};
use chesspi::app::ui::EndgamesAdapter;
use chesspi_engine::endgame::{Verdict, best_move, lessons, probe};
use slint::{ComponentHandle, Model};
use std::time::Duration;
use support::ui::{dialog_settles, menu_option_point, press_action, pump_until, start_app};

/// The tables built on the computer's thread the first time, and a debug build's search.
const PATIENCE: Duration = Duration::from_secs(120);

// Where ui/endgames.slint puts things: on the list, columns of 388 px from x = 8, 396 px
// apart, items from y = 64 (lesson buttons 48 px tall); on a lesson, the panel's Retry and
// Lessons in its bottom row, 54 px tall, 8 px above the bottom.
const LESSONS_BUTTON: (f32, f32) = (717.0, 445.0);

fn tap((x, y): (f32, f32)) {
    headless::tap(x, y).expect("tap");
}

/// Taps lesson `id`'s button on the list shown.
fn choose(app: &App, id: &str) {
    let index = lessons::LESSONS
        .iter()
        .position(|l| l.id == id)
        .expect("a lesson");
    let items = app.window().global::<EndgamesAdapter>().get_items();
    let item = items
        .iter()
        .find(|i| i.lesson == index as i32)
        .unwrap_or_else(|| panic!("{id} on the list's first page"));
    tap((
        8.0 + item.column as f32 * 396.0 + 194.0,
        64.0 + item.y as f32 + 24.0,
    ));
}

fn lesson(app: &App) -> LessonView {
    let view =
        app.with_controller(|c| c.shown::<Endgames>().map(|e| e.view(c.player().endgames())));
    match view {
        Some(EndgamesView::Lesson(l)) => *l,
        other => panic!("no lesson shown: {other:?}"),
    }
}

/// The lesson once the computer has answered (and the tables were read).
fn settle(app: &App) -> LessonView {
    pump_until("the computer's answer", PATIENCE, || !lesson(app).thinking);
    lesson(app)
}

/// Taps `from` and `to` on the lesson's board (the player's side at the bottom).
fn tap_move(mv: chesspi_engine::Move, flipped: bool) {
    for sq in [mv.from(), mv.to()] {
        let (x, y) = square_center(sq, flipped);
        headless::tap(x, y).expect("tap");
    }
}

#[test]
fn a_rook_mate_is_passed_by_taps_and_a_pawn_ending_failed() {
    headless::install().expect("headless");
    let dir = tempfile::tempdir().expect("tempdir");
    let app = start_app(dir.path(), GameSetup::FIRST_START, PATIENCE);
    press_action(&app, Action::Menu);
    dialog_settles();
    tap(menu_option_point(&app, "endgames"));
    assert_eq!(app.with_controller(|c| c.screen()), ScreenKind::Endgames);

    // K+R v K: the shortest mate from the start, as the goal line says.
    let krk = lessons::find("krk-2").expect("a lesson");
    let Some(Verdict::WinIn(shortest)) = probe(&krk.position().expect("fen")) else {
        panic!("a won start");
    };
    choose(&app, "krk-2");
    let start = settle(&app);
    assert!(
        start.goal.contains(&format!("mates in {shortest} moves")),
        "{}",
        start.goal
    );
    let mut moves = 0;
    let done = loop {
        let pos = app
            .with_controller(|c| c.shown::<Endgames>().and_then(Endgames::position))
            .expect("a lesson");
        let mv = best_move(&pos).expect("the tables' move");
        tap_move(mv, false);
        moves += 1;
        let view = settle(&app);
        if view.result.is_some() {
            break view;
        }
        assert!(moves < 40, "no mate after {moves} moves");
    };
    assert_eq!(done.result, Some(true), "{}", done.verdict);
    assert_eq!(moves, shortest);
    assert_eq!(
        done.verdict,
        format!("Passed: mate in {shortest} moves, the shortest there is.")
    );
    let file = dir.path().join("players/1/endgames.toml");
    pump_until("the pass on disk", PATIENCE, || {
        std::fs::read_to_string(&file).is_ok_and(|t| {
            t.contains("id = \"krk-2\"") && t.contains(&format!("best_moves = {shortest}"))
        })
    });

    // Back to the list, where the lesson shows as passed; then K+P v K thrown away.
    tap(LESSONS_BUTTON);
    let items = app.window().global::<EndgamesAdapter>().get_items();
    let row = items
        .iter()
        .find(|i| i.text == krk.title)
        .expect("the lesson's row");
    assert!(row.passed);
    assert_eq!(row.detail, format!("Passed in {shortest} moves · 1 try"));

    let kpk = lessons::find("kpk-1").expect("a lesson");
    choose(&app, "kpk-1");
    settle(&app);
    let pos = kpk.position().expect("fen");
    let drawing = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|&mv| probe(&pos.play(mv).expect("legal")) == Some(Verdict::Draw))
        .expect("a move that draws");
    tap_move(drawing, false);
    let failed = settle(&app);
    assert_eq!(failed.result, Some(false));
    assert!(
        failed.verdict.contains("this throws the win away"),
        "{}",
        failed.verdict
    );
    pump_until("the try on disk", PATIENCE, || {
        std::fs::read_to_string(&file).is_ok_and(|t| t.contains("id = \"kpk-1\""))
    });
    let kept = chesspi::storage::players::PlayerFiles::new(dir.path())
        .load_endgames(chesspi::storage::players::PlayerId::FIRST)
        .value;
    assert_eq!(kept.get("kpk-1").tries, 1);
    assert!(!kept.get("kpk-1").passed);
}
