//! Search behaviour: mates found, stalemate avoided, stop honoured, determinism, levels.

use chesspi_engine::game::Game;
use chesspi_engine::level::Level;
use chesspi_engine::search::{Score, SearchLimits, SearchResult, Searcher};
use chesspi_engine::{Position, uci};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

fn search(fen: &str, limits: SearchLimits) -> SearchResult {
    let pos = Position::from_fen(fen).expect("valid FEN");
    let stop = AtomicBool::new(false);
    Searcher::new(8).search(&pos, &[], &limits, &stop, &mut |_| {})
}

fn depth(d: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(d),
        ..SearchLimits::default()
    }
}

#[test]
fn finds_mate_in_one() {
    let r = search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", depth(4));
    assert_eq!(r.best_move.unwrap().to_string(), "a1a8");
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn finds_mate_in_two_with_sacrifice() {
    // 1.Qd8+ Bxd8 2.Re8#.
    let r = search(
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
        depth(8),
    );
    assert_eq!(r.score, Score::Mate(2), "{r:?}");
    assert_eq!(r.best_move.unwrap().to_string(), "d5d8");
}

#[test]
fn mating_checks_are_never_pruned_as_futile() {
    // After the sacrifice the side to move is a queen down, far below alpha, and the mate is
    // a quiet check: futility pruning hid 1.Qg8+ Rxg8 2.Nf7# to depth 10, 1.Qd8+ to depth 5.
    for (fen, mate) in [
        ("r6k/6pp/7N/8/8/1Q6/8/6K1 w - - 0 1", "b3g8"),
        (
            "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
            "d5d8",
        ),
    ] {
        let r = search(fen, depth(3));
        assert_eq!(r.score, Score::Mate(2), "{fen}: {r:?}");
        assert_eq!(r.best_move.unwrap().to_string(), mate);
    }
}

#[test]
fn sees_being_mated() {
    // Black's only move is Kg8, then Qg7 mates.
    let r = search("7k/Q7/6K1/8/8/8/8/8 b - - 0 1", depth(5));
    assert!(matches!(r.score, Score::Mate(n) if n < 0), "{r:?}");
}

#[test]
fn avoids_stalemate_when_winning() {
    // Qg6 or Qf7 would stalemate; a winning side must keep the game going and mate.
    let fen = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let r = search(fen, depth(6));
    let mv = r.best_move.unwrap();
    let after = pos.play(mv).unwrap();
    assert!(!after.is_stalemate(), "played {mv} into stalemate");
    assert!(matches!(r.score, Score::Mate(n) if n > 0), "{r:?}");
}

#[test]
fn no_move_when_mated_or_stalemated() {
    let r = search("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", depth(3));
    assert_eq!(r.best_move, None);
    let r = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth(3));
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn wins_material() {
    // The black queen hangs to the knight.
    let r = search(
        "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        depth(5),
    );
    assert_eq!(r.best_move.unwrap().to_string(), "f3g5");
}

/// Searches the position reached from the lone-king start by `moves`, with the game's history.
fn search_after(moves: &[&str]) -> SearchResult {
    let start = Position::from_fen("4k3/8/8/8/8/8/8/2K4Q b - - 0 1").unwrap();
    let mut game = Game::from_position(start);
    for mv in moves {
        let m = uci::parse_move(game.position(), mv).unwrap();
        game.play(m).unwrap();
    }
    let stop = AtomicBool::new(false);
    Searcher::new(8).search(
        game.position(),
        game.history_hashes(),
        &depth(6),
        &stop,
        &mut |_| {},
    )
}

#[test]
fn repetition_from_game_history_is_a_draw_only_as_a_threefold() {
    // Black has a lone king against a queen. Each cycle Kd8 Qh2 Ke8 Qh1 repeats the start.
    let cycle = ["e8d8", "h1h2", "d8e8", "h2h1"];
    // After one cycle, Kd8 repeats the position after 1...Kd8 only once: White plays on,
    // so the search must not count it a draw (it used to, and gave lost positions as 0.00).
    let r = search_after(&cycle);
    assert!(matches!(r.score, Score::Cp(cp) if cp < -500), "{r:?}");
    // After two cycles Kd8 makes that position's third occurrence: a draw by rule.
    let r = search_after(&[cycle, cycle].concat());
    assert_eq!(r.best_move.unwrap().to_string(), "e8d8");
    assert_eq!(r.score, Score::Cp(0));
    // Without the history the same position is simply lost.
    let r = search("4k3/8/8/8/8/8/8/2K4Q b - - 0 1", depth(6));
    assert!(matches!(r.score, Score::Cp(cp) if cp < -500), "{r:?}");
}

#[test]
fn deterministic_at_fixed_depth_and_nodes() {
    let fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 3 8";
    let a = search(fen, depth(7));
    let b = search(fen, depth(7));
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.best_move, b.best_move);
    assert_eq!(a.pv, b.pv);
    let nodes = SearchLimits {
        nodes: Some(30_000),
        ..SearchLimits::default()
    };
    let a = search(fen, nodes.clone());
    let b = search(fen, nodes);
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.nodes, 30_000);
    assert_eq!(a.best_move, b.best_move);
}

#[test]
fn stop_is_honoured_quickly() {
    let pos = Position::startpos();
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let handle = std::thread::spawn(move || {
        let mut searcher = Searcher::new(8);
        let limits = SearchLimits {
            infinite: true,
            ..SearchLimits::default()
        };
        searcher.search(&pos, &[], &limits, &flag, &mut |_| {})
    });
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let result = handle.join().unwrap();
    let waited = asked.elapsed();
    // A few milliseconds normally; generous for a loaded CI machine.
    assert!(waited < Duration::from_millis(100), "took {waited:?}");
    assert!(result.best_move.is_some());
}

#[test]
fn movetime_is_respected() {
    let limits = SearchLimits {
        movetime: Some(Duration::from_millis(100)),
        ..SearchLimits::default()
    };
    let start = Instant::now();
    let r = search(
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 3 8",
        limits,
    );
    assert!(start.elapsed() < Duration::from_millis(400));
    assert!(r.best_move.is_some());
}

#[test]
fn every_level_plays_legal_moves() {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(8);
    searcher.set_seed(7);
    for level in Level::all() {
        // A short game of the level against itself from a middlegame position.
        let start = Position::from_fen(
            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 3 8",
        )
        .unwrap();
        let mut game = Game::from_position(start);
        let plies = if level.number() >= 9 { 1 } else { 6 };
        for _ in 0..plies {
            if game.is_over() {
                break;
            }
            let mv = searcher
                .choose_move(&game, level, &stop)
                .expect("a move while the game is on");
            assert!(game.position().is_legal(mv), "{level}: illegal {mv}");
            game.play(mv).unwrap();
        }
    }
}

#[test]
fn choose_move_and_hint_handle_finished_games() {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(1);
    let mated = Game::from_position(Position::from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").unwrap());
    assert_eq!(searcher.choose_move(&mated, Level::DEFAULT, &stop), None);
    assert_eq!(searcher.hint(&mated, &stop), None);
    let game = Game::new();
    let hint = searcher.hint(&game, &stop).unwrap();
    assert!(game.position().is_legal(hint));
}

#[test]
fn low_levels_vary_high_levels_find_the_tactic() {
    // A free queen: full strength always takes it.
    let fen = "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let game = Game::from_position(Position::from_fen(fen).unwrap());
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(8);
    for seed in 1..4 {
        searcher.set_seed(seed);
        let mv = searcher
            .choose_move(&game, Level::new(8).unwrap(), &stop)
            .unwrap();
        assert_eq!(mv.to_string(), "f3g5");
    }
    // Level 1 picks among several moves over a few tries from a quiet position.
    let game = Game::new();
    let mut seen = std::collections::HashSet::new();
    for seed in 1..20 {
        searcher.set_seed(seed);
        seen.insert(searcher.choose_move(&game, Level::MIN, &stop).unwrap());
    }
    assert!(seen.len() >= 3, "{seen:?}");
}

#[test]
fn weak_levels_report_a_line_of_the_move_they_play() {
    // A weak level often plays a move other than the best; its ponder move and line must
    // then be that move's (a GUI rejects a ponder move that is illegal after it).
    let pos =
        Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
            .expect("valid FEN");
    let stop = AtomicBool::new(false);
    let mut differed = false;
    for seed in 0..40 {
        let limits = Level::new(1).expect("level 1").limits(seed);
        let result = Searcher::new(8).search(&pos, &[], &limits, &stop, &mut |_| {});
        let best = result.best_move.expect("a move");
        assert_eq!(result.pv.first(), Some(&best), "seed {seed}");
        let after = pos.play(best).expect("legal move");
        if let Some(ponder) = result.ponder {
            assert!(
                after.is_legal(ponder),
                "seed {seed}: ponder {ponder} after {best}"
            );
        }
        let full =
            Searcher::new(8).search(&pos, &[], &depth(result.depth.max(1)), &stop, &mut |_| {});
        differed |= full.best_move != Some(best);
    }
    assert!(differed, "level 1 never played another move than the best");
}

#[test]
fn the_network_searches_soundly() {
    // The evaluation searches play with: tactics found, scores on the engine's scale.
    let network = |fen: &str, d: u32| {
        let pos = Position::from_fen(fen).expect("valid FEN");
        Searcher::new(8).search(&pos, &[], &depth(d), &AtomicBool::new(false), &mut |_| {})
    };
    let r = network(
        "rnb1kbnr/pppp1ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        5,
    );
    assert_eq!(r.best_move.unwrap().to_string(), "f3g5");
    let Score::Cp(cp) = r.score else {
        panic!("{r:?}")
    };
    // The network's centipawns are the engine's scale (×1.72 is lichess's): a queen is about 4.7
    // pawns.
    assert!(cp > 400, "a queen up: {cp}");
    let r = network(
        "r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1",
        8,
    );
    assert_eq!(r.score, Score::Mate(2), "{r:?}");
}
