//! The position editor's board: pieces put by hand, the side to move and the castling rights,
//! checked into a legal [`Position`] with a sentence that says what is wrong when it is not.
//! The rules every position keeps are the engine's ([`Position::from_setup`]); the editor adds
//! its own (kings side by side, promotions, a game already over) and the sentences.
//!
//! The en passant square is always empty: a set-up position has no move before it, and a
//! capture en passant could only matter right after a double pawn push.

use crate::tr;
use chesspi_engine::game::{Game, Termination};
use chesspi_engine::{
    CastlingRights, CastlingSide, Color, File, Piece, Position, PositionError, Rank, Role, Setup,
    Square,
};
use std::fmt;

/// What a tap on a square does: put this piece there, or take whatever stands there away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Piece(Piece),
    Eraser,
}

/// A board being set up: any pieces anywhere, not yet checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupBoard {
    board: [Option<Piece>; 64],
    turn: Color,
    castling: CastlingRights,
    /// Kept from the position the editor started from, so its move numbers go on.
    fullmove_number: u32,
}

/// Why a set-up position cannot be played. `Display` is the sentence the user reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// A rule every position must keep is broken (the engine checks these).
    Invalid(PositionError),
    /// More queens, rooks, bishops (per square colour) or knights than the missing pawns
    /// could have become.
    TooManyPromotions {
        color: Color,
        needed: usize,
        missing_pawns: usize,
    },
    /// The two kings stand on neighbouring squares (each would be in check from the other).
    KingsTouching,
    Checkmate {
        color: Color,
    },
    Stalemate {
        color: Color,
    },
    /// Neither side can ever mate.
    DeadPosition,
}

impl From<PositionError> for SetupError {
    fn from(e: PositionError) -> SetupError {
        SetupError::Invalid(e)
    }
}

fn name(color: Color) -> String {
    match color {
        Color::White => tr!("White"),
        Color::Black => tr!("Black"),
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            SetupError::Invalid(e) => invalid_text(e),
            SetupError::TooManyPromotions {
                color,
                needed,
                missing_pawns,
            } => tr!(
                "{} has more pieces than promotions allow: {} of them would have to be \
                 promoted pawns, but only {} of its pawns are missing.",
                name(*color),
                needed,
                missing_pawns
            ),
            SetupError::KingsTouching => {
                tr!("The kings stand next to each other: move one of them away.")
            }
            SetupError::Checkmate { color } => {
                tr!(
                    "{} is checkmated: there is nothing left to play.",
                    name(*color)
                )
            }
            SetupError::Stalemate { color } => {
                tr!(
                    "{} is stalemated: there is nothing left to play.",
                    name(*color)
                )
            }
            SetupError::DeadPosition => {
                tr!("Neither side has enough pieces to checkmate: the game would be drawn at once.")
            }
        };
        f.write_str(&text)
    }
}

/// The sentence for a rule the engine found broken.
fn invalid_text(e: &PositionError) -> String {
    use Color::{Black, White};
    match e {
        PositionError::MissingKing { color: White } => {
            tr!("There is no white king: put one on the board.")
        }
        PositionError::MissingKing { color: Black } => {
            tr!("There is no black king: put one on the board.")
        }
        PositionError::TooManyKings {
            color: White,
            count,
        } => tr!("There are {} white kings: take all but one away.", count),
        PositionError::TooManyKings {
            color: Black,
            count,
        } => tr!("There are {} black kings: take all but one away.", count),
        PositionError::PawnOnBackRank { square } => tr!(
            "The pawn on {} cannot be there: pawns never stand on the first or last rank.",
            square
        ),
        PositionError::TooManyPawns { color, count } => {
            tr!(
                "{} has {} pawns: a side has at most 8.",
                name(*color),
                count
            )
        }
        PositionError::TooManyPieces { color, count } => {
            tr!(
                "{} has {} pieces: a side has at most 16.",
                name(*color),
                count
            )
        }
        PositionError::OppositeCheck { color } => tr!(
            "{0} is in check but it is {1}'s move: change the side to move or the position.",
            name(*color),
            name(!*color)
        ),
        PositionError::ImpossibleCheck { color } => tr!(
            "{} is in check from more than two pieces: no move can do that.",
            name(*color)
        ),
        // Castling rights and the en passant square the board does not allow never reach the
        // engine from the editor (see `SetupBoard::setup`), but the engine's words would do.
        e @ (PositionError::ImpossibleCastling { .. }
        | PositionError::ImpossibleEnPassant { .. }) => {
            tr!("This position is not legal: {}.", e)
        }
    }
}

impl std::error::Error for SetupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SetupError::Invalid(e) => Some(e),
            _ => None,
        }
    }
}

/// Where a rule the engine found broken comes in the editor's order of checks (see
/// [`SetupBoard::validate`]).
fn stage(e: &PositionError) -> u8 {
    match e {
        PositionError::MissingKing { .. } | PositionError::TooManyKings { .. } => 0,
        PositionError::PawnOnBackRank { .. } => 1,
        PositionError::TooManyPawns { color, .. } | PositionError::TooManyPieces { color, .. } => {
            match color {
                Color::White => 2,
                Color::Black => 3,
            }
        }
        _ => 4,
    }
}

/// How many of a side's pieces must be promoted pawns: whatever exceeds the starting set
/// (one queen, two rooks, two knights, one bishop on each colour of square).
fn promotions_needed(board: &[Option<Piece>; 64], color: Color) -> usize {
    let count = |wanted: &dyn Fn(Square, Role) -> bool| {
        Square::ALL
            .iter()
            .filter(|&&sq| {
                board[sq as usize].is_some_and(|p| p.color == color && wanted(sq, p.role))
            })
            .count()
    };
    let excess = |n: usize, start: usize| n.saturating_sub(start);
    excess(count(&|_, r| r == Role::Queen), 1)
        + excess(count(&|_, r| r == Role::Rook), 2)
        + excess(count(&|_, r| r == Role::Knight), 2)
        + excess(count(&|sq, r| r == Role::Bishop && sq.is_light()), 1)
        + excess(count(&|sq, r| r == Role::Bishop && !sq.is_light()), 1)
}

impl Default for SetupBoard {
    fn default() -> SetupBoard {
        SetupBoard::empty()
    }
}

impl SetupBoard {
    /// An empty board, White to move.
    pub fn empty() -> SetupBoard {
        SetupBoard {
            board: [None; 64],
            turn: Color::White,
            castling: CastlingRights::NONE,
            fullmove_number: 1,
        }
    }

    /// The standard start position.
    pub fn start() -> SetupBoard {
        SetupBoard::from_position(&Position::startpos())
    }

    /// The pieces, side to move and castling rights of a position (a moment of a game).
    pub fn from_position(pos: &Position) -> SetupBoard {
        let mut board = [None; 64];
        for sq in Square::ALL {
            board[sq as usize] = pos.piece_at(sq);
        }
        SetupBoard {
            board,
            turn: pos.turn(),
            castling: pos.castling_rights(),
            fullmove_number: pos.fullmove_number(),
        }
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq as usize]
    }

    /// A tap on `sq`: the piece goes there, or comes off if that very piece stands there; the
    /// eraser clears the square. Castling rights the new board no longer allows are dropped.
    pub fn tap(&mut self, sq: Square, tool: Tool) {
        let cell = &mut self.board[sq as usize];
        *cell = match tool {
            Tool::Piece(p) if *cell != Some(p) => Some(p),
            _ => None,
        };
        self.drop_impossible_castling();
    }

    /// Takes every piece off: a new position, whose moves count from 1 again.
    pub fn clear(&mut self) {
        self.board = [None; 64];
        self.castling = CastlingRights::NONE;
        self.fullmove_number = 1;
    }

    pub fn turn(&self) -> Color {
        self.turn
    }

    pub fn set_turn(&mut self, color: Color) {
        self.turn = color;
    }

    /// Whether the board allows this right: the king and that rook on their home squares.
    pub fn castling_allowed(&self, color: Color, side: CastlingSide) -> bool {
        let rank = color.back_rank();
        let at = |file: File| self.board[Square::from_coords(file, rank) as usize];
        at(File::E) == Some(Piece::new(color, Role::King))
            && at(side.rook_files().0) == Some(Piece::new(color, Role::Rook))
    }

    pub fn has_castling(&self, color: Color, side: CastlingSide) -> bool {
        self.castling.has(color, side)
    }

    /// Turns a castling right on or off; a right the board does not allow stays off.
    pub fn toggle_castling(&mut self, color: Color, side: CastlingSide) {
        if !self.castling_allowed(color, side) {
            return;
        }
        let mut rights = CastlingRights::NONE;
        for c in Color::ALL {
            for s in CastlingSide::ALL {
                // The chosen right flips; the others stay.
                if self.castling.has(c, s) != ((c, s) == (color, side)) {
                    rights.set(c, s);
                }
            }
        }
        self.castling = rights;
    }

    fn drop_impossible_castling(&mut self) {
        let mut rights = CastlingRights::NONE;
        for c in Color::ALL {
            for s in CastlingSide::ALL {
                if self.castling.has(c, s) && self.castling_allowed(c, s) {
                    rights.set(c, s);
                }
            }
        }
        self.castling = rights;
    }

    /// The board in FEN (no en passant square, no moves since a capture), checked or not.
    pub fn to_fen(&self) -> String {
        let mut placement = String::new();
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match self.board[Square::from_coords(file, *rank) as usize] {
                    Some(p) => {
                        if empty > 0 {
                            placement.push_str(&empty.to_string());
                            empty = 0;
                        }
                        placement.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                placement.push_str(&empty.to_string());
            }
            if *rank != Rank::First {
                placement.push('/');
            }
        }
        let mut castling = String::new();
        for (c, s, letter) in [
            (Color::White, CastlingSide::King, 'K'),
            (Color::White, CastlingSide::Queen, 'Q'),
            (Color::Black, CastlingSide::King, 'k'),
            (Color::Black, CastlingSide::Queen, 'q'),
        ] {
            if self.castling.has(c, s) {
                castling.push(letter);
            }
        }
        if castling.is_empty() {
            castling.push('-');
        }
        format!(
            "{placement} {} {castling} - 0 {}",
            self.turn.char(),
            self.fullmove_number.max(1)
        )
    }

    /// The board as the engine takes it: no en passant square, no moves since a capture.
    fn setup(&self) -> Setup {
        Setup {
            board: self.board,
            turn: self.turn,
            castling: self.castling,
            ep_square: None,
            halfmove_clock: 0,
            fullmove_number: self.fullmove_number.max(1),
        }
    }

    /// The position, if it is legal and there is something to play.
    ///
    /// # Errors
    /// The first [`SetupError`] found: kings, kings side by side, pawns on the back ranks,
    /// White's then Black's piece counts and promotions, checks, then a game already over.
    pub fn validate(&self) -> Result<Position, SetupError> {
        // The engine says the first rule it finds broken, in the order above without the
        // editor's own rules; those come in between.
        let checked = Position::from_setup(&self.setup());
        let broken_up_to = |last: u8| {
            checked
                .as_ref()
                .err()
                .filter(|e| stage(e) <= last)
                .map(|&e| SetupError::Invalid(e))
        };
        if let Some(e) = broken_up_to(0) {
            return Err(e);
        }
        // Kings side by side: no side to move makes that legal, so say what is wrong.
        if self.kings_touching() {
            return Err(SetupError::KingsTouching);
        }
        for (last, color) in [(2, Color::White), (3, Color::Black)] {
            if let Some(e) = broken_up_to(last) {
                return Err(e);
            }
            self.check_promotions(color)?;
        }
        let pos = checked?;
        match Game::from_position(pos).outcome().map(|o| o.termination) {
            None => Ok(pos),
            Some(Termination::Checkmate) => Err(SetupError::Checkmate { color: pos.turn() }),
            Some(Termination::Stalemate) => Err(SetupError::Stalemate { color: pos.turn() }),
            Some(_) => Err(SetupError::DeadPosition),
        }
    }

    /// Whether the white and the black king stand on neighbouring squares.
    fn kings_touching(&self) -> bool {
        let king_at = |color: Color| {
            (0..64)
                .find(|&i| self.board[i].is_some_and(|p| p.color == color && p.role == Role::King))
        };
        if let (Some(w), Some(b)) = (king_at(Color::White), king_at(Color::Black)) {
            let (wf, wr, bf, br) = (w % 8, w / 8, b % 8, b / 8);
            return wf.abs_diff(bf) <= 1 && wr.abs_diff(br) <= 1;
        }
        false
    }

    /// More pieces of a kind than the side's missing pawns could have become (its pawns are
    /// at most 8: the engine has checked that).
    fn check_promotions(&self, color: Color) -> Result<(), SetupError> {
        let pawns = self
            .board
            .iter()
            .flatten()
            .filter(|p| p.color == color && p.role == Role::Pawn)
            .count();
        let needed = promotions_needed(&self.board, color);
        if needed > 8 - pawns {
            return Err(SetupError::TooManyPromotions {
                color,
                needed,
                missing_pawns: 8 - pawns,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(fen: &str) -> SetupBoard {
        // Tests describe boards in FEN; the placement is read by hand so that illegal boards
        // (which the FEN reader refuses) can be written too.
        let mut fields = fen.split(' ');
        let mut b = SetupBoard::empty();
        for (i, row) in fields.next().expect("placement").split('/').enumerate() {
            let rank = Rank::ALL[7 - i];
            let mut file = 0;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as usize;
                } else {
                    let f = File::new(file).expect("file");
                    b.board[Square::from_coords(f, rank) as usize] =
                        Some(Piece::from_char(c).expect("piece"));
                    file += 1;
                }
            }
        }
        if fields.next() == Some("b") {
            b.turn = Color::Black;
        }
        b
    }

    fn sq(name: &str) -> Square {
        name.parse().expect("square")
    }

    #[test]
    fn bad_positions_say_what_is_wrong() {
        use Color::{Black, White};
        let table: &[(&str, SetupError)] = &[
            (
                "8/8/8/8/8/8/8/8 w",
                SetupError::Invalid(PositionError::MissingKing { color: White }),
            ),
            (
                "4K3/8/8/8/8/8/8/8 w",
                SetupError::Invalid(PositionError::MissingKing { color: Black }),
            ),
            (
                "4k3/8/8/8/8/8/8/K3K3 w",
                SetupError::Invalid(PositionError::TooManyKings {
                    color: White,
                    count: 2,
                }),
            ),
            (
                "k1k1k3/8/8/8/8/8/8/4K3 w",
                SetupError::Invalid(PositionError::TooManyKings {
                    color: Black,
                    count: 3,
                }),
            ),
            (
                "4k3/8/8/8/8/8/8/P3K3 w",
                SetupError::Invalid(PositionError::PawnOnBackRank { square: sq("a1") }),
            ),
            (
                "3pk3/8/8/8/8/8/8/4K3 w",
                SetupError::Invalid(PositionError::PawnOnBackRank { square: sq("d8") }),
            ),
            (
                "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w",
                SetupError::Invalid(PositionError::TooManyPawns {
                    color: White,
                    count: 9,
                }),
            ),
            (
                "4k3/pppppppp/pp6/8/8/8/8/4K3 w",
                SetupError::Invalid(PositionError::TooManyPawns {
                    color: Black,
                    count: 10,
                }),
            ),
            // 8 pawns and 9 pieces: 17, even before counting promotions.
            (
                "4k3/8/8/8/8/NNNNNNNN/PPPPPPPP/N3K3 w",
                SetupError::Invalid(PositionError::TooManyPieces {
                    color: White,
                    count: 18,
                }),
            ),
            // Three queens and all eight pawns: two queens too many.
            (
                "4k3/8/8/8/8/8/PPPPPPPP/QQQ1K3 w",
                SetupError::TooManyPromotions {
                    color: White,
                    needed: 2,
                    missing_pawns: 0,
                },
            ),
            // Three knights with seven pawns is fine; four are one too many.
            (
                "nnnnk3/ppppppp1/8/8/8/8/8/4K3 w",
                SetupError::TooManyPromotions {
                    color: Black,
                    needed: 2,
                    missing_pawns: 1,
                },
            ),
            // Two bishops on light squares (b1, d1) with all eight pawns.
            (
                "4k3/8/8/8/8/8/PPPPPPPP/1B1BK3 w",
                SetupError::TooManyPromotions {
                    color: White,
                    needed: 1,
                    missing_pawns: 0,
                },
            ),
            // Black's king is attacked by the rook, but it is White's move.
            (
                "4k3/8/8/8/8/8/8/4RK2 w",
                SetupError::Invalid(PositionError::OppositeCheck { color: Black }),
            ),
            // The kings stand next to each other: said so, whoever is to move.
            ("8/8/8/3kK3/8/8/8/8 b", SetupError::KingsTouching),
            ("8/8/8/3kK3/8/8/8/8 w", SetupError::KingsTouching),
            ("8/8/8/8/8/8/3k4/4K3 w", SetupError::KingsTouching),
            // Three pieces give check at once.
            (
                "4k3/8/8/8/1b6/5n2/8/r3K3 w",
                SetupError::Invalid(PositionError::ImpossibleCheck { color: White }),
            ),
            (
                "R5k1/5ppp/8/8/8/8/8/6K1 b",
                SetupError::Checkmate { color: Black },
            ),
            (
                "k7/8/1QK5/8/8/8/8/8 b",
                SetupError::Stalemate { color: Black },
            ),
            ("4k3/8/8/8/8/8/8/4KB2 w", SetupError::DeadPosition),
        ];
        for (fen, expected) in table {
            assert_eq!(board(fen).validate().as_ref(), Err(expected), "{fen}");
        }
    }

    #[test]
    fn with_several_faults_the_first_in_order_is_said() {
        use Color::{Black, White};
        let table: &[(&str, SetupError)] = &[
            // No black king, and nine white pawns: the king first.
            (
                "8/8/8/8/8/P7/PPPPPPPP/4K3 w",
                SetupError::Invalid(PositionError::MissingKing { color: Black }),
            ),
            // Kings side by side, and a pawn on a1: the kings first.
            ("8/8/8/3kK3/8/8/8/P7 w", SetupError::KingsTouching),
            // A pawn on h8, and nine white pawns: the back rank first.
            (
                "4k2P/8/8/8/8/P7/PPPPPPPP/4K3 w",
                SetupError::Invalid(PositionError::PawnOnBackRank { square: sq("h8") }),
            ),
            // White's promotions before Black's nine pawns.
            (
                "4k3/pppppppp/p7/8/8/8/PPPPPPPP/QQQ1K3 w",
                SetupError::TooManyPromotions {
                    color: White,
                    needed: 2,
                    missing_pawns: 0,
                },
            ),
            // Black's promotions before the check on the side not to move.
            (
                "4k3/pppppppp/3N4/8/8/8/8/qqq3K1 w",
                SetupError::TooManyPromotions {
                    color: Black,
                    needed: 2,
                    missing_pawns: 0,
                },
            ),
        ];
        for (fen, expected) in table {
            assert_eq!(board(fen).validate().as_ref(), Err(expected), "{fen}");
        }
    }

    #[test]
    fn every_error_is_a_sentence() {
        let errors = [
            SetupError::Invalid(PositionError::MissingKing {
                color: Color::White,
            }),
            SetupError::Invalid(PositionError::PawnOnBackRank { square: sq("d8") }),
            SetupError::TooManyPromotions {
                color: Color::Black,
                needed: 2,
                missing_pawns: 1,
            },
            SetupError::Invalid(PositionError::OppositeCheck {
                color: Color::Black,
            }),
        ];
        let texts: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert_eq!(texts[0], "There is no white king: put one on the board.");
        assert!(texts[1].starts_with("The pawn on d8 cannot be there"));
        assert!(texts[2].contains("2 of them would have to be promoted pawns"));
        assert_eq!(
            texts[3],
            "Black is in check but it is White's move: change the side to move or the position."
        );
        assert!(texts.iter().all(|t| t.ends_with('.')));
    }

    #[test]
    fn legal_positions_become_positions() {
        for fen in [
            "4k3/8/8/8/8/8/8/4K2R w",
            "4k3/8/8/8/8/8/8/4K2R b",
            // Three queens with six pawns: two promotions, two pawns missing.
            "4k3/8/8/8/8/8/PPPPPP2/QQQ1K3 w",
            // White is in check from two pieces (knight and rook): a legal double check.
            "4k3/8/8/8/8/5n2/8/4K2r w",
        ] {
            let pos = board(fen)
                .validate()
                .unwrap_or_else(|e| panic!("{fen}: {e}"));
            assert_eq!(pos.to_fen(), board(fen).to_fen(), "{fen}");
        }
    }

    #[test]
    fn taps_put_and_take_pieces() {
        let mut b = SetupBoard::empty();
        let queen = Piece::new(Color::White, Role::Queen);
        let knight = Piece::new(Color::Black, Role::Knight);
        b.tap(sq("d4"), Tool::Piece(queen));
        assert_eq!(b.piece_at(sq("d4")), Some(queen));
        // Another piece replaces it; the same piece again takes it off.
        b.tap(sq("d4"), Tool::Piece(knight));
        assert_eq!(b.piece_at(sq("d4")), Some(knight));
        b.tap(sq("d4"), Tool::Piece(knight));
        assert_eq!(b.piece_at(sq("d4")), None);
        b.tap(sq("d4"), Tool::Piece(queen));
        b.tap(sq("d4"), Tool::Eraser);
        assert_eq!(b.piece_at(sq("d4")), None);
        b.tap(sq("d4"), Tool::Eraser);
        assert_eq!(b.piece_at(sq("d4")), None);
    }

    #[test]
    fn castling_is_offered_only_where_king_and_rook_stand_at_home() {
        let mut b = SetupBoard::start();
        assert_eq!(b.to_fen(), chesspi_engine::fen::STARTPOS);
        assert!(b.has_castling(Color::White, CastlingSide::King));
        // The h1 rook leaves: that right goes, and cannot be turned back on.
        b.tap(sq("h1"), Tool::Eraser);
        assert!(!b.castling_allowed(Color::White, CastlingSide::King));
        assert!(!b.has_castling(Color::White, CastlingSide::King));
        b.toggle_castling(Color::White, CastlingSide::King);
        assert!(!b.has_castling(Color::White, CastlingSide::King));
        // Back on h1 the right may be given again, by a tap.
        b.tap(sq("h1"), Tool::Piece(Piece::new(Color::White, Role::Rook)));
        assert!(b.castling_allowed(Color::White, CastlingSide::King));
        assert!(!b.has_castling(Color::White, CastlingSide::King));
        b.toggle_castling(Color::White, CastlingSide::King);
        assert!(b.has_castling(Color::White, CastlingSide::King));
        b.toggle_castling(Color::Black, CastlingSide::Queen);
        assert!(!b.has_castling(Color::Black, CastlingSide::Queen));
        assert!(b.has_castling(Color::Black, CastlingSide::King));
        assert_eq!(
            b.to_fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1"
        );
        b.clear();
        assert_eq!(b.to_fen(), "8/8/8/8/8/8/8/8 w - - 0 1");
    }

    #[test]
    fn a_moment_of_a_game_keeps_its_side_rights_and_move_number() {
        let pos =
            Position::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
                .expect("fen");
        let b = SetupBoard::from_position(&pos);
        assert_eq!(b.turn(), Color::White);
        let again = b.validate().expect("legal");
        // The move counter since the last capture starts again: nothing was played here.
        assert_eq!(
            again.to_fen(),
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3"
        );
        // Cleared, the board is a new position: its moves count from 1.
        let mut b = SetupBoard::from_position(&pos);
        b.clear();
        assert_eq!(b.to_fen(), "8/8/8/8/8/8/8/8 w - - 0 1");
    }
}
