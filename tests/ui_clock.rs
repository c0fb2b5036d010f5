//! Timed games on the real UI, headless: started the way `chesspi --new MODE --clock M+S` starts
//! them (the command line parsed, the game in progress restored and then stored in Saved
//! games), the clocks shown and running in each local mode, paused by the Menu, and the flag
//! falling. A flag needs a clock near zero: the test writes an autosave with 1.5 s left and
//! restores it the way the app does after a power cut, instead of waiting out a whole minute.
//! Slint allows one platform per process, so the scenarios run one after the other.

use chesspi::app::boot::headless;
use chesspi::app::model::mode::{GameSetup, Mode};
use chesspi::app::ui::GameAdapter;
use chesspi::app::{App, boot::start, initial_game, saving};
use chesspi::cli::{self, Command};
use chesspi::storage::{Archive, AutosaveStore, Clocks, GameMode, GameSummary, SavedGame};
use chesspi_engine::game::Game;
use chesspi_engine::level::Level;
use chesspi_engine::{Color, Position};
use slint::ComponentHandle;
use std::path::Path;
use std::time::{Duration, Instant};

mod support;
use support::ui::{pump_until, tap_square};

/// Starts the app on the state in `dir` as `chesspi ARGS` does: the autosave restored with
/// its clocks, saving on, then the `--new` game (if asked for) started over it.
fn start(dir: &Path, args: &[&str]) -> App {
    let Ok(Command::Run(options)) = cli::parse(args.iter().copied()) else {
        panic!("{args:?} is a command line to run the app");
    };
    let (restored, stores, notices) = saving::open(dir, (Game::new(), GameSetup::FIRST_START));
    assert!(notices.is_empty(), "{notices:?}");
    let app = App::new(restored.game.clone(), restored.setup).expect("app");
    let clocks = restored.clocks.clone();
    app.update_controller(|c| {
        start::restore_view(c, restored.flipped, restored.rated, clocks, restored.coach);
    });
    app.enable_saving(stores, restored.identity).expect("saver");
    if let Some(new) = options.new_game {
        let (game, _) = initial_game(options.fen.as_deref()).expect("a valid FEN");
        let form = new.form(Level::DEFAULT);
        app.update_controller(|c| c.start_new_game(&form, game));
    }
    app.window().show().expect("window");
    pump_until("the first save", Duration::from_secs(5), || app.is_saved());
    app
}

/// (text, running) of the clock in the top and the bottom player line.
fn clocks(app: &App) -> [(String, bool); 2] {
    let a = app.window().global::<GameAdapter>();
    [a.get_top_player(), a.get_bottom_player()].map(|p| (p.clock.to_string(), p.clock_running))
}

fn remaining(app: &App, color: Color) -> Duration {
    app.with_controller(|c| {
        c.session()
            .clock()
            .expect("a timed game")
            .remaining(color, Instant::now())
    })
}

fn result(app: &App) -> (String, String) {
    let a = app.window().global::<GameAdapter>();
    (
        a.get_result_title().to_string(),
        a.get_result_reason().to_string(),
    )
}

/// Against the computer: the game in progress goes to Saved games, the new one starts with
/// both clocks at 1:00, the player's running; the computer's runs while it thinks; the Menu
/// stops the clock and closing it runs it again.
fn against_the_computer(dir: &Path) {
    // A game in progress that `--new` must not lose.
    let mut autosave = AutosaveStore::new(dir);
    let mut under_way = Game::new();
    for uci in ["e2e4", "c7c5"] {
        let mv = under_way.position().parse_uci_move(uci).expect("legal");
        under_way.play(mv).expect("legal");
    }
    autosave
        .save(&SavedGame::new(GameMode::TwoPlayers, under_way))
        .expect("autosave");

    let app = start(
        dir,
        &[
            "--new", "computer", "--color", "white", "--level", "1", "--clock", "1+0",
        ],
    );
    let stored = Archive::open(dir).expect("archive").list().expect("list");
    assert_eq!(stored.len(), 1, "the game in progress is in Saved games");
    let GameSummary::Game(header) = &stored[0] else {
        panic!("a readable game: {stored:?}");
    };
    assert!(header.is_unfinished() && header.plies == 2, "{header:?}");
    assert!(app.with_controller(|c| c.session().game().moves().is_empty()));
    assert_eq!(
        app.with_controller(|c| c.session().setup().mode),
        Mode::Computer {
            human: Color::White
        }
    );
    assert_eq!(
        clocks(&app),
        [("1:00".to_string(), false), ("1:00".to_string(), true)],
        "the computer's clock on top, the player's below and running"
    );
    tap_square(&app, "e2");
    tap_square(&app, "e4");
    pump_until("the player's clock stops", Duration::from_secs(2), || {
        !clocks(&app)[1].1
    });
    pump_until("the computer answers", Duration::from_secs(10), || {
        app.with_controller(|c| c.session().game().moves().len()) == 2 && app.is_saved()
    });
    assert!(
        remaining(&app, Color::Black) < Duration::from_secs(60),
        "the computer's clock ran while it thought"
    );
    assert!(clocks(&app)[1].1, "the player's clock runs again");
    // A second and a bit later the player's clock shows it.
    pump_until("the clock ticks down", Duration::from_secs(3), || {
        clocks(&app)[1].0 == "0:59"
    });
    // The Menu stops it; the time stays where it was.
    app.update_controller(|c| c.action(chesspi::app::screens::Action::Menu));
    headless::pump();
    let paused = remaining(&app, Color::White);
    assert_eq!(clocks(&app).map(|(_, running)| running), [false, false]);
    std::thread::sleep(Duration::from_millis(1200));
    headless::pump();
    assert_eq!(
        remaining(&app, Color::White),
        paused,
        "a paused clock keeps its time"
    );
    app.update_controller(|c| c.dialog_option("close"));
    headless::pump();
    assert!(clocks(&app)[1].1, "closing the Menu runs the clock again");
}

/// Two players: each move presses the clock.
fn two_players(dir: &Path) {
    let app = start(dir, &["--new", "friend", "--clock", "3+2"]);
    assert_eq!(
        app.with_controller(|c| c.session().setup().mode),
        Mode::Friend
    );
    assert_eq!(clocks(&app)[1], ("3:00".to_string(), true));
    // The game started by the first test was stored before this one replaced it.
    assert_eq!(
        Archive::open(dir)
            .expect("archive")
            .list()
            .expect("list")
            .len(),
        2
    );
    std::thread::sleep(Duration::from_millis(300));
    tap_square(&app, "d2");
    tap_square(&app, "d4");
    // The screen shows a move once it is saved.
    pump_until(
        "Black's clock runs after White's move",
        Duration::from_secs(3),
        || {
            let [black, white] = clocks(&app);
            black.1 && !white.1
        },
    );
    let white = clocks(&app)[1].clone();
    // White's clock gained the 2 s increment: more than the 3 minutes it started with.
    assert!(remaining(&app, Color::White) > Duration::from_secs(181));
    assert_eq!(white.0, "3:02");
}

/// Demo: the computer plays both sides on their clocks.
fn demo(dir: &Path) {
    let app = start(dir, &["--new", "demo", "--level", "1", "--clock", "1+0"]);
    pump_until("the demo plays six moves", Duration::from_secs(15), || {
        app.with_controller(|c| c.session().game().moves().len()) >= 6
    });
    for color in [Color::White, Color::Black] {
        assert!(
            remaining(&app, color) < Duration::from_secs(60),
            "{color:?} used time"
        );
    }
    assert!(
        clocks(&app).iter().any(|&(_, running)| running),
        "a clock runs: {:?}",
        clocks(&app)
    );
    assert_eq!(
        app.with_controller(|c| c.session().clock().map(|k| k.after_moves().len())),
        Some(app.with_controller(|c| c.session().game().moves().len())),
        "every move pressed the clock"
    );
}

/// An autosave of a timed two-player game from `fen` with White (to move) at 1.5 s.
fn save_nearly_out_of_time(dir: &Path, fen: &str) {
    let game = Game::from_position(Position::from_fen(fen).expect("FEN"));
    let mut saved = SavedGame::new(GameMode::TwoPlayers, game);
    saved.clocks = Some(Clocks {
        white: Duration::from_millis(1500),
        black: Duration::from_secs(40),
        increment: Duration::ZERO,
        base: Duration::from_secs(60),
        after_moves: Vec::new(),
    });
    AutosaveStore::new(dir).save(&saved).expect("autosave");
}

/// The flag falls on a restored game: Black wins on time, or it is a draw when Black has no
/// mating material (FIDE 6.9).
fn the_flag_falls(dir: &Path) {
    save_nearly_out_of_time(dir, "4k3/8/8/8/8/8/3P4/4K3 w - - 0 40");
    let app = start(dir, &[]);
    let white = clocks(&app)[1].0.clone();
    assert!(white.starts_with("0:01."), "tenths under 10 s: {white}");
    back_at_the_board(&app);
    pump_until("White's flag falls", Duration::from_secs(4), || {
        !result(&app).1.is_empty()
    });
    assert_eq!(result(&app).1, "on time");
    // Black has a lone king: it cannot mate, so White's flag draws.
    assert_eq!(result(&app).0, "Draw", "timeout vs insufficient material");

    let app = start_after_flag(dir, "4k3/4p3/8/8/8/8/3P4/4K3 w - - 0 40");
    assert_eq!(
        result(&app),
        ("Black wins".to_string(), "on time".to_string()),
        "a pawn can still mate"
    );
}

/// After a restart the player's clock waits, paused, for a touch of the board.
fn back_at_the_board(app: &App) {
    let status = || {
        app.window()
            .global::<GameAdapter>()
            .get_status()
            .replace('\u{a0}', " ")
            .to_string()
    };
    assert_eq!(status(), "Clock paused — touch the board to go on");
    let before = remaining(app, Color::White);
    headless::pump_until(Duration::from_millis(300), || false);
    assert_eq!(remaining(app, Color::White), before, "held: not running");
    assert!(!clocks(app)[1].1, "not lit while held");
    tap_square(app, "a4");
    assert!(clocks(app)[1].1, "running after the touch");
    assert_ne!(status(), "Clock paused — touch the board to go on");
}

fn start_after_flag(dir: &Path, fen: &str) -> App {
    // The finished game is in the archive; the next autosave is a fresh game near its flag.
    save_nearly_out_of_time(dir, fen);
    let app = start(dir, &[]);
    back_at_the_board(&app);
    pump_until("White's flag falls", Duration::from_secs(4), || {
        !result(&app).1.is_empty()
    });
    app
}

#[test]
fn clocks_in_every_local_mode_and_the_flag() {
    headless::install().expect("headless");
    let dir = tempfile::tempdir().expect("tempdir");
    let started = Instant::now();
    against_the_computer(dir.path());
    two_players(dir.path());
    demo(dir.path());
    the_flag_falls(dir.path());
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
}
