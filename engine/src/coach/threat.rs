//! What the opponent threatens: the move it would play if it were its turn again (the
//! null-move idea), named only when its line mates or wins material.

use super::reason::{MAX_NAMED_MATE, PATTERN_GAIN, Placed, line_gain, material_value, won_piece};
use super::words::{self, Language};
use crate::analysis::Eval;
use crate::moves::Move;
use crate::position::Position;
use crate::san::{to_german, to_san};
use crate::search::{SearchLimits, Searcher};
use std::sync::atomic::{AtomicBool, Ordering};

/// A threat of the side not on move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Threat {
    /// It would mate in `moves`, starting with `first`.
    Mate {
        moves: u32,
        first: Move,
        san: String,
    },
    /// `first` would start a line that wins `wins`.
    Wins {
        first: Move,
        san: String,
        wins: Placed,
    },
}

impl Threat {
    /// The threatening move.
    pub fn first(&self) -> Move {
        match self {
            Threat::Mate { first, .. } | Threat::Wins { first, .. } => *first,
        }
    }

    /// The threat in a sentence, to the player on move.
    pub fn sentence(&self, language: Language) -> String {
        match (self, language) {
            (Threat::Mate { moves: 1, san, .. }, Language::English) => {
                format!("Your opponent threatens mate: {san}.")
            }
            (Threat::Mate { moves, san, .. }, Language::English) => {
                format!("Your opponent threatens mate in {moves}, starting with {san}.")
            }
            (Threat::Wins { san, wins, .. }, Language::English) => format!(
                "Your opponent threatens {san}, winning your {} on {}.",
                words::piece_en(wins.role),
                wins.square
            ),
            (Threat::Mate { moves: 1, san, .. }, Language::German) => {
                format!("Dein Gegner droht Matt: {}.", to_german(san))
            }
            (Threat::Mate { moves, san, .. }, Language::German) => format!(
                "Dein Gegner droht Matt in {moves} Zügen, beginnend mit {}.",
                to_german(san)
            ),
            (Threat::Wins { san, wins, .. }, Language::German) => format!(
                "Dein Gegner droht {} und gewinnt {} auf {}.",
                to_german(san),
                words::piece_de(wins.role).yours_accusative(),
                wins.square
            ),
        }
    }
}

/// What the side not on move in `position` threatens, searched within `limits` (a node
/// budget, and the threads that spend it); `None` when it
/// threatens nothing the coach would name, when the side on move is in check (it must
/// answer the check, there is no "if it were the other's turn"), or when `stop` is set.
pub fn threat(
    searcher: &mut Searcher,
    position: &Position,
    limits: &SearchLimits,
    stop: &AtomicBool,
) -> Option<Threat> {
    if position.is_check() || !position.has_legal_moves() {
        return None;
    }
    let mut passed = *position;
    passed.play_null();
    if !passed.has_legal_moves() {
        return None;
    }
    // The passed position is not part of the game: repetitions are not looked for.
    let found = searcher.search(&passed, &[], limits, stop, &mut |_| {});
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let first = found.best_move?;
    let mut line = if found.pv.first() == Some(&first) {
        found.pv
    } else {
        vec![first]
    };
    searcher.extend_line(&passed, &mut line, 12);
    let san = to_san(&passed, first);
    let threatener = passed.turn();
    match Eval::from_score(found.score, threatener).mate_for(threatener) {
        Some(n) if n > 0 && n <= MAX_NAMED_MATE => {
            return Some(Threat::Mate {
                moves: n as u32,
                first,
                san,
            });
        }
        _ => {}
    }
    let wins = won_piece(&passed, &line)?;
    let enough = PATTERN_GAIN.min(material_value(wins.role));
    (line_gain(&passed, &line, threatener) >= enough).then_some(Threat::Wins { first, san, wins })
}
