//! The Settings dialog on a device: brightness and dimming change the (fake sysfs) backlight at
//! once and are stored in the state directory; the level of a new game is remembered; the
//! volume and spoken moves play through a real ALSA device (alsa-lib's `file` plugin). On a
//! desktop, without a backlight, the dialog offers no light settings.

use chesspi::app::boot::headless;
use chesspi::app::saving::Stores;
use chesspi::app::shell::device::DeviceControls;
use chesspi::app::ui::{DialogAdapter, NewGameAdapter};
use chesspi::app::{App, screens::Action};
use chesspi::config::Config;
use chesspi::power::{IdleSettings, PowerSettings, PowerWatcher, SysfsBacklight};
use chesspi::sound::{Sound, SpeakMoves, SpeakerState, Volume};
use chesspi::storage::{DeviceSettings, SettingsStore};
use chesspi_engine::game::Game;
use chesspi_engine::level::Level;
use slint::{ComponentHandle, Model};
use std::fs;
use std::path::Path;
use std::time::Duration;

mod support;
use support::ui::{FRIEND, pump_until};

/// How long the app may take for what the test waits for.
const PATIENCE: Duration = Duration::from_secs(10);

fn options(app: &App) -> Vec<(String, String)> {
    let d = app.window().global::<DialogAdapter>();
    d.get_options()
        .iter()
        .map(|o| (o.id.to_string(), o.label.to_string()))
        .collect()
}

fn choose(app: &App, id: &str) {
    app.window()
        .global::<DialogAdapter>()
        .invoke_option_chosen(id.into());
    // A choice that saves (a new game) shows once the save is on disk.
    pump_until("the save", PATIENCE, || app.is_saved());
}

fn open_settings(app: &App) {
    app.update_controller(|c| c.action(Action::Menu));
    choose(app, "settings");
    assert_eq!(
        app.window().global::<DialogAdapter>().get_title(),
        "Settings"
    );
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_default()
}

#[test]
fn settings_change_the_backlight_and_are_stored() {
    headless::install().expect("headless");
    // A desktop: no backlight to drive.
    let app = App::new(Game::new(), FRIEND).expect("app");
    app.enable_device(DeviceControls::new(
        DeviceSettings::default(),
        Config::default(),
        None,
    ));
    open_settings(&app);
    let ids: Vec<String> = options(&app).into_iter().map(|o| o.0).collect();
    assert_eq!(
        ids,
        [
            "close", "language", "book", "turn", "coach", "sound", "speak", "assist", "players",
            "about"
        ]
    );
    drop(app);

    // A device with a backlight like the official display's.
    let state = tempfile::tempdir().expect("tempdir");
    let light = tempfile::tempdir().expect("tempdir");
    fs::write(light.path().join("max_brightness"), "255\n").expect("max");
    fs::write(light.path().join("brightness"), "0\n").expect("brightness");
    let admin = Config::default();
    let watcher = PowerWatcher::spawn(
        PowerSettings {
            idle: IdleSettings {
                dim_after: admin.display.dim_after,
                blank_after: admin.display.blank_after,
            },
            brightness_percent: admin.display.brightness_percent,
            dim_percent: admin.display.dim_brightness_percent,
        },
        Some(Box::new(
            SysfsBacklight::open(light.path()).expect("backlight"),
        )),
        |_| {},
    )
    .expect("watcher");
    let brightness = light.path().join("brightness");
    pump_until("the light on", PATIENCE, || {
        read(&brightness).trim() == "255"
    });

    let app = App::new(Game::new(), FRIEND).expect("app");
    let (stores, notices) = Stores::open(state.path());
    assert!(notices.is_empty());
    app.enable_saving(stores, None).expect("saver");
    app.enable_device(DeviceControls::new(
        DeviceSettings::default(),
        admin.clone(),
        Some(watcher),
    ));
    app.window().show().expect("window");
    // Until the first save is on disk the screen does not change.
    pump_until("the first save", PATIENCE, || app.is_saved());
    open_settings(&app);
    assert_eq!(
        options(&app)[1..3],
        [
            ("brightness".to_string(), "Brightness: 100 %".to_string()),
            ("dim".to_string(), "Dim the screen after 2 min".to_string()),
        ]
    );

    // 100 % steps round to 30 %: the light follows at once, the setting is stored.
    choose(&app, "brightness");
    assert_eq!(
        options(&app)[1].1,
        "Brightness: 30 %",
        "the dialog stays open"
    );
    pump_until("the light at 30 %", PATIENCE, || {
        read(&brightness).trim() == "77"
    });
    let file = SettingsStore::new(state.path());
    pump_until("the stored brightness", PATIENCE, || {
        file.load().value.brightness_percent == Some(30)
    });
    choose(&app, "dim");
    assert_eq!(options(&app)[2].1, "Dim the screen after 5 min");
    pump_until("the stored dimming", PATIENCE, || {
        let s = file.load().value;
        s.dim_after.is_some() && s.blank_after.is_some()
    });
    let stored = file.load().value;
    let config = stored
        .overlay(&admin)
        .expect("valid against the admin's config");
    assert_eq!(config.display.dim_after, Some(Duration::from_secs(300)));
    assert_eq!(config.display.blank_after, Some(Duration::from_secs(1500)));
    assert_eq!(config.display.brightness_percent, 30);
    // The opening book: on by default; switched off for the computer's next move, and stored.
    assert!(app.with_controller(|c| c.settings().book));
    let book = |app: &App| {
        options(app)
            .into_iter()
            .find(|o| o.0 == "book")
            .map(|o| o.1)
    };
    assert_eq!(book(&app).as_deref(), Some("Opening book: on"));
    choose(&app, "book");
    assert_eq!(book(&app).as_deref(), Some("Opening book: off"));
    assert!(!app.with_controller(|c| c.settings().book));
    pump_until("the stored book setting", PATIENCE, || {
        file.load().value.opening_book == Some(false)
    });
    // Two players: the board turns to the player on move, stored like the rest.
    choose(&app, "turn");
    assert!(
        options(&app)
            .iter()
            .any(|o| o.1 == "Two players: board turns")
    );
    pump_until("the stored turning setting", PATIENCE, || {
        file.load().value.turn_board == Some(true)
    });
    // The coach new games start with: off, blunders, mistakes — stored, and New game starts
    // with it on.
    choose(&app, "coach");
    assert!(
        options(&app)
            .iter()
            .any(|o| o.1 == "Coach: warns of blunders")
    );
    pump_until("the stored coach", PATIENCE, || {
        file.load().value.coach == Some(chesspi_engine::coach::CoachLevel::Blunders)
    });
    assert_eq!(
        app.with_controller(|c| c.settings().coach),
        chesspi_engine::coach::CoachLevel::Blunders
    );
    // Sound, through ALSA into a file: each volume step plays a test sound at once and is
    // stored; after the loudest comes off. Spoken moves step the same way, with a sample.
    let out = state.path().join("sound.raw");
    let sound = Sound::start(
        &format!("file:FILE={},FORMAT=raw", out.display()),
        Volume::DEFAULT,
    );
    app.enable_sound(sound.clone());
    pump_until("the sound device open", PATIENCE, || {
        sound.speaker() == SpeakerState::Ready
    });
    let label = |app: &App, id: &str| options(app).into_iter().find(|o| o.0 == id).map(|o| o.1);
    let written = || fs::metadata(&out).map(|m| m.len()).unwrap_or(0);
    let before = written();
    // The default is 60 % (docs/BENCHMARKS.md, "Sound levels"): one step up.
    choose(&app, "sound");
    assert_eq!(label(&app, "sound").as_deref(), Some("Sound: 80 %"));
    pump_until("the test sound", PATIENCE, || written() > before + 4000);
    pump_until("the stored volume", PATIENCE, || {
        file.load().value.volume == Some(Volume::nearest(80))
    });
    for expected in ["Sound: 100 %", "Sound: off"] {
        choose(&app, "sound");
        assert_eq!(label(&app, "sound").as_deref(), Some(expected));
    }
    pump_until("the stored mute", PATIENCE, || {
        file.load().value.volume == Some(Volume::MUTE)
    });
    choose(&app, "sound");
    assert_eq!(label(&app, "sound").as_deref(), Some("Sound: 20 %"));
    assert_eq!(label(&app, "speak").as_deref(), Some("Speak moves: off"));
    let before = written();
    choose(&app, "speak");
    assert_eq!(
        label(&app, "speak").as_deref(),
        Some("Speak moves: opponent's")
    );
    pump_until("the stored speech setting", PATIENCE, || {
        file.load().value.speak_moves == Some(SpeakMoves::Opponent)
    });
    // The sample ("Knight f3") is most of a second of speech.
    pump_until("the spoken sample", PATIENCE, || {
        written() > before + 2 * 22_050 / 2
    });
    choose(&app, "speak");
    assert_eq!(label(&app, "speak").as_deref(), Some("Speak moves: all"));
    // The admin's file is never written: there is none in this test, and the store is apart.
    choose(&app, "close");

    // A new game against the computer at level 6 makes 6 the next default.
    app.update_controller(|c| c.action(Action::NewGame));
    let new_game = app.window().global::<NewGameAdapter>();
    new_game.invoke_mode_chosen("computer".into());
    new_game.invoke_level_chosen(6);
    new_game.invoke_start();
    headless::pump();
    pump_until("the stored level", PATIENCE, || {
        file.load().value.default_level == Level::new(6)
    });
    drop(app);

    // After a restart the stored setting holds: the book stays off.
    let app = App::new(Game::new(), FRIEND).expect("app");
    app.enable_device(DeviceControls::new(file.load().value, admin.clone(), None));
    assert!(
        !app.with_controller(|c| c.settings().book),
        "the book stays off"
    );
}
