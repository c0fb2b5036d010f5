//! The saver thread: an analysis shown after a restart is the one shown before it (stored the
//! way the app stores it, [`Archive::annotate`], read back the way the app restores it,
//! [`stored_marks`], every move's class, label and graph value the same); an analysis gives
//! puzzles; a long import never holds up a save.

use super::*;
use crate::app::model::mode::{GameSetup, Mode};
use crate::app::screens::analysis::worker::AnalysisReport;
use crate::app::screens::{Action, Analysis, AnalysisMarks, AnalysisView, Controller, Effect};
use chesspi_engine::analysis::{Eval, GameAnalysis, MoveClass, PositionAnalysis};
use chesspi_engine::game::Game;
use chesspi_engine::level::Level;
use chesspi_engine::san::parse_san;
use chesspi_engine::{Color, Move};

const FRIEND: GameSetup = GameSetup {
    mode: Mode::Friend,
    level: Level::DEFAULT,
};

fn game_of(sans: &[&str]) -> Game {
    let mut game = Game::new();
    for san in sans {
        let mv = parse_san(game.position(), san).expect("san");
        game.play(mv).expect("legal");
    }
    game
}

/// The analysis stored into the archive and read back as after a restart.
fn stored_and_read_back(game: &Game, analysis: &GameAnalysis) -> (AnalysisMarks, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = Archive::open(dir.path()).expect("archive");
    let saved = SavedGame::new(GameMode::TwoPlayers, game.clone());
    archive.store(&saved).expect("store");
    let id = archive.annotate(saved.id, analysis).expect("annotate");
    let text = archive.read_text(&id).expect("text");
    let marks = stored_marks(&archive, saved.id).expect("the stored analysis reads back");
    (*marks, text)
}

/// What the screen shows at each ply: the analysis view and the move list's classes.
type Shown = Vec<(AnalysisView, Vec<Option<MoveClass>>)>;

/// What the screen shows at every ply.
fn shown(mut c: Controller) -> Shown {
    c.action(Action::Analyse);
    let moves = c.session().game().moves().len();
    (0..=moves)
        .map(|ply| {
            c.part(|a: &mut Analysis, cx| a.graph_tapped(cx, ply as f32 / moves as f32));
            let view = c.get::<Analysis>().view(c.session()).expect("an analysis");
            assert_eq!(view.ply, ply);
            let rows = c.game_view().move_rows();
            let classes = rows
                .iter()
                .flat_map(|r| [r.white_class, r.black_class])
                .collect();
            (view, classes)
        })
        .collect()
}

/// The screen right after the analysis finished.
fn shown_live(game: &Game, analysis: &GameAnalysis) -> Shown {
    let mut c = Controller::with_game(game.clone(), FRIEND);
    c.action(Action::Analyse);
    let id = c
        .take_effects()
        .iter()
        .find_map(|e| match e {
            Effect::Analyse { id, .. } => Some(*id),
            _ => None,
        })
        .expect("an Analyse effect");
    let report = AnalysisReport::Pass {
        id,
        analysis: Box::new(analysis.clone()),
        last: true,
    };
    c.part(|a: &mut Analysis, cx| a.report(cx, report));
    shown(c)
}

/// The screen after a restart, showing the stored analysis.
fn shown_restored(game: &Game, marks: AnalysisMarks) -> Shown {
    let mut c = Controller::with_game(game.clone(), FRIEND);
    c.part(|a: &mut Analysis, cx| a.stored_marks_found(cx.session, false, game.moves(), marks));
    assert!(c.get::<Analysis>().exists(), "the stored analysis is taken");
    shown(c)
}

fn assert_same_after_restart(game: &Game, analysis: &GameAnalysis) {
    let (stored, text) = stored_and_read_back(game, analysis);
    let live = AnalysisMarks::from_analysis(analysis);
    assert_eq!(stored.classes, live.classes, "classes\n{text}");
    assert_eq!(stored.evals, live.evals, "evaluations\n{text}");
    assert_eq!(stored.better, live.better, "better moves\n{text}");
    assert_eq!(stored, live, "{text}");
    let before = shown_live(game, analysis);
    let after = shown_restored(game, stored);
    for (ply, (b, a)) in before.iter().zip(&after).enumerate() {
        assert_eq!(a.0.line, b.0.line, "label at ply {ply}\n{text}");
        assert_eq!(a.1, b.1, "move list marks at ply {ply}\n{text}");
        assert_eq!(a.0.accuracy, b.0.accuracy, "accuracy\n{text}");
        assert_eq!(a.0.marks, b.0.marks, "graph marks\n{text}");
        assert_eq!(a.0.better, b.0.better, "arrow at ply {ply}\n{text}");
        assert_eq!(a.0.graph.len(), b.0.graph.len());
        for (i, (x, y)) in a.0.graph.iter().zip(&b.0.graph).enumerate() {
            assert!((x - y).abs() < 1e-3, "graph at {i}: {x} != {y}\n{text}");
        }
    }
    assert_eq!(after, before, "{text}");
}

#[test]
fn fools_mate_reads_back_as_it_was_shown() {
    let game = game_of(&["f3", "e5", "g4", "Qh4#"]);
    let analysis = crate::app::screens::analysis::quick_analysis(&game);
    assert_eq!(analysis.moves[3].class, MoveClass::Best, "Qh4# is best");
    assert_same_after_restart(&game, &analysis);
}

#[test]
fn every_class_and_a_mate_in_two_read_back_as_they_were_shown() {
    // Legal's mate, with evaluations and best moves planted so that every rule is used.
    let sans = [
        "e4", "e5", "Nf3", "d6", "Bc4", "Bg4", "Nc3", "g6", "Nxe5", "Bxd1", "Bxf7+", "Ke7", "Nd5#",
    ];
    let game = game_of(&sans);
    let white_mates = |moves| Eval::Mate {
        winner: Color::White,
        moves,
    };
    // Per position: White's evaluation and the search's best move there.
    let planted: [(Eval, Option<&str>); 14] = [
        (Eval::Cp(20), Some("e4")),
        (Eval::Cp(25), Some("e5")),
        // Nc3 is the search's choice, Nf3 as good: best by the evaluations.
        (Eval::Cp(30), Some("Nc3")),
        // d6 is the search's choice though the evaluation after it is worse: best.
        (Eval::Cp(30), Some("d6")),
        // Bc4 loses a little: good.
        (Eval::Cp(60), Some("d4")),
        // Bg4: an inaccuracy.
        (Eval::Cp(50), Some("Nc6")),
        // Nc3: a mistake.
        (Eval::Cp(100), Some("h3")),
        // g6: good.
        (Eval::Cp(10), Some("Nc6")),
        (Eval::Cp(30), Some("Nxe5")),
        // Bxd1 walks into mate in two: a blunder.
        (Eval::Cp(40), Some("dxe5")),
        (white_mates(2), Some("Bxf7+")),
        (white_mates(1), Some("Ke7")),
        (white_mates(1), Some("Nd5#")),
        (white_mates(0), None),
    ];
    let mut pos = *game.initial_position();
    let mut positions = Vec::new();
    for (i, (eval, best)) in planted.iter().enumerate() {
        let best: Option<Move> = best.map(|san| parse_san(&pos, san).expect("best move"));
        positions.push(PositionAnalysis {
            eval: *eval,
            best_move: best,
            pv: best.into_iter().collect(),
            depth: 1,
            nodes: 1,
        });
        if let Some(&mv) = game.moves().get(i) {
            pos.play_unchecked(mv);
        }
    }
    let analysis =
        GameAnalysis::from_positions(*game.initial_position(), game.moves().to_vec(), positions)
            .expect("consistent");
    let mut analysis = analysis;
    // An accuracy the tag rounds up across a whole percent (stored as 81.5).
    analysis.white.accuracy = Some(81.46);
    use MoveClass::*;
    let classes: Vec<MoveClass> = analysis.moves.iter().map(|m| m.class).collect();
    assert_eq!(
        classes,
        [
            Best, Best, Best, Best, Good, Inaccuracy, Mistake, Good, Best, Blunder, Best, Best,
            Best
        ]
    );
    assert_same_after_restart(&game, &analysis);
}

/// An analysis stored with a saved game gives puzzles of the player's mistakes (the
/// person's side only), written to disk and reported; the same analysis again adds none.
#[test]
fn a_stored_analysis_makes_puzzles_of_the_players_mistakes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (stores, notices) = Stores::open(dir.path());
    assert!(notices.is_empty(), "{notices:?}");
    // You (Black) against the computer: 2... Qg5?? 3. Nxg5.
    let game = game_of(&["e4", "e5", "Nf3", "Qg5", "Nxg5"]);
    let mut saved = SavedGame::new(
        GameMode::VsComputer {
            human: Color::Black,
            level: Level::DEFAULT,
        },
        game.clone(),
    );
    saved.rated = false;
    let archive = stores.archive.as_ref().expect("archive");
    archive.store(&saved).expect("store");
    let analysis = crate::app::screens::analysis::quick_analysis(&game);
    let (tx, rx) = std::sync::mpsc::channel();
    for _ in 0..2 {
        tx.send(Job::Annotate {
            game_id: saved.id,
            analysis: Box::new(analysis.clone()),
        })
        .expect("send");
    }
    tx.send(Job::Stop).expect("send");
    let reports = std::sync::Mutex::new(Vec::new());
    save_loop(stores, &rx, |r| reports.lock().expect("lock").push(r));
    let reports = reports.into_inner().expect("lock");
    let books: Vec<_> = reports
        .iter()
        .filter_map(|r| match r {
            Report::Puzzles(book, written) => Some((book.clone(), written.is_ok())),
            _ => None,
        })
        .collect();
    assert_eq!(
        books.len(),
        1,
        "puzzles once: the second analysis adds none"
    );
    let (book, written) = &books[0];
    assert!(written);
    assert_eq!(book.puzzles().len(), 1, "Black's Qg5 only");
    let puzzle = &book.puzzles()[0];
    assert_eq!(puzzle.mistake.to_string(), "d8g5");
    assert!(puzzle.blunder);
    let on_disk = crate::storage::players::PlayerFiles::new(dir.path())
        .load_puzzles(crate::storage::players::PlayerId::FIRST);
    assert!(on_disk.recovered.is_none());
    assert_eq!(on_disk.value, **book);
}

/// A long import does not hold up the saves: a move played while a big file is read is
/// on disk after one game's import, not after the file's; Cancel stops it there.
#[test]
fn an_autosave_is_answered_while_a_big_file_is_imported() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut stores, notices) = Stores::open(dir.path());
    assert!(notices.is_empty(), "{notices:?}");
    stores.import_limits.max_games = 100_000;
    let file = dir.path().join("big.pgn");
    let game = "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n";
    std::fs::write(&file, game.repeat(3000)).expect("write");
    let (tx, rx) = std::sync::mpsc::channel();
    let (reports_tx, reports) = std::sync::mpsc::channel();
    let saver = std::thread::spawn(move || {
        save_loop(stores, &rx, |r| {
            let _ = reports_tx.send(r);
        });
    });
    tx.send(Job::Import { file: file.clone() }).expect("send");
    // Wait until the import is under way.
    loop {
        match reports
            .recv_timeout(Duration::from_secs(30))
            .expect("a report")
        {
            Report::ImportProgress(_) => break,
            Report::Imported { result, .. } => panic!("done before a save: {result:?}"),
            _ => {}
        }
    }
    let sent = Instant::now();
    let saved = SavedGame::new(GameMode::TwoPlayers, game_of(&["d4"]));
    tx.send(Job::Save {
        seq: 7,
        game: Box::new(saved),
    })
    .expect("send");
    let answered = loop {
        match reports
            .recv_timeout(Duration::from_secs(30))
            .expect("a report")
        {
            Report::Saved(r) => break r,
            Report::Imported { .. } => panic!("the import finished before the save"),
            _ => {}
        }
    };
    assert_eq!(answered.seq, 7);
    assert!(answered.error.is_none());
    assert!(
        sent.elapsed() < Duration::from_secs(1),
        "{:?}",
        sent.elapsed()
    );
    tx.send(Job::CancelImport).expect("send");
    let report = loop {
        if let Report::Imported { result, .. } = reports
            .recv_timeout(Duration::from_secs(30))
            .expect("a report")
        {
            break result.expect("imported");
        }
    };
    assert_eq!(
        report.stopped,
        Some(crate::storage::archive::ImportStop::Cancelled)
    );
    assert!(report.imported.len() < 3000, "{}", report.imported.len());
    tx.send(Job::Stop).expect("send");
    saver.join().expect("saver");
}
