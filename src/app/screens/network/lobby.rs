//! Finding a partner for a network game: hosting (this device's name and pairing code,
//! waiting), browsing the ChessPIs that host nearby, typing a code or an address on the
//! keypad, connecting. The network work itself is the shell's ([`Effect::Network`]); this
//! room holds what the screen shows and what a tap means.

use crate::app::screens::{Controller, DialogOption, DialogView, Effect};
use crate::app::screens::{Screen, ScreenKind};
use crate::lan::codec::ErrorCode;
use crate::tr;
use crate::wifi::{Passphrase, Ssid};
use chesspi_engine::Color;

/// What the shell must do for the lobby.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkEffect {
    /// Offer a game, this device playing `local`, with clocks when `clock` is set.
    Host {
        local: Color,
        clock: Option<crate::app::model::clock::TimeControl>,
    },
    /// Look for hosts nearby (their list comes back through [`Controller::lobby_hosts`]).
    Browse,
    /// Join the host at `target` (`HOST:PORT`) with its pairing code.
    Join {
        target: String,
        name: String,
        code: String,
    },
    /// Stop hosting, browsing or joining.
    Cancel,
    /// Stop the network game without a goodbye: it was adjourned and can be played on later.
    Adjourn,
}

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
    },
    Browsing {
        hosts: Vec<HostEntry>,
        /// Other ChessPIs' hotspots in range (Wi-Fi).
        hotspots: Vec<Ssid>,
        /// Whether this device looks for hosts (discovery on and working); without it hosts
        /// are joined by address only.
        looking: bool,
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

impl Controller {
    /// The lobby step on screen, if any.
    pub fn lobby(&self) -> Option<&Lobby> {
        self.screen.lobby()
    }

    fn network(&mut self, effect: NetworkEffect) {
        self.effects.push(Effect::Network(effect));
    }

    /// Starts hosting or browsing, from the New game form.
    pub(in crate::app::screens) fn open_lobby(
        &mut self,
        host: Option<Color>,
        clock: Option<crate::app::model::clock::TimeControl>,
    ) {
        self.dialog = None;
        match host {
            Some(local) => {
                self.screen = Screen::Lobby(Lobby::Hosting {
                    name: String::new(),
                    code: String::new(),
                    addresses: Vec::new(),
                    hotspot: None,
                });
                self.network(NetworkEffect::Host { local, clock });
            }
            None => self.browse(),
        }
    }

    /// Looks for hosts on the network, and for other ChessPIs' hotspots where Wi-Fi is set up.
    pub(in crate::app::screens) fn browse(&mut self) {
        self.screen = Screen::Lobby(Lobby::Browsing {
            hosts: Vec::new(),
            hotspots: Vec::new(),
            looking: true,
        });
        self.network(NetworkEffect::Browse);
        if self.wifi_allowed() {
            self.effects
                .push(Effect::Wifi(crate::wifi::worker::WifiRequest::Scan));
        }
    }

    /// Hosts a network game at once (the command line's `--lan-host`).
    pub fn host_network(&mut self, local: Color) {
        self.screen.close(ScreenKind::NewGame);
        self.open_lobby(Some(local), None);
    }

    /// Joins the host at `target` at once (`--lan-join`): with its code, or asking for it.
    pub fn join_network(&mut self, target: &str, code: Option<&str>) {
        self.screen.close(ScreenKind::NewGame);
        self.dialog = None;
        let purpose = KeyPurpose::Code {
            name: target.to_string(),
            target: target.to_string(),
        };
        match code {
            Some(code) => {
                self.screen = Screen::Lobby(Lobby::Keypad {
                    purpose,
                    text: code.to_string(),
                    message: String::new(),
                    alert: false,
                });
                self.keypad_submit();
            }
            None => self.keypad(purpose),
        }
    }

    /// The shell is hosting: this device's name, the code a guest must give, and the
    /// addresses it may type where it does not find this device in its list.
    pub fn lobby_hosting(&mut self, name: &str, code: &str, addresses: &[String]) {
        if let Some(Lobby::Hosting { hotspot, .. }) = self.screen.lobby() {
            self.screen = Screen::Lobby(Lobby::Hosting {
                name: name.to_string(),
                code: code.to_string(),
                addresses: addresses.to_vec(),
                hotspot: hotspot.clone(),
            });
        }
    }

    /// The hosts found nearby, as they come and go.
    pub fn lobby_hosts(&mut self, found: Vec<HostEntry>) {
        if let Some(Lobby::Browsing { hosts, .. }) = self.screen.lobby_mut() {
            *hosts = found;
        }
    }

    /// This device cannot look for hosts (discovery is off, or failed to start): the list
    /// says so and points at the address.
    pub fn lobby_not_looking(&mut self) {
        if let Some(Lobby::Browsing { looking, .. }) = self.screen.lobby_mut() {
            *looking = false;
        }
    }

    /// The host refused us, or could not be reached (`code` is `None`).
    pub fn lobby_refused(&mut self, code: Option<ErrorCode>, text: &str) {
        let Some(Lobby::Connecting { name, .. }) = self.screen.lobby().cloned() else {
            return;
        };
        match code {
            Some(ErrorCode::BadCode) => {
                // Back to the keypad for the same host: try again.
                if let Some(KeyPurpose::Code { target, .. }) = self.last_code_target.clone() {
                    self.screen = Screen::Lobby(Lobby::Keypad {
                        purpose: KeyPurpose::Code { name, target },
                        text: String::new(),
                        message: tr!("Wrong code — try again"),
                        alert: true,
                    });
                }
            }
            Some(ErrorCode::Busy) => self.lobby_failed(&tr!("{} is already playing.", name)),
            Some(ErrorCode::Closed) => {
                self.lobby_failed(&tr!("{} takes no partner for this game any more.", name));
            }
            Some(ErrorCode::Version) => {
                self.lobby_failed(&tr!("{} runs another version of ChessPI.", name));
            }
            Some(_) => self.lobby_failed(&tr!("{} refused: {}", name, text)),
            None => {
                self.screen = Screen::Lobby(Lobby::Connecting {
                    name,
                    message: tr!("Not reachable yet ({}); trying again…", text),
                });
            }
        }
    }

    /// Leaves the lobby (the shell could not start what it asked for).
    pub fn lobby_cancel(&mut self) {
        self.screen.close(ScreenKind::Lobby);
    }

    fn lobby_failed(&mut self, message: &str) {
        self.screen.close(ScreenKind::Lobby);
        self.network(NetworkEffect::Cancel);
        self.show_info(&tr!("No network game"), message);
    }

    /// A choice in a lobby dialog.
    pub(in crate::app::screens) fn lobby_option(&mut self, id: &str) {
        let Some(lobby) = self.screen.lobby().cloned() else {
            return;
        };
        match (lobby, id) {
            (Lobby::Browsing { hosts, .. }, id) if id.starts_with("host:") => {
                let chosen = id
                    .strip_prefix("host:")
                    .and_then(|n| n.parse::<usize>().ok())
                    .and_then(|i| hosts.get(i));
                if let Some(h) = chosen {
                    self.keypad(KeyPurpose::Code {
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
                    self.keypad(KeyPurpose::Hotspot(ssid.clone()));
                }
            }
            (
                Lobby::Hosting {
                    name,
                    hotspot: None,
                    ..
                },
                "hotspot",
            ) if !name.is_empty() => {
                self.open_hotspot(&name);
            }
            (Lobby::Browsing { .. }, "address") => self.keypad(KeyPurpose::Address),
            (_, "cancel") => {
                self.screen.close(ScreenKind::Lobby);
                self.network(NetworkEffect::Cancel);
            }
            _ => {}
        }
    }

    fn keypad(&mut self, purpose: KeyPurpose) {
        let message = keypad_prompt(&purpose);
        self.screen = Screen::Lobby(Lobby::Keypad {
            purpose,
            text: String::new(),
            message,
            alert: false,
        });
    }

    /// A key of the keypad: a digit, "." or ":", or "⌫".
    pub fn keypad_key(&mut self, key: &str) {
        let Some(Lobby::Keypad {
            purpose,
            text,
            message,
            alert,
        }) = self.screen.lobby_mut()
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
    pub fn keypad_submit(&mut self) {
        let Some(Lobby::Keypad { purpose, text, .. }) = self.screen.lobby().cloned() else {
            return;
        };
        match purpose {
            KeyPurpose::Code { name, target } if text.len() == CODE_LEN => {
                self.last_code_target = Some(KeyPurpose::Code {
                    name: name.clone(),
                    target: target.clone(),
                });
                self.screen = Screen::Lobby(Lobby::Connecting {
                    name: name.clone(),
                    message: tr!("Connecting to {}…", name),
                });
                self.network(NetworkEffect::Join {
                    target,
                    name,
                    code: text,
                });
            }
            KeyPurpose::Address => match address_target(&text) {
                Some(target) => self.keypad(KeyPurpose::Code {
                    name: text.clone(),
                    target,
                }),
                None => {
                    if let Some(Lobby::Keypad { message, alert, .. }) = self.screen.lobby_mut() {
                        *message = tr!("That is not an address like 192.168.1.20");
                        *alert = true;
                    }
                }
            },
            KeyPurpose::Hotspot(ssid) if crate::wifi::hotspot_password_complete(&text) => {
                if let Ok(password) = Passphrase::new(&text) {
                    self.join_hotspot(ssid, password);
                }
            }
            KeyPurpose::Code { .. } | KeyPurpose::Hotspot(_) => {}
        }
    }

    /// Cancel on the keypad: back to the list of hosts.
    pub fn keypad_cancel(&mut self) {
        if let Some(Lobby::Keypad { .. }) = self.screen.lobby() {
            self.browse();
        }
    }

    /// The keypad as the screen shows it.
    pub fn keypad_view(&self) -> Option<KeypadView> {
        let Some(Lobby::Keypad {
            purpose,
            text,
            message,
            alert,
        }) = self.screen.lobby()
        else {
            return None;
        };
        let (title, address, can_submit) = match purpose {
            KeyPurpose::Code { name, .. } => {
                (tr!("Code for {}", name), false, text.len() == CODE_LEN)
            }
            KeyPurpose::Address => (
                tr!("Address of the other ChessPI"),
                true,
                address_target(text).is_some(),
            ),
            KeyPurpose::Hotspot(ssid) => (
                tr!("Password of {}", ssid),
                false,
                crate::wifi::hotspot_password_complete(text),
            ),
        };
        // A password is shown in groups of four, as the other ChessPI shows it.
        let shown = match purpose {
            KeyPurpose::Hotspot(_) => crate::wifi::grouped_digits(text),
            _ => text.clone(),
        };
        Some(KeypadView {
            title,
            text: shown,
            message: message.clone(),
            alert: *alert,
            address,
            can_submit,
        })
    }

    /// The lobby's dialog (all but the keypad).
    pub(in crate::app::screens) fn lobby_view(&self) -> Option<DialogView> {
        let opt = |id: String, label: String, primary: bool| DialogOption {
            id,
            label,
            primary,
            danger: false,
        };
        let cancel = || opt("cancel".into(), tr!("Cancel"), false);
        let (title, message, options) = match self.screen.lobby()? {
            // The code in the title's big letters: it is read from across the table.
            Lobby::Hosting { name, code, .. } if code.is_empty() => (
                tr!("Waiting for a partner…"),
                tr!("Opening the game on the network as {}…", name),
                vec![cancel()],
            ),
            Lobby::Hosting {
                name,
                code,
                addresses,
                hotspot,
            } => {
                let mut message = tr!(
                    "Waiting for a partner… On the other ChessPI: New game, Network, Join a \
                     game, then {}, then this code.",
                    name
                );
                let mut options = Vec::new();
                if let Some(h) = hotspot {
                    message.push('\n');
                    message.push_str(&h.line());
                } else if self.wifi_allowed() {
                    options.push(opt(
                        "hotspot".into(),
                        tr!("No router: make a hotspot"),
                        false,
                    ));
                }
                options.push(cancel());
                if hotspot.is_none() && !addresses.is_empty() {
                    message.push('\n');
                    message.push_str(&tr!(
                        "Not in its list? There tap Enter address and type {}",
                        addresses.join(tr!(" or ").as_str())
                    ));
                }
                (tr!("Pairing code {}", code), message, options)
            }
            Lobby::Browsing {
                hosts,
                hotspots,
                looking,
            } => {
                let mut options: Vec<DialogOption> = hosts
                    .iter()
                    .enumerate()
                    .take(MAX_LISTED)
                    .map(|(i, h)| opt(format!("host:{i}"), host_label(h), true))
                    .collect();
                let shown = options.len();
                options.extend(hotspots.iter().take(MAX_LISTED - shown).enumerate().map(
                    |(i, ssid)| {
                        opt(
                            format!("hotspot:{}", shown + i),
                            tr!("{} (hotspot)", ssid),
                            false,
                        )
                    },
                ));
                options.push(opt("address".into(), tr!("Enter address"), false));
                options.push(cancel());
                let message = if !hosts.is_empty() {
                    tr!("Tap a ChessPI to join its game.")
                } else if !hotspots.is_empty() {
                    tr!("A ChessPI nearby opened a hotspot: tap it and type its password.")
                } else if *looking {
                    tr!(
                        "Looking for ChessPIs hosting a game on this network… Not found? Tap \
                         Enter address and type the address the host shows."
                    )
                } else {
                    tr!(
                        "This ChessPI does not look for games on the network (discovery is \
                         off). Tap Enter address and type the address the host shows."
                    )
                };
                (tr!("Join a game"), message, options)
            }
            Lobby::Connecting { name, message } => {
                (tr!("Joining {}", name), message.clone(), vec![cancel()])
            }
            Lobby::Keypad { .. } => return None,
        };
        Some(DialogView {
            title,
            message,
            options,
            confirmation: false,
        })
    }
}

/// What the keypad asks for, before anything goes wrong.
fn keypad_prompt(purpose: &KeyPurpose) -> String {
    match purpose {
        KeyPurpose::Code { .. } => tr!("The code is shown on the other ChessPI"),
        KeyPurpose::Address => tr!("Address of the other ChessPI, e.g. 192.168.1.20"),
        KeyPurpose::Hotspot(_) => tr!("The password is shown on the other ChessPI"),
    }
}

fn host_label(h: &HostEntry) -> String {
    match h.host_colour {
        Some(Color::White) => tr!("{} (plays White)", h.name),
        Some(Color::Black) => tr!("{} (plays Black)", h.name),
        None => h.name.clone(),
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
