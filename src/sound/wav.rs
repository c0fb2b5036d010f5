//! Reading the WAV that `espeak-ng --stdout` writes: RIFF, 16-bit PCM. Written to a pipe, its
//! sizes are unknown ahead (0 or 0xFFFFFFFF): the data then runs to the end. Bad input is an
//! error, never a panic.

use std::fmt;

/// A decoded clip: mono samples in -1.0..1.0.
#[derive(Debug, Clone, PartialEq)]
pub struct Wav {
    pub rate: u32,
    pub samples: Vec<f32>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WavError {
    /// Not a RIFF/WAVE file.
    NotWav,
    /// A chunk runs past the end, or the `fmt ` or `data` chunk is missing.
    Truncated,
    /// Not 16-bit integer PCM with 1 or 2 channels at a sane rate.
    Unsupported(String),
}

impl fmt::Display for WavError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WavError::NotWav => write!(f, "not a WAV file"),
            WavError::Truncated => write!(f, "the WAV file is cut short"),
            WavError::Unsupported(what) => write!(f, "unsupported WAV: {what}"),
        }
    }
}

impl std::error::Error for WavError {}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

pub fn parse(bytes: &[u8]) -> Result<Wav, WavError> {
    if bytes.get(0..4) != Some(b"RIFF") || bytes.get(8..12) != Some(b"WAVE") {
        return Err(WavError::NotWav);
    }
    let mut at = 12;
    let mut format: Option<(u16, u16, u32, u16)> = None;
    while let (Some(id), Some(size)) = (bytes.get(at..at + 4), u32_at(bytes, at + 4)) {
        let body = at + 8;
        if id == b"fmt " {
            let f = |o| u16_at(bytes, body + o).ok_or(WavError::Truncated);
            let rate = u32_at(bytes, body + 4).ok_or(WavError::Truncated)?;
            format = Some((f(0)?, f(2)?, rate, f(14)?));
        } else if id == b"data" {
            let (tag, channels, rate, bits) = format.ok_or(WavError::Truncated)?;
            if tag != 1 || bits != 16 {
                return Err(WavError::Unsupported(format!(
                    "format {tag}, {bits} bits (16-bit PCM expected)"
                )));
            }
            if !(1..=2).contains(&channels) {
                return Err(WavError::Unsupported(format!("{channels} channels")));
            }
            if !(4_000..=192_000).contains(&rate) {
                return Err(WavError::Unsupported(format!("{rate} Hz")));
            }
            // A streamed file's size is a placeholder: the data runs to the end.
            let rest = &bytes[body.min(bytes.len())..];
            let data = match usize::try_from(size) {
                Ok(n) if n != 0 && n != u32::MAX as usize && n <= rest.len() => &rest[..n],
                _ => rest,
            };
            let frame = 2 * usize::from(channels);
            let samples = data
                .chunks_exact(frame)
                .map(|f| {
                    let sum: f32 = f
                        .chunks_exact(2)
                        .map(|s| f32::from(i16::from_le_bytes([s[0], s[1]])))
                        .sum();
                    sum / (f32::from(channels) * 32768.0)
                })
                .collect();
            return Ok(Wav { rate, samples });
        }
        // Chunks are padded to even lengths.
        let next = usize::try_from(size)
            .ok()
            .and_then(|s| body.checked_add(s)?.checked_add(s & 1));
        match next {
            Some(n) if n <= bytes.len() => at = n,
            _ => return Err(WavError::Truncated),
        }
    }
    Err(WavError::Truncated)
}

/// `samples` at `from` Hz, resampled to `to` Hz by linear interpolation (speech only: its
/// energy lies far below either rate's limit).
pub fn resample(samples: &[f32], from: u32, to: u32) -> Vec<f32> {
    if from == to || from == 0 || to == 0 || samples.is_empty() {
        return samples.to_vec();
    }
    let len = (samples.len() as u64 * u64::from(to) / u64::from(from)) as usize;
    let step = f64::from(from) / f64::from(to);
    (0..len)
        .map(|i| {
            let x = i as f64 * step;
            let j = x as usize;
            let frac = (x - j as f64) as f32;
            let a = samples[j.min(samples.len() - 1)];
            let b = samples[(j + 1).min(samples.len() - 1)];
            a + (b - a) * frac
        })
        .collect()
}
