//! The game's words shared by every screen: colours, pieces, how a game ended, and the
//! material count behind "captured" rows.

use crate::i18n::{self, Language};
use crate::tr;
use chesspi_engine::game::{Outcome, Termination};
use chesspi_engine::{Color, Piece, Role};

pub fn color_name(color: Color) -> String {
    match color {
        Color::White => tr!("White"),
        Color::Black => tr!("Black"),
    }
}

/// "the knight": a piece as the subject of a sentence.
pub fn the_piece(role: Role) -> String {
    match role {
        Role::Pawn => tr!("the pawn"),
        Role::Knight => tr!("the knight"),
        Role::Bishop => tr!("the bishop"),
        Role::Rook => tr!("the rook"),
        Role::Queen => tr!("the queen"),
        Role::King => tr!("the king"),
    }
}

/// The text with its first letter in capitals (a sentence that starts with a placeholder).
pub fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

pub fn claim_label(t: Termination) -> String {
    match t {
        Termination::FiftyMoves => tr!("Claim a draw (50 moves)"),
        _ => tr!("Claim a draw (repetition)"),
    }
}

/// "by checkmate", "by stalemate", ... for the result card.
pub fn reason_text(outcome: Outcome) -> String {
    termination_reason(outcome.termination)
}

/// "by checkmate", ... for a termination.
pub fn termination_reason(termination: Termination) -> String {
    match termination {
        Termination::Checkmate => tr!("by checkmate"),
        Termination::Stalemate => tr!("by stalemate"),
        Termination::Resignation => tr!("by resignation"),
        Termination::Agreement => tr!("by agreement"),
        Termination::ThreefoldRepetition => tr!("by threefold repetition"),
        Termination::FivefoldRepetition => tr!("by fivefold repetition"),
        Termination::FiftyMoves => tr!("by the 50-move rule"),
        Termination::SeventyFiveMoves => tr!("by the 75-move rule"),
        Termination::InsufficientMaterial => tr!("by insufficient material"),
        Termination::Time => tr!("on time"),
        Termination::Abandonment => tr!("the opponent left"),
    }
}

/// Pawn-unit values for the material balance (the coach's: one table).
pub use chesspi_engine::coach::{material, material_value as value};

/// What `color` captured in the game's first `ply` moves, weakest first — read from the
/// moves themselves, so a pawn promoted is not counted as taken (it left the board by
/// promoting) and a promoted piece taken counts as the piece it was.
pub fn captured_by(game: &chesspi_engine::game::Game, ply: usize, color: Color) -> Vec<Piece> {
    let positions = game.positions();
    let mut out: Vec<Piece> = game.moves()[..ply.min(game.moves().len())]
        .iter()
        .zip(positions)
        .filter(|(_, before)| before.turn() == color)
        .filter_map(|(mv, before)| {
            if mv.is_en_passant() {
                Some(Piece::new(!color, Role::Pawn))
            } else if mv.is_castle() {
                None
            } else {
                before.piece_at(mv.to())
            }
        })
        .collect();
    out.sort_by_key(|p| value(p.role));
    out
}

/// "Level 4 (≈1390)" from the archive's computer name, if it is one.
pub fn level_of(name: &str) -> Option<String> {
    name.strip_prefix("ChessPI level ")
        .map(|rest| rest.replace('~', "≈"))
}

/// A player as the review's player line shows them: "Computer" with "Level 4 (≈1390)" as
/// the detail, or the stored name alone.
pub fn review_name(stored: &str) -> (String, String) {
    match level_of(stored) {
        Some(level) => (tr!("Computer"), tr!("Level {}", level)),
        // The archive's own names for people, in the screen's language.
        None => (
            match stored {
                "You" => tr!("You"),
                "White" => tr!("White"),
                "Black" => tr!("Black"),
                other => other.to_string(),
            },
            String::new(),
        ),
    }
}

/// `text` with non-breaking spaces where a line break reads badly: before a dash (no line
/// starts with "–"), and before a short last word (no "piece" alone on the last line).
pub fn no_bad_breaks(text: &str) -> String {
    let mut out = text.replace(" — ", "\u{a0}— ").replace(" – ", "\u{a0}– ");
    if let Some((_, last)) = out.rsplit_once(' ')
        && last.chars().count() <= 8
        && let Some(i) = out.rfind(' ')
    {
        out.replace_range(i..=i, "\u{a0}");
    }
    out
}

#[cfg(test)]
mod break_tests {
    use super::no_bad_breaks;

    #[test]
    fn dashes_and_short_last_words_stay_with_the_word_before() {
        assert_eq!(
            no_bad_breaks("Black to move — tap a piece"),
            "Black to move\u{a0}— tap a\u{a0}piece"
        );
        assert_eq!(
            no_bad_breaks("Schwarz am Zug – tippe eine Figur an"),
            "Schwarz am Zug\u{a0}– tippe eine Figur\u{a0}an"
        );
        assert_eq!(no_bad_breaks("Analysing…"), "Analysing…");
        assert_eq!(
            no_bad_breaks("Reviewing: the start position"),
            "Reviewing: the start\u{a0}position"
        );
    }
}

/// How the game ended, in the screen's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultCard {
    pub title: String,
    pub reason: String,
    pub tone: ResultTone,
}

/// What the result means to the person at the board, for the card's colour: a loss is not
/// shown on a success-green card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResultTone {
    Won,
    Lost,
    Drawn,
    /// Two players on one screen, the demo, a stored game: nobody's win or loss here.
    Neutral,
}

/// The coach's words in the screen's language.
pub fn coach_language() -> chesspi_engine::coach::words::Language {
    match i18n::language() {
        Language::German => chesspi_engine::coach::words::Language::German,
        Language::English => chesspi_engine::coach::words::Language::English,
    }
}

/// Whether a game against the computer counts for the player's rating, and why not when it
/// does not (New game before it starts, the game screen while it is played).
pub fn rating_words(unrated: Option<crate::app::session::game::Unrated>) -> String {
    use crate::app::session::game::Unrated;
    match unrated {
        None => tr!("Rated: the result counts for your rating"),
        Some(Unrated::Coach) => tr!("Not rated: the coach is on"),
        Some(Unrated::LevelChanged) => tr!("Not rated: the level was changed"),
        Some(Unrated::SidesSwitched) => tr!("Not rated: the sides were switched"),
        Some(Unrated::PlayedOn) => tr!("Not rated: played on after the result"),
        Some(Unrated::SetUp) => tr!("Not rated: a set-up position"),
        Some(Unrated::Changed) => tr!("Not rated: changed during the game"),
        Some(Unrated::Guest) => tr!("Not rated: a guest's games count for no one"),
        Some(Unrated::Assist) => tr!("Not rated: Assist is on"),
    }
}

/// The same, short, beside the player's name while the game is played ("You  Rated").
pub fn rating_short(unrated: Option<crate::app::session::game::Unrated>) -> String {
    use crate::app::session::game::Unrated;
    match unrated {
        None => tr!("Rated"),
        Some(Unrated::Coach) => tr!("Not rated: coach on"),
        Some(Unrated::LevelChanged) => tr!("Not rated: level changed"),
        Some(Unrated::SidesSwitched) => tr!("Not rated: sides switched"),
        Some(Unrated::PlayedOn) => tr!("Not rated: played on"),
        Some(Unrated::SetUp) => tr!("Not rated: set-up position"),
        Some(Unrated::Changed) => tr!("Not rated: changed"),
        Some(Unrated::Guest) => tr!("Not rated: guest"),
        Some(Unrated::Assist) => tr!("Not rated: assist"),
    }
}

/// A PGN date "2026.11.23" as "23 Nov 2026" (English) or "23.11.2026" (German), the same on
/// every screen; unknown parts are left out.
pub fn date_text(pgn_date: &str) -> String {
    date_text_in(crate::i18n::language(), pgn_date)
}

pub fn date_text_in(language: Language, pgn_date: &str) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let mut parts = pgn_date.split('.');
    let (year, month, day) = (parts.next(), parts.next(), parts.next());
    let year = year.filter(|y| y.chars().all(|c| c.is_ascii_digit()) && !y.is_empty());
    let month = month
        .and_then(|m| m.parse::<usize>().ok())
        .filter(|m| (1..=12).contains(m));
    let day = day.and_then(|d| d.parse::<u32>().ok());
    match (language, day, month, year) {
        (Language::English, Some(d), Some(m), Some(y)) => format!("{d} {} {y}", MONTHS[m - 1]),
        (Language::English, None, Some(m), Some(y)) => format!("{} {y}", MONTHS[m - 1]),
        (Language::German, Some(d), Some(m), Some(y)) => format!("{d}.{m}.{y}"),
        (Language::German, None, Some(m), Some(y)) => format!("{m}/{y}"),
        (_, _, _, Some(y)) => y.to_string(),
        _ => tr!("date unknown"),
    }
}
