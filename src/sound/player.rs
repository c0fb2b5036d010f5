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

/// After a device error, the next sound tries to open it again no sooner than this (a USB
/// speaker plugged back in).
const REOPEN_AFTER: Duration = Duration::from_secs(5);

pub(super) fn spawn(
    open: impl FnOnce() -> Result<Box<dyn Output>, OutputError> + Send + 'static,
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

fn run(
    open: impl FnOnce() -> Result<Box<dyn Output>, OutputError>,
    commands: Receiver<Command>,
    volume: Volume,
    state: Arc<AtomicU8>,
    rate_out: Arc<AtomicU32>,
) {
    let mut output = match open() {
        Ok(o) => o,
        Err(e) => {
            log::warn!("sound: {e}; ChessPI runs silently");
            state.store(SpeakerState::Missing as u8, Ordering::Relaxed);
            // Drain the channel so senders never notice; nothing is played.
            while commands.recv().is_ok() {}
            return;
        }
    };
    let rate = output.rate();
    rate_out.store(rate, Ordering::Relaxed);
    state.store(SpeakerState::Ready as u8, Ordering::Relaxed);
    let clips: HashMap<Cue, Arc<[f32]>> = Cue::ALL
        .into_iter()
        .map(|c| (c, synth::clip(c, rate).into()))
        .collect();
    let mut player = Player {
        mixer: Mixer::new(rate, volume.gain()),
        clips,
        volume,
        stopping: false,
    };
    let mut block = vec![0_i16; output.block()];
    let mut failed_at: Option<Instant> = None;

    while !player.stopping {
        let Ok(command) = commands.recv() else {
            return;
        };
        player.take(command);
        if !player.mixer.busy() {
            continue;
        }
        if failed_at.is_some_and(|t| t.elapsed() < REOPEN_AFTER) {
            player.mixer = Mixer::new(rate, player.volume.gain());
            continue;
        }
        match play_burst(output.as_mut(), &mut player, &mut block, &commands) {
            Ok(true) => failed_at = None,
            Ok(false) => return,
            Err(e) => {
                log::warn!("sound: {e}");
                failed_at = Some(Instant::now());
                player.mixer = Mixer::new(rate, player.volume.gain());
            }
        }
    }
}

/// The player thread's state between commands.
struct Player {
    mixer: Mixer,
    clips: HashMap<Cue, Arc<[f32]>>,
    volume: Volume,
    stopping: bool,
}

impl Player {
    fn take(&mut self, command: Command) {
        let mute = self.volume.is_mute();
        match command {
            Command::Cue(cue) if !mute => {
                if let Some(clip) = self.clips.get(&cue) {
                    self.mixer.add_cue(clip.clone());
                }
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
