//! Settings → Players by touch, on the headless window with the real saver: a player added
//! and renamed on the on-screen keyboard (a name taken, ignoring case, refused in words), made
//! the one playing, then removed after the confirmation — the guest then plays, and her
//! folder is gone. The players file on disk is read after each change.

mod support;

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::screens::{Action, ScreenKind};
use chesspi::app::ui::{DialogAdapter, PlayersAdapter, PlayersPage, StatusAdapter};
use chesspi::storage::Who;
use chesspi::storage::players::{PlayerFiles, Roster};
use chesspi::storage::stats::Stats;
use slint::{ComponentHandle, Model};
use std::time::Duration;
use support::ui::{against_the_computer, dialog_settles, menu_option_point, pump_until, start_app};

const PATIENCE: Duration = Duration::from_secs(20);

// Where ui/players.slint puts things on the 800x480 screen (12 px padding, 8 px spacing):
// the 52 px header row with Close or Cancel on its right; on the list, rows of 40 px 44 px
// apart from y = 72 on the left and the buttons, 56 px tall and 64 px apart, in the right
// 240 px; on the name page the 52 px name row with OK, a 24 px line, then five rows of keys
// filling the rest, 22 units to a row.
const CANCEL: (f32, f32) = (708.0, 38.0);
const OK: (f32, f32) = (708.0, 98.0);
const PLAY_NOW: (f32, f32) = (668.0, 100.0);
const ADD: (f32, f32) = (668.0, 164.0);
const RENAME: (f32, f32) = (668.0, 228.0);
const REMOVE: (f32, f32) = (668.0, 292.0);
const ROWS_TOP: f32 = 72.0;
const ROW_PITCH: f32 = 44.0;
const KEYS_TOP: f32 = 164.0;
const KEYS_BOTTOM: f32 = 468.0;
const KEYS_LEFT: f32 = 12.0;
const KEYS_WIDTH: f32 = 776.0;
const GAP: f32 = 5.0;

fn tap((x, y): (f32, f32)) {
    headless::tap(x, y).expect("tap");
}

fn players(app: &App) -> PlayersAdapter<'_> {
    app.window().global::<PlayersAdapter>()
}

fn rows(app: &App) -> Vec<String> {
    players(app)
        .get_rows()
        .iter()
        .map(|r| r.name.to_string())
        .collect()
}

fn tap_row(app: &App, name: &str) {
    let i = rows(app)
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("{name} not in the list"));
    tap((200.0, ROWS_TOP + i as f32 * ROW_PITCH + 20.0));
    assert!(
        players(app)
            .get_rows()
            .row_data(i)
            .expect("the row")
            .selected,
        "{name} chosen"
    );
}

/// The centre of the key `id` as the keyboard lays it out (rows of `units`, centred).
fn key_point(app: &App, id: &str) -> (f32, f32) {
    let keys = players(app).get_keys();
    let units = players(app).get_units() as f32;
    let count = keys.row_count() as f32;
    let row_height = (KEYS_BOTTOM - KEYS_TOP - GAP * (count - 1.0)) / count;
    let unit = (KEYS_WIDTH - (units / 2.0 - 1.0) * GAP) / units;
    for (r, row) in keys.iter().enumerate() {
        let widths: Vec<f32> = row
            .keys
            .iter()
            .map(|k| unit * k.width as f32 + (k.width as f32 / 2.0 - 1.0) * GAP)
            .collect();
        let total = widths.iter().sum::<f32>() + GAP * (widths.len() as f32 - 1.0);
        let mut x = KEYS_LEFT + (KEYS_WIDTH - total) / 2.0;
        for (k, w) in row.keys.iter().zip(&widths) {
            if k.id == id {
                let y = KEYS_TOP + r as f32 * (row_height + GAP) + row_height / 2.0;
                return (x + w / 2.0, y);
            }
            x += w + GAP;
        }
    }
    panic!("no key {id}")
}

fn on_screen(app: &App, id: &str) -> bool {
    players(app)
        .get_keys()
        .iter()
        .any(|row| row.keys.iter().any(|k| k.id == id))
}

/// Types `text` by tapping keys: shift before a capital.
fn type_text(app: &App, text: &str) {
    for ch in text.chars() {
        let id = if ch == ' ' {
            "space".to_string()
        } else {
            format!("c:{ch}")
        };
        if !on_screen(app, &id) {
            tap(key_point(app, "shift"));
        }
        assert!(on_screen(app, &id), "{ch} on the keyboard");
        tap(key_point(app, &id));
    }
}

/// The players file as it is on disk, once it names exactly `names`.
fn on_disk(files: &PlayerFiles, names: &[&str]) -> Roster {
    let mut roster = Roster::default();
    pump_until(
        &format!("the players file with {names:?}"),
        PATIENCE,
        || {
            roster = files.roster_store().load().value;
            let kept: Vec<&str> = roster.players().iter().map(|p| p.name.as_str()).collect();
            kept == names
        },
    );
    roster
}

#[test]
fn players_are_added_renamed_and_removed_by_touch() {
    headless::install().expect("headless");
    let state = tempfile::tempdir().expect("state");
    let files = PlayerFiles::new(state.path());
    let app = start_app(state.path(), against_the_computer(3), PATIENCE);

    // Menu → Settings, then its "Players…" tapped.
    app.update_controller(|c| {
        c.action(Action::Menu);
        c.dialog_option("settings");
    });
    dialog_settles();
    // Settings has a line under its title (a 20 px line and 10 px spacing) that the menu
    // has not.
    assert!(
        !app.window()
            .global::<DialogAdapter>()
            .get_message()
            .is_empty()
    );
    let (x, y) = menu_option_point(&app, "players");
    tap((x, y + 30.0));
    assert_eq!(app.with_controller(|c| c.screen()), ScreenKind::Players);
    assert!(!app.window().global::<DialogAdapter>().get_visible());
    assert_eq!(players(&app).get_title(), "Players");
    assert_eq!(rows(&app), ["Player 1", "Guest"]);
    assert!(players(&app).get_rows().row_data(0).expect("a row").playing);

    // Anna is added.
    tap(ADD);
    assert_eq!(players(&app).get_page(), PlayersPage::Name);
    assert_eq!(players(&app).get_title(), "Add a player");
    type_text(&app, "Anna");
    assert_eq!(players(&app).get_name(), "Anna");
    tap(OK);
    assert_eq!(players(&app).get_page(), PlayersPage::List);
    assert_eq!(rows(&app), ["Player 1", "Anna", "Guest"]);
    assert_eq!(players(&app).get_message(), "Anna added.");
    let anna = on_disk(&files, &["Player 1", "Anna"]).players()[1].id;

    // Her name again, in other letters' case: refused, and said why; the page stays.
    tap(ADD);
    type_text(&app, "aNNA");
    tap(OK);
    assert_eq!(players(&app).get_page(), PlayersPage::Name);
    assert_eq!(
        players(&app).get_message(),
        "Another player already has this name."
    );
    assert!(players(&app).get_alert());
    let status = app.window().global::<StatusAdapter>();
    assert_eq!(status.get_notice(), "", "nothing covers Cancel");
    tap(CANCEL);
    assert_eq!(rows(&app), ["Player 1", "Anna", "Guest"]);

    // Anna becomes Änne, taken with the keyboard's Done.
    tap_row(&app, "Anna");
    tap(RENAME);
    assert_eq!(players(&app).get_title(), "Rename Anna");
    assert_eq!(players(&app).get_name(), "Anna");
    for _ in 0..4 {
        tap(key_point(&app, "delete"));
    }
    type_text(&app, "Änne");
    tap(key_point(&app, "done"));
    assert_eq!(players(&app).get_page(), PlayersPage::List);
    assert_eq!(rows(&app), ["Player 1", "Änne", "Guest"]);
    on_disk(&files, &["Player 1", "Änne"]);

    // She plays now; her record has a folder of its own.
    tap(PLAY_NOW);
    pump_until("her turn at the device", PATIENCE, || {
        files.roster_store().load().value.last() == Who::Player(anna)
    });
    assert_eq!(status.get_notice(), "Änne is playing now.");
    files.save_stats(anna, &Stats::new()).expect("her record");
    assert!(files.dir(anna).is_dir());

    // Removed, after the confirmation: her folder goes, the guest plays.
    tap_row(&app, "Änne");
    tap(REMOVE);
    let dialog = app.window().global::<DialogAdapter>();
    assert!(dialog.get_visible());
    assert_eq!(dialog.get_title(), "Remove a player?");
    assert_eq!(
        dialog.get_message(),
        "Remove Änne? Their record and puzzles are deleted; their saved games stay."
    );
    dialog_settles();
    dialog.invoke_option_chosen("remove".into());
    headless::pump();
    assert_eq!(rows(&app), ["Player 1", "Guest"]);
    assert!(
        players(&app)
            .get_rows()
            .row_data(1)
            .expect("the guest")
            .playing
    );
    let kept = on_disk(&files, &["Player 1"]);
    pump_until("her folder gone", PATIENCE, || !files.dir(anna).exists());
    pump_until("the guest's turn", PATIENCE, || {
        files.roster_store().load().value.last() == Who::Guest
    });
    assert_eq!(kept.players()[0].name.as_str(), "Player 1");
    assert_eq!(status.get_notice(), "Guest is playing now.");
}
