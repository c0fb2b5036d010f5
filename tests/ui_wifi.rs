//! Settings → Wi-Fi by touch, on the headless window with a simulated radio behind the real
//! Wi-Fi thread: the list, a password typed on the on-screen keyboard (refused, corrected,
//! accepted), the address shown, forgetting, and no looking while the screen is closed.

use chesspi::app::boot::headless;
use chesspi::app::ui::{DialogAdapter, WifiAdapter, WifiPage};
use chesspi::app::{App, screens::Action};
use chesspi::wifi::Ssid;
use chesspi::wifi::sim::{SimNetwork, SimulatedWifi};
use chesspi_engine::game::Game;
use slint::{ComponentHandle, Model};
use std::time::Duration;

mod support;
use support::ui::{FRIEND, pump_until};

const PATIENCE: Duration = Duration::from_secs(10);

// Where ui/wifi.slint puts things on the 800x480 screen (12 px padding, 8 px spacing): the
// 52 px header row, the status line (24 px) and the list of 56 px rows 62 px apart; on the
// password page the 52 px field row, then five rows of keys filling the rest.
const LIST_TOP: f32 = 104.0;
const ROW_PITCH: f32 = 62.0;
const JOIN: (f32, f32) = (708.0, 98.0);
const CLOSE: (f32, f32) = (708.0, 38.0);
const KEYS_TOP: f32 = 132.0;
const KEYS_BOTTOM: f32 = 468.0;
const KEYS_LEFT: f32 = 12.0;
const KEYS_WIDTH: f32 = 776.0;
const GAP: f32 = 5.0;

fn tap((x, y): (f32, f32)) {
    headless::tap(x, y).expect("tap");
}

fn wifi(app: &App) -> WifiAdapter<'_> {
    app.window().global::<WifiAdapter>()
}

fn rows(app: &App) -> Vec<String> {
    wifi(app)
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
    // A message line (about 19 px and a spacing) pushes the list down.
    let message = if wifi(app).get_message().is_empty() {
        0.0
    } else {
        27.0
    };
    tap((400.0, LIST_TOP + message + i as f32 * ROW_PITCH + 28.0));
}

/// The centre of the key `id` as the keyboard lays it out (rows of 20 units, centred).
fn key_point(app: &App, id: &str) -> (f32, f32) {
    let keys = wifi(app).get_keys();
    let count = keys.row_count() as f32;
    let row_height = (KEYS_BOTTOM - KEYS_TOP - GAP * (count - 1.0)) / count;
    let unit = (KEYS_WIDTH - 9.0 * GAP) / 20.0;
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

/// Types `text` by tapping keys, switching layers as a person would.
fn type_text(app: &App, text: &str) {
    for ch in text.chars() {
        let id = format!("c:{ch}");
        let on_screen = |app: &App| {
            wifi(app)
                .get_keys()
                .iter()
                .any(|row| row.keys.iter().any(|k| k.id == id.as_str()))
        };
        if !on_screen(app) {
            let switch = if ch.is_ascii_alphanumeric() && !ch.is_ascii_digit() {
                if ch.is_ascii_uppercase() && on_screen_lower(app, ch) {
                    "shift"
                } else {
                    "letters"
                }
            } else {
                "symbols"
            };
            tap(key_point(app, switch));
            if switch == "letters" && ch.is_ascii_uppercase() {
                tap(key_point(app, "shift"));
            }
        }
        assert!(on_screen(app), "{ch} on the keyboard");
        tap(key_point(app, &id));
    }
}

fn on_screen_lower(app: &App, ch: char) -> bool {
    let id = format!("c:{}", ch.to_ascii_lowercase());
    wifi(app)
        .get_keys()
        .iter()
        .any(|row| row.keys.iter().any(|k| k.id == id.as_str()))
}

fn ssid(name: &str) -> Ssid {
    Ssid::new(name.as_bytes()).expect("a name")
}

#[test]
fn joining_by_touch_with_a_typed_password_and_forgetting() {
    headless::install().expect("headless");
    let radio = SimulatedWifi::new(vec![
        SimNetwork {
            ssid: ssid("Home"),
            strength: 80,
            password: Some("Knight#42".into()),
        },
        SimNetwork {
            ssid: ssid("Cafe"),
            strength: 40,
            password: None,
        },
    ])
    .with_join_time(Duration::from_millis(300));
    let app = App::new(Game::new(), FRIEND).expect("app");
    app.enable_wifi(Box::new(radio.clone()))
        .expect("the Wi-Fi thread");
    app.window().show().expect("window");

    // Menu → Settings → Wi-Fi (the menu's taps are tested elsewhere).
    app.update_controller(|c| c.action(Action::Menu));
    let dialog = app.window().global::<DialogAdapter>();
    dialog.invoke_option_chosen("settings".into());
    dialog.invoke_option_chosen("wifi".into());
    pump_until("the networks", PATIENCE, || rows(&app).len() == 2);
    assert_eq!(rows(&app), ["Home", "Cafe"], "strongest first");
    assert_eq!(wifi(&app).get_status(), "Not connected.");
    assert!(radio.scans() >= 1, "opening scans");

    // A wrong password: refused, and kept on screen to correct.
    tap_row(&app, "Home");
    pump_until("the keyboard", PATIENCE, || {
        wifi(&app).get_page() == WifiPage::Password
    });
    type_text(&app, "Knight#41");
    assert_eq!(wifi(&app).get_password(), "•••••••••");
    tap(JOIN);
    pump_until("the refusal", PATIENCE, || {
        wifi(&app)
            .get_message()
            .contains("did not accept the password")
    });
    assert_eq!(wifi(&app).get_page(), WifiPage::Password);
    assert!(radio.known().is_empty(), "a wrong password is not kept");
    tap(key_point(&app, "delete"));
    type_text(&app, "2");
    tap((560.0, 98.0)); // Show
    assert_eq!(wifi(&app).get_password(), "Knight#42");
    tap(JOIN);
    pump_until("joined", PATIENCE, || {
        wifi(&app).get_status() == "Connected to Home · 192.168.4.23"
    });
    assert_eq!(wifi(&app).get_page(), WifiPage::List);
    assert_eq!(radio.known(), [ssid("Home")]);
    let home = wifi(&app).get_rows().row_data(0).expect("a row");
    assert!(home.active && home.detail == "Connected");

    // Forget it.
    tap_row(&app, "Home");
    pump_until("its choices", PATIENCE, || {
        wifi(&app).get_page() == WifiPage::Chosen
    });
    tap((142.0, 175.0)); // Forget this network
    pump_until("forgotten", PATIENCE, || {
        wifi(&app).get_message() == "Home forgotten."
    });
    assert!(radio.known().is_empty());
    assert_eq!(wifi(&app).get_status(), "Not connected.");

    // Closed: back to Settings, and the radio is left alone.
    tap(CLOSE);
    assert_eq!(
        app.window().global::<DialogAdapter>().get_title(),
        "Settings"
    );
    headless::pump_until(Duration::from_millis(500), || false);
    let looks = radio.looks();
    headless::pump_until(Duration::from_millis(4500), || false);
    assert_eq!(
        radio.looks(),
        looks,
        "no looking while the screen is closed"
    );
}
