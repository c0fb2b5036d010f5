//! The `[lan]` config section: documented defaults, valid settings, and errors that name the
//! key, line and column.

use std::net::{IpAddr, SocketAddr};
use std::path::Path;

use chesspi::config::{Config, ConfigError, DEFAULT_ADJOURN_AFTER, PairingCode, check_config};
use std::time::Duration;

fn parse(text: &str) -> Result<Config, ConfigError> {
    Config::parse(text, Path::new("test.toml"))
}

fn invalid(text: &str) -> ConfigError {
    match parse(text) {
        Ok(c) => panic!("expected an error for {text:?}, got {:?}", c.lan),
        Err(e) => e,
    }
}

#[test]
fn defaults_are_the_documented_ones() {
    let lan = Config::default().lan;
    assert_eq!(lan.name, None);
    assert_eq!(lan.port, 7531);
    assert!(lan.listen.is_empty());
    assert!(lan.discovery);
    assert!(lan.interfaces.is_empty());
    assert_eq!(lan.code, PairingCode::Random);
    assert_eq!(lan.adjourn_after, Duration::from_secs(120));
    assert_eq!(lan.adjourn_after, DEFAULT_ADJOURN_AFTER);
    assert_eq!(
        lan.listen_addrs(),
        ["[::]:7531".parse::<SocketAddr>().unwrap()]
    );
    assert!(!lan.display_name().is_empty());
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/chesspi.toml");
    assert_eq!(check_config(&file).unwrap().lan, lan);
}

#[test]
fn every_key_can_be_set() {
    let c = parse(
        "[lan]\nname = \"Kitchen\"\nport = 9000\nlisten = [\"127.0.0.1\", \"::1\"]\n\
         discovery = false\ninterfaces = [\"lo\"]\ncode = \"0042\"\n\
         adjourn_after_seconds = 1\n",
    )
    .unwrap();
    let lan = c.lan;
    assert_eq!(lan.name.as_deref(), Some("Kitchen"));
    assert_eq!(lan.display_name(), "Kitchen");
    assert_eq!(lan.port, 9000);
    let ips: Vec<IpAddr> = vec!["127.0.0.1".parse().unwrap(), "::1".parse().unwrap()];
    assert_eq!(lan.listen, ips);
    assert_eq!(
        lan.listen_addrs(),
        [
            "127.0.0.1:9000".parse::<SocketAddr>().unwrap(),
            "[::1]:9000".parse().unwrap()
        ]
    );
    assert!(!lan.discovery);
    assert_eq!(lan.interfaces, ["lo"]);
    assert_eq!(lan.code, PairingCode::Fixed("0042".into()));
    assert_eq!(lan.adjourn_after, Duration::from_secs(1));
}

#[test]
fn bad_values_name_key_line_and_column() {
    let e = invalid("[lan]\nport = 0\n");
    assert_eq!(e.key(), Some("lan.port"));
    assert_eq!(e.position(), Some((2, 8)));
    let e = invalid("[lan]\nport = 70000\n");
    assert_eq!(e.key(), Some("lan.port"));
    let e = invalid("[lan]\n\ncode = \"12345\"\n");
    assert_eq!(e.key(), Some("lan.code"));
    assert_eq!(e.position(), Some((3, 8)));
    assert!(e.to_string().contains("\"random\" or 4 digits"), "{e}");
    for code in ["12a4", "123", "", "Random", "１２３４"] {
        let e = invalid(&format!("[lan]\ncode = \"{code}\"\n"));
        assert_eq!(e.key(), Some("lan.code"), "{code}");
    }
    let e = invalid("[lan]\nlisten = [\"192.168.1\"]\n");
    assert_eq!(e.key(), Some("lan.listen"));
    assert!(e.to_string().contains("192.168.1"), "{e}");
    let e = invalid("[lan]\ninterfaces = [\"\"]\n");
    assert_eq!(e.key(), Some("lan.interfaces"));
    let e = invalid("[lan]\ninterfaces = [\"a-very-long-interface-name\"]\n");
    assert_eq!(e.key(), Some("lan.interfaces"));
    let e = invalid("[lan]\nname = \"tab\\there\"\n");
    assert_eq!(e.key(), Some("lan.name"));
    let e = invalid(&format!("[lan]\nname = \"{}\"\n", "n".repeat(33)));
    assert_eq!(e.key(), Some("lan.name"));
    let e = invalid("[lan]\ndiscovery = \"yes\"\n");
    assert_eq!(e.key(), Some("lan.discovery"));
    for seconds in ["0", "3601"] {
        let e = invalid(&format!("[lan]\nadjourn_after_seconds = {seconds}\n"));
        assert_eq!(e.key(), Some("lan.adjourn_after_seconds"), "{seconds}");
        assert!(e.to_string().contains("1..=3600"), "{e}");
    }
    let e = invalid("[lan]\nadjourn_after_seconds = -5\n");
    assert_eq!(e.key(), Some("lan.adjourn_after_seconds"));
    let e = invalid("[lan]\nhost = \"x\"\n");
    assert!(e.to_string().contains("unknown field `host`"), "{e}");
}

#[test]
fn check_config_rejects_a_bad_lan_section() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("chesspi.toml");
    std::fs::write(&path, "[lan]\ncode = \"abcd\"\n").unwrap();
    let outcome = chesspi::config::check_config_outcome(&path);
    assert_eq!(outcome.exit_code, 1);
    assert!(outcome.message.contains("lan.code"), "{}", outcome.message);
}
