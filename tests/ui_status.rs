//! The status bar follows the battery: a file source written by the test goes through the real
//! monitor thread and the event loop to the indicator and the notices.

use chesspi::app::boot::headless;
use chesspi::app::boot::start::start_battery;
use chesspi::app::model::mode::NewGameForm;
use chesspi::app::ui::StatusAdapter;
use chesspi::app::{App, initial_game, screens::Action};
use chesspi::config::{BatterySourceKind, CommandLine, Config};
use chesspi::power::ShutdownCommand;
use slint::ComponentHandle;
use std::time::Duration;

mod support;
use support::ui::pump_until;

/// Theme.danger (ui/theme.slint): the critical notice's background.
const DANGER: (u8, u8, u8) = (0xd9, 0x53, 0x4f);

/// How long the app may take for what the test waits for.
const PATIENCE: Duration = Duration::from_secs(15);

#[test]
fn battery_level_charging_fault_and_low_warning_reach_the_status_bar() {
    headless::install().expect("headless");
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("battery");
    std::fs::write(&file, "high charging\n").expect("write");

    let mut config = Config::default();
    config.battery.source = BatterySourceKind::File;
    config.battery.file.path = file.clone();
    config.battery.poll_interval = Duration::from_millis(20);
    config.battery.debounce = Duration::ZERO;
    config.battery.rise_delay = Duration::ZERO;
    config.battery.critical_grace = Duration::from_secs(3);
    let (game, setup) = initial_game(None).expect("start");
    let app = App::new(game, setup).expect("app");
    app.window().show().expect("window");
    let status = app.window().global::<StatusAdapter>();
    assert!(!status.get_battery_visible(), "hidden while unknown");

    // `true` stands in for the shutdown command: the critical path is not exercised here.
    let shutdown = ShutdownCommand::new(CommandLine {
        program: "true".into(),
        args: Vec::new(),
    });
    let monitor = start_battery(&app, &config, shutdown, chesspi::sound::Sound::silent())
        .expect("the file source opens");
    pump_until("high and charging", PATIENCE, || {
        status.get_battery_visible() && status.get_battery_level() == 3
    });
    assert!(status.get_battery_charging());
    headless::render()
        .expect("render")
        .0
        .save_png(&std::env::temp_dir().join("chesspi-battery.png"))
        .expect("png");

    // Contradictory readings: no level is shown, and the user is told.
    std::fs::write(&file, "fault comparators disagree\n").expect("write");
    pump_until("the fault", PATIENCE, || !status.get_battery_visible());
    assert!(
        status.get_notice().contains("Battery level unknown"),
        "{}",
        status.get_notice()
    );

    // Low without a charger: the level and a one-time warning, which can be dismissed.
    std::fs::write(&file, "low discharging\n").expect("write");
    pump_until("low", PATIENCE, || {
        status.get_battery_visible() && status.get_battery_level() == 1
    });
    assert!(!status.get_battery_charging());
    pump_until("the low warning", PATIENCE, || {
        status.get_notice().contains("Battery low")
    });
    status.invoke_notice_dismissed();
    assert_eq!(status.get_notice(), "");

    // Critical: a countdown that counts, above the news of a game that ends meanwhile, and
    // not dismissable.
    std::fs::write(&file, "critical discharging\n").expect("write");
    pump_until("the countdown", PATIENCE, || {
        status.get_notice().contains("Switching off in 3 s")
    });
    assert!(status.get_notice_critical());
    // A screen that covers the side panel (New game) does not hide it: it is drawn on top,
    // in the danger colour, where the screen's title would be.
    let top_left = || headless::render().expect("render").0.rgb(6, 6);
    assert_ne!(top_left(), DANGER, "no notice bar over the board");
    app.update_controller(|c| c.action(Action::NewGame));
    assert_eq!(
        top_left(),
        DANGER,
        "the critical notice is hidden by New game"
    );
    app.update_controller(|c| c.on(NewGameForm::cancel));
    app.notices().inform("Your rating: 1200 → 1224");
    status.invoke_notice_dismissed();
    assert!(status.get_notice().contains("Switching off in"));
    pump_until("the countdown counting", PATIENCE, || {
        status.get_notice().contains("Switching off in 2 s")
    });
    // Charging cancels it; the low warning is gone with the charger too.
    std::fs::write(&file, "critical charging\n").expect("write");
    pump_until("the cancel", PATIENCE, || {
        !status.get_notice().contains("Switching off")
    });
    assert!(!status.get_notice_critical());
    pump_until("the news going by itself", PATIENCE, || {
        status.get_notice().is_empty()
    });
    monitor.stop();
}
