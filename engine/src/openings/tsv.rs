//! Reading the lichess chess-openings TSV files (`eco`, `name`, `pgn` columns).
//!
//! This file is compiled twice: into the crate, and into `build.rs` (through `#[path]`), so
//! the very parser the engine ships checks every line at build time and a bad data file
//! fails the build, not the device. It may therefore only use the rules modules that
//! `build.rs` also includes (position, moves, san and what they need).

use crate::moves::Move;
use crate::position::Position;
use crate::san::{SanError, parse_san};
use std::fmt;

/// The header every file must start with.
pub const HEADER: &str = "eco\tname\tpgn";

/// One named line: its ECO code, its name and its moves from the start position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpeningLine {
    pub eco: String,
    pub name: String,
    pub moves: Vec<Move>,
}

/// A line that cannot be used, with where it is (file name and 1-based line number).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TsvError {
    pub file: String,
    pub line: usize,
    pub kind: TsvErrorKind,
}

/// What is wrong with a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TsvErrorKind {
    /// The first line is not `eco<TAB>name<TAB>pgn`.
    BadHeader(String),
    /// Not exactly three tab-separated columns.
    Columns(usize),
    /// The ECO code is not a letter A-E and two digits.
    BadEco(String),
    /// The name column is empty.
    EmptyName,
    /// The move list is empty.
    NoMoves,
    /// A move number that is not the one expected at this point (`1.` then `2.` …).
    BadMoveNumber { found: String, expected: u32 },
    /// A move number with no move after it, at the end of the line.
    MissingMove(String),
    /// A move (1-based ply) that is not SAN, or not legal, or ambiguous where it is played.
    BadMove {
        ply: usize,
        san: String,
        reason: SanError,
    },
}

impl fmt::Display for TsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} line {}: ", self.file, self.line)?;
        match &self.kind {
            TsvErrorKind::BadHeader(found) => {
                write!(f, "expected the header {HEADER:?}, found {found:?}")
            }
            TsvErrorKind::Columns(n) => {
                write!(
                    f,
                    "expected 3 tab-separated columns (eco, name, pgn), found {n}"
                )
            }
            TsvErrorKind::BadEco(eco) => {
                write!(f, "ECO code {eco:?} is not a letter A-E and two digits")
            }
            TsvErrorKind::EmptyName => f.write_str("the opening name is empty"),
            TsvErrorKind::NoMoves => f.write_str("the move list is empty"),
            TsvErrorKind::BadMoveNumber { found, expected } => {
                write!(f, "move number {found:?} where {expected}. was expected")
            }
            TsvErrorKind::MissingMove(number) => {
                write!(f, "move number {number:?} is not followed by a move")
            }
            TsvErrorKind::BadMove { ply, san, reason } => {
                write!(f, "ply {ply} {san:?} rejected: {reason}")
            }
        }
    }
}

impl std::error::Error for TsvError {}

/// Parses a whole file; `file` names it in errors. Stops at the first bad line.
///
/// # Errors
/// The first [`TsvError`] found.
pub fn parse_tsv(file: &str, text: &str) -> Result<Vec<OpeningLine>, TsvError> {
    let mut lines = text.lines().enumerate();
    let header = lines.next().map_or("", |(_, l)| l.trim_end_matches('\r'));
    if header != HEADER {
        return Err(TsvError {
            file: file.to_string(),
            line: 1,
            kind: TsvErrorKind::BadHeader(header.to_string()),
        });
    }
    lines
        .map(|(i, text)| {
            parse_line(text.trim_end_matches('\r')).map_err(|kind| TsvError {
                file: file.to_string(),
                line: i + 1,
                kind,
            })
        })
        .collect()
}

/// Parses one data line (not the header).
///
/// # Errors
/// What is wrong with it.
pub fn parse_line(text: &str) -> Result<OpeningLine, TsvErrorKind> {
    let columns: Vec<&str> = text.split('\t').collect();
    let [eco, name, pgn] = columns[..] else {
        return Err(TsvErrorKind::Columns(columns.len()));
    };
    let b = eco.as_bytes();
    if b.len() != 3 || !(b'A'..=b'E').contains(&b[0]) || !b[1..].iter().all(u8::is_ascii_digit) {
        return Err(TsvErrorKind::BadEco(eco.to_string()));
    }
    let name = name.trim();
    if name.is_empty() {
        return Err(TsvErrorKind::EmptyName);
    }
    let moves = parse_moves(pgn)?;
    Ok(OpeningLine {
        eco: eco.to_string(),
        name: name.to_string(),
        moves,
    })
}

/// Reads `1. e4 e5 2. Nf3` (move numbers before White's moves, checked) from the start
/// position, every move checked legal where it is played.
fn parse_moves(pgn: &str) -> Result<Vec<Move>, TsvErrorKind> {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    let mut expected_number = 1u32;
    let mut number_seen = false;
    let mut last_number = "";
    for token in pgn.split_whitespace() {
        if let Some(digits) = token.strip_suffix('.') {
            // A number is only expected before White's move, and must count up from 1.
            if number_seen || moves.len() % 2 != 0 || digits.parse::<u32>() != Ok(expected_number) {
                return Err(TsvErrorKind::BadMoveNumber {
                    found: token.to_string(),
                    expected: expected_number,
                });
            }
            number_seen = true;
            last_number = token;
            continue;
        }
        if moves.len() % 2 == 0 && !number_seen {
            return Err(TsvErrorKind::BadMoveNumber {
                found: token.to_string(),
                expected: expected_number,
            });
        }
        let mv = parse_san(&pos, token).map_err(|reason| TsvErrorKind::BadMove {
            ply: moves.len() + 1,
            san: token.to_string(),
            reason,
        })?;
        pos.play_unchecked(mv);
        moves.push(mv);
        if moves.len() % 2 == 0 {
            expected_number += 1;
        }
        number_seen = false;
    }
    if number_seen {
        return Err(TsvErrorKind::MissingMove(last_number.to_string()));
    }
    if moves.is_empty() {
        return Err(TsvErrorKind::NoMoves);
    }
    Ok(moves)
}
