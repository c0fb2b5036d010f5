//! The opening's name in the side panel, as a player sees it: found by position (a transposed
//! move order names the same opening), kept while the game leaves the book, and shown for the
//! move under review.

use chesspi::app::boot::headless;
use chesspi::app::boot::screenshot::square_center;
use chesspi::app::model::mode::Mode;
use chesspi::app::ui::GameAdapter;
use chesspi::app::{App, initial_game};
use slint::ComponentHandle;

fn tap_moves(app: &App, moves: &[&str]) {
    for mv in moves {
        let (from, to) = mv.split_at(2);
        for square in [from, to] {
            let flipped = app.with_controller(|c| c.is_flipped());
            let (x, y) = square_center(square.parse().expect("square"), flipped);
            headless::tap(x, y).expect("tap");
        }
    }
}

fn friend_game() -> App {
    let (game, mut setup) = initial_game(None).expect("start");
    setup.mode = Mode::Friend;
    let app = App::new(game, setup).expect("app");
    app.window().show().expect("window");
    app
}

#[test]
fn the_opening_name_follows_the_position() {
    headless::install().expect("headless");
    let app = friend_game();
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
    app.update_controller(|c| c.move_tapped(1, false));
    assert_eq!(opening(), "C23 Bishop's Opening");
}
