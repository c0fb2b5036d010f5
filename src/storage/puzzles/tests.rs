use super::*;
use crate::storage::sealed::{seal, unseal};
use crate::storage::store::{decode, encode};
use chesspi_engine::analysis::{AnalysisLimits, Analyzer};
use std::sync::atomic::AtomicBool;

const NOW: u64 = 1_700_000_000;
const DAY: u64 = 86_400;

/// The puzzle after 1. e4: the mistake `mistake`, the better move `best` (both Black's).
fn puzzle(mistake: &str, best: &str) -> Puzzle {
    let pos = Position::startpos()
        .play(Position::startpos().parse_uci_move("e2e4").expect("e4"))
        .expect("play");
    let m = pos.parse_uci_move(mistake).expect("mistake");
    let b = pos.parse_uci_move(best).expect("best");
    Puzzle::new(pos, m, b, true, "g1", "2024.05.01", NOW).expect("puzzle")
}

/// Two puzzles, the first solved once.
fn book_of_two() -> PuzzleBook {
    let mut book = PuzzleBook::new();
    assert!(book.add(puzzle("g7g5", "e7e5")));
    assert!(book.add(puzzle("f7f6", "c7c5")));
    book.record(&book.puzzles()[0].id.clone(), true, NOW);
    book
}

#[test]
fn round_trips_through_encode_and_the_store() {
    let book = book_of_two();
    assert_eq!(
        decode::<PuzzleBook>(encode(&book).as_bytes()).expect("decode"),
        book
    );
    let dir = tempfile::tempdir().expect("tempdir");
    let store = PuzzleStore::new(dir.path());
    let empty = store.load();
    assert!(empty.recovered.is_none() && empty.value == PuzzleBook::new());
    store.save(&book).expect("save");
    let loaded = store.load();
    assert!(loaded.recovered.is_none());
    assert_eq!(loaded.value, book);
}

/// Damage and impossible values behind a valid checksum are refused and set aside.
#[test]
fn damaged_files_are_refused_and_set_aside() {
    let sealed = encode(&book_of_two());
    let body = unseal(&sealed).expect("sealed");
    let mut flipped = sealed.clone().into_bytes();
    flipped[40] ^= 0x01;
    let edit = |from: &str, to: &str| seal(&body.replace(from, to)).into_bytes();
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (flipped, "damaged"),
        (sealed.as_bytes()[..sealed.len() / 2].to_vec(), "damaged"),
        (edit("version = 1", "version = 2"), "version 2"),
        (edit("\"g7g5\"", "\"g7g4\""), "bad mistake"),
        (edit("\"e7e5\"", "\"e2e4\""), "bad best"),
        (edit("box = 1", "box = 7"), "bad box"),
        (edit("rnbqkbnr/", "rnbqkbnx/"), "bad fen"),
        (edit("\nstreak = 1", "\nstreak = 2"), "bad record"),
        (edit("tries = 1\n", "tries = 1\nextra = 1\n"), "malformed"),
    ];
    let dir = tempfile::tempdir().expect("tempdir");
    let store = PuzzleStore::new(dir.path());
    for (bytes, needle) in cases {
        let err = decode::<PuzzleBook>(&bytes).expect_err(needle);
        assert!(err.to_string().contains(needle), "{err} lacks {needle}");
        std::fs::write(store.path(), &bytes).expect("write");
        let load = store.load();
        assert_eq!(load.value, PuzzleBook::new());
        let recovery = load.recovered.expect("set aside");
        assert!(recovery.quarantined_path.expect("moved").exists());
        assert!(!store.path().exists());
    }
    let mistake = decode::<PuzzleBook>(&edit("\"g7g5\"", "\"g7g4\""));
    assert!(matches!(
        mistake,
        Err(PuzzlesError::Invalid(BadPuzzles { key: "mistake", .. }))
    ));
}

#[test]
fn the_schedule_moves_up_and_falls_back() {
    let mut book = PuzzleBook::new();
    let p = puzzle("g7g5", "e7e5");
    let id = p.id.clone();
    book.add(p);
    assert_eq!(book.due(NOW).len(), 1, "due at once");
    assert_eq!(book.due_count(NOW - 1), 0);
    let mut now = NOW;
    for (i, days) in INTERVAL_DAYS.iter().chain(&[90, 90]).enumerate() {
        assert!(book.record(&id, true, now));
        let p = book.get(&id).expect("kept");
        assert_eq!(usize::from(p.box_index), (i + 1).min(INTERVAL_DAYS.len()));
        assert_eq!(p.due_unix, now + days * DAY);
        now = p.due_unix;
    }
    assert!(book.record(&id, false, now));
    let p = book.get(&id).expect("kept");
    assert_eq!((p.box_index, p.due_unix), (0, now + RETRY_SECONDS));
    assert_eq!((p.tries, p.solved), (9, 8));
    book.record(&id, true, now);
    let record = book.summary(now);
    assert_eq!((record.tries, record.solved), (10, 9));
    assert_eq!((record.streak, record.best_streak), (1, 8));
    assert_eq!((record.puzzles, record.due), (1, 0));
    let before = book.clone();
    assert!(!book.record("0123456789abcdef", true, now));
    assert_eq!(book, before, "an unknown id changes nothing");
    // The longest overdue first: the failed one before the one solved earlier.
    let mut book = book_of_two();
    let (first, second) = (book.puzzles()[0].id.clone(), book.puzzles()[1].id.clone());
    book.record(&second, false, NOW);
    let due: Vec<&str> = book
        .due(NOW + 2 * DAY)
        .iter()
        .map(|p| p.id.as_str())
        .collect();
    assert_eq!(due, [second.as_str(), first.as_str()]);
}

#[test]
fn add_dedupes_and_drops_the_best_known_when_full() {
    let mut book = PuzzleBook::new();
    assert!(book.add(puzzle("g7g5", "e7e5")));
    let same = puzzle("g7g5", "c7c5");
    assert!(!book.add(same), "same position and mistake");
    // Fill with distinct puzzles: the same mistake in positions that differ by the clock.
    let start = Position::startpos();
    let e4 = start.parse_uci_move("e2e4").expect("e4");
    let d4 = start.parse_uci_move("d2d4").expect("d4");
    for n in 1..MAX_PUZZLES {
        let fen = format!("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 {n}");
        let pos = Position::from_fen(&fen).expect("fen");
        assert!(book.add(Puzzle::new(pos, e4, d4, false, "g", "", NOW).expect("new")));
    }
    assert_eq!(book.puzzles().len(), MAX_PUZZLES);
    let known = book.puzzles()[7].id.clone();
    let also = book.puzzles()[8].id.clone();
    book.record(&known, true, NOW);
    book.record(&known, true, NOW);
    book.record(&also, true, NOW);
    book.record(&also, true, NOW - 100);
    assert!(book.add(puzzle("f7f6", "c7c5")));
    assert_eq!(book.puzzles().len(), MAX_PUZZLES);
    assert!(book.get(&also).is_some(), "same box, due sooner");
    assert!(book.get(&known).is_none(), "highest box, due latest");
}

#[test]
fn new_refuses_illegal_or_identical_moves() {
    let start = Position::startpos();
    let e4 = start.parse_uci_move("e2e4").expect("e4");
    let after = start.play(e4).expect("play");
    let e5 = after.parse_uci_move("e7e5").expect("e5");
    let new = |mistake, best| Puzzle::new(start, mistake, best, false, "g", "", NOW);
    assert!(new(e4, e5).is_none(), "best illegal");
    assert!(new(e5, e4).is_none(), "mistake illegal");
    assert!(new(e4, e4).is_none(), "same move");
    let e3 = start.parse_uci_move("e2e3").expect("e3");
    let long_game = "x".repeat(80);
    let p = Puzzle::new(start, e4, e3, false, &long_game, "2024.05.01 extra", NOW).expect("legal");
    assert_eq!((p.game.len(), p.date.as_str()), (64, "2024.05.01"));
    assert_eq!((p.box_index, p.due_unix, p.id.len()), (0, NOW, 16));
}

#[test]
fn puzzles_come_from_the_players_blunders() {
    let start = Position::startpos();
    let mut pos = start;
    let mut moves = Vec::new();
    for uci in ["e2e4", "e7e5", "g1f3", "d8g5", "f3g5"] {
        let mv = pos.parse_uci_move(uci).expect("legal");
        pos = pos.play(mv).expect("play");
        moves.push(mv);
    }
    let nodes = Some(2000);
    let limits = AnalysisLimits {
        nodes,
        ..AnalysisLimits::default()
    };
    let mut analyzer = Analyzer::new(limits).expect("analyzer");
    let analysis = analyzer
        .analyse(&start, &moves, &AtomicBool::new(false), &mut |_| {})
        .expect("analysis");
    let mut white = PuzzleBook::new();
    let added = white.add_from_analysis(&analysis, &[Color::White], "g", "2024.05.01", NOW);
    assert_eq!(added, 0, "White played well");
    assert!(white.puzzles().is_empty());
    let mut black = PuzzleBook::new();
    let added = black.add_from_analysis(&analysis, &[Color::Black], "g", "2024.05.01", NOW);
    assert!(added >= 1);
    let qg5 = black.puzzles().iter().find(|p| p.mistake == moves[3]);
    let qg5 = qg5.expect("a puzzle for Qg5");
    assert!(qg5.blunder && qg5.position.is_legal(qg5.best));
    let again = black.add_from_analysis(&analysis, &[Color::Black], "g", "", NOW);
    assert_eq!(again, 0, "already kept");
}
