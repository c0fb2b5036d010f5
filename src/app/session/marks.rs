//! A game's analysis as the review screen uses it, as plain data: the evaluation of every
//! position (the graph), the class of every move (the marks), the better move at each bad
//! one, and each side's accuracy. Built from a fresh [`GameAnalysis`] or read back from the
//! annotated PGN the archive keeps (`{ [%eval 0.17] [%class best] }`, `$2`, `Nf3 was
//! best.`): both give the same marks, so a restart shows what was shown before it.

use chesspi_engine::analysis::{Eval, GameAnalysis, MoveClass, accuracy_tag, classify};
use chesspi_engine::san::parse_san;
use chesspi_engine::{Color, Move, Position};

/// The graph's range: evaluations beyond ±6 pawns are drawn at the edge, as mates are.
pub const GRAPH_CLIP_CP: i32 = 600;

/// What the review screen shows of an analysis.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysisMarks {
    /// One per position (the start, then after each move); `None` where unknown.
    pub evals: Vec<Option<Eval>>,
    /// One per move.
    pub classes: Vec<MoveClass>,
    /// One per move: the better move in the position before it, for bad moves.
    pub better: Vec<Option<Move>>,
    pub white_accuracy: Option<f64>,
    pub black_accuracy: Option<f64>,
}

impl AnalysisMarks {
    pub fn from_analysis(a: &GameAnalysis) -> AnalysisMarks {
        AnalysisMarks {
            evals: a.positions.iter().map(|p| Some(p.eval)).collect(),
            classes: a.moves.iter().map(|m| m.class).collect(),
            better: a
                .moves
                .iter()
                .map(|m| {
                    m.better
                        .as_ref()
                        .and_then(|l| l.first().copied())
                        .filter(|_| m.class.is_bad())
                })
                .collect(),
            // As the tags store them: rounded once more for the screen, the same percent
            // shows after a restart (81.46 would show 81 now and, stored as 81.5, 82 then).
            white_accuracy: a.white.accuracy.map(as_stored),
            black_accuracy: a.black.accuracy.map(as_stored),
        }
    }

    /// Reads an analysis back from annotated PGN movetext of the game played from `start`
    /// with `moves`: `None` unless every move carries an `[%eval]` (an unanalysed game).
    pub fn from_pgn(
        text: &str,
        start: &Position,
        moves: &[Move],
        tags: &[(String, String)],
    ) -> Option<AnalysisMarks> {
        let (opening, notes) = main_line_notes(text);
        if moves.is_empty() || notes.len() < moves.len() {
            return None;
        }
        // Files written before the start's evaluation was stored have none: unknown.
        let mut evals = vec![opening.eval.map(|e| mate_now(e, !start.turn()))];
        let mut classes = Vec::with_capacity(moves.len());
        let mut better = Vec::with_capacity(moves.len());
        let mut pos = *start;
        for (note, &mv) in notes.iter().zip(moves) {
            let mover = pos.turn();
            let eval = mate_now(note.eval?, mover);
            let before = evals.last().copied().flatten();
            evals.push(Some(eval));
            let class = note
                .class
                .or_else(|| note.nags.iter().find_map(|&n| class_of_nag(n)))
                .unwrap_or_else(|| unstored_class(before, eval, mover));
            classes.push(class);
            better.push(
                note.best
                    .as_deref()
                    .and_then(|san| parse_san(&pos, san).ok())
                    .filter(|_| class.is_bad()),
            );
            pos.play_unchecked(mv);
        }
        let accuracy = |name: &str| {
            tags.iter()
                .find(|(n, _)| n == name)
                .and_then(|(_, v)| v.parse::<f64>().ok())
        };
        Some(AnalysisMarks {
            evals,
            classes,
            better,
            white_accuracy: accuracy("WhiteAccuracy"),
            black_accuracy: accuracy("BlackAccuracy"),
        })
    }

    pub fn moves(&self) -> usize {
        self.classes.len()
    }

    /// The graph: one value per position in -1..=1 (White's advantage upward), evaluations
    /// clipped to ±[`GRAPH_CLIP_CP`], mates at the edge; an unknown one repeats the one before.
    pub fn graph(&self) -> Vec<f32> {
        let mut last = 0.0;
        self.evals
            .iter()
            .map(|e| {
                if let Some(e) = e {
                    last = graph_value(*e);
                }
                last
            })
            .collect()
    }

    /// The class of the move that led to position `ply` (1-based), if known.
    pub fn class_at(&self, ply: usize) -> Option<MoveClass> {
        ply.checked_sub(1)
            .and_then(|i| self.classes.get(i).copied())
    }

    /// The better move at the bad move that led to position `ply`.
    pub fn better_at(&self, ply: usize) -> Option<Move> {
        ply.checked_sub(1)
            .and_then(|i| self.better.get(i).copied().flatten())
    }

    /// The ply of the next mistake or blunder after `ply`, from the start again after the
    /// last one; `None` when the game has none.
    pub fn next_mistake(&self, ply: usize) -> Option<usize> {
        let bad: Vec<usize> = (1..=self.moves())
            .filter(|&p| self.class_at(p).is_some_and(|c| c >= MoveClass::Mistake))
            .collect();
        bad.iter()
            .copied()
            .find(|&p| p > ply)
            .or(bad.first().copied())
    }

    /// The side's accuracy in percent.
    pub fn accuracy(&self, side: Color) -> Option<f64> {
        match side {
            Color::White => self.white_accuracy,
            Color::Black => self.black_accuracy,
        }
    }
}

/// An accuracy as its tag stores it (one decimal).
fn as_stored(accuracy: f64) -> f64 {
    accuracy_tag(accuracy).parse().unwrap_or(accuracy)
}

/// `#0` (mated now) names no side: `winner` gave the mate (the side that just moved).
fn mate_now(eval: Eval, winner: Color) -> Eval {
    match eval {
        Eval::Mate { moves: 0, .. } => Eval::Mate { winner, moves: 0 },
        other => other,
    }
}

/// The class of a move without a NAG in a file written before classes were stored
/// (`[%class ...]`): best or good, and which one the evaluations cannot always tell, as the
/// search's own move was best whatever they said. So: what they give when it is best, or
/// when they call it bad (no NAG, so it was the search's move); good otherwise, and good
/// without the evaluation before it.
fn unstored_class(before: Option<Eval>, after: Eval, mover: Color) -> MoveClass {
    match before.map(|b| classify(b, after, mover, false)) {
        None | Some(MoveClass::Good) => MoveClass::Good,
        Some(_) => MoveClass::Best,
    }
}

/// The mark written after a move of this class: `?!`, `?`, `??`, or nothing.
pub fn mark(class: MoveClass) -> &'static str {
    match class {
        MoveClass::Inaccuracy => "?!",
        MoveClass::Mistake => "?",
        MoveClass::Blunder => "??",
        MoveClass::Best | MoveClass::Good => "",
    }
}

/// White's area of the graph as SVG path commands in a 1000 x 100 box: from the bottom up
/// to each value (-1 at the bottom, 1 at the top), evenly across; "" without values.
pub fn area_path(values: &[f32]) -> String {
    if values.is_empty() {
        return String::new();
    }
    let last = (values.len() - 1).max(1) as f32;
    let mut path = String::from("M 0 100");
    for (i, v) in values.iter().enumerate() {
        let x = i as f32 * 1000.0 / last;
        let y = 50.0 - v.clamp(-1.0, 1.0) * 50.0;
        path.push_str(&format!(" L {x:.1} {y:.1}"));
    }
    if values.len() == 1 {
        path.push_str(&format!(
            " L 1000 {:.1}",
            50.0 - values[0].clamp(-1.0, 1.0) * 50.0
        ));
    }
    path.push_str(" L 1000 100 Z");
    path
}

/// An evaluation on the graph's scale, -1..=1.
pub fn graph_value(e: Eval) -> f32 {
    match e {
        Eval::Cp(cp) => cp.clamp(-GRAPH_CLIP_CP, GRAPH_CLIP_CP) as f32 / GRAPH_CLIP_CP as f32,
        Eval::Mate {
            winner: Color::White,
            ..
        } => 1.0,
        Eval::Mate { .. } => -1.0,
    }
}

fn class_of_nag(nag: u8) -> Option<MoveClass> {
    match nag {
        6 => Some(MoveClass::Inaccuracy),
        2 => Some(MoveClass::Mistake),
        4 => Some(MoveClass::Blunder),
        _ => None,
    }
}

/// What follows one main-line move.
#[derive(Debug, Default, Clone, PartialEq)]
struct MoveNote {
    eval: Option<Eval>,
    nags: Vec<u8>,
    /// The SAN of "X was best." in the comment.
    best: Option<String>,
    /// `[%class ...]` in the comment.
    class: Option<MoveClass>,
}

/// The note on the start position (the comment before the first move) and the notes after
/// each main-line move of the first game in `text`, in order. Comments and NAGs inside
/// variations are skipped; tag lines are skipped.
fn main_line_notes(text: &str) -> (MoveNote, Vec<MoveNote>) {
    let mut opening = MoveNote::default();
    let mut notes: Vec<MoveNote> = Vec::new();
    let mut depth = 0usize;
    let mut rest = text;
    // Where a line starts: a `%` there escapes the whole line, as for the PGN reader.
    let mut line_start = true;
    while let Some(c) = rest.chars().next() {
        // Every step below consumes at least this character: the loop always ends.
        let after_c = rest.get(c.len_utf8()..).unwrap_or("");
        let at_line_start = std::mem::replace(&mut line_start, c == '\n');
        match c {
            '%' if at_line_start => {
                rest = after_c.split_once('\n').map_or("", |(_, r)| r);
                line_start = true;
            }
            '[' if !notes.is_empty() || depth > 0 => break,
            '[' | ';' => {
                rest = after_c.split_once('\n').map_or("", |(_, r)| r);
                line_start = true;
            }
            '{' => {
                let (comment, after) = after_c.split_once('}').unwrap_or((after_c, ""));
                if depth == 0 {
                    read_comment(comment, notes.last_mut().unwrap_or(&mut opening));
                }
                rest = after;
            }
            '(' => {
                depth += 1;
                rest = after_c;
            }
            ')' => {
                depth = depth.saturating_sub(1);
                rest = after_c;
            }
            // A stray `}` (the PGN reader refuses it in a game, but not after its result).
            '}' => rest = after_c,
            c if c.is_whitespace() => rest = after_c,
            _ => {
                let end = rest
                    .find(|c: char| c.is_whitespace() || "{}();".contains(c))
                    .unwrap_or(rest.len());
                let (word, after) = rest.split_at(end);
                rest = after;
                if depth > 0 {
                    continue;
                }
                if let Some(nag) = word.strip_prefix('$') {
                    if let (Ok(n), Some(note)) = (nag.parse(), notes.last_mut()) {
                        note.nags.push(n);
                    }
                    continue;
                }
                if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
                    break;
                }
                let san = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
                if san.is_empty() {
                    continue;
                }
                notes.push(MoveNote::default());
            }
        }
    }
    (opening, notes)
}

fn read_comment(comment: &str, note: &mut MoveNote) {
    let command = |name: &str| {
        let (_, after) = comment.split_once(name)?;
        after.split_once(']').map(|(value, _)| value.trim())
    };
    if let Some(value) = command("[%eval ") {
        note.eval = value.parse().ok();
    }
    if let Some(value) = command("[%class ") {
        note.class = MoveClass::from_code(value);
    }
    if let Some((before, _)) = comment.split_once(" was best") {
        note.best = before.split_whitespace().last().map(str::to_string);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesspi_engine::pgn::read_games;

    fn review(classes: &[MoveClass]) -> AnalysisMarks {
        AnalysisMarks {
            evals: vec![Some(Eval::Cp(0)); classes.len() + 1],
            classes: classes.to_vec(),
            better: vec![None; classes.len()],
            white_accuracy: None,
            black_accuracy: None,
        }
    }

    #[test]
    fn graph_values_are_clipped_and_mates_sit_at_the_edge() {
        let white_mates = Eval::Mate {
            winner: Color::White,
            moves: 3,
        };
        let black_mates = Eval::Mate {
            winner: Color::Black,
            moves: 0,
        };
        let cases = [
            (Eval::Cp(0), 0.0),
            (Eval::Cp(300), 0.5),
            (Eval::Cp(-150), -0.25),
            (Eval::Cp(2000), 1.0),
            (Eval::Cp(-900), -1.0),
            (white_mates, 1.0),
            (black_mates, -1.0),
        ];
        for (eval, want) in cases {
            assert_eq!(graph_value(eval), want, "{eval:?}");
        }
    }

    #[test]
    fn the_white_area_runs_from_the_bottom_through_every_value() {
        let cases: [(&[f32], &str); 3] = [
            (&[], ""),
            (
                &[0.0, 1.0, -1.0],
                "M 0 100 L 0.0 50.0 L 500.0 0.0 L 1000.0 100.0 L 1000 100 Z",
            ),
            (&[0.5], "M 0 100 L 0.0 25.0 L 1000 25.0 L 1000 100 Z"),
        ];
        for (values, want) in cases {
            assert_eq!(area_path(values), want, "{values:?}");
        }
    }

    #[test]
    fn unknown_evaluations_repeat_the_one_before() {
        let mut r = review(&[MoveClass::Good, MoveClass::Good]);
        r.evals = vec![None, Some(Eval::Cp(300)), None];
        assert_eq!(r.graph(), vec![0.0, 0.5, 0.5]);
    }

    #[test]
    fn next_mistake_skips_inaccuracies_and_wraps() {
        use MoveClass::*;
        let r = review(&[Good, Inaccuracy, Mistake, Best, Blunder, Good]);
        let cases = [
            (0, Some(3)),
            (3, Some(5)),
            (4, Some(5)),
            (5, Some(3)),
            (6, Some(3)),
        ];
        for (ply, want) in cases {
            assert_eq!(r.next_mistake(ply), want, "after ply {ply}");
        }
        assert_eq!(review(&[Good, Inaccuracy]).next_mistake(0), None);
    }

    #[test]
    fn marks_and_classes_by_ply() {
        use MoveClass::*;
        let r = review(&[Blunder, Inaccuracy, Good]);
        let cases = [
            (0, None),
            (1, Some(Blunder)),
            (2, Some(Inaccuracy)),
            (4, None),
        ];
        for (ply, want) in cases {
            assert_eq!(r.class_at(ply), want, "ply {ply}");
        }
        assert_eq!(
            [Best, Good, Inaccuracy, Mistake, Blunder].map(mark),
            ["", "", "?!", "?", "??"]
        );
    }

    #[test]
    fn reads_back_what_the_engine_writes() {
        let text = "[Event \"x\"]\n[WhiteAccuracy \"81.5\"]\n\n\
            1. f3 { [%eval 0.10] } 1... e5 { [%eval 0.20] } 2. g4 $4 { [%eval #-1] Blunder. \
            Nc3 was best. } ( 2. Nc3 Nc6 ) 2... Qh4# { [%eval #0] } 0-1\n";
        let game = read_games(text).remove(0).unwrap();
        let r = AnalysisMarks::from_pgn(text, &game.start, &game.moves, &game.tags).unwrap();
        assert_eq!(r.classes[2], MoveClass::Blunder);
        assert_eq!(r.classes[0], MoveClass::Good);
        assert_eq!(r.evals[1], Some(Eval::Cp(10)));
        assert_eq!(
            r.evals[3],
            Some(Eval::Mate {
                winner: Color::Black,
                moves: 1
            })
        );
        // `#0` is the mate on the board: Black gave it.
        assert_eq!(
            r.evals[4],
            Some(Eval::Mate {
                winner: Color::Black,
                moves: 0
            })
        );
        let mut before = game.start;
        for &mv in &game.moves[..2] {
            before.play_unchecked(mv);
        }
        assert_eq!(r.better[2], Some(parse_san(&before, "Nc3").unwrap()));
        assert_eq!(r.white_accuracy, Some(81.5));
        assert_eq!(r.black_accuracy, None);
    }

    #[test]
    fn stored_classes_and_the_start_evaluation_are_read() {
        use MoveClass::*;
        // The classes as stored, whatever the evaluations would say (e5 loses on them).
        let text = "[Event \"x\"]\n\n{ [%eval 0.15] } 1. e4 { [%eval 0.20] [%class best] } \
            1... e5 { [%eval 2.00] [%class good] } 2. Nf3 $6 { [%eval 1.80] [%clk 0:01:00] } \
            2... Nc6 { [%eval 1.90] [%class best] [%clk 0:01:00] } *\n";
        let game = read_games(text).remove(0).unwrap();
        let r = AnalysisMarks::from_pgn(text, &game.start, &game.moves, &game.tags).unwrap();
        assert_eq!(r.classes, [Best, Good, Inaccuracy, Best]);
        assert_eq!(r.evals[0], Some(Eval::Cp(15)));
        assert_eq!(r.graph()[0], 15.0 / 600.0);
    }

    #[test]
    fn old_files_without_classes_fall_back_to_the_evaluations() {
        use MoveClass::*;
        // Written before classes and the start's evaluation were stored. e4: nothing before
        // it to judge by, good. e5 loses on the evaluations but has no NAG: it was the
        // search's own move, best. Nf3 and Nc6 lose a little: good. The fool's mate's
        // Qh4# mates: best.
        let text = "1. e4 { [%eval 0.20] } 1... e5 { [%eval 2.00] } 2. Nf3 { [%eval 1.80] } \
            2... Nc6 { [%eval 1.90] } *\n";
        let game = read_games(text).remove(0).unwrap();
        let r = AnalysisMarks::from_pgn(text, &game.start, &game.moves, &game.tags).unwrap();
        assert_eq!(r.classes, [Good, Best, Good, Good]);
        assert_eq!(r.evals[0], None);
        assert_eq!(r.graph()[0], 0.0);
        let text = "1. f3 { [%eval 0.10] } 1... e5 { [%eval 0.20] } 2. g4 $4 { [%eval #-1] } \
            2... Qh4# { [%eval #0] } 0-1\n";
        let game = read_games(text).remove(0).unwrap();
        let r = AnalysisMarks::from_pgn(text, &game.start, &game.moves, &game.tags).unwrap();
        assert_eq!(r.classes, [Good, Good, Blunder, Best]);
    }

    #[test]
    fn an_unannotated_game_has_no_review() {
        let text = "1. f3 e5 2. g4 Qh4# 0-1\n";
        let game = read_games(text).remove(0).unwrap();
        assert_eq!(
            AnalysisMarks::from_pgn(text, &game.start, &game.moves, &game.tags),
            None
        );
    }

    /// A `%` escape line is no movetext for the PGN reader, so none for the notes either; a
    /// stray `}` outside a comment is passed over (it once stopped the reading for good,
    /// spinning the saver thread on a hand-placed file).
    #[test]
    fn escape_lines_and_stray_braces_are_passed_over() {
        let clean = "[Event \"x\"]\n\n1. f3 { [%eval 0.10] } 1... e5 { [%eval 0.20] } \
            2. g4 { [%eval -0.50] } 2... Qh4# { [%eval #0] } 0-1\n";
        let with_escape = "[Event \"x\"]\n\n1. f3 { [%eval 0.10] } 1... e5 { [%eval 0.20] }\n\
            %} an escape line { [%eval 9.99] }\n\
            2. g4 { [%eval -0.50] } 2... Qh4# { [%eval #0] } 0-1\n";
        let game = read_games(with_escape).remove(0).unwrap();
        assert_eq!(game.moves.len(), 4, "the reader skips the escape line");
        let marks = |text| AnalysisMarks::from_pgn(text, &game.start, &game.moves, &game.tags);
        assert_eq!(marks(with_escape), marks(clean));
        assert!(marks(clean).is_some());
        // Stray closing braces anywhere: the reading ends.
        let (_, notes) = main_line_notes("1. e4 } e5 }} 2. Nf3 *");
        assert_eq!(notes.len(), 3);
    }
}
