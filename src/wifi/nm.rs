//! Wi-Fi through NetworkManager's D-Bus API (the same on Debian and Raspberry Pi OS): the
//! app asks NetworkManager and never edits its files. The rights come from polkit
//! (systemd/51-chesspi-wifi.rules on the device).

mod hotspot;

pub use hotspot::{GUEST_LAST_BYTES, HOST_ADDRESS, guest_address};

use super::{JoinError, Network, Passphrase, Security, Ssid, Wifi, WifiError, WifiState};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};
use zbus::blocking::{Connection, Proxy, proxy::Builder};
use zbus::proxy::CacheProperties;
use zbus::zvariant::{ObjectPath, OwnedObjectPath, OwnedValue, Value};

const BUS_NAME: &str = "org.freedesktop.NetworkManager";
const NM_PATH: &str = "/org/freedesktop/NetworkManager";
const SETTINGS_PATH: &str = "/org/freedesktop/NetworkManager/Settings";
const NM: &str = "org.freedesktop.NetworkManager";
const DEVICE: &str = "org.freedesktop.NetworkManager.Device";
const WIRELESS: &str = "org.freedesktop.NetworkManager.Device.Wireless";
const ACCESS_POINT: &str = "org.freedesktop.NetworkManager.AccessPoint";
const SETTINGS: &str = "org.freedesktop.NetworkManager.Settings";
const CONNECTION: &str = "org.freedesktop.NetworkManager.Settings.Connection";
const ACTIVE: &str = "org.freedesktop.NetworkManager.Connection.Active";
const IP4: &str = "org.freedesktop.NetworkManager.IP4Config";
const IP6: &str = "org.freedesktop.NetworkManager.IP6Config";

/// NM_DEVICE_TYPE_WIFI.
const DEVICE_TYPE_WIFI: u32 = 2;
/// NMDeviceState values this module tells apart.
const STATE_UNMANAGED: u32 = 10;
const STATE_UNAVAILABLE: u32 = 20;
const STATE_PREPARE: u32 = 40;
const STATE_NEED_AUTH: u32 = 60;
const STATE_SECONDARIES: u32 = 90;
const STATE_ACTIVATED: u32 = 100;
const STATE_FAILED: u32 = 120;
/// NMActiveConnectionState.
const ACTIVE_ACTIVATED: u32 = 2;
const ACTIVE_DEACTIVATED: u32 = 4;
/// NMDeviceStateReason values that mean the password was refused: no secrets, the
/// supplicant disconnected (the 4-way handshake), its configuration or itself failed, or it
/// timed out.
const REASONS_PASSWORD: [u32; 5] = [7, 8, 9, 10, 11];
/// NM_DEVICE_STATE_REASON_SSID_NOT_FOUND.
const REASON_SSID_NOT_FOUND: u32 = 53;
/// NM80211ApSecurityFlags: pre-shared key, SAE (WPA3 personal), 802.1X.
const AP_SEC_KEY_MGMT_PSK: u32 = 0x100;
const AP_SEC_KEY_MGMT_802_1X: u32 = 0x200;
const AP_SEC_KEY_MGMT_SAE: u32 = 0x400;
/// NM80211ApFlags: privacy (WEP when no WPA flags).
const AP_FLAGS_PRIVACY: u32 = 0x1;

/// How long a join may take: association, the handshake and an address (NetworkManager's own
/// DHCP timeout is 45 s).
const JOIN_PATIENCE: Duration = Duration::from_secs(50);
const POLL: Duration = Duration::from_millis(100);

/// NetworkManager on the system bus, connected on first use (and again after a failure).
#[derive(Default)]
pub struct NetworkManager {
    /// A bus address instead of the system bus (tests).
    address: Option<String>,
    bus: Option<Connection>,
    /// The connection the device was on before a hotspot game, to go back to.
    previous: Option<OwnedObjectPath>,
}

impl NetworkManager {
    /// NetworkManager on the system bus.
    pub fn new() -> NetworkManager {
        NetworkManager::default()
    }

    /// NetworkManager on the bus at `address` ("unix:path=…").
    pub fn at(address: &str) -> NetworkManager {
        NetworkManager {
            address: Some(address.to_string()),
            bus: None,
            previous: None,
        }
    }

    fn bus(&mut self) -> Result<Connection, WifiError> {
        if let Some(bus) = &self.bus {
            return Ok(bus.clone());
        }
        let bus = match &self.address {
            None => Connection::system(),
            Some(address) => zbus::blocking::connection::Builder::address(address.as_str())
                .and_then(|b| b.build()),
        }
        .map_err(|e| WifiError(format!("the system bus cannot be reached: {e}")))?;
        self.bus = Some(bus.clone());
        Ok(bus)
    }

    /// Runs `f` with the bus; a failure drops the connection so the next call makes a new one.
    fn with_bus<T>(
        &mut self,
        f: impl FnOnce(&Connection) -> zbus::Result<T>,
    ) -> Result<T, WifiError> {
        let bus = self.bus()?;
        f(&bus).map_err(|e| {
            if matches!(e, zbus::Error::InputOutput(_)) {
                self.bus = None;
            }
            WifiError(describe(&e))
        })
    }
}

/// A D-Bus error in a few words: NetworkManager's own message where it sent one.
fn describe(e: &zbus::Error) -> String {
    match e {
        zbus::Error::MethodError(name, Some(text), _) => format!("{text} ({name})"),
        zbus::Error::MethodError(name, None, _) => name.to_string(),
        other => other.to_string(),
    }
}

/// A proxy that reads properties fresh each time (no cache and no signal subscription: this
/// thread polls only while the Wi-Fi screen asks).
fn proxy<'a>(bus: &Connection, path: &'a str, interface: &'a str) -> zbus::Result<Proxy<'a>> {
    Builder::new(bus)
        .destination(BUS_NAME)?
        .path(path)?
        .interface(interface)?
        .cache_properties(CacheProperties::No)
        .build()
}

fn property<T>(bus: &Connection, path: &str, interface: &str, name: &str) -> zbus::Result<T>
where
    T: TryFrom<OwnedValue>,
    T::Error: Into<zbus::Error>,
{
    proxy(bus, path, interface)?.get_property(name)
}

/// The first Wi-Fi device NetworkManager manages.
fn wifi_device(bus: &Connection) -> zbus::Result<Option<OwnedObjectPath>> {
    let devices: Vec<OwnedObjectPath> = proxy(bus, NM_PATH, NM)?.call("GetDevices", &())?;
    for device in devices {
        let kind: u32 = property(bus, device.as_str(), DEVICE, "DeviceType")?;
        let state: u32 = property(bus, device.as_str(), DEVICE, "State")?;
        if kind == DEVICE_TYPE_WIFI && state != STATE_UNMANAGED {
            return Ok(Some(device));
        }
    }
    Ok(None)
}

fn ssid_of(bus: &Connection, access_point: &str) -> zbus::Result<Option<Ssid>> {
    let bytes: Vec<u8> = property(bus, access_point, ACCESS_POINT, "Ssid")?;
    Ok(Ssid::new(bytes).ok())
}

/// "/" is D-Bus's way of saying "none" for an object path.
fn is_none(path: &ObjectPath<'_>) -> bool {
    path.as_str() == "/"
}

/// The device's first address: IPv4 if it has one, else a global IPv6 one.
fn address_of(bus: &Connection, device: &str) -> zbus::Result<Option<IpAddr>> {
    for (config, interface) in [("Ip4Config", IP4), ("Ip6Config", IP6)] {
        let path: OwnedObjectPath = property(bus, device, DEVICE, config)?;
        if is_none(&path) {
            continue;
        }
        let data: Vec<HashMap<String, OwnedValue>> =
            property(bus, path.as_str(), interface, "AddressData")?;
        let found = data
            .iter()
            .filter_map(|entry| entry.get("address"))
            .filter_map(|v| String::try_from(v.clone()).ok())
            .filter_map(|text| text.parse::<IpAddr>().ok())
            .find(|ip| match ip {
                IpAddr::V4(_) => true,
                // A link-local address alone is not what the screen calls "an address".
                IpAddr::V6(v6) => (v6.segments()[0] & 0xffc0) != 0xfe80,
            });
        if found.is_some() {
            return Ok(found);
        }
    }
    Ok(None)
}

/// The security a joining device needs for an access point's flags.
pub fn security(flags: u32, wpa_flags: u32, rsn_flags: u32) -> Security {
    let key_mgmt = wpa_flags | rsn_flags;
    if key_mgmt & AP_SEC_KEY_MGMT_802_1X != 0 {
        Security::Unsupported
    } else if key_mgmt & (AP_SEC_KEY_MGMT_PSK | AP_SEC_KEY_MGMT_SAE) != 0 {
        Security::Password
    } else if flags & AP_FLAGS_PRIVACY != 0 {
        // WEP: broken for twenty years, and not offered.
        Security::Unsupported
    } else {
        Security::Open
    }
}

/// The saved Wi-Fi client connections (not hotspots) for `ssid`.
fn saved_connections(
    bus: &Connection,
    ssid: Option<&Ssid>,
) -> zbus::Result<Vec<(OwnedObjectPath, Ssid)>> {
    let paths: Vec<OwnedObjectPath> =
        proxy(bus, SETTINGS_PATH, SETTINGS)?.call("ListConnections", &())?;
    let mut out = Vec::new();
    for path in paths {
        let settings: HashMap<String, HashMap<String, OwnedValue>> =
            match proxy(bus, path.as_str(), CONNECTION)?.call("GetSettings", &()) {
                Ok(s) => s,
                // Removed meanwhile, or not readable: not ours to list.
                Err(_) => continue,
            };
        let Some(wireless) = settings.get("802-11-wireless") else {
            continue;
        };
        let mode = wireless
            .get("mode")
            .and_then(|v| String::try_from(v.clone()).ok());
        if mode.as_deref().is_some_and(|m| m != "infrastructure") {
            continue;
        }
        let Some(name) = wireless
            .get("ssid")
            .and_then(|v| Vec::<u8>::try_from(v.clone()).ok())
            .and_then(|b| Ssid::new(b).ok())
        else {
            continue;
        };
        if ssid.is_none_or(|s| *s == name) {
            out.push((path, name));
        }
    }
    Ok(out)
}

type Settings<'a> = HashMap<&'static str, HashMap<&'static str, Value<'a>>>;

/// The settings of a new client connection to `ssid`, kept by NetworkManager, which joins again
/// by itself when in range.
fn client_settings<'a>(ssid: &'a Ssid, password: Option<&'a Passphrase>) -> Settings<'a> {
    let mut connection = HashMap::new();
    connection.insert("type", Value::from("802-11-wireless"));
    connection.insert("id", Value::from(ssid.to_string()));
    connection.insert("autoconnect", Value::from(true));
    let mut wireless = HashMap::new();
    wireless.insert("ssid", Value::from(ssid.as_bytes().to_vec()));
    wireless.insert("mode", Value::from("infrastructure"));
    let mut settings = HashMap::new();
    settings.insert("connection", connection);
    if let Some(password) = password {
        let mut security = HashMap::new();
        security.insert("key-mgmt", Value::from("wpa-psk"));
        security.insert("psk", Value::from(password.as_str()));
        settings.insert("802-11-wireless-security", security);
    }
    settings.insert("802-11-wireless", wireless);
    settings
}

/// The saved connection the device is on now, if any.
fn active_connection(bus: &Connection, device: &str) -> zbus::Result<Option<OwnedObjectPath>> {
    let active: OwnedObjectPath = property(bus, device, DEVICE, "ActiveConnection")?;
    if is_none(&active) {
        return Ok(None);
    }
    let connection: OwnedObjectPath = property(bus, active.as_str(), ACTIVE, "Connection")?;
    Ok((!is_none(&connection)).then_some(connection))
}

/// What the device did while joining, for the reason a join failed.
#[derive(Default)]
struct JoinTrace {
    asked_for_password: bool,
    reason: Option<u32>,
}

impl JoinTrace {
    /// Takes in a state the device went through, and why.
    fn saw(&mut self, state: u32, reason: u32) {
        if state == STATE_NEED_AUTH {
            self.asked_for_password = true;
        }
        // Why it failed: the first reason given with the failed state (later changes, such as
        // going back to disconnected, carry other reasons).
        if state == STATE_FAILED && reason != 0 {
            self.reason.get_or_insert(reason);
        }
    }

    fn error(&self) -> JoinError {
        match self.reason {
            Some(REASON_SSID_NOT_FOUND) => JoinError::NotFound,
            Some(r) if REASONS_PASSWORD.contains(&r) => JoinError::WrongPassword,
            _ if self.asked_for_password => JoinError::WrongPassword,
            Some(r) => JoinError::Failed(format!("NetworkManager gave up (reason {r})")),
            None => JoinError::Failed("NetworkManager gave up".to_string()),
        }
    }
}

/// The device's state changes (new state, reason) as NetworkManager signals them, from a thread
/// that listens until the receiver is gone (it notices at the next change). Polling misses
/// states that last milliseconds: NEED_AUTH after a refused password lasted 11 ms in QEMU.
fn watch_states(bus: &Connection, device: &OwnedObjectPath) -> zbus::Result<Receiver<(u32, u32)>> {
    let (tx, rx) = mpsc::channel();
    let (ready_tx, ready_rx) = mpsc::channel();
    let (bus, device) = (bus.clone(), device.clone());
    std::thread::Builder::new()
        .name("wifi-states".to_string())
        .spawn(move || {
            let signals = match proxy(&bus, device.as_str(), DEVICE)
                .and_then(|p| p.receive_signal("StateChanged"))
            {
                Ok(signals) => {
                    let _ = ready_tx.send(Ok(()));
                    signals
                }
                Err(e) => {
                    let _ = ready_tx.send(Err(e));
                    return;
                }
            };
            for message in signals {
                if let Ok((new, _old, reason)) = message.body().deserialize::<(u32, u32, u32)>()
                    && tx.send((new, reason)).is_err()
                {
                    break;
                }
            }
        })
        .map_err(|e| zbus::Error::Failure(format!("cannot start a thread: {e}")))?;
    ready_rx
        .recv()
        .map_err(|_| zbus::Error::Failure("the state watch ended".to_string()))??;
    Ok(rx)
}

impl NetworkManager {
    fn join_on(
        &mut self,
        bus: &Connection,
        ssid: &Ssid,
        password: Option<&Passphrase>,
        for_a_game: bool,
    ) -> zbus::Result<Result<WifiState, JoinError>> {
        let Some(device) = wifi_device(bus)? else {
            return Ok(Err(JoinError::Failed("no Wi-Fi radio".to_string())));
        };
        let wireless = proxy(bus, device.as_str(), WIRELESS)?;
        let points: Vec<OwnedObjectPath> = wireless.call("GetAllAccessPoints", &())?;
        let mut best: Option<(u8, OwnedObjectPath)> = None;
        for point in points {
            if ssid_of(bus, point.as_str())?.as_ref() == Some(ssid) {
                let strength: u8 = property(bus, point.as_str(), ACCESS_POINT, "Strength")?;
                if best.as_ref().is_none_or(|(s, _)| strength > *s) {
                    best = Some((strength, point));
                }
            }
        }
        let Some((_, point)) = best else {
            return Ok(Err(JoinError::NotFound));
        };
        if for_a_game {
            self.remember_previous(bus, device.as_str())?;
            hotspot::remove_game_connections(bus)?;
        }
        let saved = if for_a_game {
            Vec::new()
        } else {
            saved_connections(bus, Some(ssid))?
        };
        let nm = proxy(bus, NM_PATH, NM)?;
        let changes = watch_states(bus, &device)?;
        let (active, added): (OwnedObjectPath, Option<OwnedObjectPath>) =
            match (password, saved.first()) {
                (None, Some((connection, _))) => {
                    let active: OwnedObjectPath =
                        nm.call("ActivateConnection", &(connection, &device, &point))?;
                    (active, None)
                }
                _ => {
                    // A new password replaces the one kept.
                    for (connection, _) in &saved {
                        proxy(bus, connection.as_str(), CONNECTION)?
                            .call::<_, _, ()>("Delete", &())?;
                    }
                    let settings = match (for_a_game, password) {
                        (true, Some(password)) => {
                            hotspot::game_settings(ssid, password, guest_address())
                        }
                        _ => client_settings(ssid, password),
                    };
                    let (connection, active): (OwnedObjectPath, OwnedObjectPath) =
                        nm.call("AddAndActivateConnection", &(settings, &device, &point))?;
                    (active, Some(connection))
                }
            };
        let outcome = Self::wait_joined(bus, device.as_str(), active.as_str(), ssid, &changes)?;
        if outcome.is_err()
            && let Some(connection) = added
        {
            // A password that did not work is not kept.
            let _ = proxy(bus, connection.as_str(), CONNECTION)
                .and_then(|p| p.call::<_, _, ()>("Delete", &()));
        }
        Ok(outcome)
    }

    /// Polls the activation until it has an address, fails, or runs out of time.
    fn wait_joined(
        bus: &Connection,
        device: &str,
        active: &str,
        ssid: &Ssid,
        changes: &Receiver<(u32, u32)>,
    ) -> zbus::Result<Result<WifiState, JoinError>> {
        let started = Instant::now();
        let mut trace = JoinTrace::default();
        while started.elapsed() < JOIN_PATIENCE {
            for (state, reason) in changes.try_iter() {
                trace.saw(state, reason);
            }
            let (state, reason): (u32, u32) = property(bus, device, DEVICE, "StateReason")?;
            trace.saw(state, reason);
            // The active connection object goes away once it is deactivated.
            let active_state: u32 = match property(bus, active, ACTIVE, "State") {
                Ok(s) => s,
                Err(_) => ACTIVE_DEACTIVATED,
            };
            if active_state == ACTIVE_DEACTIVATED {
                // The failure's own signals may still be on their way.
                while let Ok((state, reason)) = changes.recv_timeout(POLL) {
                    trace.saw(state, reason);
                }
                return Ok(Err(trace.error()));
            }
            if active_state == ACTIVE_ACTIVATED && state == STATE_ACTIVATED {
                return Ok(Ok(WifiState::Connected {
                    ssid: ssid.clone(),
                    address: address_of(bus, device)?,
                }));
            }
            std::thread::sleep(POLL);
        }
        Ok(Err(JoinError::Timeout))
    }
}

fn current_ssid(bus: &Connection, device: &str) -> zbus::Result<Option<Ssid>> {
    let point: OwnedObjectPath = property(bus, device, WIRELESS, "ActiveAccessPoint")?;
    if is_none(&point) {
        return Ok(None);
    }
    ssid_of(bus, point.as_str())
}

impl Wifi for NetworkManager {
    fn state(&mut self) -> WifiState {
        let result = self.with_bus(|bus| {
            let enabled: bool = property(bus, NM_PATH, NM, "WirelessEnabled")?;
            let Some(device) = wifi_device(bus)? else {
                return Ok(WifiState::NoRadio);
            };
            let state: u32 = property(bus, device.as_str(), DEVICE, "State")?;
            if !enabled || state == STATE_UNAVAILABLE {
                return Ok(WifiState::Off);
            }
            let ssid = current_ssid(bus, device.as_str())?;
            Ok(match (state, ssid) {
                (STATE_ACTIVATED, Some(ssid)) => WifiState::Connected {
                    ssid,
                    address: address_of(bus, device.as_str())?,
                },
                (STATE_PREPARE..=STATE_SECONDARIES, Some(ssid)) => WifiState::Connecting(ssid),
                _ => WifiState::Disconnected,
            })
        });
        result.unwrap_or_else(|e| WifiState::NoManager(e.0))
    }

    fn scan(&mut self) -> Result<(), WifiError> {
        self.with_bus(|bus| {
            let Some(device) = wifi_device(bus)? else {
                return Ok(());
            };
            let options: HashMap<&str, Value<'_>> = HashMap::new();
            match proxy(bus, device.as_str(), WIRELESS)?
                .call::<_, _, ()>("RequestScan", &(options,))
            {
                // Scanned a moment ago, or busy: the list it has is fresh enough.
                Err(zbus::Error::MethodError(name, _, _))
                    if name.as_str().ends_with(".NotAllowed") =>
                {
                    Ok(())
                }
                other => other,
            }
        })
    }

    fn networks(&mut self) -> Result<Vec<Network>, WifiError> {
        self.with_bus(|bus| {
            let Some(device) = wifi_device(bus)? else {
                return Ok(Vec::new());
            };
            let known: Vec<Ssid> = saved_connections(bus, None)?
                .into_iter()
                .map(|(_, s)| s)
                .collect();
            let current = current_ssid(bus, device.as_str())?;
            let state: u32 = property(bus, device.as_str(), DEVICE, "State")?;
            let points: Vec<OwnedObjectPath> =
                proxy(bus, device.as_str(), WIRELESS)?.call("GetAllAccessPoints", &())?;
            let mut networks = Vec::new();
            for point in points {
                let path = point.as_str();
                // A hidden network (no name) cannot be chosen from a list.
                let Some(ssid) = ssid_of(bus, path)? else {
                    continue;
                };
                let flags: u32 = property(bus, path, ACCESS_POINT, "Flags")?;
                let wpa: u32 = property(bus, path, ACCESS_POINT, "WpaFlags")?;
                let rsn: u32 = property(bus, path, ACCESS_POINT, "RsnFlags")?;
                networks.push(Network {
                    strength: property(bus, path, ACCESS_POINT, "Strength")?,
                    security: security(flags, wpa, rsn),
                    known: known.contains(&ssid),
                    active: state == STATE_ACTIVATED && current.as_ref() == Some(&ssid),
                    ssid,
                });
            }
            Ok(super::tidy(networks))
        })
    }

    fn join(&mut self, ssid: &Ssid, password: Option<&Passphrase>) -> Result<WifiState, JoinError> {
        let bus = self.bus().map_err(|e| JoinError::Failed(e.0))?;
        self.join_on(&bus, ssid, password, false)
            .unwrap_or_else(|e| Err(JoinError::Failed(describe(&e))))
    }

    fn open_hotspot(&mut self, ssid: &Ssid, password: &Passphrase) -> Result<WifiState, JoinError> {
        let bus = self.bus().map_err(|e| JoinError::Failed(e.0))?;
        self.open_hotspot_on(&bus, ssid, password)
            .unwrap_or_else(|e| Err(JoinError::Failed(describe(&e))))
    }

    fn join_hotspot(&mut self, ssid: &Ssid, password: &Passphrase) -> Result<WifiState, JoinError> {
        let bus = self.bus().map_err(|e| JoinError::Failed(e.0))?;
        self.join_on(&bus, ssid, Some(password), true)
            .unwrap_or_else(|e| Err(JoinError::Failed(describe(&e))))
    }

    fn leave_hotspot(&mut self) -> Result<(), WifiError> {
        let previous = self.previous.take();
        self.with_bus(|bus| hotspot::leave(bus, previous))
    }

    fn remove_leftovers(&mut self) -> Result<(), WifiError> {
        // Nothing of this run's: what is there was left by an earlier one, and the network
        // from before it is not known (NetworkManager joins a known one by itself).
        self.previous = None;
        self.with_bus(hotspot::remove_game_connections)
    }

    fn forget(&mut self, ssid: &Ssid) -> Result<(), WifiError> {
        self.with_bus(|bus| {
            for (connection, _) in saved_connections(bus, Some(ssid))? {
                proxy(bus, connection.as_str(), CONNECTION)?.call::<_, _, ()>("Delete", &())?;
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn traced(changes: &[(u32, u32)]) -> JoinError {
        let mut trace = JoinTrace::default();
        for &(state, reason) in changes {
            trace.saw(state, reason);
        }
        trace.error()
    }

    #[test]
    fn a_refused_password_is_told_from_other_failures() {
        // As NetworkManager signalled it in QEMU: config → need-auth (supplicant disconnect)
        // → failed (no secrets) → disconnected, then another reason later.
        let refused = [(50, 0), (60, 8), (120, 7), (30, 0), (30, 42)];
        assert_eq!(traced(&refused), JoinError::WrongPassword);
        // Need-auth seen, the failure's reason missed.
        assert_eq!(traced(&[(60, 8), (30, 42)]), JoinError::WrongPassword);
        // A later reason does not replace the failure's own.
        assert_eq!(traced(&[(120, 53), (120, 7)]), JoinError::NotFound);
        assert!(matches!(
            traced(&[(70, 0), (120, 17), (30, 0)]),
            JoinError::Failed(why) if why.contains("17")
        ));
        assert!(matches!(traced(&[(30, 42)]), JoinError::Failed(_)));
    }
}
