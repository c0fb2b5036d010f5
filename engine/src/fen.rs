//! Forsyth–Edwards Notation: reading with a precise error for every malformed field, and
//! writing.

use crate::bitboard::Bitboard;
use crate::position::{CastlingRights, CastlingSide, Position, Setup};
use crate::types::{Color, File, Piece, Rank, Role, Square};
use std::fmt;

pub const STARTPOS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// What is wrong with a FEN string. Each variant names the field it concerns.
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
    /// Piece placement: no king of a colour.
    MissingKing { color: Color },
    /// Piece placement: more than one king of a colour.
    TooManyKings { color: Color },
    /// Piece placement: a pawn on the first or eighth rank.
    PawnOnBackRank { square: Square },
    /// Piece placement: more than 8 pawns or 16 pieces of a colour.
    TooManyPieces { color: Color },
    /// Side to move: not `w` or `b`.
    BadSideToMove { found: String },
    /// Castling: not `-` or letters from `KQkq`.
    BadCastlingField { found: String },
    /// Castling: a right whose king or rook is not on its starting square.
    ImpossibleCastling { right: char },
    /// En passant: not `-` or a square name.
    BadEnPassantField { found: String },
    /// En passant: a square no double pawn push just passed over.
    ImpossibleEnPassant { square: Square },
    /// Half-move clock: not a non-negative number.
    BadHalfmoveClock { found: String },
    /// Full-move number: not a positive number.
    BadFullmoveNumber { found: String },
    /// The side that just moved is in check.
    OppositeCheck,
    /// The side to move is in check from more pieces than any move can give.
    ImpossibleCheck,
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
            MissingKing { color } => write!(f, "piece placement: there is no {color} king"),
            TooManyKings { color } => write!(f, "piece placement: more than one {color} king"),
            PawnOnBackRank { square } => {
                write!(
                    f,
                    "piece placement: a pawn on {square}, on the first or last rank"
                )
            }
            TooManyPieces { color } => write!(
                f,
                "piece placement: {color} has more than 8 pawns or more than 16 pieces"
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
            ImpossibleCastling { right } => write!(
                f,
                "castling: right '{right}' but the king or rook is not on its starting square"
            ),
            BadEnPassantField { found } => write!(
                f,
                "en passant: '{}' is not '-' or a square",
                found.escape_default()
            ),
            ImpossibleEnPassant { square } => write!(
                f,
                "en passant: {square} is not a square a pawn has just passed over with a double push"
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
            OppositeCheck => write!(f, "the side not to move is in check"),
            ImpossibleCheck => write!(f, "the side to move is in check from too many pieces"),
        }
    }
}

impl std::error::Error for FenError {}

/// Parses a FEN string into a legal [`Position`]. The move counters may be left out (they
/// default to `0 1`). An en passant square is accepted whenever a double push just passed over
/// it, whether or not a capture is possible.
///
/// # Errors
/// The first [`FenError`] found, field by field from left to right.
pub fn parse(fen: &str) -> Result<Position, FenError> {
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
    let castling = parse_castling(fields[2], &board)?;
    let ep_square = parse_ep(fields[3], &board, turn)?;
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
    let setup = Setup {
        board,
        turn,
        castling,
        ep_square,
        halfmove_clock,
        fullmove_number,
    };
    let pos = Position::from_checked_setup(&setup);
    let opponent_king = pos.king_of(!turn);
    if pos.is_attacked(opponent_king, turn, pos.occupied()) {
        return Err(FenError::OppositeCheck);
    }
    if pos.checkers().count() > 2 {
        return Err(FenError::ImpossibleCheck);
    }
    Ok(pos)
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
    for color in Color::ALL {
        let king = Piece::new(color, Role::King);
        match board.iter().filter(|&&p| p == Some(king)).count() {
            0 => return Err(FenError::MissingKing { color }),
            1 => {}
            _ => return Err(FenError::TooManyKings { color }),
        }
        let pawns = board
            .iter()
            .filter(|&&p| p == Some(Piece::new(color, Role::Pawn)))
            .count();
        let pieces = board.iter().flatten().filter(|p| p.color == color).count();
        if pawns > 8 || pieces > 16 {
            return Err(FenError::TooManyPieces { color });
        }
    }
    for square in Bitboard(0xFF00_0000_0000_00FF) {
        if board[square as usize].is_some_and(|p| p.role == Role::Pawn) {
            return Err(FenError::PawnOnBackRank { square });
        }
    }
    Ok(board)
}

fn parse_castling(field: &str, board: &[Option<Piece>; 64]) -> Result<CastlingRights, FenError> {
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
        let rank = color.back_rank();
        let king_home = board[Square::from_coords(File::E, rank) as usize];
        let rook_home = board[Square::from_coords(side.rook_files().0, rank) as usize];
        if king_home != Some(Piece::new(color, Role::King))
            || rook_home != Some(Piece::new(color, Role::Rook))
        {
            return Err(FenError::ImpossibleCastling { right: c });
        }
        rights.set(color, side);
    }
    Ok(rights)
}

fn parse_ep(
    field: &str,
    board: &[Option<Piece>; 64],
    turn: Color,
) -> Result<Option<Square>, FenError> {
    if field == "-" {
        return Ok(None);
    }
    let square: Square = field.parse().map_err(|_| FenError::BadEnPassantField {
        found: field.to_string(),
    })?;
    // The opponent just pushed a pawn two squares over `square`: it stands in front of it, and
    // the square and the pawn's starting square are empty.
    let mover = !turn;
    let forward = mover.fold(1, -1);
    let impossible = FenError::ImpossibleEnPassant { square };
    if square.rank() != Rank::Third.relative_to(mover) {
        return Err(impossible);
    }
    let pawn_square = square.offset(0, forward).ok_or(impossible.clone())?;
    let start_square = square.offset(0, -forward).ok_or(impossible.clone())?;
    if board[pawn_square as usize] != Some(Piece::new(mover, Role::Pawn))
        || board[square as usize].is_some()
        || board[start_square as usize].is_some()
    {
        return Err(impossible);
    }
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
                MissingKing {
                    color: Color::Black,
                },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w kq -",
                TooManyKings {
                    color: Color::White,
                },
            ),
            (
                "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq -",
                PawnOnBackRank { square: Square::H8 },
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
                ImpossibleCastling { right: 'k' },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9",
                BadEnPassantField { found: "e9".into() },
            ),
            (
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6",
                ImpossibleEnPassant { square: Square::E6 },
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
            Some(OppositeCheck)
        );
        assert_eq!(
            parse("4k3/8/3N1N2/8/8/8/8/4R2K b - - 0 1").err(),
            Some(ImpossibleCheck)
        );
    }
}
