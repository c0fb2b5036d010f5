//! Importing PGN files from a stick: whatever a file holds, Saved games keeps listing; an
//! import stays within its limits and says what it left out; a game already stored is never
//! replaced or stripped of its analysis.

use std::fmt::Write as _;
use std::fs;
use std::ops::ControlFlow;

use chesspi::storage::archive::{ImportLimits, ImportStop};
use chesspi::storage::{Archive, GameMode, GameSummary, SavedGame, export_all};

mod support;
use support::games::game_with;

fn archive() -> (tempfile::TempDir, Archive) {
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = Archive::open(dir.path()).expect("open");
    (dir, archive)
}

/// `n` short games, each its own.
fn games_text(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        writeln!(
            text,
            "[Event \"Game {i}\"]\n[White \"W{i}\"]\n[Black \"B{i}\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 *\n"
        )
        .expect("write");
    }
    text
}

/// Every stored file's text, in the archive's order.
fn stored_texts(archive: &Archive) -> Vec<String> {
    archive
        .list()
        .expect("list")
        .iter()
        .map(|s| archive.read_text(s.id()).expect("text"))
        .collect()
}

/// A tag that ends with a character of two bytes where a byte index cut it: the list, every
/// opening and the export once aborted the app on it.
#[test]
fn a_time_tag_with_a_wide_character_is_listed_opened_and_exported() {
    let (_dir, archive) = archive();
    let file = "[Event \"x\"]\n[White \"A\"]\n[Black \"B\"]\n[UTCDate \"2026.11.01\"]\n\
        [UTCTime \"12:3é\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n";
    let report = archive.import_pgn(file).expect("import");
    assert_eq!(report.imported.len(), 1);
    let list = archive.list().expect("list");
    let GameSummary::Game(header) = &list[0] else {
        panic!("listed as damaged: {list:?}");
    };
    assert_eq!(header.time, None, "no time is made up");
    archive.load(&report.imported[0]).expect("opens");
    for time in ["é2:30", "1é:30", "12é30", "12:é0", "12:30é", "１２:３０"] {
        let text = file.replace("12:3é", time);
        archive.import_pgn(&text).expect("import");
    }
    let times: Vec<_> = archive
        .list()
        .expect("list")
        .into_iter()
        .map(|s| match s {
            GameSummary::Game(h) => h.time,
            GameSummary::Damaged { reason, .. } => panic!("damaged: {reason}"),
        })
        .collect();
    assert_eq!(
        times,
        [
            None,
            Some("12:30".to_string()),
            None,
            None,
            None,
            None,
            None
        ],
        "newest first: only 12:30é (the second newest) starts with a time"
    );
    let usb = tempfile::tempdir().expect("usb");
    assert_eq!(export_all(&archive, usb.path()).expect("export").games, 7);
}

/// Names from a stick are shown on one line, without bidi overrides, and not pages long.
#[test]
fn names_from_a_stick_are_made_safe_to_show() {
    let (_dir, archive) = archive();
    let long = "x".repeat(5000);
    let file = format!(
        "[White \"Eve\u{202E}lin\tnext\u{2028}line\u{85}\u{200B}\"]\n[Black \"{long}\"]\n[Result \"*\"]\n\n1. e4 *\n"
    );
    archive.import_pgn(&file).expect("import");
    let GameSummary::Game(h) = &archive.list().expect("list")[0] else {
        panic!("damaged");
    };
    assert_eq!(h.white, "Evelin next line");
    assert!(h.black.chars().count() <= 80, "{}", h.black.len());
    assert!(h.black.ends_with('…'));
}

/// An analysed game exported and imported again keeps its analysis: it is found stored as it
/// is and left alone. A game from elsewhere keeps its comments.
#[test]
fn importing_an_export_again_keeps_the_analysis() {
    let (_dir, archive) = archive();
    let annotated = "[Event \"Club\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n\
        1. f3 { [%eval 0.10] [%clk 0:04:57] } 1... e5 { [%eval 0.20] } 2. g4 $4 { [%eval #-1] \
        Blunder. Nc3 was best. } ( 2. Nc3 Nc6 ) 2... Qh4# { [%eval #0] } 0-1\n";
    let first = archive.import_pgn(annotated).expect("import");
    assert_eq!(first.imported.len(), 1);
    let stored = archive.read_text(&first.imported[0]).expect("text");
    for kept in [
        "[%eval #-1]",
        "[%clk 0:04:57]",
        "$4",
        "( 2. Nc3 Nc6 )",
        "Nc3 was best.",
    ] {
        assert!(stored.contains(kept), "{kept} kept:\n{stored}");
    }
    assert!(stored.contains("[ChessPIGameId \""), "{stored}");

    let usb = tempfile::tempdir().expect("usb");
    let exported = export_all(&archive, usb.path()).expect("export");
    let before = stored_texts(&archive);
    let again = archive.import_file(&exported.path).expect("import");
    assert!(again.imported.is_empty(), "{again:?}");
    assert_eq!(again.already_stored, first.imported);
    assert_eq!(stored_texts(&archive), before, "nothing rewritten");
}

/// A file naming a stored game's id with other moves cannot replace that game: it is stored
/// as a game of its own.
#[test]
fn a_file_cannot_replace_a_stored_game_by_naming_its_id() {
    let (_dir, archive) = archive();
    let mut mine = SavedGame::new(GameMode::TwoPlayers, game_with("e2e4 e7e5 g1f3"));
    mine.id = 0x1234_5678_9abc_def0;
    let stored = archive.store(&mine).expect("store");
    let original = archive.read_text(&stored).expect("text");
    let forged =
        "[Event \"x\"]\n[ChessPIGameId \"123456789abcdef0\"]\n[Result \"*\"]\n\n1. d4 d5 *\n";
    let report = archive.import_pgn(forged).expect("import");
    assert_eq!(report.imported.len(), 1);
    assert_ne!(report.imported[0].game(), mine.id, "a new id");
    assert_eq!(archive.read_text(&stored).expect("still there"), original);
    assert_eq!(archive.list().expect("list").len(), 2);
}

#[test]
fn an_import_stops_at_its_game_limit_and_says_so() {
    let (_dir, archive) = archive();
    let limits = ImportLimits {
        max_games: 3,
        ..ImportLimits::DEFAULT
    };
    let report = archive
        .import_text(&games_text(5), &limits, |_| ControlFlow::Continue(()))
        .expect("import");
    assert_eq!(report.imported.len(), 3);
    assert_eq!(report.stopped, Some(ImportStop::GameLimit(3)));
    // Exactly at the limit nothing was left out.
    let (_d, exact) = self::archive();
    let report = exact
        .import_text(&games_text(3), &limits, |_| ControlFlow::Continue(()))
        .expect("import");
    assert_eq!((report.imported.len(), report.stopped), (3, None));
}

#[test]
fn a_file_over_the_size_limit_is_read_to_its_last_whole_game() {
    let (dir, archive) = archive();
    let text = games_text(10);
    let path = dir.path().join("big.pgn");
    fs::write(&path, &text).expect("write");
    // The limit falls in the middle of the sixth game.
    let one = text.len() / 10;
    let limits = ImportLimits {
        max_file_bytes: (5 * one + one / 2) as u64,
        ..ImportLimits::DEFAULT
    };
    let report = archive
        .import_file_within(&path, &limits, |_| ControlFlow::Continue(()))
        .expect("import");
    assert_eq!(report.imported.len(), 5, "{report:?}");
    assert!(report.failed.is_empty(), "no half game: {report:?}");
    let cut = report.file_cut.expect("cut");
    assert_eq!(cut.file_bytes, text.len() as u64);
    assert_eq!(cut.read_bytes, (5 * one) as u64);
}

#[test]
fn an_import_never_takes_the_space_kept_free() {
    let (_dir, archive) = archive();
    let limits = ImportLimits {
        reserve_bytes: u64::MAX / 2,
        ..ImportLimits::DEFAULT
    };
    let report = archive
        .import_text(&games_text(3), &limits, |_| ControlFlow::Continue(()))
        .expect("import");
    assert!(report.imported.is_empty());
    assert!(matches!(
        report.stopped,
        Some(ImportStop::DiskNearlyFull { .. })
    ));
    assert!(archive.list().expect("list").is_empty());
}

#[test]
fn an_import_stops_between_two_games_when_asked() {
    let (_dir, archive) = archive();
    let mut seen = Vec::new();
    let report = archive
        .import_text(&games_text(10), &ImportLimits::DEFAULT, |p| {
            seen.push((p.games_read, p.stored));
            if p.games_read == 4 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .expect("import");
    assert_eq!(seen, [(1, 1), (2, 2), (3, 3), (4, 4)]);
    assert_eq!(report.imported.len(), 4);
    assert_eq!(report.stopped, Some(ImportStop::Cancelled));
    // Numbered in file order, newest last: the list shows the file's last game first.
    let GameSummary::Game(h) = &archive.list().expect("list")[0] else {
        panic!("damaged");
    };
    assert_eq!(h.white, "W3");
}

#[test]
fn a_link_on_a_stick_is_not_followed() {
    let (dir, archive) = archive();
    let target = dir.path().join("secret.pgn");
    fs::write(&target, games_text(1)).expect("write");
    let link = dir.path().join("link.pgn");
    std::os::unix::fs::symlink(&target, &link).expect("symlink");
    assert!(archive.import_file(&link).is_err());
    assert!(archive.list().expect("list").is_empty());
    assert!(
        archive.import_file(dir.path()).is_err(),
        "a folder is no file"
    );
}

/// Found by fuzzing (fuzz/ `import`): games with tags only, or without a result, kept as they
/// came, ran into the next game in an export, which then imported as other games.
#[test]
fn an_export_of_games_kept_as_they_came_reads_back_game_for_game() {
    let (_dir, archive) = archive();
    let file = "[Event \"A\"]\n[Result \"1-0\"]\n\n1. e4 e5\n\n\
        [Event \"Tags only\"]\n[Site \"London\"]\n\n\
        [Event \"Tags only too\"]\n[Date \"1851.06.21\"]\n\n\
        [Foo \"no roster\"]\n1. d4 *\n";
    let first = archive.import_pgn(file).expect("import");
    // The reader takes the tags without a roster tag into the game before them: three games.
    assert_eq!(first.imported.len(), 3, "{first:?}");
    let (all, count, damaged) = archive.all_pgn().expect("export");
    assert_eq!((count, damaged.len()), (3, 0));
    let again = archive
        .import_text(&all, &ImportLimits::DEFAULT, |_| ControlFlow::Continue(()))
        .expect("import");
    assert!(again.imported.is_empty(), "{again:?}\n{all}");
    assert_eq!(again.already_stored.len(), 3, "{all}");
}

/// Found by fuzzing: moves played on after a dead position read as PGN, but a game stored so
/// could not be opened; it is refused with why.
#[test]
fn a_game_that_goes_on_after_its_end_is_refused() {
    let (_dir, archive) = archive();
    let file = "[Event \"Dead\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/4k3/8/8/8/4K1N1 w - - 0 40\"]\n\n\
        40. Kd2 Kd4 41. Nf3+ Ke4 *\n\n[Event \"Fine\"]\n\n1. e4 *\n";
    let report = archive.import_pgn(file).expect("import");
    assert_eq!(report.imported.len(), 1, "{report:?}");
    assert_eq!(report.unplayable.len(), 1, "{report:?}");
    assert_eq!(report.unplayable[0].game, 1);
    for summary in archive.list().expect("list") {
        let GameSummary::Game(h) = summary else {
            panic!("damaged");
        };
        archive.load(&h.id).expect("load").replay().expect("opens");
    }
}
