//! The analysis board's model: a position where both sides move freely, the moves played on
//! it with takeback and forward, and the engine's latest lines for the position shown.
//! Pure: the worker (`super::worker`) searches, the controller carries results here.

use chesspi_engine::search::Score;
use chesspi_engine::{Color, Move, Position};

/// Most lines shown at once.
pub const MAX_LINES: usize = 3;

/// One engine line, its score from White's point of view (so the bar does not flip sides).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub score: Score,
    pub depth: u32,
    pub moves: Vec<Move>,
}

/// The board: a start, the moves played since, and how many of them are on the board.
#[derive(Clone, Debug)]
pub struct AnalysisBoard {
    start: Position,
    moves: Vec<Move>,
    cursor: usize,
    /// Bumped whenever the position shown changes: results of older searches are dropped.
    generation: u64,
    lines: Vec<Line>,
    finished: bool,
}

impl AnalysisBoard {
    pub fn new(start: Position) -> AnalysisBoard {
        AnalysisBoard {
            start,
            moves: Vec::new(),
            cursor: 0,
            generation: 1,
            lines: Vec::new(),
            finished: false,
        }
    }

    /// The position on the board.
    pub fn position(&self) -> Position {
        let mut pos = self.start;
        for &mv in &self.moves[..self.cursor] {
            pos.play_unchecked(mv);
        }
        pos
    }

    /// Hashes of the positions before the one shown, for the search's repetition check.
    pub fn history(&self) -> Vec<u64> {
        let mut pos = self.start;
        let mut hashes = Vec::with_capacity(self.cursor);
        for &mv in &self.moves[..self.cursor] {
            hashes.push(pos.hash());
            pos.play_unchecked(mv);
        }
        hashes
    }

    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Plays `mv` for the side to move. A move that differs from the next one already played
    /// replaces the moves after the cursor (a new variation); the same move just goes forward.
    pub fn play(&mut self, mv: Move) -> bool {
        if !self.position().is_legal(mv) {
            return false;
        }
        if self.moves.get(self.cursor) != Some(&mv) {
            self.moves.truncate(self.cursor);
            self.moves.push(mv);
        }
        self.cursor += 1;
        self.changed();
        true
    }

    /// Takes the last move on the board back (it stays available to go forward).
    pub fn back(&mut self) -> bool {
        if self.cursor == 0 {
            return false;
        }
        self.cursor -= 1;
        self.changed();
        true
    }

    /// Replays the next move taken back.
    pub fn forward(&mut self) -> bool {
        if self.cursor == self.moves.len() {
            return false;
        }
        self.cursor += 1;
        self.changed();
        true
    }

    pub fn can_go_back(&self) -> bool {
        self.cursor > 0
    }

    pub fn can_go_forward(&self) -> bool {
        self.cursor < self.moves.len()
    }

    /// The moves on the board (up to the cursor).
    pub fn moves_played(&self) -> &[Move] {
        &self.moves[..self.cursor]
    }

    /// Takes the lines of a search of `generation` (scores from the side to move's view);
    /// lines of a position no longer shown are ignored. Returns whether they were taken.
    pub fn set_lines(
        &mut self,
        generation: u64,
        lines: Vec<(Score, u32, Vec<Move>)>,
        finished: bool,
    ) -> bool {
        if generation != self.generation {
            return false;
        }
        let white = self.position().turn() == Color::White;
        self.lines = lines
            .into_iter()
            .take(MAX_LINES)
            .map(|(score, depth, moves)| Line {
                score: if white { score } else { negate(score) },
                depth,
                moves,
            })
            .collect();
        self.finished = finished;
        true
    }

    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// Whether the search of the position shown has ended (its budget spent).
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// White's share of the evaluation bar, 0..=1 (0.5 is level; ±10 pawns or a mate fill it).
    pub fn white_share(&self) -> f32 {
        match self.lines.first().map(|l| l.score) {
            None => 0.5,
            Some(Score::Mate(n)) => {
                if n > 0 {
                    1.0
                } else {
                    0.0
                }
            }
            Some(Score::Cp(cp)) => (0.5 + cp.clamp(-1000, 1000) as f32 / 2000.0).clamp(0.0, 1.0),
        }
    }

    fn changed(&mut self) {
        self.generation += 1;
        self.lines.clear();
        self.finished = false;
    }
}

fn negate(score: Score) -> Score {
    match score {
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Mate(n) => Score::Mate(-n),
    }
}

/// A score as shown: "+0.35", "−1.20" ("−1,20" in German), "#3" (mate for White) or "#−2"
/// (for Black).
pub fn score_text(score: Score) -> String {
    score_text_in(crate::i18n::language(), score)
}

fn score_text_in(language: crate::i18n::Language, score: Score) -> String {
    let point = crate::i18n::decimal_separator(language);
    match score {
        Score::Cp(cp) if cp < 0 => format!("\u{2212}{}{point}{:02}", -cp / 100, -cp % 100),
        Score::Cp(cp) => format!("+{}{point}{:02}", cp / 100, cp % 100),
        Score::Mate(n) if n < 0 => format!("#\u{2212}{}", -n),
        Score::Mate(n) => format!("#{n}"),
    }
}

/// A line in the current language's notation, numbered from the position it starts in,
/// e.g. "12. Nf3 Nc6 13. d4" or "12… Nc6 13. d4".
pub fn line_text(from: &Position, moves: &[Move], max_moves: usize) -> String {
    let moves = &moves[..moves.len().min(max_moves)];
    let sans = chesspi_engine::san::moves_to_san(from, moves);
    let mut number = from.fullmove_number();
    let mut white = from.turn() == Color::White;
    let mut out = String::new();
    for (i, san) in sans.iter().enumerate() {
        if !out.is_empty() {
            out.push(' ');
        }
        if white {
            out.push_str(&format!("{number}. "));
        } else if i == 0 {
            out.push_str(&format!("{number}\u{2026} "));
        }
        out.push_str(&crate::i18n::san(san));
        if !white {
            number += 1;
        }
        white = !white;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesspi_engine::san::parse_san;

    fn mv(board: &AnalysisBoard, san: &str) -> Move {
        parse_san(&board.position(), san).unwrap()
    }

    #[test]
    fn both_sides_move_and_back_and_forward_walk_the_moves() {
        let mut b = AnalysisBoard::new(Position::startpos());
        let e4 = mv(&b, "e4");
        assert!(b.play(e4));
        let e5 = mv(&b, "e5");
        assert!(b.play(e5));
        assert_eq!(b.moves_played(), &[e4, e5]);
        assert!(b.back());
        assert_eq!(b.position().turn(), Color::Black);
        assert!(b.can_go_forward());
        assert!(b.forward());
        assert!(!b.forward());
        assert!(b.back() && b.back());
        assert!(!b.back());
        assert_eq!(b.position().hash(), Position::startpos().hash());
    }

    #[test]
    fn a_different_move_after_a_takeback_replaces_the_rest() {
        let mut b = AnalysisBoard::new(Position::startpos());
        for san in ["e4", "e5", "Nf3"] {
            let m = mv(&b, san);
            b.play(m);
        }
        b.back();
        b.back();
        let c5 = mv(&b, "c5");
        assert!(b.play(c5));
        assert!(!b.can_go_forward());
        assert_eq!(b.moves_played().len(), 2);
    }

    #[test]
    fn an_illegal_move_is_refused() {
        let mut b = AnalysisBoard::new(Position::startpos());
        let e4 = mv(&b, "e4");
        b.play(e4);
        // White's e2-e4 again, now with Black to move.
        assert!(!b.play(e4));
        assert_eq!(b.moves_played().len(), 1);
    }

    #[test]
    fn lines_of_an_old_position_are_dropped_and_scores_are_from_whites_view() {
        let mut b = AnalysisBoard::new(Position::startpos());
        let old = b.generation();
        let e4 = mv(&b, "e4");
        b.play(e4);
        assert!(!b.set_lines(old, vec![(Score::Cp(30), 5, vec![])], true));
        assert!(b.lines().is_empty());
        let e5 = mv(&b, "e5");
        // Black to move, +40 for Black is −40 for White.
        assert!(b.set_lines(b.generation(), vec![(Score::Cp(40), 6, vec![e5])], false));
        assert_eq!(b.lines()[0].score, Score::Cp(-40));
        assert!(b.white_share() < 0.5);
        assert!(!b.finished());
        b.back();
        assert!(b.lines().is_empty());
        assert_eq!(b.white_share(), 0.5);
    }

    #[test]
    fn at_most_three_lines_are_kept() {
        let mut b = AnalysisBoard::new(Position::startpos());
        let lines = (0..5).map(|i| (Score::Cp(i), 1, vec![])).collect();
        b.set_lines(b.generation(), lines, true);
        assert_eq!(b.lines().len(), MAX_LINES);
    }

    #[test]
    fn scores_and_lines_read_as_a_player_expects() {
        assert_eq!(score_text(Score::Cp(35)), "+0.35");
        assert_eq!(score_text(Score::Cp(-120)), "\u{2212}1.20");
        assert_eq!(score_text(Score::Mate(3)), "#3");
        assert_eq!(score_text(Score::Mate(-2)), "#\u{2212}2");
        let german = crate::i18n::Language::German;
        assert_eq!(score_text_in(german, Score::Cp(-120)), "\u{2212}1,20");
        assert_eq!(score_text_in(german, Score::Cp(1027)), "+10,27");
        let start = Position::startpos();
        let line: Vec<Move> = {
            let mut b = AnalysisBoard::new(start);
            for san in ["e4", "e5", "Nf3"] {
                let m = mv(&b, san);
                b.play(m);
            }
            b.moves_played().to_vec()
        };
        assert_eq!(line_text(&start, &line, 8), "1. e4 e5 2. Nf3");
        let after = start.play(line[0]).unwrap();
        assert_eq!(line_text(&after, &line[1..], 8), "1\u{2026} e5 2. Nf3");
        assert_eq!(line_text(&start, &line, 1), "1. e4");
    }
}
