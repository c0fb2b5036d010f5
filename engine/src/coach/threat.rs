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

/// The confirming search spends this many nodes per 10 of the first one's.
const CONFIRM_TENTHS: u64 = 20;

/// How far a threat's line is followed.
const LINE_PLIES: usize = 12;

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
    let line = line_of(searcher, &passed, first, found.pv);
    let threatener = passed.turn();
    let claim = named(
        &passed,
        &line,
        Eval::from_score(found.score, threatener),
        first,
    )?;
    // A short search's line runs on into moves the table holds from shallower looks, where
    // the defence may not have been searched: the threat is claimed only as far as a deeper
    // search from the position after its first move confirms it.
    let mut next = passed;
    next.play_unchecked(first);
    if !next.has_legal_moves() {
        // Mate on the board confirms itself; a stalemate wins nothing.
        return next.is_check().then_some(claim);
    }
    let deeper = SearchLimits {
        nodes: limits.nodes.map(|n| n.saturating_mul(CONFIRM_TENTHS) / 10),
        ..limits.clone()
    };
    let confirmed = searcher.search(&next, &[], &deeper, stop, &mut |_| {});
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut line = vec![first];
    if let Some(reply) = confirmed.best_move {
        line.extend(if confirmed.pv.first() == Some(&reply) {
            confirmed.pv
        } else {
            vec![reply]
        });
    }
    searcher.extend_line(&passed, &mut line, LINE_PLIES);
    let eval = Eval::from_score(confirmed.score, next.turn());
    let confirmed = named(&passed, &line, eval, first)?;
    // A mate seen again keeps the first search's count (the deeper one counts from the
    // position after the first move).
    let both_mate = matches!(
        (&claim, &confirmed),
        (Threat::Mate { .. }, Threat::Mate { .. })
    );
    Some(if both_mate { claim } else { confirmed })
}

/// The search's line from `passed` that starts with `first`, lengthened from the table.
fn line_of(searcher: &Searcher, passed: &Position, first: Move, pv: Vec<Move>) -> Vec<Move> {
    let mut line = if pv.first() == Some(&first) {
        pv
    } else {
        vec![first]
    };
    searcher.extend_line(passed, &mut line, LINE_PLIES);
    line
}

/// The threat that `line` (starting with `first`) from `passed` shows, where the side to move
/// there scores `eval`: a short mate, or a piece won with enough material.
fn named(passed: &Position, line: &[Move], eval: Eval, first: Move) -> Option<Threat> {
    let threatener = passed.turn();
    let san = to_san(passed, first);
    if let Some(n) = eval.mate_for(threatener)
        && n > 0
        && n <= MAX_NAMED_MATE
    {
        return Some(Threat::Mate {
            moves: n as u32,
            first,
            san,
        });
    }
    let wins = won_piece(passed, line)?;
    // The piece named is what the line wins: a rook taken for a knight is no rook won. A
    // pawn given back on the way still counts as the piece.
    let worth = material_value(wins.role);
    let enough = PATTERN_GAIN.min(worth).max(worth - 1);
    (line_gain(passed, line, threatener) >= enough).then_some(Threat::Wins { first, san, wins })
}
