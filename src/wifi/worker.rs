//! The Wi-Fi thread: owns the [`Wifi`] and does what the screen asks, one request at a time,
//! reporting each answer through a callback (which hands it to the UI thread). It sleeps on its
//! channel between requests: nothing polls while the Wi-Fi screen is closed.

use super::{JoinError, Network, Passphrase, Ssid, Wifi, WifiError, WifiState};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::Duration;

/// What the screen asks of the Wi-Fi thread.
#[derive(Debug, Clone)]
pub enum WifiRequest {
    /// The state and the networks as the manager knows them now.
    Look,
    /// A new scan, then a look once it has had time to hear the networks.
    Scan,
    Join {
        ssid: Ssid,
        password: Option<Passphrase>,
    },
    Forget(Ssid),
    /// Open this device's hotspot for a game.
    OpenHotspot {
        ssid: Ssid,
        password: Passphrase,
    },
    /// Join another ChessPI's hotspot for a game.
    JoinHotspot {
        ssid: Ssid,
        password: Passphrase,
    },
    /// The hotspot game is over: back to the network from before.
    LeaveHotspot,
}

/// What the Wi-Fi thread answers.
#[derive(Debug, Clone)]
pub enum WifiReport {
    Looked {
        state: WifiState,
        networks: Result<Vec<Network>, WifiError>,
    },
    Joined {
        ssid: Ssid,
        result: Result<WifiState, JoinError>,
    },
    Forgot {
        ssid: Ssid,
        result: Result<(), WifiError>,
    },
    HotspotOpened {
        ssid: Ssid,
        result: Result<WifiState, JoinError>,
    },
    HotspotJoined {
        ssid: Ssid,
        result: Result<WifiState, JoinError>,
    },
}

/// How long a scan takes to hear the networks around (2.4 GHz and 5 GHz channels).
pub const SCAN_TIME: Duration = Duration::from_secs(3);

/// The running thread; dropping it ends the thread after the request in hand.
pub struct WifiWorker {
    tx: Option<Sender<WifiRequest>>,
    thread: Option<JoinHandle<()>>,
}

impl WifiWorker {
    /// Starts the thread with `wifi`; `on_report` runs on it.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn start(
        wifi: Box<dyn Wifi>,
        scan_time: Duration,
        on_report: impl Fn(WifiReport) + Send + 'static,
    ) -> std::io::Result<WifiWorker> {
        let (tx, rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("wifi".to_string())
            .spawn(move || run(wifi, &rx, scan_time, &on_report))?;
        Ok(WifiWorker {
            tx: Some(tx),
            thread: Some(thread),
        })
    }

    /// A handle for sending requests from elsewhere (a timer).
    pub fn sender(&self) -> Sender<WifiRequest> {
        self.tx.clone().expect("the channel is open until drop")
    }

    pub fn send(&self, request: WifiRequest) {
        if let Some(tx) = &self.tx {
            let _ = tx.send(request);
        }
    }
}

impl Drop for WifiWorker {
    fn drop(&mut self) {
        // The channel closing ends the loop; a join in hand finishes first, so do not wait.
        self.tx = None;
        drop(self.thread.take());
    }
}

fn look(wifi: &mut dyn Wifi) -> WifiReport {
    let state = wifi.state();
    let networks = match &state {
        WifiState::NoManager(_) | WifiState::NoRadio | WifiState::Off => Ok(Vec::new()),
        _ => wifi.networks(),
    };
    WifiReport::Looked { state, networks }
}

fn run(
    mut wifi: Box<dyn Wifi>,
    requests: &Receiver<WifiRequest>,
    scan_time: Duration,
    report: &dyn Fn(WifiReport),
) {
    while let Ok(request) = requests.recv() {
        match request {
            WifiRequest::Look => report(look(wifi.as_mut())),
            WifiRequest::Scan => {
                if let Err(e) = wifi.scan() {
                    log::warn!("Wi-Fi scan: {e}");
                }
                // What it knows already, at once; then what the scan heard.
                report(look(wifi.as_mut()));
                std::thread::sleep(scan_time);
                report(look(wifi.as_mut()));
            }
            WifiRequest::Join { ssid, password } => {
                let result = wifi.join(&ssid, password.as_ref());
                match &result {
                    Ok(state) => log::info!("Wi-Fi: joined {ssid}: {state:?}"),
                    Err(e) => log::warn!("Wi-Fi: joining {ssid} failed: {e}"),
                }
                report(WifiReport::Joined { ssid, result });
                report(look(wifi.as_mut()));
            }
            WifiRequest::OpenHotspot { ssid, password } => {
                let result = wifi.open_hotspot(&ssid, &password);
                match &result {
                    Ok(_) => log::info!("Wi-Fi: hotspot {ssid} open"),
                    Err(e) => log::warn!("Wi-Fi: hotspot {ssid} failed: {e}"),
                }
                report(WifiReport::HotspotOpened { ssid, result });
            }
            WifiRequest::JoinHotspot { ssid, password } => {
                let result = wifi.join_hotspot(&ssid, &password);
                match &result {
                    Ok(_) => log::info!("Wi-Fi: joined the hotspot {ssid}"),
                    Err(e) => log::warn!("Wi-Fi: joining the hotspot {ssid} failed: {e}"),
                }
                report(WifiReport::HotspotJoined { ssid, result });
            }
            WifiRequest::LeaveHotspot => match wifi.leave_hotspot() {
                Ok(()) => log::info!("Wi-Fi: hotspot game over, back to the network from before"),
                Err(e) => log::warn!("Wi-Fi: leaving the hotspot: {e}"),
            },
            WifiRequest::Forget(ssid) => {
                let result = wifi.forget(&ssid);
                report(WifiReport::Forgot { ssid, result });
                report(look(wifi.as_mut()));
            }
        }
    }
}
