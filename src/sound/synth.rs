//! The cues, synthesised: no sound files to license or decode. Each is a few soft notes
//! (sine partials under a smooth envelope) that start and end at zero, so no cue clicks
//! when it begins, ends or is faded out under another.
//!
//! These sounds are ChessPI's own work and are under ChessPI's licence (GPL-3.0-or-later).

use super::Cue;
use std::f32::consts::TAU;

/// Where a cue peaks at full volume, dBFS: loud on a small speaker, with 3 dB of headroom
/// (overlapping cues are bent under full scale by the mixer's limiter).
pub(super) const TARGET_DBFS: f64 = -3.0;

/// A cue's peak below [`TARGET_DBFS`], dB: the quieter ones are meant to be.
pub(super) fn relative_db(cue: Cue) -> f32 {
    match cue {
        // Heard ten times running under time pressure: present, not startling.
        Cue::Tick => -6.0,
        // Noticed, not scolding (and low notes sound softer on a small speaker anyway).
        Cue::Illegal => -3.0,
        _ => 0.0,
    }
}

/// One note: a pitch with a quick, smooth attack and an exponential decay.
#[derive(Clone, Copy)]
struct Note {
    /// When it starts, seconds from the cue's start.
    at: f32,
    /// Fundamental, Hz.
    hz: f32,
    /// How long it sounds, seconds (it has faded out by then).
    length: f32,
    /// Seconds for the level to fall to 1/e.
    decay: f32,
    /// Loudness relative to the cue's other notes.
    level: f32,
    /// Strength of the octave above: a little brightness, like a wooden piece on a board.
    bright: f32,
}

const fn note(at: f32, hz: f32, length: f32, decay: f32, level: f32) -> Note {
    Note {
        at,
        hz,
        length,
        decay,
        level,
        bright: 0.0,
    }
}

/// A short knock: the sound of a piece set down.
const fn knock(at: f32, hz: f32, level: f32) -> Note {
    Note {
        at,
        hz,
        length: 0.075,
        decay: 0.018,
        level,
        bright: 0.5,
    }
}

// Pitches of the melodic cues (equal temperament, A4 = 440 Hz).
const C5: f32 = 523.25;
const E5: f32 = 659.26;
const G5: f32 = 783.99;
const C6: f32 = 1046.5;
const G4: f32 = 392.0;
const EB4: f32 = 311.13;
const C4: f32 = 261.63;
const A4: f32 = 440.0;
const D5: f32 = 587.33;

fn notes(cue: Cue) -> Vec<Note> {
    match cue {
        Cue::Move => vec![knock(0.0, 700.0, 1.0)],
        // A knock and a second, lower one: the piece taken off.
        Cue::Capture => vec![knock(0.0, 760.0, 1.0), knock(0.055, 480.0, 0.9)],
        // King, then rook.
        Cue::Castle => vec![knock(0.0, 700.0, 1.0), knock(0.11, 620.0, 0.9)],
        // The knock, then a clear ping.
        Cue::Check => vec![
            knock(0.0, 700.0, 0.9),
            Note {
                bright: 0.2,
                ..note(0.06, 1318.5, 0.22, 0.07, 0.7)
            },
        ],
        // Rising major arpeggio.
        Cue::Won => vec![
            note(0.0, C5, 0.2, 0.09, 0.8),
            note(0.11, E5, 0.2, 0.09, 0.8),
            note(0.22, G5, 0.2, 0.09, 0.8),
            note(0.33, C6, 0.45, 0.16, 0.9),
        ],
        // Falling minor triad, slower.
        Cue::Lost => vec![
            note(0.0, G4, 0.3, 0.12, 0.9),
            note(0.18, EB4, 0.3, 0.12, 0.9),
            note(0.36, C4, 0.5, 0.2, 1.0),
        ],
        // Two notes that do not resolve either way.
        Cue::Drawn => vec![
            note(0.0, E5, 0.25, 0.1, 0.8),
            note(0.16, E5, 0.35, 0.13, 0.8),
        ],
        // Soft and low: noticed, not scolding.
        Cue::Illegal => vec![note(0.0, 196.0, 0.12, 0.04, 0.45)],
        Cue::Tick => vec![Note {
            bright: 0.3,
            ..note(0.0, 1800.0, 0.03, 0.006, 0.5)
        }],
        Cue::PartnerJoined => vec![
            note(0.0, A4, 0.18, 0.07, 0.8),
            note(0.12, E5, 0.3, 0.1, 0.8),
        ],
        Cue::PartnerLeft => vec![
            note(0.0, E5, 0.18, 0.07, 0.8),
            note(0.12, A4, 0.3, 0.1, 0.8),
        ],
        Cue::BatteryLow => vec![
            note(0.0, A4, 0.14, 0.1, 0.8),
            note(0.22, A4, 0.14, 0.1, 0.8),
        ],
        Cue::BatteryCritical => vec![
            note(0.0, 880.0, 0.14, 0.1, 0.9),
            note(0.18, A4, 0.14, 0.1, 0.9),
            note(0.36, 880.0, 0.14, 0.1, 0.9),
            note(0.54, A4, 0.14, 0.1, 0.9),
        ],
        Cue::Test => vec![note(0.0, D5, 0.3, 0.12, 0.9)],
    }
}

/// The cue's samples at `rate` Hz, mono, peaking at its level (see [`TARGET_DBFS`]).
pub fn clip(cue: Cue, rate: u32) -> Vec<f32> {
    let rate_f = rate.max(1) as f32;
    let notes = notes(cue);
    let end = notes
        .iter()
        .map(|n| n.at + n.length)
        .fold(0.0_f32, f32::max);
    let len = (end * rate_f).ceil() as usize;
    let mut out = vec![0.0_f32; len];
    for n in &notes {
        let start = (n.at * rate_f) as usize;
        let count = ((n.length * rate_f) as usize).min(len.saturating_sub(start));
        for i in 0..count {
            let t = i as f32 / rate_f;
            let tone = (TAU * n.hz * t).sin() + n.bright * (TAU * 2.0 * n.hz * t).sin();
            out[start + i] += n.level * envelope(t, n) * tone / (1.0 + n.bright);
        }
    }
    // Scaled by the peak, not the notes' levels: envelopes and overlaps make those differ.
    let peak = out.iter().fold(0.0_f32, |m, s| m.max(s.abs()));
    let db = TARGET_DBFS as f32 + relative_db(cue);
    let scale = 10.0_f32.powf(db / 20.0) / peak.max(f32::EPSILON);
    out.iter_mut().for_each(|s| *s *= scale);
    out
}

/// Attack, decay and release of a note at `t` seconds into it: zero at both ends, smooth in
/// between (raised-cosine edges), so it starts and stops without a click.
fn envelope(t: f32, n: &Note) -> f32 {
    const ATTACK: f32 = 0.003;
    const RELEASE: f32 = 0.012;
    let edge = |x: f32| 0.5 - 0.5 * (std::f32::consts::PI * x.clamp(0.0, 1.0)).cos();
    let attack = edge(t / ATTACK);
    let release = edge((n.length - t) / RELEASE);
    attack * release * (-t / n.decay).exp()
}
