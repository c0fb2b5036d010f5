//! Sound: short cues for moves and events, and spoken moves, played through ALSA.
//!
//! The UI thread only sends commands: one thread owns the sound device and mixes (see
//! [`player`]), another runs `espeak-ng` (see [`speech`]). Cues are synthesised once when the
//! device opens; nothing is written to the device while nothing sounds, so an idle ChessPI
//! costs no CPU for sound. No device (or none at the configured name) means silence and one
//! log line; the Settings dialog then says "No speaker found".

mod mixer;
pub mod output;
mod player;
pub mod speech;
pub mod spoken;
mod synth;
pub mod wav;

use crate::i18n::Language;
use output::Output;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::mpsc::{self, Sender};

pub use synth::clip as synthesise;

/// The sample rate asked of the device: espeak-ng's own, and plenty for beeps.
pub const SAMPLE_RATE: u32 = 22_050;

/// What a sound says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cue {
    /// A quiet move.
    Move,
    /// A capture (en passant too).
    Capture,
    /// Castling: king, then rook.
    Castle,
    /// A move that gives check.
    Check,
    /// The game is over: the person at the screen won.
    Won,
    /// The game is over: the person at the screen lost.
    Lost,
    /// The game is over: a draw (or a two-player game decided).
    Drawn,
    /// A tap the board could not take as a move.
    Illegal,
    /// A second of the player's last ten on the clock.
    Tick,
    /// The network partner came (back).
    PartnerJoined,
    /// The network partner went away.
    PartnerLeft,
    /// The battery is low.
    BatteryLow,
    /// The battery is critical: ChessPI shuts down soon.
    BatteryCritical,
    /// The volume changed: how loud it is now.
    Test,
}

impl Cue {
    pub const ALL: [Cue; 14] = [
        Cue::Move,
        Cue::Capture,
        Cue::Castle,
        Cue::Check,
        Cue::Won,
        Cue::Lost,
        Cue::Drawn,
        Cue::Illegal,
        Cue::Tick,
        Cue::PartnerJoined,
        Cue::PartnerLeft,
        Cue::BatteryLow,
        Cue::BatteryCritical,
        Cue::Test,
    ];
}

/// The loudness of everything ChessPI plays, in the Settings dialog's steps; zero is mute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Volume(u8);

impl Volume {
    /// The Settings dialog's steps, percent; 0 is "off" (mute).
    pub const STEPS: [u8; 6] = [0, 20, 40, 60, 80, 100];
    /// Cues peak near -12 dBFS here (-3 at 100 %): clearly heard on the Pi's small speaker
    /// in a quiet room, not startling, with room to turn it up.
    pub const DEFAULT: Volume = Volume(60);
    pub const MUTE: Volume = Volume(0);

    /// The step nearest `percent` (values over 100 are 100).
    pub fn nearest(percent: u8) -> Volume {
        let p = percent.min(100);
        let best = Self::STEPS
            .iter()
            .copied()
            .min_by_key(|&s| s.abs_diff(p))
            .unwrap_or(Self::DEFAULT.0);
        Volume(best)
    }

    pub fn percent(self) -> u8 {
        self.0
    }

    pub fn is_mute(self) -> bool {
        self.0 == 0
    }

    /// The next step up; after the loudest comes mute, after mute the quietest.
    pub fn next(self) -> Volume {
        let i = Self::STEPS.iter().position(|&s| s == self.0).unwrap_or(0);
        Volume(Self::STEPS[(i + 1) % Self::STEPS.len()])
    }

    /// The factor samples are multiplied by: loudness is heard roughly as the square of the
    /// amplitude's fraction, so the steps sound evenly spaced (-28, -16, -9, -4, 0 dB).
    pub fn gain(self) -> f32 {
        let f = f32::from(self.0) / 100.0;
        f * f
    }
}

impl Default for Volume {
    fn default() -> Self {
        Volume::DEFAULT
    }
}

/// Which moves are spoken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SpeakMoves {
    #[default]
    Off,
    /// The moves that come from outside the screen: the computer's and a network partner's.
    Opponent,
    /// Every move.
    All,
}

impl SpeakMoves {
    pub const ALL: [SpeakMoves; 3] = [SpeakMoves::Off, SpeakMoves::Opponent, SpeakMoves::All];

    pub fn next(self) -> SpeakMoves {
        let i = Self::ALL.iter().position(|&s| s == self).unwrap_or(0);
        Self::ALL[(i + 1) % Self::ALL.len()]
    }

    /// The word kept in the device settings.
    pub fn key(self) -> &'static str {
        match self {
            SpeakMoves::Off => "off",
            SpeakMoves::Opponent => "opponent",
            SpeakMoves::All => "all",
        }
    }

    pub fn from_key(key: &str) -> Option<SpeakMoves> {
        Self::ALL.into_iter().find(|s| s.key() == key)
    }
}

/// Whether there is something to play sound on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SpeakerState {
    /// The device is being opened (the first moments after start).
    Opening,
    /// Sound plays.
    Ready,
    /// No sound device: ChessPI runs silently.
    #[default]
    Missing,
}

/// What the sound threads are asked to do.
enum Command {
    Cue(Cue),
    /// A spoken clip, ready at the device's rate (from the speech thread).
    Speech(Vec<f32>),
    Volume(Volume),
    /// Ends the thread once everything queued has played (tests).
    #[cfg(test)]
    Stop,
}

/// The app's handle on sound: cheap to clone, never blocks.
#[derive(Clone)]
pub struct Sound {
    player: Option<Sender<Command>>,
    speech: Option<Sender<speech::Request>>,
    state: Arc<AtomicU8>,
    /// Which moves are spoken ([`SpeakMoves`] as its index), for whoever holds a handle.
    speak: Arc<AtomicU8>,
}

impl Sound {
    /// Opens `device` (an ALSA PCM name such as "default" or "plughw:1") on a thread of its
    /// own and starts the speech thread; `volume` applies from the first sound.
    pub fn start(device: &str, volume: Volume) -> Sound {
        let device = device.to_string();
        Sound::start_with(
            move || output::AlsaOutput::open(&device).map(|o| Box::new(o) as Box<dyn Output>),
            volume,
            speech::Espeak::default(),
        )
    }

    /// The same over any output and speech engine (tests use memory and a fake voice).
    /// `open` is called again when the device is missing (not there at start, or gone).
    pub fn start_with(
        open: impl FnMut() -> Result<Box<dyn Output>, output::OutputError> + Send + 'static,
        volume: Volume,
        voice: impl speech::Voice + Send + 'static,
    ) -> Sound {
        let state = Arc::new(AtomicU8::new(SpeakerState::Opening as u8));
        let (tx, rx) = mpsc::channel();
        let rate = Arc::new(std::sync::atomic::AtomicU32::new(0));
        let player = player::spawn(Box::new(open), rx, volume, state.clone(), rate.clone());
        let player = match player {
            Ok(()) => Some(tx.clone()),
            Err(e) => {
                log::warn!("sound: cannot start its thread ({e}): silent");
                state.store(SpeakerState::Missing as u8, Ordering::Relaxed);
                None
            }
        };
        let speech = player
            .as_ref()
            .and_then(|_| speech::spawn(voice, tx, rate).ok());
        Sound {
            player,
            speech,
            state,
            speak: Arc::default(),
        }
    }

    /// A handle that plays nothing (no sound wanted, or in tests of other things).
    pub fn silent() -> Sound {
        Sound {
            player: None,
            speech: None,
            state: Arc::new(AtomicU8::new(SpeakerState::Missing as u8)),
            speak: Arc::default(),
        }
    }

    pub fn play(&self, cue: Cue) {
        if let Some(tx) = &self.player {
            // A gone thread (no device) simply means silence.
            let _ = tx.send(Command::Cue(cue));
        }
    }

    /// Speaks `text` in `language` now: anything still being said (or still waiting to be)
    /// is cut short or dropped, as it is no longer the latest.
    pub fn say(&self, text: String, language: Language) {
        if let Some(tx) = &self.speech {
            let _ = tx.send(speech::Request { text, language });
        }
    }

    pub fn set_volume(&self, volume: Volume) {
        if let Some(tx) = &self.player {
            let _ = tx.send(Command::Volume(volume));
        }
    }

    /// Which moves are spoken (a device setting, kept here for every thread that speaks).
    pub fn speak_moves(&self) -> SpeakMoves {
        SpeakMoves::ALL[usize::from(self.speak.load(Ordering::Relaxed)).min(2)]
    }

    pub fn set_speak_moves(&self, speak: SpeakMoves) {
        let index = SpeakMoves::ALL
            .iter()
            .position(|&s| s == speak)
            .unwrap_or(0);
        self.speak.store(index as u8, Ordering::Relaxed);
    }

    pub fn speaker(&self) -> SpeakerState {
        match self.state.load(Ordering::Relaxed) {
            s if s == SpeakerState::Ready as u8 => SpeakerState::Ready,
            s if s == SpeakerState::Opening as u8 => SpeakerState::Opening,
            _ => SpeakerState::Missing,
        }
    }

    /// A handle whose cues and sentences are only recorded (tests of what sounds when).
    #[cfg(test)]
    pub(crate) fn recorder() -> (Sound, Recorder) {
        let (player, cues) = mpsc::channel();
        let (speech, said) = mpsc::channel();
        let sound = Sound {
            player: Some(player),
            speech: Some(speech),
            state: Arc::new(AtomicU8::new(SpeakerState::Ready as u8)),
            speak: Arc::default(),
        };
        (sound, Recorder { cues, said })
    }

    /// Ends the player thread after what it has (tests).
    #[cfg(test)]
    fn stop(&self) {
        if let Some(tx) = &self.player {
            let _ = tx.send(Command::Stop);
        }
    }
}

/// What a [`Sound::recorder`] handle was asked to play and say.
#[cfg(test)]
pub(crate) struct Recorder {
    cues: mpsc::Receiver<Command>,
    said: mpsc::Receiver<speech::Request>,
}

#[cfg(test)]
impl Recorder {
    /// The cues since the last call.
    pub(crate) fn cues(&self) -> Vec<Cue> {
        self.cues
            .try_iter()
            .filter_map(|c| match c {
                Command::Cue(cue) => Some(cue),
                _ => None,
            })
            .collect()
    }

    /// The sentences since the last call.
    pub(crate) fn said(&self) -> Vec<String> {
        self.said.try_iter().map(|r| r.text).collect()
    }
}

#[cfg(test)]
mod levels;
#[cfg(test)]
mod tests;
