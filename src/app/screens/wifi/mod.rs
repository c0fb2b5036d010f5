//! Settings → Wi-Fi: the networks in range with their signal, joining one (a password typed on
//! the shared on-screen keyboard), the current network and its address, forgetting one. The work is
//! done by the Wi-Fi thread (crate::wifi); this screen asks it through effects and shows its
//! reports.

pub mod view;

#[cfg(test)]
mod tests;

use super::keyboard::{Key, Keyboard};
use super::{Controller, Ctx, Effect, Go};
use crate::tr;
use crate::wifi::worker::{WifiReport, WifiRequest};
use crate::wifi::{JoinError, Network, Passphrase, Security, Ssid, WifiState};

/// The Wi-Fi screen's state.
#[derive(Debug, Clone, Default)]
pub struct WifiScreen {
    state: WifiState,
    networks: Vec<Network>,
    page: Page,
    /// The last outcome, or why something cannot be done.
    message: Option<Message>,
}

#[derive(Debug, Clone, Default)]
enum Page {
    /// The networks in range.
    #[default]
    List,
    /// A network joined before, or the current one: join it, forget it.
    Chosen(Network),
    /// Typing the password of a network joined for the first time.
    Password {
        network: Network,
        keyboard: Keyboard,
        shown: bool,
    },
    /// Waiting for the Wi-Fi thread to join; `typed` is the password being tried, given back
    /// to correct it if it is refused.
    Joining { ssid: Ssid, typed: Option<Keyboard> },
    /// Waiting for the Wi-Fi thread to forget a network.
    Forgetting(Ssid),
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Message {
    text: String,
    alert: bool,
}

/// Which part of the screen shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WifiPageKind {
    List,
    Chosen,
    Password,
    Working,
}

/// A network in the list as the screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WifiRow {
    pub name: String,
    /// 1–4.
    pub bars: u8,
    /// "Connected", "Saved", "Password", "Open", "Not supported".
    pub detail: String,
    pub active: bool,
}

/// The Wi-Fi screen as it is drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WifiView {
    pub page: WifiPageKind,
    pub title: String,
    /// The device's Wi-Fi: "Connected to Home · 192.168.4.23".
    pub status: String,
    pub message: String,
    pub alert: bool,
    pub rows: Vec<WifiRow>,
    /// The chosen network's name and what can be done with it.
    pub chosen: String,
    pub can_join: bool,
    /// The password as typed, or dots while hidden.
    pub password: String,
    pub password_shown: bool,
    pub keys: Vec<Vec<Key>>,
}

impl WifiScreen {
    fn show(&mut self, text: String, alert: bool) {
        self.message = Some(Message { text, alert });
    }

    fn network(&self, ssid: &Ssid) -> Option<&Network> {
        self.networks.iter().find(|n| n.ssid == *ssid)
    }
}

/// The device's Wi-Fi in a line.
fn status_line(state: &WifiState) -> String {
    match state {
        WifiState::Unknown => tr!("Looking at the Wi-Fi…"),
        WifiState::NoManager(_) => {
            tr!("Wi-Fi cannot be set up here: NetworkManager does not answer.")
        }
        WifiState::NoRadio => tr!("This device has no Wi-Fi."),
        WifiState::Off => tr!("Wi-Fi is switched off."),
        WifiState::Disconnected => tr!("Not connected."),
        WifiState::Connecting(ssid) => tr!("Joining {}…", ssid),
        WifiState::Connected {
            ssid,
            address: Some(address),
        } => tr!("Connected to {} · {}", ssid, address),
        WifiState::Connected {
            ssid,
            address: None,
        } => {
            tr!("Connected to {} · no address yet", ssid)
        }
    }
}

fn row(n: &Network) -> WifiRow {
    let detail = if n.active {
        tr!("Connected")
    } else if n.known {
        tr!("Saved")
    } else {
        match n.security {
            Security::Open => tr!("Open"),
            Security::Password => tr!("Password"),
            Security::Unsupported => tr!("Not supported"),
        }
    };
    WifiRow {
        name: n.ssid.to_string(),
        bars: n.bars(),
        detail,
        active: n.active,
    }
}

fn join_failed(ssid: &Ssid, error: &JoinError) -> String {
    match error {
        JoinError::WrongPassword => {
            tr!(
                "{} did not accept the password. Check it and try again.",
                ssid
            )
        }
        JoinError::NotFound => tr!("{} is not in range any more.", ssid),
        JoinError::Timeout => tr!("{} did not answer in time. Try again nearer to it.", ssid),
        JoinError::Failed(why) => tr!("Could not join {}: {}", ssid, why),
    }
}

impl Controller {
    /// A report of the Wi-Fi thread: for this screen while it is open, else for the lobby.
    pub fn wifi_report(&mut self, report: WifiReport) {
        if self.shown::<WifiScreen>().is_some() {
            self.on(|w: &mut WifiScreen, _| w.report(report));
        } else {
            // The Join list's hotspots, or the host's own.
            self.go(Go::LobbyWifi(report));
        }
    }
}

impl WifiScreen {
    /// A report of the Wi-Fi thread.
    pub fn report(&mut self, report: WifiReport) {
        match report {
            WifiReport::Looked { state, networks } => {
                if let WifiState::NoManager(why) = &state
                    && self.state != state
                {
                    log::warn!("Wi-Fi: {why}");
                }
                self.state = state;
                match networks {
                    Ok(networks) => self.networks = networks,
                    Err(e) => log::warn!("Wi-Fi networks: {e}"),
                }
            }
            WifiReport::Joined { ssid, result } => {
                let typed = match std::mem::take(&mut self.page) {
                    Page::Joining { ssid: s, typed } if s == ssid => Some(typed),
                    page => {
                        self.page = page;
                        None
                    }
                };
                let waiting = typed.is_some();
                match result {
                    Ok(state) => {
                        // The list shows it at once, before the next look.
                        for n in &mut self.networks {
                            n.active = n.ssid == ssid;
                            n.known |= n.active;
                        }
                        self.networks.sort_by_key(|n| !n.active);
                        self.state = state;
                        self.show(tr!("Joined {}.", ssid), false);
                        if waiting {
                            self.page = Page::List;
                        }
                    }
                    Err(error) => {
                        self.show(join_failed(&ssid, &error), true);
                        if waiting {
                            self.page = match (error, self.network(&ssid).cloned()) {
                                // The password is kept on screen, to correct a typo.
                                (JoinError::WrongPassword, Some(network))
                                    if network.security == Security::Password =>
                                {
                                    Page::Password {
                                        network,
                                        keyboard: typed.flatten().unwrap_or_default(),
                                        shown: false,
                                    }
                                }
                                _ => Page::List,
                            };
                        }
                    }
                }
            }
            // Hotspots belong to the lobby, not to this screen.
            WifiReport::HotspotOpened { .. } | WifiReport::HotspotJoined { .. } => {}
            WifiReport::Forgot { ssid, result } => {
                match result {
                    Ok(()) => self.show(tr!("{} forgotten.", ssid), false),
                    Err(e) => self.show(tr!("Could not forget {}: {}", ssid, e), true),
                }
                if matches!(&self.page, Page::Forgetting(s) if *s == ssid) {
                    self.page = Page::List;
                }
            }
        }
    }

    /// A network in the list was tapped.
    pub fn tap_row(&mut self, cx: &mut Ctx, index: usize) {
        if !matches!(self.page, Page::List) {
            return;
        }
        let Some(network) = self.networks.get(index).cloned() else {
            return;
        };
        self.message = None;
        if network.active || network.known {
            self.page = Page::Chosen(network);
            return;
        }
        match network.security {
            Security::Open => self.join(cx, network.ssid, None, None),
            Security::Password => {
                self.page = Page::Password {
                    network,
                    keyboard: Keyboard::default(),
                    shown: false,
                };
            }
            Security::Unsupported => self.show(
                tr!(
                    "{} needs a sign-in ChessPI cannot do (enterprise or WEP).",
                    network.ssid
                ),
                true,
            ),
        }
    }

    fn join(
        &mut self,
        cx: &mut Ctx,
        ssid: Ssid,
        password: Option<Passphrase>,
        typed: Option<Keyboard>,
    ) {
        self.page = Page::Joining {
            ssid: ssid.clone(),
            typed,
        };
        self.message = None;
        cx.effect(Effect::Wifi(WifiRequest::Join { ssid, password }));
    }

    /// A button of the Wi-Fi screen: `close`, `scan`, `back`, `join`, `forget`, `show`,
    /// `submit`.
    pub fn button(&mut self, cx: &mut Ctx, id: &str) {
        match (std::mem::take(&mut self.page), id) {
            // Back to Settings, where the screen was opened from.
            (_, "close") => {
                cx.go(Go::Back);
                cx.go(Go::Settings);
            }
            (page @ Page::List, "scan") => {
                self.page = page;
                self.message = None;
                cx.effect(Effect::Wifi(WifiRequest::Scan));
            }
            (Page::Chosen(network), "join") if !network.active => {
                self.join(cx, network.ssid, None, None);
            }
            (Page::Chosen(network), "forget") => {
                self.page = Page::Forgetting(network.ssid.clone());
                cx.effect(Effect::Wifi(WifiRequest::Forget(network.ssid)));
            }
            (
                Page::Password {
                    network,
                    keyboard,
                    shown,
                },
                "show",
            ) => {
                self.page = Page::Password {
                    network,
                    keyboard,
                    shown: !shown,
                };
            }
            (
                Page::Password {
                    network,
                    keyboard,
                    shown,
                },
                "submit",
            ) => match Passphrase::new(keyboard.text()) {
                Ok(password) => self.join(cx, network.ssid, Some(password), Some(keyboard)),
                Err(e) => {
                    self.show(passphrase_problem(e), true);
                    self.page = Page::Password {
                        network,
                        keyboard,
                        shown,
                    };
                }
            },
            (Page::Chosen(_) | Page::Password { .. }, "back") => {
                self.message = None;
            }
            (page, _) => self.page = page,
        }
    }

    /// A key of the on-screen keyboard.
    pub fn key(&mut self, id: &str) {
        if let WifiScreen {
            page: Page::Password { keyboard, .. },
            message,
            ..
        } = self
        {
            keyboard.tap(id);
            // A new try at the password: the last complaint is out of date.
            if message.as_ref().is_some_and(|m| m.alert) {
                *message = None;
            }
        }
    }

    /// The Wi-Fi screen as it is drawn.
    pub fn view(&self) -> WifiView {
        let (message, alert) = match &self.message {
            Some(m) => (m.text.clone(), m.alert),
            None => (String::new(), false),
        };
        let mut view = WifiView {
            page: WifiPageKind::List,
            title: tr!("Wi-Fi"),
            status: status_line(&self.state),
            message,
            alert,
            rows: self.networks.iter().map(row).collect(),
            chosen: String::new(),
            can_join: false,
            password: String::new(),
            password_shown: false,
            keys: Vec::new(),
        };
        match &self.page {
            Page::List => {
                if view.rows.is_empty() && view.message.is_empty() && has_radio(&self.state) {
                    view.message = tr!("No networks found yet.");
                }
            }
            Page::Chosen(network) => {
                view.page = WifiPageKind::Chosen;
                view.chosen = network.ssid.to_string();
                view.can_join = !network.active;
            }
            Page::Password {
                network,
                keyboard,
                shown,
            } => {
                view.page = WifiPageKind::Password;
                view.title = tr!("Password for {}", network.ssid);
                view.password = if *shown {
                    keyboard.text().to_string()
                } else {
                    "•".repeat(keyboard.text().chars().count())
                };
                view.password_shown = *shown;
                view.keys = keyboard.rows();
            }
            Page::Joining { ssid, .. } => {
                view.page = WifiPageKind::Working;
                view.chosen = ssid.to_string();
                view.message = tr!("Joining {}…", ssid);
                view.alert = false;
            }
            Page::Forgetting(ssid) => {
                view.page = WifiPageKind::Working;
                view.chosen = ssid.to_string();
                view.message = tr!("Forgetting {}…", ssid);
                view.alert = false;
            }
        }
        view
    }
}

fn passphrase_problem(e: crate::wifi::PassphraseError) -> String {
    use crate::wifi::PassphraseError;
    match e {
        PassphraseError::TooShort => tr!("A Wi-Fi password has at least 8 characters."),
        PassphraseError::TooLong => tr!("A Wi-Fi password has at most 63 characters."),
        PassphraseError::NotPrintable => {
            tr!("A Wi-Fi password has only letters, digits and symbols.")
        }
    }
}

fn has_radio(state: &WifiState) -> bool {
    matches!(
        state,
        WifiState::Disconnected | WifiState::Connecting(_) | WifiState::Connected { .. }
    )
}
