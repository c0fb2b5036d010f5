//! Player statistics: Elo arithmetic, counting rules, and the file surviving damage.

use std::fs;

use chesspi::storage::glicko;
use chesspi::storage::stats::{
    INITIAL_RATING, LEVEL_DEVIATION, PROVISIONAL_DEVIATION, expected_score,
};
use chesspi::storage::{GameMode, PlayerResult, SavedGame, Stats, StatsStore};
use chesspi_engine::Color;
use chesspi_engine::game::Game;

mod support;
use support::games::{game_with, level};

#[test]
fn a_result_moves_the_rating_by_glicko_2_against_the_levels_label() {
    assert!((expected_score(1200.0, 1200.0) - 0.5).abs() < 1e-12);
    assert!((expected_score(1200.0, 1400.0) - 0.240_253).abs() < 1e-6);

    // The levels' Elo come from calibration matches, so the expected values are derived from
    // them (Glickman's own example is checked in `storage::glicko`).
    for (n, result, score) in [
        (3, PlayerResult::Win, 1.0),
        (4, PlayerResult::Win, 1.0),
        (1, PlayerResult::Loss, 0.0),
        (7, PlayerResult::Draw, 0.5),
    ] {
        let mut stats = Stats::new();
        assert_eq!(stats.rating(), INITIAL_RATING);
        let start = stats.glicko();
        let change = stats.record(level(n), result);
        let game = glicko::Game {
            opponent: f64::from(level(n).elo()),
            opponent_deviation: LEVEL_DEVIATION,
            score,
        };
        let want = start.after(&[game], glicko::TAU);
        assert_eq!(stats.glicko(), want, "level {n}");
        assert_eq!(change.before, 1000);
        assert_eq!(f64::from(change.after), want.rating.round());
        assert!(
            want.deviation < start.deviation,
            "a game makes the rating surer"
        );
    }

    // Beating a stronger level gains more than beating a weaker one.
    let mut weak = Stats::new();
    weak.record(level(1), PlayerResult::Win);
    let mut strong = Stats::new();
    strong.record(level(8), PlayerResult::Win);
    assert!(strong.rating() - INITIAL_RATING > 2.0 * (weak.rating() - INITIAL_RATING));
}

#[test]
fn the_rating_settles_as_its_deviation_shrinks() {
    let mut stats = Stats::new();
    let first = stats.record(level(3), PlayerResult::Win);
    let mut games = 1;
    while stats.summary().provisional {
        stats.record(level(3), PlayerResult::Draw);
        games += 1;
        assert!(games < 30, "provisional after {games} games");
    }
    assert!(stats.glicko().deviation <= PROVISIONAL_DEVIATION);
    // The same win moves a settled rating far less than the first.
    let before = stats.rating();
    stats.record(level(3), PlayerResult::Win);
    let later = stats.rating() - before;
    let early = f64::from(first.after - first.before);
    assert!(later > 0.0 && later * 4.0 < early, "{later} vs {early}");
}

#[test]
fn summary_counts_per_level_and_in_total() {
    let mut stats = Stats::new();
    stats.record(level(2), PlayerResult::Win);
    stats.record(level(2), PlayerResult::Loss);
    stats.record(level(10), PlayerResult::Loss);
    stats.record(level(5), PlayerResult::Draw);
    let s = stats.summary();
    assert!(s.provisional);
    assert_eq!(s.rated_games, 4);
    assert_eq!(s.levels.len(), 10);
    assert_eq!(s.levels[1].level, level(2));
    assert_eq!((s.levels[1].record.wins, s.levels[1].record.losses), (1, 1));
    assert_eq!(s.levels[9].record.losses, 1);
    assert_eq!(s.levels[4].record.draws, 1);
    assert_eq!(s.levels[4].level_elo, level(5).elo());
    assert_eq!((s.total.wins, s.total.draws, s.total.losses), (1, 1, 2));
    assert_eq!(s.total.games(), 4);
}

fn finished_vs_computer(human: Color) -> SavedGame {
    let game = game_with("f2f3 e7e5 g2g4 d8h4");
    SavedGame::new(
        GameMode::VsComputer {
            human,
            level: level(6),
        },
        game,
    )
}

#[test]
fn only_finished_games_against_the_computer_count_and_only_once() {
    let mut stats = Stats::new();
    let lost = finished_vs_computer(Color::White);
    assert_eq!(
        PlayerResult::of_game(&lost),
        Some((level(6), PlayerResult::Loss))
    );
    assert!(stats.record_game(&lost).is_some());
    assert!(stats.record_game(&lost).is_none(), "counted twice");
    let won = finished_vs_computer(Color::Black);
    assert!(stats.record_game(&won).is_some());
    assert_eq!(stats.level_record(level(6)).wins, 1);
    assert_eq!(stats.level_record(level(6)).losses, 1);

    let mut two = finished_vs_computer(Color::White);
    two.mode = GameMode::TwoPlayers;
    assert!(stats.record_game(&two).is_none());
    let unfinished = SavedGame::new(
        GameMode::VsComputer {
            human: Color::White,
            level: level(6),
        },
        Game::new(),
    );
    assert!(stats.record_game(&unfinished).is_none());
    assert_eq!(stats.summary().rated_games, 2);
}

#[test]
fn store_round_trip_and_damage_restarts_the_record() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = StatsStore::new(dir.path());
    let fresh = store.load();
    assert!(fresh.recovered.is_none());
    assert_eq!(fresh.value, Stats::new());

    let mut stats = Stats::new();
    stats.record(level(4), PlayerResult::Win);
    stats.record_game(&finished_vs_computer(Color::White));
    store.save(&stats).expect("save");
    let loaded = store.load();
    assert!(loaded.recovered.is_none());
    assert_eq!(loaded.value, stats);
    // The duplicate guard survives a restart.
    let mut again = loaded.value;
    let lost = finished_vs_computer(Color::White);
    assert!(again.record_game(&lost).is_some());

    let good = fs::read_to_string(store.path()).expect("read");
    let bad_files: Vec<Vec<u8>> = vec![
        Vec::new(),
        good.as_bytes()[..good.len() / 2].to_vec(),
        vec![0xff; 50],
        good.replace("rating = ", "rating = 9").into_bytes(),
    ];
    for bad in bad_files {
        fs::write(store.path(), &bad).expect("write");
        let loaded = store.load();
        let recovery = loaded.recovered.expect("recovered");
        let aside = recovery.quarantined_path.as_ref().expect("set aside");
        assert_eq!(fs::read(aside).expect("read"), bad);
        assert!(!recovery.to_string().is_empty());
        assert_eq!(loaded.value, Stats::new());
        assert!(!store.path().exists());
    }
    // Saving after a restart works.
    store.save(&stats).expect("save");
    assert_eq!(store.load().value, stats);
}

#[test]
fn a_game_from_a_set_up_position_is_not_rated() {
    // White mates at once from a set-up position: a win, but not against the level's play.
    let start =
        chesspi_engine::Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").expect("fen");
    let mut game = Game::from_position(start);
    let mv = game.position().parse_uci_move("a1a8").expect("move");
    game.play(mv).expect("play");
    assert!(game.is_over());
    let saved = SavedGame::new(
        GameMode::VsComputer {
            human: Color::White,
            level: level(6),
        },
        game,
    );
    assert_eq!(PlayerResult::of_game(&saved), None);
    let mut stats = Stats::new();
    assert!(stats.record_game(&saved).is_none());
    assert_eq!(stats.summary().rated_games, 0);
}

#[test]
fn a_game_whose_level_or_sides_changed_is_not_rated() {
    let mut lost = finished_vs_computer(Color::White);
    lost.rated = false;
    assert_eq!(PlayerResult::of_game(&lost), None);
    assert!(Stats::new().record_game(&lost).is_none());
}

#[test]
fn a_game_the_player_never_moved_in_is_aborted_not_rated() {
    let vs = |human: Color, game: Game| {
        SavedGame::new(
            GameMode::VsComputer {
                human,
                level: level(3),
            },
            game,
        )
    };
    // Black's flag falls before Black's first move (the computer opened): aborted.
    let mut flagged = game_with("e2e4");
    flagged.flag(Color::Black).expect("flag");
    assert_eq!(PlayerResult::of_game(&vs(Color::Black, flagged)), None);
    // White resigns before moving: aborted too.
    let mut resigned = Game::new();
    resigned.resign(Color::White).expect("resign");
    let mut stats = Stats::new();
    assert!(stats.record_game(&vs(Color::White, resigned)).is_none());
    assert_eq!(stats.summary().rated_games, 0);
    // One move of the player's is enough for the game to count.
    let mut moved = game_with("e2e4 e7e5");
    moved.flag(Color::Black).expect("flag");
    assert_eq!(
        PlayerResult::of_game(&vs(Color::Black, moved)),
        Some((level(3), PlayerResult::Loss))
    );
}
