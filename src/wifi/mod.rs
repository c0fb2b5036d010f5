//! Wi-Fi: the networks in range, joining one, the current network and address, forgetting one.
//! The system's network manager does the work ([`nm::NetworkManager`], over D-Bus, as on
//! Raspberry Pi OS); the app only asks and shows. [`sim::SimulatedWifi`] stands in for a radio
//! in tests and on a desktop without one. Calls block for up to a join's time: they run on
//! the Wi-Fi thread ([`worker`]), never on the UI thread.

pub mod nm;
pub mod sim;
pub mod worker;

#[cfg(test)]
mod tests;

use std::fmt;
use std::net::IpAddr;

/// A network's name as broadcast: up to 32 bytes, usually UTF-8 text.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Ssid(Vec<u8>);

/// Why bytes are not a network name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SsidError {
    Empty,
    TooLong,
}

impl fmt::Display for SsidError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SsidError::Empty => write!(f, "a network name cannot be empty"),
            SsidError::TooLong => write!(f, "a network name has at most 32 bytes"),
        }
    }
}

impl std::error::Error for SsidError {}

impl Ssid {
    /// The longest name 802.11 allows, in bytes.
    pub const MAX_LEN: usize = 32;

    pub fn new(bytes: impl Into<Vec<u8>>) -> Result<Ssid, SsidError> {
        let bytes = bytes.into();
        if bytes.is_empty() {
            Err(SsidError::Empty)
        } else if bytes.len() > Self::MAX_LEN {
            Err(SsidError::TooLong)
        } else {
            Ok(Ssid(bytes))
        }
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Display for Ssid {
    /// The name as text to show ([`crate::text::shown`]): bytes that are not UTF-8 show as �,
    /// and anyone's access point may name itself with line breaks or bidi overrides.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = String::from_utf8_lossy(&self.0);
        f.write_str(&crate::text::shown(&text, Self::MAX_LEN))
    }
}

/// A Wi-Fi password (WPA2 personal): 8 to 63 characters, or 64 hexadecimal digits. Never
/// logged: its `Debug` hides it.
#[derive(Clone, PartialEq, Eq)]
pub struct Passphrase(String);

/// Why a password cannot be a WPA2 passphrase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassphraseError {
    TooShort,
    TooLong,
    /// Only printable ASCII is allowed (WPA2's rule).
    NotPrintable,
}

impl fmt::Display for PassphraseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PassphraseError::TooShort => write!(f, "a Wi-Fi password has at least 8 characters"),
            PassphraseError::TooLong => write!(f, "a Wi-Fi password has at most 63 characters"),
            PassphraseError::NotPrintable => {
                write!(f, "a Wi-Fi password has only letters, digits and symbols")
            }
        }
    }
}

impl std::error::Error for PassphraseError {}

impl Passphrase {
    pub fn new(text: &str) -> Result<Passphrase, PassphraseError> {
        let hex_key = text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit());
        if !text.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            Err(PassphraseError::NotPrintable)
        } else if text.len() < 8 {
            Err(PassphraseError::TooShort)
        } else if text.len() > 63 && !hex_key {
            Err(PassphraseError::TooLong)
        } else {
            Ok(Passphrase(text.to_string()))
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Passphrase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Passphrase(…)")
    }
}

/// How a network is protected, as far as joining it is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Security {
    Open,
    /// WPA/WPA2/WPA3 personal: a password.
    Password,
    /// Enterprise (802.1X) or WEP: not offered by a chess computer's keyboard.
    Unsupported,
}

/// A network in range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Network {
    pub ssid: Ssid,
    /// Signal quality, 0–100 (the strongest access point of that name).
    pub strength: u8,
    pub security: Security,
    /// Joined before: the system keeps its password.
    pub known: bool,
    /// The one this device is on now.
    pub active: bool,
}

impl Network {
    /// Signal bars, 1–4 (a network in the list is at least faintly there).
    pub fn bars(&self) -> u8 {
        match self.strength {
            0..=29 => 1,
            30..=54 => 2,
            55..=74 => 3,
            _ => 4,
        }
    }
}

/// The device's Wi-Fi as it is now.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum WifiState {
    /// Not known yet.
    #[default]
    Unknown,
    /// No network manager answers (a desktop without one, or it is not running).
    NoManager(String),
    /// The manager has no Wi-Fi radio.
    NoRadio,
    /// The radio is switched off (rfkill or the manager's switch).
    Off,
    /// On, and on no network.
    Disconnected,
    /// Joining a network.
    Connecting(Ssid),
    /// On a network; `address` once it has one.
    Connected { ssid: Ssid, address: Option<IpAddr> },
}

/// Why a join failed, in the terms the screen explains.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JoinError {
    /// The network refused the password (or asked for one that was not given).
    WrongPassword,
    /// The network is no longer in range.
    NotFound,
    /// It did not complete in time (no address from the network, or no answer).
    Timeout,
    /// The manager, the radio or the bus failed; the text is for the log and the screen.
    Failed(String),
}

impl fmt::Display for JoinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JoinError::WrongPassword => write!(f, "the password was not accepted"),
            JoinError::NotFound => write!(f, "the network is not in range"),
            JoinError::Timeout => write!(f, "the network did not answer in time"),
            JoinError::Failed(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for JoinError {}

/// A failure of the manager or the bus, outside a join.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WifiError(pub String);

impl fmt::Display for WifiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WifiError {}

/// What joins networks: the system's network manager, or a simulated radio.
pub trait Wifi: Send {
    /// The device's Wi-Fi now.
    fn state(&mut self) -> WifiState;

    /// Asks the radio to look for networks (the list fills within seconds); a manager that
    /// refuses (it scanned a moment ago) is not an error.
    fn scan(&mut self) -> Result<(), WifiError>;

    /// The networks in range, strongest first, one entry per name.
    fn networks(&mut self) -> Result<Vec<Network>, WifiError>;

    /// Joins `ssid` (with `password` for a protected network never joined before, `None` to
    /// use the one the system keeps) and waits until it has an address or fails. A wrong new
    /// password is not kept.
    fn join(&mut self, ssid: &Ssid, password: Option<&Passphrase>) -> Result<WifiState, JoinError>;

    /// Leaves `ssid` if on it and forgets its password.
    fn forget(&mut self, ssid: &Ssid) -> Result<(), WifiError>;

    /// Opens an access point `ssid` with WPA2 `password` for a game without a router (this
    /// device gives the partner its address), remembering the network it was on.
    fn open_hotspot(&mut self, ssid: &Ssid, password: &Passphrase) -> Result<WifiState, JoinError>;

    /// Joins another ChessPI's hotspot for one game: not kept, and the network this device
    /// was on is remembered.
    fn join_hotspot(&mut self, ssid: &Ssid, password: &Passphrase) -> Result<WifiState, JoinError>;

    /// Ends this device's part in a hotspot (its own, or the one joined) and goes back to the
    /// network it was on before.
    fn leave_hotspot(&mut self) -> Result<(), WifiError>;

    /// Removes what a hotspot game of an earlier run left behind (the app stopped or crashed
    /// before the game was left): the hotspot, or the temporary connection to another
    /// ChessPI's. The system then joins a network it knows by itself.
    fn remove_leftovers(&mut self) -> Result<(), WifiError>;
}

/// Hotspots of ChessPIs are named `ChessPI-<device name>`.
pub const HOTSPOT_PREFIX: &str = "ChessPI-";

/// The hotspot name for a device called `name` (cut to the 32 bytes a name may have).
pub fn hotspot_ssid(name: &str) -> Ssid {
    let mut text = format!("{HOTSPOT_PREFIX}{name}");
    while text.len() > Ssid::MAX_LEN {
        text.pop();
    }
    Ssid::new(text).unwrap_or_else(|_| Ssid(HOTSPOT_PREFIX.as_bytes().to_vec()))
}

/// Whether `ssid` is a ChessPI's hotspot.
pub fn is_hotspot(ssid: &Ssid) -> bool {
    ssid.as_bytes().starts_with(HOTSPOT_PREFIX.as_bytes())
}

/// Digits in a hotspot password: 10^16 choices, 53.2 bits. WPA2's key from a password is
/// slow to compute (4096 rounds of PBKDF2-SHA1), yet one GPU tries a few million a second
/// against a captured handshake: eight digits fall in under a minute, sixteen would take it a
/// century to try, and each game has a new one. Typed in four groups of four on the keypad.
pub const HOTSPOT_PASSWORD_DIGITS: usize = 16;
/// Digits in the hotspot password of a ChessPI before the longer one (still joinable).
pub const OLD_HOTSPOT_PASSWORD_DIGITS: usize = 8;

/// Whether `typed` digits can be a ChessPI hotspot's password (this version's, or an older
/// ChessPI's).
pub fn hotspot_password_complete(typed: &str) -> bool {
    typed.bytes().all(|b| b.is_ascii_digit())
        && (typed.len() == HOTSPOT_PASSWORD_DIGITS || typed.len() == OLD_HOTSPOT_PASSWORD_DIGITS)
}

/// A hotspot password: sixteen random digits, typed on the other ChessPI's keypad.
pub fn hotspot_password() -> Passphrase {
    Passphrase(random_digits(
        HOTSPOT_PASSWORD_DIGITS,
        crate::lan::random::random_u64,
    ))
}

/// `count` (at most 19) uniformly random digits from `random` (64 random bits a call): draws
/// above the largest multiple of 10^count are drawn again, so no number is likelier.
fn random_digits(count: usize, mut random: impl FnMut() -> u64) -> String {
    let exp = u32::try_from(count).unwrap_or(u32::MAX).min(19);
    let modulus = 10u64.pow(exp);
    let limit = u64::MAX - u64::MAX % modulus;
    let n = loop {
        let r = random();
        if r < limit {
            break r % modulus;
        }
    };
    format!("{n:0width$}", width = exp as usize)
}

/// Digits shown in groups of four ("4821 9930 2716 0584"): easier to read across a table and
/// to type without losing the place.
pub fn grouped_digits(digits: &str) -> String {
    let mut out = String::with_capacity(digits.len() + digits.len() / 4);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && i % 4 == 0 {
            out.push(' ');
        }
        out.push(c);
    }
    out
}

/// Sorts `networks` strongest first, keeping one entry per name (the strongest), and joined
/// names' flags merged.
pub fn tidy(mut networks: Vec<Network>) -> Vec<Network> {
    networks.sort_by(|a, b| a.ssid.cmp(&b.ssid).then(b.strength.cmp(&a.strength)));
    let mut out: Vec<Network> = Vec::with_capacity(networks.len());
    for n in networks {
        match out.last_mut() {
            Some(last) if last.ssid == n.ssid => {
                last.active |= n.active;
                last.known |= n.known;
            }
            _ => out.push(n),
        }
    }
    out.sort_by(|a, b| {
        b.active
            .cmp(&a.active)
            .then(b.strength.cmp(&a.strength))
            .then(a.ssid.cmp(&b.ssid))
    });
    out
}
