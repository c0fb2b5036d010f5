//! Autosave: round trips for every mode, and every kind of bad file is set aside, never a panic.

use std::fs;
use std::path::Path;
use std::time::Duration;

use chesspi::storage::autosave::{decode, encode};
use chesspi::storage::{AutosaveError, AutosaveStore, Clocks, GameMode, LoadOutcome, SavedGame};
use chesspi_engine::game::{Game, Outcome, Termination};
use chesspi_engine::level::Level;
use chesspi_engine::{Color, Position};

mod support;
use support::games::{game_with, level, play};
use support::rng::Rng;

/// A game with castling, en passant and an under-promotion, so every move kind is saved.
fn rich_game() -> Game {
    game_with(
        "e2e4 d7d5 e4e5 f7f5 e5f6 g8h6 f6g7 e7e6 g7h8n b8c6 g1f3 f8d6 f1d3 d8e7 e1g1 c8d7 f1e1 e8c8",
    )
}

fn all_modes() -> Vec<GameMode> {
    vec![
        GameMode::VsComputer {
            human: Color::Black,
            level: level(7),
        },
        GameMode::TwoPlayers,
        GameMode::ComputerVsComputer {
            white: level(1),
            black: level(10),
        },
        GameMode::Lan {
            local: Color::White,
            peer: "ChessPI \"kitchen\" = [x]".to_string(),
            link: None,
        },
        GameMode::Lan {
            local: Color::Black,
            peer: "desk".to_string(),
            link: Some(chesspi::storage::LanLink {
                game_id: "9f86d081884c7d65".to_string(),
                host: None,
                peer_rating: None,
            }),
        },
        GameMode::Lan {
            local: Color::White,
            peer: "desk".to_string(),
            link: Some(chesspi::storage::LanLink {
                game_id: "9f86d081884c7d65".to_string(),
                host: Some("192.168.1.20:7531".to_string()),
                peer_rating: chesspi::storage::peer_rating::PeerRating::new(1523.437, 87.25),
            }),
        },
    ]
}

fn assert_same(a: &SavedGame, b: &SavedGame) {
    assert_eq!(a.id, b.id);
    assert_eq!(a.started_unix, b.started_unix);
    assert_eq!(a.mode, b.mode);
    assert_eq!(a.clocks, b.clocks);
    assert_eq!(a.game.initial_position(), b.game.initial_position());
    assert_eq!(a.game.moves(), b.game.moves());
    assert_eq!(a.game.outcome(), b.game.outcome());
    assert_eq!(a.game.position(), b.game.position());
    assert_eq!(a.turn(), b.turn());
}

fn restored(store: &mut AutosaveStore) -> SavedGame {
    match store.load() {
        LoadOutcome::Restored(g) => *g,
        other => panic!("expected a restored game, got {other:?}"),
    }
}

fn recovered(dir: &Path) -> (AutosaveError, std::path::PathBuf) {
    let mut store = AutosaveStore::new(dir);
    match store.load() {
        LoadOutcome::Recovered {
            reason,
            quarantined_path,
            ..
        } => (reason, quarantined_path.expect("file was moved aside")),
        other => panic!("expected recovery, got {other:?}"),
    }
}

#[test]
fn round_trip_every_mode_with_and_without_outcome_and_clocks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = AutosaveStore::new(dir.path());
    assert!(matches!(store.load(), LoadOutcome::Fresh));
    for (i, mode) in all_modes().into_iter().enumerate() {
        let mut saved = SavedGame::new(mode, rich_game());
        if i % 2 == 0 {
            saved.clocks = Some(Clocks {
                white: Duration::from_millis(61_234),
                black: Duration::from_secs(300),
                increment: Duration::from_secs(2),
                base: Duration::from_secs(300),
                after_moves: vec![Duration::from_secs(299), Duration::from_millis(61_234)],
            });
        }
        let seq = store.save(&saved).expect("save");
        assert_eq!(seq, store.sequence());
        let mut reader = AutosaveStore::new(dir.path());
        assert_same(&saved, &restored(&mut reader));
        assert_eq!(reader.sequence(), seq);

        // The same game resigned, then the same game drawn by agreement.
        saved.game.resign(Color::White).expect("resign");
        store.save(&saved).expect("save");
        assert_same(&saved, &restored(&mut AutosaveStore::new(dir.path())));
    }
    // The sequence grows by one per save.
    assert_eq!(store.sequence(), 2 * all_modes().len() as u64);
}

#[test]
fn round_trip_from_a_fen_start_and_automatic_endings() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = AutosaveStore::new(dir.path());

    // Black to move from a set-up position, ended by checkmate (back-rank mate).
    let start = Position::from_fen("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1").expect("fen");
    let mut game = Game::from_position(start);
    play(&mut game, "a1a8");
    assert_eq!(
        game.outcome(),
        Some(Outcome::win(Color::White, Termination::Checkmate))
    );
    let saved = SavedGame::new(GameMode::TwoPlayers, game);
    store.save(&saved).expect("save");
    assert_same(&saved, &restored(&mut store));

    // Draw by agreement, then a flag fall.
    let mut game = game_with("e2e4 e7e5");
    game.agree_draw().expect("draw");
    let saved = SavedGame::new(GameMode::TwoPlayers, game);
    store.save(&saved).expect("save");
    assert_same(&saved, &restored(&mut store));

    let mut game = game_with("d2d4");
    game.flag(Color::Black).expect("flag");
    let saved = SavedGame::new(
        GameMode::VsComputer {
            human: Color::Black,
            level: level(2),
        },
        game,
    );
    store.save(&saved).expect("save");
    assert_same(&saved, &restored(&mut store));
}

#[test]
fn the_file_is_readable_toml_naming_its_format() {
    let saved = SavedGame::new(
        GameMode::VsComputer {
            human: Color::White,
            level: level(4),
        },
        game_with("e2e4 e7e5"),
    );
    let text = encode(&saved, 3);
    assert!(text.contains("format = \"chesspi-autosave\""), "{text}");
    assert!(text.contains("version = 1"), "{text}");
    assert!(text.contains("moves = [\"e2e4\", \"e7e5\"]"), "{text}");
    assert!(text.contains("kind = \"vs-computer\""), "{text}");
    // Everything but the checksum comment is TOML a person or a script can read.
    let value: toml::Table = toml::from_str(&text).expect("valid TOML");
    assert_eq!(value["sequence"].as_integer(), Some(3));
}

#[test]
fn every_truncation_is_refused() {
    let mut game = rich_game();
    game.resign(Color::Black).expect("resign");
    let mut saved = SavedGame::new(
        GameMode::Lan {
            local: Color::Black,
            peer: "peer".to_string(),
            link: None,
        },
        game,
    );
    saved.clocks = Some(Clocks {
        white: Duration::from_secs(1),
        black: Duration::from_secs(2),
        increment: Duration::ZERO,
        base: Duration::from_secs(60),
        after_moves: Vec::new(),
    });
    let text = encode(&saved, 42);
    let bytes = text.as_bytes();
    assert!(decode(bytes).is_ok());
    for len in 0..bytes.len() {
        assert!(
            decode(&bytes[..len]).is_err(),
            "a file cut at byte {len} of {} was accepted",
            bytes.len()
        );
    }
    // Through the store: a cut file is moved aside and the next load is fresh.
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("autosave.toml");
    fs::write(&path, &bytes[..bytes.len() / 2]).expect("write");
    let (reason, aside) = recovered(dir.path());
    assert!(matches!(reason, AutosaveError::Checksum), "{reason}");
    assert_eq!(fs::read(&aside).expect("read"), &bytes[..bytes.len() / 2]);
    assert!(
        aside
            .file_name()
            .expect("name")
            .to_string_lossy()
            .starts_with("autosave.toml.bad-")
    );
    assert!(matches!(
        AutosaveStore::new(dir.path()).load(),
        LoadOutcome::Fresh
    ));
}

#[test]
fn random_garbage_and_flipped_bytes_are_refused() {
    let mut rng = Rng::new(0x5eed_1234_abcd_ef01);
    for round in 0..2000 {
        let len = (rng.next_u64() % 600) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        assert!(decode(&bytes).is_err(), "garbage round {round} accepted");
    }
    // One byte changed anywhere in a good file.
    let text = encode(&SavedGame::new(GameMode::TwoPlayers, rich_game()), 1);
    let good = text.as_bytes();
    for i in 0..good.len() {
        let mut bad = good.to_vec();
        bad[i] ^= 1 << (rng.next_u64() % 8);
        assert!(decode(&bad).is_err(), "flip at byte {i} accepted");
    }
}

#[test]
fn empty_file_is_set_aside() {
    let dir = tempfile::tempdir().expect("tempdir");
    fs::write(dir.path().join("autosave.toml"), b"").expect("write");
    let (reason, aside) = recovered(dir.path());
    assert!(matches!(reason, AutosaveError::Empty));
    assert!(aside.exists());
}

/// Re-seals a hand-made body with a correct checksum (FNV-1a 64, as the format documents), so
/// these tests reach the checks behind the checksum.
fn seal(body: &str) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in body.as_bytes() {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{body}# fnv1a64 {hash:016x}\n")
}

fn body_of(saved: &SavedGame) -> String {
    let text = encode(saved, 5);
    let cut = text.trim_end_matches('\n').rfind('\n').expect("lines") + 1;
    text[..cut].to_string()
}

#[test]
fn seal_matches_the_writer() {
    let saved = SavedGame::new(GameMode::TwoPlayers, rich_game());
    assert_eq!(seal(&body_of(&saved)), encode(&saved, 5));
}

#[test]
fn wrong_version_and_format_are_set_aside() {
    let saved = SavedGame::new(GameMode::TwoPlayers, rich_game());
    let body = body_of(&saved);
    let v2 = seal(&body.replace("version = 1", "version = 2"));
    assert!(matches!(
        decode(v2.as_bytes()),
        Err(AutosaveError::UnsupportedVersion(2))
    ));
    let other = seal(&body.replace("chesspi-autosave", "something-else"));
    assert!(matches!(
        decode(other.as_bytes()),
        Err(AutosaveError::WrongFormat(_))
    ));
    let no_version = seal(&body.replace("version = 1\n", ""));
    assert!(matches!(
        decode(no_version.as_bytes()),
        Err(AutosaveError::Syntax(_))
    ));
    let unknown_key = seal(&format!("{body}surprise = 1\n"));
    assert!(decode(unknown_key.as_bytes()).is_err());

    let dir = tempfile::tempdir().expect("tempdir");
    fs::write(dir.path().join("autosave.toml"), &v2).expect("write");
    let (reason, aside) = recovered(dir.path());
    assert!(reason.to_string().contains("version 2"), "{reason}");
    assert_eq!(fs::read_to_string(aside).expect("read"), v2);
}

#[test]
fn illegal_move_and_impossible_values_are_set_aside() {
    let saved = SavedGame::new(GameMode::TwoPlayers, game_with("e2e4 e7e5 g1f3"));
    let body = body_of(&saved);

    let illegal = seal(&body.replace("\"g1f3\"", "\"e1e3\""));
    match decode(illegal.as_bytes()) {
        Err(AutosaveError::IllegalMove { ply, text, .. }) => {
            assert_eq!((ply, text.as_str()), (3, "e1e3"));
        }
        other => panic!("expected an illegal move, got {other:?}"),
    }
    let not_uci = seal(&body.replace("\"g1f3\"", "\"Nf3\""));
    assert!(matches!(
        decode(not_uci.as_bytes()),
        Err(AutosaveError::IllegalMove { ply: 3, .. })
    ));
    let bad_fen = seal(&body.replace("rnbqkbnr/", "rnbqkbnrr/"));
    assert!(matches!(
        decode(bad_fen.as_bytes()),
        Err(AutosaveError::BadStartPosition(_))
    ));
    let bad_mode = seal(&body.replace("two-players", "three-players"));
    assert!(matches!(
        decode(bad_mode.as_bytes()),
        Err(AutosaveError::BadValue {
            key: "mode.kind",
            ..
        })
    ));
    // Checkmate claimed in a position that is not mate.
    let fake_mate = seal(&format!(
        "{body}\n[outcome]\nwinner = \"white\"\ntermination = \"checkmate\"\n"
    ));
    assert!(matches!(
        decode(fake_mate.as_bytes()),
        Err(AutosaveError::OutcomeMismatch(_))
    ));

    let vs = SavedGame::new(
        GameMode::VsComputer {
            human: Color::White,
            level: level(3),
        },
        Game::new(),
    );
    let bad_level = seal(&body_of(&vs).replace("level = 3", "level = 11"));
    assert!(matches!(
        decode(bad_level.as_bytes()),
        Err(AutosaveError::BadValue {
            key: "mode.level",
            ..
        })
    ));

    let dir = tempfile::tempdir().expect("tempdir");
    fs::write(dir.path().join("autosave.toml"), &illegal).expect("write");
    let (reason, _) = recovered(dir.path());
    assert!(reason.to_string().contains("e1e3"), "{reason}");
}

#[test]
fn moves_after_the_end_are_refused() {
    let saved = SavedGame::new(GameMode::TwoPlayers, game_with("f2f3 e7e5 g2g4 d8h4"));
    let body = body_of(&saved);
    let extra = seal(&body.replace("\"d8h4\"]", "\"d8h4\", \"a2a3\"]"));
    assert!(matches!(
        decode(extra.as_bytes()),
        Err(AutosaveError::IllegalMove { ply: 5, .. })
    ));
}

#[test]
fn stale_temp_files_are_removed_on_load() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = AutosaveStore::new(dir.path());
    let saved = SavedGame::new(GameMode::TwoPlayers, rich_game());
    store.save(&saved).expect("save");
    fs::write(dir.path().join(".autosave.toml.tmp-999-0"), b"half a sa").expect("write");
    assert_same(&saved, &restored(&mut AutosaveStore::new(dir.path())));
    let names: Vec<_> = fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("autosave.toml")]);
}

#[test]
fn unreadable_autosave_is_reported_not_fatal() {
    // A directory where the file should be: reading fails with an error other than NotFound.
    let dir = tempfile::tempdir().expect("tempdir");
    fs::create_dir(dir.path().join("autosave.toml")).expect("mkdir");
    let mut store = AutosaveStore::new(dir.path());
    match store.load() {
        LoadOutcome::Recovered { reason, .. } => {
            assert!(matches!(reason, AutosaveError::Unreadable(_)));
        }
        other => panic!("expected recovery, got {other:?}"),
    }
}

/// A game of `plies` half-moves from the start, always the same moves.
fn game_of(plies: usize) -> SavedGame {
    let mut game = chesspi_engine::game::Game::new();
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"].iter().take(plies) {
        let mv = game.position().parse_uci_move(uci).expect("move");
        game.play(mv).expect("play");
    }
    let mut saved = SavedGame::new(GameMode::TwoPlayers, game);
    saved.id = 7;
    saved
}

#[test]
fn a_damaged_save_falls_back_to_the_one_before() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = AutosaveStore::new(dir.path());
    for plies in 1..=4 {
        store.save(&game_of(plies)).expect("save");
    }
    // The newest file is damaged (one bad write): the save before it is kept.
    let path = dir.path().join("autosave.toml");
    let mut bytes = fs::read(&path).expect("read");
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x20;
    fs::write(&path, bytes).expect("write");
    let mut reader = AutosaveStore::new(dir.path());
    match reader.load() {
        LoadOutcome::Recovered {
            reason,
            fallback: Some(earlier),
            ..
        } => {
            assert!(matches!(reason, AutosaveError::Checksum), "{reason:?}");
            assert_eq!(earlier.game.moves().len(), 3);
        }
        other => panic!("expected the previous save, got {other:?}"),
    }
    // Saving on continues the sequence of the save it fell back to.
    assert_eq!(reader.sequence(), 3);
    // The two backups damaged too: nothing good is left, a new game starts.
    for backup in reader.backups() {
        fs::write(&backup, b"garbage").expect("write");
    }
    fs::write(&path, b"garbage").expect("write");
    match AutosaveStore::new(dir.path()).load() {
        LoadOutcome::Recovered { fallback: None, .. } => {}
        other => panic!("expected no fallback, got {other:?}"),
    }
}

#[test]
fn a_power_cut_between_the_renames_leaves_the_backup_as_the_newest_save() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = AutosaveStore::new(dir.path());
    store.save(&game_of(1)).expect("save");
    store.save(&game_of(2)).expect("save");
    // As if cut after `autosave.toml` became `autosave.1.toml`, before the new file arrived.
    fs::rename(dir.path().join("autosave.toml"), &store.backups()[0]).expect("rename");
    let mut reader = AutosaveStore::new(dir.path());
    match reader.load() {
        LoadOutcome::Restored(game) => assert_eq!(game.game.moves().len(), 2),
        other => panic!("expected the backup restored, got {other:?}"),
    }
}

#[test]
fn the_app_goes_on_from_the_save_before_and_says_so_in_plain_words() {
    use chesspi::app::model::mode::GameSetup;
    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = AutosaveStore::new(dir.path());
    for plies in 1..=3 {
        store.save(&game_of(plies)).expect("save");
    }
    fs::write(dir.path().join("autosave.toml"), b"half a file").expect("write");
    let restored = chesspi::app::saving::restore(
        &mut AutosaveStore::new(dir.path()),
        (chesspi_engine::game::Game::new(), GameSetup::FIRST_START),
    );
    assert_eq!(restored.game.moves().len(), 2);
    assert_eq!(
        restored.identity.map(|i| i.id),
        Some(7),
        "the same game goes on"
    );
    let notice = restored.notice.expect("the player is told");
    assert_eq!(
        notice,
        "The last save was damaged, so the game goes on from the move before it."
    );
    assert!(!notice.contains('/') && !notice.contains("checksum"));
}

#[test]
fn the_turned_board_is_kept() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = AutosaveStore::new(dir.path());
    let mut saved = game_of(2);
    saved.flipped = true;
    store.save(&saved).expect("save");
    assert!(restored(&mut AutosaveStore::new(dir.path())).flipped);
    saved.flipped = false;
    store.save(&saved).expect("save");
    assert!(!restored(&mut AutosaveStore::new(dir.path())).flipped);
}

/// The game's coach comes back with it (a power cut loses nothing the user saw); a value the
/// app never writes is refused.
#[test]
fn the_games_coach_is_kept() {
    use chesspi_engine::coach::CoachLevel;
    let dir = tempfile::tempdir().expect("tempdir");
    let mut store = AutosaveStore::new(dir.path());
    let mut saved = game_of(2);
    assert_eq!(restored_after(&mut store, &saved).coach, CoachLevel::Off);
    saved.coach = CoachLevel::Mistakes;
    assert_eq!(
        restored_after(&mut store, &saved).coach,
        CoachLevel::Mistakes
    );
    let body = body_of(&saved);
    assert!(body.contains("coach = \"mistakes\""), "{body}");
    let bad = seal(&body.replace("\"mistakes\"", "\"always\""));
    assert!(matches!(
        decode(bad.as_bytes()),
        Err(AutosaveError::BadValue { key: "coach", .. })
    ));
}

fn restored_after(store: &mut AutosaveStore, saved: &SavedGame) -> SavedGame {
    store.save(saved).expect("save");
    restored(&mut AutosaveStore::new(store.path().parent().expect("dir")))
}

/// A game without a computer (two players, a network game) has no level of its own: after a
/// restart the device keeps the level it starts with (the configured default), so the next
/// game against the computer is offered at it, not at the built-in default.
#[test]
fn a_game_without_a_computer_keeps_the_devices_level() {
    use chesspi::app::model::mode::GameSetup;
    let level = Level::new(8).expect("level");
    let start = GameSetup {
        level,
        ..GameSetup::FIRST_START
    };
    assert_ne!(level, Level::DEFAULT);
    let lan = GameMode::Lan {
        local: Color::White,
        peer: "Anna".to_string(),
        link: Some(chesspi::storage::LanLink {
            game_id: "g1".to_string(),
            host: Some("192.168.1.20:7780".to_string()),
            peer_rating: None,
        }),
    };
    for mode in [GameMode::TwoPlayers, lan] {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut saved = game_of(2);
        saved.mode = mode.clone();
        AutosaveStore::new(dir.path()).save(&saved).expect("save");
        let restored = chesspi::app::saving::restore(
            &mut AutosaveStore::new(dir.path()),
            (Game::new(), start),
        );
        assert_eq!(restored.game.moves().len(), 2, "{mode:?}");
        assert_eq!(restored.setup.level, level, "{mode:?}");
    }
}

/// A network game keeps the partner's rating over a restart; a rating that does not read
/// leaves the game unrated but keeps it; a save from before ratings has none.
#[test]
fn a_network_games_partner_rating_is_kept_or_dropped() {
    use chesspi::storage::peer_rating::PeerRating;
    let mode = GameMode::Lan {
        local: Color::Black,
        peer: "Ben".to_string(),
        link: Some(chesspi::storage::LanLink {
            game_id: "g1".to_string(),
            host: None,
            peer_rating: PeerRating::new(1400.5, 60.0),
        }),
    };
    let saved = SavedGame::new(mode, game_with("e2e4"));
    let body = body_of(&saved);
    assert!(body.contains("lan_rating = \"1400.5 60\""), "{body}");
    let rating_of = |body: &str| match decode(seal(body).as_bytes()).expect("decodes").0.mode {
        GameMode::Lan {
            link: Some(link), ..
        } => link.peer_rating,
        other => panic!("{other:?}"),
    };
    assert_eq!(rating_of(&body), PeerRating::new(1400.5, 60.0));
    for bad in ["", "1400.5", "1400.5 0", "-3 60", "inf 60"] {
        assert_eq!(rating_of(&body.replace("1400.5 60", bad)), None, "{bad:?}");
    }
    let older: String = body
        .lines()
        .filter(|l| !l.starts_with("lan_rating"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(rating_of(&older), None);
}
