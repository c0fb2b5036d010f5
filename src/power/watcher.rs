//! The power watcher thread: runs the idle timer against real input and the backlight, and
//! reports screen changes, swallowed wake-up touches and power-key presses.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::thread::JoinHandle;
use std::time::Instant;

use super::backlight::{BACKLIGHT_CLASS, Backlight, SysfsBacklight};
use super::idle::{IdleSettings, IdleTimer, InputEvent, InputOutcome, ScreenState};
use super::input::{INPUT_DIR, channel_sink, discover, spawn_reader};
use crate::config::{BacklightLocation, DisplayConfig, PowerConfig};

/// What the watcher reports. Delivered on the watcher thread: forward it to the UI thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PowerEvent {
    /// The backlight changed: dimmed, blanked, or awake again.
    Screen(ScreenState),
    /// The screen woke up. `swallowed`: the waking input was a touch that the game must ignore
    /// (see [`TouchGate`]).
    Woke {
        /// Whether the wake-up touch is swallowed.
        swallowed: bool,
    },
    /// The power key was pressed: confirm on screen, save, then run the shutdown command.
    ShutdownRequested,
}

/// Tells the UI whether a touch that starts now is a wake-up touch to ignore. Cheap to clone
/// and to query from the UI thread on every pointer press.
///
/// The watcher closes the gate before it dims the screen and opens it only after the waking
/// finger lifts, so the UI never sees a wake-up touch as a move, whichever thread runs first.
/// The UI decides once per gesture, at the press, and ignores that gesture's release too.
#[derive(Debug, Clone, Default)]
pub struct TouchGate(Arc<AtomicBool>);

impl TouchGate {
    /// Whether a touch starting now must be ignored by the game.
    pub fn blocks_touch(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    fn set(&self, blocked: bool) {
        self.0.store(blocked, Ordering::SeqCst);
    }
}

/// Brightness and idle settings of the watcher.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PowerSettings {
    /// Idle times.
    pub idle: IdleSettings,
    /// Brightness while awake, percent.
    pub brightness_percent: u8,
    /// Brightness while dimmed, percent.
    pub dim_percent: u8,
}

impl From<&DisplayConfig> for PowerSettings {
    fn from(d: &DisplayConfig) -> Self {
        Self {
            idle: IdleSettings {
                dim_after: d.dim_after,
                blank_after: d.blank_after,
            },
            brightness_percent: d.brightness_percent,
            dim_percent: d.dim_brightness_percent,
        }
    }
}

enum Message {
    Input(InputEvent),
    SetBrightness(u8),
    SetIdle(IdleSettings),
    Stop,
}

impl From<InputEvent> for Message {
    fn from(e: InputEvent) -> Self {
        Self::Input(e)
    }
}

/// Feeds inputs to a running watcher (the evdev readers use one; tests use one instead).
#[derive(Debug, Clone)]
pub struct InputSender(Sender<Message>);

impl std::fmt::Debug for Message {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Input(e) => write!(f, "Input({e:?})"),
            Self::SetBrightness(p) => write!(f, "SetBrightness({p})"),
            Self::SetIdle(i) => write!(f, "SetIdle({i:?})"),
            Self::Stop => f.write_str("Stop"),
        }
    }
}

impl InputSender {
    /// Delivers one input; `false` once the watcher has stopped.
    pub fn send(&self, event: InputEvent) -> bool {
        self.0.send(Message::Input(event)).is_ok()
    }
}

/// The running watcher. Dropping it stops the thread (the evdev reader threads end at their
/// next event).
pub struct PowerWatcher {
    tx: Sender<Message>,
    gate: TouchGate,
    /// False when no touchscreen was found: nothing could end a dim, so it never starts.
    can_idle: bool,
    thread: Option<JoinHandle<()>>,
}

impl PowerWatcher {
    /// Starts the watcher on `backlight` with inputs from [`PowerWatcher::input_sender`] only.
    /// Without a backlight the screen never dims (a dim that cannot be seen must not swallow
    /// touches).
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn spawn(
        settings: PowerSettings,
        backlight: Option<Box<dyn Backlight>>,
        on_event: impl FnMut(PowerEvent) + Send + 'static,
    ) -> std::io::Result<Self> {
        let (tx, rx) = channel();
        let gate = TouchGate::default();
        let thread_gate = gate.clone();
        let thread = std::thread::Builder::new()
            .name("power".into())
            .spawn(move || run(settings, backlight, &rx, &thread_gate, on_event))?;
        Ok(Self {
            tx,
            gate,
            can_idle: true,
            thread: Some(thread),
        })
    }

    /// Starts the watcher for the device: the configured backlight, every touchscreen and power
    /// key under `/dev/input` (or the devices named in the config). Whatever is missing or not
    /// permitted is logged once and that feature is left out; the app runs on.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn start(
        display: &DisplayConfig,
        power: &PowerConfig,
        on_event: impl FnMut(PowerEvent) + Send + 'static,
    ) -> std::io::Result<Self> {
        let backlight = open_backlight(&display.backlight);
        let discovery = match discover(std::path::Path::new(INPUT_DIR), &display.input_devices) {
            Ok(d) => d,
            Err(e) => {
                log::warn!("input: cannot list {INPUT_DIR}: {e}; no idle dimming, no power key");
                super::input::Discovery {
                    devices: Vec::new(),
                    permission_denied: Vec::new(),
                }
            }
        };
        if !discovery.permission_denied.is_empty() {
            log::warn!(
                "input: no permission to read {} device(s) in {INPUT_DIR} (is the user in the \
                 `input` group?)",
                discovery.permission_denied.len()
            );
        }
        let has_touch = discovery.devices.iter().any(|d| d.role.touch);
        if !has_touch {
            log::warn!("input: no touchscreen found; the screen will not dim when idle");
        }
        if power.power_key && !discovery.devices.iter().any(|d| d.role.power_key) {
            log::info!("input: no power key found");
        }
        let mut settings = PowerSettings::from(display);
        if !has_touch {
            // Without a way to notice activity, dimming would never end.
            settings.idle = IdleSettings {
                dim_after: None,
                blank_after: None,
            };
        }
        let mut watcher = Self::spawn(settings, backlight, on_event)?;
        watcher.can_idle = has_touch;
        for device in discovery.devices {
            log::info!(
                "input: watching {} ({}){}{}",
                device.name,
                device.path.display(),
                if device.role.touch {
                    " for activity"
                } else {
                    ""
                },
                if device.role.power_key && power.power_key {
                    " and the power key"
                } else {
                    ""
                }
            );
            let sink = channel_sink(watcher.tx.clone());
            if let Err(e) = spawn_reader(device, power.power_key, sink) {
                log::warn!("input: cannot start a reader thread: {e}");
            }
        }
        Ok(watcher)
    }

    /// The gate the UI checks at every pointer press.
    pub fn touch_gate(&self) -> TouchGate {
        self.gate.clone()
    }

    /// A sender of inputs to this watcher.
    pub fn input_sender(&self) -> InputSender {
        InputSender(self.tx.clone())
    }

    /// Changes the awake brightness (a setting changed on the device), applied at once if the
    /// screen is awake.
    pub fn set_brightness(&self, percent: u8) {
        let _ = self.tx.send(Message::SetBrightness(percent.clamp(1, 100)));
    }

    /// Changes the idle times (a setting changed on the device); counting starts again now.
    pub fn set_idle(&self, idle: IdleSettings) {
        if self.can_idle {
            let _ = self.tx.send(Message::SetIdle(idle));
        }
    }

    /// Stops the thread and waits for it.
    pub fn stop(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        let _ = self.tx.send(Message::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for PowerWatcher {
    fn drop(&mut self) {
        self.shut_down();
    }
}

fn open_backlight(location: &BacklightLocation) -> Option<Box<dyn Backlight>> {
    let opened = match location {
        BacklightLocation::Auto => SysfsBacklight::find(std::path::Path::new(BACKLIGHT_CLASS)),
        BacklightLocation::Path(dir) => SysfsBacklight::open(dir),
    };
    match opened {
        Ok(b) => {
            log::info!("backlight: {}", b.dir().display());
            Some(Box::new(b))
        }
        Err(e) => {
            log::warn!("backlight: none usable ({e}); the screen will not dim when idle");
            None
        }
    }
}

/// Applies a screen state to the backlight, logging each distinct failure once.
struct Light {
    backlight: Option<Box<dyn Backlight>>,
    last_error: Option<String>,
}

impl Light {
    fn set(&mut self, percent: u8) {
        let Some(backlight) = self.backlight.as_mut() else {
            return;
        };
        match backlight.set_percent(percent) {
            Ok(()) => self.last_error = None,
            Err(e) => {
                let message = e.to_string();
                if self.last_error.as_ref() != Some(&message) {
                    log::warn!("backlight: {message} (write access comes from the udev rule)");
                    self.last_error = Some(message);
                }
            }
        }
    }
}

fn run(
    mut settings: PowerSettings,
    backlight: Option<Box<dyn Backlight>>,
    rx: &Receiver<Message>,
    gate: &TouchGate,
    mut on_event: impl FnMut(PowerEvent),
) {
    if backlight.is_none() {
        settings.idle = IdleSettings {
            dim_after: None,
            blank_after: None,
        };
    }
    let mut light = Light {
        backlight,
        last_error: None,
    };
    // Start lit: a restart may find the screen dark from the previous run.
    light.set(settings.brightness_percent);
    let mut timer = IdleTimer::new(settings.idle, Instant::now());
    loop {
        let message = match timer.next_deadline() {
            Some(deadline) => rx.recv_timeout(deadline.saturating_duration_since(Instant::now())),
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match message {
            Ok(Message::Input(event)) => {
                let outcome = timer.input(event, Instant::now());
                if let InputOutcome::Wake { swallowed } = outcome {
                    light.set(settings.brightness_percent);
                    on_event(PowerEvent::Screen(ScreenState::Awake));
                    on_event(PowerEvent::Woke { swallowed });
                }
                gate.set(timer.blocks_touch());
                if event == InputEvent::PowerKey {
                    on_event(PowerEvent::ShutdownRequested);
                }
            }
            Ok(Message::SetIdle(idle)) => {
                // Without a backlight a dim cannot be seen and must not swallow touches.
                if light.backlight.is_some() {
                    settings.idle = idle;
                    timer = IdleTimer::new(idle, Instant::now());
                    light.set(settings.brightness_percent);
                    gate.set(timer.blocks_touch());
                }
            }
            Ok(Message::SetBrightness(percent)) => {
                settings.brightness_percent = percent;
                settings.dim_percent = settings.dim_percent.min(percent);
                if timer.state() == ScreenState::Awake {
                    light.set(percent);
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Some(state) = timer.poll(Instant::now()) {
                    // Close the gate before the light goes down: a touch on a dark screen
                    // never reaches the game.
                    gate.set(true);
                    light.set(match state {
                        ScreenState::Dimmed => settings.dim_percent,
                        ScreenState::Blanked => 0,
                        ScreenState::Awake => settings.brightness_percent,
                    });
                    on_event(PowerEvent::Screen(state));
                }
            }
            Ok(Message::Stop) | Err(RecvTimeoutError::Disconnected) => return,
        }
    }
}
