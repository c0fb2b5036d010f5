//! Saved games: PGN files in the archive, listing, resume, damage, import and USB export.

use std::fs;
use std::path::Path;

use chesspi::storage::archive::{computer_name, termination_from_tag};
use chesspi::storage::export::find_writable_mounts;
use chesspi::storage::peer_rating::PeerRating;
use chesspi::storage::{
    Archive, ArchiveError, ExportError, GameMode, GameSummary, LanLink, SavedGame, export_all,
    find_usb_mounts,
};
use chesspi_engine::game::{Game, Termination};
use chesspi_engine::pgn::{GameResult, read_games};
use chesspi_engine::{Color, Position};

mod support;
use support::games::{game_with, level, play};

fn vs_computer(human: Color, n: u8, game: Game) -> SavedGame {
    SavedGame::new(
        GameMode::VsComputer {
            human,
            level: level(n),
        },
        game,
    )
}

fn headers(archive: &Archive) -> Vec<chesspi::storage::GameHeader> {
    archive
        .list()
        .expect("list")
        .into_iter()
        .map(|s| match s {
            GameSummary::Game(h) => h,
            GameSummary::Damaged { id, reason } => panic!("{id} damaged: {reason}"),
        })
        .collect()
}

/// Games covering every mode, castling, en passant, promotions, a set-up start and non-ASCII.
fn sample_games() -> Vec<SavedGame> {
    let mut mate = game_with("f2f3 e7e5 g2g4 d8h4");
    assert!(mate.is_over());
    let mut resigned = game_with(
        "e2e4 d7d5 e4e5 f7f5 e5f6 g8h6 f6g7 e7e6 g7h8n b8c6 g1f3 f8d6 f1d3 d8e7 e1g1 c8d7 f1e1 e8c8",
    );
    resigned.resign(Color::Black).expect("resign");
    let start = Position::from_fen("8/P5k1/8/8/8/8/6K1/8 w - - 0 60").expect("fen");
    let mut promo = Game::from_position(start);
    play(&mut promo, "a7a8q g7f6");
    promo.agree_draw().expect("draw");
    let unfinished = game_with("d2d4 g8f6 c2c4");
    let mut lan = game_with("e2e4");
    lan.abandon(Color::Black).expect("abandon");
    // Silence "unused mut" for the mate game, which needs no further action.
    let _ = &mut mate;
    vec![
        vs_computer(Color::White, 4, mate),
        vs_computer(Color::Black, 9, resigned),
        SavedGame::new(GameMode::TwoPlayers, promo),
        SavedGame::new(
            GameMode::ComputerVsComputer {
                white: level(2),
                black: level(10),
            },
            unfinished,
        ),
        SavedGame::new(
            GameMode::Lan {
                local: Color::White,
                peer: "Jürgen's \"ChessPI\"".to_string(),
                link: None,
            },
            lan,
        ),
    ]
}

#[test]
fn stored_game_has_the_tags_and_lists_newest_first() {
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = Archive::open(dir.path()).expect("open");
    let games = sample_games();
    let ids: Vec<_> = games
        .iter()
        .map(|g| archive.store(g).expect("store"))
        .collect();

    let list = headers(&archive);
    let listed: Vec<_> = list.iter().map(|h| h.id.clone()).collect();
    let mut expected = ids.clone();
    expected.reverse();
    assert_eq!(listed, expected, "newest first");

    // The fool's mate, vs the computer as White: oldest, so last.
    let mate = &list[4];
    assert_eq!(mate.white, "You");
    assert_eq!(mate.black, computer_name(level(4)));
    let expected_black = format!("ChessPI level 4 (~{})", level(4).elo());
    assert_eq!(mate.black, expected_black);
    assert_eq!(mate.result, GameResult::BlackWins);
    assert_eq!(mate.termination.as_deref(), Some("checkmate"));
    assert_eq!((mate.plies, mate.move_count()), (4, 2));
    assert_eq!(mate.level, Some(4));
    assert!(!mate.is_unfinished());

    let text = archive.read_text(&ids[0]).expect("text");
    let black_tag = format!("[Black \"{expected_black}\"]");
    for tag in [
        "[Event \"ChessPI game\"]",
        "[Site \"ChessPI\"]",
        "[Round \"-\"]",
        "[White \"You\"]",
        black_tag.as_str(),
        "[Result \"0-1\"]",
        // The PGN standard's value; the reason in ChessPI's own tag.
        "[Termination \"normal\"]",
        "[ChessPITermination \"checkmate\"]",
        "[PlyCount \"4\"]",
        "[ChessPILevel \"4\"]",
        "[ChessPIMode \"vs-computer\"]",
    ] {
        assert!(text.contains(tag), "{tag} missing in\n{text}");
    }
    assert!(text.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{text}");

    let promo = &list[2];
    assert_eq!(promo.result, GameResult::Draw);
    assert_eq!(promo.termination.as_deref(), Some("draw by agreement"));
    assert_eq!(
        termination_from_tag("draw by agreement"),
        Some(Termination::Agreement)
    );
    let lan = &list[0];
    assert_eq!(lan.black, "Jürgen's \"ChessPI\"");
    assert_eq!(lan.result, GameResult::WhiteWins);

    // Every game reads back with the same moves and start.
    for (id, saved) in ids.iter().zip(&games) {
        let archived = archive.load(id).expect("load");
        let replayed = archived.replay().expect("replay");
        assert_eq!(replayed.moves(), saved.game.moves());
        assert_eq!(replayed.initial_position(), saved.game.initial_position());
    }
}

#[test]
fn unfinished_game_resumes_and_replaces_its_entry() {
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = Archive::open(dir.path()).expect("open");
    let mut saved = vs_computer(Color::Black, 6, game_with("e2e4 c7c5 g1f3"));
    saved.started_unix = 1_795_321_525;
    let first = archive.store(&saved).expect("store");
    let header = &headers(&archive)[0];
    assert!(header.is_unfinished());
    assert_eq!(header.termination.as_deref(), Some("unterminated"));
    assert_eq!(header.date, "2026.11.22");

    let resumed = archive.resume(&first).expect("resume");
    assert_eq!(resumed.id, saved.id);
    assert_eq!(resumed.mode, saved.mode);
    assert_eq!(resumed.started_unix, saved.started_unix);
    assert_eq!(resumed.game.moves(), saved.game.moves());
    assert_eq!(resumed.turn(), Color::Black);

    // Continue and finish it: the archive holds one entry, the finished one.
    let mut continued = resumed;
    play(&mut continued.game, "d7d6");
    continued.game.resign(Color::White).expect("resign");
    let second = archive.store(&continued).expect("store");
    assert_ne!(first, second);
    let list = headers(&archive);
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].id, second);
    assert_eq!(list[0].result, GameResult::BlackWins);
    assert!(matches!(
        archive.resume(&second),
        Err(ArchiveError::Finished(_))
    ));
    assert!(matches!(
        archive.load(&first),
        Err(ArchiveError::NotFound(_))
    ));
}

#[test]
fn every_mode_resumes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = Archive::open(dir.path()).expect("open");
    let modes = [
        GameMode::VsComputer {
            human: Color::White,
            level: level(1),
        },
        GameMode::TwoPlayers,
        GameMode::ComputerVsComputer {
            white: level(3),
            black: level(8),
        },
        GameMode::Lan {
            local: Color::Black,
            peer: "desk".to_string(),
            link: None,
        },
        // Adjourned network games keep what reconnecting needs, as host and as guest.
        GameMode::Lan {
            local: Color::White,
            peer: "desk".to_string(),
            link: Some(LanLink {
                game_id: "9f1c0a7e5b2d4c6e8a0b1c2d3e4f5a6b".to_string(),
                host: None,
                peer_rating: None,
            }),
        },
        GameMode::Lan {
            local: Color::Black,
            peer: "kitchen".to_string(),
            link: Some(LanLink {
                game_id: "0123456789abcdef0123456789abcdef".to_string(),
                host: Some("192.168.1.20:7531".to_string()),
                peer_rating: PeerRating::new(1523.437, 87.25),
            }),
        },
    ];
    for mode in modes {
        let saved = SavedGame::new(mode.clone(), game_with("g1f3"));
        let id = archive.store(&saved).expect("store");
        assert_eq!(archive.resume(&id).expect("resume").mode, mode);
    }
}

#[test]
fn delete_removes_one_game() {
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = Archive::open(dir.path()).expect("open");
    let a = archive
        .store(&SavedGame::new(GameMode::TwoPlayers, game_with("e2e4")))
        .expect("store");
    let b = archive
        .store(&SavedGame::new(GameMode::TwoPlayers, game_with("d2d4")))
        .expect("store");
    archive.delete(&a).expect("delete");
    let list = headers(&archive);
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].id, b);
    assert!(matches!(archive.delete(&a), Err(ArchiveError::NotFound(_))));
}

fn damaged_ids(archive: &Archive) -> Vec<String> {
    archive
        .list()
        .expect("list")
        .into_iter()
        .filter_map(|s| match s {
            GameSummary::Damaged { id, reason } => {
                assert!(!reason.is_empty());
                Some(id.to_string())
            }
            GameSummary::Game(_) => None,
        })
        .collect()
}

#[test]
fn damaged_files_are_listed_as_damaged() {
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = Archive::open(dir.path()).expect("open");
    let good = archive
        .store(&SavedGame::new(
            GameMode::TwoPlayers,
            game_with("e2e4 e7e5"),
        ))
        .expect("store");
    let good_text = archive.read_text(&good).expect("text");
    let games = archive.dir().to_path_buf();
    let write = |name: &str, bytes: &[u8]| fs::write(games.join(name), bytes).expect("write");
    write("000100-0000000000000001.pgn", b"");
    write("000101-0000000000000002.pgn", &[0xff, 0xfe, 0x00, 0x41]);
    write(
        "000102-0000000000000003.pgn",
        b"[Event \"x\"]\n1. e4 e5 2. Ke3 *\n",
    );
    write(
        "000103-0000000000000004.pgn",
        format!("{good_text}\n{good_text}").as_bytes(),
    );
    write("000104-0000000000000005.pgn", b"{ never closed");
    // Not archive names: ignored, not listed.
    write("notes.txt", b"hello");
    write("mygame.pgn", good_text.as_bytes());

    let mut damaged = damaged_ids(&archive);
    damaged.sort();
    assert_eq!(
        damaged,
        [
            "000100-0000000000000001",
            "000101-0000000000000002",
            "000102-0000000000000003",
            "000103-0000000000000004",
            "000104-0000000000000005"
        ]
    );
    assert_eq!(archive.list().expect("list").len(), 6);
    let id = archive.list().expect("list")[0].id().clone();
    assert!(matches!(
        archive.load(&id),
        Err(ArchiveError::Damaged { .. })
    ));
    // A damaged game can be deleted.
    archive.delete(&id).expect("delete");
}

#[test]
fn truncated_and_garbage_pgn_never_panics() {
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = Archive::open(dir.path()).expect("open");
    let id = archive
        .store(&sample_games().swap_remove(1))
        .expect("store");
    let text = archive.read_text(&id).expect("text");
    let path = archive.dir().join(format!("{id}.pgn"));
    for len in 0..text.len() {
        fs::write(&path, &text.as_bytes()[..len]).expect("write");
        let list = archive.list().expect("list");
        assert_eq!(list.len(), 1);
        if let GameSummary::Game(h) = &list[0] {
            // A cut that still parses keeps a prefix of the moves.
            assert!(h.plies <= 18, "cut at {len}: {} plies", h.plies);
        }
        let _ = archive.load(&id);
        let _ = archive.resume(&id);
    }
    let alphabet = b"[]\"{}()*.0123456789 \nabcdefghKQRBNx+#=-/";
    let mut state = 0x1234_5678_9abc_def1_u64;
    for _ in 0..300 {
        let bytes: Vec<u8> = (0..200)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                // Mostly PGN-ish characters, to get past the first token.
                alphabet[(state % alphabet.len() as u64) as usize]
            })
            .collect();
        fs::write(&path, &bytes).expect("write");
        assert_eq!(archive.list().expect("list").len(), 1);
    }
}

const IMPORT: &str = r#"[Event "Casual"]
[White "Anderssen"]
[Black "Kieseritzky"]
[Result "1-0"]

1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5 8. Nh4 Qg5
9. Nf5 c6 10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6 13. h5 Qg5 14. Qf3 Ng8 15. Bxf4 Qf6
16. Nc3 Bc5 17. Nd5 Qxb2 18. Bd6 Bxg1 19. e5 Qxa1+ 20. Ke2 Na6 21. Nxg7+ Kd8
22. Qf6+ Nxf6 23. Be7# 1-0

[Event "Broken"]
[White "A"]
[Black "B"]

1. e4 e5 2. Ke3 *

[Event "From a position"]
[SetUp "1"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[Result "*"]

1. e4 Kd7 *
"#;

#[test]
fn import_stores_each_readable_game_and_reimport_does_not_duplicate() {
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = Archive::open(dir.path()).expect("open");
    let report = archive.import_pgn(IMPORT).expect("import");
    assert_eq!(report.imported.len(), 2);
    assert_eq!(report.failed.len(), 1);
    assert_eq!(report.failed[0].game, 2);

    let list = headers(&archive);
    assert_eq!(list.len(), 2);
    assert_eq!(list[1].white, "Anderssen");
    assert_eq!(list[1].plies, 45);
    assert_eq!(list[1].result, GameResult::WhiteWins);
    // An imported unfinished game continues as a two-player game from its position.
    let resumed = archive.resume(&list[0].id).expect("resume");
    assert_eq!(resumed.mode, GameMode::TwoPlayers);
    assert_eq!(resumed.game.moves().len(), 2);

    // Export, then import the export: the same two games, found stored and left as they are.
    let usb = tempfile::tempdir().expect("usb");
    let exported = export_all(&archive, usb.path()).expect("export");
    let again = archive.import_file(&exported.path).expect("import");
    assert!(again.imported.is_empty());
    assert_eq!(again.already_stored.len(), 2);
    assert_eq!(headers(&archive).len(), 2);

    // An old Latin-1 file keeps its letters.
    let latin1 = usb.path().join("old.pgn");
    fs::write(
        &latin1,
        b"[Event \"?\"]\n[White \"M\xfcller\"]\n[Black \"?\"]\n\n1. e4 e5 *\n",
    )
    .expect("write");
    assert_eq!(
        archive.import_file(&latin1).expect("import").imported.len(),
        1
    );
    assert!(headers(&archive).iter().any(|h| h.white == "Müller"));
}

#[test]
fn export_writes_all_games_that_the_engine_reads_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = Archive::open(dir.path()).expect("open");
    let usb = tempfile::tempdir().expect("usb");
    assert!(matches!(
        export_all(&archive, usb.path()),
        Err(ExportError::NoGames)
    ));
    let games = sample_games();
    for g in &games {
        archive.store(g).expect("store");
    }
    fs::write(
        archive.dir().join("000999-00000000000000aa.pgn"),
        b"garbage",
    )
    .expect("write");

    let report = export_all(&archive, usb.path()).expect("export");
    assert_eq!(report.games, games.len());
    assert_eq!(report.skipped_damaged.len(), 1);
    let name = report
        .path
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    assert!(
        name.starts_with("chesspi-games-") && name.ends_with(".pgn"),
        "{name}"
    );
    // Only the export file is on the stick (no temporary file left).
    assert_eq!(fs::read_dir(usb.path()).expect("list").count(), 1);

    let text = fs::read_to_string(&report.path).expect("read");
    let read: Vec<_> = read_games(&text)
        .into_iter()
        .map(|g| g.expect("readable"))
        .collect();
    assert_eq!(read.len(), games.len());
    // Oldest first, as stored.
    for (pgn, saved) in read.iter().zip(&games) {
        assert_eq!(&pgn.moves, saved.game.moves());
        assert_eq!(&pgn.start, saved.game.initial_position());
        let expected = saved
            .game
            .outcome()
            .map_or(GameResult::Unknown, |o| GameResult::from_winner(o.winner));
        assert_eq!(pgn.result, expected);
        assert_eq!(
            pgn.tag("PlyCount"),
            Some(saved.game.moves().len().to_string().as_str())
        );
    }
    if let Ok(keep) = std::env::var("CHESSPI_KEEP_EXPORT") {
        fs::copy(&report.path, keep).expect("keep export");
    }
    // Writing to a directory that does not exist fails with the path named.
    let err = export_all(&archive, &usb.path().join("gone")).expect_err("no dir");
    assert!(err.to_string().contains("gone"), "{err}");
}

#[test]
fn usb_mounts_are_found_one_or_two_levels_down() {
    let media = tempfile::tempdir().expect("media");
    let root = media.path();
    for d in ["STICK", "pi/KINGSTON", "pi/not-mounted", "empty-user"] {
        fs::create_dir_all(root.join(d)).expect("mkdir");
    }
    fs::write(root.join("file"), b"x").expect("write");
    let mounted = |p: &Path| {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned());
        matches!(name.as_deref(), Some("STICK" | "KINGSTON"))
    };
    assert_eq!(
        find_writable_mounts(root, mounted),
        vec![root.join("STICK"), root.join("pi/KINGSTON")]
    );
    // Nothing in a plain directory tree is a mount point, and a missing root is no error.
    assert!(find_usb_mounts(root).is_empty());
    assert!(find_usb_mounts(&root.join("missing")).is_empty());
    // No probe file is left behind.
    assert_eq!(fs::read_dir(root.join("STICK")).expect("list").count(), 0);
}

#[test]
fn pgn_files_are_found_at_the_top_of_a_stick_and_one_folder_down() {
    use chesspi::storage::export::{MAX_PGN_FILES, find_mounts, pgn_files_on};
    let media = tempfile::tempdir().expect("media");
    let root = media.path();
    for d in ["STICK/Chess", "STICK/a/b", "OTHER"] {
        fs::create_dir_all(root.join(d)).expect("mkdir");
    }
    for f in [
        "STICK/games.pgn",
        "STICK/Chess/old.PGN",
        "STICK/notes.txt",
        "STICK/a/b/too-deep.pgn",
        "OTHER/x.pgn",
    ] {
        fs::write(root.join(f), b"[Event \"x\"]\n\n1. e4 *\n").expect("write");
    }
    let sticks = find_mounts(root, |_| true);
    assert_eq!(sticks, [root.join("OTHER"), root.join("STICK")]);
    assert_eq!(
        pgn_files_on(&sticks),
        [
            root.join("OTHER/x.pgn"),
            root.join("STICK/Chess/old.PGN"),
            root.join("STICK/games.pgn"),
        ]
    );
    // A stick full of files lists the first ones only (they become buttons).
    let many = root.join("MANY");
    fs::create_dir_all(&many).expect("mkdir");
    for i in 0..MAX_PGN_FILES + 5 {
        fs::write(many.join(format!("{i:02}.pgn")), b"*").expect("write");
    }
    assert_eq!(pgn_files_on(&[many]).len(), MAX_PGN_FILES);
}

#[test]
fn every_file_is_named_by_its_stick_and_its_path_on_it() {
    use chesspi::storage::export::{find_mounts, labelled, pgn_files_on};
    let media = tempfile::tempdir().expect("media");
    let root = media.path();
    fs::create_dir_all(root.join("TESTSTICK/games")).expect("mkdir");
    for f in ["TESTSTICK/malformed.pgn", "TESTSTICK/games/utctime.pgn"] {
        fs::write(root.join(f), b"*").expect("write");
    }
    let sticks = find_mounts(root, |_| true);
    let labels: Vec<String> = labelled(pgn_files_on(&sticks), &sticks)
        .into_iter()
        .map(|f| f.label)
        .collect();
    // One form: not "games/utctime.pgn" beside "TESTSTICK/malformed.pgn".
    assert_eq!(
        labels,
        ["TESTSTICK/games/utctime.pgn", "TESTSTICK/malformed.pgn"]
    );
}

#[test]
fn a_timed_game_carries_its_time_control_and_clocks_for_python_chess() {
    use std::time::Duration;
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = Archive::open(dir.path()).expect("archive");
    let mut saved = vs_computer(Color::White, 4, game_with("e2e4 e7e5 g1f3"));
    saved.clocks = Some(chesspi::storage::Clocks {
        white: Duration::from_secs(297),
        black: Duration::from_secs(301),
        increment: Duration::from_secs(3),
        base: Duration::from_secs(300),
        after_moves: [302, 301, 297].map(Duration::from_secs).to_vec(),
    });
    let id = archive.store(&saved).expect("store");
    let text = archive.read_text(&id).expect("text");
    assert!(text.contains("[TimeControl \"300+3\"]"), "{text}");
    assert!(text.contains("[ECO \"C40\"]"), "{text}");
    assert!(
        text.contains("[Opening \"King's Knight Opening\"]"),
        "{text}"
    );
    assert!(
        text.contains(
            "1. e4 { [%clk 0:05:02] } 1... e5 { [%clk 0:05:01] } 2. Nf3 { [%clk 0:04:57] }"
        ),
        "{text}"
    );
    // The archive still reads its own file back.
    assert_eq!(
        archive
            .load(&id)
            .expect("load")
            .replay()
            .expect("replay")
            .moves()
            .len(),
        3
    );
    // python-chess (the tool players use) reads the clocks, where it is installed.
    let script = "import chess.pgn,sys\n\
        g=chess.pgn.read_game(sys.stdin)\n\
        print(g.headers['TimeControl'], [n.clock() for n in g.mainline()])";
    let out = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(text.as_bytes())?;
            child.wait_with_output()
        });
    match out {
        Ok(out) if out.status.success() => assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "300+3 [302.0, 301.0, 297.0]"
        ),
        _ => eprintln!("python-chess not available: the PGN was checked by hand above"),
    }
    // The export to a USB stick keeps them too (it is the stored text, not a rewrite).
    let (export, count, _) = archive.all_pgn().expect("export");
    assert_eq!(count, 1);
    assert!(export.contains("1. e4 { [%clk 0:05:02] }"), "{export}");
    // Unfinished, it is played on with its clocks where they stood.
    let resumed = archive.resume(&id).expect("resume");
    assert_eq!(resumed.clocks, saved.clocks);
    // A finished game keeps only the PGN's clocks.
    let mut over = saved.clone();
    over.game.resign(Color::Black).expect("resign");
    let id = archive.store(&over).expect("store");
    assert!(
        !archive
            .read_text(&id)
            .expect("text")
            .contains("ChessPIClocks")
    );
}

#[test]
fn an_analysed_timed_game_keeps_its_clocks() {
    use chesspi_engine::analysis::{AnalysisLimits, Analyzer};
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = Archive::open(dir.path()).expect("archive");
    let mut saved = vs_computer(Color::White, 4, game_with("f2f3 e7e5 g2g4 d8h4"));
    saved.clocks = Some(chesspi::storage::Clocks {
        white: Duration::from_secs(55),
        black: Duration::from_secs(58),
        increment: Duration::ZERO,
        base: Duration::from_secs(60),
        after_moves: [59, 60, 55, 58].map(Duration::from_secs).to_vec(),
    });
    let id = archive.store(&saved).expect("store");
    let moves = saved.game.moves().to_vec();
    let limits = AnalysisLimits {
        nodes: Some(2_000),
        ..AnalysisLimits::default()
    };
    let analysis = Analyzer::new(limits)
        .expect("analyser")
        .analyse(
            saved.game.initial_position(),
            &moves,
            &AtomicBool::new(false),
            &mut |_| {},
        )
        .expect("analysis");
    let annotated = archive.annotate(id.game(), &analysis).expect("annotate");
    let text = archive.read_text(&annotated).expect("text");
    // Each move: its evaluation, then its clock, in one comment as lichess writes them; the
    // start position's evaluation comes before the first move, without a clock.
    assert_eq!(text.matches("[%eval ").count(), 5, "{text}");
    assert_eq!(text.matches("[%clk ").count(), 4, "{text}");
    assert!(text.contains("[%clk 0:00:59] }"), "{text}");
    assert!(text.contains("2. g4 $4"), "the blunder is marked: {text}");
    assert!(text.contains("[%clk 0:00:58] }"), "{text}");
    assert_eq!(
        archive
            .load(&annotated)
            .expect("load")
            .replay()
            .expect("replay")
            .moves(),
        moves
    );
}

/// An adjourned network game keeps the partner's rating in `ChessPILanRating`; one that does
/// not read (a hand-edited file) leaves the game unrated, still resumable; a file from before
/// ratings has none.
#[test]
fn a_network_games_partner_rating_tag() {
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = Archive::open(dir.path()).expect("open");
    let mode = GameMode::Lan {
        local: Color::White,
        peer: "Ben".to_string(),
        link: Some(LanLink {
            game_id: "0123456789abcdef0123456789abcdef".to_string(),
            host: None,
            peer_rating: PeerRating::new(1400.5, 60.0),
        }),
    };
    let id = archive
        .store(&SavedGame::new(mode, game_with("e2e4")))
        .expect("store");
    let path = archive.dir().join(format!("{id}.pgn"));
    let text = fs::read_to_string(&path).expect("read");
    assert!(text.contains("[ChessPILanRating \"1400.5 60\"]"), "{text}");
    let rating_of = |text: &str| {
        fs::write(&path, text).expect("write");
        match archive.resume(&id).expect("resume").mode {
            GameMode::Lan {
                link: Some(link), ..
            } => link.peer_rating,
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(rating_of(&text), PeerRating::new(1400.5, 60.0));
    for bad in ["1400.5", "5000 60", "1400 0", "NaN 60", "x y"] {
        let edited = text.replace("1400.5 60", bad);
        assert_eq!(rating_of(&edited), None, "{bad}");
    }
    let older: String = text
        .lines()
        .filter(|l| !l.starts_with("[ChessPILanRating"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(rating_of(&older), None);
}
