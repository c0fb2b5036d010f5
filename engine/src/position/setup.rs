//! Setting a position up: a [`Setup`] holds whatever was given (by a FEN string, by a position
//! editor), and [`Position::from_setup`] checks it against the rules every position must keep,
//! naming the first one it breaks as a [`PositionError`].

use super::{CastlingRights, CastlingSide, Position};
use crate::bitboard::Bitboard;
use crate::types::{Color, File, Piece, Rank, Role, Square};
use crate::zobrist;
use std::fmt;

/// A position as given, not yet checked: any pieces on any squares, the side to move, castling
/// rights, an en passant square and the move counters. [`Position::from_setup`] makes it a
/// [`Position`] or says what is wrong with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    /// The piece on each square, indexed by `Square as usize` (a1 = 0, b1 = 1, …, h8 = 63).
    pub board: [Option<Piece>; 64],
    pub turn: Color,
    pub castling: CastlingRights,
    /// The square a pawn of the side not to move has just passed over with a double push.
    pub ep_square: Option<Square>,
    /// Half-moves since the last capture or pawn move.
    pub halfmove_clock: u32,
    /// The number of the coming full move, from 1 (0 is read as 1).
    pub fullmove_number: u32,
}

impl Default for Setup {
    /// An empty board, White to move, no castling rights, no en passant square, counters
    /// `0 1`.
    fn default() -> Setup {
        Setup {
            board: [None; 64],
            turn: Color::White,
            castling: CastlingRights::NONE,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: 1,
        }
    }
}

/// A rule a [`Setup`] breaks, so that it is no legal position. [`Position::from_setup`]
/// checks them in this order and reports the first broken one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PositionError {
    /// No king of a colour (White's checked first).
    MissingKing { color: Color },
    /// More than one king of a colour.
    TooManyKings { color: Color, count: usize },
    /// A pawn on the first or eighth rank (the first such square from a1 to h1, then a8 to
    /// h8).
    PawnOnBackRank { square: Square },
    /// More than 8 pawns of a colour.
    TooManyPawns { color: Color, count: usize },
    /// More than 16 pieces (pawns and king included) of a colour.
    TooManyPieces { color: Color, count: usize },
    /// A castling right whose king or rook is not on its starting square.
    ImpossibleCastling { color: Color, side: CastlingSide },
    /// An en passant square that no double push of the side not to move has just passed
    /// over: not on its third rank, or no pawn in front of it, or it or the square behind it
    /// not empty.
    ImpossibleEnPassant { square: Square },
    /// The side not to move (`color`) is in check: its king could be taken.
    OppositeCheck { color: Color },
    /// The side to move (`color`) is in check from more than two pieces, which no move can
    /// give.
    ImpossibleCheck { color: Color },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionError::*;
        match self {
            MissingKing { color } => write!(f, "there is no {color} king"),
            TooManyKings { color, count } => {
                write!(f, "there are {count} {color} kings; a side has exactly one")
            }
            PawnOnBackRank { square } => {
                write!(f, "a pawn on {square}, on the first or last rank")
            }
            TooManyPawns { color, count } => {
                write!(f, "{color} has {count} pawns; a side has at most 8")
            }
            TooManyPieces { color, count } => {
                write!(f, "{color} has {count} pieces; a side has at most 16")
            }
            ImpossibleCastling { color, side } => {
                let side = match side {
                    CastlingSide::King => "king",
                    CastlingSide::Queen => "queen",
                };
                write!(
                    f,
                    "{color} may castle on the {side} side but its king or that rook is not on \
                     its starting square"
                )
            }
            ImpossibleEnPassant { square } => write!(
                f,
                "en passant on {square}, but no pawn has just passed over it with a double push"
            ),
            OppositeCheck { color } => write!(f, "the side not to move ({color}) is in check"),
            ImpossibleCheck { color } => write!(
                f,
                "the side to move ({color}) is in check from more than two pieces"
            ),
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// Checks a setup and makes it a position. An en passant square is accepted whenever a
    /// double push just passed over it, but kept only when a capture there is legal (so equal
    /// positions compare and hash equal); a full-move number of 0 becomes 1.
    ///
    /// # Errors
    /// The first rule the setup breaks, in the order of [`PositionError`]'s variants: kings,
    /// pawns on the back ranks, piece counts (White's, then Black's), castling rights (`KQkq`
    /// order), the en passant square, then checks.
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        check_board(&setup.board)?;
        check_castling(setup)?;
        check_ep(setup)?;
        let pos = Position::from_valid_setup(setup);
        let opponent_king = pos.king_of(!setup.turn);
        if pos.is_attacked(opponent_king, setup.turn, pos.occupied()) {
            return Err(PositionError::OppositeCheck { color: !setup.turn });
        }
        if pos.checkers().count() > 2 {
            return Err(PositionError::ImpossibleCheck { color: setup.turn });
        }
        Ok(pos)
    }

    /// Builds a position from a setup whose board, castling rights and en passant square have
    /// been checked. Computes hash and checkers; keeps the en passant square only if a capture
    /// there is legal.
    fn from_valid_setup(setup: &Setup) -> Position {
        let mut pos = Position {
            roles: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            turn: setup.turn,
            castling: setup.castling,
            ep_square: None,
            halfmove_clock: setup.halfmove_clock,
            fullmove_number: setup.fullmove_number.max(1),
            hash: 0,
            checkers: Bitboard::EMPTY,
        };
        for sq in Square::ALL {
            if let Some(p) = setup.board[sq as usize] {
                pos.put(p.color, p.role, sq);
            }
        }
        pos.hash ^= zobrist::castling(pos.castling.bits());
        if pos.turn == Color::Black {
            pos.hash ^= zobrist::black_to_move();
        }
        pos.checkers = pos.checkers_by(!pos.turn);
        if let Some(ep) = setup.ep_square {
            pos.set_ep_if_capturable(ep);
        }
        pos
    }
}

/// Kings, pawns on the back ranks, piece counts.
fn check_board(board: &[Option<Piece>; 64]) -> Result<(), PositionError> {
    let count = |color: Color, role: Option<Role>| {
        board
            .iter()
            .flatten()
            .filter(|p| p.color == color && role.is_none_or(|r| p.role == r))
            .count()
    };
    for color in Color::ALL {
        match count(color, Some(Role::King)) {
            0 => return Err(PositionError::MissingKing { color }),
            1 => {}
            count => return Err(PositionError::TooManyKings { color, count }),
        }
    }
    for square in Bitboard(0xFF00_0000_0000_00FF) {
        if board[square as usize].is_some_and(|p| p.role == Role::Pawn) {
            return Err(PositionError::PawnOnBackRank { square });
        }
    }
    for color in Color::ALL {
        let pawns = count(color, Some(Role::Pawn));
        if pawns > 8 {
            return Err(PositionError::TooManyPawns {
                color,
                count: pawns,
            });
        }
        let pieces = count(color, None);
        if pieces > 16 {
            return Err(PositionError::TooManyPieces {
                color,
                count: pieces,
            });
        }
    }
    Ok(())
}

/// Each right needs its king and rook on their starting squares.
fn check_castling(setup: &Setup) -> Result<(), PositionError> {
    for color in Color::ALL {
        for side in CastlingSide::ALL {
            if !setup.castling.has(color, side) {
                continue;
            }
            let rank = color.back_rank();
            let king_home = setup.board[Square::from_coords(File::E, rank) as usize];
            let rook_home = setup.board[Square::from_coords(side.rook_files().0, rank) as usize];
            if king_home != Some(Piece::new(color, Role::King))
                || rook_home != Some(Piece::new(color, Role::Rook))
            {
                return Err(PositionError::ImpossibleCastling { color, side });
            }
        }
    }
    Ok(())
}

/// The side not to move just pushed a pawn two squares over the en passant square: the pawn
/// stands in front of it, and the square and the pawn's starting square are empty.
fn check_ep(setup: &Setup) -> Result<(), PositionError> {
    let Some(square) = setup.ep_square else {
        return Ok(());
    };
    let mover = !setup.turn;
    let forward = mover.fold(1, -1);
    let impossible = PositionError::ImpossibleEnPassant { square };
    if square.rank() != Rank::Third.relative_to(mover) {
        return Err(impossible);
    }
    let pawn_square = square.offset(0, forward).ok_or(impossible)?;
    let start_square = square.offset(0, -forward).ok_or(impossible)?;
    if setup.board[pawn_square as usize] != Some(Piece::new(mover, Role::Pawn))
        || setup.board[square as usize].is_some()
        || setup.board[start_square as usize].is_some()
    {
        return Err(impossible);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fen;

    /// The setup a FEN string describes, unchecked (so that illegal positions can be written).
    fn setup(fen: &str) -> Setup {
        fen::parse_setup(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn every_rule_has_its_error() {
        use Color::{Black, White};
        use PositionError::*;
        let cases: &[(&str, PositionError)] = &[
            ("8/8/8/8/8/8/8/8 w - -", MissingKing { color: White }),
            ("4k3/8/8/8/8/8/8/8 w - -", MissingKing { color: White }),
            ("8/8/8/8/8/8/8/4K3 w - -", MissingKing { color: Black }),
            (
                "4k3/8/8/8/8/8/8/K3K3 w - -",
                TooManyKings {
                    color: White,
                    count: 2,
                },
            ),
            (
                "k1k1k3/8/8/8/8/8/8/4K3 b - -",
                TooManyKings {
                    color: Black,
                    count: 3,
                },
            ),
            // Kings come first, then the back ranks (a1 to h1, then a8 to h8), then counts.
            (
                "p3k3/8/8/8/8/8/8/4K1P1 w - -",
                PawnOnBackRank { square: Square::G1 },
            ),
            (
                "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - -",
                TooManyPawns {
                    color: White,
                    count: 9,
                },
            ),
            (
                "4k3/8/8/8/8/NNNNNNNN/PPPPPPPP/N3K3 w - -",
                TooManyPieces {
                    color: White,
                    count: 18,
                },
            ),
            (
                "4k3/pppppppp/p7/8/8/8/8/4K3 b - -",
                TooManyPawns {
                    color: Black,
                    count: 9,
                },
            ),
            (
                "1r2k3/8/8/8/8/8/8/4K3 w q -",
                ImpossibleCastling {
                    color: Black,
                    side: CastlingSide::Queen,
                },
            ),
            (
                "4k3/8/8/8/8/8/8/R3K3 w K -",
                ImpossibleCastling {
                    color: White,
                    side: CastlingSide::King,
                },
            ),
            // A pawn in front, but the square behind the en passant square is not empty.
            (
                "4k3/8/8/8/4P3/8/4N3/4K3 b - e3",
                ImpossibleEnPassant { square: Square::E3 },
            ),
            ("4k3/8/8/8/8/8/8/4R2K w - -", OppositeCheck { color: Black }),
            ("8/8/8/8/8/8/3k4/4K3 b - -", OppositeCheck { color: White }),
            (
                "4k3/8/3N1N2/8/8/8/8/4R2K b - -",
                ImpossibleCheck { color: Black },
            ),
        ];
        for (fen, expected) in cases {
            assert_eq!(
                Position::from_setup(&setup(fen)).as_ref().err(),
                Some(expected),
                "{fen}"
            );
        }
    }

    #[test]
    fn a_setup_gives_the_position_its_fen_gives() {
        for fen in [
            fen::STARTPOS,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            // The en passant square is kept only where a capture is legal.
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            // A double check is legal.
            "4k3/8/8/8/8/5n2/8/4K2r w - - 0 1",
        ] {
            let pos = Position::from_setup(&setup(fen)).unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(Ok(pos), Position::from_fen(fen), "{fen}");
            assert_eq!(pos.hash(), pos.compute_hash(), "{fen}");
        }
        let mut empty = Setup::default();
        empty.board[Square::E1 as usize] = Some(Piece::new(Color::White, Role::King));
        empty.board[Square::E8 as usize] = Some(Piece::new(Color::Black, Role::King));
        empty.fullmove_number = 0;
        let pos = Position::from_setup(&empty).expect("two kings");
        assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    }

    #[test]
    fn every_error_is_a_sentence() {
        let texts = [
            PositionError::MissingKing {
                color: Color::Black,
            },
            PositionError::ImpossibleCastling {
                color: Color::White,
                side: CastlingSide::Queen,
            },
            PositionError::OppositeCheck {
                color: Color::White,
            },
        ]
        .map(|e| e.to_string());
        assert_eq!(texts[0], "there is no black king");
        assert_eq!(
            texts[1],
            "white may castle on the queen side but its king or that rook is not on its \
             starting square"
        );
        assert_eq!(texts[2], "the side not to move (white) is in check");
    }
}
