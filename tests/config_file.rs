//! The configuration file: documented defaults, missing files, and error messages that name the
//! key, line and column.

use std::path::{Path, PathBuf};
use std::time::Duration;

use chesspi::config::{
    ActiveLevel, BacklightLocation, BatterySourceKind, Config, ConfigError, LogLevel, Pull,
    check_config, check_config_outcome,
};

fn repo_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse(text, Path::new("test.toml"))
}

fn invalid(text: &str) -> ConfigError {
    match parse(text) {
        Ok(c) => panic!("expected an error for {text:?}, got {c:?}"),
        Err(e) => e,
    }
}

#[test]
fn documented_default_file_equals_built_in_defaults() {
    let path = repo_file("config/chesspi.toml");
    let loaded = check_config(&path).expect("config/chesspi.toml is valid");
    assert_eq!(loaded, Config::default());
    assert_eq!(check_config_outcome(&path).exit_code, 0);
}

#[test]
fn defaults_have_the_documented_values() {
    let c = Config::default();
    assert_eq!(c.display.backlight, BacklightLocation::Auto);
    assert_eq!(c.display.dim_after, Some(Duration::from_secs(120)));
    assert_eq!(c.display.blank_after, Some(Duration::from_secs(600)));
    // The engine's own defaults, so a missing config plays like the engine alone.
    assert_eq!(
        c.engine.default_level,
        chesspi_engine::level::Level::DEFAULT.number()
    );
    assert_eq!(c.engine.hash_mb, chesspi_engine::search::DEFAULT_HASH_MB);
    assert_eq!(c.engine.max_think_time, Duration::from_secs(3));
    assert_eq!(c.battery.source, BatterySourceKind::Gpio);
    assert_eq!(c.battery.gpio.full.pin, 5);
    assert_eq!(c.battery.gpio.full.active, ActiveLevel::High);
    assert_eq!(c.battery.gpio.full.pull, Pull::Off);
    assert_eq!(c.battery.gpio.charging, None);
    assert_eq!(c.power.shutdown_command.program, "systemctl");
    assert_eq!(c.power.shutdown_command.args, vec!["poweroff".to_string()]);
    assert_eq!(c.storage.state_dir, None);
    assert_eq!(c.logging.level, LogLevel::Info);
    assert_eq!(c.sound.device, "default");
}

#[test]
fn the_sound_device_is_an_alsa_name() {
    let c = parse("[sound]\ndevice = \"plughw:CARD=Headphones\"\n").expect("valid");
    assert_eq!(c.sound.device, "plughw:CARD=Headphones");
    for bad in ["\"\"", "\"   \"", "\"a\\nb\""] {
        let e = invalid(&format!("[sound]\ndevice = {bad}\n"));
        assert!(e.to_string().contains("sound.device"), "{e}");
    }
    let e = invalid("[sound]\nvolume = 3\n");
    assert!(e.to_string().contains("volume"), "{e}");
}

#[test]
fn missing_file_gives_defaults_but_check_config_rejects_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("absent.toml");
    assert_eq!(Config::load(&path).expect("defaults"), Config::default());
    let outcome = check_config_outcome(&path);
    assert_eq!(outcome.exit_code, 1);
    assert!(
        outcome.message.contains("absent.toml"),
        "{}",
        outcome.message
    );
}

#[test]
fn empty_file_and_partial_sections_fill_in_defaults() {
    assert_eq!(parse("").expect("empty"), Config::default());
    let c = parse("[engine]\ndefault_level = 7\n").expect("partial");
    assert_eq!(c.engine.default_level, 7);
    assert_eq!(c.engine.hash_mb, 16);
    let c = parse("[battery.gpio]\ncharging = { pin = 26, active = \"low\", pull = \"up\" }\n")
        .expect("charging pin");
    let pin = c.battery.gpio.charging.expect("set");
    assert_eq!(
        (pin.pin, pin.active, pin.pull),
        (26, ActiveLevel::Low, Pull::Up)
    );
}

#[test]
fn unknown_key_names_key_line_and_column() {
    let e = invalid("[display]\nbrightness_percent = 50\n  dim_afterr = 3\n");
    assert_eq!(e.key(), Some("display.dim_afterr"));
    assert_eq!(e.position(), Some((3, 3)));
    let msg = e.to_string();
    assert!(
        msg.starts_with("test.toml:3:3: key `display.dim_afterr`:"),
        "{msg}"
    );
    assert!(msg.contains("unknown field"), "{msg}");
}

#[test]
fn unknown_section_is_an_error() {
    let e = invalid("[network]\nport = 1\n");
    assert_eq!(e.position().map(|p| p.0), Some(1));
    assert!(e.to_string().contains("unknown field `network`"), "{e}");
}

#[test]
fn wrong_type_names_key_line_and_column() {
    let e = invalid("[engine]\ndefault_level = \"five\"\n");
    assert_eq!(e.key(), Some("engine.default_level"));
    assert_eq!(e.position(), Some((2, 17)));
    assert!(e.to_string().contains("invalid type"), "{e}");
}

#[test]
fn out_of_range_value_names_key_line_and_column() {
    let e = invalid("# comment\n[engine]\ndefault_level = 11\n");
    assert_eq!(e.key(), Some("engine.default_level"));
    assert_eq!(e.position(), Some((3, 17)));
    assert_eq!(
        e.to_string(),
        "test.toml:3:17: key `engine.default_level`: must be 1..=10, got 11"
    );
}

#[test]
fn negative_number_for_unsigned_key_is_an_error() {
    let e = invalid("[display]\ndim_after_seconds = -5\n");
    assert_eq!(e.key(), Some("display.dim_after_seconds"));
    assert_eq!(e.position().map(|p| p.0), Some(2));
}

#[test]
fn syntax_error_gives_line_and_column() {
    let e = invalid("[display]\nbrightness_percent = = 3\n");
    assert_eq!(e.position().map(|p| p.0), Some(2));
}

#[test]
fn cross_key_rules_are_checked() {
    let e = invalid("[display]\ndim_after_seconds = 300\nblank_after_seconds = 200\n");
    assert_eq!(e.key(), Some("display.blank_after_seconds"));
    assert_eq!(e.position(), Some((3, 23)));
    let e = invalid("[battery.gpio]\nfull = { pin = 6 }\n");
    assert_eq!(e.key(), Some("battery.gpio.above_two_thirds.pin"));
    // The clashing key is not in the file: the error still names it, without a position.
    assert_eq!(e.position(), None);
    let e = invalid("[battery.gpio]\nabove_cutoff = { pin = 40 }\n");
    assert_eq!(e.key(), Some("battery.gpio.above_cutoff.pin"));
    assert_eq!(e.position(), Some((2, 24)));
    let e = invalid("[battery.gpio]\nfull = { pin = 5, active = \"hi\" }\n");
    assert_eq!(e.key(), Some("battery.gpio.full.active"));
    let e = invalid("[battery.sysfs]\nlow_percent = 10\ncritical_percent = 10\n");
    assert_eq!(e.key(), Some("battery.sysfs.critical_percent"));
}

#[test]
fn enumerated_strings_are_checked() {
    assert_eq!(
        invalid("[battery]\nsource = \"usb\"\n").key(),
        Some("battery.source")
    );
    assert_eq!(
        invalid("[logging]\nlevel = \"loud\"\n").key(),
        Some("logging.level")
    );
    assert_eq!(
        invalid("[power]\nshutdown_command = []\n").key(),
        Some("power.shutdown_command")
    );
    assert_eq!(
        invalid("[engine]\nmax_think_seconds = nan\n").key(),
        Some("engine.max_think_seconds")
    );
    assert_eq!(
        invalid("[display]\nlanguage = \"fr\"\n").key(),
        Some("display.language")
    );
    let german = parse("[display]\nlanguage = \"de\"\n").expect("valid");
    assert_eq!(
        german.display.language,
        chesspi::config::LanguageChoice::Fixed(chesspi::i18n::Language::German)
    );
}

#[test]
fn search_threads_are_every_core_unless_set_within_1_to_64() {
    assert_eq!(Config::default().engine.threads, None);
    let c = parse("[engine]\nthreads = 4\n").expect("four threads");
    assert_eq!(c.engine.threads, Some(4));
    for bad in ["0", "65", "-1", "2.5", "\"four\""] {
        assert!(
            parse(&format!("[engine]\nthreads = {bad}\n")).is_err(),
            "threads = {bad} was taken"
        );
    }
}

#[test]
fn integers_are_accepted_for_float_keys() {
    let c = parse("[engine]\nmax_think_seconds = 2\n").expect("integer seconds");
    assert_eq!(c.engine.max_think_time, Duration::from_secs(2));
}

#[test]
fn bad_file_at_start_up_falls_back_to_defaults_with_the_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("chesspi.toml");
    std::fs::write(&path, "[engine]\nhash_mb = 0\n").expect("write");
    let (config, error) = Config::load_or_defaults(&path);
    assert_eq!(config, Config::default());
    let error = error.expect("error reported");
    assert!(
        error
            .to_string()
            .contains("chesspi.toml:2:11: key `engine.hash_mb`"),
        "{error}"
    );
    let outcome = check_config_outcome(&path);
    assert_eq!((outcome.exit_code, outcome.message), (1, error.to_string()));
}

#[test]
fn garbage_never_panics() {
    for text in [
        "\u{0}",
        "[[",
        "a.b.c = [1, \"x\"",
        "[display]\n[display]\n",
        "\u{feff}x=1",
        "==",
    ] {
        assert!(parse(text).is_err(), "{text:?}");
    }
}
