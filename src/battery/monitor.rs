//! The battery monitor thread: polls a source, filters, and reports what the UI must show or do.

use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{BatteryLevel, BatteryReading, BatterySource, BatteryStatus, LevelFilter, open_source};
use crate::config::BatteryConfig;
use crate::power::ShutdownCommand;

/// What the monitor reports. Delivered on the monitor thread: forward it to the UI thread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BatteryEvent {
    /// The shown status changed (debounced). The first event is the initial status.
    Changed(BatteryStatus),
    /// The level became low without a charger: show a dismissable warning. Sent once per
    /// discharge (again only after a charger was connected or the level rose).
    LowWarning,
    /// Critical: save the game now and tell the user; the shutdown command runs after
    /// `shutdown_in` unless a charger is connected meanwhile.
    Critical {
        /// Time left before the shutdown command.
        shutdown_in: Duration,
    },
    /// A charger was connected (or the level rose) during the grace period: no shutdown.
    CriticalCancelled,
    /// The shutdown command is being run now.
    ShuttingDown,
    /// The shutdown command failed; the app keeps running (and the hardware will cut power).
    ShutdownFailed(String),
    /// The shutdown command ran, but the device was still on a minute later.
    StillOn,
    /// The configured source found no battery hardware (a bare Pi): no indicator, no
    /// monitor, and never a shutdown for it. Sent once, at start.
    NoBoard,
}

/// Timing of the monitor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MonitorSettings {
    /// Time between readings.
    pub poll_interval: Duration,
    /// Any change must hold this long.
    pub debounce: Duration,
    /// A higher level without a charger must hold this long.
    pub rise_delay: Duration,
    /// Between [`BatteryEvent::Critical`] and the shutdown command.
    pub critical_grace: Duration,
}

impl From<&BatteryConfig> for MonitorSettings {
    fn from(c: &BatteryConfig) -> Self {
        Self {
            poll_interval: c.poll_interval,
            debounce: c.debounce,
            rise_delay: c.rise_delay,
            critical_grace: c.critical_grace,
        }
    }
}

/// Still running this long after the shutdown command: it did not power off, and the user
/// is told.
const SHUTDOWN_PATIENCE: Duration = Duration::from_secs(60);

/// Where the critical-shutdown sequence stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Critical {
    Idle,
    Pending {
        deadline: Instant,
    },
    /// The shutdown command ran at `at`; `told` once the user heard it did not work.
    Done {
        at: Instant,
        told: bool,
    },
}

/// Events from shown statuses: the low warning and the critical shutdown. Pure apart from the
/// clock the caller passes in.
struct Alarms {
    low_armed: bool,
    critical: Critical,
    grace: Duration,
}

/// What [`Alarms::step`] asks the thread to do besides emitting events.
#[derive(Debug, PartialEq, Eq)]
enum Action {
    None,
    RunShutdown,
}

impl Alarms {
    fn new(grace: Duration) -> Self {
        Self {
            low_armed: true,
            critical: Critical::Idle,
            grace,
        }
    }

    fn step(
        &mut self,
        shown: Option<&BatteryStatus>,
        now: Instant,
        emit: &mut dyn FnMut(BatteryEvent),
    ) -> Action {
        let (level, charging) = match shown {
            Some(BatteryStatus::Level(BatteryReading { level, charging })) => {
                (*level, *charging == Some(true))
            }
            // A fault or nothing yet: neither arms nor cancels anything.
            _ => (BatteryLevel::Unknown, false),
        };
        if charging || level >= BatteryLevel::Medium {
            self.low_armed = true;
        } else if level == BatteryLevel::Low && self.low_armed {
            self.low_armed = false;
            emit(BatteryEvent::LowWarning);
        }
        match self.critical {
            Critical::Idle if level == BatteryLevel::Critical && !charging => {
                self.critical = Critical::Pending {
                    deadline: now + self.grace,
                };
                emit(BatteryEvent::Critical {
                    shutdown_in: self.grace,
                });
                Action::None
            }
            Critical::Pending { .. } if charging || level > BatteryLevel::Critical => {
                self.critical = Critical::Idle;
                emit(BatteryEvent::CriticalCancelled);
                Action::None
            }
            Critical::Pending { deadline } if now >= deadline => {
                self.critical = Critical::Done {
                    at: now,
                    told: false,
                };
                emit(BatteryEvent::ShuttingDown);
                Action::RunShutdown
            }
            // Still here after the shutdown: recover when the battery does; say it once if it
            // does not.
            Critical::Done { .. } if charging || level > BatteryLevel::Critical => {
                self.critical = Critical::Idle;
                emit(BatteryEvent::CriticalCancelled);
                Action::None
            }
            Critical::Done { at, told: false } if now >= at + SHUTDOWN_PATIENCE => {
                self.critical = Critical::Done { at, told: true };
                emit(BatteryEvent::StillOn);
                Action::None
            }
            _ => Action::None,
        }
    }

    /// When the monitor must look again whatever the readings: the end of the grace period,
    /// or the moment a shutdown that did not happen is to be told.
    fn deadline(&self) -> Option<Instant> {
        match self.critical {
            Critical::Pending { deadline } => Some(deadline),
            Critical::Done { at, told: false } => Some(at + SHUTDOWN_PATIENCE),
            _ => None,
        }
    }
}

type StopFlag = Arc<(Mutex<bool>, Condvar)>;

/// The running monitor. Dropping it stops the thread.
pub struct BatteryMonitor {
    stop: StopFlag,
    thread: Option<JoinHandle<()>>,
}

impl BatteryMonitor {
    /// Starts polling `source` on a new thread; `on_event` is called on that thread.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn spawn(
        mut source: Box<dyn BatterySource>,
        settings: MonitorSettings,
        shutdown: ShutdownCommand,
        mut on_event: impl FnMut(BatteryEvent) + Send + 'static,
    ) -> std::io::Result<Self> {
        let stop: StopFlag = Arc::new((Mutex::new(false), Condvar::new()));
        let thread_stop = Arc::clone(&stop);
        let thread = std::thread::Builder::new()
            .name("battery".into())
            .spawn(move || {
                run(
                    &mut *source,
                    settings,
                    &shutdown,
                    &mut on_event,
                    &thread_stop,
                );
            })?;
        Ok(Self {
            stop,
            thread: Some(thread),
        })
    }

    /// Stops the thread and waits for it (at most one poll's work).
    pub fn stop(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        let (flag, wake) = &*self.stop;
        *flag.lock().unwrap_or_else(PoisonError::into_inner) = true;
        wake.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for BatteryMonitor {
    fn drop(&mut self) {
        self.shut_down();
    }
}

fn run(
    source: &mut dyn BatterySource,
    settings: MonitorSettings,
    shutdown: &ShutdownCommand,
    on_event: &mut dyn FnMut(BatteryEvent),
    stop: &StopFlag,
) {
    log::info!(
        "battery: reading the {} source every {:?}",
        source.name(),
        settings.poll_interval
    );
    let mut filter = LevelFilter::new(settings.debounce, settings.rise_delay);
    let mut alarms = Alarms::new(settings.critical_grace);
    let mut last_error: Option<String> = None;
    loop {
        let reading = match source.read() {
            Ok(status) => {
                if last_error.take().is_some() {
                    log::info!("battery: {} source readable again", source.name());
                }
                status
            }
            Err(e) => {
                // Log each distinct problem once, not at every poll.
                let message = e.to_string();
                if last_error.as_ref() != Some(&message) {
                    log::warn!("{message}");
                    last_error = Some(message);
                }
                BatteryStatus::Level(BatteryReading::UNKNOWN)
            }
        };
        let now = Instant::now();
        if let Some(status) = filter.update(reading, now) {
            match &status {
                BatteryStatus::Fault(f) => log::warn!("{f}"),
                BatteryStatus::Level(r) => {
                    log::info!("battery: {} (charging: {:?})", r.level, r.charging);
                }
            }
            on_event(BatteryEvent::Changed(status));
        }
        if alarms.step(filter.shown(), now, on_event) == Action::RunShutdown
            && let Err(e) = shutdown.run()
        {
            log::error!("{e}");
            on_event(BatteryEvent::ShutdownFailed(e.to_string()));
        }
        let mut wait = settings.poll_interval;
        if let Some(deadline) = alarms.deadline() {
            wait = wait.min(deadline.saturating_duration_since(Instant::now()));
        }
        let (flag, wake) = &**stop;
        let guard = flag.lock().unwrap_or_else(PoisonError::into_inner);
        let (guard, _) = wake
            .wait_timeout_while(guard, wait, |stopped| !*stopped)
            .unwrap_or_else(PoisonError::into_inner);
        if *guard {
            return;
        }
    }
}

/// Opens the configured source and starts the monitor. `None` when the source is `none` or
/// cannot be opened (logged once, e.g. `gpio` off a Raspberry Pi): the app runs on with the
/// battery indicator hidden.
pub fn start_monitor(
    config: &BatteryConfig,
    shutdown: ShutdownCommand,
    mut on_event: impl FnMut(BatteryEvent) + Send + 'static,
) -> Option<BatteryMonitor> {
    let source = match open_source(config) {
        Ok(Some(source)) => source,
        Ok(None) => {
            log::info!("battery: no source configured, indicator hidden");
            return None;
        }
        Err(e) => {
            log::warn!("{e}; running without a battery indicator");
            if e.no_board {
                on_event(BatteryEvent::NoBoard);
            }
            return None;
        }
    };
    match BatteryMonitor::spawn(source, MonitorSettings::from(config), shutdown, on_event) {
        Ok(monitor) => Some(monitor),
        Err(e) => {
            log::error!("battery: cannot start the monitor thread: {e}");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(level: BatteryLevel, charging: Option<bool>) -> BatteryStatus {
        BatteryStatus::Level(BatteryReading { level, charging })
    }

    fn step(
        alarms: &mut Alarms,
        status: &BatteryStatus,
        now: Instant,
    ) -> (Vec<BatteryEvent>, Action) {
        let mut events = Vec::new();
        let action = alarms.step(Some(status), now, &mut |e| events.push(e));
        (events, action)
    }

    #[test]
    fn low_warning_is_sent_once_per_discharge() {
        let t = Instant::now();
        let mut a = Alarms::new(Duration::from_secs(30));
        let low = level(BatteryLevel::Low, Some(false));
        assert_eq!(step(&mut a, &low, t).0, vec![BatteryEvent::LowWarning]);
        assert_eq!(step(&mut a, &low, t).0, vec![]);
        step(&mut a, &level(BatteryLevel::Low, Some(true)), t);
        assert_eq!(step(&mut a, &low, t).0, vec![BatteryEvent::LowWarning]);
    }

    #[test]
    fn critical_waits_for_the_grace_then_shuts_down_once() {
        let t = Instant::now();
        let grace = Duration::from_secs(30);
        let mut a = Alarms::new(grace);
        let critical = level(BatteryLevel::Critical, None);
        assert_eq!(
            step(&mut a, &critical, t),
            (
                vec![BatteryEvent::Critical { shutdown_in: grace }],
                Action::None
            )
        );
        assert_eq!(a.deadline(), Some(t + grace));
        assert_eq!(
            step(&mut a, &critical, t + Duration::from_secs(29)).1,
            Action::None
        );
        assert_eq!(
            step(&mut a, &critical, t + grace),
            (vec![BatteryEvent::ShuttingDown], Action::RunShutdown)
        );
        assert_eq!(
            step(&mut a, &critical, t + 2 * grace),
            (vec![], Action::None)
        );
        // A minute after the command the device is still on: said once, not run again.
        let later = t + grace + SHUTDOWN_PATIENCE;
        assert_eq!(a.deadline(), Some(later));
        let (events, action) = step(&mut a, &critical, later);
        assert_eq!(events, vec![BatteryEvent::StillOn]);
        assert_eq!(action, Action::None);
        assert_eq!(step(&mut a, &critical, later + SHUTDOWN_PATIENCE).0, vec![]);
        // The charger: everything is over, and a later critical level starts again.
        assert_eq!(
            step(&mut a, &level(BatteryLevel::Full, Some(true)), later).0,
            vec![BatteryEvent::CriticalCancelled]
        );
        assert!(matches!(
            step(&mut a, &critical, later).0.as_slice(),
            [BatteryEvent::Critical { .. }]
        ));
    }

    #[test]
    fn charger_cancels_a_pending_shutdown() {
        let t = Instant::now();
        let mut a = Alarms::new(Duration::from_secs(30));
        step(&mut a, &level(BatteryLevel::Critical, Some(false)), t);
        let charging = level(BatteryLevel::Critical, Some(true));
        assert_eq!(
            step(&mut a, &charging, t).0,
            vec![BatteryEvent::CriticalCancelled]
        );
        assert_eq!(
            step(&mut a, &charging, t + Duration::from_secs(60)).1,
            Action::None
        );
    }
}
