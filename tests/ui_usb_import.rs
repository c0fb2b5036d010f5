//! Saved games → From USB stick: the PGN files on a stick are listed, one is chosen, its good
//! games land in Saved games and each bad one is named with why. The stick is a folder here
//! (`UsbMedia::any_folder_is_a_stick`); finding real mount points is tested in
//! storage_archive.rs. Slint allows one platform per process: one test.

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::saving::{self, UsbMedia};
use chesspi::app::screens::ScreenKind;
use chesspi::app::ui::{DialogAdapter, GamesAdapter, StatusAdapter};
use chesspi_engine::game::Game;
use slint::{ComponentHandle, Model};
use std::fs;
use std::time::Duration;

mod support;
use support::ui::{FRIEND, pump_until};

const PATIENCE: Duration = Duration::from_secs(20);

const FILE: &str = r#"[Event "Club night"]
[White "Anna"]
[Black "Ben"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

[Event "Club night"]
[White "Ben"]
[Black "Anna"]
[Result "*"]

1. d4 d5 2. Kd2 *

[Event "Club night"]
[White "Carl"]
[Black "Dora"]
[Result "0-1"]

1. e4 e5 2. Ke3 Qxe4 0-1
"#;

#[test]
fn games_come_in_from_a_usb_stick() {
    headless::install().expect("headless");
    let state = tempfile::tempdir().expect("state");
    let media = tempfile::tempdir().expect("media");
    fs::create_dir_all(media.path().join("STICK")).expect("stick");
    fs::write(media.path().join("STICK/club.pgn"), FILE).expect("pgn");

    let (restored, mut stores, notices) = saving::open(state.path(), (Game::new(), FRIEND));
    assert!(notices.is_empty(), "{notices:?}");
    stores.usb = UsbMedia {
        root: media.path().to_path_buf(),
        any_folder_is_a_stick: true,
    };
    let app = App::new(restored.game, restored.setup).expect("app");
    app.enable_saving(stores, restored.identity).expect("saver");
    app.window().show().expect("window");
    pump_until("the first save", PATIENCE, || app.is_saved());

    app.update_controller(|c| {
        c.action(chesspi::app::screens::Action::Menu);
        c.dialog_option("games");
    });
    assert_eq!(app.with_controller(|c| c.screen()), ScreenKind::SavedGames);
    let games = app.window().global::<GamesAdapter>();
    pump_until("the stick's files", PATIENCE, || games.get_can_import());
    assert_eq!(games.get_games().row_count(), 0);
    games.invoke_import();
    headless::pump();
    let dialog = app.window().global::<DialogAdapter>();
    assert_eq!(dialog.get_title(), "From USB stick");
    let labels: Vec<String> = dialog
        .get_options()
        .iter()
        .map(|o| o.label.to_string())
        .collect();
    assert_eq!(labels, ["Close", "STICK/club.pgn"]);
    app.update_controller(|c| c.dialog_option("file0"));
    pump_until("the import's outcome", PATIENCE, || {
        dialog.get_visible() && dialog.get_message().contains("are in Saved games.")
    });
    let message = dialog.get_message().to_string();
    assert!(
        message.starts_with("2 games from club.pgn are in Saved games."),
        "{message}"
    );
    assert!(message.contains("Not added: "), "{message}");
    assert_eq!(message.lines().count(), 2, "one game refused: {message}");
    // The import speaks through its dialog alone: no notice left over the result (a second
    // "Reading…" notice once lingered there for seconds).
    let status = app.window().global::<StatusAdapter>();
    assert_eq!(
        status.get_notice(),
        "",
        "no notice over the import's result"
    );
    pump_until("the list with the two games", PATIENCE, || {
        games.get_games().row_count() == 2
    });
}
