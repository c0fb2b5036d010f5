//! UCI long algebraic moves: every legal move of a move tree reads back, and nothing else does.

use chesspi_engine::{Position, UciMoveError};

fn walk(p: &Position, depth: u32, checked: &mut usize) {
    for &m in p.legal_moves().iter() {
        assert_eq!(p.parse_uci_move(&m.to_string()), Ok(m), "{m} in {p:?}");
        *checked += 1;
        if depth > 0 {
            let mut next = *p;
            next.play_unchecked(m);
            walk(&next, depth - 1, checked);
        }
    }
}

fn check_refusals(p: &Position) {
    let legal = p.legal_moves();
    // Every other from/to/promotion combination is refused as illegal, never as syntax.
    for from in chesspi_engine::Square::ALL {
        for to in chesspi_engine::Square::ALL {
            for promo in ["", "n", "b", "r", "q"] {
                let text = format!("{from}{to}{promo}");
                let is_legal = legal.iter().any(|m| m.to_string() == text);
                match p.parse_uci_move(&text) {
                    Ok(m) => assert!(is_legal && m.to_string() == text, "{text}"),
                    Err(UciMoveError::Illegal { .. }) => assert!(!is_legal, "{text}"),
                    Err(e) => panic!("{text}: {e}"),
                }
            }
        }
    }
}

#[test]
fn round_trip_and_exhaustive_refusal() {
    let mut checked = 0;
    for fen in [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ] {
        let p = Position::from_fen(fen).unwrap();
        walk(&p, 2, &mut checked);
        check_refusals(&p);
    }
    assert!(checked > 100_000);
}

#[test]
fn errors_say_what_is_wrong() {
    let p = Position::startpos();
    assert_eq!(
        p.parse_uci_move("e2e5").unwrap_err().to_string(),
        "e2e5 is not legal in this position"
    );
    assert!(
        p.parse_uci_move("castle")
            .unwrap_err()
            .to_string()
            .contains("not a UCI move")
    );
    assert_eq!(p.parse_uci_move("0000"), Err(UciMoveError::NullMove));
}
