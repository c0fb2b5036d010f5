//! Drives the real UI headless, as a finger would: taps, drags, the promotion picker, undo,
//! checkmate. Slint allows one platform per process, so the scenarios run one after the
//! other in a single test.

use chesspi::app::App;
use chesspi::app::boot::headless::{self, Frame};
use chesspi::app::boot::screenshot::square_center;
use chesspi::app::model::mode::{GameSetup, Mode};
use chesspi::app::screens::{Action, Allow, Dialog, Go, SavedGameChoice, Viewing};
use chesspi::app::ui::{BoardPiece, DialogAdapter, GameAdapter};
use chesspi_engine::Position;
use chesspi_engine::game::Game;
use slint::{ComponentHandle, Model};
use std::time::Duration;

mod support;
use support::ui::{
    action_point_now, dialog_option_point, dialog_settles, friend_game, menu_option_point,
    press_action, sq, tap_square,
};

fn drag(app: &App, from: &str, to: &str) {
    let flipped = app.with_controller(|c| c.session().is_flipped());
    headless::drag(
        square_center(sq(from), flipped),
        square_center(sq(to), flipped),
    )
    .expect("drag");
}

/// The display cells the UI marks as legal targets.
fn target_cells(app: &App) -> Vec<usize> {
    let squares = app.window().global::<GameAdapter>().get_squares();
    (0..64)
        .filter(|&i| squares.row_data(i).is_some_and(|s| s.target))
        .collect()
}

fn cell(app: &App, name: &str) -> usize {
    app.with_controller(|c| c.game_view().cell_of(sq(name)))
}

fn render() -> Frame {
    headless::render().expect("render").0
}

fn fen(app: &App) -> String {
    app.with_controller(|c| c.session().game().position().to_fen())
}

fn tapping_a_piece_shows_its_targets() {
    let app = friend_game(None);
    tap_square(&app, "e2");
    let mut expected = vec![cell(&app, "e3"), cell(&app, "e4")];
    expected.sort();
    assert_eq!(target_cells(&app), expected);
    assert_eq!(
        app.window()
            .global::<GameAdapter>()
            .get_status()
            .replace('\u{a0}', " "),
        "Tap where the pawn should go"
    );

    // The dot on e4 is really drawn: its centre is darker than the bare square next to it.
    let frame = render();
    let (x, y) = square_center(sq("e4"), false);
    let centre = frame.rgb(x as u32, y as u32);
    let edge = frame.rgb(x as u32 + 24, y as u32);
    assert_eq!(edge, (0xf0, 0xd9, 0xb5), "e4 is a light square");
    assert!(
        u32::from(centre.0) + 40 < u32::from(edge.0),
        "a dot at the centre of e4: {centre:?} vs {edge:?}"
    );
    // ... and e5, not a target, has none.
    let (x5, y5) = square_center(sq("e5"), false);
    let e5 = frame.rgb(x5 as u32, y5 as u32);
    assert_eq!(e5, (0xb5, 0x88, 0x63), "e5 is a bare dark square");

    // Tapping elsewhere deselects.
    tap_square(&app, "e5");
    assert!(target_cells(&app).is_empty());
}

fn e2e4_by_taps() {
    let app = friend_game(None);
    tap_square(&app, "e2");
    tap_square(&app, "e4");
    assert_eq!(
        fen(&app),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    let squares = app.window().global::<GameAdapter>().get_squares();
    let e4 = squares.row_data(cell(&app, "e4")).expect("cell");
    assert_eq!(e4.piece, BoardPiece::WhitePawn, "a white pawn on e4");
    assert!(e4.last_move, "e4 marked as the last move");
    assert_eq!(
        app.window()
            .global::<GameAdapter>()
            .get_status()
            .replace('\u{a0}', " "),
        "Black to move — tap a piece"
    );
    let moves = app.window().global::<GameAdapter>().get_moves();
    assert_eq!(moves.row_count(), 1);
    assert_eq!(moves.row_data(0).expect("row").number, "1.");
}

fn e2e4_by_drag() {
    let app = friend_game(None);
    drag(&app, "e2", "e4");
    assert_eq!(
        fen(&app),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    // A drop on an illegal square puts the piece back.
    drag(&app, "g8", "g5");
    assert_eq!(app.with_controller(|c| c.session().game().moves().len()), 1);
    drag(&app, "g8", "f6");
    assert_eq!(app.with_controller(|c| c.session().game().moves().len()), 2);
}

fn promotion_picker() {
    let app = friend_game(Some("1k6/4P3/8/8/8/8/8/4K3 w - - 0 1"));
    tap_square(&app, "e7");
    tap_square(&app, "e8");
    let adapter = app.window().global::<GameAdapter>();
    assert!(adapter.get_promotion_visible());
    assert_eq!(
        adapter.get_status().replace('\u{a0}', " "),
        "Choose a piece for promotion"
    );

    // Find the picker's first choice (the queen) on screen by its light background.
    let frame = render();
    let y = 240;
    let left = (20..460)
        .find(|&x| frame.rgb(x, y) == (0xf0, 0xd9, 0xb5))
        .expect("the picker's buttons are drawn over the board");
    headless::tap(left as f32 + 40.0, y as f32).expect("tap");
    assert!(!adapter.get_promotion_visible());
    assert_eq!(fen(&app), "1k2Q3/8/8/8/8/8/8/4K3 b - - 0 1");
    let mv = app.with_controller(|c| c.session().game().moves()[0]);
    assert_eq!(mv.to_string(), "e7e8q");
}

fn undo_takes_back() {
    let app = friend_game(None);
    tap_square(&app, "d2");
    tap_square(&app, "d4");
    tap_square(&app, "d7");
    tap_square(&app, "d5");
    press_action(&app, Action::Undo);
    assert_eq!(app.with_controller(|c| c.session().game().moves().len()), 1);
    press_action(&app, Action::Undo);
    assert_eq!(fen(&app), Position::startpos().to_fen());
    assert_eq!(
        app.window().global::<GameAdapter>().get_moves().row_count(),
        0
    );
}

fn checkmate_ends_the_game() {
    let app = friend_game(None);
    for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
        tap_square(&app, from);
        tap_square(&app, to);
    }
    let adapter = app.window().global::<GameAdapter>();
    assert!(adapter.get_game_over());
    assert_eq!(adapter.get_result_title(), "Black wins");
    assert_eq!(adapter.get_result_reason(), "by checkmate");
    let king = adapter
        .get_squares()
        .row_data(cell(&app, "e1"))
        .expect("cell");
    assert!(king.check, "the mated king is highlighted");
    // Hint's place now holds Undo: a tap landing as it changed (aimed at Hint) is ignored; a
    // tap after a moment takes the mate back.
    let (x, y) = action_point_now(&app, Action::Undo);
    headless::tap(x, y).expect("tap");
    assert!(
        adapter.get_game_over(),
        "a button that just appeared takes no tap"
    );
    press_action(&app, Action::Undo);
    assert!(!adapter.get_game_over(), "a moment later it does");
    tap_square(&app, "d8");
    tap_square(&app, "h4");
    assert!(adapter.get_game_over());
    // The board takes no more moves.
    tap_square(&app, "a2");
    assert!(target_cells(&app).is_empty());
    // Review: step back to the start and forward again, the board following.
    press_action(&app, Action::Review);
    press_action(&app, Action::ReviewFirst);
    assert_eq!(
        app.with_controller(|c| c.session().shown_position().to_fen()),
        Position::startpos().to_fen()
    );
    press_action(&app, Action::ReviewForward);
    assert_eq!(
        adapter.get_status().replace('\u{a0}', " "),
        "Reviewing: after 1. f3"
    );
    press_action(&app, Action::ReviewDone);
    assert!(adapter.get_game_over());
}

fn new_game_dialog_starts_a_two_player_game() {
    let app = App::new(Game::new(), GameSetup::FIRST_START).expect("the app starts");
    app.window().show().expect("show");
    press_action(&app, Action::NewGame);
    let dialog = app.window().global::<chesspi::app::ui::NewGameAdapter>();
    assert!(dialog.get_visible());
    dialog.invoke_mode_chosen("friend".into());
    headless::pump();
    assert!(!dialog.get_show_colour());
    dialog.invoke_start();
    headless::pump();
    assert!(!dialog.get_visible());
    assert_eq!(
        app.with_controller(|c| c.session().setup().mode),
        Mode::Friend
    );
    // Nobody thinks in a two-player game.
    assert!(!headless::pump_until(Duration::from_millis(300), || {
        app.with_controller(|c| !c.session().game().moves().is_empty())
    }));
}

#[test]
fn ui_play() {
    headless::install().expect("the headless platform installs");
    tapping_a_piece_shows_its_targets();
    e2e4_by_taps();
    e2e4_by_drag();
    promotion_picker();
    undo_takes_back();
    checkmate_ends_the_game();
    new_game_dialog_starts_a_two_player_game();
    a_dialog_ignores_the_second_tap_of_the_double_tap_that_opened_it();
    the_move_list_keeps_the_shown_move_in_view();
    help_scrolls_and_closes_by_touch();
    the_coach_warns_and_the_player_takes_the_move_back();
}

/// With the coach on, a blunder tapped on the board stops the game: the warning is shown over
/// the move list, its squares marked and the punishing answer drawn; "Show me" draws the
/// better move; "Take back" restores the position before the move, and the next move is
/// answered by the computer.
fn the_coach_warns_and_the_player_takes_the_move_back() {
    use chesspi::app::ui::CoachAdapter;
    use chesspi_engine::coach::CoachLevel;
    let game = support::games::game_with("e2e4 e7e5 g1f3 b8c6 f1c4 c6d4");
    let app = App::new(game, support::ui::against_the_computer(4)).expect("the app starts");
    app.window().show().expect("show");
    app.update_controller(|c| {
        c.set_settings_view(chesspi::app::screens::SettingsView {
            coach: CoachLevel::Blunders,
            ..Default::default()
        });
        c.session_mut().set_coach_level(CoachLevel::Blunders);
    });
    let before = fen(&app);
    tap_square(&app, "f3");
    tap_square(&app, "g5");
    support::ui::pump_until("the coach's warning", Duration::from_secs(60), || {
        app.with_controller(|c| c.session().coach().advice().is_some())
    });
    let coach = app.window().global::<CoachAdapter>();
    assert!(coach.get_visible() && coach.get_blunder());
    assert_eq!(
        coach.get_text(),
        "This leaves your knight on g5 hanging: the queen on d8 takes it."
    );
    assert_ne!(coach.get_threat_arrow(), "");
    let squares = app.window().global::<GameAdapter>().get_squares();
    let warned = |name: &str| squares.row_data(cell(&app, name)).is_some_and(|s| s.warned);
    assert!(warned("g5") && warned("d8") && !warned("e4"));
    assert_eq!(
        app.with_controller(|c| c.session().game().moves().len()),
        7,
        "no answer yet"
    );
    press_action(&app, Action::ShowMe);
    assert_ne!(coach.get_better(), "");
    assert_ne!(coach.get_better_arrow(), "");
    press_action(&app, Action::TakeBack);
    assert!(!coach.get_visible());
    assert_eq!(fen(&app), before);
    tap_square(&app, "d2");
    tap_square(&app, "d3");
    support::ui::pump_until("the computer's answer", Duration::from_secs(60), || {
        app.with_controller(|c| c.session().game().moves().len() == 8)
    });
    assert!(!coach.get_visible());
}

/// Help is longer than the screen: a drag scrolls it; Close (top right) goes back to the game.
fn help_scrolls_and_closes_by_touch() {
    use chesspi::app::screens::ScreenKind;
    let app = friend_game(None);
    app.update_controller(|c| {
        c.action(Action::Menu);
        c.dialog_option("help");
    });
    assert_eq!(app.with_controller(|c| c.screen()), ScreenKind::Help);
    let before = render();
    headless::drag((400.0, 400.0), (400.0, 120.0)).expect("drag");
    headless::pump_until(Duration::from_millis(600), || false);
    let after = render();
    let moved = (0..480)
        .filter(|&y| before.rgb(200, y) != after.rgb(200, y))
        .count();
    assert!(moved > 20, "the page scrolled ({moved} rows changed)");
    assert_eq!(after.rgb(708, 38), before.rgb(708, 38), "Close stays put");
    headless::tap(708.0, 38.0).expect("tap");
    assert_eq!(app.with_controller(|c| c.screen()), ScreenKind::Game);
}

/// The shown move's row is highlighted (Theme.button-pressed, #4b5463): whether any of it is
/// in the move list's part of the side panel.
fn shown_row_in_view() -> bool {
    let frame = render();
    (520..680).any(|x| (150..360).any(|y| frame.rgb(x, y) == (0x4b, 0x54, 0x63)))
}

/// The move list followed the latest move only while nobody flicked it, and lost it when a
/// notice took room above it.
fn the_move_list_keeps_the_shown_move_in_view() {
    // The Ruy Lopez, Closed, Chigorin: 25 plies, 13 rows.
    let mut game = Game::new();
    for mv in "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5a4 g8f6 e1g1 f8e7 f1e1 b7b5 a4b3 d7d6 c2c3 \
               e8g8 h2h3 c6a5 b3c2 c7c5 d2d4 d8c7 b1d2 c5d4 c3d4"
        .split_whitespace()
    {
        let mv = game.position().parse_uci_move(mv).expect("move");
        game.play(mv).expect("legal");
    }
    let mut setup = GameSetup::FIRST_START;
    setup.mode = Mode::Friend;
    let app = App::new(game, setup).expect("app");
    app.window().show().expect("window");
    headless::pump();
    assert!(shown_row_in_view(), "the latest move");
    // Review from the start: the first row comes into view, then the last again.
    app.update_controller(|c| {
        let game = c.session().game().clone();
        c.part(|v: &mut Viewing, cx| v.view_saved(cx, game, "White", "Black", None));
        c.action(Action::ReviewFirst);
        c.action(Action::ReviewForward);
    });
    headless::pump();
    assert_eq!(app.with_controller(|c| c.game_view().focus_row()), Some(0));
    assert!(shown_row_in_view(), "the first move");
    app.update_controller(|c| c.action(Action::ReviewLast));
    headless::pump();
    assert!(shown_row_in_view(), "the last move again");
    // The player flicks the list to its top: the shown move goes out of view; the next step
    // brings it back.
    headless::drag((600.0, 200.0), (600.0, 340.0)).expect("flick");
    headless::pump_until(Duration::from_millis(600), || false);
    assert!(!shown_row_in_view(), "flicked away");
    app.update_controller(|c| c.action(Action::ReviewBack));
    headless::pump();
    assert!(shown_row_in_view(), "back in view after the step");
}

/// A double tap resigned: the second tap of a double tap on "Resign" landed on "Yes, resign"
/// of the confirmation the first tap opened. For every button that opens a confirmation: a
/// second tap at once chooses nothing (a dialog takes taps from 400 ms after it appears), and
/// a later tap at the same spot does not confirm either (no confirming button sits where its
/// opener was).
fn a_dialog_ignores_the_second_tap_of_the_double_tap_that_opened_it() {
    let app = friend_game(None);
    let dialog = app.window().global::<DialogAdapter>();
    press_action(&app, Action::ResignOrDraw);
    assert_eq!(dialog.get_title(), "Resign or draw?");
    let (x, y) = dialog_option_point(&app, "resign");
    headless::tap(x, y).expect("tap");
    assert_eq!(
        dialog.get_title(),
        "Resign or draw?",
        "a tap as the dialog opens chooses nothing"
    );

    type Open = fn(&App) -> (f32, f32);
    let openers: [(&str, Open, &str); 3] = [
        (
            "Resign",
            |app| {
                app.update_controller(|c| c.action(Action::ResignOrDraw));
                dialog_settles();
                dialog_option_point(app, "resign")
            },
            "Resign this game?",
        ),
        (
            "Shut down",
            |app| {
                app.update_controller(|c| {
                    c.allow(Allow::Shutdown);
                    c.action(Action::Menu);
                });
                dialog_settles();
                menu_option_point(app, "shutdown")
            },
            "Shut down ChessPI?",
        ),
        (
            "Delete",
            |app| {
                app.update_controller(|c| {
                    c.go(Go::Dialog(Dialog::SavedGame(SavedGameChoice {
                        id: "20261127-120000-0000000000000001".to_string(),
                        title: "White – Black, 27 Nov 2026".to_string(),
                        unfinished: false,
                        readable: true,
                    })))
                });
                dialog_settles();
                dialog_option_point(app, "delete")
            },
            "Delete this game?",
        ),
    ];
    for (opener, open, confirmation) in openers {
        let app = friend_game(None);
        let dialog = app.window().global::<DialogAdapter>();
        let (x, y) = open(&app);
        headless::tap(x, y).expect("tap");
        assert_eq!(dialog.get_title(), confirmation, "{opener} opens it");
        // From here a choice is only recorded, so a test that fails resigns nothing.
        let chosen = std::rc::Rc::new(std::cell::RefCell::new(Vec::<String>::new()));
        let record = chosen.clone();
        dialog.on_option_chosen(move |id| record.borrow_mut().push(id.to_string()));
        // The second tap of a double tap, and a tap there later: no choice under them.
        headless::tap(x, y).expect("tap");
        dialog_settles();
        headless::tap(x, y).expect("tap");
        assert_eq!(
            chosen.borrow().as_slice(),
            &[] as &[String],
            "{opener}: a tap where it was"
        );
        assert!(
            !app.with_controller(|c| c.session().game().is_over()),
            "{opener}"
        );
    }
}
