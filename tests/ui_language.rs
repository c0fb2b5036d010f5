//! Settings → Language switches the whole screen at once, without a restart: the texts made in
//! Rust (status line, buttons, move list in German notation) and the ones the .slint files make
//! themselves (`@tr`, seen in the rendered pixels). The choice is stored with the device
//! settings and comes back at the next start.

use chesspi::app::boot::headless;
use chesspi::app::boot::screenshot::square_center;
use chesspi::app::model::mode::{GameSetup, NewGameForm};
use chesspi::app::saving::Stores;
use chesspi::app::shell::device::DeviceControls;
use chesspi::app::ui::{DialogAdapter, GameAdapter};
use chesspi::app::{App, screens::Action};
use chesspi::config::Config;
use chesspi::i18n::Language;
use chesspi::storage::SettingsStore;
use chesspi_engine::game::Game;
use slint::{ComponentHandle, Model};
use std::time::Duration;

mod support;
use support::ui::pump_until;

/// How long the app may take for what the test waits for.
const PATIENCE: Duration = Duration::from_secs(10);

fn choose(app: &App, id: &str) {
    app.window()
        .global::<DialogAdapter>()
        .invoke_option_chosen(id.into());
    pump_until("the save", PATIENCE, || app.is_saved());
}

fn labels(app: &App) -> Vec<String> {
    let game = app.window().global::<GameAdapter>();
    game.get_actions()
        .iter()
        .map(|a| a.label.to_string())
        .collect()
}

/// The pixels of the empty move list, where the .slint file writes "Moves appear here".
fn move_list_pixels() -> Vec<(u8, u8, u8)> {
    let (frame, _) = headless::render().expect("render");
    let mut px = Vec::new();
    for y in (200..250).step_by(2) {
        for x in (500..780).step_by(2) {
            px.push(frame.rgb(x, y));
        }
    }
    px
}

#[test]
fn the_language_switches_at_once_and_is_kept() {
    headless::install().expect("headless");
    let state = tempfile::tempdir().expect("tempdir");
    let admin = Config::default();
    // The process starts in English: `App::new` reads no locale (`app::run` does).
    assert_eq!(chesspi::i18n::language(), Language::English);

    let app = App::new(Game::new(), GameSetup::FIRST_START).expect("app");
    let (stores, _) = Stores::open(state.path());
    app.enable_saving(stores, None).expect("saver");
    let file = SettingsStore::new(state.path());
    app.enable_device(DeviceControls::new(file.load().value, admin.clone(), None));
    app.window().show().expect("window");
    pump_until("the first save", PATIENCE, || app.is_saved());
    let game = app.window().global::<GameAdapter>();
    assert_eq!(
        game.get_status().replace('\u{a0}', " "),
        "Your move — tap a piece"
    );
    let english_list = move_list_pixels();

    app.update_controller(|c| c.action(Action::Menu));
    choose(&app, "settings");
    let dialog = app.window().global::<DialogAdapter>();
    let language = |d: &DialogAdapter| {
        d.get_options()
            .iter()
            .find(|o| o.id == "language")
            .map(|o| o.label.to_string())
    };
    assert_eq!(language(&dialog).as_deref(), Some("Language: English"));
    choose(&app, "language");

    // At once: the dialog itself, then everything behind it.
    assert_eq!(dialog.get_title(), "Einstellungen");
    assert_eq!(language(&dialog).as_deref(), Some("Sprache: Deutsch"));
    choose(&app, "close");
    assert_eq!(
        game.get_status().replace('\u{a0}', " "),
        "Du bist am Zug – tippe eine Figur an"
    );
    assert_eq!(labels(&app)[0], "Neue Partie");
    let german_list = move_list_pixels();
    assert_ne!(
        english_list, german_list,
        "the .slint file's own text did not change"
    );
    // The New game screen's mode tiles (texts from Rust) switch too.
    let modes = app
        .window()
        .global::<chesspi::app::ui::NewGameAdapter>()
        .get_modes();
    assert_eq!(
        modes.row_data(0).map(|m| m.label.to_string()).as_deref(),
        Some("Gegen den Computer")
    );

    // Moves in German notation: 1. Nf3 is 1. Sf3.
    app.update_controller(|c| c.action(Action::NewGame));
    app.update_controller(|c| c.on(|f: &mut NewGameForm, _| f.choose_mode("friend")));
    app.update_controller(|c| c.on(NewGameForm::start));
    pump_until("the new game", PATIENCE, || app.is_saved());
    for square in ["g1", "f3"] {
        let sq = square.parse().expect("square");
        let (x, y) = square_center(sq, false);
        headless::tap(x, y).expect("tap");
    }
    pump_until("the move saved", PATIENCE, || {
        app.is_saved() && game.get_moves().row_count() == 1
    });
    let rows = game.get_moves();
    assert_eq!(
        rows.row_data(0).map(|r| r.white.to_string()).as_deref(),
        Some("Sf3")
    );

    // Stored with the device settings, and the next start speaks German.
    pump_until("the stored language", PATIENCE, || {
        file.load().value.language == Some(Language::German)
    });
    let (config, error) = file.load().value.effective(&admin);
    assert!(error.is_none());
    assert_eq!(config.display.language.resolve(), Language::German);

    // And back: English again, the move list in English notation.
    app.update_controller(|c| c.action(Action::Menu));
    choose(&app, "settings");
    choose(&app, "language");
    assert_eq!(dialog.get_title(), "Settings");
    choose(&app, "close");
    let rows = game.get_moves();
    assert_eq!(
        rows.row_data(0).map(|r| r.white.to_string()).as_deref(),
        Some("Nf3")
    );
    assert_eq!(move_list_pixels().len(), english_list.len());
}
