//! The battery monitor thread driven by the `file` source: levels followed live, debounce,
//! the low warning, faults, and the critical path (save, then a harmless shutdown command).

use std::fs;
use std::path::Path;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use chesspi::battery::{
    BatteryEvent, BatteryFault, BatteryLevel, BatteryMonitor, BatteryReading, BatteryStatus,
    FileSource, MonitorSettings, PercentThresholds, start_monitor,
};
use chesspi::config::{BatterySourceKind, CommandLine, Config};
use chesspi::power::ShutdownCommand;
use chesspi::storage::write_atomic;

const T: PercentThresholds = PercentThresholds {
    low: 20,
    critical: 5,
};
const WAIT: Duration = Duration::from_secs(10);

fn fast(critical_grace: Duration) -> MonitorSettings {
    MonitorSettings {
        poll_interval: Duration::from_millis(10),
        debounce: Duration::from_millis(30),
        rise_delay: Duration::from_millis(30),
        critical_grace,
    }
}

/// A shutdown command that only leaves a marker file.
fn marker_command(marker: &Path) -> ShutdownCommand {
    ShutdownCommand::new(CommandLine {
        program: "touch".into(),
        args: vec![marker.display().to_string()],
    })
}

fn next(rx: &Receiver<BatteryEvent>) -> BatteryEvent {
    rx.recv_timeout(WAIT).expect("an event within 10 s")
}

fn changed(level: BatteryLevel, charging: Option<bool>) -> BatteryEvent {
    BatteryEvent::Changed(BatteryStatus::Level(BatteryReading { level, charging }))
}

fn spawn(
    path: &Path,
    settings: MonitorSettings,
    shutdown: ShutdownCommand,
) -> (BatteryMonitor, Receiver<BatteryEvent>) {
    let (tx, rx) = channel();
    let source = Box::new(FileSource::new(path.to_path_buf(), T));
    let monitor = BatteryMonitor::spawn(source, settings, shutdown, move |e| {
        let _ = tx.send(e);
    })
    .expect("thread");
    (monitor, rx)
}

#[test]
fn follows_the_file_through_every_level() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("battery");
    fs::write(&path, "full charging\n").expect("write");
    let marker = dir.path().join("never");
    let (monitor, rx) = spawn(
        &path,
        fast(Duration::from_secs(3600)),
        marker_command(&marker),
    );
    assert_eq!(next(&rx), changed(BatteryLevel::Full, Some(true)));
    for (text, level) in [
        ("high", BatteryLevel::High),
        ("medium", BatteryLevel::Medium),
        ("low", BatteryLevel::Low),
    ] {
        write_atomic(&path, format!("{text} discharging\n").as_bytes()).expect("write");
        assert_eq!(next(&rx), changed(level, Some(false)));
    }
    assert_eq!(next(&rx), BatteryEvent::LowWarning);
    write_atomic(&path, b"fault test\n").expect("write");
    assert_eq!(
        next(&rx),
        BatteryEvent::Changed(BatteryStatus::Fault(BatteryFault::Reported("test".into())))
    );
    write_atomic(&path, b"garbage\n").expect("write");
    assert_eq!(next(&rx), changed(BatteryLevel::Unknown, None));
    monitor.stop();
    assert!(!marker.exists());
}

#[test]
fn a_short_glitch_is_never_shown() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("battery");
    fs::write(&path, "high\n").expect("write");
    let settings = MonitorSettings {
        debounce: Duration::from_millis(400),
        ..fast(Duration::from_secs(3600))
    };
    let (monitor, rx) = spawn(&path, settings, marker_command(&dir.path().join("never")));
    assert_eq!(next(&rx), changed(BatteryLevel::High, None));
    // "critical" for about one poll only: must not be shown, must not start a shutdown.
    write_atomic(&path, b"critical\n").expect("write");
    std::thread::sleep(Duration::from_millis(40));
    write_atomic(&path, b"high\n").expect("write");
    assert!(
        rx.recv_timeout(Duration::from_millis(800)).is_err(),
        "no event expected"
    );
    monitor.stop();
}

#[test]
fn critical_saves_then_runs_the_shutdown_command_after_the_grace() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("battery");
    let marker = dir.path().join("powered-off");
    let saved = dir.path().join("game.json");
    fs::write(&path, "medium\n").expect("write");
    let grace = Duration::from_millis(500);
    let (monitor, rx) = spawn(&path, fast(grace), marker_command(&marker));
    assert_eq!(next(&rx), changed(BatteryLevel::Medium, None));
    let start = Instant::now();
    write_atomic(&path, b"critical\n").expect("write");
    assert_eq!(next(&rx), changed(BatteryLevel::Critical, None));
    assert_eq!(next(&rx), BatteryEvent::Critical { shutdown_in: grace });
    // What the app does on `Critical`: save at once. The command has not run yet.
    write_atomic(&saved, b"{\"moves\":[\"e2e4\"]}").expect("save");
    assert!(!marker.exists(), "shutdown ran before the grace period");
    assert_eq!(next(&rx), BatteryEvent::ShuttingDown);
    // The event comes just before the command: wait for its marker.
    let deadline = Instant::now() + WAIT;
    while !marker.exists() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(marker.exists(), "shutdown command did not run");
    assert!(start.elapsed() >= grace);
    assert_eq!(
        fs::read(&saved).expect("saved game"),
        b"{\"moves\":[\"e2e4\"]}"
    );
    monitor.stop();
}

#[test]
fn charger_during_the_grace_cancels_the_shutdown() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("battery");
    let marker = dir.path().join("powered-off");
    fs::write(&path, "critical discharging\n").expect("write");
    let (monitor, rx) = spawn(&path, fast(Duration::from_secs(2)), marker_command(&marker));
    assert_eq!(next(&rx), changed(BatteryLevel::Critical, Some(false)));
    assert!(matches!(next(&rx), BatteryEvent::Critical { .. }));
    write_atomic(&path, b"critical charging\n").expect("write");
    assert_eq!(next(&rx), changed(BatteryLevel::Critical, Some(true)));
    assert_eq!(next(&rx), BatteryEvent::CriticalCancelled);
    assert!(rx.recv_timeout(Duration::from_millis(2500)).is_err());
    assert!(!marker.exists());
    monitor.stop();
}

#[test]
fn failing_shutdown_command_is_reported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("battery");
    fs::write(&path, "critical\n").expect("write");
    let command = ShutdownCommand::new(CommandLine {
        program: "false".into(),
        args: vec![],
    });
    let (monitor, rx) = spawn(&path, fast(Duration::ZERO), command);
    assert_eq!(next(&rx), changed(BatteryLevel::Critical, None));
    assert!(matches!(next(&rx), BatteryEvent::Critical { .. }));
    assert_eq!(next(&rx), BatteryEvent::ShuttingDown);
    assert!(matches!(next(&rx), BatteryEvent::ShutdownFailed(_)));
    monitor.stop();
}

#[test]
fn start_monitor_uses_the_configured_file_source() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("battery");
    fs::write(&path, "42% charging\n").expect("write");
    let mut config = Config::default().battery;
    config.source = BatterySourceKind::File;
    config.file.path = path;
    config.poll_interval = Duration::from_millis(100);
    config.debounce = Duration::ZERO;
    let (tx, rx) = channel();
    let monitor = start_monitor(
        &config,
        marker_command(&dir.path().join("never")),
        move |e| {
            let _ = tx.send(e);
        },
    )
    .expect("monitor");
    assert_eq!(next(&rx), changed(BatteryLevel::Medium, Some(true)));
    drop(monitor);
}

#[test]
fn start_monitor_without_a_usable_source_returns_none() {
    let mut config = Config::default().battery;
    config.source = BatterySourceKind::None;
    assert!(start_monitor(&config, marker_command(Path::new("/nonexistent")), |_| {}).is_none());
    config.source = BatterySourceKind::Sysfs;
    config.sysfs.path = Some("/nonexistent/chesspi/BAT0".into());
    assert!(start_monitor(&config, marker_command(Path::new("/nonexistent")), |_| {}).is_none());
}
