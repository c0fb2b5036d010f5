//! `[lan]`: playing another ChessPI over the local network.

use super::{Violation, violation};
use serde::{Deserialize, Serialize};
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::time::Duration;

/// Longest device name shown to others (characters).
const MAX_NAME_CHARS: usize = 32;
/// Linux interface names are at most 15 bytes (IFNAMSIZ - 1).
const MAX_INTERFACE_BYTES: usize = 15;

/// How long the partner must have been away before the player may adjourn the game.
pub const DEFAULT_ADJOURN_AFTER: Duration = Duration::from_secs(120);
/// The protocol's port (docs/PROTOCOL.md), `lan.port` by default.
pub const DEFAULT_LAN_PORT: u16 = 7531;
/// The allowed range of `lan.adjourn_after_seconds`.
const ADJOURN_AFTER_SECONDS: std::ops::RangeInclusive<u64> = 1..=3600;

/// The pairing code a host asks of guests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PairingCode {
    /// A new random 4-digit code each time, and after 5 wrong attempts.
    Random,
    /// Always these 4 digits (guessing is slowed by a wait per address after each wrong
    /// code, docs/PROTOCOL.md §4).
    Fixed(String),
}

/// `[lan]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanConfig {
    /// Shown to others; `None` uses the host name.
    pub name: Option<String>,
    /// TCP port a host listens on.
    pub port: u16,
    /// Addresses a host listens on; empty means all.
    pub listen: Vec<IpAddr>,
    /// Whether hosts advertise themselves and guests browse (DNS-SD `_chesspi._tcp`).
    pub discovery: bool,
    /// Interfaces discovery may use; empty means all.
    pub interfaces: Vec<String>,
    pub code: PairingCode,
    /// The partner away this long: the player may adjourn the game (to Saved games).
    pub adjourn_after: Duration,
}

impl LanConfig {
    /// The name to show: the configured one, else the host name, else "ChessPI".
    pub fn display_name(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        std::fs::read_to_string("/proc/sys/kernel/hostname")
            .ok()
            .map(|h| h.trim().chars().take(MAX_NAME_CHARS).collect::<String>())
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| "ChessPI".to_string())
    }

    /// The socket addresses to listen on. "All" is the IPv6 wildcard, which on Linux also
    /// takes IPv4 (the network layer falls back to the IPv4 one where IPv6 is off).
    pub fn listen_addrs(&self) -> Vec<SocketAddr> {
        if self.listen.is_empty() {
            vec![SocketAddr::new(Ipv6Addr::UNSPECIFIED.into(), self.port)]
        } else {
            self.listen
                .iter()
                .map(|ip| SocketAddr::new(*ip, self.port))
                .collect()
        }
    }
}

/// The `[lan]` section as written, before [`validate`].
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawLan {
    pub name: String,
    pub port: u16,
    pub listen: Vec<String>,
    pub discovery: bool,
    pub interfaces: Vec<String>,
    pub code: String,
    pub adjourn_after_seconds: u64,
}

impl Default for RawLan {
    fn default() -> Self {
        Self {
            name: String::new(),
            port: DEFAULT_LAN_PORT,
            listen: Vec::new(),
            discovery: true,
            interfaces: Vec::new(),
            code: "random".into(),
            adjourn_after_seconds: DEFAULT_ADJOURN_AFTER.as_secs(),
        }
    }
}

pub(super) fn validate(l: RawLan) -> Result<LanConfig, Violation> {
    if l.name.chars().any(char::is_control) || l.name.chars().count() > MAX_NAME_CHARS {
        return Err(violation(
            "lan.name",
            format!("must be at most {MAX_NAME_CHARS} characters without control characters"),
        ));
    }
    if l.port == 0 {
        return Err(violation("lan.port", "must be 1..=65535, got 0"));
    }
    let mut listen = Vec::new();
    for text in &l.listen {
        let ip: IpAddr = text.parse().map_err(|_| {
            violation(
                "lan.listen",
                format!("`{text}` is not an IP address (e.g. \"192.168.1.20\" or \"::\")"),
            )
        })?;
        listen.push(ip);
    }
    for name in &l.interfaces {
        if name.is_empty() || name.len() > MAX_INTERFACE_BYTES || name.contains(['/', ' ']) {
            return Err(violation(
                "lan.interfaces",
                format!("`{name}` is not an interface name (e.g. \"wlan0\")"),
            ));
        }
    }
    let code = match l.code.as_str() {
        "random" => PairingCode::Random,
        c if c.len() == 4 && c.bytes().all(|b| b.is_ascii_digit()) => {
            PairingCode::Fixed(c.to_string())
        }
        other => {
            return Err(violation(
                "lan.code",
                format!("must be \"random\" or 4 digits, got `{other}`"),
            ));
        }
    };
    if !ADJOURN_AFTER_SECONDS.contains(&l.adjourn_after_seconds) {
        return Err(violation(
            "lan.adjourn_after_seconds",
            format!(
                "must be {}..={} seconds, got {}",
                ADJOURN_AFTER_SECONDS.start(),
                ADJOURN_AFTER_SECONDS.end(),
                l.adjourn_after_seconds
            ),
        ));
    }
    let name = l.name.trim().to_string();
    Ok(LanConfig {
        name: (!name.is_empty()).then_some(name),
        port: l.port,
        listen,
        discovery: l.discovery,
        interfaces: l.interfaces,
        code,
        adjourn_after: Duration::from_secs(l.adjourn_after_seconds),
    })
}
