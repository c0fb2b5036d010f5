//! Device settings: laid over the admin config, validated, stored in the state directory, and a
//! bad file is set aside and ignored.

use std::fs;
use std::path::Path;
use std::time::Duration;

use chesspi::config::Config;
use chesspi::storage::{DeviceSettings, IdleTime, InvalidSetting, SettingsError, SettingsStore};
use chesspi_engine::level::Level;

fn admin() -> Config {
    // The admin's file, as an admin might write it: every setting different from the defaults.
    let text = "[display]\nbrightness_percent = 90\ndim_after_seconds = 60\n\
                dim_brightness_percent = 30\nblank_after_seconds = 300\n\
                [engine]\ndefault_level = 2\n";
    Config::parse(text, Path::new("/etc/chesspi/chesspi.toml")).expect("admin config")
}

#[test]
fn unset_settings_follow_the_config_and_set_ones_override_it() {
    let admin = admin();
    assert_eq!(
        DeviceSettings::default().overlay(&admin).expect("overlay"),
        admin
    );
    let settings = DeviceSettings {
        default_level: Level::new(7),
        brightness_percent: Some(20),
        dim_after: Some(IdleTime::Never),
        blank_after: Some(IdleTime::After(Duration::from_secs(45))),
        ..DeviceSettings::default()
    };
    let config = settings.overlay(&admin).expect("overlay");
    assert_eq!(config.engine.default_level, 7);
    assert_eq!(config.display.brightness_percent, 20);
    // Dimming never brightens: lowered to the new brightness.
    assert_eq!(config.display.dim_brightness_percent, 20);
    assert_eq!(config.display.dim_after, None);
    assert_eq!(config.display.blank_after, Some(Duration::from_secs(45)));
    // What the settings do not touch is the admin's.
    assert_eq!(config.engine.hash_mb, admin.engine.hash_mb);
    assert_eq!(config.battery, admin.battery);
}

#[test]
fn contradictions_are_refused_and_nothing_is_saved() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SettingsStore::new(dir.path());
    let admin = admin();
    // Blanking at 30 s while the admin dims at 60 s.
    let early_blank = DeviceSettings {
        blank_after: Some(IdleTime::After(Duration::from_secs(30))),
        ..DeviceSettings::default()
    };
    let err = store.update(&early_blank, &admin).expect_err("refused");
    assert!(
        matches!(
            err,
            SettingsError::Invalid(InvalidSetting {
                key: "blank_after_seconds",
                ..
            })
        ),
        "{err}"
    );
    let too_bright = DeviceSettings {
        brightness_percent: Some(0),
        ..DeviceSettings::default()
    };
    assert!(store.update(&too_bright, &admin).is_err());
    assert!(!store.path().exists());

    // Valid once dimming is also moved.
    let both = DeviceSettings {
        dim_after: Some(IdleTime::After(Duration::from_secs(10))),
        ..early_blank
    };
    let config = store.update(&both, &admin).expect("update");
    assert_eq!(config.display.dim_after, Some(Duration::from_secs(10)));
    assert_eq!(store.load().value, both);

    // At start-up, settings the admin's new config contradicts are ignored with a reason.
    let stricter = Config::parse(
        "[display]\ndim_after_seconds = 50\nblank_after_seconds = 0\n",
        Path::new("x"),
    )
    .expect("config");
    let (effective, problem) = DeviceSettings {
        blank_after: Some(IdleTime::After(Duration::from_secs(30))),
        ..DeviceSettings::default()
    }
    .effective(&stricter);
    assert_eq!(effective, stricter);
    assert!(problem.is_some());
}

#[test]
fn round_trip_and_the_admin_file_is_not_touched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let etc = dir.path().join("etc.toml");
    fs::write(&etc, "[engine]\ndefault_level = 2\n").expect("write");
    let admin = Config::load(&etc).expect("config");
    let state = dir.path().join("state");
    fs::create_dir(&state).expect("mkdir");
    let store = SettingsStore::new(&state);
    let settings = DeviceSettings {
        default_level: Level::new(9),
        brightness_percent: Some(55),
        dim_after: None,
        blank_after: Some(IdleTime::Never),
        ..DeviceSettings::default()
    };
    let config = store.update(&settings, &admin).expect("update");
    assert_eq!(config.engine.default_level, 9);
    let loaded = store.load();
    assert!(loaded.recovered.is_none());
    assert_eq!(loaded.value, settings);
    assert_eq!(
        fs::read_to_string(&etc).expect("read"),
        "[engine]\ndefault_level = 2\n"
    );
    assert_eq!(store.path(), state.join("settings.toml"));
}

#[test]
fn damaged_file_is_set_aside_and_ignored() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = SettingsStore::new(dir.path());
    let settings = DeviceSettings {
        default_level: Level::new(3),
        ..DeviceSettings::default()
    };
    store.update(&settings, &admin()).expect("update");
    let good = fs::read(store.path()).expect("read");
    // Every truncation, an empty file, garbage, and a hand edit.
    let mut bad_files: Vec<Vec<u8>> = (0..good.len()).map(|n| good[..n].to_vec()).collect();
    bad_files.push(b"\x00\x01garbage".to_vec());
    bad_files.push(
        String::from_utf8(good.clone())
            .expect("text")
            .replace("default_level = 3", "default_level = 4")
            .into_bytes(),
    );
    for bad in bad_files {
        fs::write(store.path(), &bad).expect("write");
        let loaded = store.load();
        assert_eq!(loaded.value, DeviceSettings::default());
        let recovery = loaded.recovered.expect("recovered");
        let aside = recovery.quarantined_path.as_ref().expect("set aside");
        assert_eq!(fs::read(aside).expect("read"), bad);
        fs::remove_file(aside).expect("clean up");
    }
}
