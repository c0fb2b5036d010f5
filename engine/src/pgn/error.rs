//! What went wrong in one game of a PGN file, as a message that names the game, the line and
//! the move.

use crate::fen::FenError;
use crate::san::SanError;
use crate::types::Color;
use std::fmt;

/// What went wrong in one game of a PGN file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based number of the game in the file.
    pub game: usize,
    /// 1-based line where the problem was found.
    pub line: usize,
    pub kind: PgnErrorKind,
}

/// The kinds of [`PgnError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A `[` that does not start a well-formed `[Name "value"]` tag pair.
    MalformedTag { text: String },
    /// The `FEN` tag does not hold a valid position.
    BadFen(FenError),
    /// `SetUp "1"` without a `FEN` tag.
    MissingFen,
    /// A `Variant` tag naming something other than standard chess.
    UnsupportedVariant(String),
    /// A main-line move that is not SAN, or not legal, or ambiguous where it is played.
    Move {
        /// Full-move number of the move.
        number: u32,
        /// Which side played it.
        turn: Color,
        /// The move as written.
        san: String,
        error: SanError,
    },
    /// A `{` comment that runs to the end of the text.
    UnterminatedComment,
    /// A `(` variation still open where the game ends.
    UnclosedVariation,
    /// A character that cannot appear where it was found (a stray `}`, `]` or `"`).
    UnexpectedChar(char),
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, ", self.game)?;
        match &self.kind {
            PgnErrorKind::Move {
                number,
                turn,
                san,
                error,
            } => {
                let dots = if *turn == Color::White { "." } else { "..." };
                write!(
                    f,
                    "move {number}{dots} {} (line {}): ",
                    Shown(san),
                    self.line
                )?;
                match error {
                    SanError::Syntax(e) => write!(f, "not SAN: {}", e.reason),
                    SanError::Illegal { .. } => f.write_str("illegal"),
                    SanError::Ambiguous { .. } => f.write_str("ambiguous"),
                }
            }
            kind => {
                write!(f, "line {}: ", self.line)?;
                match kind {
                    PgnErrorKind::MalformedTag { text } => {
                        write!(f, "malformed tag pair '{}'", Shown(text))
                    }
                    PgnErrorKind::BadFen(e) => write!(f, "FEN tag: {e}"),
                    PgnErrorKind::MissingFen => f.write_str("SetUp \"1\" without a FEN tag"),
                    PgnErrorKind::UnsupportedVariant(v) => {
                        write!(f, "unsupported variant '{}'", Shown(v))
                    }
                    PgnErrorKind::UnterminatedComment => {
                        f.write_str("comment '{' not closed before the end of the text")
                    }
                    PgnErrorKind::UnclosedVariation => {
                        f.write_str("variation '(' not closed before the end of the game")
                    }
                    PgnErrorKind::UnexpectedChar(c) => {
                        write!(f, "unexpected '{}'", c.escape_default())
                    }
                    PgnErrorKind::Move { .. } => Ok(()),
                }
            }
        }
    }
}

/// Text from the file as a message shows it: escaped (no control bytes reach a terminal) and
/// cut after 40 characters (a 10 MB line stays out of the message).
struct Shown<'a>(&'a str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MAX: usize = 40;
        for c in self.0.chars().take(MAX) {
            write!(f, "{}", c.escape_debug())?;
        }
        if self.0.chars().nth(MAX).is_some() {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl std::error::Error for PgnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            PgnErrorKind::BadFen(e) => Some(e),
            PgnErrorKind::Move { error, .. } => Some(error),
            _ => None,
        }
    }
}
