//! A simulated radio with networks in range, for tests and for trying the Wi-Fi screen on a
//! desktop: it checks passwords, keeps the ones that worked, and can be slow like a real join.

use super::{JoinError, Network, Passphrase, Security, Ssid, Wifi, WifiError, WifiState};
use std::net::{IpAddr, Ipv4Addr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// An access point of the simulation.
#[derive(Debug, Clone)]
pub struct SimNetwork {
    pub ssid: Ssid,
    pub strength: u8,
    /// `None`: open.
    pub password: Option<String>,
}

#[derive(Debug, Default)]
struct Air {
    networks: Vec<SimNetwork>,
    /// Names whose password is kept.
    known: Vec<Ssid>,
    current: Option<Ssid>,
    scans: u32,
    looks: u32,
    /// This device's own access point, while open.
    hotspot: Option<Ssid>,
    /// On another ChessPI's hotspot for a game (`current` is its name).
    in_game: bool,
    /// The network before a hotspot game, to go back to.
    previous: Option<Ssid>,
}

/// The simulated radio. Clones share the same air, so a test can change what is in range
/// while the app holds the radio.
#[derive(Debug, Clone, Default)]
pub struct SimulatedWifi {
    air: Arc<Mutex<Air>>,
    join_time: Duration,
}

impl SimulatedWifi {
    pub fn new(networks: Vec<SimNetwork>) -> SimulatedWifi {
        SimulatedWifi {
            air: Arc::new(Mutex::new(Air {
                networks,
                ..Air::default()
            })),
            join_time: Duration::ZERO,
        }
    }

    /// Joins take `time`, as a real one's handshake and address do.
    pub fn with_join_time(mut self, time: Duration) -> SimulatedWifi {
        self.join_time = time;
        self
    }

    /// How often a scan was asked for.
    pub fn scans(&self) -> u32 {
        self.air().scans
    }

    /// How often the state was asked for.
    pub fn looks(&self) -> u32 {
        self.air().looks
    }

    /// The names whose passwords are kept.
    pub fn known(&self) -> Vec<Ssid> {
        self.air().known.clone()
    }

    fn air(&self) -> std::sync::MutexGuard<'_, Air> {
        self.air.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn address() -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(192, 168, 4, 23))
    }

    /// The access point this device opened, if open.
    pub fn hotspot(&self) -> Option<Ssid> {
        self.air().hotspot.clone()
    }

    /// Whether this device is on another ChessPI's hotspot for a game.
    pub fn in_game(&self) -> bool {
        self.air().in_game
    }

    /// The network this device is on as a client, if any.
    pub fn current(&self) -> Option<Ssid> {
        self.air().current.clone()
    }

    /// The app is stopped (crashed, or the power cut) with the radio as it is: the same air
    /// for the next run, but what this run remembered of the network before is gone, as a
    /// new process does not have it. The system still knows its networks' passwords.
    pub fn restart(&self) {
        self.air().previous = None;
    }
}

impl Wifi for SimulatedWifi {
    fn state(&mut self) -> WifiState {
        let mut air = self.air();
        air.looks += 1;
        if let Some(ssid) = &air.hotspot {
            return WifiState::Connected {
                ssid: ssid.clone(),
                address: Some(IpAddr::V4(Ipv4Addr::new(10, 42, 0, 1))),
            };
        }
        match &air.current {
            Some(ssid) => WifiState::Connected {
                ssid: ssid.clone(),
                address: Some(Self::address()),
            },
            None => WifiState::Disconnected,
        }
    }

    fn scan(&mut self) -> Result<(), WifiError> {
        self.air().scans += 1;
        Ok(())
    }

    fn networks(&mut self) -> Result<Vec<Network>, WifiError> {
        let air = self.air();
        Ok(super::tidy(
            air.networks
                .iter()
                .map(|n| Network {
                    ssid: n.ssid.clone(),
                    strength: n.strength,
                    security: if n.password.is_some() {
                        Security::Password
                    } else {
                        Security::Open
                    },
                    known: air.known.contains(&n.ssid),
                    active: air.current.as_ref() == Some(&n.ssid),
                })
                .collect(),
        ))
    }

    fn join(&mut self, ssid: &Ssid, password: Option<&Passphrase>) -> Result<WifiState, JoinError> {
        std::thread::sleep(self.join_time);
        let mut air = self.air();
        let Some(network) = air.networks.iter().find(|n| n.ssid == *ssid).cloned() else {
            return Err(JoinError::NotFound);
        };
        let known = air.known.contains(ssid);
        match (&network.password, password) {
            (None, _) => {}
            (Some(_), None) if known => {}
            (Some(expected), Some(given)) if given.as_str() == expected => {}
            _ => return Err(JoinError::WrongPassword),
        }
        if !known {
            air.known.push(ssid.clone());
        }
        air.current = Some(ssid.clone());
        Ok(WifiState::Connected {
            ssid: ssid.clone(),
            address: Some(Self::address()),
        })
    }

    fn open_hotspot(
        &mut self,
        ssid: &Ssid,
        _password: &Passphrase,
    ) -> Result<WifiState, JoinError> {
        std::thread::sleep(self.join_time);
        let mut air = self.air();
        if air.hotspot.is_none() {
            air.previous = air.current.take();
        }
        air.hotspot = Some(ssid.clone());
        Ok(WifiState::Connected {
            ssid: ssid.clone(),
            address: Some(IpAddr::V4(Ipv4Addr::new(10, 42, 0, 1))),
        })
    }

    fn join_hotspot(&mut self, ssid: &Ssid, password: &Passphrase) -> Result<WifiState, JoinError> {
        std::thread::sleep(self.join_time);
        let mut air = self.air();
        let Some(network) = air.networks.iter().find(|n| n.ssid == *ssid).cloned() else {
            return Err(JoinError::NotFound);
        };
        if network.password.as_deref() != Some(password.as_str()) {
            return Err(JoinError::WrongPassword);
        }
        let before = air.current.replace(ssid.clone());
        if !air.in_game {
            air.previous = before;
        }
        air.in_game = true;
        Ok(WifiState::Connected {
            ssid: ssid.clone(),
            address: Some(IpAddr::V4(Ipv4Addr::new(10, 42, 0, 17))),
        })
    }

    fn leave_hotspot(&mut self) -> Result<(), WifiError> {
        let mut air = self.air();
        // As NetworkManager's: only a hotspot game's own connection is taken down.
        if air.hotspot.is_some() || air.in_game {
            air.hotspot = None;
            air.in_game = false;
            air.current = air.previous.take();
        }
        Ok(())
    }

    fn remove_leftovers(&mut self) -> Result<(), WifiError> {
        let mut air = self.air();
        if air.in_game {
            air.current = None;
        }
        air.hotspot = None;
        air.in_game = false;
        if air.current.is_none() {
            // The system joins the strongest network it knows by itself.
            let known = air
                .networks
                .iter()
                .filter(|n| air.known.contains(&n.ssid))
                .max_by_key(|n| n.strength)
                .map(|n| n.ssid.clone());
            air.current = known;
        }
        Ok(())
    }

    fn forget(&mut self, ssid: &Ssid) -> Result<(), WifiError> {
        let mut air = self.air();
        air.known.retain(|k| k != ssid);
        if air.current.as_ref() == Some(ssid) {
            air.current = None;
        }
        Ok(())
    }
}
