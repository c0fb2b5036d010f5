//! Tests of opening names and the book, against the shipped data files themselves.

use super::table::{self, BookChecks};
use super::tsv::{self, OpeningLine, TsvErrorKind};
use super::*;
use crate::san::{SanError, parse_san};
use std::collections::HashSet;

const FILES: [(&str, &str); 5] = [
    ("a.tsv", include_str!("../../data/openings/a.tsv")),
    ("b.tsv", include_str!("../../data/openings/b.tsv")),
    ("c.tsv", include_str!("../../data/openings/c.tsv")),
    ("d.tsv", include_str!("../../data/openings/d.tsv")),
    ("e.tsv", include_str!("../../data/openings/e.tsv")),
];
const CHECKS: &str = include_str!("../../data/openings/book-checks.tsv");

fn all_lines() -> Vec<OpeningLine> {
    FILES
        .iter()
        .flat_map(|(name, text)| tsv::parse_tsv(name, text).unwrap())
        .collect()
}

/// A game from the start position through these SAN moves.
fn game(sans: &str) -> Game {
    let mut game = Game::new();
    for san in sans.split_whitespace() {
        let mv = parse_san(game.position(), san).unwrap();
        game.play(mv).unwrap();
    }
    game
}

fn opening(eco: &'static str, name: &'static str) -> Option<Opening> {
    Some(Opening { eco, name })
}

#[test]
fn tables_come_from_the_shipped_files() {
    assert_eq!(data_fingerprint(), table::fingerprint(FILES));
    assert_eq!(
        BookChecks::parse(CHECKS).unwrap().fingerprint,
        data_fingerprint()
    );
    assert_eq!(named_line_count(), 3807);
    assert_eq!(all_lines().len(), 3807);
}

#[test]
fn every_named_line_is_found_by_its_final_position() {
    for line in all_lines() {
        let game = Game::from_moves(Position::startpos(), &line.moves).unwrap();
        let found = classify(&game).unwrap();
        assert_eq!((found.eco, found.name), (&*line.eco, &*line.name));
        assert_eq!(named(game.position()), Some(found));
    }
}

#[test]
fn names_follow_the_game() {
    let g = game("e4 e5 Nf3 Nc6 Bc4");
    assert_eq!(opening_at(&g, 0), None, "the start position has no name");
    assert_eq!(opening_at(&g, 1), opening("B00", "King's Pawn Game"));
    assert_eq!(
        opening_at(&g, 4),
        opening("C44", "King's Knight Opening: Normal Variation")
    );
    assert_eq!(classify(&g), opening("C50", "Italian Game"));
    assert_eq!(
        opening_at(&g, 99),
        classify(&g),
        "past the end is the whole game"
    );
    assert_eq!(
        classify(&g).map(|o| o.to_string()).as_deref(),
        Some("C50 Italian Game")
    );
}

#[test]
fn transposed_move_orders_reach_the_same_name() {
    // Queen's pawn first or English first: the same position after four plies, and both
    // named Nimzo-Indian once Black pins the knight.
    let (a, b) = (game("d4 Nf6 c4 e6"), game("c4 e6 d4 Nf6"));
    assert!(a.position().is_same_position(b.position()));
    assert!(in_book_territory(a.position()));
    let nimzo = opening("E20", "Nimzo-Indian Defense");
    for g in [
        game("d4 Nf6 c4 e6 Nc3 Bb4"),
        game("c4 e6 d4 Nf6 Nc3 Bb4"),
        game("c4 Nf6 Nc3 e6 d4 Bb4"),
        game("d4 e6 c4 Nf6 Nc3 Bb4"),
    ] {
        assert_eq!(classify(&g), nimzo, "{:?}", g.san_moves());
    }
    // The unnamed position after four plies keeps each order's last name until then.
    assert_eq!(named(a.position()), None);
    assert_ne!(classify(&a), None);
    assert_ne!(classify(&b), None);
}

#[test]
fn the_name_is_frozen_once_the_game_leaves_the_named_lines() {
    // 3.Ng1 is on no named line; 3...Nb8 4.Nf3 Nc6 5.Bc4 then reaches the Italian Game's position,
    // but the game has left book territory, so it keeps the name it had.
    let g = game("e4 e5 Nf3 Nc6 Ng1 Nb8 Nf3 Nc6 Bc4");
    assert!(!in_book_territory(&g.positions()[5]));
    assert_eq!(named(g.position()), opening("C50", "Italian Game"));
    let c44 = opening("C44", "King's Knight Opening: Normal Variation");
    assert_eq!(classify(&g), c44);
    for ply in 4..=g.moves().len() {
        assert_eq!(opening_at(&g, ply), c44, "ply {ply}");
    }
}

#[test]
fn a_game_from_elsewhere_has_no_name() {
    let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    let g = Game::from_position(pos);
    assert!(!in_book_territory(g.position()));
    assert_eq!(classify(&g), None);
    assert!(book_moves(g.position()).is_empty());
    assert_eq!(book_move(g.position(), 7), None);
}

/// Every position of every named line, with whether the book has moves there.
#[test]
fn every_book_move_is_legal_and_every_entry_is_reachable() {
    let mut seen = HashSet::new();
    let mut entries = 0;
    for line in all_lines() {
        let mut pos = Position::startpos();
        for &mv in &line.moves {
            if seen.insert(pos.hash()) {
                let moves = book_moves(&pos);
                entries += moves.len();
                for b in &moves {
                    assert!(pos.is_legal(b.mv), "{} in {}", b.mv, pos.to_fen());
                    assert!(b.weight > 0);
                }
                for r in 0..8u64 {
                    if let Some(mv) = book_move(&pos, r) {
                        assert!(moves.iter().any(|b| b.mv == mv));
                    }
                }
            }
            pos.play_unchecked(mv);
        }
    }
    // Every entry of the generated table belongs to a position of the data (nothing stray,
    // nothing illegal hiding in an unreached entry).
    assert_eq!(entries, BOOK.len());
    let checks = BookChecks::parse(CHECKS).unwrap();
    assert_eq!(BOOK.len() + checks.dropped.len(), checks.checked);
}

#[test]
fn dropped_moves_are_not_in_the_book() {
    let checks = BookChecks::parse(CHECKS).unwrap();
    for d in &checks.dropped {
        let pos = Position::from_fen(&format!("{} 0 1", d.epd)).unwrap();
        assert!(book_moves(&pos).iter().all(|b| b.mv.to_uci() != d.uci));
        assert!(d.score < checks.floor || d.score < d.best - checks.margin);
    }
}

#[test]
fn the_book_varies_its_first_move_by_weight() {
    let start = Position::startpos();
    let moves = book_moves(&start);
    assert!(moves.len() >= 4);
    let mut counts = std::collections::HashMap::new();
    for r in 0..2000u64 {
        *counts.entry(book_move(&start, r).unwrap()).or_insert(0) += 1;
    }
    assert!(counts.len() >= 4, "{counts:?}");
    // The most played first move is the one most lines start with.
    let most = counts.iter().max_by_key(|(_, n)| **n).map(|(mv, _)| *mv);
    assert_eq!(most, Some(moves[0].mv));
}

#[test]
fn the_computer_plays_from_the_book_at_every_level_unless_told_not_to() {
    let stop = AtomicBool::new(false);
    let g = game("e4 e5 Nf3");
    let book: Vec<Move> = book_moves(g.position()).iter().map(|b| b.mv).collect();
    for level in Level::all() {
        let mut searcher = Searcher::new(1);
        searcher.set_seed(u64::from(level.number()));
        let mv = searcher
            .choose_move_with_book(&g, level, &stop, true)
            .unwrap();
        assert!(book.contains(&mv), "level {level}: {mv}");
    }
    // With the book off the (deterministic) search decides: one answer whatever the seed,
    // where the book answers at random. A set stop flag makes the search answer at once.
    let stop = AtomicBool::new(true);
    let start = Game::new();
    let choices = |use_book: bool| -> HashSet<Move> {
        (1..=12u64)
            .map(|seed| {
                let mut searcher = Searcher::new(1);
                searcher.set_seed(seed);
                searcher
                    .choose_move_with_book(&start, Level::MAX, &stop, use_book)
                    .unwrap()
            })
            .collect()
    };
    assert_eq!(choices(false).len(), 1);
    assert!(choices(true).len() >= 2);
    let mut searcher = Searcher::new(1);
    let finished = game("f3 e5 g4 Qh4#");
    assert_eq!(
        searcher.choose_move_with_book(&finished, Level::MAX, &stop, true),
        None
    );
}

#[test]
fn bad_lines_are_rejected_with_a_clear_error() {
    let header = tsv::HEADER;
    // Ply 3 (2.Nf6) is illegal: White has no knight that reaches f6.
    let text = format!("{header}\nC20\tKing's Pawn Game\t1. e4 e5\nC40\tBroken\t1. e4 e5 2. Nf6\n");
    let err = tsv::parse_tsv("c.tsv", &text).unwrap_err();
    assert_eq!(err.line, 3);
    assert!(matches!(
        err.kind,
        TsvErrorKind::BadMove { ply: 3, ref san, reason: SanError::Illegal { .. } } if san == "Nf6"
    ));
    assert_eq!(
        err.to_string(),
        "c.tsv line 3: ply 3 \"Nf6\" rejected: Nf6 is not legal in this position"
    );
    let bad = |line: &str| tsv::parse_line(line).unwrap_err();
    assert_eq!(bad("C20\tKing's Pawn Game"), TsvErrorKind::Columns(2));
    assert_eq!(bad("F20\tName\t1. e4"), TsvErrorKind::BadEco("F20".into()));
    assert_eq!(bad("C2\tName\t1. e4"), TsvErrorKind::BadEco("C2".into()));
    assert_eq!(bad("C20\t \t1. e4"), TsvErrorKind::EmptyName);
    assert_eq!(bad("C20\tName\t"), TsvErrorKind::NoMoves);
    assert_eq!(
        bad("C20\tName\t1. e4 2. e5"),
        TsvErrorKind::BadMoveNumber {
            found: "2.".into(),
            expected: 1
        }
    );
    assert_eq!(
        bad("C20\tName\te4"),
        TsvErrorKind::BadMoveNumber {
            found: "e4".into(),
            expected: 1
        }
    );
    assert_eq!(
        bad("C20\tName\t1. e4 e5 2."),
        TsvErrorKind::MissingMove("2.".into())
    );
    assert!(matches!(
        bad("C20\tName\t1. e4 e5 2. N@f3"),
        TsvErrorKind::BadMove {
            ply: 3,
            reason: SanError::Syntax(_),
            ..
        }
    ));
    let no_header = tsv::parse_tsv("a.tsv", "A00\tAmar Opening\t1. Nh3\n").unwrap_err();
    assert!(matches!(no_header.kind, TsvErrorKind::BadHeader(_)));
    assert!(
        no_header
            .to_string()
            .starts_with("a.tsv line 1: expected the header")
    );
    assert_eq!(
        tsv::parse_tsv(
            "a.tsv",
            &format!("{header}\r\nA00\tAmar Opening\t1. Nh3\r\n")
        )
        .unwrap()
        .len(),
        1,
        "Windows line ends are read"
    );
}

#[test]
fn the_same_position_named_twice_is_rejected() {
    let lines = vec![
        tsv::parse_line("D00\tOne\t1. d4 d5 2. Nf3 Nf6").unwrap(),
        tsv::parse_line("A06\tTwo\t1. Nf3 Nf6 2. d4 d5").unwrap(),
    ];
    assert!(matches!(
        table::build(&lines),
        Err(table::TableError::SameNamedPosition { .. })
    ));
}

#[test]
fn book_checks_read_back_what_was_written() {
    let checks = BookChecks::parse(CHECKS).unwrap();
    assert_eq!(BookChecks::parse(&checks.write(&["x"])).unwrap(), checks);
    assert!(BookChecks::parse("fingerprint\t1\n").is_err());
    assert!(BookChecks::parse("nodes 3\nepd\tmove\tscore\tbest\n").is_err());
    let stale = "fingerprint\t1\nnodes\t1\nfloor\t0\nmargin\t0\nchecked\t1\n\
                 epd\tmove\tscore\tbest\n8/8/8/8/8/8/8/8 w - -\te2e4\t-500\t0\n";
    let mut tables = table::build(&all_lines()).unwrap();
    assert!(tables.apply(&BookChecks::parse(stale).unwrap()).is_err());
}

/// The family of a name: the part before ": ".
fn family_of(name: &str) -> &str {
    name.split_once(": ").map_or(name, |(family, _)| family)
}

#[test]
fn german_tables_are_sorted_without_duplicates() {
    for table in [
        &german::FAMILIES[..],
        &german::PHRASES[..],
        &german::PEOPLE[..],
        &german::KINDS[..],
    ] {
        for pair in table.windows(2) {
            assert!(pair[0].0 < pair[1].0, "{:?} before {:?}", pair[0], pair[1]);
        }
    }
}

#[test]
fn every_german_table_entry_is_used_by_the_data() {
    let families: HashSet<&str> = NAMES.iter().map(|&(_, name)| family_of(name)).collect();
    for (english, _) in german::FAMILIES {
        assert!(families.contains(english), "no family {english:?}");
    }
    // Variation parts of names whose family is translated, without "Accepted"/"Declined".
    let parts: HashSet<&str> = NAMES
        .iter()
        .filter_map(|&(_, name)| name.split_once(": "))
        .filter(|(family, _)| german::FAMILIES.iter().any(|(en, _)| en == family))
        .flat_map(|(_, variation)| variation.split(", "))
        .map(|part| {
            part.strip_suffix(" Accepted")
                .or_else(|| part.strip_suffix(" Declined"))
                .unwrap_or(part)
        })
        .collect();
    for (english, _) in german::PHRASES {
        assert!(parts.contains(english), "no part {english:?}");
    }
    for (person, _) in german::PEOPLE {
        let used = german::KINDS
            .iter()
            .any(|(kind, _)| parts.contains(format!("{person} {kind}").as_str()));
        assert!(used, "no part names {person:?}");
    }
}

#[test]
fn german_names() {
    let cases = [
        ("Italian Game", "Italienische Partie"),
        ("Ruy Lopez", "Spanische Partie"),
        (
            "Sicilian Defense: Najdorf Variation, English Attack",
            "Sizilianische Verteidigung: Najdorf-Variante, Englischer Angriff",
        ),
        (
            "Sicilian Defense: Dragon Variation, Yugoslav Attack",
            "Sizilianische Verteidigung: Drachenvariante, Jugoslawischer Angriff",
        ),
        (
            "Caro-Kann Defense: Advance Variation",
            "Caro-Kann-Verteidigung: Vorstoßvariante",
        ),
        (
            "Ruy Lopez: Closed, Chigorin Defense",
            "Spanische Partie: Geschlossene Variante, Tschigorin-Verteidigung",
        ),
        (
            "Queen's Gambit Declined: Orthodox Defense, Main Line",
            "Abgelehntes Damengambit: Orthodoxe Verteidigung, Hauptvariante",
        ),
        (
            "Italian Game: Two Knights Defense",
            "Italienische Partie: Zweispringerspiel im Nachzuge",
        ),
        (
            "Italian Game: Evans Gambit Declined",
            "Italienische Partie: Abgelehntes Evansgambit",
        ),
        (
            "Sicilian Defense: Smith-Morra Gambit Accepted",
            "Sizilianische Verteidigung: Angenommenes Smith-Morra-Gambit",
        ),
        (
            "King's Gambit Accepted: Kieseritzky Gambit",
            "Angenommenes Königsgambit: Kieseritzky-Gambit",
        ),
        (
            "Vienna Game: Max Lange Defense",
            "Wiener Partie: Max-Lange-Verteidigung",
        ),
        (
            "Indian Defense: Budapest Gambit Accepted, Main Line, Alekhine Variation",
            "Indische Verteidigung: Angenommenes Budapester Gambit, Hauptvariante, \
             Aljechin-Variante",
        ),
        // A variation with a part that has no German stays wholly English.
        (
            "Italian Game: Two Knights Defense, Fried Liver Attack",
            "Italienische Partie: Two Knights Defense, Fried Liver Attack",
        ),
        (
            "French Defense: Winawer Variation, Poisoned Pawn Variation",
            "Französische Verteidigung: Winawer Variation, Poisoned Pawn Variation",
        ),
        // The Queen's Gambit's "Two Knights Defense" is not the Zweispringerspiel.
        (
            "Queen's Gambit Declined: Harrwitz Attack, Two Knights Defense",
            "Abgelehntes Damengambit: Harrwitz Attack, Two Knights Defense",
        ),
        // Families without an established German name stay English, variation and all.
        ("Zukertort Opening", "Zukertort Opening"),
        (
            "Pterodactyl Defense: Sicilian, Unpin",
            "Pterodactyl Defense: Sicilian, Unpin",
        ),
        (
            "Vienna Gambit, with Max Lange Defense: Hamppe-Allgaier Gambit",
            "Vienna Gambit, with Max Lange Defense: Hamppe-Allgaier Gambit",
        ),
    ];
    let names: HashSet<&str> = NAMES.iter().map(|&(_, name)| name).collect();
    for (english, expected) in cases {
        assert!(names.contains(english), "not in the data: {english:?}");
        assert_eq!(german::german_name(english), expected, "{english}");
    }
    assert_eq!(german::german_name("Not an opening"), "Not an opening");
}

#[test]
fn german_names_leave_no_english_in_a_translated_variation() {
    for &(_, name) in NAMES.iter() {
        let german = german::german_name(name);
        let family = family_of(name);
        if german::FAMILIES.iter().all(|(en, _)| *en != family) {
            assert_eq!(german, name);
            continue;
        }
        let (_, english_variation) = name.split_once(": ").unwrap_or((name, ""));
        let (german_family, variation) = german.split_once(": ").unwrap_or((&german, ""));
        assert_ne!(german_family, family, "{name}");
        if variation != english_variation {
            for word in [
                "Variation",
                "Attack",
                "Defense",
                "Counter",
                "Accepted",
                "Declined",
            ] {
                assert!(!variation.contains(word), "{name} -> {german}");
            }
        }
    }
}

#[test]
fn openings_say_their_german_name_and_display_stays_english() {
    let italian = classify(&game("e4 e5 Nf3 Nc6 Bc4")).unwrap();
    assert_eq!(italian.to_string(), "C50 Italian Game");
    assert_eq!(italian.to_german_string(), "C50 Italienische Partie");
    let zukertort = classify(&game("Nf3")).unwrap();
    assert_eq!(zukertort.to_german_string(), zukertort.to_string());
}

/// How many named lines get a German family name, and how many a wholly German name.
#[test]
#[ignore = "a measurement: cargo test -p chesspi-engine german_coverage -- --ignored --nocapture"]
fn german_coverage() {
    let family = NAMES
        .iter()
        .filter(|&&(_, name)| german::german_name(name) != name)
        .count();
    let whole = NAMES
        .iter()
        .filter(|&&(_, name)| match name.split_once(": ") {
            None => german::german_name(name) != name,
            Some((family, variation)) => {
                german::german_name(family) != family
                    && german::german_variation(family, variation).is_some()
            }
        })
        .count();
    println!(
        "{} lines: {family} with a German family, {whole} wholly German; {} families",
        NAMES.len(),
        german::FAMILIES.len()
    );
}

#[test]
fn a_game_leaves_the_lines_where_its_move_is_in_none_of_them() {
    // 1.e4 e5 2.Nf3 Nc6 3.Bc4 are named lines; 3...a5 is in none of them here.
    let g = game("e4 e5 Nf3 Nc6 Bc4 a5");
    let left = left_lines(&g).expect("left the lines");
    assert_eq!(left.ply, 6);
    assert_eq!(left.opening.map(|o| o.name), Some("Italian Game"));
    let before = &g.positions()[5];
    let book: Vec<String> = left
        .book
        .iter()
        .map(|&m| crate::san::to_san(before, m))
        .collect();
    assert!(book.contains(&"Bc5".to_string()), "{book:?}");
    assert!(book.contains(&"Nf6".to_string()), "{book:?}");
    assert!(!book.contains(&"a5".to_string()));
    // Still on the lines, or never on them: nothing left.
    assert_eq!(left_lines(&game("e4 e5 Nf3 Nc6 Bc4")), None);
    assert_eq!(left_lines(&Game::new()), None);
}
