use super::mixer::tests::largest_step;
use super::output::{Output, OutputError};
use super::speech::{SpeechError, Voice};
use super::wav::{self, Wav, WavError};
use super::*;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// One burst's samples, and whether it has finished (the device drained).
type Burst = (Vec<i16>, bool);

/// Everything written, in bursts (one per start .. finish).
#[derive(Clone, Default)]
struct Recorded(Arc<Mutex<Vec<Burst>>>);

impl Recorded {
    fn bursts(&self) -> Vec<Vec<i16>> {
        self.0.lock().unwrap().iter().map(|b| b.0.clone()).collect()
    }

    /// The bursts once `n` of them have finished (the device drained).
    fn wait_bursts(&self, n: usize) -> Vec<Vec<i16>> {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if self.0.lock().unwrap().iter().filter(|b| b.1).count() >= n {
                return self.bursts();
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("fewer than {n} bursts: {}", self.bursts().len());
    }
}

struct Memory {
    recorded: Recorded,
    open: bool,
    /// Takes as long as a device to play each block, as a real one does.
    paced: bool,
}

impl Output for Memory {
    fn rate(&self) -> u32 {
        SAMPLE_RATE
    }
    fn block(&self) -> usize {
        220
    }
    fn start(&mut self) -> Result<(), OutputError> {
        assert!(!self.open, "started twice");
        self.open = true;
        self.recorded.0.lock().unwrap().push((Vec::new(), false));
        Ok(())
    }
    fn write(&mut self, samples: &[i16]) -> Result<(), OutputError> {
        assert!(self.open, "written before start");
        if self.paced {
            let seconds = samples.len() as f64 / f64::from(SAMPLE_RATE);
            std::thread::sleep(Duration::from_secs_f64(seconds));
        }
        let mut r = self.recorded.0.lock().unwrap();
        r.last_mut().unwrap().0.extend_from_slice(samples);
        Ok(())
    }
    fn finish(&mut self) -> Result<(), OutputError> {
        self.open = false;
        self.recorded.0.lock().unwrap().last_mut().unwrap().1 = true;
        Ok(())
    }
}

/// A voice that "says" 0.3 s of a 300 Hz tone, whatever the text.
struct Hum;

impl Voice for Hum {
    fn speak(&self, _text: &str, _language: Language) -> Result<Wav, SpeechError> {
        let rate = 16_000;
        let samples = (0..rate * 3 / 10)
            .map(|i| 0.5 * (std::f32::consts::TAU * 300.0 * i as f32 / rate as f32).sin())
            .collect();
        Ok(Wav { rate, samples })
    }
}

fn start(volume: Volume) -> (Sound, Recorded) {
    start_paced(volume, false)
}

fn start_paced(volume: Volume, paced: bool) -> (Sound, Recorded) {
    let recorded = Recorded::default();
    let r = recorded.clone();
    let sound = Sound::start_with(
        move || {
            Ok(Box::new(Memory {
                recorded: r.clone(),
                open: false,
                paced,
            }) as Box<dyn Output>)
        },
        volume,
        Hum,
    );
    (sound, recorded)
}

fn rms(samples: &[i16]) -> f64 {
    let sum: f64 = samples.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
    (sum / samples.len().max(1) as f64).sqrt()
}

#[test]
fn every_cue_is_short_starts_and_ends_at_zero_and_is_audible() {
    for cue in Cue::ALL {
        let clip = synthesise(cue, SAMPLE_RATE);
        let seconds = clip.len() as f32 / SAMPLE_RATE as f32;
        assert!((0.02..=0.9).contains(&seconds), "{cue:?}: {seconds} s");
        assert!(clip[0].abs() < 1e-3, "{cue:?} starts at {}", clip[0]);
        assert!(
            clip[clip.len() - 1].abs() < 1e-3,
            "{cue:?} ends at {}",
            clip[clip.len() - 1]
        );
        let peak = clip.iter().fold(0.0_f32, |m, s| m.max(s.abs()));
        assert!((0.1..=0.9).contains(&peak), "{cue:?} peaks at {peak}");
    }
}

#[test]
fn the_cues_differ() {
    let clips: Vec<Vec<f32>> = Cue::ALL.iter().map(|&c| synthesise(c, 8000)).collect();
    for i in 0..clips.len() {
        for j in i + 1..clips.len() {
            assert_ne!(
                clips[i],
                clips[j],
                "{:?} and {:?}",
                Cue::ALL[i],
                Cue::ALL[j]
            );
        }
    }
}

#[test]
fn a_cue_plays_as_one_burst_of_its_length_and_the_device_then_rests() {
    let (sound, recorded) = start(Volume::DEFAULT);
    sound.play(Cue::Move);
    let bursts = recorded.wait_bursts(1);
    sound.stop();
    let clip_len = synthesise(Cue::Move, SAMPLE_RATE).len();
    let burst = &bursts[0];
    // Whole blocks, then one block of silence.
    assert!(burst.len() >= clip_len + 220 && burst.len() <= clip_len + 2 * 220 + 220);
    assert!(burst[clip_len..].iter().all(|&s| s == 0));
    assert!(rms(burst) > 100.0, "rms {}", rms(burst));
    assert_eq!(sound.speaker(), SpeakerState::Ready);
}

#[test]
fn louder_is_louder_and_mute_is_silence() {
    let mut levels = Vec::new();
    for v in [20, 60, 100] {
        let (sound, recorded) = start(Volume::nearest(v));
        sound.play(Cue::Test);
        let bursts = recorded.wait_bursts(1);
        levels.push(rms(&bursts[0]));
        sound.stop();
    }
    assert!(levels[0] < levels[1] && levels[1] < levels[2], "{levels:?}");

    let (sound, recorded) = start(Volume::MUTE);
    sound.play(Cue::Won);
    sound.say("e4".into(), Language::English);
    std::thread::sleep(Duration::from_millis(300));
    assert!(recorded.bursts().is_empty(), "mute wrote sound");
    // Unmuted, it plays again, at once.
    sound.set_volume(Volume::DEFAULT);
    sound.play(Cue::Move);
    assert!(rms(&recorded.wait_bursts(1)[0]) > 50.0);
}

#[test]
fn overlapping_cues_are_mixed_without_a_click() {
    let (sound, recorded) = start(Volume::nearest(100));
    // Four at once: the first is faded out under the others.
    for cue in [Cue::Won, Cue::Check, Cue::Capture, Cue::Castle] {
        sound.play(cue);
    }
    let burst = recorded.wait_bursts(1)[0].clone();
    // A click is a jump far beyond what the notes themselves make between two samples.
    let alone = largest_step(
        &synthesise(Cue::Check, SAMPLE_RATE)
            .iter()
            .map(|s| (s * 32767.0) as i16)
            .collect::<Vec<_>>(),
    );
    assert!(
        largest_step(&burst) < 4 * alone.max(500),
        "{} vs {alone}",
        largest_step(&burst)
    );
}

/// The samples written that are not silence, in all bursts so far.
fn sounding(recorded: &Recorded) -> usize {
    recorded
        .bursts()
        .iter()
        .map(|b| b.iter().filter(|&&s| s != 0).count())
        .sum()
}

fn wait_ready(sound: &Sound) {
    // Speech before the device is open is dropped, as the device's rate is unknown.
    while sound.speaker() != SpeakerState::Ready {
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn speech_is_resampled_and_the_latest_said_is_said_whole() {
    let (sound, recorded) = start(Volume::DEFAULT);
    wait_ready(&sound);
    sound.say("Knight f3".into(), Language::English);
    let start = Instant::now();
    // One 0.3 s clip at the device's rate.
    let expected = SAMPLE_RATE as usize * 3 / 10;
    loop {
        let total = sounding(&recorded);
        if total >= expected - 500 {
            assert!(total <= expected + 50, "{total} vs {expected}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{total} of {expected}"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn speech_never_falls_behind_the_moves() {
    // Moves every 60 ms, their words 0.3 s each, on a device that plays in real time.
    let (sound, recorded) = start_paced(Volume::nearest(60), true);
    wait_ready(&sound);
    let start = Instant::now();
    for _ in 0..8 {
        sound.say("Knight f3".into(), Language::English);
        std::thread::sleep(Duration::from_millis(60));
    }
    let said_at = start.elapsed();
    // Played out: the speech ends one clip after the last move, not eight clips later.
    let bursts = recorded.wait_bursts(1);
    let played = sounding(&recorded) as f64 / f64::from(SAMPLE_RATE);
    let behind = played - said_at.as_secs_f64();
    assert!(
        behind < 0.3 + 0.15,
        "{played:.2} s of speech for {said_at:?} of moves"
    );
    // The last words are said whole, and the cut ones fade without a click: the hum's own
    // steps at this volume are about 500 (twice that while two overlap); a cut without a
    // fade would jump by up to 5,900.
    assert!(played >= 0.3, "{played:.2} s");
    let step = bursts.iter().map(|b| largest_step(b)).max().unwrap_or(0);
    assert!(step < 2_000, "a step of {step}");
}

#[test]
fn espeak_ngs_closing_silence_is_trimmed() {
    let mut clip = vec![0.0; 100];
    clip.extend(std::iter::repeat_n(0.5, 1000));
    clip.extend(std::iter::repeat_n(0.0, 7000));
    assert_eq!(speech::trimmed(&clip).len(), 100 + 1000 + 400);
    assert!(speech::trimmed(&[0.0; 50]).is_empty());
}

#[test]
fn no_device_means_silence_and_says_so() {
    let sound = Sound::start_with(
        || {
            Err(OutputError::Open {
                device: "hw:9".into(),
                cause: "No such file or directory".into(),
            })
        },
        Volume::DEFAULT,
        Hum,
    );
    let start = Instant::now();
    while sound.speaker() == SpeakerState::Opening {
        assert!(start.elapsed() < Duration::from_secs(5));
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(sound.speaker(), SpeakerState::Missing);
    // Never blocks nor fails.
    sound.play(Cue::Move);
    sound.say("e4".into(), Language::English);
    assert_eq!(Sound::silent().speaker(), SpeakerState::Missing);
}

#[test]
fn a_speaker_plugged_in_later_is_found_at_the_next_sound() {
    let recorded = Recorded::default();
    let r = recorded.clone();
    let mut tries = 0;
    let sound = Sound::start_with(
        move || {
            tries += 1;
            if tries == 1 {
                return Err(OutputError::Open {
                    device: "default".into(),
                    cause: "no card".into(),
                });
            }
            Ok(Box::new(Memory {
                recorded: r.clone(),
                open: false,
                paced: false,
            }) as Box<dyn Output>)
        },
        Volume::DEFAULT,
        Hum,
    );
    let start = Instant::now();
    while sound.speaker() != SpeakerState::Missing {
        assert!(start.elapsed() < Duration::from_secs(5));
        std::thread::sleep(Duration::from_millis(1));
    }
    // Too soon after the failed try: dropped, not retried.
    sound.play(Cue::Move);
    std::thread::sleep(Duration::from_millis(100));
    sound.play(Cue::Move);
    assert_eq!(recorded.wait_bursts(1).len(), 1);
    assert_eq!(sound.speaker(), SpeakerState::Ready);
}

#[test]
fn an_unknown_alsa_device_is_missing_not_a_panic() {
    let e = output::AlsaOutput::open("chesspi_no_such_device").err();
    assert!(matches!(e, Some(OutputError::Open { .. })), "{e:?}");
}

#[test]
fn volume_steps_go_round_through_mute() {
    let mut v = Volume::nearest(0);
    let mut seen = Vec::new();
    for _ in 0..6 {
        seen.push(v.percent());
        v = v.next();
    }
    assert_eq!(seen, vec![0, 20, 40, 60, 80, 100]);
    assert_eq!(v, Volume::MUTE);
    assert_eq!(Volume::nearest(55).percent(), 60);
    assert_eq!(Volume::nearest(250).percent(), 100);
    assert_eq!(Volume::MUTE.gain(), 0.0);
    assert_eq!(SpeakMoves::from_key("opponent"), Some(SpeakMoves::Opponent));
    assert_eq!(SpeakMoves::from_key("loud"), None);
}

fn wav_bytes(channels: u16, bits: u16, rate: u32, data: &[u8], size: u32) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(b"RIFF");
    b.extend_from_slice(&size.to_le_bytes());
    b.extend_from_slice(b"WAVE");
    b.extend_from_slice(b"fmt ");
    b.extend_from_slice(&16u32.to_le_bytes());
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&channels.to_le_bytes());
    b.extend_from_slice(&rate.to_le_bytes());
    b.extend_from_slice(&(rate * u32::from(channels) * 2).to_le_bytes());
    b.extend_from_slice(&(channels * 2).to_le_bytes());
    b.extend_from_slice(&bits.to_le_bytes());
    b.extend_from_slice(b"data");
    b.extend_from_slice(&size.to_le_bytes());
    b.extend_from_slice(data);
    b
}

#[test]
fn wav_files_are_read_and_bad_ones_refused() {
    let data: Vec<u8> = [0i16, 16384, -16384, 32767]
        .iter()
        .flat_map(|s| s.to_le_bytes())
        .collect();
    let good = wav::parse(&wav_bytes(1, 16, 22050, &data, data.len() as u32)).unwrap();
    assert_eq!(good.rate, 22050);
    assert_eq!(good.samples, vec![0.0, 0.5, -0.5, 32767.0 / 32768.0]);
    // Streamed: sizes unknown, the data runs to the end.
    let streamed = wav::parse(&wav_bytes(1, 16, 22050, &data, u32::MAX)).unwrap();
    assert_eq!(streamed.samples.len(), 4);
    // Stereo is mixed down.
    let stereo = wav::parse(&wav_bytes(2, 16, 8000, &data, data.len() as u32)).unwrap();
    assert_eq!(stereo.samples.len(), 2);
    assert_eq!(wav::parse(b"RIFX....WAVE"), Err(WavError::NotWav));
    assert_eq!(wav::parse(b""), Err(WavError::NotWav));
    assert!(matches!(
        wav::parse(&wav_bytes(1, 8, 22050, &data, 8)),
        Err(WavError::Unsupported(_))
    ));
    assert!(matches!(
        wav::parse(&wav_bytes(1, 16, 5, &data, 8)),
        Err(WavError::Unsupported(_))
    ));
    // Every cut of a good file is refused or read, never a panic.
    let whole = wav_bytes(1, 16, 22050, &data, data.len() as u32);
    for n in 0..whole.len() {
        let _ = wav::parse(&whole[..n]);
    }
    // A chunk claiming more than there is.
    let mut long = whole[..12].to_vec();
    long.extend_from_slice(b"LIST");
    long.extend_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(wav::parse(&long), Err(WavError::Truncated));
}

#[test]
fn resampling_keeps_the_duration() {
    let one_second: Vec<f32> = (0..16_000).map(|i| (i as f32 / 100.0).sin()).collect();
    let up = wav::resample(&one_second, 16_000, 22_050);
    assert_eq!(up.len(), 22_050);
    assert_eq!(wav::resample(&[], 16_000, 22_050), Vec::<f32>::new());
}

#[test]
fn espeak_ng_speaks_both_languages_when_installed() {
    let voice = speech::Espeak::default();
    match voice.speak("Knight takes e5", Language::English) {
        Err(SpeechError::Program(e)) if std::env::var_os("CI").is_none() => {
            eprintln!("espeak-ng not installed ({e}): skipped");
        }
        result => {
            let en = result.expect("English speech");
            let de = voice
                .speak("Springer f3, Schach", Language::German)
                .expect("German speech");
            for clip in [en, de] {
                let seconds = clip.samples.len() as f32 / clip.rate as f32;
                assert!((0.4..4.0).contains(&seconds), "{seconds} s");
            }
            // The estimate the Demo waits by is within half a second of the words.
            let said = [
                ("e4", Language::English),
                ("Queen takes d5", Language::English),
                ("short castle", Language::English),
                ("Queen h4, checkmate. Black wins", Language::English),
                ("Springer f3, Schach", Language::German),
                ("Turm a d1", Language::German),
                ("e schlägt f8 wird Springer, Matt", Language::German),
            ];
            for (text, language) in said {
                let clip = voice.speak(text, language).expect("speech");
                let real = speech::trimmed(&clip.samples).len() as f64 / f64::from(clip.rate);
                let estimate = spoken::duration(text).as_secs_f64();
                assert!(
                    (estimate - real).abs() < 0.6,
                    "{text}: {estimate} vs {real} s"
                );
            }
        }
    }
}

#[test]
fn moves_are_said_as_players_say_them() {
    let en = |s| spoken::san_words(s, Language::English);
    let de = |s| spoken::san_words(s, Language::German);
    assert_eq!(de("Nf3+"), "Springer f3, Schach");
    assert_eq!(en("Nxe5"), "Knight takes e5");
    assert_eq!(de("O-O"), "Rochade kurz");
    assert_eq!(en("O-O"), "short castle");
    assert_eq!(en("O-O-O+"), "long castle, check");
    assert_eq!(de("Qb8#"), "Dame b8, Matt");
    assert_eq!(en("e4"), "e4");
    assert_eq!(en("exd5"), "e takes d5");
    assert_eq!(de("exd5"), "e schlägt d5");
    // espeak-ng's English says a lone "a" as the article: it gets the letter's sound.
    assert_eq!(en("axb5"), "[['eI]] takes b5");
    assert_eq!(de("axb5"), "a schlägt b5");
    assert_eq!(en("Rad1"), "Rook [['eI]] d1");
    assert_eq!(en("Nbd7"), "Knight b d7");
    assert_eq!(de("Qh4xe1"), "Dame h4 schlägt e1");
    assert_eq!(en("e8=Q+"), "e8 becomes a queen, check");
    assert_eq!(de("exf8=N#"), "e schlägt f8 wird Springer, Matt");
    // Not SAN: said as it stands, no panic.
    for odd in ["", "x", "é", "=", "+", "Ké", "O-O-O-O", "Nx"] {
        let _ = en(odd);
        let _ = de(odd);
    }
}

#[test]
fn results_are_said() {
    use chesspi_engine::Color;
    use chesspi_engine::game::{Outcome, Termination};
    let won = Outcome::win(Color::Black, Termination::Checkmate);
    assert_eq!(
        spoken::result_words(won, Language::German),
        "Schwarz gewinnt"
    );
    assert_eq!(
        spoken::result_words(Outcome::draw(Termination::Stalemate), Language::English),
        "Draw"
    );
}
