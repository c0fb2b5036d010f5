//! Opening names (ECO codes) and the opening book, both from the lichess chess-openings data
//! set (CC0, `data/openings/`, 3,807 named lines).
//!
//! - Names go by position, not by move order, so transpositions are recognised: the table
//!   holds every position on a named line (its Zobrist hash; move counters do not count), and
//!   for the last position of each line the line's ECO code and name. A game is classified by
//!   the last named position it reached while it stayed on such positions ("book
//!   territory"); once it leaves them the name is frozen, whatever happens later.
//! - The book holds every move of a named line, weighted by how many lines play it there
//!   (so main lines come up far more often than curiosities), minus the moves the engine's own
//!   search finds unsound (`data/openings/book-checks.tsv`, written by
//!   `examples/openings.rs`).
//!
//! - The opening drill (Menu → Openings) needs each line's own moves: [`lines`] has every
//!   line with its moves and the families; [`drill`] plays an opening's lines with the user.
//!
//! Names are in English as the data set has them (PGN headers stay English); [`german`] gives
//! the German ones for the screen.
//!
//! `build.rs` parses and checks the data with the engine's own rules code and writes the
//! tables and every line's moves as static arrays: nothing is parsed on the device.

pub mod drill;
pub mod german;
pub mod lines;
pub mod table;
pub mod tsv;

#[cfg(test)]
mod lines_tests;
#[cfg(test)]
mod tests;

use crate::game::Game;
use crate::level::Level;
use crate::moves::Move;
use crate::position::Position;
use crate::search::Searcher;
use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::AtomicBool;

// FINGERPRINT, NAMES, LINE_MOVE_BITS, LINE_ENDS, POSITIONS and BOOK, written by build.rs.
include!(concat!(env!("OUT_DIR"), "/openings.rs"));

/// `POSITIONS` entry of a position that is on a named line but is not the end of one.
const UNNAMED: u16 = u16::MAX;

/// A named opening: `eco` is the code (`"C50"`), `name` the name (`"Italian Game"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Opening {
    pub eco: &'static str,
    pub name: &'static str,
}

impl fmt::Display for Opening {
    /// `C50 Italian Game`, as the side panel shows it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.eco, self.name)
    }
}

impl Opening {
    /// The name in German where its family has an established German name, else English
    /// (see [`german::german_name`]).
    pub fn german_name(&self) -> Cow<'static, str> {
        german::german_name(self.name)
    }

    /// `C50 Italienische Partie`: the side panel's text for a German screen.
    pub fn to_german_string(&self) -> String {
        format!("{} {}", self.eco, self.german_name())
    }
}

/// A book move and its weight (the number of named lines that play it in this position).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u32,
}

/// The `POSITIONS` entry of `pos`, if it lies on a named line.
fn entry(pos: &Position) -> Option<u16> {
    POSITIONS
        .binary_search_by_key(&pos.hash(), |&(hash, _)| hash)
        .ok()
        .map(|i| POSITIONS[i].1)
}

/// Whether `pos` lies on some named line (is in "book territory").
pub fn in_book_territory(pos: &Position) -> bool {
    entry(pos).is_some()
}

/// The opening whose named line ends exactly in `pos`, if any.
pub fn named(pos: &Position) -> Option<Opening> {
    let index = entry(pos).filter(|&i| i != UNNAMED)?;
    NAMES
        .get(usize::from(index))
        .map(|&(eco, name)| Opening { eco, name })
}

/// The opening of `game` after its first `ply` half-moves (the whole game if it has fewer):
/// the last named position reached before the game first left book territory. For review.
pub fn opening_at(game: &Game, ply: usize) -> Option<Opening> {
    let positions = game.positions();
    let upto = ply.min(positions.len() - 1);
    let mut found = None;
    for pos in &positions[..=upto] {
        match entry(pos) {
            // Left the named lines: the name is frozen at the last one reached.
            None => break,
            Some(UNNAMED) => {}
            Some(_) => found = named(pos),
        }
    }
    found
}

/// Where a game left the named lines while they still went on: the move that did and what
/// the lines had there (see [`left_lines`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeftLines {
    /// The half-move that left, 1-based (ply 1 is White's first move).
    pub ply: usize,
    /// The opening named before that move, if one was.
    pub opening: Option<Opening>,
    /// The moves that stayed on the lines, the book's best supported first.
    pub book: Vec<Move>,
}

/// The first move of `game` that left the named lines, when some line still went on from
/// the position before it (a game whose lines simply ended left nothing); `None` for a game
/// that never entered them or never left them.
pub fn left_lines(game: &Game) -> Option<LeftLines> {
    let positions = game.positions();
    if !positions.first().is_some_and(in_book_territory) {
        return None;
    }
    let (index, before) = positions
        .iter()
        .enumerate()
        .take_while(|(_, pos)| in_book_territory(pos))
        .last()?;
    // The game ended on the lines: nothing was left.
    game.moves().get(index)?;
    let mut book: Vec<Move> = before
        .legal_moves()
        .iter()
        .copied()
        .filter(|&mv| before.play(mv).is_ok_and(|after| in_book_territory(&after)))
        .collect();
    if book.is_empty() {
        return None;
    }
    let weights = book_moves(before);
    let weight = |mv: &Move| weights.iter().find(|b| b.mv == *mv).map_or(0, |b| b.weight);
    book.sort_by_key(|mv| std::cmp::Reverse(weight(mv)));
    Some(LeftLines {
        ply: index + 1,
        opening: opening_at(game, index),
        book,
    })
}

/// The opening of the game so far (see [`opening_at`]), for the side panel and PGN headers.
pub fn classify(game: &Game) -> Option<Opening> {
    opening_at(game, game.moves().len())
}

/// Every named opening of the data, in the table's order (for checks over all names).
pub fn all() -> impl Iterator<Item = Opening> {
    NAMES.iter().map(|&(eco, name)| Opening { eco, name })
}

/// Number of named lines in the data (for tests and the about box).
pub fn named_line_count() -> usize {
    NAMES.len()
}

/// Fingerprint of the data files the tables were built from (see [`table::fingerprint`]).
pub fn data_fingerprint() -> u64 {
    FINGERPRINT
}

/// The book's moves in `pos`, best supported first. Only legal moves are returned: the table
/// is keyed by hash, and a position outside the book could in principle share one.
pub fn book_moves(pos: &Position) -> Vec<BookMove> {
    let hash = pos.hash();
    let start = BOOK.partition_point(|&(h, _, _)| h < hash);
    let mut moves: Vec<BookMove> = BOOK[start..]
        .iter()
        .take_while(|&&(h, _, _)| h == hash)
        .map(|&(_, bits, weight)| BookMove {
            mv: Move::from_bits(bits),
            weight: u32::from(weight),
        })
        .filter(|b| b.weight > 0 && pos.is_legal(b.mv))
        .collect();
    moves.sort_by_key(|b| std::cmp::Reverse(b.weight));
    moves
}

/// A book move for `pos` chosen at random by weight (`random` is any random number), or
/// `None` when the position is not in the book.
pub fn book_move(pos: &Position, random: u64) -> Option<Move> {
    let moves = book_moves(pos);
    let total: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
    if total == 0 {
        return None;
    }
    let mut pick = mix(random) % total;
    for b in &moves {
        let w = u64::from(b.weight);
        if pick < w {
            return Some(b.mv);
        }
        pick -= w;
    }
    moves.first().map(|b| b.mv)
}

/// splitmix64's finaliser: callers may pass weak random numbers (a counter, a clock), and
/// the choice takes them modulo the total weight, so every bit must matter.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Searcher {
    /// The kiosk's computer player with the opening book: while the game's position is in
    /// the book (and `use_book`, the Settings switch, is on) a book move chosen at random by
    /// weight, at every level; otherwise [`Searcher::choose_move`]. `None` when the game is
    /// over or has no legal move.
    pub fn choose_move_with_book(
        &mut self,
        game: &Game,
        level: Level,
        stop: &AtomicBool,
        use_book: bool,
    ) -> Option<Move> {
        if game.is_over() {
            return None;
        }
        if use_book {
            let random = self.next_seed();
            if let Some(mv) = book_move(game.position(), random) {
                return Some(mv);
            }
        }
        self.choose_move(game, level, stop)
    }
}
