//! The lobby as the screen shows it: its dialog (hosting, the Join list, connecting) and
//! the keypad.

use super::{
    CODE_LEN, HostEntry, HostHotspot, HotspotState, KeyPurpose, KeypadView, Lobby, MAX_LISTED,
    address_target,
};
use crate::app::screens::{DialogOption, DialogView};
use crate::tr;
use chesspi_engine::Color;

impl Lobby {
    /// The keypad as the screen shows it.
    pub fn keypad_view(&self) -> Option<KeypadView> {
        let Lobby::Keypad {
            purpose,
            text,
            message,
            alert,
        } = self
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
    pub fn view(&self) -> Option<DialogView> {
        let opt = |id: String, label: String, primary: bool| DialogOption {
            id,
            label,
            primary,
            danger: false,
            enabled: true,
            name: false,
        };
        let cancel = || opt("cancel".into(), tr!("Cancel"), false);
        let (title, message, options) = match self {
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
                radio,
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
                } else if *radio {
                    options.push(opt(
                        "hotspot".into(),
                        tr!("No router: make a hotspot"),
                        false,
                    ));
                }
                options.push(cancel());
                // The address helps unless the game is found over an open hotspot.
                let failed = |h: &HostHotspot| matches!(h.state, HotspotState::Failed(_));
                if hotspot.as_ref().is_none_or(failed) && !addresses.is_empty() {
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
                ..
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
            Lobby::Connecting { name, message, .. } => {
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

fn host_label(h: &HostEntry) -> String {
    match h.host_colour {
        Some(Color::White) => tr!("{} (plays White)", h.name),
        Some(Color::Black) => tr!("{} (plays Black)", h.name),
        None => h.name.clone(),
    }
}
