//! Spoken moves: text turned into a clip by `espeak-ng` (offline, German and English voices;
//! a dependency of the .deb) on a thread of its own, then played by the sound thread like
//! any other sound — mixed, at the volume of the moment.

use super::Command;
use super::wav::{self, Wav, WavError};
use crate::i18n::Language;
use std::fmt;
use std::process::{Command as Process, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::mpsc::{self, Sender};

/// Something to say.
pub struct Request {
    pub text: String,
    pub language: Language,
}

#[derive(Debug)]
pub enum SpeechError {
    /// The speech program could not be run (not installed?).
    Program(std::io::Error),
    /// It ran and failed.
    Failed(String),
    /// Its output was not a WAV we read.
    Wav(WavError),
}

impl fmt::Display for SpeechError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpeechError::Program(e) => write!(f, "cannot run espeak-ng: {e}"),
            SpeechError::Failed(why) => write!(f, "espeak-ng failed: {why}"),
            SpeechError::Wav(e) => write!(f, "espeak-ng's output: {e}"),
        }
    }
}

impl std::error::Error for SpeechError {}

/// Turns text into sound.
pub trait Voice {
    fn speak(&self, text: &str, language: Language) -> Result<Wav, SpeechError>;
}

/// The `espeak-ng` program.
pub struct Espeak {
    program: String,
}

impl Default for Espeak {
    fn default() -> Self {
        Espeak {
            program: "espeak-ng".into(),
        }
    }
}

impl Voice for Espeak {
    fn speak(&self, text: &str, language: Language) -> Result<Wav, SpeechError> {
        let output = Process::new(&self.program)
            .args(["-v", language.code(), "-s", "160", "--stdout", "--", text])
            .stdin(Stdio::null())
            .stderr(Stdio::piped())
            .output()
            .map_err(SpeechError::Program)?;
        if !output.status.success() {
            let why = String::from_utf8_lossy(&output.stderr).trim().to_string();
            return Err(SpeechError::Failed(format!("{} {why}", output.status)));
        }
        wav::parse(&output.stdout).map_err(SpeechError::Wav)
    }
}

/// Starts the speech thread; its clips go to the player at the device's `rate` (0 while the
/// device is not open: nothing is said then).
pub(super) fn spawn(
    voice: impl Voice + Send + 'static,
    player: Sender<Command>,
    rate: Arc<AtomicU32>,
) -> std::io::Result<Sender<Request>> {
    let (tx, rx) = mpsc::channel::<Request>();
    std::thread::Builder::new()
        .name("speech".into())
        .spawn(move || {
            let mut complained = false;
            let mut next = None;
            loop {
                let Some(request) = next.take().or_else(|| rx.recv().ok()) else {
                    return;
                };
                // Only the latest is said: a move the board has moved on from is stale.
                let request = rx.try_iter().last().unwrap_or(request);
                let rate = rate.load(Ordering::Relaxed);
                if rate == 0 {
                    continue;
                }
                let spoken = voice.speak(&request.text, request.language);
                // One more came while this was made: that one is said instead.
                next = rx.try_iter().last();
                if next.is_some() {
                    continue;
                }
                match spoken {
                    Ok(clip) => {
                        let samples = wav::resample(trimmed(&clip.samples), clip.rate, rate);
                        if player.send(Command::Speech(samples)).is_err() {
                            return;
                        }
                    }
                    // Once in the log is enough: every move would repeat it.
                    Err(e) if !complained => {
                        log::warn!("speech: {e}; moves are not spoken");
                        complained = true;
                    }
                    Err(_) => {}
                }
            }
        })?;
    Ok(tx)
}

/// `samples` without the silence espeak-ng ends every clip with (a third of a second): the
/// next move's words need not wait for it. A little is kept, so the last sound dies away.
pub(super) fn trimmed(samples: &[f32]) -> &[f32] {
    const SILENT: f32 = 1e-3;
    // Samples: about 20 ms at espeak-ng's 22,050 Hz.
    const KEEP: usize = 400;
    let end = samples
        .iter()
        .rposition(|s| s.abs() > SILENT)
        .map_or(0, |last| (last + 1 + KEEP).min(samples.len()));
    &samples[..end]
}
