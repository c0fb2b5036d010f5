//! Forsyth–Edwards Notation: reading with a precise error for every malformed field, and
//! writing.

use crate::position::{CastlingRights, CastlingSide, Position, PositionError, Setup};
use crate::types::{Color, File, Piece, Rank, Square};
use std::fmt;

pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// What is wrong with a FEN string: a field that cannot be read (each such variant names the
/// field it concerns), or a position that breaks a rule ([`FenError::Invalid`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// Fewer than the four required fields (placement, side, castling, en passant).
    MissingFields { found: usize },
    /// More than six fields.
    TooManyFields { found: usize },
    /// Piece placement: not eight ranks separated by `/`.
    WrongRankCount { found: usize },
    /// Piece placement: a character that is neither a piece letter nor a digit 1-8.
    BadPieceChar { rank: Rank, found: char },
    /// Piece placement: a rank that describes more or fewer than eight squares.
    WrongRankLength { rank: Rank, squares: usize },
    /// Piece placement: two digits in a row (such as `44`).
    ConsecutiveDigits { rank: Rank },
    /// Side to move: not `w` or `b`.
    BadSideToMove { found: String },
    /// Castling: not `-` or letters from `KQkq`.
    BadCastlingField { found: String },
    /// En passant: not `-` or a square name.
    BadEnPassantField { found: String },
    /// Half-move clock: not a non-negative number.
    BadHalfmoveClock { found: String },
    /// Full-move number: not a positive number.
    BadFullmoveNumber { found: String },
    /// Every field reads, but the position is not legal (see [`Position::from_setup`]).
    Invalid(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use FenError::*;
        match self {
            MissingFields { found } => write!(
                f,
                "FEN has {found} field(s); it needs at least 4 (placement, side to move, castling, en passant)"
            ),
            TooManyFields { found } => write!(f, "FEN has {found} fields; at most 6 are allowed"),
            WrongRankCount { found } => write!(
                f,
                "piece placement has {found} rank(s) separated by '/'; it needs 8"
            ),
            BadPieceChar { rank, found } => write!(
                f,
                "piece placement, rank {}: '{}' is not a piece letter (PNBRQK/pnbrqk) or a digit 1-8",
                rank.char(),
                found.escape_default()
            ),
            WrongRankLength { rank, squares } => write!(
                f,
                "piece placement, rank {}: describes {squares} squares instead of 8",
                rank.char()
            ),
            ConsecutiveDigits { rank } => write!(
                f,
                "piece placement, rank {}: two digits in a row",
                rank.char()
            ),
            BadSideToMove { found } => write!(
                f,
                "side to move: '{}' is not 'w' or 'b'",
                found.escape_default()
            ),
            BadCastlingField { found } => write!(
                f,
                "castling: '{}' is not '-' or distinct letters from KQkq",
                found.escape_default()
            ),
            BadEnPassantField { found } => write!(
                f,
                "en passant: '{}' is not '-' or a square",
                found.escape_default()
            ),
            BadHalfmoveClock { found } => write!(
                f,
                "half-move clock: '{}' is not a non-negative number",
                found.escape_default()
            ),
            BadFullmoveNumber { found } => write!(
                f,
                "full-move number: '{}' is not a positive number",
                found.escape_default()
            ),
            // The rule, after the field it concerns.
            Invalid(
                e @ (PositionError::MissingKing { .. }
                | PositionError::TooManyKings { .. }
                | PositionError::PawnOnBackRank { .. }
                | PositionError::TooManyPawns { .. }
                | PositionError::TooManyPieces { .. }),
            ) => write!(f, "piece placement: {e}"),
            Invalid(e @ PositionError::ImpossibleCastling { .. }) => write!(f, "castling: {e}"),
            Invalid(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Invalid(e) => Some(e),
            _ => None,
        }
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Invalid(e)
    }
}

/// Parses a FEN string into a legal [`Position`]. The move counters may be left out (they
/// default to `0 1`). An en passant square is accepted whenever a double push just passed over
/// it, whether or not a capture is possible.
///
/// # Errors
/// The first field that cannot be read, from left to right; then, all fields read, the first
/// rule the position breaks as [`FenError::Invalid`] (see [`Position::from_setup`]).
pub fn parse(fen: &str) -> Result<Position, FenError> {
    Ok(Position::from_setup(&parse_setup(fen)?)?)
}

/// Reads the fields of a FEN string into a [`Setup`], unchecked.
///
/// # Errors
/// The first field that cannot be read, from left to right.
pub fn parse_setup(fen: &str) -> Result<Setup, FenError> {
    let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
    if fields.len() < 4 {
        return Err(FenError::MissingFields {
            found: fields.len(),
        });
    }
    if fields.len() > 6 {
        return Err(FenError::TooManyFields {
            found: fields.len(),
        });
    }
    let board = parse_placement(fields[0])?;
    let turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => {
            return Err(FenError::BadSideToMove {
                found: other.to_string(),
            });
        }
    };
    let castling = parse_castling(fields[2])?;
    let ep_square = parse_ep(fields[3])?;
    let halfmove_clock = match fields.get(4) {
        None => 0,
        Some(s) => parse_number(s).ok_or_else(|| FenError::BadHalfmoveClock {
            found: s.to_string(),
        })?,
    };
    let fullmove_number = match fields.get(5) {
        None => 1,
        // Some real-world FENs write 0 here; it is read as 1.
        Some(s) => parse_number(s).ok_or_else(|| FenError::BadFullmoveNumber {
            found: s.to_string(),
        })?,
    };
    Ok(Setup {
        board,
        turn,
        castling,
        ep_square,
        halfmove_clock,
        fullmove_number,
    })
}

fn parse_number(s: &str) -> Option<u32> {
    if s.is_empty() || s.len() > 9 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_placement(field: &str) -> Result<[Option<Piece>; 64], FenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(FenError::WrongRankCount { found: ranks.len() });
    }
    let mut board = [None; 64];
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::ALL[7 - i];
        let mut file = 0usize;
        let mut last_was_digit = false;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                if last_was_digit {
                    return Err(FenError::ConsecutiveDigits { rank });
                }
                file += d as usize;
                last_was_digit = true;
            } else if let Some(piece) = Piece::from_char(c) {
                if let Some(f) = File::new(file) {
                    board[Square::from_coords(f, rank) as usize] = Some(piece);
                }
                file += 1;
                last_was_digit = false;
            } else {
                return Err(FenError::BadPieceChar { rank, found: c });
            }
        }
        if file != 8 {
            return Err(FenError::WrongRankLength {
                rank,
                squares: file,
            });
        }
    }
    Ok(board)
}

fn parse_castling(field: &str) -> Result<CastlingRights, FenError> {
    let mut rights = CastlingRights::NONE;
    if field == "-" {
        return Ok(rights);
    }
    let bad = || FenError::BadCastlingField {
        found: field.to_string(),
    };
    if field.is_empty() || field.len() > 4 {
        return Err(bad());
    }
    for c in field.chars() {
        let (color, side) = match c {
            'K' => (Color::White, CastlingSide::King),
            'Q' => (Color::White, CastlingSide::Queen),
            'k' => (Color::Black, CastlingSide::King),
            'q' => (Color::Black, CastlingSide::Queen),
            _ => return Err(bad()),
        };
        if rights.has(color, side) {
            return Err(bad());
        }
        rights.set(color, side);
    }
    Ok(rights)
}

fn parse_ep(field: &str) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let square: Square = field.parse().map_err(|_| FenError::BadEnPassantField {
        found: field.to_string(),
    })?;
    Ok(Some(square))
}

/// Writes a position as FEN. The en passant square is written only when a capture there is
/// legal (as python-chess does by default), so equal positions give equal FENs.
pub fn write(pos: &Position) -> String {
    let mut out = String::with_capacity(90);
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match pos.piece_at(Square::from_coords(file, *rank)) {
                Some(p) => {
                    if empty > 0 {
                        out.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    out.push(p.char());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push(char::from(b'0' + empty));
        }
        if *rank != Rank::First {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(pos.turn().char());
    out.push(' ');
    let rights = pos.castling_rights();
    if rights.is_empty() {
        out.push('-');
    } else {
        for (color, side, c) in [
            (Color::White, CastlingSide::King, 'K'),
            (Color::White, CastlingSide::Queen, 'Q'),
            (Color::Black, CastlingSide::King, 'k'),
            (Color::Black, CastlingSide::Queen, 'q'),
        ] {
            if rights.has(color, side) {
                out.push(c);
            }
        }
    }
    out.push(' ');
    match pos.ep_square() {
        Some(sq) => out.push_str(&sq.to_string()),
        None => out.push('-'),
    }
    out.push_str(&format!(
        " {} {}",
        pos.halfmove_clock(),
        pos.fullmove_number()
    ));
    out
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        parse(STARTPOS).expect("the start position FEN is valid")
    }

    /// Parses a FEN string into a validated position.
    ///
    /// # Errors
    /// A [`FenError`] naming the field and what is wrong with it.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        parse(fen)
    }

    /// The position as FEN.
    pub fn to_fen(&self) -> String {
        write(self)
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", write(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        assert_eq!(write(&parse(STARTPOS).unwrap()), STARTPOS);
    }

    #[test]
    fn counters_may_be_missing() {
        let pos = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").unwrap();
        assert_eq!(pos.halfmove_clock(), 0);
        assert_eq!(pos.fullmove_number(), 1);
        let pos = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 7").unwrap();
        assert_eq!(pos.halfmove_clock(), 7);
    }

    #[test]
    fn en_passant_square_after_double_push_is_valid_without_capture() {
        let pos = parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").unwrap();
        // No black pawn can take, so the square is not kept.
        assert_eq!(pos.ep_square(), None);
        let pos = parse("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3").unwrap();
        assert_eq!(pos.ep_square(), Some(Square::E3));
    }

    #[test]
    fn every_field_has_its_error() {
        use FenError::*;
        let cases: &[(&str, FenError)] = &[
            ("", MissingFields { found: 0 }),
            ("8/8/8/8/8/8/8/8 w - - 0 1 x", TooManyFields { found: 7 }),
            ("8/8/8 w - -", WrongRankCount { found: 3 }),
            (
                "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
                BadPieceChar {
                    rank: Rank::Seventh,
                    found: 'x',
                },
            ),
            (
                "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
                BadPieceChar {
                    rank: Rank::Sixth,
                    found: '9',
                },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPPP/RNBQKBNR w KQkq -",
                WrongRankLength {
                    rank: Rank::Second,
                    squares: 9,
                },
            ),
            (
                "rnbqkbnr/pppppppp/44/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
                ConsecutiveDigits { rank: Rank::Sixth },
            ),
            (
                "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ -",
                Invalid(PositionError::MissingKing {
                    color: Color::Black,
                }),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq -",
                Invalid(PositionError::TooManyKings {
                    color: Color::White,
                    count: 2,
                }),
            ),
            (
                "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq -",
                Invalid(PositionError::PawnOnBackRank { square: Square::H8 }),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq -",
                BadSideToMove { found: "x".into() },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KKkq -",
                BadCastlingField {
                    found: "KKkq".into(),
                },
            ),
            (
                "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -",
                Invalid(PositionError::ImpossibleCastling {
                    color: Color::Black,
                    side: CastlingSide::King,
                }),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9",
                BadEnPassantField { found: "e9".into() },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6",
                Invalid(PositionError::ImpossibleEnPassant { square: Square::E6 }),
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1",
                BadHalfmoveClock { found: "-1".into() },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 x",
                BadFullmoveNumber { found: "x".into() },
            ),
        ];
        for (fen, expected) in cases {
            assert_eq!(parse(fen).as_ref().err(), Some(expected), "{fen}");
        }
        assert_eq!(
            parse("4k3/8/8/8/8/8/8/4K2R b - - 0 1").err(),
            None,
            "black to move in check is fine"
        );
        assert_eq!(
            parse("4k3/8/8/8/8/8/8/4R2K w - - 0 1").err(),
            Some(Invalid(PositionError::OppositeCheck {
                color: Color::Black
            }))
        );
        assert_eq!(
            parse("4k3/8/3N1N2/8/8/8/8/4R2K b - - 0 1").err(),
            Some(Invalid(PositionError::ImpossibleCheck {
                color: Color::Black
            }))
        );
    }

    #[test]
    fn rules_are_said_after_the_field_they_concern() {
        let text = |fen: &str| parse(fen).err().map(|e| e.to_string());
        assert_eq!(
            text("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ -").as_deref(),
            Some("piece placement: there is no black king")
        );
        assert_eq!(
            text("rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq -").as_deref(),
            Some("piece placement: a pawn on h8, on the first or last rank")
        );
        assert_eq!(
            text("rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -").as_deref(),
            Some(
                "castling: black may castle on the king side but its king or that rook is not \
                 on its starting square"
            )
        );
        assert_eq!(
            text("4k3/8/8/8/8/8/8/4R2K w - - 0 1").as_deref(),
            Some("the side not to move (black) is in check")
        );
    }
}
