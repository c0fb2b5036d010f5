//! Openings by touch, on the headless window with the real saver: Menu → Openings, the
//! Italian Game found by paging through the families, all its lines, White; a line played to
//! its end (the computer answering after its pause), its card passed and on disk due a day
//! later; the next line's first move wrong: the book's move shown in words and as an arrow,
//! the card missed and due minutes later; the book's move played; back out to the game.
//! Slint allows one platform per process: one test.

mod support;

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::boot::screenshot::square_center;
use chesspi::app::model::mode::GameSetup;
use chesspi::app::screens::openings::OpeningsScreen;
use chesspi::app::screens::{Action, ScreenKind};
use chesspi::app::ui::{OpeningsAdapter, OpeningsPage};
use chesspi::storage::leitner::RETRY_SECONDS;
use chesspi::storage::openings::{Card, OpeningStore};
use chesspi_engine::Move;
use chesspi_engine::openings::lines::LineId;
use slint::{ComponentHandle, Model};
use std::path::Path;
use std::time::Duration;
use support::ui::{dialog_settles, menu_option_point, press_action, pump_until, start_app};

const PATIENCE: Duration = Duration::from_secs(30);
const DAY: u64 = 86_400;

// Where ui/openings.slint puts things on the 800x480 screen: the header's buttons 52 px tall
// at y = 12, three of 114 px from the right edge (Previous, Next, Back); list rows 380x60
// from (12, 72), 396 px and 66 px apart; the colours' buttons 96 px tall from y = 204; the
// drill's buttons at the bottom right (Next line and Back from y = 418, the book's move above).
const NEXT_PAGE: (f32, f32) = (611.0, 38.0);
const BACK: (f32, f32) = (731.0, 38.0);
const WHITE: (f32, f32) = (202.0, 252.0);
const NEXT_LINE: (f32, f32) = (562.0, 445.0);
const DRILL_BACK: (f32, f32) = (717.0, 445.0);
const BOOK_MOVE: (f32, f32) = (640.0, 383.0);

fn tap((x, y): (f32, f32)) {
    headless::tap(x, y).expect("tap");
}

fn adapter(app: &App) -> OpeningsAdapter<'_> {
    app.window().global::<OpeningsAdapter>()
}

fn row_names(app: &App) -> Vec<String> {
    adapter(app)
        .get_rows()
        .iter()
        .map(|r| r.name.to_string())
        .collect()
}

fn tap_row(app: &App, name: &str) {
    let i = row_names(app)
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("{name} not on the page"));
    tap((
        12.0 + (i % 2) as f32 * 396.0 + 190.0,
        72.0 + (i / 2) as f32 * 66.0 + 30.0,
    ));
}

fn tap_move(mv: Move) {
    for sq in [mv.from(), mv.to()] {
        let (x, y) = square_center(sq, false);
        headless::tap(x, y).expect("tap");
    }
}

/// The drill's moves played so far, the lines' moves for the side to move, whether the user
/// is to move, the line the computer follows.
fn drill(app: &App) -> (Vec<Move>, Vec<Move>, bool, Option<LineId>) {
    app.with_controller(|c| {
        let o = c.shown::<OpeningsScreen>().expect("Openings is open");
        let d = o.drill().expect("a drill");
        (
            d.played().to_vec(),
            d.book_moves().iter().map(|b| b.mv).collect(),
            d.users_turn(),
            o.followed_line().map(|l| l.id()),
        )
    })
}

/// The card of `line` in player 1's folder, once it has `tries` tries.
fn card_on_disk(dir: &Path, line: LineId, tries: u32) -> Card {
    let store = OpeningStore::new(&dir.join("players/1"));
    let mut found = None;
    pump_until("the card on disk", PATIENCE, || {
        found = store
            .load()
            .value
            .get(line)
            .copied()
            .filter(|c| c.tries == tries);
        found.is_some()
    });
    found.expect("the card")
}

fn now() -> u64 {
    chesspi::storage::timestamp::unix_now()
}

#[test]
fn an_opening_is_drilled_by_touch_and_its_cards_kept() {
    headless::install().expect("headless");
    let dir = tempfile::tempdir().expect("tempdir");
    let app = start_app(dir.path(), GameSetup::FIRST_START, PATIENCE);

    press_action(&app, Action::Menu);
    dialog_settles();
    let (x, y) = menu_option_point(&app, "openings");
    headless::tap(x, y).expect("tap");
    assert_eq!(app.with_controller(|c| c.screen()), ScreenKind::Openings);
    assert_eq!(adapter(&app).get_page(), OpeningsPage::Families);
    for _ in 0..20 {
        if row_names(&app).iter().any(|n| n == "Italian Game") {
            break;
        }
        assert!(
            adapter(&app).get_can_next(),
            "the Italian Game on some page"
        );
        tap(NEXT_PAGE);
    }
    tap_row(&app, "Italian Game");
    assert_eq!(adapter(&app).get_page(), OpeningsPage::Openings);
    assert_eq!(adapter(&app).get_title(), "Italian Game");
    tap_row(&app, "All lines");
    assert_eq!(adapter(&app).get_page(), OpeningsPage::Colour);
    tap(WHITE);
    assert_eq!(adapter(&app).get_page(), OpeningsPage::Drill);

    // A correct line: the followed line's moves, the computer answering after its pause.
    let followed = drill(&app).3.expect("a line followed");
    let line = chesspi_engine::openings::lines::line(followed).expect("the line");
    for _ in 0..40 {
        if adapter(&app).get_complete() {
            break;
        }
        pump_until("the computer's move", PATIENCE, || {
            drill(&app).2 || adapter(&app).get_complete()
        });
        if adapter(&app).get_complete() {
            break;
        }
        let (played, _, _, now_followed) = drill(&app);
        assert_eq!(
            now_followed,
            Some(followed),
            "the computer keeps to the line"
        );
        tap_move(line.moves()[played.len()]);
    }
    assert!(adapter(&app).get_complete(), "the line played to its end");
    let verdict = adapter(&app).get_verdict().to_string();
    assert!(
        verdict.starts_with("Line complete: Italian Game"),
        "{verdict}"
    );
    let passed = card_on_disk(dir.path(), followed, 1);
    assert_eq!((passed.box_index, passed.passed), (1, 1));
    assert!(
        passed.due_unix.abs_diff(now() + DAY) < 120,
        "due a day later"
    );

    // The next line: 1. a3 is no Italian Game.
    tap(NEXT_LINE);
    let (played, book, users_turn, next) = drill(&app);
    assert!(played.is_empty() && users_turn);
    let next = next.expect("a line followed");
    assert_ne!(
        next, followed,
        "a line not tried yet comes before one not due"
    );
    let a3 = chesspi_engine::Position::startpos()
        .parse_uci_move("a2a3")
        .expect("a3");
    tap_move(a3);
    assert!(adapter(&app).get_missed());
    assert_eq!(
        adapter(&app).get_verdict(),
        "a3 is not in the book here. The book plays e4."
    );
    assert!(
        !adapter(&app).get_arrow().is_empty(),
        "the book's move drawn"
    );
    assert!(drill(&app).0.is_empty(), "a miss is not played");
    let missed = card_on_disk(dir.path(), next, 1);
    assert_eq!((missed.box_index, missed.passed), (0, 0));
    assert!(missed.due_unix.abs_diff(now() + RETRY_SECONDS) < 120);
    assert!(
        missed.due_unix < passed.due_unix,
        "a miss comes back sooner"
    );

    tap(BOOK_MOVE);
    assert_eq!(drill(&app).0, vec![book[0]], "the book's move played");
    assert!(!adapter(&app).get_missed());

    tap(DRILL_BACK);
    assert_eq!(adapter(&app).get_page(), OpeningsPage::Colour);
    tap(BACK);
    tap(BACK);
    assert_eq!(adapter(&app).get_page(), OpeningsPage::Families);
    tap(BACK);
    assert_eq!(app.with_controller(|c| c.screen()), ScreenKind::Game);
}
