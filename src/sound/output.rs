//! Where the mixed samples go: the [`Output`] trait, and ALSA behind it.

use alsa::pcm::{Access, Format, HwParams, PCM};
use alsa::{Direction, ValueOr};
use std::fmt;

/// Why the sound device could not be opened or written.
#[derive(Debug)]
pub enum OutputError {
    /// No device of that name, or it refused every format we can make.
    Open { device: String, cause: String },
    /// Writing failed and could not be recovered.
    Write(String),
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::Open { device, cause } => {
                write!(f, "cannot open sound device {device:?}: {cause}")
            }
            OutputError::Write(cause) => write!(f, "cannot play sound: {cause}"),
        }
    }
}

impl std::error::Error for OutputError {}

/// A device that plays mono 16-bit samples.
pub trait Output: Send {
    /// Samples per second.
    fn rate(&self) -> u32;
    /// Samples written at a time: the mixer's block.
    fn block(&self) -> usize;
    /// Makes ready for a burst of sound (after [`Output::finish`] or at first).
    fn start(&mut self) -> Result<(), OutputError>;
    /// Plays `samples`; blocks while the device's buffer is full (that paces the mixer).
    fn write(&mut self, samples: &[i16]) -> Result<(), OutputError>;
    /// Lets everything written play out; the device then idles until the next start.
    fn finish(&mut self) -> Result<(), OutputError>;
}

/// An ALSA PCM, mono if the device takes it (the samples are doubled for a stereo-only one).
pub struct AlsaOutput {
    pcm: PCM,
    rate: u32,
    channels: usize,
    block: usize,
    /// Interleaved samples for a stereo device.
    scratch: Vec<i16>,
}

/// Block and buffer lengths, microseconds: a short buffer keeps the delay from a move to
/// its sound small; 10 ms blocks are cheap for the Pi.
const BLOCK_US: u32 = 10_000;
const BUFFER_US: u32 = 40_000;

impl AlsaOutput {
    pub fn open(device: &str) -> Result<AlsaOutput, OutputError> {
        // alsa-lib writes its own complaints to stderr: caught here (for this thread) and put
        // in the one error we log, instead of a journal line at every try.
        let said = alsa::Output::local_error_handler().ok();
        let open_error = |e: alsa::Error| {
            let detail = said
                .as_ref()
                .map(|s| s.borrow().to_string().trim().replace('\n', "; "))
                .filter(|d| !d.is_empty());
            OutputError::Open {
                device: device.to_string(),
                cause: match detail {
                    Some(d) => format!("{e} ({d})"),
                    None => e.to_string(),
                },
            }
        };
        let pcm = PCM::new(device, Direction::Playback, false).map_err(open_error)?;
        let (rate, channels, block) = {
            let hw = HwParams::any(&pcm).map_err(open_error)?;
            hw.set_access(Access::RWInterleaved).map_err(open_error)?;
            hw.set_format(Format::s16()).map_err(open_error)?;
            let channels = if hw.set_channels(1).is_ok() {
                1
            } else {
                hw.set_channels(2).map_err(open_error)?;
                2
            };
            let rate = hw
                .set_rate_near(super::SAMPLE_RATE, ValueOr::Nearest)
                .map_err(open_error)?;
            hw.set_period_time_near(BLOCK_US, ValueOr::Nearest)
                .map_err(open_error)?;
            hw.set_buffer_time_near(BUFFER_US, ValueOr::Nearest)
                .map_err(open_error)?;
            pcm.hw_params(&hw).map_err(open_error)?;
            let block = hw.get_period_size().map_err(open_error)?;
            (
                rate,
                channels,
                usize::try_from(block).unwrap_or(256).max(16),
            )
        };
        log::info!("sound: {device:?} at {rate} Hz, {channels} channel(s), blocks of {block}");
        Ok(AlsaOutput {
            pcm,
            rate,
            channels,
            block,
            scratch: Vec::new(),
        })
    }
}

impl Output for AlsaOutput {
    fn rate(&self) -> u32 {
        self.rate
    }

    fn block(&self) -> usize {
        self.block
    }

    fn start(&mut self) -> Result<(), OutputError> {
        use alsa::pcm::State;
        match self.pcm.state() {
            State::Prepared | State::Running => Ok(()),
            _ => self
                .pcm
                .prepare()
                .map_err(|e| OutputError::Write(e.to_string())),
        }
    }

    fn write(&mut self, samples: &[i16]) -> Result<(), OutputError> {
        let data: &[i16] = if self.channels == 1 {
            samples
        } else {
            self.scratch.clear();
            self.scratch
                .extend(samples.iter().flat_map(|&s| std::iter::repeat_n(s, 2)));
            &self.scratch
        };
        let io = self
            .pcm
            .io_i16()
            .map_err(|e| OutputError::Write(e.to_string()))?;
        let mut done = 0;
        let frames = data.len() / self.channels;
        // An underrun (the mixer late) is recovered; anything else ends the burst.
        let mut retries = 0;
        while done < frames {
            match io.writei(&data[done * self.channels..]) {
                Ok(n) => done += n,
                Err(e) if retries < 3 => {
                    retries += 1;
                    self.pcm
                        .try_recover(e, true)
                        .map_err(|e| OutputError::Write(e.to_string()))?;
                }
                Err(e) => return Err(OutputError::Write(e.to_string())),
            }
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<(), OutputError> {
        self.pcm
            .drain()
            .map_err(|e| OutputError::Write(e.to_string()))
    }
}
