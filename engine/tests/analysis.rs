//! Game analysis: planted blunders and mates found by the real search, the annotated PGN
//! (read back by the crate's reader and, where installed, python-chess), the `analyze`
//! subcommand on a file with a broken game, cancellation and errors.

use chesspi_engine::analysis::{
    AnalysisError, AnalysisLimits, Analyzer, Eval, GameAnalysis, MoveAnalysis, MoveClass,
    PositionAnalysis, RECHECK_FACTOR, VERIFY_FACTOR, positions_to_recheck, positions_to_verify,
};
use chesspi_engine::pgn::{self, GameResult, PgnGame};
use chesspi_engine::search::Threads;
use chesspi_engine::{Color, Position};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};

/// Small enough to keep the tests quick, large enough to see two-move tactics.
const TEST_NODES: u64 = 30_000;

fn limits() -> AnalysisLimits {
    AnalysisLimits {
        nodes: Some(TEST_NODES),
        movetime: None,
        depth: None,
        threads: Threads::ONE,
    }
}

fn game(movetext: &str) -> PgnGame {
    pgn::read_games(movetext)
        .pop()
        .expect("one game")
        .expect("legal game")
}

fn analyse(movetext: &str) -> (PgnGame, GameAnalysis) {
    let game = game(movetext);
    let mut analyzer = Analyzer::new(limits()).expect("bounded");
    let analysis = analyzer
        .analyse_pgn(&game, &AtomicBool::new(false), &mut |_| {})
        .expect("analysis");
    (game, analysis)
}

/// Line breaks of the PGN writer become spaces.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn classes(analysis: &GameAnalysis) -> Vec<(String, MoveClass)> {
    analysis
        .moves
        .iter()
        .map(|m| (m.san.clone(), m.class))
        .collect()
}

#[test]
fn hanging_queen_is_a_blunder_with_the_better_move() {
    let (game, analysis) = analyse("1. e4 e5 2. Nf3 Qg5 3. Nxg5 *");
    let judged = classes(&analysis);
    assert_eq!(
        judged[3],
        ("Qg5".to_string(), MoveClass::Blunder),
        "{judged:?}"
    );
    // Only the planted move is bad.
    for (i, (san, class)) in judged.iter().enumerate() {
        assert!(
            i == 3 || !class.is_bad(),
            "false alarm on {san}: {judged:?}"
        );
    }
    let blunder = &analysis.moves[3];
    assert!(blunder.loss >= 15.0, "{blunder:?}");
    assert!(blunder.cp_loss >= 500, "{blunder:?}");
    let better = blunder.better.as_ref().expect("a better line");
    assert_ne!(better[0], blunder.mv);
    assert_eq!(analysis.black.blunders, 1);
    assert_eq!(analysis.white.blunders + analysis.white.mistakes, 0);
    assert!(analysis.white.accuracy > analysis.black.accuracy);
    // White's position after the blunder is won.
    assert!(analysis.positions[4].eval.cp_for(Color::White) > 500);

    let text = flat(&analysis.to_pgn_of(&game).expect("pgn"));
    assert!(text.contains("2... Qg5 $4 { [%eval "), "{text}");
    assert!(text.contains("Blunder."), "{text}");
    assert!(
        text.contains("(2..."),
        "variation with the better move: {text}"
    );
}

#[test]
fn positions_between_two_bad_moves_are_verified() {
    use MoveClass::{Best, Blunder, Good, Inaccuracy, Mistake};
    let table: [(&[MoveClass], &[usize]); 7] = [
        (&[], &[]),
        (&[Blunder], &[]),
        (&[Good, Blunder, Good, Blunder], &[]),
        (&[Blunder, Blunder], &[1]),
        (&[Best, Mistake, Blunder, Inaccuracy], &[2]),
        (&[Inaccuracy, Blunder, Inaccuracy], &[]),
        (
            &[Mistake, Mistake, Mistake, Good, Blunder, Mistake],
            &[1, 2, 5],
        ),
    ];
    for (classes, expected) in table {
        assert_eq!(positions_to_verify(classes), expected, "{classes:?}");
    }
}

/// A judged move with only its class and loss set.
fn judged(class: MoveClass, loss: f64) -> MoveAnalysis {
    let pos = Position::startpos();
    MoveAnalysis {
        mv: pos.parse_uci_move("e2e4").expect("legal"),
        san: "e4".to_string(),
        mover: Color::White,
        class,
        loss,
        cp_loss: 0,
        accuracy: 100.0,
        better: None,
    }
}

#[test]
fn the_worst_moves_are_searched_again_while_the_budget_lasts() {
    use MoveClass::{Best, Blunder, Good, Inaccuracy, Mistake};
    // (class, loss) per move, the budget in positions, the positions searched again.
    type Row = (&'static [(MoveClass, f64)], usize, &'static [usize]);
    let table: [Row; 6] = [
        (&[], 3, &[]),
        (&[(Best, 0.0), (Good, 4.0)], 3, &[]),
        (&[(Good, 1.0), (Inaccuracy, 6.0)], 3, &[1, 2]),
        // The blunder first, then the larger of the two inaccuracies; the budget stops there.
        (
            &[
                (Inaccuracy, 6.0),
                (Good, 2.0),
                (Blunder, 30.0),
                (Inaccuracy, 9.0),
            ],
            4,
            &[2, 3, 4],
        ),
        // Neighbours share a position: three moves in a row fit in four positions.
        (
            &[(Mistake, 12.0), (Mistake, 11.0), (Inaccuracy, 5.0)],
            4,
            &[0, 1, 2, 3],
        ),
        (&[(Blunder, 20.0)], 1, &[]),
    ];
    for (moves, budget, expected) in table {
        let moves: Vec<MoveAnalysis> = moves.iter().map(|&(c, l)| judged(c, l)).collect();
        assert_eq!(
            positions_to_recheck(&moves, budget),
            expected,
            "{:?} within {budget}",
            moves.iter().map(|m| m.class).collect::<Vec<_>>()
        );
    }
}

#[test]
fn a_double_blunder_survives_the_deeper_look() {
    // 2...Qg5?? hangs the queen, 3.d3?? does not take it: both are blunders, and the position
    // between them is searched again with the larger budget.
    let (_, analysis) = analyse("1. e4 e5 2. Nf3 Qg5 3. d3 Qe7 *");
    let judged = classes(&analysis);
    assert_eq!(
        judged[3],
        ("Qg5".to_string(), MoveClass::Blunder),
        "{judged:?}"
    );
    assert_eq!(
        judged[4],
        ("d3".to_string(), MoveClass::Blunder),
        "{judged:?}"
    );
    // The first stage searches with half the budget; the positions around the blunders
    // again with RECHECK_FACTOR times it, and the one between them with VERIFY_FACTOR times.
    // (A node limit is checked every few nodes, so a search may overshoot it a little.)
    let recheck = TEST_NODES * u64::from(RECHECK_FACTOR);
    let between = &analysis.positions[4];
    assert!(between.nodes > recheck * 3 / 2, "{between:?}");
    assert!(between.nodes < 2 * TEST_NODES * u64::from(VERIFY_FACTOR));
    let before = &analysis.positions[3];
    assert!(
        before.nodes > TEST_NODES && before.nodes < recheck * 3 / 2,
        "{before:?}"
    );
    assert!(
        analysis.positions[1].nodes < TEST_NODES,
        "{:?}",
        analysis.positions[1]
    );
}

#[test]
fn mates_are_scored_and_walking_into_one_is_a_blunder() {
    // Fool's mate: 2. g4 allows mate in one, Black mates.
    let (game, analysis) = analyse("1. f3 e5 2. g4 Qh4# 0-1");
    let after = |i: usize| analysis.positions[i].eval;
    assert_eq!(
        after(3),
        Eval::Mate {
            winner: Color::Black,
            moves: 1
        }
    );
    assert_eq!(
        after(4),
        Eval::Mate {
            winner: Color::Black,
            moves: 0
        }
    );
    assert_eq!(analysis.positions[4].best_move, None);
    assert_eq!(analysis.moves[2].class, MoveClass::Blunder);
    assert_eq!(analysis.moves[3].class, MoveClass::Best);
    let text = flat(&analysis.to_pgn_of(&game).expect("pgn"));
    assert!(text.contains("2. g4 $4 { [%eval #-1] Blunder."), "{text}");
    // The mate is best; with no NAG to say so, the comment does, for reading back.
    assert!(
        text.contains("2... Qh4# { [%eval #0] [%class best] } 0-1"),
        "{text}"
    );

    // Scholar's mate: White mates in one after 3...Nf6.
    let (_, analysis) = analyse("1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0");
    assert_eq!(analysis.positions[6].eval.to_string(), "#1");
    assert_eq!(analysis.moves[5].class, MoveClass::Blunder);
    assert_eq!(analysis.black.blunders, 1);
}

#[test]
fn planted_evaluations_give_the_classes() {
    // Evaluations made up for a real game: each move's class follows from them alone.
    let game = game("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *");
    let evals = [20, 20, 20, -40, -30, -60, 120];
    let positions: Vec<PositionAnalysis> = evals
        .iter()
        .map(|&cp| PositionAnalysis {
            eval: Eval::Cp(cp),
            best_move: None,
            pv: Vec::new(),
            depth: 1,
            nodes: 1,
        })
        .collect();
    let mut positions = positions;
    // A best move without its line, and a line that is not legal (a Black move for White).
    let before_a6 =
        Position::from_fen("r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3")
            .unwrap();
    let nf6 = chesspi_engine::san::parse_san(&before_a6, "Nf6").unwrap();
    positions[5].best_move = Some(nf6);
    positions[2].pv = vec![nf6];
    let analysis = GameAnalysis::from_positions(game.start, game.moves.clone(), positions)
        .expect("consistent");
    assert_eq!(analysis.moves[5].better, Some(vec![nf6]));
    assert_eq!(analysis.positions[5].pv, [nf6]);
    assert_eq!(analysis.positions[2].best_move, None);
    assert_eq!(analysis.moves[2].better, None);
    let got: Vec<MoveClass> = analysis.moves.iter().map(|m| m.class).collect();
    use MoveClass::*;
    // Losses in lichess-scale centipawns (the engine's times 1.72) and win points: e4 and e5
    // none, Nf3 103 (9.4 points), Nc6 17, Bb5 51 (4.6), a6 310 (27.6).
    assert_eq!(got, [Best, Best, Inaccuracy, Good, Good, Blunder]);
    assert_eq!(analysis.white.inaccuracies, 1);
    assert_eq!(analysis.black.blunders, 1);
    assert_eq!(analysis.white.average_loss, Some((103.0 + 51.0) / 3.0));
    assert_eq!(analysis.black.average_loss, Some((17.0 + 310.0) / 3.0));
    assert!(analysis.white.accuracy.unwrap() > analysis.black.accuracy.unwrap());

    let short = GameAnalysis::from_positions(game.start, game.moves.clone(), Vec::new());
    assert_eq!(
        short,
        Err(AnalysisError::PositionCount {
            moves: 6,
            positions: 0
        })
    );
}

#[test]
fn annotated_pgn_reads_back_with_an_eval_after_every_move() {
    let (game, analysis) = analyse(
        "[White \"A\"]\n[Black \"B\"]\n[WhiteAccuracy \"1.0\"]\n\n\
         1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 Nbd7 5. cxd5 exd5 6. Nxd5 Nxd5 7. Bxd8 Bb4+ \
         8. Qd2 Bxd2+ 9. Kxd2 Kxd8 1-0",
    );
    let text = analysis.to_pgn_of(&game).expect("pgn");
    let back = pgn::read_games(&text);
    assert_eq!(back.len(), 1, "{text}");
    let back = back[0].clone().expect("reads back");
    assert_eq!(back.moves, game.moves);
    assert_eq!(back.result, GameResult::WhiteWins);
    assert_eq!(back.tag("White"), Some("A"));
    // The old accuracy tag is replaced, not repeated.
    let accuracy_tags = back
        .tags
        .iter()
        .filter(|(n, _)| n == "WhiteAccuracy")
        .count();
    assert_eq!(accuracy_tags, 1);
    let white: f64 = back.tag("WhiteAccuracy").unwrap().parse().unwrap();
    assert!((white - analysis.white.accuracy.unwrap()).abs() < 0.051);
    assert!(back.tag("BlackACPL").unwrap().parse::<u32>().is_ok());

    // The start position and every main-line move have their `{ [%eval X] }` with the
    // analysed value, in order.
    let movetext: String = text
        .lines()
        .skip_while(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(movetext.trim_start().starts_with("{ [%eval "), "{text}");
    let evals = main_line_evals(&movetext);
    let expected: Vec<Eval> = analysis.positions.iter().map(|p| p.eval).collect();
    assert_eq!(evals, expected, "{text}");
    // The Elephant trap: 6. Nxd5?? Nxd5 7. Bxd8 Bb4+ wins back the queen and a piece.
    assert_eq!(analysis.moves[10].class, MoveClass::Blunder, "{text}");
    assert!(flat(&text).contains("6. Nxd5 $4"), "{text}");
}

/// The `[%eval]` values outside variations, in order.
fn main_line_evals(movetext: &str) -> Vec<Eval> {
    let mut evals = Vec::new();
    let mut depth = 0usize;
    let mut rest = movetext;
    while let Some(c) = rest.chars().next() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '{' => {
                let end = rest.find('}').expect("closed comment");
                if depth == 0 {
                    let comment = &rest[..end];
                    let at = comment.find("[%eval ").expect("eval in every comment") + 7;
                    let value = &comment[at..at + comment[at..].find(']').unwrap()];
                    evals.push(value.parse::<Eval>().expect("eval value"));
                }
                rest = &rest[end..];
            }
            _ => {}
        }
        rest = &rest[c.len_utf8()..];
    }
    evals
}

#[test]
fn cancelled_and_unbounded_and_illegal() {
    let game = game("1. e4 e5 2. Nf3 Nc6 *");
    let mut analyzer = Analyzer::new(limits()).expect("bounded");
    let stop = AtomicBool::new(false);
    let mut seen = 0;
    let result = analyzer.analyse_pgn(&game, &stop, &mut |progress| {
        seen = progress.done;
        // Five first-stage searches, then room for two positions at four units each.
        assert_eq!(progress.total, 5 + 2 * 2 * RECHECK_FACTOR as usize);
        stop.store(true, Ordering::Relaxed);
    });
    assert_eq!(result, Err(AnalysisError::Cancelled));
    assert_eq!(seen, 1);

    let unbounded = AnalysisLimits {
        nodes: None,
        movetime: None,
        depth: Some(0),
        threads: Threads::ONE,
    };
    assert!(matches!(
        Analyzer::new(unbounded),
        Err(AnalysisError::Unbounded)
    ));

    // Black's move where White is to play.
    let e5 =
        chesspi_engine::san::parse_san(&Position::startpos().play(game.moves[0]).unwrap(), "e5")
            .unwrap();
    let result = analyzer.analyse(
        &Position::startpos(),
        &[e5],
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert_eq!(result, Err(AnalysisError::IllegalMove { index: 0, mv: e5 }));
}

#[test]
fn node_limited_analysis_repeats_exactly() {
    let (_, first) = analyse("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 *");
    let (_, second) = analyse("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 *");
    assert_eq!(first, second);
}

const THREE_GAMES: &str = r#"[Event "one"]

1. e4 e5 2. Nf3 Qg5 3. Nxg5 1-0

[Event "two"]

1. e4 e5 2. Ke3 Nc6 *

[Event "three"]

1. d4 d5 2. Bf4 Nf6 1/2-1/2
"#;

fn run_analyze(args: &[&str], input: &str) -> (i32, String, String) {
    // A file of its own, removed afterwards: nothing is left in the temporary directory.
    let path = std::env::temp_dir().join(format!(
        "chesspi-analysis-{}-{}.pgn",
        std::process::id(),
        args.len()
    ));
    std::fs::write(&path, input).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_chesspi-engine"))
        .arg("analyze")
        .args(args)
        .arg(&path)
        .stdin(Stdio::null())
        .output()
        .expect("engine runs");
    let _ = std::fs::remove_file(&path);
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn analyze_command_keeps_going_past_a_bad_game() {
    let (status, out, err) = run_analyze(&["--nodes", "20000", "--threads", "2"], THREE_GAMES);
    assert_eq!(status, 1, "{err}");
    assert!(
        err.contains("game 2, move 2. Ke3 (line 7): illegal"),
        "{err}"
    );
    let games: Vec<PgnGame> = pgn::read_games(&out)
        .into_iter()
        .map(|g| g.expect("output reads back"))
        .collect();
    let events: Vec<&str> = games.iter().map(|g| g.tag("Event").unwrap()).collect();
    assert_eq!(events, ["one", "three"], "{out}");
    assert_eq!(games[0].result, GameResult::WhiteWins);
    assert_eq!(games[1].result, GameResult::Draw);
    assert!(flat(&out).contains("2... Qg5 $4"), "{out}");
    // One per position (the start, then after each main-line move); variations carry none.
    assert_eq!(out.matches("[%eval ").count(), 6 + 5, "{out}");
    for game in &games {
        assert!(game.tag("WhiteAccuracy").is_some() && game.tag("BlackAccuracy").is_some());
    }

    // Moves after a fivefold repetition (the rules ended the game there) are refused with
    // the game's number; the game after it is analysed.
    let shuffle = "1. Nf3 Nf6 2. Ng1 Ng8 ".repeat(4) + "5. Nf3 Nf6 *";
    let text = format!(
        "[Event \"x\"]\n\n1. e4 *\n\n[Event \"y\"]\n\n{shuffle}\n\n[Event \"z\"]\n\n1. d4 *\n"
    );
    let (status, out, err) = run_analyze(&["--nodes", "2000"], &text);
    assert_eq!(status, 1, "{err}");
    assert!(
        err.contains("game 2: moves go on after the game ended (Draw by fivefold repetition)"),
        "{err}"
    );
    assert_eq!(pgn::read_games(&out).len(), 2, "{out}");

    // A timed game keeps its clocks beside the evaluations; a game where some move has no
    // clock keeps none (they would not line up).
    let timed = "[Event \"t\"]\n\n1. e4 { [%clk 0:05:00] } 1... e5 { [%clk 0:04:58] } 2. Nf3 \
                 { [%clk 0:04:59] } *\n\n[Event \"u\"]\n\n1. e4 { [%clk 0:05:00] } 1... e5 *\n";
    let (status, out, err) = run_analyze(&["--nodes", "2000"], timed);
    assert_eq!(status, 0, "{err}");
    let flat_out = flat(&out);
    assert_eq!(out.matches("[%clk ").count(), 3, "{out}");
    assert!(flat_out.contains("[%clk 0:04:58] }"), "{out}");
    let with_clocks = pgn::read_games_with_clocks(timed);
    assert_eq!(
        with_clocks[0].1,
        ["[%clk 0:05:00]", "[%clk 0:04:58]", "[%clk 0:04:59]"]
    );
    assert!(with_clocks[1].1.is_empty());

    let (status, _, err) = run_analyze(&["--movetime", "10", "--nodes", "5"], THREE_GAMES);
    assert_eq!(status, 2);
    assert!(err.contains("not both"), "{err}");
}

/// python-chess, the reader the format is meant for: run only where it is installed.
#[test]
fn python_chess_reads_evals_nags_and_variations() {
    let available = Command::new("python3")
        .args(["-c", "import chess.pgn"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !available {
        eprintln!("python-chess not installed: skipped (the Rust-side checks still run)");
        return;
    }
    let (game, analysis) = analyse("1. e4 e5 2. Nf3 Qg5 3. Nxg5 Bb4 4. Qh5 Bxd2+ *");
    let text = analysis.to_pgn_of(&game).expect("pgn");
    let script = r##"
import re, sys, chess.pgn
game = chess.pgn.read_game(sys.stdin)
assert not game.errors, game.errors
out = []
for node in game.mainline():
    score = node.eval()
    white = score.white()
    value = f"#{white.mate()}" if white.is_mate() else str(white.score())
    stored = re.search(r"\[%class (\w+)\]", node.comment)
    stored = stored.group(1) if stored else "-"
    out.append(f"{node.san()} {value} {sorted(node.nags)} {len(node.parent.variations) - 1} {stored}")
start = game.eval().white()
print(game.headers["WhiteAccuracy"], game.headers["BlackAccuracy"], start.score())
print("\n".join(out))
"##;
    let mut child = Command::new("python3")
        .args(["-c", script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}\n{text}");
    let stdout = String::from_utf8(output.stdout).unwrap();
    let mut lines = stdout.lines();
    let header = lines.next().unwrap();
    let Eval::Cp(start) = analysis.positions[0].eval else {
        panic!("the start is no mate");
    };
    assert_eq!(
        header,
        format!(
            "{:.1} {:.1} {start}",
            analysis.white.accuracy.unwrap(),
            analysis.black.accuracy.unwrap()
        )
    );
    for ((line, m), after) in lines.zip(&analysis.moves).zip(&analysis.positions[1..]) {
        let value = match after.eval {
            Eval::Cp(cp) => cp.to_string(),
            Eval::Mate { moves: 0, .. } => "#0".to_string(),
            Eval::Mate {
                winner: Color::White,
                moves,
            } => format!("#{moves}"),
            Eval::Mate { moves, .. } => format!("#-{moves}"),
        };
        let nags: Vec<u8> = m.class.nag().into_iter().collect();
        let variations = usize::from(m.class >= MoveClass::Mistake && m.better.is_some());
        // Best and good moves say which in the comment, bad ones by their NAG.
        let stored = if m.class.is_bad() {
            "-"
        } else {
            m.class.code()
        };
        assert_eq!(
            line,
            format!("{} {value} {nags:?} {variations} {stored}", m.san),
            "{text}"
        );
    }
}
