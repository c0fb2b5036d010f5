//! How loud each cue comes out of the mixer, in dBFS: the numbers in docs/BENCHMARKS.md
//! ("Sound levels"), printed by
//! `cargo test --lib sound::levels -- --nocapture --test-threads 1`.

use super::mixer::Mixer;
use super::{Cue, SAMPLE_RATE, Volume, synth};

/// The peak of `cue` played alone at `volume`, as the device gets it, in dBFS.
fn peak_dbfs(cue: Cue, volume: Volume) -> f64 {
    let mut mixer = Mixer::new(SAMPLE_RATE, volume.gain());
    mixer.add_cue(synth::clip(cue, SAMPLE_RATE).into());
    let mut block = vec![0_i16; 220];
    let mut peak = 0_i32;
    while mixer.busy() {
        mixer.fill(&mut block);
        peak = block
            .iter()
            .map(|&s| i32::from(s).abs())
            .fold(peak, i32::max);
    }
    20.0 * (f64::from(peak) / f64::from(i16::MAX)).log10()
}

#[test]
fn every_cue_peaks_near_minus_3_dbfs_at_full_volume_and_never_clips() {
    let full = Volume::nearest(100);
    println!(
        "{:<16} {:>8} {:>14}",
        "cue",
        "100 %",
        format!("{} % (default)", Volume::DEFAULT.percent())
    );
    let mut failures = Vec::new();
    for cue in Cue::ALL {
        let loud = peak_dbfs(cue, full);
        let default = peak_dbfs(cue, Volume::DEFAULT);
        println!("{:<16} {loud:>8.1} {default:>14.1}", format!("{cue:?}"));
        let target = synth::TARGET_DBFS + f64::from(synth::relative_db(cue));
        if loud > 0.0 || (loud - target).abs() > 1.0 {
            failures.push(format!("{cue:?}: {loud:.1} dBFS, want {target:.1} ± 1"));
        }
    }
    assert!(failures.is_empty(), "{failures:?}");
}

#[test]
fn the_default_volume_is_clearly_heard_yet_below_full() {
    let default = peak_dbfs(Cue::Move, Volume::DEFAULT);
    assert!((-15.0..=-8.0).contains(&default), "{default:.1} dBFS");
}
