//! The opening's name in the side panel, as a player sees it: found by position (a transposed
//! move order names the same opening), kept while the game leaves the book, and shown for the
//! move under review.

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::screens::Viewing;
use chesspi::app::ui::GameAdapter;
use slint::ComponentHandle;

mod support;
use support::ui::{friend_game, tap_square};

fn tap_moves(app: &App, moves: &[&str]) {
    for mv in moves {
        let (from, to) = mv.split_at(2);
        tap_square(app, from);
        tap_square(app, to);
    }
}

#[test]
fn the_opening_name_follows_the_position() {
    headless::install().expect("headless");
    let app = friend_game(None);
    let opening = || {
        app.window()
            .global::<GameAdapter>()
            .get_opening()
            .to_string()
    };
    assert_eq!(opening(), "", "no name before the first named position");

    // 1. e4 e5 2. Bc4 Nc6 3. Nf3: the Italian Game by another move order.
    tap_moves(&app, &["e2e4", "e7e5", "f1c4", "b8c6"]);
    assert_eq!(opening(), "C23 Bishop's Opening");
    tap_moves(&app, &["g1f3"]);
    assert_eq!(opening(), "C50 Italian Game");
    // Out of the book: the last named position stays.
    tap_moves(&app, &["a7a6", "a2a3", "h7h6"]);
    assert_eq!(opening(), "C50 Italian Game");

    // Under review, the name of the position shown.
    // Tapping 2. Bc4 in the move list shows the position after it.
    app.update_controller(|c| c.part(|v: &mut Viewing, cx| v.move_tapped(cx, 1, false)));
    assert_eq!(opening(), "C23 Bishop's Opening");
}
