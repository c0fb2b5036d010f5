//! `[sound]`: where ChessPI's sounds and spoken moves are played.

use super::{Violation, violation};
use serde::{Deserialize, Serialize};

/// Longest ALSA device name accepted (they are short; a long one is a mistake).
const MAX_DEVICE_CHARS: usize = 200;

/// `[sound]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoundConfig {
    /// The ALSA PCM played on: "default", "plughw:CARD=Headphones", "hdmi", ...
    pub device: String,
}

impl Default for SoundConfig {
    fn default() -> Self {
        SoundConfig {
            device: "default".into(),
        }
    }
}

/// The `[sound]` section as written, before [`validate`].
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub(super) struct RawSound {
    pub device: String,
}

impl Default for RawSound {
    fn default() -> Self {
        RawSound {
            device: SoundConfig::default().device,
        }
    }
}

pub(super) fn validate(s: RawSound) -> Result<SoundConfig, Violation> {
    let device = s.device.trim();
    if device.is_empty()
        || device.chars().count() > MAX_DEVICE_CHARS
        || device.chars().any(char::is_control)
    {
        return Err(violation(
            "sound.device",
            format!(
                "must be an ALSA device name (e.g. \"default\" or \"plughw:1\") of at most \
                 {MAX_DEVICE_CHARS} characters"
            ),
        ));
    }
    Ok(SoundConfig {
        device: device.to_string(),
    })
}
