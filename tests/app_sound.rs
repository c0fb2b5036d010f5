//! Sound through a real ALSA path: the real `chesspi` binary in an Xvfb screen plays into
//! alsa-lib's `file` plugin (`[sound] device = "file:FILE=…,FORMAT=raw"`: 16-bit mono samples
//! at the rate the app logs). A move clicked with xdotool is followed by a short, audible
//! sound; the computer's answer by its sound and its spoken words (Speak moves: opponent's,
//! espeak-ng); with the volume off nothing at all is written.
//!
//! It also measures the delay from the click to the first sample reaching ALSA (printed;
//! docs/BENCHMARKS.md "Sound"). The file plugin over the null device plays in no time, so
//! this is the app's share of the delay: the device's buffer (40 ms at most) comes on top.
//!
//! Needs `Xvfb`, `xdotool` and `espeak-ng` (scripts/setup installs them). Without them the
//! test says so and passes, except under CI (`CI` set), where it fails: there it must run.

use chesspi::app::boot::screenshot::square_center;
use chesspi::config::Config;
use chesspi::sound::{SpeakMoves, Volume};
use chesspi::storage::autosave::AUTOSAVE_FILE;
use chesspi::storage::{DeviceSettings, SettingsStore};
use chesspi_engine::Square;
use std::path::Path;
use std::time::{Duration, Instant};

mod support;
use support::app_process::{NO_BATTERY, RunningApp, Screen, installed};

/// The samples written so far.
fn samples(file: &Path) -> Vec<i16> {
    std::fs::read(file)
        .unwrap_or_default()
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect()
}

/// Stretches of sound: runs of samples with no 20 zeros in a row inside (a burst ends with
/// silence written out; a cue's own waves never rest that long).
fn sounds(samples: &[i16]) -> Vec<&[i16]> {
    let mut out = Vec::new();
    let mut start = None;
    let mut zeros = 0;
    for (i, &s) in samples.iter().enumerate() {
        if s == 0 {
            zeros += 1;
            if zeros == 20
                && let Some(st) = start.take()
            {
                out.push(&samples[st..=i - 20]);
            }
        } else {
            zeros = 0;
            start.get_or_insert(i);
        }
    }
    if let Some(st) = start {
        out.push(&samples[st..]);
    }
    out
}

fn rms(samples: &[i16]) -> f64 {
    let sum: f64 = samples.iter().map(|&s| f64::from(s).powi(2)).sum();
    (sum / samples.len().max(1) as f64).sqrt()
}

/// Starts the app against the computer (level 1) with `settings`, playing into `out`.
fn start(screen: &Screen, state: &Path, out: &Path, settings: DeviceSettings) -> RunningApp {
    SettingsStore::new(state)
        .update(&settings, &Config::default())
        .expect("device settings");
    let config = format!(
        "{NO_BATTERY}[sound]\ndevice = \"file:FILE={},FORMAT=raw\"\n",
        out.display()
    );
    RunningApp::start(
        screen,
        state,
        &config,
        &["--new", "computer", "--level", "1"],
    )
}

/// Clicks `sq`; returns the moment just before the button's press was asked of xdotool. The
/// app takes a move on the press; `xdotool click` waits about 100 ms before it returns, so
/// press and release are separate calls and the delay counts from before the press (starting
/// xdotool included: an upper bound).
fn click(screen: &Screen, window: &str, sq: Square) -> Instant {
    let (x, y) = square_center(sq, false);
    let (x, y) = ((x as i32).to_string(), (y as i32).to_string());
    screen.xdotool(&["mousemove", "--window", window, &x, &y]);
    let asked = Instant::now();
    screen.xdotool(&["mousedown", "1"]);
    screen.xdotool(&["mouseup", "1"]);
    asked
}

fn wait(what: &str, app: &mut RunningApp, mut done: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !done() {
        if Instant::now() > deadline {
            app.drain();
            panic!("timed out waiting for {what}:\n{}", app.log.join("\n"));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

#[test]
fn moves_sound_the_computers_move_is_spoken_and_off_is_silence() {
    if !installed("Xvfb", "-help")
        || !installed("xdotool", "--version")
        || !installed("espeak-ng", "--version")
    {
        assert!(
            std::env::var_os("CI").is_none(),
            "Xvfb, xdotool and espeak-ng are needed in CI: scripts/setup installs them"
        );
        eprintln!("SKIPPED: Xvfb, xdotool or espeak-ng is not installed (scripts/setup)");
        return;
    }
    let screen = Screen::start();
    let state = tempfile::tempdir().expect("tempdir");
    let out = state.path().join("sound.raw");
    let settings = DeviceSettings {
        volume: Some(Volume::nearest(60)),
        speak_moves: Some(SpeakMoves::Opponent),
        ..DeviceSettings::default()
    };
    let mut app = start(&screen, state.path(), &out, settings);
    let window = app.window(&screen, Duration::from_secs(30));
    app.wait_for_line("sound: \"file:", Duration::from_secs(10));
    assert!(
        app.log.iter().any(|l| l.contains("at 22050 Hz, 1 channel")),
        "{}",
        app.log.join("\n")
    );
    // Nothing sounds before a move.
    std::thread::sleep(Duration::from_millis(300));
    assert!(samples(&out).iter().all(|&s| s == 0), "sound before a move");

    let mut delays = Vec::new();
    // e2-e4: the piece picked up, then put down; the sound follows the second click.
    click(&screen, &window, Square::E2);
    std::thread::sleep(Duration::from_millis(150));
    let clicked = click(&screen, &window, Square::E4);
    wait("the move's sound", &mut app, || {
        samples(&out).iter().any(|&s| s != 0)
    });
    delays.push(clicked.elapsed());
    std::thread::sleep(Duration::from_millis(50));
    let first = samples(&out);
    let found = sounds(&first);
    let knock = found.first().expect("a sound");
    // The move's knock: 75 ms at 22050 Hz, audible at 60 %.
    let ms = knock.len() as f64 / 22.05;
    assert!((50.0..=120.0).contains(&ms), "the move sound lasts {ms} ms");
    assert!(rms(knock) > 300.0, "too quiet: rms {}", rms(knock));

    // The computer answers: its move sounds and is spoken (most of a second of speech).
    wait("the computer's move spoken", &mut app, || {
        let all = samples(&out);
        sounds(&all[first.len().min(all.len())..])
            .iter()
            .map(|s| s.len())
            .sum::<usize>()
            > 22_050 / 2
    });
    std::thread::sleep(Duration::from_millis(500));
    let all = samples(&out);
    let later = sounds(&all[first.len()..]);
    let lengths: Vec<usize> = later.iter().map(|s| s.len()).collect();
    // The computer's knock (as long as ours), then its move spoken: words with pauses
    // between them, over 0.3 s of sound in all.
    assert!(
        lengths.len() >= 2 && lengths[0] == knock.len(),
        "the computer's knock first: {lengths:?}"
    );
    let speech: usize = lengths[1..].iter().sum();
    assert!(speech > 22_050 * 3 / 10, "too little speech: {lengths:?}");

    // A second move, for a second delay.
    let before = samples(&out).len();
    click(&screen, &window, Square::G1);
    std::thread::sleep(Duration::from_millis(150));
    let clicked = click(&screen, &window, Square::F3);
    wait("the second move's sound", &mut app, || {
        samples(&out)[before.min(samples(&out).len())..]
            .iter()
            .any(|&s| s != 0)
    });
    delays.push(clicked.elapsed());
    println!("delay from the click to the move's first sample: {delays:?}");
    assert!(
        delays.iter().all(|d| *d < Duration::from_millis(500)),
        "{delays:?}"
    );
    app.signal("TERM");
    let _ = app.wait_exit(Duration::from_secs(10));

    // Volume off: a move and the computer's (spoken) answer write nothing at all.
    let state = tempfile::tempdir().expect("tempdir");
    let out = state.path().join("sound.raw");
    let settings = DeviceSettings {
        volume: Some(Volume::MUTE),
        speak_moves: Some(SpeakMoves::All),
        ..DeviceSettings::default()
    };
    let mut app = start(&screen, state.path(), &out, settings);
    let window = app.window(&screen, Duration::from_secs(30));
    app.wait_for_line("sound: \"file:", Duration::from_secs(10));
    click(&screen, &window, Square::E2);
    std::thread::sleep(Duration::from_millis(150));
    click(&screen, &window, Square::E4);
    wait("the computer's answer", &mut app, || {
        std::fs::read(state.path().join(AUTOSAVE_FILE))
            .ok()
            .and_then(|b| chesspi::storage::autosave::decode(&b).ok())
            .is_some_and(|(saved, _)| saved.game.moves().len() >= 2)
    });
    std::thread::sleep(Duration::from_millis(1500));
    assert!(
        samples(&out).iter().all(|&s| s == 0),
        "sound with the volume off"
    );
}
