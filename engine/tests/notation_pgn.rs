//! PGN: exact output, write → read round trips, and reading a real-world-looking file.

use chesspi_engine::pgn::{PgnErrorKind, read_games, write_game};
use chesspi_engine::{Color, GameResult, Move, PgnGame, Position, SanError};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).expect("valid FEN")
}

fn line(start: &Position, ucis: &[&str]) -> Vec<Move> {
    let mut p = *start;
    ucis.iter()
        .map(|uci| {
            let m = p.parse_uci_move(uci).expect("legal");
            p.play_unchecked(m);
            m
        })
        .collect()
}

const NO_TAGS: &[(&str, &str)] = &[];

#[test]
fn writes_the_export_format() {
    let start = Position::startpos();
    let moves = line(&start, &["f2f3", "e7e5", "g2g4", "d8h4"]);
    let tags = [
        ("White", "Fool"),
        ("Black", "Master"),
        ("Annotator", "A \"quoted\" name \\ here"),
        ("Event", "Casual game"),
        ("Result", "1-0"), // the result argument wins
        ("FEN", "ignored"),
    ];
    let text = write_game(&tags, &start, &moves, GameResult::BlackWins).unwrap();
    assert_eq!(
        text,
        r#"[Event "Casual game"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "Fool"]
[Black "Master"]
[Result "0-1"]
[Annotator "A \"quoted\" name \\ here"]

1. f3 e5 2. g4 Qh4# 0-1
"#
    );
    let games = read_games(&text);
    let game = games[0].as_ref().unwrap();
    assert_eq!(game.tag("Annotator"), Some("A \"quoted\" name \\ here"));
    assert_eq!(game.moves, moves);
    assert_eq!(game.result, GameResult::BlackWins);
}

#[test]
fn writes_setup_and_black_first_move_numbers() {
    let start = pos("r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 12");
    let moves = line(&start, &["g8f6", "h5f7"]);
    let text = write_game(NO_TAGS, &start, &moves, GameResult::WhiteWins).unwrap();
    assert!(text.contains(
        "[SetUp \"1\"]\n[FEN \"r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 12\"]\n"
    ));
    assert!(text.ends_with("\n\n12... Nf6 13. Qxf7# 1-0\n"), "{text}");
    // An empty game is just its result.
    let text = write_game(NO_TAGS, &Position::startpos(), &[], GameResult::Unknown).unwrap();
    assert!(text.ends_with("[Result \"*\"]\n\n*\n"), "{text}");
    assert!(!text.contains("FEN"));
}

#[test]
fn refuses_illegal_moves() {
    let start = Position::startpos();
    let mut moves = line(&start, &["e2e4", "e7e5"]);
    moves.push(moves[0]);
    let err = write_game(NO_TAGS, &start, &moves, GameResult::Unknown).unwrap_err();
    assert_eq!(err.mv, moves[0]);
}

/// A small deterministic generator, so the games are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

fn random_game(start: Position, plies: usize, rng: &mut Lcg) -> Vec<Move> {
    let mut p = start;
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        // Prefer promotions, castling and captures now and then so they appear often.
        let special: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| m.promotion().is_some() || m.is_castle() || p.is_capture(m))
            .collect();
        let m = if !special.is_empty() && rng.next(3) == 0 {
            special[rng.next(special.len())]
        } else {
            legal[rng.next(legal.len())]
        };
        p.play_unchecked(m);
        moves.push(m);
    }
    moves
}

#[test]
fn write_read_round_trip() {
    let starts = [
        Position::startpos(),
        pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        pos("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"),
        pos("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
        pos("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R b KQ - 1 8"),
    ];
    let results = [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::Unknown,
    ];
    let mut rng = Lcg(2026);
    let mut file = String::new();
    let mut expected = Vec::new();
    for i in 0..60 {
        let start = starts[i % starts.len()];
        let moves = random_game(start, 20 + rng.next(200), &mut rng);
        let result = results[i % results.len()];
        let tags = vec![
            ("Event".to_string(), format!("Round trip {i}")),
            ("White".to_string(), "Engine \"A\"".to_string()),
            ("PlyCount".to_string(), moves.len().to_string()),
        ];
        let text = write_game(&tags, &start, &moves, result).unwrap();
        for line in text.lines() {
            assert!(line.len() < 80, "line too long: {line}");
        }
        file.push_str(&text);
        file.push('\n');
        expected.push((start, moves, result, i));
    }
    let games = read_games(&file);
    assert_eq!(games.len(), expected.len());
    for (game, (start, moves, result, i)) in games.into_iter().zip(expected) {
        let game = game.unwrap();
        assert_eq!(game.start, start);
        assert_eq!(game.moves, moves);
        assert_eq!(game.result, result);
        assert_eq!(game.tag("Event"), Some(format!("Round trip {i}").as_str()));
        assert_eq!(game.tag("White"), Some("Engine \"A\""));
        assert_eq!(game.tag("Date"), Some("????.??.??"));
        assert_eq!(game.tag("Result"), Some(result.as_str()));
        assert_eq!(game.tag("SetUp").is_some(), start != Position::startpos());
        // Writing what was read gives the same text again.
        let again = game.to_pgn().unwrap();
        assert_eq!(read_games(&again), vec![Ok(game)]);
    }
}

#[test]
fn wraps_greedily_below_80_columns() {
    let start = Position::startpos();
    let mut rng = Lcg(7);
    let moves = random_game(start, 300, &mut rng);
    let text = write_game(NO_TAGS, &start, &moves, GameResult::Unknown).unwrap();
    let movetext: Vec<&str> = text.split("\n\n").nth(1).unwrap().lines().collect();
    assert!(movetext.len() > 5);
    for pair in movetext.windows(2) {
        assert!(pair[0].len() <= 79);
        // The next line's first token would not have fitted.
        let first = pair[1].split(' ').next().unwrap();
        assert!(pair[0].len() + 1 + first.len() > 79, "{pair:?}");
    }
}

fn sample() -> Vec<Result<PgnGame, chesspi_engine::PgnError>> {
    read_games(include_str!("data/sample.pgn"))
}

#[test]
fn reads_a_real_world_file() {
    let games = sample();
    assert_eq!(games.len(), 6);
    // End positions as python-chess 1.11 computes them for the same file.
    let expected: [(&str, usize, &str, GameResult); 6] = [
        (
            "Paris",
            33,
            "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17",
            GameResult::WhiteWins,
        ),
        (
            "London",
            45,
            "r1bk3r/p2pBpNp/n4n2/1p1NP2P/6P1/3P4/P1P1K3/q5b1 b - - 1 23",
            GameResult::WhiteWins,
        ),
        ("Broken", 0, "", GameResult::Unknown),
        (
            "Endgame study",
            28,
            "4k3/4P3/4K3/8/8/8/8/8 b - - 2 54",
            GameResult::Draw,
        ),
        (
            "No result token",
            4,
            "rnbqkbnr/ppp2ppp/4p3/3p4/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3",
            GameResult::Unknown,
        ),
        (
            "Last",
            4,
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            GameResult::BlackWins,
        ),
    ];
    for (game, (event, plies, fen, result)) in games.iter().zip(expected) {
        if event == "Broken" {
            continue;
        }
        let game = game.as_ref().unwrap();
        assert_eq!(game.tag("Event"), Some(event));
        assert_eq!(game.moves.len(), plies, "{event}");
        assert_eq!(game.end_position().to_fen(), fen, "{event}");
        assert_eq!(game.result, result, "{event}");
    }
    let first = games[0].as_ref().unwrap();
    assert_eq!(first.tag("ECO"), Some("C41"));
    assert_eq!(first.tag("Black"), Some("Duke Karl / Count Isouard"));
    assert!(games[4].as_ref().unwrap().tag("Result").is_none());
    let study = games[3].as_ref().unwrap();
    assert_eq!(study.start.turn(), Color::Black);
    assert_eq!(study.start.fullmove_number(), 40);
}

#[test]
fn a_bad_game_names_the_move_and_the_next_game_is_read() {
    let games = sample();
    let err = games[2].as_ref().unwrap_err();
    assert_eq!(err.game, 3);
    assert_eq!(err.line, 42);
    match &err.kind {
        PgnErrorKind::Move {
            number,
            turn,
            san,
            error,
        } => {
            assert_eq!((*number, *turn, san.as_str()), (14, Color::Black, "Nf6"));
            assert!(matches!(error, SanError::Illegal { .. }));
        }
        other => panic!("unexpected error {other:?}"),
    }
    assert_eq!(err.to_string(), "game 3, move 14... Nf6 (line 42): illegal");
    assert!(games[3].is_ok());
}

/// Whether an error kind is the one expected.
type KindCheck = fn(&PgnErrorKind) -> bool;

fn first_error(text: &str) -> chesspi_engine::PgnError {
    read_games(text)
        .into_iter()
        .find_map(Result::err)
        .unwrap_or_else(|| panic!("no error in {text}"))
}

#[test]
fn every_problem_has_its_error_and_reading_goes_on() {
    let good = "[Event \"Good\"]\n\n1. e4 e5 1-0\n";
    let cases: &[(&str, KindCheck)] = &[
        ("[Event Broken]\n1. e4 *\n", |k| {
            matches!(k, PgnErrorKind::MalformedTag { .. })
        }),
        ("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n1. e4 *\n", |k| {
            matches!(k, PgnErrorKind::BadFen(_))
        }),
        ("[SetUp \"1\"]\n1. e4 *\n", |k| {
            matches!(k, PgnErrorKind::MissingFen)
        }),
        ("[Variant \"Atomic\"]\n1. e4 *\n", |k| {
            matches!(k, PgnErrorKind::UnsupportedVariant(_))
        }),
        ("1. e4 (1. d4 d5 *\n", |k| {
            matches!(k, PgnErrorKind::UnclosedVariation)
        }),
        ("1. e4 e5 ) *\n", |k| {
            matches!(k, PgnErrorKind::UnexpectedChar(')'))
        }),
        ("1. e4 } e5 *\n", |k| {
            matches!(k, PgnErrorKind::UnexpectedChar('}'))
        }),
        ("1. e4 $ e5 *\n", |k| {
            matches!(k, PgnErrorKind::UnexpectedChar('$'))
        }),
        ("1. e4 Nd2 *\n", |k| {
            matches!(
                k,
                PgnErrorKind::Move {
                    error: SanError::Illegal { .. },
                    ..
                }
            )
        }),
        (
            "[FEN \"4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1\"]\n1. Nd2 *\n",
            |k| {
                matches!(
                    k,
                    PgnErrorKind::Move {
                        error: SanError::Ambiguous { .. },
                        ..
                    }
                )
            },
        ),
        ("1. e4 -- 2. d4 *\n", |k| {
            matches!(
                k,
                PgnErrorKind::Move {
                    error: SanError::Syntax(_),
                    ..
                }
            )
        }),
    ];
    for (bad, is_expected) in cases {
        let text = format!("{good}\n{bad}\n{good}");
        let games = read_games(&text);
        assert_eq!(games.len(), 3, "{bad}");
        assert!(games[0].is_ok() && games[2].is_ok(), "{bad}: {games:?}");
        let err = games[1].as_ref().unwrap_err();
        assert!(is_expected(&err.kind), "{bad}: {err:?}");
        assert_eq!(err.game, 2);
        assert!(err.to_string().starts_with("game 2, "), "{err}");
    }
    // A tag cut off in the tags, and a stray `[` in the movetext: the error is this game's,
    // and the next game keeps its own tags.
    let cut_tag = "[Event \"Cut\"]\n[Site \"trunc\n";
    let stray = "[Event \"A\"]\n\n1. e4 [ *\n";
    for bad in [cut_tag, stray] {
        let text = format!("{bad}\n[Event \"Real\"]\n[White \"Carla\"]\n\n1. e4 e5 1-0\n");
        let games = read_games(&text);
        assert_eq!(games.len(), 2, "{bad}: {games:?}");
        let err = games[0].as_ref().unwrap_err();
        assert!(
            matches!(err.kind, PgnErrorKind::MalformedTag { .. }),
            "{err:?}"
        );
        assert_eq!((err.game, err.line), (1, if bad == stray { 3 } else { 2 }));
        let real = games[1].as_ref().unwrap();
        assert_eq!(
            (real.tag("Event"), real.tag("White")),
            (Some("Real"), Some("Carla"))
        );
        assert_eq!(real.moves.len(), 2);
    }
    // A 10 000-character token is cut in the message, and control bytes are escaped.
    let err = first_error(&format!("1. e4 {}\u{0} *\n", "x".repeat(10_000)));
    let message = err.to_string();
    assert!(message.len() < 200 && message.contains("x…"), "{message}");
    let err = first_error("1. e4 N\u{0}f3 *\n");
    assert!(err.to_string().contains("N\\0f3"), "{err}");
    // Tags and no moves (a download cut short), then a game: two games, each its tags.
    let text = "[Event \"Truncated\"]\n[White \"Anna\"]\n[Result \"0-1\"]\n\n\
                [Event \"Real\"]\n[White \"Carla\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n";
    let games = read_games(text);
    assert_eq!(games.len(), 2);
    let first = games[0].as_ref().unwrap();
    assert_eq!((first.tag("White"), first.moves.len()), (Some("Anna"), 0));
    let real = games[1].as_ref().unwrap();
    assert_eq!((real.tag("White"), real.moves.len()), (Some("Carla"), 2));
    // An unterminated comment swallows the rest of the text; it is still reported.
    let err = first_error("1. e4 { never closed\n\n[Event \"Next\"]\n1. d4 *\n");
    assert!(matches!(err.kind, PgnErrorKind::UnterminatedComment));
}

#[test]
fn movetext_variants() {
    let text = "\u{feff}; a file comment\n\
                [Event \"Glued\"]\r\n\r\n\
                1.e4 e5 2.Nf3 $1 {comment (with a paren} Nc6 (2...d6 3.d4 {x} (3.Bc4)) \
                3.Bb5 !? a6 4.Ba4 4...Nf6? e.p. 5.1/2-1/2\n\
                \n\
                [Event \"Next\"]\n\
                [Result \"1-0\"]\n\
                1. d4 d5 2. c4 ; comment to end of line 2. Nf3\n\
                %escaped line 3. Nf3\n\
                dxc4";
    let games = read_games(text);
    assert_eq!(games.len(), 2, "{games:?}");
    let glued = games[0].as_ref().unwrap();
    let sans = chesspi_engine::san::moves_to_san(&glued.start, &glued.moves);
    assert_eq!(sans, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"]);
    assert_eq!(glued.result, GameResult::Draw);
    let next = games[1].as_ref().unwrap();
    let sans = chesspi_engine::san::moves_to_san(&next.start, &next.moves);
    assert_eq!(sans, ["d4", "d5", "c4", "dxc4"]);
    // No result token: the Result tag is used.
    assert_eq!(next.result, GameResult::WhiteWins);
}

#[test]
fn nothing_to_read() {
    assert!(read_games("").is_empty());
    assert!(read_games("  \n\n").is_empty());
    assert!(read_games("{just a comment}\n; and another\n").is_empty());
    // A game of tags only.
    let games = read_games("[Event \"Empty\"]\n[Result \"*\"]\n");
    assert_eq!(games.len(), 1);
    assert!(games[0].as_ref().unwrap().moves.is_empty());
}

mod game_records {
    use super::*;
    use chesspi_engine::game::{Game, Outcome, Termination};
    use chesspi_engine::pgn::write_game_record;

    fn played(ucis: &[&str]) -> Game {
        let start = Position::startpos();
        Game::from_moves(start, &line(&start, ucis)).unwrap()
    }

    fn reread(game: &Game) -> (String, Game) {
        let text = write_game_record(game, &[("White", "Me")]);
        let mut games = read_games(&text);
        assert_eq!(games.len(), 1);
        let read = games.remove(0).unwrap();
        assert_eq!(read.moves, game.moves());
        (text, read.to_game().unwrap())
    }

    #[test]
    fn checkmate() {
        let game = played(&["f2f3", "e7e5", "g2g4", "d8h4"]);
        let (text, back) = reread(&game);
        assert!(
            text.contains("[Result \"0-1\"]\n[Termination \"normal\"]\n"),
            "{text}"
        );
        assert!(text.ends_with("1. f3 e5 2. g4 Qh4# 0-1\n"), "{text}");
        assert_eq!(back.outcome(), game.outcome());
        assert_eq!(back.outcome().unwrap().termination, Termination::Checkmate);
    }

    #[test]
    fn outcomes_the_moves_do_not_show() {
        let mut game = played(&["e2e4"]);
        game.resign(Color::Black).unwrap();
        let (text, back) = reread(&game);
        assert!(text.ends_with("1. e4 1-0\n"), "{text}");
        assert_eq!(
            back.outcome(),
            Some(Outcome::win(Color::White, Termination::Resignation))
        );

        let mut game = played(&["e2e4", "e7e5"]);
        game.flag(Color::White).unwrap();
        let (text, back) = reread(&game);
        assert!(text.contains("[Termination \"time forfeit\"]"), "{text}");
        assert_eq!(
            back.outcome(),
            Some(Outcome::win(Color::Black, Termination::Time))
        );

        let mut game = played(&["d2d4"]);
        game.agree_draw().unwrap();
        let (_, back) = reread(&game);
        assert_eq!(back.outcome(), Some(Outcome::draw(Termination::Agreement)));

        let mut game = played(&[
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ]);
        game.claim_draw().unwrap();
        let (_, back) = reread(&game);
        assert_eq!(
            back.outcome(),
            Some(Outcome::draw(Termination::ThreefoldRepetition))
        );

        // A game in progress.
        let game = played(&["e2e4"]);
        let (text, back) = reread(&game);
        assert!(!text.contains("Termination"));
        assert!(text.ends_with("1. e4 *\n"));
        assert_eq!(back.outcome(), None);
        assert_eq!(back.moves(), game.moves());
    }
}
