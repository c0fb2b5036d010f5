//! The status bar follows the battery: a file source written by the test goes through the real
//! monitor thread and the event loop to the indicator and the notices.

use chesspi::app::headless;
use chesspi::app::services::start_battery;
use chesspi::app::ui::StatusAdapter;
use chesspi::app::{App, initial_game};
use chesspi::config::{BatterySourceKind, CommandLine, Config};
use chesspi::power::ShutdownCommand;
use slint::ComponentHandle;
use std::time::Duration;

fn wait(what: &str, mut done: impl FnMut() -> bool) {
    assert!(
        headless::pump_until(Duration::from_secs(10), &mut done),
        "timed out waiting for {what}"
    );
}

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
    let monitor = start_battery(&app, &config, shutdown).expect("the file source opens");
    wait("high and charging", || {
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
    wait("the fault", || !status.get_battery_visible());
    assert!(
        status.get_notice().contains("Battery level unknown"),
        "{}",
        status.get_notice()
    );

    // Low without a charger: the level and a one-time warning, which can be dismissed.
    std::fs::write(&file, "low discharging\n").expect("write");
    wait("low", || {
        status.get_battery_visible() && status.get_battery_level() == 1
    });
    assert!(!status.get_battery_charging());
    wait("the low warning", || {
        status.get_notice().contains("Battery low")
    });
    status.invoke_notice_dismissed();
    assert_eq!(status.get_notice(), "");
    monitor.stop();
}
