//! A game without a router through NetworkManager: this device's access point, or the
//! temporary connection to another ChessPI's, and removing both when the game ends (or at the
//! next start, when the app ended first).
//!
//! Neither side uses NetworkManager's shared mode (`ipv4.method shared`): it switches on IP
//! forwarding for the whole system, masquerades the hotspot's clients onto the other networks
//! where nft or iptables is installed, and its dnsmasq relays their DNS queries onward. A
//! ChessPI's partner needs only this device, so both ends take fixed addresses on one subnet
//! (`ipv4.method manual`): the host 10.42.0.1/24 (the address shared mode would give it), the
//! guest one of 10.42.0.2–9 (below the range an older ChessPI's shared mode hands out); no
//! gateway, no DNS, no DHCP, nothing that routes.

use super::{
    CONNECTION, JoinError, NM, NM_PATH, NetworkManager, Passphrase, SETTINGS, SETTINGS_PATH,
    Settings, Ssid, WIRELESS, WifiState, active_connection, property, proxy, watch_states,
    wifi_device,
};
use std::collections::HashMap;
use std::net::Ipv4Addr;
use zbus::blocking::Connection;
use zbus::zvariant::{ObjectPath, OwnedObjectPath, OwnedValue, Value};

/// The names of the connections a hotspot game makes, removed when it ends.
pub(super) const HOTSPOT_ID: &str = "ChessPI hotspot";
pub(super) const GAME_ID: &str = "ChessPI game";
/// NM_WIFI_DEVICE_CAP_AP: the radio can be an access point.
const WIFI_CAP_AP: u32 = 0x40;

/// The hotspot's subnet: the host's address and its prefix.
pub const HOST_ADDRESS: Ipv4Addr = Ipv4Addr::new(10, 42, 0, 1);
pub const PREFIX: u32 = 24;
/// The guest's addresses: the last byte in this range (an older ChessPI's shared mode hands
/// out 10.42.0.10 and up).
pub const GUEST_LAST_BYTES: std::ops::RangeInclusive<u8> = 2..=9;

/// A guest's address on a hotspot, picked at random from [`GUEST_LAST_BYTES`].
pub fn guest_address() -> Ipv4Addr {
    let span = u64::from(GUEST_LAST_BYTES.end() - GUEST_LAST_BYTES.start()) + 1;
    let offset = u8::try_from(crate::lan::random::random_u64() % span).unwrap_or(0);
    let [a, b, c, _] = HOST_ADDRESS.octets();
    Ipv4Addr::new(a, b, c, GUEST_LAST_BYTES.start() + offset)
}

/// IPv4 settings with `address` alone on the hotspot's subnet: no gateway, no DNS, no DHCP,
/// and (unlike shared mode) no forwarding.
pub(super) fn game_ipv4<'a>(address: Ipv4Addr) -> HashMap<&'static str, Value<'a>> {
    let mut entry: HashMap<&str, Value<'_>> = HashMap::new();
    entry.insert("address", Value::from(address.to_string()));
    entry.insert("prefix", Value::from(PREFIX));
    let mut ipv4 = HashMap::new();
    ipv4.insert("method", Value::from("manual"));
    ipv4.insert("address-data", Value::from(vec![entry]));
    // Never a way onward, even if a gateway were given.
    ipv4.insert("never-default", Value::from(true));
    ipv4
}

/// IPv6 left alone on a game's connections (the game speaks IPv4).
fn no_ipv6<'a>() -> HashMap<&'static str, Value<'a>> {
    let mut ipv6 = HashMap::new();
    ipv6.insert("method", Value::from("ignore"));
    ipv6
}

/// The settings of this device's own access point: WPA2 (CCMP) with `password`, the address
/// [`HOST_ADDRESS`], started only when asked.
pub(super) fn hotspot_settings<'a>(ssid: &'a Ssid, password: &'a Passphrase) -> Settings<'a> {
    let mut connection = HashMap::new();
    connection.insert("type", Value::from("802-11-wireless"));
    connection.insert("id", Value::from(HOTSPOT_ID));
    connection.insert("autoconnect", Value::from(false));
    let mut wireless = HashMap::new();
    wireless.insert("ssid", Value::from(ssid.as_bytes().to_vec()));
    wireless.insert("mode", Value::from("ap"));
    // 2.4 GHz: the Pi 3's radio has no other band.
    wireless.insert("band", Value::from("bg"));
    let mut security = HashMap::new();
    security.insert("key-mgmt", Value::from("wpa-psk"));
    security.insert("psk", Value::from(password.as_str()));
    security.insert("proto", Value::from(vec!["rsn"]));
    security.insert("pairwise", Value::from(vec!["ccmp"]));
    security.insert("group", Value::from(vec!["ccmp"]));
    let mut settings = HashMap::new();
    settings.insert("connection", connection);
    settings.insert("802-11-wireless", wireless);
    settings.insert("802-11-wireless-security", security);
    settings.insert("ipv4", game_ipv4(HOST_ADDRESS));
    settings.insert("ipv6", no_ipv6());
    settings
}

/// The settings of the temporary connection to another ChessPI's hotspot `ssid`: not kept
/// (no autoconnect, removed after the game), a fixed address from [`guest_address`].
pub(super) fn game_settings<'a>(
    ssid: &'a Ssid,
    password: &'a Passphrase,
    address: Ipv4Addr,
) -> Settings<'a> {
    let mut connection = HashMap::new();
    connection.insert("type", Value::from("802-11-wireless"));
    connection.insert("id", Value::from(GAME_ID));
    connection.insert("autoconnect", Value::from(false));
    let mut wireless = HashMap::new();
    wireless.insert("ssid", Value::from(ssid.as_bytes().to_vec()));
    wireless.insert("mode", Value::from("infrastructure"));
    let mut security = HashMap::new();
    security.insert("key-mgmt", Value::from("wpa-psk"));
    security.insert("psk", Value::from(password.as_str()));
    let mut settings = HashMap::new();
    settings.insert("connection", connection);
    settings.insert("802-11-wireless", wireless);
    settings.insert("802-11-wireless-security", security);
    settings.insert("ipv4", game_ipv4(address));
    settings.insert("ipv6", no_ipv6());
    settings
}

/// The connection's name (`connection.id`).
pub(super) fn connection_id(bus: &Connection, path: &str) -> zbus::Result<Option<String>> {
    let settings: HashMap<String, HashMap<String, OwnedValue>> =
        proxy(bus, path, CONNECTION)?.call("GetSettings", &())?;
    Ok(settings
        .get("connection")
        .and_then(|c| c.get("id"))
        .and_then(|v| String::try_from(v.clone()).ok()))
}

/// Whether a connection of this name is one a hotspot game makes.
pub(super) fn is_game_connection(id: Option<&str>) -> bool {
    id.is_some_and(|id| id == HOTSPOT_ID || id == GAME_ID)
}

/// Removes the connections a hotspot game made (this run's or a previous one's); deleting an
/// active one takes it down.
pub(super) fn remove_game_connections(bus: &Connection) -> zbus::Result<()> {
    let paths: Vec<OwnedObjectPath> =
        proxy(bus, SETTINGS_PATH, SETTINGS)?.call("ListConnections", &())?;
    for path in paths {
        if let Ok(id) = connection_id(bus, path.as_str())
            && is_game_connection(id.as_deref())
        {
            log::info!("Wi-Fi: removing the connection {}", id.unwrap_or_default());
            proxy(bus, path.as_str(), CONNECTION)?.call::<_, _, ()>("Delete", &())?;
        }
    }
    Ok(())
}

impl NetworkManager {
    /// Remembers the connection the device is on (unless it is a hotspot game's own), to go
    /// back to after the game.
    pub(super) fn remember_previous(&mut self, bus: &Connection, device: &str) -> zbus::Result<()> {
        if let Some(connection) = active_connection(bus, device)? {
            let id = connection_id(bus, connection.as_str())?;
            if !is_game_connection(id.as_deref()) {
                self.previous = Some(connection);
            }
        }
        Ok(())
    }

    pub(super) fn open_hotspot_on(
        &mut self,
        bus: &Connection,
        ssid: &Ssid,
        password: &Passphrase,
    ) -> zbus::Result<Result<WifiState, JoinError>> {
        let Some(device) = wifi_device(bus)? else {
            return Ok(Err(JoinError::Failed("no Wi-Fi radio".to_string())));
        };
        let capabilities: u32 = property(bus, device.as_str(), WIRELESS, "WirelessCapabilities")?;
        if capabilities & WIFI_CAP_AP == 0 {
            return Ok(Err(JoinError::Failed(
                "this Wi-Fi radio cannot be an access point".to_string(),
            )));
        }
        self.remember_previous(bus, device.as_str())?;
        remove_game_connections(bus)?;
        let nm = proxy(bus, NM_PATH, NM)?;
        let none = ObjectPath::try_from("/")?;
        let changes = watch_states(bus, &device)?;
        let (_, active): (OwnedObjectPath, OwnedObjectPath) = nm.call(
            "AddAndActivateConnection",
            &(hotspot_settings(ssid, password), &device, &none),
        )?;
        let outcome = Self::wait_joined(bus, device.as_str(), active.as_str(), ssid, &changes)?;
        if outcome.is_err() {
            let _ = remove_game_connections(bus);
        }
        Ok(outcome)
    }
}

/// Removes the game's connections and goes back to `previous`, the one from before, if any.
pub(super) fn leave(bus: &Connection, previous: Option<OwnedObjectPath>) -> zbus::Result<()> {
    remove_game_connections(bus)?;
    if let Some(connection) = previous {
        let none = ObjectPath::try_from("/")?;
        proxy(bus, NM_PATH, NM)?
            .call::<_, _, OwnedObjectPath>("ActivateConnection", &(&connection, &none, &none))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ipv4_of<'a, 'b>(settings: &'a Settings<'b>) -> &'a HashMap<&'static str, Value<'b>> {
        settings.get("ipv4").expect("ipv4 settings")
    }

    /// Whether IPv4 settings hold `address`/24 alone, in NetworkManager's `address-data`
    /// form (a list of {address, prefix}).
    fn has_only_address(ipv4: &HashMap<&str, Value<'_>>, address: &str) -> bool {
        let mut entry: HashMap<&str, Value<'_>> = HashMap::new();
        entry.insert("address", Value::from(address.to_string()));
        entry.insert("prefix", Value::from(24u32));
        ipv4.get("address-data") == Some(&Value::from(vec![entry]))
    }

    fn method<'m>(ipv4: &'m HashMap<&str, Value<'_>>) -> &'m str {
        match ipv4.get("method") {
            Some(Value::Str(m)) => m.as_str(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_hotspot_gives_its_clients_this_device_only() {
        let ssid = Ssid::new("ChessPI-kitchen").unwrap();
        let password = Passphrase::new("4821993027160584").unwrap();
        let settings = hotspot_settings(&ssid, &password);
        let ipv4 = ipv4_of(&settings);
        // Shared mode would switch on forwarding (and NAT, and a DNS relay): not for a game.
        assert_eq!(method(ipv4), "manual");
        assert!(has_only_address(ipv4, "10.42.0.1"), "{ipv4:?}");
        assert!(!ipv4.contains_key("gateway"));
        assert!(!ipv4.contains_key("dns"));
        assert_eq!(ipv4.get("never-default"), Some(&Value::from(true)));
        assert!(
            matches!(settings["ipv6"].get("method"), Some(Value::Str(m)) if m.as_str() == "ignore")
        );
    }

    #[test]
    fn the_guest_takes_a_fixed_address_below_an_older_hosts_dhcp_range() {
        for _ in 0..50 {
            let address = guest_address();
            let [a, b, c, d] = address.octets();
            assert_eq!([a, b, c], [10, 42, 0]);
            assert!(GUEST_LAST_BYTES.contains(&d), "{address}");
        }
        let ssid = Ssid::new("ChessPI-kitchen").unwrap();
        let password = Passphrase::new("4821993027160584").unwrap();
        let settings = game_settings(&ssid, &password, Ipv4Addr::new(10, 42, 0, 7));
        let ipv4 = ipv4_of(&settings);
        assert_eq!(method(ipv4), "manual");
        assert!(has_only_address(ipv4, "10.42.0.7"), "{ipv4:?}");
        assert!(matches!(
            settings["connection"].get("autoconnect"),
            Some(Value::Bool(false))
        ));
        assert!(
            matches!(settings["connection"].get("id"), Some(Value::Str(id)) if id.as_str() == GAME_ID)
        );
    }

    #[test]
    fn only_a_hotspot_games_connections_are_removed() {
        assert!(is_game_connection(Some("ChessPI hotspot")));
        assert!(is_game_connection(Some("ChessPI game")));
        assert!(!is_game_connection(Some("Home")));
        assert!(!is_game_connection(Some("ChessPI-kitchen")));
        assert!(!is_game_connection(None));
    }
}
