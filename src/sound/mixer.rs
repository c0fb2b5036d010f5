//! Mixes what plays now into the device's blocks: the cues sound together (a move and the
//! check after it), a spoken clip over them, all at the volume of the moment. A new clip
//! cuts the one still spoken short: speech says the latest move, never falls behind.

use std::sync::Arc;

/// Cues sounding at once; a further one fades the oldest out.
const MAX_CUES: usize = 3;
/// How long a cue pushed out (or a clip cut short) takes to fade, seconds: long enough not
/// to click.
const FADE_SECONDS: f32 = 0.01;

struct Voice {
    samples: Arc<[f32]>,
    pos: usize,
    /// Samples left of a fade-out, and its length.
    fading: Option<(usize, usize)>,
}

impl Voice {
    fn new(samples: Arc<[f32]>) -> Voice {
        Voice {
            samples,
            pos: 0,
            fading: None,
        }
    }

    fn done(&self) -> bool {
        self.pos >= self.samples.len() || self.fading.is_some_and(|(left, _)| left == 0)
    }

    fn next(&mut self) -> f32 {
        let Some(&s) = self.samples.get(self.pos) else {
            return 0.0;
        };
        self.pos += 1;
        match &mut self.fading {
            Some((left, length)) => {
                *left = left.saturating_sub(1);
                s * (*left as f32 / *length as f32)
            }
            None => s,
        }
    }
}

pub struct Mixer {
    rate: u32,
    cues: Vec<Voice>,
    /// The clip spoken now, after any cut short and still fading.
    speech: Vec<Voice>,
    gain: f32,
}

impl Mixer {
    pub fn new(rate: u32, gain: f32) -> Mixer {
        Mixer {
            rate,
            cues: Vec::new(),
            speech: Vec::new(),
            gain,
        }
    }

    pub fn set_gain(&mut self, gain: f32) {
        self.gain = gain;
    }

    fn fade(&self) -> usize {
        ((self.rate as f32 * FADE_SECONDS) as usize).max(1)
    }

    pub fn add_cue(&mut self, samples: Arc<[f32]>) {
        let fade = self.fade();
        let sounding = self.cues.iter().filter(|v| v.fading.is_none()).count();
        if sounding >= MAX_CUES
            && let Some(oldest) = self.cues.iter_mut().find(|v| v.fading.is_none())
        {
            oldest.fading = Some((fade, fade));
        }
        self.cues.push(Voice::new(samples));
    }

    /// Speaks `samples` now: the words of an earlier move are stale once the board moved on.
    pub fn add_speech(&mut self, samples: Vec<f32>) {
        let fade = self.fade();
        // A clip not yet begun is dropped, not faded: when the player fell behind, several
        // arrive between two blocks, and fading them all at once would sum them in phase.
        self.speech.retain(|v| v.pos > 0);
        for voice in &mut self.speech {
            voice.fading.get_or_insert((fade, fade));
        }
        self.speech.push(Voice::new(samples.into()));
    }

    /// Whether anything is left to play.
    pub fn busy(&self) -> bool {
        !self.cues.is_empty() || !self.speech.is_empty()
    }

    /// Fills `out` with the next samples (silence where nothing plays).
    pub fn fill(&mut self, out: &mut [i16]) {
        for o in out.iter_mut() {
            let cues: f32 = self.cues.iter_mut().map(Voice::next).sum();
            let speech: f32 = self.speech.iter_mut().map(Voice::next).sum();
            *o = to_i16(limit((cues + speech) * self.gain));
        }
        self.cues.retain(|v| !v.done());
        self.speech.retain(|v| !v.done());
    }
}

/// A soft limiter: unchanged up to 0.8, then bent smoothly towards 1.0, so overlapping
/// cues never wrap around or clip hard.
fn limit(x: f32) -> f32 {
    const KNEE: f32 = 0.8;
    let a = x.abs();
    if a <= KNEE {
        return x;
    }
    let over = (a - KNEE) / (1.0 - KNEE);
    let bent = KNEE + (1.0 - KNEE) * (over / (1.0 + over));
    bent.copysign(x)
}

fn to_i16(x: f32) -> i16 {
    (x.clamp(-1.0, 1.0) * f32::from(i16::MAX)).round() as i16
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    fn tone(rate: u32) -> Vec<f32> {
        (0..rate / 4)
            .map(|i| 0.5 * (std::f32::consts::TAU * 300.0 * i as f32 / rate as f32).sin())
            .collect()
    }

    /// The largest jump between neighbouring samples: a click shows as a jump.
    pub(in crate::sound) fn largest_step(samples: &[i16]) -> i32 {
        samples
            .windows(2)
            .map(|w| (i32::from(w[1]) - i32::from(w[0])).abs())
            .max()
            .unwrap_or(0)
    }

    #[test]
    fn clips_queued_while_behind_play_as_the_last_one_alone() {
        let rate = 44_100;
        let alone = {
            let mut m = Mixer::new(rate, 0.7);
            m.add_speech(tone(rate));
            let mut out = vec![0; rate as usize / 2];
            m.fill(&mut out);
            largest_step(&out)
        };
        // Eight moves' words arrive between two blocks, as when the player thread stalled.
        let mut m = Mixer::new(rate, 0.7);
        for _ in 0..8 {
            m.add_speech(tone(rate));
        }
        let mut out = vec![0; rate as usize / 2];
        m.fill(&mut out);
        assert_eq!(largest_step(&out), alone);
        assert!(!m.busy());
    }

    #[test]
    fn a_clip_cut_while_sounding_fades() {
        let rate = 44_100;
        let mut m = Mixer::new(rate, 0.7);
        m.add_speech(tone(rate));
        let mut first = vec![0; 1000];
        m.fill(&mut first);
        m.add_speech(tone(rate));
        let mut rest = vec![0; rate as usize / 2];
        m.fill(&mut rest);
        let mut all = first;
        all.extend(rest);
        // Two hums overlap only during the fade: at most twice one hum's step.
        assert!(largest_step(&all) < 2 * 600, "{}", largest_step(&all));
    }
}
