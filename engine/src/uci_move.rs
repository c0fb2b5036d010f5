//! Reading UCI long algebraic moves (`e2e4`, `e7e8q`, castling as the king's move `e1g1`).
//! Writing is [`Move`]'s `Display`.

use crate::moves::Move;
use crate::position::Position;
use crate::types::{Role, Square};
use std::fmt;

/// Why a UCI move text was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UciMoveError {
    /// Not of the form `<from><to>[n|b|r|q]` with lower-case square names.
    Syntax { text: String },
    /// `0000`, the UCI null move: well-formed but never a move of a position.
    NullMove,
    /// Well-formed, but no legal move of this position has these squares and promotion.
    Illegal { text: String },
}

impl fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciMoveError::Syntax { text } => write!(
                f,
                "'{}' is not a UCI move (expected from and to squares and an optional promotion, like e2e4 or e7e8q)",
                text.escape_default()
            ),
            UciMoveError::NullMove => write!(f, "the null move 0000 cannot be played"),
            UciMoveError::Illegal { text } => write!(f, "{text} is not legal in this position"),
        }
    }
}

impl std::error::Error for UciMoveError {}

/// A UCI move as written, before it is checked against a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct UciMove {
    from: Square,
    to: Square,
    promotion: Option<Role>,
}

fn parse_syntax(text: &str) -> Result<UciMove, UciMoveError> {
    let syntax = || UciMoveError::Syntax {
        text: text.to_string(),
    };
    // Byte indexing below is safe: only ASCII passes this check.
    if !text.is_ascii() || !(4..=5).contains(&text.len()) {
        return Err(syntax());
    }
    if text == "0000" {
        return Err(UciMoveError::NullMove);
    }
    let square = |range| text.get(range).and_then(|t: &str| t.parse::<Square>().ok());
    let from = square(0..2).ok_or_else(syntax)?;
    let to = square(2..4).ok_or_else(syntax)?;
    let promotion = match text.as_bytes().get(4) {
        None => None,
        Some(b'n') => Some(Role::Knight),
        Some(b'b') => Some(Role::Bishop),
        Some(b'r') => Some(Role::Rook),
        Some(b'q') => Some(Role::Queen),
        Some(_) => return Err(syntax()),
    };
    Ok(UciMove {
        from,
        to,
        promotion,
    })
}

impl Position {
    /// Reads a move in UCI long algebraic notation and returns the legal move it names.
    /// Castling is written as the king's two-square move (`e1g1`); a promotion must name its
    /// piece (`e7e8q`).
    ///
    /// # Errors
    /// [`UciMoveError::Syntax`] when the text is not a UCI move at all,
    /// [`UciMoveError::NullMove`] for `0000`, [`UciMoveError::Illegal`] when it is
    /// well-formed but not a legal move here.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, UciMoveError> {
        let uci = parse_syntax(text)?;
        self.legal_moves()
            .iter()
            .copied()
            .find(|mv| {
                mv.from() == uci.from && mv.to() == uci.to && mv.promotion() == uci.promotion
            })
            .ok_or_else(|| UciMoveError::Illegal {
                text: text.to_string(),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::MoveKind;

    #[test]
    fn reads_every_kind_of_move() {
        let pos = Position::startpos();
        assert_eq!(
            pos.parse_uci_move("e2e4").unwrap(),
            Move::new(Square::E2, Square::E4, MoveKind::Normal)
        );
        let pos = Position::from_fen("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1").unwrap();
        assert_eq!(
            pos.parse_uci_move("e1g1").unwrap(),
            Move::new(Square::E1, Square::G1, MoveKind::Castle)
        );
        assert_eq!(pos.parse_uci_move("e1c1").unwrap().kind(), MoveKind::Castle);
        assert_eq!(
            pos.parse_uci_move("e5d6").unwrap().kind(),
            MoveKind::EnPassant
        );
        assert_eq!(
            pos.parse_uci_move("b7a8n").unwrap().kind(),
            MoveKind::Promotion(Role::Knight)
        );
    }

    #[test]
    fn keeps_syntax_and_legality_apart() {
        let pos = Position::startpos();
        for bad in [
            "", "e2", "e2e", "e2e4qq", "e2e9", "i2e4", "E2E4", "e7e8Q", "e7e8k", "é2e4",
        ] {
            assert!(
                matches!(pos.parse_uci_move(bad), Err(UciMoveError::Syntax { .. })),
                "{bad}"
            );
        }
        assert_eq!(pos.parse_uci_move("0000"), Err(UciMoveError::NullMove));
        for illegal in ["e2e5", "e1g1", "e2e4q", "e7e5", "a1a1"] {
            assert!(
                matches!(
                    pos.parse_uci_move(illegal),
                    Err(UciMoveError::Illegal { .. })
                ),
                "{illegal}"
            );
        }
        // A promotion must name its piece.
        let pos = Position::from_fen("8/4P3/8/8/8/8/k7/4K3 w - - 0 1").unwrap();
        assert!(matches!(
            pos.parse_uci_move("e7e8"),
            Err(UciMoveError::Illegal { .. })
        ));
        assert!(pos.parse_uci_move("e7e8r").is_ok());
    }

    #[test]
    fn every_legal_move_round_trips() {
        let pos =
            Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -")
                .unwrap();
        for mv in pos.legal_moves().iter().copied() {
            assert_eq!(pos.parse_uci_move(&mv.to_uci()), Ok(mv));
        }
    }
}
