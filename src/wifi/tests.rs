use super::sim::{SimNetwork, SimulatedWifi};
use super::worker::{WifiReport, WifiRequest, WifiWorker};
use super::*;
use std::sync::mpsc;
use std::time::Duration;

fn ssid(name: &str) -> Ssid {
    Ssid::new(name.as_bytes()).expect("a name")
}

fn network(name: &str, strength: u8, active: bool) -> Network {
    Network {
        ssid: ssid(name),
        strength,
        security: Security::Password,
        known: false,
        active,
    }
}

#[test]
fn names_are_1_to_32_bytes_and_shown_lossily() {
    assert_eq!(Ssid::new(Vec::new()), Err(SsidError::Empty));
    assert_eq!(Ssid::new(vec![b'a'; 33]), Err(SsidError::TooLong));
    assert!(Ssid::new(vec![b'a'; 32]).is_ok());
    assert_eq!(
        Ssid::new(vec![b'C', 0xff]).unwrap().to_string(),
        "C\u{fffd}"
    );
    // Shown on one line, without what would turn the words around it.
    assert_eq!(
        Ssid::new("Caf\u{e9}\n\u{202e}Free\u{2028}WiFi".as_bytes())
            .unwrap()
            .to_string(),
        "Caf\u{e9} Free WiFi"
    );
}

#[test]
fn passwords_follow_wpa2_rules_and_never_print() {
    assert_eq!(Passphrase::new("short"), Err(PassphraseError::TooShort));
    assert_eq!(
        Passphrase::new(&"x".repeat(64)),
        Err(PassphraseError::TooLong)
    );
    assert!(
        Passphrase::new(&"ab".repeat(32)).is_ok(),
        "64 hex digits: a raw key"
    );
    assert_eq!(
        Passphrase::new("passwört1"),
        Err(PassphraseError::NotPrintable)
    );
    let p = Passphrase::new("correct horse").unwrap();
    assert_eq!(p.as_str(), "correct horse");
    assert!(!format!("{p:?}").contains("horse"));
}

#[test]
fn security_from_access_point_flags() {
    use super::nm::security;
    assert_eq!(security(0, 0, 0), Security::Open);
    assert_eq!(security(1, 0, 0x188), Security::Password, "WPA2 personal");
    assert_eq!(security(1, 0, 0x400), Security::Password, "WPA3 personal");
    assert_eq!(security(1, 0, 0x288), Security::Unsupported, "enterprise");
    assert_eq!(security(1, 0, 0), Security::Unsupported, "WEP");
}

#[test]
fn bars_grow_with_the_signal() {
    let bars: Vec<u8> = [5, 29, 30, 54, 55, 74, 75, 100]
        .iter()
        .map(|&s| network("n", s, false).bars())
        .collect();
    assert_eq!(bars, [1, 1, 2, 2, 3, 3, 4, 4]);
}

#[test]
fn the_list_has_one_entry_per_name_current_first_then_strongest() {
    let list = tidy(vec![
        network("Cafe", 40, false),
        network("Home", 20, false),
        network("Cafe", 80, false),
        network("Home", 10, true),
        network("Attic", 60, false),
    ]);
    let names: Vec<(String, u8, bool)> = list
        .iter()
        .map(|n| (n.ssid.to_string(), n.strength, n.active))
        .collect();
    assert_eq!(
        names,
        [
            ("Home".to_string(), 20, true),
            ("Cafe".to_string(), 80, false),
            ("Attic".to_string(), 60, false),
        ]
    );
}

#[test]
fn the_simulation_checks_passwords_and_keeps_the_good_one() {
    let mut wifi = SimulatedWifi::new(vec![
        SimNetwork {
            ssid: ssid("Home"),
            strength: 70,
            password: Some("secret123".into()),
        },
        SimNetwork {
            ssid: ssid("Open"),
            strength: 30,
            password: None,
        },
    ]);
    let wrong = Passphrase::new("wrong-one").unwrap();
    assert_eq!(
        wifi.join(&ssid("Home"), Some(&wrong)),
        Err(JoinError::WrongPassword)
    );
    assert!(wifi.known().is_empty(), "a wrong password is not kept");
    assert_eq!(
        wifi.join(&ssid("Home"), None),
        Err(JoinError::WrongPassword)
    );
    let right = Passphrase::new("secret123").unwrap();
    assert!(matches!(
        wifi.join(&ssid("Home"), Some(&right)),
        Ok(WifiState::Connected { .. })
    ));
    assert_eq!(wifi.known(), [ssid("Home")]);
    assert!(wifi.networks().unwrap()[0].active);
    wifi.forget(&ssid("Home")).unwrap();
    assert_eq!(wifi.state(), WifiState::Disconnected);
    assert_eq!(wifi.join(&ssid("Gone"), None), Err(JoinError::NotFound));
}

#[test]
fn the_thread_answers_each_request_and_scans_then_looks_again() {
    let wifi = SimulatedWifi::new(vec![SimNetwork {
        ssid: ssid("Home"),
        strength: 70,
        password: None,
    }]);
    let (tx, rx) = mpsc::channel();
    let worker = WifiWorker::start(Box::new(wifi.clone()), Duration::ZERO, move |r| {
        let _ = tx.send(r);
    })
    .expect("thread");
    let next = || rx.recv_timeout(Duration::from_secs(5)).expect("a report");
    worker.send(WifiRequest::Scan);
    for _ in 0..2 {
        match next() {
            WifiReport::Looked { networks, .. } => assert_eq!(networks.unwrap().len(), 1),
            other => panic!("{other:?}"),
        }
    }
    assert_eq!(wifi.scans(), 1);
    worker.send(WifiRequest::Join {
        ssid: ssid("Home"),
        password: None,
    });
    assert!(matches!(next(), WifiReport::Joined { result: Ok(_), .. }));
    match next() {
        WifiReport::Looked { state, .. } => {
            assert!(matches!(state, WifiState::Connected { .. }), "{state:?}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn without_a_system_bus_the_manager_says_so() {
    // A bus address nobody listens on: the state is "no manager", with the reason.
    let dir = tempfile::tempdir().unwrap();
    let address = format!("unix:path={}", dir.path().join("none").display());
    let mut nm = nm::NetworkManager::at(&address);
    assert!(matches!(nm.state(), WifiState::NoManager(_)));
    assert!(nm.networks().is_err());
    assert!(matches!(
        nm.join(&ssid("Home"), None),
        Err(JoinError::Failed(_))
    ));
}

#[test]
fn hotspot_passwords_are_sixteen_uniform_digits_shown_in_fours() {
    let a = hotspot_password();
    assert_eq!(a.as_str().len(), HOTSPOT_PASSWORD_DIGITS);
    assert!(a.as_str().bytes().all(|b| b.is_ascii_digit()));
    assert_ne!(a, hotspot_password(), "a new one each time");
    // Leading zeros are kept; a draw past the last whole run of 10^16 is drawn again.
    let mut draws = [u64::MAX, 42].into_iter();
    assert_eq!(
        random_digits(16, || draws.next().unwrap()),
        "0000000000000042"
    );
    assert_eq!(grouped_digits("4821993027160584"), "4821 9930 2716 0584");
    assert_eq!(grouped_digits("482199"), "4821 99");
    assert_eq!(grouped_digits(""), "");
    // The keypad takes this version's sixteen digits and an older ChessPI's eight.
    assert!(hotspot_password_complete("4821993027160584"));
    assert!(hotspot_password_complete("48219930"));
    assert!(!hotspot_password_complete("482199302716"));
    assert!(!hotspot_password_complete("4821 9930"));
}

/// Waits up to a few seconds for `done`, polling.
fn eventually(what: &str, mut done: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !done() {
        assert!(std::time::Instant::now() < deadline, "{what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn home_and_hotspot() -> SimulatedWifi {
    let mut wifi = SimulatedWifi::new(vec![
        SimNetwork {
            ssid: ssid("Home"),
            strength: 70,
            password: Some("secret123".into()),
        },
        SimNetwork {
            ssid: ssid("ChessPI-kitchen"),
            strength: 60,
            password: Some("4821993027160584".into()),
        },
    ]);
    let password = Passphrase::new("secret123").unwrap();
    wifi.join(&ssid("Home"), Some(&password)).expect("home");
    wifi
}

fn worker_for(wifi: &SimulatedWifi) -> (WifiWorker, mpsc::Receiver<WifiReport>) {
    let (tx, rx) = mpsc::channel();
    let worker = WifiWorker::start(Box::new(wifi.clone()), Duration::ZERO, move |r| {
        let _ = tx.send(r);
    })
    .expect("thread");
    (worker, rx)
}

#[test]
fn an_earlier_runs_hotspot_game_is_removed_at_start() {
    // The host's side: its hotspot was up when the app stopped.
    let mut wifi = home_and_hotspot();
    let password = hotspot_password();
    wifi.open_hotspot(&ssid("ChessPI-attic"), &password)
        .expect("open");
    wifi.restart();
    let (_worker, _rx) = worker_for(&wifi);
    eventually("the hotspot removed at start", || wifi.hotspot().is_none());
    assert_eq!(
        wifi.current(),
        Some(ssid("Home")),
        "back on a known network"
    );

    // The guest's side: on another ChessPI's hotspot when the app stopped.
    let mut wifi = home_and_hotspot();
    let password = Passphrase::new("4821993027160584").unwrap();
    wifi.join_hotspot(&ssid("ChessPI-kitchen"), &password)
        .expect("joined");
    wifi.restart();
    let (_worker, _rx) = worker_for(&wifi);
    eventually("the game's connection removed at start", || !wifi.in_game());
    assert_eq!(wifi.current(), Some(ssid("Home")));
    assert_eq!(
        wifi.known(),
        [ssid("Home")],
        "the hotspot's password not kept"
    );
}

#[test]
fn a_hotspot_game_is_left_after_its_end_or_sooner_and_only_once_up() {
    let wifi = home_and_hotspot();
    let (worker, rx) = worker_for(&wifi);
    // No hotspot game: leaving changes nothing.
    worker.send(WifiRequest::LeaveHotspot);
    worker.send(WifiRequest::Look);
    assert!(matches!(
        rx.recv_timeout(Duration::from_secs(5)),
        Ok(WifiReport::Looked { .. })
    ));
    assert_eq!(wifi.current(), Some(ssid("Home")));

    // The game ended: the hotspot stays a moment, then goes.
    let open = || WifiRequest::OpenHotspot {
        ssid: ssid("ChessPI-attic"),
        password: hotspot_password(),
    };
    worker.send(open());
    worker.send(WifiRequest::LeaveHotspotAfter(Duration::from_millis(300)));
    eventually("the hotspot up", || wifi.hotspot().is_some());
    let asked = std::time::Instant::now();
    eventually("the hotspot gone after the game", || {
        wifi.hotspot().is_none()
    });
    assert!(asked.elapsed() >= Duration::from_millis(200), "not at once");
    assert_eq!(
        wifi.current(),
        Some(ssid("Home")),
        "back on the network from before"
    );

    // A new game's hotspot replaces the one waiting to go: it stays.
    worker.send(open());
    worker.send(WifiRequest::LeaveHotspotAfter(Duration::from_millis(100)));
    worker.send(open());
    std::thread::sleep(Duration::from_millis(400));
    assert!(wifi.hotspot().is_some(), "the new game's hotspot stays");

    // Leaving at once overtakes a later leave.
    worker.send(WifiRequest::LeaveHotspotAfter(Duration::from_secs(60)));
    worker.send(WifiRequest::LeaveHotspot);
    eventually("left at once", || wifi.hotspot().is_none());
    assert_eq!(wifi.current(), Some(ssid("Home")));
}

#[test]
fn the_guests_game_connection_goes_after_the_game_too() {
    let wifi = home_and_hotspot();
    let (worker, rx) = worker_for(&wifi);
    worker.send(WifiRequest::JoinHotspot {
        ssid: ssid("ChessPI-kitchen"),
        password: Passphrase::new("4821993027160584").unwrap(),
    });
    assert!(matches!(
        rx.recv_timeout(Duration::from_secs(5)),
        Ok(WifiReport::HotspotJoined { result: Ok(_), .. })
    ));
    assert!(wifi.in_game());
    worker.send(WifiRequest::LeaveHotspotAfter(Duration::from_millis(50)));
    eventually("the game's connection gone", || !wifi.in_game());
    assert_eq!(wifi.current(), Some(ssid("Home")));
}
