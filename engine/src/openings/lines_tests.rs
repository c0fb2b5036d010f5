//! Tests of the lines with their moves, the families and the opening drill, against the
//! shipped data files.

use super::drill::{Drill, DrillError, Progress, Verdict};
use super::lines::{self, Line, LineId};
use super::table::epd;
use super::tsv;
use super::{BookMove, NAMES};
use crate::moves::Move;
use crate::position::Position;
use crate::san::parse_san;
use crate::types::Color;
use std::collections::{BTreeMap, HashSet};
use std::time::Instant;

const FILES: [(&str, &str); 5] = [
    ("a.tsv", include_str!("../../data/openings/a.tsv")),
    ("b.tsv", include_str!("../../data/openings/b.tsv")),
    ("c.tsv", include_str!("../../data/openings/c.tsv")),
    ("d.tsv", include_str!("../../data/openings/d.tsv")),
    ("e.tsv", include_str!("../../data/openings/e.tsv")),
];

/// The line of this name and these moves (SAN, as the data writes them without numbers).
fn line(name: &str, san: &str) -> &'static Line {
    lines::lines()
        .iter()
        .find(|l| l.name() == name && l.san().join(" ") == san)
        .unwrap_or_else(|| panic!("no line {name}: {san}"))
}

fn mv(drill: &Drill, san: &str) -> Move {
    parse_san(drill.position(), san).unwrap()
}

#[test]
fn every_line_of_the_files_is_read_with_its_moves() {
    // Data rows: every non-empty line after each file's header.
    let rows: usize = FILES
        .iter()
        .map(|(_, text)| text.lines().skip(1).filter(|l| !l.is_empty()).count())
        .sum();
    assert_eq!(rows, 3807);
    assert_eq!(lines::lines().len(), rows);
    assert_eq!(NAMES.len(), rows);
    let parsed: Vec<tsv::OpeningLine> = FILES
        .iter()
        .flat_map(|(name, text)| tsv::parse_tsv(name, text).unwrap())
        .collect();
    for (line, tsv) in lines::lines().iter().zip(&parsed) {
        assert_eq!((line.eco(), line.name()), (&*tsv.eco, &*tsv.name));
        assert_eq!(line.moves(), &tsv.moves[..], "{}", line.name());
    }
}

#[test]
fn every_line_is_legal_from_the_start_position() {
    for line in lines::lines() {
        assert!(!line.moves().is_empty(), "{}", line.name());
        let mut pos = Position::startpos();
        for &mv in line.moves() {
            pos = pos
                .play(mv)
                .unwrap_or_else(|e| panic!("{}: {e:?}", line.name()));
        }
        assert_eq!(line.san().len(), line.moves().len(), "{}", line.name());
    }
}

/// The moves in UCI, separated by spaces, through `Move`'s `Display`.
fn uci(moves: &[Move]) -> String {
    let text: Vec<String> = moves.iter().map(|m| m.to_uci()).collect();
    text.join(" ")
}

/// FNV-1a, 64 bits, as written in its definition.
fn fnv1a(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[test]
fn ids_are_unique_stable_and_round_trip() {
    let all = lines::lines();
    let ids: HashSet<LineId> = all.iter().map(Line::id).collect();
    assert_eq!(ids.len(), all.len(), "every line has its own id");
    for l in all {
        assert_eq!(lines::line(l.id()), Some(l));
        assert_eq!(l.id().to_string().parse::<LineId>(), Ok(l.id()));
        assert_eq!(l.id().to_u64(), fnv1a(&uci(l.moves())), "{}", l.name());
    }
    // Fixed values: a change to the hash would lose every stored card's schedule.
    let italian = line("Italian Game", "e4 e5 Nf3 Nc6 Bc4");
    assert_eq!(italian.id().to_string(), "40665380b1073409");
    let amar = line("Amar Opening", "Nh3");
    assert_eq!(amar.id().to_string(), "ebfe1b711978acbc");
    for bad in [
        "",
        "24a27e8b6ecf0b6",
        "24a27e8b6ecf0b6dd",
        "24a27e8b6ecf0b6g",
        "+4a27e8b6ecf0b6d",
    ] {
        assert!(bad.parse::<LineId>().is_err(), "{bad:?}");
    }
}

#[test]
fn families_group_the_lines_by_the_part_before_the_colon() {
    let families = lines::families();
    assert_eq!(families.len(), 149);
    assert!(families.windows(2).all(|w| w[0].name() < w[1].name()));
    let total: usize = families.iter().map(|f| f.line_count()).sum();
    assert_eq!(total, lines::lines().len());
    for f in families {
        assert!(f.lines().all(|l| l.family() == f.name()));
        assert_eq!(lines::family(f.name()), Some(f));
    }
    let ruy = lines::family("Ruy Lopez").unwrap();
    assert_eq!(ruy.line_count(), 235);
    assert_eq!(ruy.german_name(), Some("Spanische Partie"));
    assert_eq!(ruy.display_name(true), "Spanische Partie");
    assert_eq!(ruy.display_name(false), "Ruy Lopez");
    let amar = lines::family("Amar Opening").unwrap();
    assert_eq!(
        (amar.german_name(), amar.display_name(true)),
        (None, "Amar Opening")
    );
    assert_eq!(lines::family("Ruy"), None);
}

#[test]
fn an_opening_by_name_is_its_lines_and_their_subvariations() {
    let ruy: Vec<&Line> = lines::family("Ruy Lopez").unwrap().lines().collect();
    assert_eq!(lines::opening_lines("Ruy Lopez"), ruy);
    let closed = lines::opening_lines("Ruy Lopez: Closed");
    assert!(closed.len() > 5);
    assert!(
        closed
            .iter()
            .any(|l| l.name() == "Ruy Lopez: Closed, Breyer Defense")
    );
    for l in &closed {
        assert!(l.name() == "Ruy Lopez: Closed" || l.name().starts_with("Ruy Lopez: Closed, "));
    }
    // A name is not a prefix of another word.
    assert!(lines::opening_lines("Ruy Lopez: Close").is_empty());
    assert!(
        lines::opening_lines("Queen's Gambit")
            .iter()
            .all(|l| l.family() == "Queen's Gambit")
    );
    assert!(lines::opening_lines("Nonexistent").is_empty());
}

/// Each line's positions as text (`epds[i][k]`: after the first `k` moves of line `i`).
fn epds(lines: &[&Line]) -> Vec<Vec<String>> {
    lines
        .iter()
        .map(|l| {
            let mut pos = Position::startpos();
            let mut epds = vec![epd(&pos)];
            for &mv in l.moves() {
                pos.play_unchecked(mv);
                epds.push(epd(&pos));
            }
            epds
        })
        .collect()
}

/// The lines' next moves where `drill` stands, found by comparing positions as text (not by
/// hash, as the drill does), each weighted by the lines that play it there.
fn next_moves_by_position(drill: &Drill, epds: &[Vec<String>]) -> BTreeMap<u16, u32> {
    let here = epd(drill.position());
    let mut moves = BTreeMap::new();
    for (l, epds) in drill.lines().iter().zip(epds) {
        for (&mv, epd) in l.moves().iter().zip(epds) {
            if *epd == here {
                *moves.entry(mv.to_bits()).or_insert(0) += 1;
            }
        }
    }
    moves
}

fn as_map(moves: &[BookMove]) -> BTreeMap<u16, u32> {
    moves.iter().map(|b| (b.mv.to_bits(), b.weight)).collect()
}

/// Plays a drill to its end, the user choosing book moves by `seed` too; checks every step.
fn play_through(lines: &[&'static Line], user: Color, seed: u64) -> Vec<Move> {
    let mut drill = Drill::new(lines.iter().copied(), user).unwrap();
    let epds = epds(drill.lines());
    let mut last: Option<Progress> = None;
    for step in 0u64.. {
        let expected = next_moves_by_position(&drill, &epds);
        assert_eq!(as_map(&drill.book_moves()), expected);
        if expected.is_empty() {
            break;
        }
        let progress = if drill.users_turn() {
            let book = drill.book_moves();
            let pick = book[(seed.wrapping_add(step) % book.len() as u64) as usize].mv;
            match drill.play(pick).unwrap() {
                Verdict::Book(p) => p,
                Verdict::Miss { .. } => panic!("a book move was a miss"),
            }
        } else {
            let p = drill.reply(seed.wrapping_add(step)).unwrap();
            assert!(expected.contains_key(&p.mv.to_bits()), "not a book move");
            p
        };
        for done in &progress.completed {
            let end = drill.lines().iter().position(|l| l == done).unwrap();
            assert_eq!(epds[end].last(), Some(&epd(drill.position())));
        }
        last = Some(progress);
    }
    let last = last.unwrap();
    assert!(last.finished && drill.is_finished());
    assert!(
        !last.completed.is_empty(),
        "the end of the drill is a line's end"
    );
    if !last.transposed {
        assert!(last.completed.iter().any(|l| l.moves() == drill.played()));
    }
    // Over: nothing more is played, whoever is to move (unless the line ends in mate).
    if !drill.users_turn() {
        assert_eq!(drill.reply(seed), Err(DrillError::Finished));
    } else if let Some(&any) = drill.position().legal_moves().first() {
        assert_eq!(drill.play(any), Err(DrillError::Finished));
    }
    drill.played().to_vec()
}

#[test]
fn the_computer_plays_only_book_moves_from_either_colour() {
    for family in ["Ruy Lopez", "Italian Game"] {
        let lines: Vec<&Line> = lines::family(family).unwrap().lines().collect();
        for user in [Color::White, Color::Black] {
            for seed in 0..40 {
                play_through(&lines, user, seed * 7919);
            }
        }
    }
}

#[test]
fn the_seed_makes_the_computer_reproducible() {
    let ruy: Vec<&Line> = lines::family("Ruy Lopez").unwrap().lines().collect();
    let mut games = HashSet::new();
    for seed in 0..20 {
        let game = play_through(&ruy, Color::Black, seed);
        assert_eq!(play_through(&ruy, Color::Black, seed), game);
        games.insert(game);
    }
    assert!(
        games.len() > 5,
        "the seed changes the choice: {} games",
        games.len()
    );
}

#[test]
fn a_correct_line_completes_from_either_colour() {
    let breyer = line(
        "Ruy Lopez: Closed, Breyer Defense",
        "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8",
    );
    for user in [Color::White, Color::Black] {
        let mut drill = Drill::new([breyer], user).unwrap();
        for (ply, &m) in breyer.moves().iter().enumerate() {
            let progress = if drill.users_turn() {
                assert_eq!(drill.book_moves(), vec![BookMove { mv: m, weight: 1 }]);
                match drill.play(m).unwrap() {
                    Verdict::Book(p) => p,
                    miss => panic!("{miss:?}"),
                }
            } else {
                drill.reply(ply as u64).unwrap()
            };
            assert_eq!(progress.mv, m);
            assert!(!progress.transposed);
            let end = ply + 1 == breyer.moves().len();
            assert_eq!(progress.finished, end);
            assert_eq!(progress.completed, if end { vec![breyer] } else { vec![] });
        }
        assert_eq!(drill.played(), breyer.moves());
        assert_eq!(drill.lines_here(), vec![breyer]);
    }
}

#[test]
fn a_wrong_move_is_a_miss_that_shows_the_book_moves() {
    let ruy: Vec<&Line> = lines::family("Ruy Lopez").unwrap().lines().collect();
    // White: 1. e4 e5 2. Bc4 is the Bishop's Opening, not a Ruy Lopez.
    let mut drill = Drill::new(ruy.iter().copied(), Color::White).unwrap();
    assert!(matches!(drill.play(mv(&drill, "e4")), Ok(Verdict::Book(_))));
    let e5 = mv(&drill, "e5");
    assert_eq!(drill.reply(1).unwrap().mv, e5);
    let Ok(Verdict::Miss { expected, lines }) = drill.play(mv(&drill, "Bc4")) else {
        panic!("2. Bc4 is no Ruy Lopez");
    };
    let nf3 = mv(&drill, "Nf3");
    assert_eq!(
        expected,
        vec![BookMove {
            mv: nf3,
            weight: 235
        }]
    );
    assert_eq!(lines, ruy);
    assert_eq!(drill.played().len(), 2, "a miss is not played");
    assert!(matches!(drill.play(nf3), Ok(Verdict::Book(_))));
    // Black: 1. e4 c5 is a Sicilian.
    let mut drill = Drill::new(ruy.iter().copied(), Color::Black).unwrap();
    assert_eq!(drill.play(mv(&drill, "e4")), Err(DrillError::NotUsersTurn));
    drill.reply(2).unwrap();
    let c5 = mv(&drill, "c5");
    let Ok(Verdict::Miss { expected, .. }) = drill.play(c5) else {
        panic!("1... c5 is no Ruy Lopez");
    };
    assert_eq!(
        expected,
        vec![BookMove {
            mv: mv(&drill, "e5"),
            weight: 235
        }]
    );
}

#[test]
fn errors_leave_the_drill_as_it_was() {
    let amar = line("Amar Opening", "Nh3");
    assert_eq!(
        Drill::new([amar], Color::Black).err(),
        Some(DrillError::NoLines)
    );
    assert_eq!(
        Drill::new([], Color::White).err(),
        Some(DrillError::NoLines)
    );
    let mut drill = Drill::new([amar, amar], Color::White).unwrap();
    assert_eq!(drill.lines().len(), 1, "a line given twice is drilled once");
    assert_eq!(drill.reply(0), Err(DrillError::NotComputersTurn));
    let illegal = Move::from_bits(0);
    assert_eq!(drill.play(illegal), Err(DrillError::Illegal(illegal)));
    assert!(drill.played().is_empty());
    let Ok(Verdict::Book(p)) = drill.play(mv(&drill, "Nh3")) else {
        panic!("1. Nh3 is the Amar Opening");
    };
    assert_eq!((p.completed, p.finished), (vec![amar], true));
    assert_eq!(drill.reply(0), Err(DrillError::Finished));
}

#[test]
fn the_computer_plays_a_chosen_line_move_and_nothing_else() {
    let ruy: Vec<&Line> = lines::family("Ruy Lopez").unwrap().lines().collect();
    let breyer = line(
        "Ruy Lopez: Closed, Breyer Defense",
        "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 d6 c3 O-O h3 Nb8",
    );
    let mut drill = Drill::new(ruy.iter().copied(), Color::Black).unwrap();
    let (e4, d4) = (mv(&drill, "e4"), mv(&drill, "d4"));
    assert_eq!(drill.reply_move(d4), Err(DrillError::NotOnLines(d4)));
    assert!(drill.played().is_empty(), "nothing played");
    // The Breyer's moves, the computer's chosen each time.
    for (ply, &m) in breyer.moves().iter().enumerate() {
        let p = if drill.users_turn() {
            match drill.play(m).unwrap() {
                Verdict::Book(p) => p,
                miss => panic!("{miss:?}"),
            }
        } else {
            assert_eq!(drill.play(m), Err(DrillError::NotUsersTurn));
            drill.reply_move(m).unwrap()
        };
        assert_eq!(p.mv, m);
        if ply == 0 {
            assert_eq!(m, e4);
        }
    }
    assert_eq!(drill.played(), breyer.moves());
    assert!(drill.lines_here().contains(&breyer));
    let mut white = Drill::new([breyer], Color::White).unwrap();
    assert_eq!(white.reply_move(e4), Err(DrillError::NotComputersTurn));
    let amar = line("Amar Opening", "Nh3");
    let mut done = Drill::new([amar, breyer], Color::Black).unwrap();
    done.reply_move(e4).unwrap();
    let e5 = mv(&done, "e5");
    done.play(e5).unwrap();
    for &m in &breyer.moves()[2..] {
        if done.users_turn() {
            done.play(m).unwrap();
        } else {
            done.reply_move(m).unwrap();
        }
    }
    assert_eq!(done.reply_move(e4), Err(DrillError::Finished));
}

#[test]
fn a_transposition_between_the_lines_is_book() {
    // 1. Nf3 d5 2. g3 leaves the Réti's order but reaches the Hungarian line's position.
    let reti = line("Réti Opening", "Nf3 d5 c4");
    let hungarian = line("Hungarian Opening: Wiedenhagen-Beta Gambit", "g3 d5 Nf3 g5");
    let mut drill = Drill::new([reti, hungarian], Color::White).unwrap();
    drill.play(mv(&drill, "Nf3")).unwrap();
    let d5 = mv(&drill, "d5");
    assert_eq!(drill.reply(0).unwrap().mv, d5);
    let Ok(Verdict::Book(p)) = drill.play(mv(&drill, "g3")) else {
        panic!("2. g3 transposes to the Hungarian line");
    };
    assert!(p.transposed && !p.finished);
    assert_eq!(drill.lines_here(), vec![hungarian]);
    let g5 = mv(&drill, "g5");
    let p = drill.reply(0).unwrap();
    assert_eq!(p.mv, g5);
    assert_eq!(
        (p.completed, p.finished, p.transposed),
        (vec![hungarian], true, true)
    );
}

/// Parse time and memory of the catalogue of all lines; `cargo test --release`-like speed
/// (the engine is built at opt-level 3 in tests). Run with `--ignored --nocapture`.
#[test]
#[ignore = "a measurement, not a check"]
fn catalogue_cost() {
    let runs = 20;
    let mut best = f64::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        let cat = lines::build_catalogue();
        best = best.min(start.elapsed().as_secs_f64());
        std::hint::black_box(cat);
    }
    let (heap, statics) = lines::catalogue_bytes();
    // The largest family: a drill's set-up and one computer move.
    let sicilian: Vec<&Line> = lines::family("Sicilian Defense").unwrap().lines().collect();
    let mut drill_best = f64::MAX;
    for seed in 0..runs {
        let start = Instant::now();
        let mut drill = Drill::new(sicilian.iter().copied(), Color::Black).unwrap();
        drill.reply(seed).unwrap();
        drill_best = drill_best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "drill of the {} Sicilian lines: set up and first move in {:.3} ms (best of {runs})",
        sicilian.len(),
        drill_best * 1e3
    );
    println!(
        "catalogue of {} lines: built in {:.3} ms (best of {runs}); heap {heap} bytes, \
         static moves {statics} bytes",
        lines::lines().len(),
        best * 1e3
    );
}
