//! Opening the display on the device. At boot the DRM driver (vc4 on a Pi, virtio-gpu in
//! QEMU) can register its device a few seconds after the service starts (the unit only waits
//! for the DRM core, `modprobe@drm.service`); exiting then would cost a restart. So the device
//! build waits for the display a while; the desktop build fails at once as before (no X
//! display will appear by waiting).

use std::time::{Duration, Instant};

use super::signals;
use crate::app::shell::AppError;

/// How long the device build waits for its display before giving up (systemd then restarts
/// the app).
pub const DISPLAY_PATIENCE: Duration = Duration::from_secs(30);

/// Time between two attempts.
const RETRY_EVERY: Duration = Duration::from_millis(250);

/// The patience of this build: [`DISPLAY_PATIENCE`] on the device, none on a desktop.
pub fn patience() -> Duration {
    if cfg!(feature = "kms") {
        DISPLAY_PATIENCE
    } else {
        Duration::ZERO
    }
}

/// Calls `open` until it succeeds, fails with something other than a display error, or
/// `patience` has passed. `Ok(None)`: SIGTERM or SIGINT came while waiting.
///
/// # Errors
/// The last error of `open`.
pub fn open_with_patience<T>(
    patience: Duration,
    mut open: impl FnMut() -> Result<T, AppError>,
) -> Result<Option<T>, AppError> {
    let start = Instant::now();
    let mut waited = false;
    loop {
        match open() {
            Ok(value) => {
                if waited {
                    log::info!(
                        "the display is ready after {:.1} s",
                        start.elapsed().as_secs_f64()
                    );
                }
                return Ok(Some(value));
            }
            Err(AppError::Platform(e)) if start.elapsed() + RETRY_EVERY <= patience => {
                if !waited {
                    log::warn!("the display is not ready ({e}); waiting up to {patience:?}");
                    waited = true;
                }
            }
            Err(e) => return Err(e),
        }
        std::thread::sleep(RETRY_EVERY);
        if signals::stop_requested() {
            return Ok(None);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_display() -> AppError {
        AppError::Platform(slint::PlatformError::Other("no DRM device".into()))
    }

    #[test]
    fn waits_for_a_display_that_comes() {
        let mut tries = 0;
        let start = Instant::now();
        let opened = open_with_patience(Duration::from_secs(5), || {
            tries += 1;
            if tries < 3 {
                Err(no_display())
            } else {
                Ok(tries)
            }
        });
        assert!(matches!(opened, Ok(Some(3))), "{opened:?}");
        assert!(start.elapsed() >= RETRY_EVERY * 2);
    }

    #[test]
    fn gives_up_after_its_patience() {
        let mut tries = 0;
        let start = Instant::now();
        let opened: Result<Option<()>, _> = open_with_patience(Duration::from_secs(1), || {
            tries += 1;
            Err(no_display())
        });
        assert!(matches!(opened, Err(AppError::Platform(_))), "{opened:?}");
        assert!(start.elapsed() < Duration::from_secs(2));
        assert!((3..=5).contains(&tries), "{tries} tries");
    }

    #[test]
    fn no_patience_fails_at_once() {
        let mut tries = 0;
        let opened: Result<Option<()>, _> = open_with_patience(Duration::ZERO, || {
            tries += 1;
            Err(no_display())
        });
        assert!(opened.is_err());
        assert_eq!(tries, 1);
    }

    #[test]
    fn other_errors_are_not_retried() {
        let mut tries = 0;
        let opened: Result<Option<()>, _> = open_with_patience(Duration::from_secs(5), || {
            tries += 1;
            Err(AppError::Thread(std::io::Error::other("no thread")))
        });
        assert!(matches!(opened, Err(AppError::Thread(_))));
        assert_eq!(tries, 1);
    }
}
