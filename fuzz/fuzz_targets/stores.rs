//! The files the app keeps besides games: settings, the player's record and the puzzles. The
//! first byte picks the file and whether its checksum line is made right (so the decoding
//! behind it is reached); the rest is the file.
//!
//! Checks: loading never panics; a file that loads saves and loads back the same.

#![no_main]

use chesspi::storage::puzzles::PuzzleStore;
use chesspi::storage::sealed::seal;
use chesspi::storage::{SettingsStore, StatsStore};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, body)) = data.split_first() else {
        return;
    };
    let dir = tempfile::Builder::new()
        .prefix("chesspi-fuzz-")
        .tempdir_in("/dev/shm")
        .expect("a folder on tmpfs");
    let bytes = match (pick & 1, std::str::from_utf8(body)) {
        (0, Ok(text)) => seal(text).into_bytes(),
        _ => body.to_vec(),
    };
    match pick / 2 % 3 {
        0 => {
            let store = SettingsStore::new(dir.path());
            std::fs::write(store.path(), &bytes).expect("write");
            let load = store.load();
            if load.recovered.is_none() {
                let admin = chesspi::config::Config::default();
                if store.update(&load.value, &admin).is_ok() {
                    let back = store.load();
                    assert!(back.recovered.is_none());
                    assert_eq!(back.value, load.value);
                }
            }
        }
        1 => {
            let store = StatsStore::new(dir.path());
            std::fs::write(store.path(), &bytes).expect("write");
            let load = store.load();
            if load.recovered.is_none() {
                store.save(&load.value).expect("save");
                let back = store.load();
                assert!(back.recovered.is_none());
                assert_eq!(back.value.summary(), load.value.summary());
            }
        }
        _ => {
            let store = PuzzleStore::new(dir.path());
            std::fs::write(store.path(), &bytes).expect("write");
            let load = store.load();
            if load.recovered.is_none() {
                store.save(&load.value).expect("save");
                let back = store.load();
                assert!(back.recovered.is_none());
                assert_eq!(back.value, load.value);
            }
        }
    }
});
