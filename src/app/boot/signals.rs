//! SIGTERM and SIGINT: `systemctl stop`, a restart, a shutdown of the device, Ctrl-C at a
//! terminal. The first one asks the app to stop as it does when the window closes: the event
//! loop ends, the computer's search is abandoned, the saves already queued are finished, and the
//! process exits 0. A second signal, or a stop that takes longer than [`STOP_PATIENCE`], ends
//! the process at once: every file is written atomically (temp file, rename), so cutting a save
//! short loses at most that one save, never a file.
//!
//! The signals arrive on a thread of their own (signal-hook's self-pipe: the handler itself
//! only writes a byte), never in the middle of the UI thread's work.

use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::{Handle, Signals};

/// How long an orderly stop may take before the process exits anyway. Less than the unit's
/// `TimeoutStopSec=10`, so the app ends itself (and says why) before systemd's SIGKILL.
pub const STOP_PATIENCE: Duration = Duration::from_secs(8);

/// Exit status when the stop was cut short (128 + SIGTERM, as a shell reports it).
const CUT_SHORT: i32 = 143;

/// Set by the first signal; never cleared.
static STOP_REQUESTED: AtomicBool = AtomicBool::new(false);

/// Whether SIGTERM or SIGINT has arrived: long waits at startup (the display) give up.
pub fn stop_requested() -> bool {
    STOP_REQUESTED.load(Ordering::SeqCst)
}

/// The signal watcher; dropping it stops watching (the default actions come back only for
/// signals that arrive later, which is fine: the app is then finishing anyway).
pub struct StopSignals {
    handle: Handle,
    thread: Option<JoinHandle<()>>,
}

/// Watches for SIGTERM and SIGINT. On the first one, `on_stop` runs on the watcher thread
/// with the signal's name (quit the event loop from there); see the module notes for what
/// follows.
///
/// # Errors
/// The handlers cannot be installed or the thread cannot start.
pub fn watch(on_stop: impl Fn(&'static str) + Send + 'static) -> std::io::Result<StopSignals> {
    let mut signals = Signals::new([SIGTERM, SIGINT])?;
    let handle = signals.handle();
    let thread = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                let name = signal_name(signal);
                if STOP_REQUESTED.swap(true, Ordering::SeqCst) {
                    log::warn!("{name} again: stopping at once");
                    std::process::exit(CUT_SHORT);
                }
                log::info!("{name} received: stopping (finishing the saves)");
                start_deadline();
                on_stop(name);
            }
        })?;
    Ok(StopSignals {
        handle,
        thread: Some(thread),
    })
}

/// Ends the process if the orderly stop hangs (a stuck disk, a long export).
fn start_deadline() {
    let spawned = std::thread::Builder::new()
        .name("stop-deadline".into())
        .spawn(|| {
            std::thread::sleep(STOP_PATIENCE);
            log::error!("stopping took longer than {STOP_PATIENCE:?}: exiting now");
            std::process::exit(CUT_SHORT);
        });
    if let Err(e) = spawned {
        log::error!("cannot start the stop deadline: {e}");
    }
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        SIGTERM => "SIGTERM",
        SIGINT => "SIGINT",
        _ => "signal",
    }
}

impl Drop for StopSignals {
    fn drop(&mut self) {
        self.handle.close();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Asks Slint's event loop to end, from any thread. Before the loop runs the request waits
/// in its queue and ends the loop as soon as it starts.
pub fn quit_event_loop() {
    if let Err(e) = slint::invoke_from_event_loop(|| {
        let _ = slint::quit_event_loop();
    }) {
        log::error!("cannot reach the event loop to stop it: {e}");
    }
}
