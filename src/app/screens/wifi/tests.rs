use super::{WifiPageKind, WifiScreen, WifiView};
use crate::app::model::mode::GameSetup;
use crate::app::screens::{Action, Allow, Controller, Dialog, Effect, ScreenKind};
use crate::wifi::worker::{WifiReport, WifiRequest};
use crate::wifi::{JoinError, Network, Security, Ssid, WifiState};
use std::net::{IpAddr, Ipv4Addr};

fn ssid(name: &str) -> Ssid {
    Ssid::new(name.as_bytes()).unwrap()
}

fn network(name: &str, security: Security, known: bool, active: bool) -> Network {
    Network {
        ssid: ssid(name),
        strength: 60,
        security,
        known,
        active,
    }
}

fn requests(c: &mut Controller) -> Vec<WifiRequest> {
    c.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Wifi(r) => Some(r),
            _ => None,
        })
        .collect()
}

/// The Wi-Fi screen opened from Settings, with `networks` heard.
fn opened(networks: Vec<Network>) -> Controller {
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.allow(Allow::Wifi);
    c.action(Action::Menu);
    c.dialog_option("settings");
    c.dialog_option("wifi");
    assert_eq!(c.screen(), ScreenKind::Wifi);
    assert!(matches!(requests(&mut c)[..], [WifiRequest::Scan]));
    c.wifi_report(WifiReport::Looked {
        state: WifiState::Disconnected,
        networks: Ok(networks),
    });
    c
}

/// The Wi-Fi screen as it is drawn, while it is open.
fn wifi_view(c: &Controller) -> Option<WifiView> {
    c.shown::<WifiScreen>().map(WifiScreen::view)
}

fn type_text(c: &mut Controller, text: &str) {
    for ch in text.chars() {
        if ch.is_ascii_uppercase() {
            c.on(|w: &mut WifiScreen, _| w.key("shift"));
        }
        c.on(|w: &mut WifiScreen, _| w.key(&format!("c:{ch}")));
    }
}

#[test]
fn settings_offers_wifi_only_with_a_wifi_thread() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.action(Action::Menu);
    c.dialog_option("settings");
    let ids = |c: &Controller| -> Vec<String> {
        c.dialog_view()
            .unwrap()
            .options
            .into_iter()
            .map(|o| o.id)
            .collect()
    };
    assert!(!ids(&c).contains(&"wifi".to_string()));
    c.dialog_option("wifi");
    assert_eq!(c.screen(), ScreenKind::Game, "nothing to open");
    c.allow(Allow::Wifi);
    c.dialog = Some(Dialog::Settings);
    assert!(ids(&c).contains(&"wifi".to_string()));
}

#[test]
fn joining_a_new_network_with_a_typed_password() {
    let mut c = opened(vec![
        network("Home", Security::Password, false, false),
        network("Cafe", Security::Open, false, false),
    ]);
    let view = wifi_view(&c).unwrap();
    assert_eq!(view.status, "Not connected.");
    assert_eq!(view.rows[0].name, "Home");
    assert_eq!(view.rows[0].detail, "Password");
    c.on(|w: &mut WifiScreen, cx| w.tap_row(cx, 0));
    assert_eq!(wifi_view(&c).unwrap().page, WifiPageKind::Password);
    assert_eq!(wifi_view(&c).unwrap().title, "Password for Home");
    type_text(&mut c, "Short1");
    c.on(|w: &mut WifiScreen, cx| w.button(cx, "submit"));
    let view = wifi_view(&c).unwrap();
    assert!(
        view.alert && view.message.contains("at least 8"),
        "{view:?}"
    );
    assert!(requests(&mut c).is_empty(), "nothing sent");
    assert_eq!(view.password, "••••••", "hidden while typed");
    c.on(|w: &mut WifiScreen, cx| w.button(cx, "show"));
    assert_eq!(wifi_view(&c).unwrap().password, "Short1");
    type_text(&mut c, "23!");
    c.on(|w: &mut WifiScreen, cx| w.button(cx, "submit"));
    match &requests(&mut c)[..] {
        [
            WifiRequest::Join {
                ssid: s,
                password: Some(p),
            },
        ] => {
            assert_eq!(*s, ssid("Home"));
            assert_eq!(p.as_str(), "Short123!");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(wifi_view(&c).unwrap().page, WifiPageKind::Working);
    assert_eq!(wifi_view(&c).unwrap().message, "Joining Home…");
    // Refused: back to the password as typed, with why.
    c.wifi_report(WifiReport::Joined {
        ssid: ssid("Home"),
        result: Err(JoinError::WrongPassword),
    });
    let view = wifi_view(&c).unwrap();
    assert_eq!(view.page, WifiPageKind::Password);
    assert!(view.alert && view.message.contains("did not accept the password"));
    c.on(|w: &mut WifiScreen, cx| w.button(cx, "show"));
    assert_eq!(wifi_view(&c).unwrap().password, "Short123!");
    c.on(|w: &mut WifiScreen, _| w.key("delete"));
    assert_eq!(
        wifi_view(&c).unwrap().message,
        "",
        "a new try clears the complaint"
    );
    c.on(|w: &mut WifiScreen, _| w.key("c:?"));
    c.on(|w: &mut WifiScreen, cx| w.button(cx, "submit"));
    assert_eq!(requests(&mut c).len(), 1);
    let address = IpAddr::V4(Ipv4Addr::new(10, 0, 0, 7));
    c.wifi_report(WifiReport::Joined {
        ssid: ssid("Home"),
        result: Ok(WifiState::Connected {
            ssid: ssid("Home"),
            address: Some(address),
        }),
    });
    let view = wifi_view(&c).unwrap();
    assert_eq!(view.page, WifiPageKind::List);
    assert_eq!(view.status, "Connected to Home · 10.0.0.7");
    assert_eq!(view.message, "Joined Home.");
}

#[test]
fn an_open_network_joins_at_once_and_an_enterprise_one_is_explained() {
    let mut c = opened(vec![
        network("Cafe", Security::Open, false, false),
        network("Office", Security::Unsupported, false, false),
    ]);
    c.on(|w: &mut WifiScreen, cx| w.tap_row(cx, 0));
    assert!(matches!(
        &requests(&mut c)[..],
        [WifiRequest::Join { password: None, .. }]
    ));
    c.wifi_report(WifiReport::Joined {
        ssid: ssid("Cafe"),
        result: Err(JoinError::Timeout),
    });
    let view = wifi_view(&c).unwrap();
    assert_eq!(view.page, WifiPageKind::List);
    assert!(view.alert && view.message.contains("did not answer in time"));
    c.on(|w: &mut WifiScreen, cx| w.tap_row(cx, 1));
    assert!(requests(&mut c).is_empty());
    assert!(wifi_view(&c).unwrap().message.contains("enterprise"));
}

#[test]
fn a_saved_network_is_joined_or_forgotten() {
    let mut c = opened(vec![
        network("Home", Security::Password, true, true),
        network("Work", Security::Password, true, false),
    ]);
    assert_eq!(wifi_view(&c).unwrap().rows[0].detail, "Connected");
    assert_eq!(wifi_view(&c).unwrap().rows[1].detail, "Saved");
    c.on(|w: &mut WifiScreen, cx| w.tap_row(cx, 0));
    let view = wifi_view(&c).unwrap();
    assert_eq!(view.page, WifiPageKind::Chosen);
    assert!(!view.can_join, "already on it");
    c.on(|w: &mut WifiScreen, cx| w.button(cx, "join"));
    assert!(requests(&mut c).is_empty());
    c.on(|w: &mut WifiScreen, cx| w.button(cx, "back"));
    c.on(|w: &mut WifiScreen, cx| w.tap_row(cx, 1));
    assert!(wifi_view(&c).unwrap().can_join);
    c.on(|w: &mut WifiScreen, cx| w.button(cx, "join"));
    assert!(matches!(
        &requests(&mut c)[..],
        [WifiRequest::Join { password: None, .. }]
    ));
    c.wifi_report(WifiReport::Joined {
        ssid: ssid("Work"),
        result: Ok(WifiState::Connected {
            ssid: ssid("Work"),
            address: None,
        }),
    });
    // The network joined moves to the top at once, marked.
    let rows = wifi_view(&c).unwrap().rows;
    assert_eq!((rows[0].name.as_str(), rows[0].active), ("Work", true));
    assert!(!rows[1].active);
    c.on(|w: &mut WifiScreen, cx| w.tap_row(cx, 0));
    c.on(|w: &mut WifiScreen, cx| w.button(cx, "forget"));
    assert!(matches!(&requests(&mut c)[..], [WifiRequest::Forget(s)] if *s == ssid("Work")));
    assert_eq!(wifi_view(&c).unwrap().message, "Forgetting Work…");
    c.wifi_report(WifiReport::Forgot {
        ssid: ssid("Work"),
        result: Ok(()),
    });
    assert_eq!(wifi_view(&c).unwrap().message, "Work forgotten.");
    assert_eq!(wifi_view(&c).unwrap().page, WifiPageKind::List);
}

#[test]
fn close_returns_to_settings_and_later_reports_are_ignored() {
    let mut c = opened(Vec::new());
    assert_eq!(wifi_view(&c).unwrap().message, "No networks found yet.");
    c.on(|w: &mut WifiScreen, cx| w.button(cx, "scan"));
    assert!(matches!(&requests(&mut c)[..], [WifiRequest::Scan]));
    c.on(|w: &mut WifiScreen, cx| w.button(cx, "close"));
    assert_eq!(c.screen(), ScreenKind::Game);
    assert_eq!(c.dialog(), Some(&Dialog::Settings));
    c.wifi_report(WifiReport::Looked {
        state: WifiState::NoRadio,
        networks: Ok(Vec::new()),
    });
    assert!(wifi_view(&c).is_none());
}

#[test]
fn the_state_line_says_what_the_device_has() {
    let mut c = opened(Vec::new());
    for (state, line) in [
        (
            WifiState::NoManager("no bus".into()),
            "Wi-Fi cannot be set up here: NetworkManager does not answer.",
        ),
        (WifiState::NoRadio, "This device has no Wi-Fi."),
        (WifiState::Off, "Wi-Fi is switched off."),
        (WifiState::Connecting(ssid("Home")), "Joining Home…"),
        (
            WifiState::Connected {
                ssid: ssid("Home"),
                address: None,
            },
            "Connected to Home · no address yet",
        ),
    ] {
        c.wifi_report(WifiReport::Looked {
            state,
            networks: Ok(Vec::new()),
        });
        assert_eq!(wifi_view(&c).unwrap().status, line);
    }
}
