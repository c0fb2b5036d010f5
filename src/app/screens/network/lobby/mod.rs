//! Finding a partner for a network game: hosting (this device's name and pairing code,
//! waiting), browsing the ChessPIs that host nearby, typing a code or an address on the
//! keypad, connecting. The network work itself is the shell's ([`Effect::Network`]); this
//! room holds what the screen shows and what a tap means. The taps are [`Lobby`]'s own
//! methods (reached through `Controller::on`); it is opened with `Go::Lobby` (New game, the
//! command line's host) or `Go::Join` (the command line's join).

pub mod view;

use crate::app::screens::{Ctx, Effect, Go, NetworkEffect};
use crate::lan::codec::ErrorCode;
use crate::tr;
use crate::wifi::{Passphrase, Ssid};
use chesspi_engine::Color;

/// A ChessPI hosting a game nearby.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostEntry {
    pub name: String,
    /// The colour the host takes, if it said.
    pub host_colour: Option<Color>,
    /// `HOST:PORT` to connect to.
    pub target: String,
}

/// What the keypad is typing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyPurpose {
    /// The pairing code of this host.
    Code { name: String, target: String },
    /// An address (`192.168.1.20` or `192.168.1.20:7531`), then its code.
    Address,
    /// The password of another ChessPI's hotspot (sixteen digits; eight on an older one).
    Hotspot(Ssid),
}

/// The keypad as the screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeypadView {
    pub title: String,
    pub text: String,
    pub message: String,
    pub alert: bool,
    pub address: bool,
    pub can_submit: bool,
}

/// The steps of finding a partner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lobby {
    Hosting {
        name: String,
        code: String,
        /// This device's addresses, for a guest that cannot find it on the network.
        addresses: Vec<String>,
        /// This device's hotspot, when asked for ("no router").
        hotspot: Option<HostHotspot>,
        /// The Wi-Fi thread said a Wi-Fi radio is here: a hotspot can be made (not on a
        /// desktop without NetworkManager, nor on a device without Wi-Fi).
        radio: bool,
    },
    Browsing {
        hosts: Vec<HostEntry>,
        /// Other ChessPIs' hotspots in range (Wi-Fi).
        hotspots: Vec<Ssid>,
        /// Whether this device looks for hosts (discovery on and working); without it hosts
        /// are joined by address only.
        looking: bool,
        /// The Wi-Fi thread said a Wi-Fi radio is here: other ChessPIs' hotspots are looked
        /// for.
        radio: bool,
    },
    Keypad {
        purpose: KeyPurpose,
        text: String,
        message: String,
        alert: bool,
    },
    Connecting {
        name: String,
        message: String,
        /// The host's `HOST:PORT` when joining with a code: a wrong code asks again for it.
        target: Option<String>,
    },
}

/// This device's hotspot for a game without a router.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostHotspot {
    pub ssid: Ssid,
    pub password: Passphrase,
    pub state: HotspotState,
}

impl HostHotspot {
    /// The host's hotspot, in the words of the waiting dialog.
    fn line(&self) -> String {
        match &self.state {
            HotspotState::Opening => tr!("Opening the hotspot {}…", self.ssid),
            HotspotState::Open => tr!(
                "Hotspot {} is open, password {}. On the other ChessPI choose it in Join a game.",
                self.ssid,
                crate::wifi::grouped_digits(self.password.as_str())
            ),
            HotspotState::Failed(why) => tr!("The hotspot could not open: {}", why),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HotspotState {
    Opening,
    Open,
    Failed(String),
}

/// Pairing codes have four digits.
const CODE_LEN: usize = 4;
/// Hosts and hotspots listed at most (the dialog's room).
const MAX_LISTED: usize = 4;
/// Longest address typed: `255.255.255.255:65535`.
const ADDRESS_LEN: usize = 21;

impl Lobby {
    /// The lobby as the New game form opens it: hosting as `host`, or browsing.
    pub(in crate::app::screens) fn open(
        cx: &mut Ctx,
        host: Option<Color>,
        clock: Option<crate::app::model::clock::TimeControl>,
    ) -> Lobby {
        match host {
            Some(local) => {
                cx.effect(Effect::Network(NetworkEffect::Host { local, clock }));
                // Whether a hotspot can be made here: the Wi-Fi thread's look says.
                if cx.wifi_allowed {
                    cx.effect(Effect::Wifi(crate::wifi::worker::WifiRequest::Look));
                }
                Lobby::Hosting {
                    name: String::new(),
                    code: String::new(),
                    addresses: Vec::new(),
                    hotspot: None,
                    radio: false,
                }
            }
            None => Lobby::browsing(cx),
        }
    }

    /// The keypad for the host at `target` (the command line's join): with its `code`
    /// typed, connecting at once; without, asking for it.
    pub(in crate::app::screens) fn join(cx: &mut Ctx, target: &str, code: Option<&str>) -> Lobby {
        let purpose = KeyPurpose::Code {
            name: target.to_string(),
            target: target.to_string(),
        };
        match code {
            Some(code) => {
                let mut lobby = Lobby::Keypad {
                    purpose,
                    text: code.to_string(),
                    message: String::new(),
                    alert: false,
                };
                lobby.submit(cx);
                lobby
            }
            None => Lobby::keypad(purpose),
        }
    }

    /// Looks for hosts on the network, and for other ChessPIs' hotspots where Wi-Fi is set up
    /// (the scan's look says whether a radio is here).
    pub(super) fn browsing(cx: &mut Ctx) -> Lobby {
        cx.effect(Effect::Network(NetworkEffect::Browse));
        if cx.wifi_allowed {
            cx.effect(Effect::Wifi(crate::wifi::worker::WifiRequest::Scan));
        }
        Lobby::Browsing {
            hosts: Vec::new(),
            hotspots: Vec::new(),
            looking: true,
            radio: false,
        }
    }

    /// The shell is hosting: this device's name, the code a guest must give, and the
    /// addresses it may type where it does not find this device in its list.
    pub fn hosting(&mut self, name: &str, code: &str, addresses: &[String]) {
        if let Lobby::Hosting {
            name: n,
            code: c,
            addresses: a,
            ..
        } = self
        {
            *n = name.to_string();
            *c = code.to_string();
            *a = addresses.to_vec();
        }
    }

    /// The hosts found nearby, as they come and go.
    pub fn found(&mut self, found: Vec<HostEntry>) {
        if let Lobby::Browsing { hosts, .. } = self {
            *hosts = found;
        }
    }

    /// This device cannot look for hosts (discovery is off, or failed to start): the list
    /// says so and points at the address.
    pub fn not_looking(&mut self) {
        if let Lobby::Browsing { looking, .. } = self {
            *looking = false;
        }
    }

    /// The host refused us, or could not be reached (`code` is `None`).
    pub fn refused(&mut self, cx: &mut Ctx, code: Option<ErrorCode>, text: &str) {
        let Lobby::Connecting { name, target, .. } = self.clone() else {
            return;
        };
        match code {
            Some(ErrorCode::BadCode) => {
                // Back to the keypad for the same host: try again.
                if let Some(target) = target {
                    *self = Lobby::Keypad {
                        purpose: KeyPurpose::Code { name, target },
                        text: String::new(),
                        message: tr!("Wrong code — try again"),
                        alert: true,
                    };
                }
            }
            Some(ErrorCode::Busy) => failed(cx, &tr!("{} is already playing.", name)),
            Some(ErrorCode::Closed) => {
                failed(
                    cx,
                    &tr!("{} takes no partner for this game any more.", name),
                );
            }
            Some(ErrorCode::Version) => {
                failed(cx, &tr!("{} runs another version of ChessPI.", name));
            }
            Some(_) => failed(cx, &tr!("{} refused: {}", name, text)),
            None => {
                *self = Lobby::Connecting {
                    name,
                    target,
                    message: tr!("Not reachable yet ({}); trying again…", text),
                };
            }
        }
    }

    /// Leaves the lobby (the shell could not start what it asked for).
    pub fn close(&mut self, cx: &mut Ctx) {
        cx.go(Go::Back);
    }

    /// A choice in a lobby dialog.
    pub fn option(&mut self, cx: &mut Ctx, id: &str) {
        match (self.clone(), id) {
            (Lobby::Browsing { hosts, .. }, id) if id.starts_with("host:") => {
                let chosen = id
                    .strip_prefix("host:")
                    .and_then(|n| n.parse::<usize>().ok())
                    .and_then(|i| hosts.get(i));
                if let Some(h) = chosen {
                    *self = Lobby::keypad(KeyPurpose::Code {
                        name: h.name.clone(),
                        target: h.target.clone(),
                    });
                }
            }
            (
                Lobby::Browsing {
                    hosts, hotspots, ..
                },
                id,
            ) if id.starts_with("hotspot:") => {
                // Listed after the hosts.
                let chosen = id
                    .strip_prefix("hotspot:")
                    .and_then(|n| n.parse::<usize>().ok())
                    .and_then(|i| i.checked_sub(hosts.len().min(MAX_LISTED)))
                    .and_then(|i| hotspots.get(i));
                if let Some(ssid) = chosen {
                    *self = Lobby::keypad(KeyPurpose::Hotspot(ssid.clone()));
                }
            }
            (
                Lobby::Hosting {
                    name,
                    hotspot: None,
                    radio: true,
                    ..
                },
                "hotspot",
            ) if !name.is_empty() => {
                self.open_hotspot(cx, &name);
            }
            (Lobby::Browsing { .. }, "address") => *self = Lobby::keypad(KeyPurpose::Address),
            (_, "cancel") => {
                cx.go(Go::Back);
                cx.effect(Effect::Network(NetworkEffect::Cancel));
            }
            _ => {}
        }
    }

    /// The keypad, empty, asking for `purpose`.
    fn keypad(purpose: KeyPurpose) -> Lobby {
        let message = keypad_prompt(&purpose);
        Lobby::Keypad {
            purpose,
            text: String::new(),
            message,
            alert: false,
        }
    }

    /// A key of the keypad: a digit, "." or ":", or "⌫".
    pub fn key(&mut self, key: &str) {
        let Lobby::Keypad {
            purpose,
            text,
            message,
            alert,
        } = self
        else {
            return;
        };
        let address = *purpose == KeyPurpose::Address;
        let limit = match purpose {
            KeyPurpose::Address => ADDRESS_LEN,
            KeyPurpose::Code { .. } => CODE_LEN,
            KeyPurpose::Hotspot(_) => crate::wifi::HOTSPOT_PASSWORD_DIGITS,
        };
        match key {
            "⌫" => {
                text.pop();
            }
            "." | ":" if address && text.len() < limit => text.push_str(key),
            k if k.len() == 1 && k.as_bytes()[0].is_ascii_digit() && text.len() < limit => {
                text.push_str(k);
            }
            _ => return,
        }
        // Typing again: "Wrong code — try again" has been read; the prompt comes back.
        if *alert {
            *alert = false;
            *message = keypad_prompt(purpose);
        }
    }

    /// OK on the keypad.
    pub fn submit(&mut self, cx: &mut Ctx) {
        let Lobby::Keypad { purpose, text, .. } = self.clone() else {
            return;
        };
        match purpose {
            KeyPurpose::Code { name, target } if text.len() == CODE_LEN => {
                *self = Lobby::Connecting {
                    name: name.clone(),
                    message: tr!("Connecting to {}…", name),
                    target: Some(target.clone()),
                };
                cx.effect(Effect::Network(NetworkEffect::Join {
                    target,
                    name,
                    code: text,
                }));
            }
            KeyPurpose::Address => match address_target(&text) {
                Some(target) => {
                    *self = Lobby::keypad(KeyPurpose::Code {
                        name: text.clone(),
                        target,
                    });
                }
                None => {
                    if let Lobby::Keypad { message, alert, .. } = self {
                        *message = tr!("That is not an address like 192.168.1.20");
                        *alert = true;
                    }
                }
            },
            KeyPurpose::Hotspot(ssid) if crate::wifi::hotspot_password_complete(&text) => {
                if let Ok(password) = Passphrase::new(&text) {
                    self.join_hotspot(cx, ssid, password);
                }
            }
            KeyPurpose::Code { .. } | KeyPurpose::Hotspot(_) => {}
        }
    }

    /// Cancel on the keypad: back to the list of hosts.
    pub fn keypad_cancel(&mut self, cx: &mut Ctx) {
        if let Lobby::Keypad { .. } = self {
            *self = Lobby::browsing(cx);
        }
    }
}

/// No network game after all: the lobby closes, its network work stops, and a message says
/// why.
pub(super) fn failed(cx: &mut Ctx, message: &str) {
    cx.go(Go::Back);
    cx.effect(Effect::Network(NetworkEffect::Cancel));
    cx.go(Go::Info {
        title: tr!("No network game"),
        message: message.to_string(),
    });
}

/// What the keypad asks for, before anything goes wrong.
fn keypad_prompt(purpose: &KeyPurpose) -> String {
    match purpose {
        KeyPurpose::Code { .. } => tr!("The code is shown on the other ChessPI"),
        KeyPurpose::Address => tr!("Address of the other ChessPI, e.g. 192.168.1.20"),
        KeyPurpose::Hotspot(_) => tr!("The password is shown on the other ChessPI"),
    }
}

/// `HOST:PORT` from a typed address; the default port when none is given.
pub fn address_target(text: &str) -> Option<String> {
    let (host, port) = match text.split_once(':') {
        Some((h, p)) => (h, p.parse::<u16>().ok().filter(|&p| p > 0)?),
        None => (text, crate::lan::net::DEFAULT_PORT),
    };
    let ip: std::net::Ipv4Addr = host.parse().ok()?;
    Some(format!("{ip}:{port}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_addresses() {
        assert_eq!(
            address_target("192.168.1.20").as_deref(),
            Some("192.168.1.20:7531")
        );
        assert_eq!(
            address_target("10.0.0.1:9000").as_deref(),
            Some("10.0.0.1:9000")
        );
        assert_eq!(address_target("10.0.0"), None);
        assert_eq!(address_target("10.0.0.1:"), None);
        assert_eq!(address_target("10.0.0.1:0"), None);
        assert_eq!(address_target("300.0.0.1"), None);
        assert_eq!(address_target(""), None);
    }
}
