//! An analysed game: each move judged from the evaluations around it, each side summed up,
//! and the annotated PGN.

use super::model::{Eval, MoveClass, classify, game_accuracy, move_accuracy};
use super::{AnalysisError, PositionAnalysis};
use crate::moves::Move;
use crate::pgn::{GameResult, MoveAnnotation, PgnGame, write_annotated_game_with_start};
use crate::position::{IllegalMoveError, Position};
use crate::san;
use crate::types::Color;

/// The verdict on one move.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveAnalysis {
    pub mv: Move,
    pub san: String,
    pub mover: Color,
    pub class: MoveClass,
    /// Win probability lost, in percentage points (0 when nothing was lost).
    pub loss: f64,
    /// Centipawns lost on lichess's scale (evaluations clamped to ±1000; 0 when nothing was
    /// lost).
    pub cp_loss: i32,
    /// 0..=100.
    pub accuracy: f64,
    /// The search's line in the position before, when it preferred another move.
    pub better: Option<Vec<Move>>,
}

/// One side's totals.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SideSummary {
    pub moves: usize,
    /// Game accuracy in percent; `None` without moves.
    pub accuracy: Option<f64>,
    /// Mean centipawns (lichess's scale) lost per move; `None` without moves.
    pub average_loss: Option<f64>,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
}

/// A whole game analysed.
#[derive(Debug, Clone, PartialEq)]
pub struct GameAnalysis {
    pub start: Position,
    /// One per position: the start, then after each move.
    pub positions: Vec<PositionAnalysis>,
    /// One per move.
    pub moves: Vec<MoveAnalysis>,
    pub white: SideSummary,
    pub black: SideSummary,
}

impl GameAnalysis {
    /// Judges the moves of a game from the analysis of each of its positions (one more than
    /// moves). Principal variations are cut at their first illegal move, if any.
    ///
    /// # Errors
    /// [`AnalysisError::PositionCount`] if `positions` does not have one entry more than
    /// `moves`; [`AnalysisError::IllegalMove`] for a move not legal where it is played.
    pub fn from_positions(
        start: Position,
        moves: Vec<Move>,
        mut positions: Vec<PositionAnalysis>,
    ) -> Result<GameAnalysis, AnalysisError> {
        if positions.len() != moves.len() + 1 {
            return Err(AnalysisError::PositionCount {
                moves: moves.len(),
                positions: positions.len(),
            });
        }
        let mut pos = start;
        let mut judged = Vec::with_capacity(moves.len());
        for (index, &mv) in moves.iter().enumerate() {
            if !pos.is_legal(mv) {
                return Err(AnalysisError::IllegalMove { index, mv });
            }
            let here = &mut positions[index];
            tidy_line(&pos, here);
            let (before, best, pv) = (here.eval, here.best_move, here.pv.clone());
            let after = positions[index + 1].eval;
            judged.push(judge(&pos, mv, before, after, best, pv));
            pos.play_unchecked(mv);
        }
        if let Some(last) = positions.last_mut() {
            tidy_line(&pos, last);
        }
        let first_mover = start.turn();
        let white_wins: Vec<f64> = positions
            .iter()
            .map(|p| p.eval.win_percent(Color::White))
            .collect();
        let accuracies: Vec<f64> = judged.iter().map(|m| m.accuracy).collect();
        let (white_accuracy, black_accuracy) = game_accuracy(&white_wins, &accuracies, first_mover);
        let white = summarise(&judged, Color::White, white_accuracy);
        let black = summarise(&judged, Color::Black, black_accuracy);
        Ok(GameAnalysis {
            start,
            positions,
            moves: judged,
            white,
            black,
        })
    }

    /// The summary of `side`.
    pub fn side(&self, side: Color) -> &SideSummary {
        match side {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// What is written after each move: `[%eval]`, the class's NAG, for a bad move a word
    /// and the better move (`Blunder. Nf3 was best.`), and for mistakes and blunders the
    /// better line as a variation. A best or good move has no NAG: `[%class best]` or
    /// `[%class good]` says which, since the evaluations alone cannot (the search's own move
    /// is best whatever they say), so the stored analysis reads back as it was shown.
    pub fn annotations(&self) -> Vec<MoveAnnotation> {
        let mut pos = self.start;
        let mut notes = Vec::with_capacity(self.moves.len());
        for (m, after) in self.moves.iter().zip(self.positions.iter().skip(1)) {
            let mut note = MoveAnnotation {
                comment: format!("[%eval {}]", after.eval),
                ..MoveAnnotation::default()
            };
            if let Some(nag) = m.class.nag() {
                note.nags.push(nag);
                note.comment.push(' ');
                note.comment.push_str(m.class.name());
                note.comment.push('.');
                if let Some(&best) = m.better.as_ref().and_then(|line| line.first()) {
                    note.comment.push(' ');
                    note.comment.push_str(&san::to_san(&pos, best));
                    note.comment.push_str(" was best.");
                }
            } else {
                note.comment
                    .push_str(&format!(" [%class {}]", m.class.code()));
            }
            if let (true, Some(line)) = (m.class >= MoveClass::Mistake, &m.better) {
                note.variations.push(line.clone());
            }
            notes.push(note);
            pos.play_unchecked(m.mv);
        }
        notes
    }

    /// Tag pairs with each side's accuracy and average loss: `WhiteAccuracy`,
    /// `BlackAccuracy` (percent, one decimal), `WhiteACPL`, `BlackACPL` (centipawns) and an
    /// `Annotator`. Sides without moves get none.
    pub fn summary_tags(&self) -> Vec<(String, String)> {
        let mut tags = vec![(
            "Annotator".to_string(),
            format!("ChessPI {}", env!("CARGO_PKG_VERSION")),
        )];
        for (name, side) in [("White", &self.white), ("Black", &self.black)] {
            if let Some(accuracy) = side.accuracy {
                tags.push((format!("{name}Accuracy"), accuracy_tag(accuracy)));
            }
            if let Some(loss) = side.average_loss {
                tags.push((format!("{name}ACPL"), format!("{}", loss.round() as i64)));
            }
        }
        tags
    }

    /// The game as annotated PGN: `tags` (those [`GameAnalysis::summary_tags`] writes are
    /// replaced), the moves with [`GameAnalysis::annotations`], and `result`.
    ///
    /// # Errors
    /// [`IllegalMoveError`] cannot happen for an analysis built by this module (moves and
    /// lines are checked); it is passed on from the writer.
    pub fn to_pgn<N: AsRef<str>, V: AsRef<str>>(
        &self,
        tags: &[(N, V)],
        result: GameResult,
    ) -> Result<String, IllegalMoveError> {
        self.to_pgn_with(tags, result, &[])
    }

    fn to_pgn_with<N: AsRef<str>, V: AsRef<str>>(
        &self,
        tags: &[(N, V)],
        result: GameResult,
        kept: &[String],
    ) -> Result<String, IllegalMoveError> {
        let summary = self.summary_tags();
        let mut all: Vec<(&str, &str)> = tags
            .iter()
            .map(|(n, v)| (n.as_ref(), v.as_ref()))
            .filter(|(n, _)| !summary.iter().any(|(s, _)| s == n))
            .collect();
        all.extend(summary.iter().map(|(n, v)| (n.as_str(), v.as_str())));
        let moves: Vec<Move> = self.moves.iter().map(|m| m.mv).collect();
        let mut notes = self.annotations();
        for (note, kept) in notes.iter_mut().zip(kept) {
            if !kept.is_empty() {
                note.comment = format!("{} {kept}", note.comment);
            }
        }
        // The start position's evaluation too: the graph begins with it.
        let start_comment = self
            .positions
            .first()
            .map(|p| format!("[%eval {}]", p.eval))
            .unwrap_or_default();
        write_annotated_game_with_start(&all, &self.start, &start_comment, &moves, &notes, result)
    }

    /// [`GameAnalysis::to_pgn`] with the tags and result of the game it analysed.
    ///
    /// # Errors
    /// As [`GameAnalysis::to_pgn`].
    pub fn to_pgn_of(&self, game: &PgnGame) -> Result<String, IllegalMoveError> {
        self.to_pgn(&game.tags, game.result)
    }

    /// [`GameAnalysis::to_pgn_of`], keeping what a move's comment already said that the
    /// analysis does not replace: `kept[i]` (e.g. `[%clk 0:04:57]`) follows move `i`'s
    /// `[%eval]`, as lichess writes both.
    ///
    /// # Errors
    /// As [`GameAnalysis::to_pgn`].
    pub fn to_pgn_of_keeping(
        &self,
        game: &PgnGame,
        kept: &[String],
    ) -> Result<String, IllegalMoveError> {
        self.to_pgn_with(&game.tags, game.result, kept)
    }
}

/// An accuracy as the `WhiteAccuracy` / `BlackAccuracy` tags write it: percent, one decimal.
pub fn accuracy_tag(accuracy: f64) -> String {
    format!("{accuracy:.1}")
}

/// Makes the best move and the line agree: the line starts with the best move (a line alone
/// gives the best move) and holds legal moves only.
fn tidy_line(pos: &Position, analysis: &mut PositionAnalysis) {
    if let Some(best) = analysis.best_move
        && analysis.pv.first() != Some(&best)
    {
        // Another move's line says nothing about this one.
        analysis.pv = vec![best];
    }
    keep_legal_prefix(pos, &mut analysis.pv);
    analysis.best_move = analysis.pv.first().copied();
}

/// Cuts `line` at its first move that is not legal (a line from the hash table could hold
/// one after a hash collision).
fn keep_legal_prefix(start: &Position, line: &mut Vec<Move>) {
    let mut pos = *start;
    let legal = line
        .iter()
        .take_while(|&&mv| {
            let ok = pos.is_legal(mv);
            if ok {
                pos.play_unchecked(mv);
            }
            ok
        })
        .count();
    line.truncate(legal);
}

fn judge(
    pos: &Position,
    mv: Move,
    before: Eval,
    after: Eval,
    best: Option<Move>,
    pv: Vec<Move>,
) -> MoveAnalysis {
    let mover = pos.turn();
    let played_best = best == Some(mv);
    let class = classify(before, after, mover, played_best);
    // The search's own move loses nothing: its evaluations merely differ in depth.
    let (loss, cp_loss) = if played_best {
        (0.0, 0)
    } else {
        (
            (before.win_percent(mover) - after.win_percent(mover)).max(0.0),
            (before.cp_for(mover) - after.cp_for(mover)).max(0),
        )
    };
    let win_after = after.win_percent(mover);
    MoveAnalysis {
        mv,
        san: san::to_san(pos, mv),
        mover,
        class,
        loss,
        cp_loss,
        accuracy: move_accuracy(win_after + loss, win_after),
        better: (!played_best && !pv.is_empty()).then_some(pv),
    }
}

fn summarise(moves: &[MoveAnalysis], side: Color, accuracy: Option<f64>) -> SideSummary {
    let mine: Vec<&MoveAnalysis> = moves.iter().filter(|m| m.mover == side).collect();
    let count = |class| mine.iter().filter(|m| m.class == class).count();
    SideSummary {
        moves: mine.len(),
        accuracy,
        average_loss: (!mine.is_empty())
            .then(|| mine.iter().map(|m| f64::from(m.cp_loss)).sum::<f64>() / mine.len() as f64),
        inaccuracies: count(MoveClass::Inaccuracy),
        mistakes: count(MoveClass::Mistake),
        blunders: count(MoveClass::Blunder),
    }
}
