//! A file on a USB stick, end to end: bytes → import → Saved games' list → open → replay →
//! stored analysis → export → the export imported again. The archive lives on tmpfs with its
//! fsyncs off (`Archive::without_fsync`).
//!
//! Checks: no panic; every game stored lists as readable, opens and replays; what the list
//! shows is one line; importing the export again stores nothing new.

#![no_main]

use std::ops::ControlFlow;

use chesspi::app::session::marks::AnalysisMarks;
use chesspi::storage::archive::ImportLimits;
use chesspi::storage::{Archive, GameSummary};
use libfuzzer_sys::fuzz_target;

/// Small limits keep each run short; the size cut is reached by large inputs.
const LIMITS: ImportLimits = ImportLimits {
    max_file_bytes: 48 * 1024,
    max_games: 40,
    reserve_bytes: 0,
};

fn one_line(text: &str) -> bool {
    !text
        .chars()
        .any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}' | '\u{202E}'))
}

fuzz_target!(|data: &[u8]| {
    let dir = tempfile::Builder::new()
        .prefix("chesspi-fuzz-")
        .tempdir_in("/dev/shm")
        .expect("a folder on tmpfs");
    let file = dir.path().join("stick.pgn");
    std::fs::write(&file, data).expect("write");
    let archive = Archive::open(dir.path()).expect("archive").without_fsync();
    let report = archive
        .import_file_within(&file, &LIMITS, |_| ControlFlow::Continue(()))
        .expect("import");
    let list = archive.list().expect("list");
    assert_eq!(list.len(), report.imported.len(), "{report:?}");
    for summary in &list {
        let GameSummary::Game(header) = summary else {
            panic!("an imported game does not read back: {summary:?}");
        };
        for shown in [&header.white, &header.black, &header.date] {
            assert!(one_line(shown), "{shown:?}");
        }
        let game = archive.load(&header.id).expect("opens");
        let replayed = game.replay().expect("replays");
        assert_eq!(replayed.moves(), &game.pgn.moves[..]);
        let text = archive.read_text(&header.id).expect("text");
        let _ = AnalysisMarks::from_pgn(&text, &game.pgn.start, &game.pgn.moves, &game.pgn.tags);
    }
    let (all, count, damaged) = archive.all_pgn().expect("export");
    assert!(damaged.is_empty(), "{damaged:?}");
    assert_eq!(count, list.len());
    let again = archive
        .import_text(&all, &LIMITS, |_| ControlFlow::Continue(()))
        .expect("import again");
    assert!(again.imported.is_empty(), "stored again: {again:?}\n{all}");
    assert!(again.failed.is_empty(), "{again:?}\n{all}");
    assert_eq!(again.already_stored.len(), count);
});
