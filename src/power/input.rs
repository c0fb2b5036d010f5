//! Finding touchscreens and power keys with evdev, and reading them on their own threads.
//!
//! The UI toolkit reads the same devices through libinput; this watcher only needs to know that
//! something happened (idle timer) and whether the power key was pressed.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Sender;

use evdev::{AbsoluteAxisCode, Device, EventSummary, KeyCode};

use super::idle::InputEvent;

/// Where evdev device nodes live.
pub const INPUT_DIR: &str = "/dev/input";

/// What a device is watched for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceRole {
    /// Reports touches (activity, wake-up).
    pub touch: bool,
    /// Has a power key.
    pub power_key: bool,
}

/// An opened input device.
pub struct FoundDevice {
    /// Its node, e.g. `/dev/input/event0`.
    pub path: PathBuf,
    /// Its name, as the kernel reports it.
    pub name: String,
    /// What it is watched for.
    pub role: DeviceRole,
    device: Device,
}

/// What a device can do, from its capabilities.
fn role_of(device: &Device) -> DeviceRole {
    let keys = device.supported_keys();
    let axes = device.supported_absolute_axes();
    let has_key = |k: KeyCode| keys.is_some_and(|set| set.contains(k));
    let has_axis = |a: AbsoluteAxisCode| axes.is_some_and(|set| set.contains(a));
    DeviceRole {
        touch: has_key(KeyCode::BTN_TOUCH)
            && (has_axis(AbsoluteAxisCode::ABS_MT_POSITION_X) || has_axis(AbsoluteAxisCode::ABS_X)),
        power_key: has_key(KeyCode::KEY_POWER),
    }
}

/// What device discovery found, and what it could not open.
pub struct Discovery {
    /// Devices to watch.
    pub devices: Vec<FoundDevice>,
    /// Nodes that could not be opened for lack of permission.
    pub permission_denied: Vec<PathBuf>,
}

/// Opens the devices under `dir` to watch: those named in `names`, or, when `names` is empty,
/// every touchscreen and every device with a power key.
///
/// # Errors
/// `dir` cannot be listed.
pub fn discover(dir: &Path, names: &[String]) -> io::Result<Discovery> {
    let mut nodes: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with("event"))
        })
        .collect();
    nodes.sort();
    let mut found = Discovery {
        devices: Vec::new(),
        permission_denied: Vec::new(),
    };
    for path in nodes {
        let device = match Device::open(&path) {
            Ok(d) => d,
            Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
                found.permission_denied.push(path);
                continue;
            }
            Err(_) => continue,
        };
        let name = device.name().unwrap_or_default().to_string();
        let mut role = role_of(&device);
        if !names.is_empty() {
            if !names.contains(&name) {
                continue;
            }
            // A named device counts as activity even without touch capabilities (e.g. buttons).
            role.touch = true;
        }
        if role.touch || role.power_key {
            found.devices.push(FoundDevice {
                path,
                name,
                role,
                device,
            });
        }
    }
    Ok(found)
}

/// Translates evdev events into idle-timer inputs, tracking whether a finger is down.
#[derive(Debug, Default)]
pub struct EventTranslator {
    touching: bool,
}

impl EventTranslator {
    /// The input for one evdev event, if it matters.
    pub fn translate(&mut self, event: EventSummary, power_key: bool) -> Option<InputEvent> {
        match event {
            EventSummary::Key(_, KeyCode::KEY_POWER, 1) if power_key => Some(InputEvent::PowerKey),
            EventSummary::Key(_, KeyCode::BTN_TOUCH, value) => Some(self.touch(value != 0)),
            // Multi-touch slots end with tracking id -1; a touchscreen without BTN_TOUCH relies
            // on it.
            EventSummary::AbsoluteAxis(_, AbsoluteAxisCode::ABS_MT_TRACKING_ID, id) => {
                Some(self.touch(id >= 0))
            }
            EventSummary::AbsoluteAxis(..) | EventSummary::RelativeAxis(..) => {
                Some(InputEvent::Activity)
            }
            // Key presses and autorepeat, not releases.
            EventSummary::Key(_, _, 1 | 2) => Some(InputEvent::Activity),
            _ => None,
        }
    }

    fn touch(&mut self, down: bool) -> InputEvent {
        let was = std::mem::replace(&mut self.touching, down);
        match (was, down) {
            (false, true) => InputEvent::TouchDown,
            (true, false) => InputEvent::TouchUp,
            _ => InputEvent::Activity,
        }
    }
}

/// Reads `found` on a new thread until the device disappears or `sink` is gone. The thread
/// blocks in `read(2)`, costing nothing while nobody touches the screen.
///
/// # Errors
/// The thread cannot be started.
pub fn spawn_reader(
    mut found: FoundDevice,
    power_key: bool,
    sink: impl Fn(InputEvent) -> bool + Send + 'static,
) -> io::Result<()> {
    let name = format!("input {}", found.path.display());
    std::thread::Builder::new().name(name).spawn(move || {
        let mut translator = EventTranslator::default();
        let power_key = power_key && found.role.power_key;
        loop {
            let events = match found.device.fetch_events() {
                Ok(events) => events,
                Err(e) => {
                    log::warn!(
                        "input: {} ({}) stopped: {e}",
                        found.name,
                        found.path.display()
                    );
                    return;
                }
            };
            for event in events {
                if let Some(input) = translator.translate(event.destructure(), power_key)
                    && !sink(input)
                {
                    return;
                }
            }
        }
    })?;
    Ok(())
}

/// A sender the readers use; `false` once the receiver is gone.
pub(super) fn channel_sink<T: From<InputEvent> + Send + 'static>(
    tx: Sender<T>,
) -> impl Fn(InputEvent) -> bool + Send + 'static {
    move |e| tx.send(T::from(e)).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use evdev::{AbsoluteAxisEvent, KeyEvent, SynchronizationCode, SynchronizationEvent};

    fn key(code: KeyCode, value: i32) -> EventSummary {
        KeyEvent::new(code, value).into()
    }

    fn abs(code: AbsoluteAxisCode, value: i32) -> EventSummary {
        AbsoluteAxisEvent::new(code, value).into()
    }

    #[test]
    fn translates_touches_keys_and_the_power_key() {
        let mut t = EventTranslator::default();
        assert_eq!(
            t.translate(key(KeyCode::BTN_TOUCH, 1), true),
            Some(InputEvent::TouchDown)
        );
        assert_eq!(
            t.translate(abs(AbsoluteAxisCode::ABS_MT_POSITION_X, 100), true),
            Some(InputEvent::Activity)
        );
        // The tracking id of the same finger is no second touch.
        assert_eq!(
            t.translate(abs(AbsoluteAxisCode::ABS_MT_TRACKING_ID, 7), true),
            Some(InputEvent::Activity)
        );
        assert_eq!(
            t.translate(key(KeyCode::BTN_TOUCH, 0), true),
            Some(InputEvent::TouchUp)
        );
        assert_eq!(
            t.translate(abs(AbsoluteAxisCode::ABS_MT_TRACKING_ID, -1), true),
            Some(InputEvent::Activity)
        );
        assert_eq!(
            t.translate(key(KeyCode::KEY_POWER, 1), true),
            Some(InputEvent::PowerKey)
        );
        assert_eq!(
            t.translate(key(KeyCode::KEY_POWER, 1), false),
            Some(InputEvent::Activity)
        );
        assert_eq!(t.translate(key(KeyCode::KEY_POWER, 0), true), None);
        assert_eq!(
            t.translate(key(KeyCode::KEY_A, 1), true),
            Some(InputEvent::Activity)
        );
        let syn = SynchronizationEvent::new(SynchronizationCode::SYN_REPORT, 0);
        assert_eq!(t.translate(syn.into(), true), None);
    }

    #[test]
    fn tracking_ids_alone_make_touches() {
        let mut t = EventTranslator::default();
        let id = |v| abs(AbsoluteAxisCode::ABS_MT_TRACKING_ID, v);
        assert_eq!(t.translate(id(3), true), Some(InputEvent::TouchDown));
        assert_eq!(t.translate(id(-1), true), Some(InputEvent::TouchUp));
    }

    #[test]
    fn discovery_of_a_missing_directory_is_an_error() {
        assert!(discover(Path::new("/nonexistent/chesspi-input"), &[]).is_err());
    }

    #[test]
    fn discovery_skips_non_device_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("event0"), b"not a device").expect("write");
        std::fs::write(dir.path().join("mice"), b"").expect("write");
        let found = discover(dir.path(), &[]).expect("listed");
        assert!(found.devices.is_empty());
    }
}
