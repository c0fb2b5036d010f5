//! The Wi-Fi thread: owns the [`Wifi`] and does what the screen asks, one request at a time,
//! reporting each answer through a callback (which hands it to the UI thread). It sleeps on its
//! channel between requests: nothing polls while the Wi-Fi screen is closed.

use super::{JoinError, Network, Passphrase, Ssid, Wifi, WifiError, WifiState};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

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
    /// The hotspot game is over: back to the network from before, now (nothing happens
    /// where no hotspot was opened or joined).
    LeaveHotspot,
    /// The hotspot game is over, but its last messages may still be on their way (the final
    /// move, its acknowledgement): leave after this long, unless asked to leave sooner or a
    /// new hotspot game starts.
    LeaveHotspotAfter(Duration),
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

/// This device's part in a hotspot game, as the thread keeps it.
#[derive(Debug, Default)]
struct HotspotGame {
    /// A hotspot was opened or joined and not left yet.
    engaged: bool,
    /// When to leave it.
    leave_at: Option<Instant>,
}

impl HotspotGame {
    /// Leaves the hotspot game now, if there is one.
    fn leave(&mut self, wifi: &mut dyn Wifi) {
        self.leave_at = None;
        if !std::mem::take(&mut self.engaged) {
            return;
        }
        match wifi.leave_hotspot() {
            Ok(()) => log::info!("Wi-Fi: hotspot game over, back to the network from before"),
            Err(e) => log::warn!("Wi-Fi: leaving the hotspot: {e}"),
        }
    }

    /// The next request, or `None` when it is time to leave the hotspot; `Err` once the
    /// channel is closed (the app is ending).
    fn next(&self, requests: &Receiver<WifiRequest>) -> Result<Option<WifiRequest>, ()> {
        let Some(at) = self.leave_at else {
            return requests.recv().map(Some).map_err(|_| ());
        };
        match requests.recv_timeout(at.saturating_duration_since(Instant::now())) {
            Ok(request) => Ok(Some(request)),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(()),
        }
    }
}

fn run(
    mut wifi: Box<dyn Wifi>,
    requests: &Receiver<WifiRequest>,
    scan_time: Duration,
    report: &dyn Fn(WifiReport),
) {
    // The hotspot game of an earlier run ended with that run: its hotspot must not stay up.
    if let Err(e) = wifi.remove_leftovers() {
        log::warn!("Wi-Fi: removing an earlier run's hotspot game: {e}");
    }
    let mut game = HotspotGame::default();
    while let Ok(next) = game.next(requests) {
        let Some(request) = next else {
            game.leave(wifi.as_mut());
            continue;
        };
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
                // A network chosen by the player ends a hotspot game's hold on the radio
                // first, so that leaving it later does not undo the choice.
                game.leave(wifi.as_mut());
                let result = wifi.join(&ssid, password.as_ref());
                match &result {
                    Ok(state) => log::info!("Wi-Fi: joined {ssid}: {state:?}"),
                    Err(e) => log::warn!("Wi-Fi: joining {ssid} failed: {e}"),
                }
                report(WifiReport::Joined { ssid, result });
                report(look(wifi.as_mut()));
            }
            WifiRequest::OpenHotspot { ssid, password } => {
                // A new game's hotspot replaces one still waiting to be left.
                game.engaged = true;
                game.leave_at = None;
                let result = wifi.open_hotspot(&ssid, &password);
                match &result {
                    Ok(_) => log::info!("Wi-Fi: hotspot {ssid} open"),
                    Err(e) => log::warn!("Wi-Fi: hotspot {ssid} failed: {e}"),
                }
                report(WifiReport::HotspotOpened { ssid, result });
            }
            WifiRequest::JoinHotspot { ssid, password } => {
                game.engaged = true;
                game.leave_at = None;
                let result = wifi.join_hotspot(&ssid, &password);
                match &result {
                    Ok(_) => log::info!("Wi-Fi: joined the hotspot {ssid}"),
                    Err(e) => log::warn!("Wi-Fi: joining the hotspot {ssid} failed: {e}"),
                }
                report(WifiReport::HotspotJoined { ssid, result });
            }
            WifiRequest::LeaveHotspot => game.leave(wifi.as_mut()),
            WifiRequest::LeaveHotspotAfter(after) => {
                if game.engaged {
                    let at = Instant::now() + after;
                    game.leave_at = Some(game.leave_at.map_or(at, |earlier| earlier.min(at)));
                    log::info!("Wi-Fi: the hotspot game is over; leaving in {after:?}");
                }
            }
            WifiRequest::Forget(ssid) => {
                let result = wifi.forget(&ssid);
                report(WifiReport::Forgot { ssid, result });
                report(look(wifi.as_mut()));
            }
        }
    }
    // The app is ending: its hotspot goes with it (if the process ends first, the next start
    // removes it).
    game.leave(wifi.as_mut());
}
