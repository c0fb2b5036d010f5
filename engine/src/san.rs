//! Standard Algebraic Notation: writing with exact disambiguation and check marks, reading
//! tolerantly of common variants and strictly about ambiguity.
//!
//! Reading happens in two steps, as with FEN: the text is parsed into a [`San`] (syntax only,
//! [`ParseSanError`]), which is then matched against the legal moves of a position
//! ([`SanError::Illegal`], [`SanError::Ambiguous`]).

use crate::moves::{Move, MoveKind};
use crate::position::{CastlingSide, Position};
use crate::types::{File, Rank, Role, Square};
use std::fmt;
use std::str::FromStr;

/// A SAN move as written, before it is matched against a position. Check marks and
/// annotations are not part of it: they are checked by nothing and dropped when reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum San {
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// Any other move: the moving role, optional origin file and rank, whether an `x` was
    /// written, the destination, and the promotion piece.
    Normal {
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        capture: bool,
        to: Square,
        promotion: Option<Role>,
    },
}

/// The text is not SAN at all (syntax), whatever the position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSanError {
    /// The text that was read.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a SAN move: {}",
            self.text.escape_default(),
            self.reason
        )
    }
}

impl std::error::Error for ParseSanError {}

/// Why a SAN text does not name exactly one legal move of a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SanError {
    /// Not SAN at all.
    Syntax(ParseSanError),
    /// Well-formed SAN that matches no legal move here.
    Illegal { san: String },
    /// Well-formed SAN that matches more than one legal move here (e.g. `Nd2` when both
    /// knights can go there).
    Ambiguous { san: String },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax(e) => e.fmt(f),
            SanError::Illegal { san } => write!(f, "{san} is not legal in this position"),
            SanError::Ambiguous { san } => {
                write!(f, "{san} is ambiguous: more than one legal move matches it")
            }
        }
    }
}

impl std::error::Error for SanError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SanError::Syntax(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ParseSanError> for SanError {
    fn from(e: ParseSanError) -> SanError {
        SanError::Syntax(e)
    }
}

/// Drops what SAN readers ignore at the end of a move: check and mate marks, annotation
/// glyphs (`!`, `?`, `!?`…) and an `e.p.` note.
fn strip_suffixes(mut text: &str) -> &str {
    loop {
        let trimmed = text.trim_end_matches(['+', '#', '!', '?']);
        if let Some(rest) = trimmed.strip_suffix("e.p.") {
            text = rest;
        } else {
            return trimmed;
        }
    }
}

impl FromStr for San {
    type Err = ParseSanError;

    /// Reads SAN, accepting `0-0`/`0-0-0` for castling, `e8Q` as well as `e8=Q` (and
    /// `e8=q`), and any trailing `+`, `#`, `!`, `?` whether or not they are true.
    fn from_str(text: &str) -> Result<San, ParseSanError> {
        let error = |reason| ParseSanError {
            text: text.to_string(),
            reason,
        };
        let body = strip_suffixes(text.trim());
        match body {
            "" => return Err(error("empty")),
            "O-O" | "0-0" | "o-o" => return Ok(San::Castle(CastlingSide::King)),
            "O-O-O" | "0-0-0" | "o-o-o" => return Ok(San::Castle(CastlingSide::Queen)),
            "--" | "Z0" | "0000" | "@@@@" => return Err(error("null moves are not supported")),
            _ => {}
        }
        // Byte slicing below is safe: only ASCII passes this check.
        if !body.is_ascii() {
            return Err(error("unexpected character"));
        }
        let mut rest = body.as_bytes();

        let role = match rest.first() {
            Some(b'N') => Role::Knight,
            Some(b'B') => Role::Bishop,
            Some(b'R') => Role::Rook,
            Some(b'Q') => Role::Queen,
            Some(b'K') => Role::King,
            _ => Role::Pawn,
        };
        if role != Role::Pawn {
            rest = &rest[1..];
        }

        let mut promotion = None;
        if role == Role::Pawn
            && let Some((&last, before)) = rest.split_last()
        {
            let with_equals = before.last() == Some(&b'=');
            let promoted = match last {
                b'N' => Some(Role::Knight),
                b'B' => Some(Role::Bishop),
                b'R' => Some(Role::Rook),
                b'Q' => Some(Role::Queen),
                // Lower case only after '=', where it cannot be read as anything else.
                b'n' if with_equals => Some(Role::Knight),
                b'b' if with_equals => Some(Role::Bishop),
                b'r' if with_equals => Some(Role::Rook),
                b'q' if with_equals => Some(Role::Queen),
                _ => None,
            };
            if let Some(p) = promoted {
                promotion = Some(p);
                rest = if with_equals {
                    &before[..before.len() - 1]
                } else {
                    before
                };
            } else if last == b'=' {
                return Err(error("'=' without a promotion piece"));
            } else if with_equals {
                return Err(error("a pawn promotes to a knight, bishop, rook or queen"));
            }
        }

        let Some((to_bytes, mut rest)) = rest
            .len()
            .checked_sub(2)
            .map(|at| (&rest[at..], &rest[..at]))
        else {
            return Err(error("no destination square"));
        };
        let to = match (
            File::from_char(char::from(to_bytes[0])),
            Rank::from_char(char::from(to_bytes[1])),
        ) {
            (Some(f), Some(r)) => Square::from_coords(f, r),
            _ => return Err(error("no destination square")),
        };

        let capture = rest.last() == Some(&b'x');
        if capture {
            rest = &rest[..rest.len() - 1];
        }
        let (file, rank) = match *rest {
            [] => (None, None),
            [c] => match (
                File::from_char(char::from(c)),
                Rank::from_char(char::from(c)),
            ) {
                (Some(f), _) => (Some(f), None),
                (_, Some(r)) => (None, Some(r)),
                _ => return Err(error("unexpected character before the destination")),
            },
            [f, r] => match (
                File::from_char(char::from(f)),
                Rank::from_char(char::from(r)),
            ) {
                (Some(f), Some(r)) => (Some(f), Some(r)),
                _ => return Err(error("unexpected characters before the destination")),
            },
            _ => return Err(error("too many characters before the destination")),
        };

        if role == Role::Pawn {
            if rank.is_some() {
                return Err(error("a pawn move names no origin rank"));
            }
            if capture != file.is_some() {
                return Err(error(
                    "a pawn capture is written with its file and 'x', like exd5",
                ));
            }
        }
        Ok(San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        })
    }
}

impl San {
    /// Whether `mv`, a legal move of `pos`, is one this SAN describes.
    fn matches(&self, pos: &Position, mv: Move) -> bool {
        match *self {
            San::Castle(side) => mv.is_castle() && mv.to().file() == side.king_to_file(),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if mv.is_castle() || mv.to() != to || mv.promotion() != promotion {
                    return false;
                }
                if pos.role_at(mv.from()) != Some(role)
                    || file.is_some_and(|f| f != mv.from().file())
                    || rank.is_some_and(|r| r != mv.from().rank())
                {
                    return false;
                }
                // A written 'x' must capture; a missing one is forgiven for pieces. Pawns
                // move straight unless capturing.
                if capture && !pos.is_capture(mv) {
                    return false;
                }
                role != Role::Pawn || capture == (mv.from().file() != mv.to().file())
            }
        }
    }

    /// The one legal move of `pos` this SAN describes.
    ///
    /// # Errors
    /// [`SanError::Illegal`] if none matches, [`SanError::Ambiguous`] if several do.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        let mut found = None;
        for &mv in pos.legal_moves().iter() {
            if self.matches(pos, mv) {
                if found.is_some() {
                    return Err(SanError::Ambiguous {
                        san: self.to_string(),
                    });
                }
                found = Some(mv);
            }
        }
        found.ok_or_else(|| SanError::Illegal {
            san: self.to_string(),
        })
    }
}

impl fmt::Display for San {
    /// Canonical SAN without check marks (`O-O`, `Nbd7`, `exd8=Q`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            San::Castle(CastlingSide::King) => f.write_str("O-O"),
            San::Castle(CastlingSide::Queen) => f.write_str("O-O-O"),
            San::Normal {
                role,
                file,
                rank,
                capture,
                to,
                promotion,
            } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.upper_char())?;
                }
                if let Some(file) = file {
                    write!(f, "{}", file.char())?;
                }
                if let Some(rank) = rank {
                    write!(f, "{}", rank.char())?;
                }
                if capture {
                    f.write_str("x")?;
                }
                write!(f, "{to}")?;
                if let Some(p) = promotion {
                    write!(f, "={}", p.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

/// SAN with German piece letters: K, D, T, L, S (König, Dame, Turm, Läufer, Springer).
/// Castling, squares and `x`, `+`, `#` stay as they are.
pub fn to_german(english: &str) -> String {
    english
        .chars()
        .map(|c| match c {
            'Q' => 'D',
            'R' => 'T',
            'B' => 'L',
            'N' => 'S',
            c => c,
        })
        .collect()
}

/// The SAN of a legal move: piece letter, the least disambiguation that makes it unique
/// (file, else rank, else both), `x` for captures, `=Q` for promotions, `O-O`/`O-O-O`, and
/// `+` or `#` when it gives check or mate.
///
/// `mv` must be legal in `pos`; for any other move the UCI text (`e2e5`) is returned, so a
/// caller's mistake shows up in the output instead of a panic.
pub fn to_san(pos: &Position, mv: Move) -> String {
    let legal = pos.legal_moves();
    if !legal.contains(mv) {
        return mv.to_uci();
    }
    let san = san_of_legal(pos, mv, &legal);
    let mut text = san.to_string();
    let mut next = *pos;
    next.play_unchecked(mv);
    if next.is_checkmate() {
        text.push('#');
    } else if next.is_check() {
        text.push('+');
    }
    text
}

/// The [`San`] (without check mark) of `mv`, which must be in `legal`, the legal moves of
/// `pos`.
fn san_of_legal(pos: &Position, mv: Move, legal: &[Move]) -> San {
    if mv.kind() == MoveKind::Castle {
        let side = if mv.to().file() == File::G {
            CastlingSide::King
        } else {
            CastlingSide::Queen
        };
        return San::Castle(side);
    }
    let role = pos.role_at(mv.from()).unwrap_or(Role::Pawn);
    let capture = pos.is_capture(mv);
    let (file, rank) = match role {
        Role::Pawn if capture => (Some(mv.from().file()), None),
        Role::Pawn | Role::King => (None, None),
        _ => {
            let rivals: Vec<Square> = legal
                .iter()
                .filter(|m| {
                    m.to() == mv.to()
                        && m.from() != mv.from()
                        && pos.role_at(m.from()) == Some(role)
                })
                .map(|m| m.from())
                .collect();
            if rivals.is_empty() {
                (None, None)
            } else if rivals.iter().all(|sq| sq.file() != mv.from().file()) {
                (Some(mv.from().file()), None)
            } else if rivals.iter().all(|sq| sq.rank() != mv.from().rank()) {
                (None, Some(mv.from().rank()))
            } else {
                (Some(mv.from().file()), Some(mv.from().rank()))
            }
        }
    };
    San::Normal {
        role,
        file,
        rank,
        capture,
        to: mv.to(),
        promotion: mv.promotion(),
    }
}

/// Reads a SAN move in `pos` (see [`San`]'s `FromStr` for the variants accepted).
///
/// # Errors
/// [`SanError::Syntax`] if the text is not SAN, [`SanError::Illegal`] if it names no legal
/// move, [`SanError::Ambiguous`] if it names several.
pub fn parse_san(pos: &Position, text: &str) -> Result<Move, SanError> {
    text.parse::<San>()?.to_move(pos)
}

/// The SAN of each move of a line played from `start`. Stops at the first move that is not
/// legal where it is played, so the result is shorter than `moves` exactly when the line is
/// not legal.
pub fn moves_to_san(start: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = *start;
    let mut out = Vec::with_capacity(moves.len());
    for &mv in moves {
        if !pos.is_legal(mv) {
            break;
        }
        out.push(to_san(&pos, mv));
        pos.play_unchecked(mv);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_and_reads_the_opening() {
        let start = Position::startpos();
        let mv = parse_san(&start, "Nf3").unwrap();
        assert_eq!(mv.to_uci(), "g1f3");
        assert_eq!(to_san(&start, mv), "Nf3");
    }

    #[test]
    fn syntax_errors_are_not_meaning_errors() {
        let start = Position::startpos();
        for bad in [
            "", "x", "e", "Nf", "N9f3", "exd", "ed5", "e4=", "Nxxf3", "Kf1e2e3", "e8=K",
        ] {
            assert!(
                matches!(parse_san(&start, bad), Err(SanError::Syntax(_))),
                "{bad}: {:?}",
                parse_san(&start, bad)
            );
        }
        assert!(matches!(
            parse_san(&start, "e5"),
            Err(SanError::Illegal { .. })
        ));
    }
}
