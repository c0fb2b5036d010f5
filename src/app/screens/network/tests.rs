//! Network play's tests: the partner's words on the game screen, the lobby's dialogs and
//! keypad.

use crate::app::screens::network::partner::PartnerGame;
use crate::app::screens::test_support::friend;
use crate::app::screens::*;
use crate::app::session::partner::PartnerStep;

/// The lobby's step as the shell shows it, in the dialog.
fn lobby_view(c: &Controller) -> Option<DialogView> {
    c.shown::<Lobby>()?.view()
}

/// A network game with `name`, this side playing `local`, just paired.
fn paired(name: &str, local: Color) -> Controller {
    let mut c = Controller::new(GameSetup {
        mode: Mode::Network { local },
        level: Level::DEFAULT,
    });
    let link = crate::storage::LanLink {
        game_id: "g".into(),
        host: None,
        peer_rating: None,
    };
    c.part(|p: &mut PartnerGame, cx| p.paired(cx, name, local, Game::new(), link, None));
    c
}

#[test]
fn a_lost_partner_is_told_on_both_sides_whoever_moves() {
    use crate::lan::session::LinkState;
    let mut c = paired("Kitchen", Color::White);
    assert_eq!(c.game_view().status().text, "Your move — tap a piece");
    c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Lost));
    // Our move: the connection is what matters now.
    assert_eq!(
        c.game_view().status().text,
        "Connection lost — waiting for Kitchen"
    );
    // With a piece in hand, the hints come back.
    let e2 = c.game_view().square_at(4, 6);
    c.play(|p, cx, gate| p.press(cx, gate, e2));
    c.play(|p, cx, _| p.release(cx, e2, false));
    assert_eq!(c.game_view().status().text, "Tap where the pawn should go");
    c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Connected));
    c.play(|p, cx, gate| p.press(cx, gate, e2));
    c.play(|p, cx, _| p.release(cx, e2, false));
    assert_eq!(c.game_view().status().text, "Your move — tap a piece");
}

#[test]
fn an_offer_voided_by_a_lost_link_leaves_no_waiting_note() {
    use crate::lan::session::LinkState;
    let mut c = paired("Kitchen", Color::White);
    c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Connected));
    c.go(Go::Partner(PartnerStep::Offer(
        crate::lan::codec::OfferKind::Draw,
    )));
    assert_eq!(
        c.game_view().status().text,
        "Draw offered — waiting for Kitchen"
    );
    // The session drops offers with the link, then says the link is lost.
    c.part(|p: &mut PartnerGame, cx| p.offers_cleared(cx));
    c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Lost));
    assert_eq!(
        c.game_view().status().text,
        "Connection lost — waiting for Kitchen"
    );
    c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Connected));
    assert_eq!(c.game_view().status().text, "Your move — tap a piece");
    // An older word of the partner's gives way to the lost link too.
    c.go(Go::Partner(PartnerStep::Offer(
        crate::lan::codec::OfferKind::Draw,
    )));
    c.part(|p: &mut PartnerGame, cx| p.answered(cx, crate::lan::codec::OfferKind::Draw, false));
    assert_eq!(
        c.game_view().status().text,
        "Kitchen declines the draw — play on"
    );
    c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Lost));
    assert_eq!(
        c.game_view().status().text,
        "Connection lost — waiting for Kitchen"
    );
}

#[test]
fn a_long_partner_name_is_shortened_in_texts() {
    let mut c = paired(&"W".repeat(32), Color::Black);
    c.part(|p: &mut PartnerGame, cx| p.link(cx, crate::lan::session::LinkState::Connected));
    assert_eq!(
        c.game_view().status().text,
        format!("{}… is thinking…", "W".repeat(13))
    );
}

#[test]
fn the_hosting_dialog_gives_the_address_to_type() {
    let mut c = Controller::new(friend());
    c.go(Go::Lobby {
        host: Some(Color::White),
        clock: None,
    });
    c.on(|l: &mut Lobby, _| {
        l.hosting(
            "Kitchen",
            "4821",
            &[
                "192.168.1.20:7531".to_string(),
                "169.254.3.4:7531".to_string(),
            ],
        )
    });
    let view = lobby_view(&c).expect("the hosting dialog");
    assert_eq!(view.title, "Pairing code 4821");
    assert!(
        view.message.ends_with(
            "Not in its list? There tap Enter address and type 192.168.1.20:7531 or \
             169.254.3.4:7531"
        ),
        "{}",
        view.message
    );
}

#[test]
fn the_join_list_says_when_this_device_does_not_look_for_hosts() {
    let mut c = Controller::new(friend());
    c.go(Go::Lobby {
        host: None,
        clock: None,
    });
    let looking = lobby_view(&c).expect("the join list").message;
    assert!(looking.starts_with("Looking for ChessPIs"), "{looking}");
    assert!(
        looking.contains("Enter address"),
        "what to do if none is found"
    );
    c.on(|l: &mut Lobby, _| l.not_looking());
    let off = lobby_view(&c).expect("the join list").message;
    assert!(off.contains("discovery is off"), "{off}");
}

#[test]
fn a_wrong_code_is_said_until_the_next_one_is_typed() {
    use crate::app::screens::Lobby;
    let mut c = Controller::new(friend());
    c.go(Go::Join {
        target: "192.168.1.20:7531".to_string(),
        code: None,
    });
    for key in ["1", "2", "3", "4"] {
        c.on(|l: &mut Lobby, _| l.key(key));
    }
    c.on(Lobby::submit);
    c.on(|l: &mut Lobby, cx| {
        l.refused(cx, Some(crate::lan::codec::ErrorCode::BadCode), "bad code")
    });
    let Some(Lobby::Keypad { message, alert, .. }) = c.shown::<Lobby>().cloned() else {
        panic!("back on the keypad: {:?}", c.shown::<Lobby>());
    };
    assert!(alert);
    assert_eq!(message, "Wrong code — try again");
    c.on(|l: &mut Lobby, _| l.key("5"));
    let Some(Lobby::Keypad { message, alert, .. }) = c.shown::<Lobby>().cloned() else {
        panic!("the keypad");
    };
    assert!(!alert);
    assert_eq!(message, "The code is shown on the other ChessPI");
}

#[test]
fn the_hotspot_is_offered_only_where_a_wifi_radio_is() {
    use crate::wifi::worker::{WifiReport, WifiRequest};
    use crate::wifi::{Network, Security, Ssid, WifiState};
    let hint = "Not in its list? There tap Enter address and type 192.168.1.20:7531";
    // Hosting with the Wi-Fi thread there; it says `state`.
    let hosting = |state: Option<WifiState>| {
        let mut c = Controller::new(friend());
        c.allow(Allow::Wifi);
        c.go(Go::Lobby {
            host: Some(Color::White),
            clock: None,
        });
        assert!(
            c.take_effects()
                .iter()
                .any(|e| matches!(e, Effect::Wifi(WifiRequest::Look))),
            "the lobby asks whether Wi-Fi works here"
        );
        c.on(|l: &mut Lobby, _| l.hosting("Kitchen", "4821", &["192.168.1.20:7531".to_string()]));
        if let Some(state) = state {
            c.wifi_report(WifiReport::Looked {
                state,
                networks: Ok(Vec::new()),
            });
        }
        c
    };
    let options = |c: &Controller| -> Vec<String> {
        let view = lobby_view(c).expect("the hosting dialog");
        assert!(view.message.ends_with(hint), "{}", view.message);
        view.options.into_iter().map(|o| o.id).collect()
    };
    // A desktop without NetworkManager, a device without Wi-Fi, before the look: no hotspot.
    for state in [
        Some(WifiState::NoManager(
            "the system bus cannot be reached".into(),
        )),
        Some(WifiState::NoRadio),
        None,
    ] {
        let mut c = hosting(state.clone());
        assert_eq!(options(&c), ["cancel"], "{state:?}");
        c.on(|l: &mut Lobby, cx| l.option(cx, "hotspot"));
        assert!(
            !c.take_effects()
                .iter()
                .any(|e| matches!(e, Effect::Wifi(_))),
            "{state:?}: nothing asked of Wi-Fi"
        );
        assert_eq!(options(&c), ["cancel"], "{state:?}: the hint stays");
    }
    // A radio, on or off: the hotspot is offered.
    for state in [WifiState::Disconnected, WifiState::Off] {
        assert_eq!(options(&hosting(Some(state))), ["hotspot", "cancel"]);
    }

    // The Join list looks for hotspots every few seconds only where a radio is.
    let mut c = Controller::new(friend());
    c.allow(Allow::Wifi);
    c.go(Go::Lobby {
        host: None,
        clock: None,
    });
    let hotspot = Network {
        ssid: Ssid::new(b"ChessPI-Kitchen").unwrap(),
        strength: 70,
        security: Security::Password,
        known: false,
        active: false,
    };
    c.wifi_report(WifiReport::Looked {
        state: WifiState::NoManager("the system bus cannot be reached".into()),
        networks: Ok(vec![hotspot.clone()]),
    });
    assert!(!c.shown::<Lobby>().unwrap().looks_for_hotspots());
    assert_eq!(
        lobby_view(&c).unwrap().options.len(),
        2,
        "Enter address, Cancel"
    );
    c.wifi_report(WifiReport::Looked {
        state: WifiState::Disconnected,
        networks: Ok(vec![hotspot]),
    });
    assert!(c.shown::<Lobby>().unwrap().looks_for_hotspots());
    assert_eq!(lobby_view(&c).unwrap().options[0].id, "hotspot:0");
}
