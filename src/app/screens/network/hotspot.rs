//! Two ChessPIs without a router: the host opens a hotspot (`ChessPI-<name>`, a sixteen-digit
//! WPA2 password shown in groups of four with the pairing code), the guest's Join list shows
//! it, its keypad takes the password, and the game is found and played as on any network. The
//! hotspot is for that game only: both go back to the networks they were on when the partner
//! leaves, when the game is left (a new game, Cancel), and shortly after the game ends.

use super::lobby::{HostHotspot, HotspotState, KeyPurpose, Lobby, failed};
use super::partner::PartnerGame;
use crate::app::screens::{Ctx, Effect, Go};
use crate::app::session::partner::PartnerStep;
use crate::lan::session::LinkState;
use crate::tr;
use crate::wifi::worker::{WifiReport, WifiRequest};
use crate::wifi::{
    JoinError, Passphrase, Security, Ssid, WifiState, hotspot_password, hotspot_ssid,
};
use std::time::Duration;

/// How long a hotspot stays after its game ended: the last messages (the final move, its
/// acknowledgement, the result) go through, and a partner whose link dropped at that moment
/// can come back to see it; then nobody needs it.
pub const HOTSPOT_AFTER_GAME: Duration = Duration::from_secs(30);

impl PartnerGame {
    /// Takes the hotspot game's Wi-Fi down once nobody needs it: at once when the game was
    /// left (no partner, no lobby) or the partner said goodbye, [`HOTSPOT_AFTER_GAME`] after
    /// the game ended. Back to the networks from before. Nothing while the lobby is open
    /// (`lobby_open`): hosting or joining, the hotspot is for the game being set up.
    pub fn leave_hotspot_when_done(&mut self, cx: &mut Ctx, lobby_open: bool) {
        if !self.hotspot || lobby_open {
            return;
        }
        let request = match cx.session.partner() {
            None => WifiRequest::LeaveHotspot,
            Some(p) if p.link == LinkState::Closed => WifiRequest::LeaveHotspot,
            Some(_) if cx.session.game.is_over() => {
                WifiRequest::LeaveHotspotAfter(HOTSPOT_AFTER_GAME)
            }
            Some(_) => return,
        };
        self.hotspot = false;
        cx.effect(Effect::Wifi(request));
    }
}

impl Lobby {
    /// Whether the Wi-Fi thread should look every few seconds for the lobby: the Join list
    /// shows the hotspots nearby, where a Wi-Fi radio is.
    pub fn looks_for_hotspots(&self) -> bool {
        matches!(self, Lobby::Browsing { radio: true, .. })
    }

    /// Opens this device's hotspot while hosting as `name`.
    pub(super) fn open_hotspot(&mut self, cx: &mut Ctx, name: &str) {
        let Lobby::Hosting { hotspot, .. } = self else {
            return;
        };
        let ssid = hotspot_ssid(name);
        let password = hotspot_password();
        *hotspot = Some(HostHotspot {
            ssid: ssid.clone(),
            password: password.clone(),
            state: HotspotState::Opening,
        });
        cx.go(Go::Partner(PartnerStep::HotspotUp));
        cx.effect(Effect::Wifi(WifiRequest::OpenHotspot { ssid, password }));
    }

    /// Joins another ChessPI's hotspot with the password typed.
    pub(super) fn join_hotspot(&mut self, cx: &mut Ctx, ssid: Ssid, password: Passphrase) {
        *self = Lobby::Connecting {
            name: ssid.to_string(),
            message: tr!("Joining the hotspot {}…", ssid),
            target: None,
        };
        cx.go(Go::Partner(PartnerStep::HotspotUp));
        cx.effect(Effect::Wifi(WifiRequest::JoinHotspot { ssid, password }));
    }

    /// A Wi-Fi report while the lobby is open (the hotspots in range, a hotspot opened or
    /// joined).
    pub fn wifi_report(&mut self, cx: &mut Ctx, report: WifiReport) {
        match report {
            WifiReport::Looked { state, networks } => {
                let here = has_radio(&state);
                match self {
                    Lobby::Hosting { radio, .. } => *radio = here,
                    Lobby::Browsing {
                        hotspots, radio, ..
                    } => {
                        *radio = here;
                        if !here {
                            hotspots.clear();
                        } else if let Ok(networks) = networks {
                            *hotspots = networks
                                .into_iter()
                                .filter(|n| {
                                    crate::wifi::is_hotspot(&n.ssid)
                                        && n.security == Security::Password
                                        && !n.active
                                })
                                .map(|n| n.ssid)
                                .collect();
                        }
                    }
                    Lobby::Keypad { .. } | Lobby::Connecting { .. } => {}
                }
            }
            WifiReport::HotspotOpened { ssid, result } => {
                if let Lobby::Hosting {
                    hotspot: Some(h), ..
                } = self
                    && h.ssid == ssid
                {
                    h.state = match result {
                        Ok(_) => HotspotState::Open,
                        Err(e) => HotspotState::Failed(e.to_string()),
                    };
                }
            }
            WifiReport::HotspotJoined { ssid, result } => {
                let joining = matches!(
                    self,
                    Lobby::Connecting { name, .. } if *name == ssid.to_string()
                );
                if !joining {
                    return;
                }
                match result {
                    // On the host's network now: its game shows up in the list.
                    Ok(_) => *self = Lobby::browsing(cx),
                    Err(JoinError::WrongPassword) => {
                        *self = Lobby::Keypad {
                            purpose: KeyPurpose::Hotspot(ssid),
                            text: String::new(),
                            message: tr!("Wrong password — try again"),
                            alert: true,
                        };
                    }
                    Err(e) => failed(cx, &tr!("Could not join {}: {}", ssid, e)),
                }
            }
            _ => {}
        }
    }
}

/// Whether the Wi-Fi state says a radio is here, one that could make or join a hotspot (one
/// switched off too: the hotspot then says why it could not open); not where no manager
/// answers or it has no radio, nor before the Wi-Fi thread has looked.
fn has_radio(state: &WifiState) -> bool {
    !matches!(
        state,
        WifiState::Unknown | WifiState::NoManager(_) | WifiState::NoRadio
    )
}

#[cfg(test)]
mod tests {
    use super::HOTSPOT_AFTER_GAME;
    use crate::app::model::mode::{GameSetup, NewGameForm};
    use crate::app::screens::network::partner::PartnerGame;
    use crate::app::screens::{
        Action, Allow, Controller, DialogView, Effect, Go, Lobby, ScreenKind,
    };
    use crate::lan::session::LinkState;
    use crate::storage::LanLink;
    use crate::wifi::worker::{WifiReport, WifiRequest};
    use crate::wifi::{JoinError, Network, Passphrase, Security, Ssid, WifiState};
    use chesspi_engine::Color;
    use chesspi_engine::game::{Game, Outcome, Termination};

    fn wifi_requests(c: &mut Controller) -> Vec<WifiRequest> {
        c.take_effects()
            .into_iter()
            .filter_map(|e| match e {
                Effect::Wifi(r) => Some(r),
                _ => None,
            })
            .collect()
    }

    fn option_ids(c: &Controller) -> Vec<String> {
        lobby_view(c)
            .map(|v| v.options.into_iter().map(|o| o.id).collect())
            .unwrap_or_default()
    }

    /// The lobby's step as the shell shows it, in the dialog.
    fn lobby_view(c: &Controller) -> Option<DialogView> {
        c.shown::<Lobby>()?.view()
    }

    /// A choice in the lobby's dialog, as the shell hands it over.
    fn lobby_option(c: &mut Controller, id: &str) {
        c.on(|l: &mut Lobby, cx| l.option(cx, id));
    }

    /// What the shell asks after every change.
    fn leave_hotspot(c: &mut Controller) {
        let lobby_open = c.screen() == ScreenKind::Lobby;
        c.part(|p: &mut PartnerGame, cx| p.leave_hotspot_when_done(cx, lobby_open));
    }

    fn ssid(name: &str) -> Ssid {
        Ssid::new(name.as_bytes()).unwrap()
    }

    /// The Wi-Fi thread's look, asked for when the lobby opens: a radio is here.
    fn radio_here(c: &mut Controller) {
        c.wifi_report(WifiReport::Looked {
            state: WifiState::Disconnected,
            networks: Ok(Vec::new()),
        });
    }

    #[test]
    fn the_host_opens_a_hotspot_shows_its_password_and_closes_it_when_leaving() {
        let mut c = Controller::new(GameSetup::FIRST_START);
        c.allow(Allow::Wifi);
        c.go(Go::Lobby {
            host: Some(Color::White),
            clock: None,
        });
        c.on(|l: &mut Lobby, _| l.hosting("kitchen", "1234", &["192.168.1.5".to_string()]));
        assert!(
            !option_ids(&c).contains(&"hotspot".to_string()),
            "not before the Wi-Fi thread said a radio is here"
        );
        radio_here(&mut c);
        assert_eq!(option_ids(&c), ["hotspot", "cancel"]);
        c.take_effects();
        lobby_option(&mut c, "hotspot");
        let password = match &wifi_requests(&mut c)[..] {
            [WifiRequest::OpenHotspot { ssid: s, password }] => {
                assert_eq!(*s, ssid("ChessPI-kitchen"));
                assert_eq!(password.as_str().len(), 16);
                assert!(password.as_str().bytes().all(|b| b.is_ascii_digit()));
                password.clone()
            }
            other => panic!("{other:?}"),
        };
        let message = |c: &Controller| lobby_view(c).unwrap().message;
        assert!(message(&c).contains("Opening the hotspot ChessPI-kitchen"));
        assert_eq!(option_ids(&c), ["cancel"], "one hotspot");
        c.wifi_report(WifiReport::HotspotOpened {
            ssid: ssid("ChessPI-kitchen"),
            result: Ok(WifiState::Disconnected),
        });
        // Shown in groups of four, to read across the table.
        let p = password.as_str();
        let grouped = format!("{} {} {} {}", &p[..4], &p[4..8], &p[8..12], &p[12..]);
        assert!(
            message(&c).contains(&format!("password {grouped}.")),
            "{}",
            message(&c)
        );
        // The code is kept when the shell says more about hosting.
        c.on(|l: &mut Lobby, _| l.hosting("kitchen", "1234", &[]));
        assert!(message(&c).contains("is open"));
        leave_hotspot(&mut c);
        assert!(wifi_requests(&mut c).is_empty(), "still hosting");
        lobby_option(&mut c, "cancel");
        leave_hotspot(&mut c);
        assert!(matches!(
            &wifi_requests(&mut c)[..],
            [WifiRequest::LeaveHotspot]
        ));
        leave_hotspot(&mut c);
        assert!(wifi_requests(&mut c).is_empty(), "once");
    }

    #[test]
    fn a_failed_hotspot_says_why() {
        let mut c = Controller::new(GameSetup::FIRST_START);
        c.allow(Allow::Wifi);
        c.go(Go::Lobby {
            host: Some(Color::Black),
            clock: None,
        });
        c.on(|l: &mut Lobby, _| l.hosting("attic", "9876", &[]));
        radio_here(&mut c);
        lobby_option(&mut c, "hotspot");
        c.wifi_report(WifiReport::HotspotOpened {
            ssid: ssid("ChessPI-attic"),
            result: Err(JoinError::Failed(
                "this Wi-Fi radio cannot be an access point".into(),
            )),
        });
        let message = lobby_view(&c).unwrap().message;
        assert!(
            message.contains("could not open: this Wi-Fi radio cannot"),
            "{message}"
        );
    }

    #[test]
    fn the_guest_sees_the_hotspot_types_its_password_and_goes_back_after() {
        let mut c = Controller::new(GameSetup::FIRST_START);
        c.allow(Allow::Wifi);
        c.go(Go::Lobby {
            host: None,
            clock: None,
        });
        assert!(matches!(&wifi_requests(&mut c)[..], [WifiRequest::Scan]));
        let net = |name: &str, security| Network {
            ssid: ssid(name),
            strength: 70,
            security,
            known: false,
            active: false,
        };
        c.wifi_report(WifiReport::Looked {
            state: WifiState::Disconnected,
            networks: Ok(vec![
                net("ChessPI-kitchen", Security::Password),
                net("Home", Security::Password),
                net("ChessPI-open", Security::Open),
            ]),
        });
        assert_eq!(option_ids(&c), ["hotspot:0", "address", "cancel"]);
        let view = lobby_view(&c).unwrap();
        assert_eq!(view.options[0].label, "ChessPI-kitchen (hotspot)");
        assert!(view.message.contains("opened a hotspot"));
        lobby_option(&mut c, "hotspot:0");
        let keypad = c
            .shown::<Lobby>()
            .and_then(Lobby::keypad_view)
            .expect("the keypad");
        assert_eq!(keypad.title, "Password of ChessPI-kitchen");
        for key in "123456789012345".chars() {
            c.on(|l: &mut Lobby, _| l.key(&key.to_string()));
        }
        let keypad = c.shown::<Lobby>().and_then(Lobby::keypad_view).unwrap();
        assert!(!keypad.can_submit, "fifteen digits");
        assert_eq!(
            keypad.text, "1234 5678 9012 345",
            "grouped as the host shows it"
        );
        c.on(|l: &mut Lobby, _| l.key("6"));
        c.on(|l: &mut Lobby, _| l.key("7"));
        let keypad = c.shown::<Lobby>().and_then(Lobby::keypad_view).unwrap();
        assert_eq!(keypad.text, "1234 5678 9012 3456", "sixteen digits at most");
        assert!(keypad.can_submit);
        c.on(Lobby::submit);
        assert!(matches!(
            &wifi_requests(&mut c)[..],
            [WifiRequest::JoinHotspot { password, .. }]
                if password == &Passphrase::new("1234567890123456").unwrap()
        ));
        c.wifi_report(WifiReport::HotspotJoined {
            ssid: ssid("ChessPI-kitchen"),
            result: Err(JoinError::WrongPassword),
        });
        let keypad = c
            .shown::<Lobby>()
            .and_then(Lobby::keypad_view)
            .expect("the keypad again");
        assert!(keypad.alert && keypad.message.contains("Wrong password"));
        // An older ChessPI's eight digits are taken too.
        for key in "87654321".chars() {
            c.on(|l: &mut Lobby, _| l.key(&key.to_string()));
        }
        assert!(
            c.shown::<Lobby>()
                .and_then(Lobby::keypad_view)
                .unwrap()
                .can_submit
        );
        c.on(Lobby::submit);
        assert!(matches!(
            &wifi_requests(&mut c)[..],
            [WifiRequest::JoinHotspot { password, .. }]
                if password == &Passphrase::new("87654321").unwrap()
        ));
        c.take_effects();
        c.wifi_report(WifiReport::HotspotJoined {
            ssid: ssid("ChessPI-kitchen"),
            result: Ok(WifiState::Disconnected),
        });
        assert!(
            matches!(c.shown::<Lobby>(), Some(Lobby::Browsing { .. })),
            "looking for its game"
        );
        assert!(c.take_effects().iter().any(|e| matches!(
            e,
            Effect::Network(crate::app::screens::NetworkEffect::Browse)
        )));
        lobby_option(&mut c, "cancel");
        assert_eq!(c.screen(), ScreenKind::Game);
        leave_hotspot(&mut c);
        assert!(matches!(
            &wifi_requests(&mut c)[..],
            [WifiRequest::LeaveHotspot]
        ));
    }

    /// A host whose partner came over its hotspot: playing White against "Kitchen".
    fn hotspot_game() -> Controller {
        let mut c = Controller::new(GameSetup::FIRST_START);
        c.allow(Allow::Wifi);
        c.go(Go::Lobby {
            host: Some(Color::White),
            clock: None,
        });
        c.on(|l: &mut Lobby, _| l.hosting("attic", "1234", &[]));
        radio_here(&mut c);
        lobby_option(&mut c, "hotspot");
        c.wifi_report(WifiReport::HotspotOpened {
            ssid: ssid("ChessPI-attic"),
            result: Ok(WifiState::Disconnected),
        });
        let link = LanLink {
            game_id: "g".into(),
            host: None,
            peer_rating: None,
        };
        c.part(|p: &mut PartnerGame, cx| {
            p.paired(cx, "Kitchen", Color::White, Game::new(), link, None)
        });
        leave_hotspot(&mut c);
        assert!(
            !wifi_requests(&mut c).iter().any(|r| matches!(
                r,
                WifiRequest::LeaveHotspot | WifiRequest::LeaveHotspotAfter(_)
            )),
            "the game goes on over the hotspot"
        );
        c
    }

    fn leaves(c: &mut Controller) -> Vec<WifiRequest> {
        leave_hotspot(c);
        wifi_requests(c)
    }

    #[test]
    fn the_hotspot_goes_shortly_after_the_game_ends() {
        let mut c = hotspot_game();
        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Lost));
        assert!(leaves(&mut c).is_empty(), "the partner may come back");
        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Connected));
        c.part(|p: &mut PartnerGame, cx| {
            p.game_over(cx, Outcome::win(Color::White, Termination::Resignation))
        });
        assert!(matches!(
            &leaves(&mut c)[..],
            [WifiRequest::LeaveHotspotAfter(after)] if *after == HOTSPOT_AFTER_GAME
        ));
        assert!(leaves(&mut c).is_empty(), "asked once");
        // A new game meanwhile: the shell says goodbye and leaves the hotspot at once
        // (src/app/shell); the controller has nothing more to ask.
        c.action(Action::NewGame);
        c.on(|f: &mut NewGameForm, _| f.choose_mode("computer"));
        c.on(NewGameForm::start);
        assert!(
            c.session().partner().is_none(),
            "another game took the board"
        );
        assert!(leaves(&mut c).is_empty());
    }

    #[test]
    fn the_hotspot_goes_when_the_partner_leaves_for_good() {
        let mut c = hotspot_game();
        c.part(|p: &mut PartnerGame, cx| p.left(cx));
        assert!(matches!(&leaves(&mut c)[..], [WifiRequest::LeaveHotspot]));

        // Away long enough and the win claimed: the game ends by forfeit.
        let mut c = hotspot_game();
        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Lost));
        c.part(|p: &mut PartnerGame, cx| {
            p.game_over(cx, Outcome::win(Color::White, Termination::Abandonment))
        });
        assert!(matches!(
            &leaves(&mut c)[..],
            [WifiRequest::LeaveHotspotAfter(_)]
        ));
    }

    #[test]
    fn a_new_hotspot_is_kept_while_hosting_after_an_ended_game() {
        // The last network game is still on the board, over and its partner gone, when the
        // player hosts again with a new hotspot: that one is for the new game.
        let mut c = hotspot_game();
        c.part(|p: &mut PartnerGame, cx| p.left(cx));
        c.take_effects();
        leave_hotspot(&mut c);
        c.go(Go::Lobby {
            host: Some(Color::Black),
            clock: None,
        });
        c.on(|l: &mut Lobby, _| l.hosting("attic", "5678", &[]));
        radio_here(&mut c);
        lobby_option(&mut c, "hotspot");
        c.take_effects();
        assert!(leaves(&mut c).is_empty());
    }
}
