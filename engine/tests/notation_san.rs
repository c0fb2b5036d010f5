//! SAN: exhaustive round trips over move trees of rich positions, and the tricky cases.

use chesspi_engine::san::{moves_to_san, parse_san, to_san};
use chesspi_engine::{Move, MoveKind, Position, Role, San, SanError, Square};
use std::collections::HashSet;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("valid FEN")
}

fn mv(pos: &Position, uci: &str) -> Move {
    pos.parse_uci_move(uci).expect("legal UCI move")
}

fn san_of(fen: &str, uci: &str) -> String {
    let p = pos(fen);
    to_san(&p, mv(&p, uci))
}

/// Checks every legal move of `p`: its SAN reads back as the same move, is unique among the
/// legal moves, carries `#`/`+` exactly when it mates/checks, and uses the least
/// disambiguation that works.
fn check_position(p: &Position) -> usize {
    let legal = p.legal_moves();
    let mut seen = HashSet::new();
    for &m in legal.iter() {
        let san = to_san(p, m);
        assert_eq!(parse_san(p, &san), Ok(m), "{san} in {p:?}");
        assert!(seen.insert(san.clone()), "duplicate SAN {san} in {p:?}");

        let mut next = *p;
        next.play_unchecked(m);
        let mark = if next.is_checkmate() {
            "#"
        } else if next.is_check() {
            "+"
        } else {
            ""
        };
        let bare = san.trim_end_matches(['+', '#']);
        assert_eq!(&san[bare.len()..], mark, "{san} in {p:?}");
        // Readers must not care about the marks.
        assert_eq!(parse_san(p, bare), Ok(m), "{bare} in {p:?}");
        assert_eq!(parse_san(p, &format!("{bare}+")), Ok(m));

        check_minimal_disambiguation(p, m, bare);
    }
    legal.len()
}

/// A piece move's origin file/rank is written only when the shorter forms are ambiguous.
fn check_minimal_disambiguation(p: &Position, m: Move, bare: &str) {
    let Ok(San::Normal {
        role, file, rank, ..
    }) = bare.parse::<San>()
    else {
        return;
    };
    if role == Role::Pawn || (file.is_none() && rank.is_none()) {
        return;
    }
    let rest = &bare[1 + usize::from(file.is_some()) + usize::from(rank.is_some())..];
    let letter = &bare[..1];
    let from = m.from().to_string();
    let (f, r) = (&from[..1], &from[1..]);
    let ambiguous = |text: String| {
        assert!(
            matches!(parse_san(p, &text), Err(SanError::Ambiguous { .. })),
            "{text} should be ambiguous since {bare} is written, in {p:?}"
        );
    };
    ambiguous(format!("{letter}{rest}"));
    match (file.is_some(), rank.is_some()) {
        (false, true) => ambiguous(format!("{letter}{f}{rest}")),
        (true, true) => {
            ambiguous(format!("{letter}{f}{rest}"));
            ambiguous(format!("{letter}{r}{rest}"));
        }
        _ => {}
    }
}

fn walk(p: &Position, depth: u32) -> usize {
    let mut checked = check_position(p);
    if depth > 0 {
        for &m in p.legal_moves().iter() {
            let mut next = *p;
            next.play_unchecked(m);
            checked += walk(&next, depth - 1);
        }
    }
    checked
}

#[test]
fn round_trip_over_move_trees() {
    let positions = [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            2,
        ),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            2,
        ),
        ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 3),
        (
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            2,
        ),
        (
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            2,
        ),
        (
            "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
            2,
        ),
        // Many queens and knights: disambiguation by file, rank and both.
        ("1k6/8/2Q1Q3/8/2Q1Q3/1N3N2/8/1N3NK1 w - - 0 1", 2),
        ("8/7k/8/8/8/Q7/7K/Q1Q5 w - - 0 1", 2),
        // Promotions with and without capture, both colours.
        ("n1n4k/1P1P4/8/8/8/8/1p1p4/N1N4K w - - 0 1", 3),
    ];
    let mut total = 0;
    for (fen, depth) in positions {
        total += walk(&pos(fen), depth);
    }
    assert!(total > 200_000, "checked {total} moves");
}

#[test]
fn disambiguation() {
    let knights = "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1";
    assert_eq!(san_of(knights, "b1d2"), "Nbd2");
    assert_eq!(san_of(knights, "f3d2"), "Nfd2");
    assert_eq!(san_of(knights, "f3d4"), "Nd4");
    let rooks = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
    assert_eq!(san_of(rooks, "a1a3"), "R1a3");
    assert_eq!(san_of(rooks, "a5a3"), "R5a3");
    let queens = "8/7k/8/8/8/Q7/7K/Q1Q5 w - - 0 1";
    assert_eq!(san_of(queens, "a1b2"), "Qa1b2");
    assert_eq!(san_of(queens, "a3b2"), "Q3b2");
    assert_eq!(san_of(queens, "c1b2"), "Qcb2");
    // A pinned knight cannot go to e4, so the other needs no disambiguation.
    let pinned = "4k3/8/8/4b3/8/2N3N1/8/K7 w - - 0 1";
    assert_eq!(san_of(pinned, "g3e4"), "Ne4");
    assert_eq!(parse_san(&pos(pinned), "Ne4"), Ok(mv(&pos(pinned), "g3e4")));
}

#[test]
fn ambiguity_and_illegality_are_errors() {
    let knights = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    assert_eq!(
        parse_san(&knights, "Nd2"),
        Err(SanError::Ambiguous { san: "Nd2".into() })
    );
    assert_eq!(parse_san(&knights, "N1d2"), Ok(mv(&knights, "b1d2")));
    assert_eq!(parse_san(&knights, "Nb1d2"), Ok(mv(&knights, "b1d2")));
    assert!(matches!(
        parse_san(&knights, "Nd3"),
        Err(SanError::Illegal { .. })
    ));
    assert!(matches!(
        parse_san(&knights, "Ncd2"),
        Err(SanError::Illegal { .. })
    ));
    let queens = pos("8/7k/8/8/8/Q7/7K/Q1Q5 w - - 0 1");
    for text in ["Qb2", "Qab2", "Q1b2"] {
        assert!(
            matches!(parse_san(&queens, text), Err(SanError::Ambiguous { .. })),
            "{text}"
        );
    }
    let start = Position::startpos();
    // 'x' on a move that captures nothing, a king walking into check, castling through pieces.
    for text in ["Nxf3", "exd3", "Ke2", "O-O", "O-O-O", "e5", "Ba3", "d8=Q"] {
        assert!(
            matches!(parse_san(&start, text), Err(SanError::Illegal { .. })),
            "{text}: {:?}",
            parse_san(&start, text)
        );
    }
}

#[test]
fn syntax_errors() {
    let start = Position::startpos();
    for text in [
        "", " ", "Nf", "N", "i4", "e9", "Pe4", "e2e4", "exd", "Kxx", "Q==", "e4+x", "O-O-O-O",
        "--", "Z0", "Ñf3", "Nf3 e5",
    ] {
        let err = parse_san(&start, text).expect_err(text);
        assert!(matches!(err, SanError::Syntax(_)), "{text}: {err:?}");
        assert!(!err.to_string().is_empty());
    }
}

#[test]
fn en_passant() {
    let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    let p = pos(fen);
    let ep = parse_san(&p, "exf6").unwrap();
    assert_eq!(ep.kind(), MoveKind::EnPassant);
    assert_eq!(to_san(&p, ep), "exf6");
    assert_eq!(parse_san(&p, "exf6e.p."), Ok(ep));
    // No en passant on d6: that pawn came earlier.
    assert!(matches!(
        parse_san(&p, "exd6"),
        Err(SanError::Illegal { .. })
    ));
}

#[test]
fn promotions() {
    let fen = "4k2r/6P1/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(san_of(fen, "g7h8q"), "gxh8=Q+");
    assert_eq!(san_of(fen, "g7h8r"), "gxh8=R+");
    assert_eq!(san_of(fen, "g7h8n"), "gxh8=N");
    assert_eq!(san_of(fen, "g7g8q"), "g8=Q+");
    let p = pos(fen);
    for text in ["gxh8=Q", "gxh8Q", "gxh8=q", "gxh8=Q+", "gxh8=Q#", "gxh8Q!"] {
        assert_eq!(parse_san(&p, text), Ok(mv(&p, "g7h8q")), "{text}");
    }
    // The promotion piece is required.
    assert!(matches!(
        parse_san(&p, "gxh8"),
        Err(SanError::Illegal { .. })
    ));
    // Promotion to a king or a pawn: the message says what a pawn may become.
    for text in ["g8=K", "gxh8=K", "g8=P"] {
        match parse_san(&p, text) {
            Err(SanError::Syntax(e)) => {
                assert!(e.reason.contains("knight, bishop"), "{text}: {e:?}")
            }
            other => panic!("{text}: {other:?}"),
        }
    }
    // A promotion that mates.
    assert_eq!(san_of("6k1/4PR2/6K1/8/8/8/8/8 w - - 0 1", "e7e8q"), "e8=Q#");
    // Black promotes with capture.
    assert_eq!(
        san_of("4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1", "b2a1n"),
        "bxa1=N"
    );
}

#[test]
fn castling() {
    assert_eq!(san_of("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1"), "O-O+");
    assert_eq!(
        san_of("2rkr3/2p1p3/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1"),
        "O-O-O#"
    );
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    assert_eq!(to_san(&p, mv(&p, "e8g8")), "O-O");
    assert_eq!(to_san(&p, mv(&p, "e8c8")), "O-O-O");
    for (text, uci) in [
        ("O-O", "e8g8"),
        ("0-0", "e8g8"),
        ("O-O+", "e8g8"),
        ("0-0-0", "e8c8"),
        ("O-O-O!", "e8c8"),
    ] {
        assert_eq!(parse_san(&p, text), Ok(mv(&p, uci)), "{text}");
    }
    // The king's own two-square move is not SAN for castling.
    assert!(parse_san(&p, "Kg8").is_err());
}

#[test]
fn tolerant_reading() {
    let start = Position::startpos();
    let e4 = mv(&start, "e2e4");
    for text in [
        "e4", "e4+", "e4#", "e4!", "e4?", "e4!?", "e4?!", "e4!!", " e4 ",
    ] {
        assert_eq!(parse_san(&start, text), Ok(e4), "{text}");
    }
    // A piece capture written without 'x' is accepted.
    let p = pos("4k3/8/8/3p4/8/4N3/8/4K3 w - - 0 1");
    assert_eq!(parse_san(&p, "Nd5"), Ok(mv(&p, "e3d5")));
    assert_eq!(to_san(&p, mv(&p, "e3d5")), "Nxd5");
}

#[test]
fn mates_and_lines() {
    let start = Position::startpos();
    let line: Vec<Move> = ["f2f3", "e7e5", "g2g4", "d8h4"]
        .iter()
        .scan(start, |p, uci| {
            let m = mv(p, uci);
            p.play_unchecked(m);
            Some(m)
        })
        .collect();
    assert_eq!(moves_to_san(&start, &line), ["f3", "e5", "g4", "Qh4#"]);
    // An illegal move ends the list.
    let bogus = Move::new(Square::E2, Square::E5, MoveKind::Normal);
    assert_eq!(moves_to_san(&start, &[line[0], bogus]), ["f3"]);
    // to_san of an illegal move gives its UCI text instead of panicking.
    assert_eq!(to_san(&start, bogus), "e2e5");
}
