//! Finding hosts without typing an address: DNS-SD service `_chesspi._tcp` over mDNS
//! (the `mdns-sd` crate, pure Rust, no avahi). A host advertises its name, the colour it
//! takes and its port in TXT records; a guest's [`Browser`] keeps a live list.
//!
//! The daemon is confined to the configured interfaces (`lan.interfaces`). Note that
//! `mdns-sd` opens its sockets on every interface when it starts and only then applies the
//! selection; tests therefore run discovery inside a network namespace of their own.

use mdns_sd::{IfKind, ServiceDaemon, ServiceEvent, ServiceInfo};
use std::collections::BTreeMap;
use std::fmt;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// The DNS-SD service type of ChessPI hosts.
pub const SERVICE_TYPE: &str = "_chesspi._tcp.local.";

/// The colour a host takes, as advertised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HostColor {
    White,
    Black,
    Random,
}

impl HostColor {
    pub fn as_str(self) -> &'static str {
        match self {
            HostColor::White => "white",
            HostColor::Black => "black",
            HostColor::Random => "random",
        }
    }

    pub fn parse(s: &str) -> Option<HostColor> {
        match s {
            "white" => Some(HostColor::White),
            "black" => Some(HostColor::Black),
            "random" => Some(HostColor::Random),
            _ => None,
        }
    }
}

/// Why discovery could not start or advertise.
#[derive(Debug)]
pub struct DiscoveryError(String);

impl fmt::Display for DiscoveryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "discovery: {}", self.0)
    }
}

impl std::error::Error for DiscoveryError {}

impl From<mdns_sd::Error> for DiscoveryError {
    fn from(e: mdns_sd::Error) -> Self {
        DiscoveryError(e.to_string())
    }
}

/// A host seen on the network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FoundHost {
    /// The DNS-SD instance name: unique, the key of the list.
    pub instance: String,
    /// The name its owner gave it.
    pub name: String,
    /// The colour the host takes (`None`: not said).
    pub color: Option<HostColor>,
    pub addresses: Vec<IpAddr>,
    pub port: u16,
}

impl FoundHost {
    /// Where to connect: IPv4 first (link-local IPv6 needs a scope).
    pub fn socket_addrs(&self) -> Vec<SocketAddr> {
        let mut addrs: Vec<SocketAddr> = self
            .addresses
            .iter()
            .map(|ip| SocketAddr::new(*ip, self.port))
            .collect();
        addrs.sort_by_key(|a| (a.is_ipv6(), *a));
        addrs
    }
}

/// The mDNS responder and querier. Dropping it stops adverts and browsing.
pub struct Discovery {
    daemon: ServiceDaemon,
}

impl Discovery {
    /// Starts mDNS on `interfaces` (names, e.g. `["wlan0"]`; empty means all).
    ///
    /// # Errors
    /// The daemon could not start.
    pub fn start(interfaces: &[String]) -> Result<Discovery, DiscoveryError> {
        let daemon = ServiceDaemon::new()?;
        if !interfaces.is_empty() {
            daemon.disable_interface(IfKind::All)?;
            let named: Vec<IfKind> = interfaces.iter().map(|n| IfKind::Name(n.clone())).collect();
            daemon.enable_interface(named)?;
        }
        Ok(Discovery { daemon })
    }

    /// Advertises a host: `name` shown to others, the colour it takes, its TCP port.
    /// Returns the instance name, for [`Discovery::withdraw`].
    ///
    /// # Errors
    /// The name cannot be registered.
    pub fn advertise(
        &self,
        name: &str,
        color: HostColor,
        port: u16,
    ) -> Result<String, DiscoveryError> {
        let tag = super::random::random_u64();
        // Two devices may share a name: the instance gets a suffix of its own.
        let instance = format!("{} {:04x}", dns_label(name), tag & 0xffff);
        let host = format!("chesspi-{:08x}.local.", tag >> 32);
        let properties = [("name", name), ("color", color.as_str()), ("protocol", "1")];
        let info = ServiceInfo::new(SERVICE_TYPE, &instance, &host, (), port, &properties[..])?
            .enable_addr_auto();
        let fullname = info.get_fullname().to_string();
        self.daemon.register(info)?;
        Ok(fullname)
    }

    /// Stops advertising `instance` (as returned by [`Discovery::advertise`]).
    pub fn withdraw(&self, instance: &str) {
        if let Err(e) = self.daemon.unregister(instance) {
            log::warn!("lan: cannot withdraw {instance}: {e}");
        }
    }

    /// Starts a live list of hosts; `on_change` runs (on the browser's thread) whenever the
    /// list changes.
    ///
    /// # Errors
    /// Browsing could not start.
    pub fn browse(&self, on_change: impl Fn() + Send + 'static) -> Result<Browser, DiscoveryError> {
        let events = self.daemon.browse(SERVICE_TYPE)?;
        let hosts = Arc::new(Mutex::new(BTreeMap::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (hosts2, stop2) = (hosts.clone(), stop.clone());
        let thread = std::thread::Builder::new()
            .name("lan-browse".into())
            .spawn(move || {
                while !stop2.load(Ordering::Relaxed) {
                    let Ok(event) = events.recv_timeout(Duration::from_millis(200)) else {
                        if events.is_disconnected() {
                            return;
                        }
                        continue;
                    };
                    if apply(&hosts2, event) {
                        on_change();
                    }
                }
            })
            .map_err(|e| DiscoveryError(e.to_string()))?;
        Ok(Browser {
            hosts,
            stop,
            thread: Some(thread),
        })
    }
}

impl Drop for Discovery {
    fn drop(&mut self) {
        let _ = self.daemon.shutdown();
    }
}

type HostList = Arc<Mutex<BTreeMap<String, FoundHost>>>;

/// Updates the list from one mDNS event; true if it changed.
fn apply(hosts: &HostList, event: ServiceEvent) -> bool {
    let mut hosts = hosts.lock().unwrap_or_else(PoisonError::into_inner);
    match event {
        ServiceEvent::ServiceResolved(service) => {
            let found = FoundHost {
                instance: service.fullname.clone(),
                name: service
                    .get_property_val_str("name")
                    .map(super::session::clean_name)
                    .unwrap_or_default(),
                color: service
                    .get_property_val_str("color")
                    .and_then(HostColor::parse),
                addresses: service.addresses.iter().map(|a| a.to_ip_addr()).collect(),
                port: service.port,
            };
            hosts.insert(found.instance.clone(), found.clone()) != Some(found)
        }
        ServiceEvent::ServiceRemoved(_, fullname) => hosts.remove(&fullname).is_some(),
        _ => false,
    }
}

/// A live list of hosts; dropping it stops following.
pub struct Browser {
    hosts: HostList,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Browser {
    /// The hosts seen now, sorted by instance name.
    pub fn hosts(&self) -> Vec<FoundHost> {
        self.hosts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .values()
            .cloned()
            .collect()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A DNS label from a name: printable, dots replaced, at most 40 bytes.
fn dns_label(name: &str) -> String {
    let mut label: String = name
        .chars()
        .filter(|c| !c.is_control())
        .map(|c| if c == '.' { '-' } else { c })
        .collect();
    while label.len() > 40 {
        label.pop();
    }
    if label.trim().is_empty() {
        "ChessPI".to_string()
    } else {
        label
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_and_colours() {
        assert_eq!(dns_label("a.b"), "a-b");
        assert_eq!(dns_label(" "), "ChessPI");
        assert!(dns_label(&"é".repeat(40)).len() <= 40);
        for c in [HostColor::White, HostColor::Black, HostColor::Random] {
            assert_eq!(HostColor::parse(c.as_str()), Some(c));
        }
        let h = FoundHost {
            instance: "i".into(),
            name: "n".into(),
            color: None,
            addresses: vec!["::1".parse().unwrap(), "127.0.0.1".parse().unwrap()],
            port: 7531,
        };
        assert_eq!(h.socket_addrs()[0], "127.0.0.1:7531".parse().unwrap());
    }
}
