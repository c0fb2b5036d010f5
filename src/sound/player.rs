//! The thread that owns the sound device: it opens it (so a slow device never delays the
//! first frame), makes the cues at the device's rate, and plays bursts of sound. Between
//! bursts it sleeps on its channel: no timer, no writes, no CPU.

use super::mixer::Mixer;
use super::output::{Output, OutputError};
use super::{Command, Cue, SpeakerState, Volume, synth};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU32, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

/// Without a device (none at start, or it failed), a sound tries to open it again no sooner
/// than this after the last try: a USB speaker plugged in later is found.
const REOPEN_AFTER: Duration = if cfg!(test) {
    Duration::from_millis(50)
} else {
    Duration::from_secs(5)
};

/// Opens the sound device; called again after it went missing.
pub(super) type Open = Box<dyn FnMut() -> Result<Box<dyn Output>, OutputError> + Send>;

pub(super) fn spawn(
    open: Open,
    commands: Receiver<Command>,
    volume: Volume,
    state: Arc<AtomicU8>,
    rate: Arc<AtomicU32>,
) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("sound".into())
        .spawn(move || run(open, commands, volume, state, rate))
        .map(|_| ())
}

/// The device, opened when it can be.
struct Device {
    open: Open,
    output: Option<Box<dyn Output>>,
    tried: Option<Instant>,
    /// The last failure was logged: a missing device is said once, not at every move.
    said_missing: bool,
    state: Arc<AtomicU8>,
    rate: Arc<AtomicU32>,
}

impl Device {
    /// The open device, trying to open it if it is time to.
    fn get(&mut self) -> Option<&mut Box<dyn Output>> {
        let due = self.tried.is_none_or(|t| t.elapsed() >= REOPEN_AFTER);
        if self.output.is_none() && due {
            self.tried = Some(Instant::now());
            match (self.open)() {
                Ok(o) => {
                    self.rate.store(o.rate(), Ordering::Relaxed);
                    self.state
                        .store(SpeakerState::Ready as u8, Ordering::Relaxed);
                    if self.said_missing {
                        log::info!("sound: a device was found");
                    }
                    self.said_missing = false;
                    self.output = Some(o);
                }
                Err(e) => {
                    if !self.said_missing {
                        log::warn!("sound: {e}; ChessPI runs silently");
                        self.said_missing = true;
                    }
                    self.rate.store(0, Ordering::Relaxed);
                    self.state
                        .store(SpeakerState::Missing as u8, Ordering::Relaxed);
                }
            }
        }
        self.output.as_mut()
    }

    /// Writing failed: the device is closed and looked for again later.
    fn failed(&mut self, e: &OutputError) {
        log::warn!("sound: {e}");
        self.said_missing = true;
        self.output = None;
        self.tried = Some(Instant::now());
        self.rate.store(0, Ordering::Relaxed);
        self.state
            .store(SpeakerState::Missing as u8, Ordering::Relaxed);
    }
}

fn run(
    open: Open,
    commands: Receiver<Command>,
    volume: Volume,
    state: Arc<AtomicU8>,
    rate: Arc<AtomicU32>,
) {
    let mut device = Device {
        open,
        output: None,
        tried: None,
        said_missing: false,
        state,
        rate,
    };
    // At once, so the Settings know and the first move's sound is not late.
    device.get();
    let mut player = Player {
        mixer: Mixer::new(crate::sound::SAMPLE_RATE, volume.gain()),
        clips: HashMap::new(),
        rate: 0,
        volume,
        stopping: false,
    };
    let mut block = Vec::new();

    while !player.stopping {
        let Ok(command) = commands.recv() else {
            return;
        };
        let Some(output) = device.get() else {
            // No device: the command counts (the volume), the sound is dropped.
            player.take(command);
            player.mixer = Mixer::new(crate::sound::SAMPLE_RATE, player.volume.gain());
            continue;
        };
        player.ready_for(output.rate());
        block.resize(output.block(), 0);
        player.take(command);
        if !player.mixer.busy() {
            continue;
        }
        match play_burst(output.as_mut(), &mut player, &mut block, &commands) {
            Ok(true) => {}
            Ok(false) => return,
            Err(e) => {
                device.failed(&e);
                player.mixer = Mixer::new(player.rate, player.volume.gain());
            }
        }
    }
}

/// The player thread's state between commands.
struct Player {
    mixer: Mixer,
    /// The cues at `rate`.
    clips: HashMap<Cue, Arc<[f32]>>,
    rate: u32,
    volume: Volume,
    stopping: bool,
}

impl Player {
    /// Makes the cues (again) for a device at `rate` Hz.
    fn ready_for(&mut self, rate: u32) {
        if rate != self.rate {
            self.rate = rate;
            self.clips = Cue::ALL
                .into_iter()
                .map(|c| (c, synth::clip(c, rate).into()))
                .collect();
            self.mixer = Mixer::new(rate, self.volume.gain());
        }
    }

    fn take(&mut self, command: Command) {
        let mute = self.volume.is_mute();
        match command {
            // No device opened yet: no rate to make it at, and nothing to play it on.
            Command::Cue(_) if self.rate == 0 => {}
            Command::Cue(cue) if !mute => {
                // Made ahead for `Cue::ALL`; one missing from it is made now, not dropped.
                let rate = self.rate;
                let clip = self
                    .clips
                    .entry(cue)
                    .or_insert_with(|| synth::clip(cue, rate).into());
                self.mixer.add_cue(clip.clone());
            }
            Command::Speech(samples) if !mute => self.mixer.add_speech(samples),
            Command::Cue(_) | Command::Speech(_) => {}
            Command::Volume(v) => {
                self.volume = v;
                self.mixer.set_gain(v.gain());
            }
            #[cfg(test)]
            Command::Stop => self.stopping = true,
        }
    }
}

/// Plays until the mixer has nothing left, taking new commands between blocks; then lets the
/// device run out. `Ok(false)`: the app is gone.
fn play_burst(
    output: &mut dyn Output,
    player: &mut Player,
    block: &mut [i16],
    commands: &Receiver<Command>,
) -> Result<bool, OutputError> {
    output.start()?;
    while player.mixer.busy() {
        player.mixer.fill(block);
        output.write(block)?;
        loop {
            match commands.try_recv() {
                Ok(c) => player.take(c),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return Ok(false),
            }
        }
    }
    // A block of silence ends the burst at zero however the device pads it.
    block.fill(0);
    output.write(block)?;
    output.finish()?;
    Ok(true)
}
