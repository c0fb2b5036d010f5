//! Battery sources against files in a temporary directory, and `gpio` off a Raspberry Pi.

use std::fs;
use std::path::Path;

use chesspi::battery::{
    BatteryFault, BatteryLevel, BatteryReading, BatterySource, BatteryStatus, FileSource,
    PercentThresholds, SysfsSource, open_source,
};
use chesspi::config::{BatterySourceKind, Config, SysfsBatteryConfig};

const T: PercentThresholds = PercentThresholds {
    low: 20,
    critical: 5,
};

fn level(level: BatteryLevel, charging: Option<bool>) -> BatteryStatus {
    BatteryStatus::Level(BatteryReading { level, charging })
}

fn write_supply(dir: &Path, capacity: &str, status: &str) {
    fs::write(dir.join("capacity"), format!("{capacity}\n")).expect("capacity");
    fs::write(dir.join("status"), format!("{status}\n")).expect("status");
}

#[test]
fn sysfs_source_reads_capacity_and_status() {
    let dir = tempfile::tempdir().expect("tempdir");
    fs::write(dir.path().join("type"), "Battery\n").expect("type");
    write_supply(dir.path(), "80", "Discharging");
    let config = SysfsBatteryConfig {
        path: Some(dir.path().to_path_buf()),
        low_percent: 20,
        critical_percent: 5,
    };
    let mut source = SysfsSource::open(&config).expect("opens");
    assert_eq!(source.read(), Ok(level(BatteryLevel::High, Some(false))));
    write_supply(dir.path(), "15", "Charging");
    assert_eq!(source.read(), Ok(level(BatteryLevel::Low, Some(true))));
    write_supply(dir.path(), "100", "Full");
    assert_eq!(source.read(), Ok(level(BatteryLevel::Full, Some(true))));
    write_supply(dir.path(), "50", "Unknown");
    assert_eq!(source.read(), Ok(level(BatteryLevel::Medium, None)));
    fs::write(dir.path().join("health"), "Dead\n").expect("health");
    assert!(matches!(
        source.read(),
        Ok(BatteryStatus::Fault(BatteryFault::Reported(_)))
    ));
    fs::remove_file(dir.path().join("health")).expect("rm");
    write_supply(dir.path(), "lots", "Unknown");
    let err = source.read().expect_err("not a number");
    assert!(err.to_string().contains("not a percentage"), "{err}");
}

#[test]
fn sysfs_source_without_capacity_fails_to_open() {
    let dir = tempfile::tempdir().expect("tempdir");
    let config = SysfsBatteryConfig {
        path: Some(dir.path().join("BAT0")),
        low_percent: 20,
        critical_percent: 5,
    };
    assert!(SysfsSource::open(&config).is_err());
}

#[test]
fn file_source_follows_the_file_live() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("battery");
    let mut source = FileSource::new(path.clone(), T);
    assert!(
        source.read().is_err(),
        "missing file is an error (shown as unknown)"
    );
    fs::write(&path, "high\n").expect("write");
    assert_eq!(source.read(), Ok(level(BatteryLevel::High, None)));
    fs::write(&path, "critical discharging\n").expect("write");
    assert_eq!(
        source.read(),
        Ok(level(BatteryLevel::Critical, Some(false)))
    );
    fs::write(&path, "66%\n").expect("write");
    assert_eq!(source.read(), Ok(level(BatteryLevel::Medium, None)));
    // Hysteresis: 67 % is "high" on its own, but not right after "medium".
    fs::write(&path, "67%\n").expect("write");
    assert_eq!(source.read(), Ok(level(BatteryLevel::Medium, None)));
    fs::write(&path, "nonsense\n").expect("write");
    let err = source.read().expect_err("bad content");
    assert!(
        err.to_string().contains("unknown battery level `nonsense`"),
        "{err}"
    );
}

#[test]
fn none_source_opens_nothing() {
    let mut config = Config::default().battery;
    config.source = BatterySourceKind::None;
    assert!(matches!(open_source(&config), Ok(None)));
}

/// Off a Raspberry Pi (CI, desktops, qemu) `gpio` must fail with a message that says what to do;
/// on a Pi it opens. Either way nothing panics.
#[test]
fn gpio_source_fails_clearly_off_a_raspberry_pi() {
    let config = Config::default().battery;
    assert_eq!(config.source, BatterySourceKind::Gpio);
    let on_a_pi =
        fs::read_to_string("/proc/device-tree/model").is_ok_and(|m| m.starts_with("Raspberry Pi"));
    match open_source(&config) {
        Ok(source) => assert!(on_a_pi && source.is_some()),
        Err(e) => {
            assert!(!on_a_pi, "gpio failed on a Pi: {e}");
            let message = e.to_string();
            assert!(
                message.starts_with("battery source gpio: GPIO unavailable"),
                "{message}"
            );
            assert!(message.contains("battery.source"), "{message}");
        }
    }
}
