//! Finds magic multipliers for rook and bishop attacks and writes the lookup tables, so the
//! engine starts with them ready (no run-time initialisation, no checks on every lookup).
//! The search is seeded, so every build produces the same tables.
//!
//! It also reads the opening names (`data/openings/*.tsv`) with the engine's own rules code
//! (compiled in below), checks every move of every line legal, and writes the tables of
//! named positions and book moves (see `src/openings/`), so a bad data file fails the build.

use std::fmt::Write as _;
use std::path::PathBuf;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

/// Squares attacked from `sq` along `dirs`, stopping at (and including) the first blocker.
fn slide(sq: usize, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while on_board(f, r) {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// Relevant occupancy: the rays without their last square (a blocker there changes nothing).
fn relevant_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while on_board(f + df, r + dr) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    mask
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn find_magics(dirs: &[(i32, i32)], rng: &mut Rng, table: &mut Vec<u64>) -> Vec<Magic> {
    let mut magics = Vec::with_capacity(64);
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        // Every subset of the mask (carry-rippler enumeration) and its attack set.
        let mut occupancies = Vec::with_capacity(size);
        let mut subset = 0u64;
        loop {
            occupancies.push((subset, slide(sq, subset, dirs)));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let mut slots = vec![0u64; size];
        let mut stamp = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            let candidate = rng.sparse();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let ok = occupancies.iter().all(|&(occ, attacks)| {
                let i = (occ.wrapping_mul(candidate) >> shift) as usize;
                if stamp[i] != attempt {
                    stamp[i] = attempt;
                    slots[i] = attacks;
                    true
                } else {
                    slots[i] == attacks
                }
            });
            if ok {
                break candidate;
            }
        };
        let offset = table.len();
        table.resize(offset + size, 0);
        for &(occ, attacks) in &occupancies {
            table[offset + (occ.wrapping_mul(magic) >> shift) as usize] = attacks;
        }
        magics.push(Magic {
            mask,
            magic,
            shift,
            offset,
        });
    }
    magics
}

fn write_magics(out: &mut String, name: &str, magics: &[Magic]) {
    writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
    for m in magics {
        writeln!(
            out,
            "    Magic {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
            m.mask, m.magic, m.shift, m.offset
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    openings_tables();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut table);

    let mut out = String::new();
    write_magics(&mut out, "ROOK_MAGICS", &rook);
    write_magics(&mut out, "BISHOP_MAGICS", &bishop);
    writeln!(
        out,
        "pub(crate) static SLIDER_ATTACKS: [u64; {}] = [",
        table.len()
    )
    .unwrap();
    for chunk in table.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|a| format!("{a:#x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();

    let path =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("magics.rs");
    std::fs::write(path, out).expect("write magic tables");
}

// The engine's rules, compiled into this script to read the openings data exactly as the
// engine does. Only `attacks` is replaced (the real one needs the magic tables this very
// script writes): slow ray walks are plenty for a few thousand lines.
#[allow(dead_code, unused_imports, clippy::wrong_self_convention)]
#[path = "src/bitboard.rs"]
mod bitboard;
#[allow(dead_code, unused_imports, clippy::wrong_self_convention)]
#[path = "src/fen.rs"]
mod fen;
#[allow(dead_code, unused_imports, clippy::wrong_self_convention)]
#[path = "src/moves.rs"]
mod moves;
#[allow(dead_code, unused_imports, clippy::wrong_self_convention)]
#[path = "src/position/mod.rs"]
mod position;
#[allow(dead_code, unused_imports, clippy::wrong_self_convention)]
#[path = "src/san.rs"]
mod san;
#[allow(dead_code)]
#[path = "src/openings/table.rs"]
mod table;
#[allow(dead_code)]
#[path = "src/openings/tsv.rs"]
mod tsv;
#[allow(dead_code, unused_imports, clippy::wrong_self_convention)]
#[path = "src/types.rs"]
mod types;
#[allow(dead_code, unused_imports, clippy::wrong_self_convention)]
#[path = "src/zobrist.rs"]
mod zobrist;

/// The attack functions `position.rs` uses, by walking rays (same results as `src/attacks.rs`).
mod attacks {
    use crate::bitboard::Bitboard;
    use crate::types::{Color, Square};

    fn leaper(sq: Square, deltas: &[(i32, i32)]) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for &(df, dr) in deltas {
            if let Some(to) = sq.offset(df, dr) {
                bb = bb.with(to);
            }
        }
        bb
    }

    fn rays(sq: Square, occupied: Bitboard, dirs: &[(i32, i32)]) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for &(df, dr) in dirs {
            let mut cur = sq.offset(df, dr);
            while let Some(to) = cur {
                bb = bb.with(to);
                if occupied.contains(to) {
                    break;
                }
                cur = to.offset(df, dr);
            }
        }
        bb
    }

    pub fn knight_attacks(sq: Square) -> Bitboard {
        let deltas = [
            (1, 2),
            (2, 1),
            (2, -1),
            (1, -2),
            (-1, -2),
            (-2, -1),
            (-2, 1),
            (-1, 2),
        ];
        leaper(sq, &deltas)
    }

    pub fn king_attacks(sq: Square) -> Bitboard {
        let deltas = [
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ];
        leaper(sq, &deltas)
    }

    pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
        let dr = if color == Color::White { 1 } else { -1 };
        leaper(sq, &[(-1, dr), (1, dr)])
    }

    pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        rays(sq, occupied, &super::ROOK_DIRS)
    }

    pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
        rays(sq, occupied, &super::BISHOP_DIRS)
    }

    fn step(a: Square, b: Square) -> Option<(i32, i32)> {
        let df = b.file() as i32 - a.file() as i32;
        let dr = b.rank() as i32 - a.rank() as i32;
        let aligned = (df == 0) != (dr == 0) || (df != 0 && df.abs() == dr.abs());
        aligned.then_some((df.signum(), dr.signum()))
    }

    pub fn between(a: Square, b: Square) -> Bitboard {
        let Some((df, dr)) = step(a, b) else {
            return Bitboard::EMPTY;
        };
        rays(a, Bitboard::from_square(b), &[(df, dr)]).without(b)
    }

    pub fn line(a: Square, b: Square) -> Bitboard {
        let Some((df, dr)) = step(a, b) else {
            return Bitboard::EMPTY;
        };
        rays(a, Bitboard::EMPTY, &[(df, dr), (-df, -dr)]).with(a)
    }
}

/// The data files, in the order their lines are numbered.
const OPENING_FILES: [&str; 5] = ["a.tsv", "b.tsv", "c.tsv", "d.tsv", "e.tsv"];
const BOOK_CHECKS: &str = "book-checks.tsv";
/// Set to build with a book whose soundness check is out of date (only to run the generator
/// that brings it up to date: `examples/openings.rs`).
const UNCHECKED_ENV: &str = "CHESSPI_BOOK_UNCHECKED";

/// Stops the build with a message that says what to fix.
fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    println!("cargo::warning={message}");
    std::process::exit(1);
}

fn openings_tables() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"))
        .join("data")
        .join("openings");
    println!("cargo::rerun-if-changed=src/openings/tsv.rs");
    println!("cargo::rerun-if-changed=src/openings/table.rs");
    println!("cargo::rerun-if-env-changed={UNCHECKED_ENV}");
    let mut texts = Vec::new();
    for name in OPENING_FILES.iter().chain([&BOOK_CHECKS]) {
        let path = dir.join(name);
        println!("cargo::rerun-if-changed={}", path.display());
        match std::fs::read_to_string(&path) {
            Ok(text) => texts.push(text),
            Err(e) => fail(&format!("cannot read {}: {e}", path.display())),
        }
    }
    let checks_text = texts.pop().unwrap_or_default();
    let mut lines = Vec::new();
    for (name, text) in OPENING_FILES.iter().zip(&texts) {
        match tsv::parse_tsv(name, text) {
            Ok(parsed) => lines.extend(parsed),
            Err(e) => fail(&format!("opening data: {e}")),
        }
    }
    if lines.len() >= usize::from(u16::MAX) {
        fail("opening data: too many lines for 16-bit name indices");
    }
    let mut tables = table::build(&lines).unwrap_or_else(|e| fail(&format!("opening data: {e}")));
    let fingerprint = table::fingerprint(
        OPENING_FILES
            .iter()
            .copied()
            .zip(texts.iter().map(String::as_str)),
    );
    let checks = table::BookChecks::parse(&checks_text)
        .unwrap_or_else(|e| fail(&format!("data/openings/{BOOK_CHECKS}: {e}")));
    if checks.fingerprint != fingerprint {
        if std::env::var_os(UNCHECKED_ENV).is_none() {
            fail(&format!(
                "data/openings/{BOOK_CHECKS} was made for other data files (fingerprint {:016x}, \
                 the files now give {fingerprint:016x}); re-check the book: \
                 {UNCHECKED_ENV}=1 cargo run --release -p chesspi-engine --example openings -- check-book",
                checks.fingerprint
            ));
        }
        // The generator's own build: an empty book, so nothing unchecked can be played.
        tables.moves.clear();
    } else if let Err(e) = tables.apply(&checks) {
        fail(&format!("data/openings/{BOOK_CHECKS}: {e}"));
    }
    let path =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("openings.rs");
    std::fs::write(path, openings_source(&lines, &tables, fingerprint))
        .expect("write openings tables");
}

/// The tables as Rust statics, sorted by hash for binary search.
fn openings_source(lines: &[tsv::OpeningLine], tables: &table::Tables, fingerprint: u64) -> String {
    let mut out = String::new();
    writeln!(out, "pub(super) const FINGERPRINT: u64 = {fingerprint:#x};").unwrap();
    writeln!(
        out,
        "pub(super) static NAMES: [(&str, &str); {}] = [",
        lines.len()
    )
    .unwrap();
    for line in lines {
        writeln!(out, "    ({:?}, {:?}),", line.eco, line.name).unwrap();
    }
    writeln!(out, "];").unwrap();
    // Each line's moves (as `Move` bits), line after line in `NAMES` order, and where each
    // line ends: the opening drill needs the move order, which the tables above forget.
    let total: usize = lines.iter().map(|line| line.moves.len()).sum();
    writeln!(out, "pub(super) static LINE_MOVE_BITS: [u16; {total}] = [").unwrap();
    for line in lines {
        let bits: Vec<String> = line.moves.iter().map(|m| m.to_bits().to_string()).collect();
        writeln!(out, "    {},", bits.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();
    writeln!(
        out,
        "pub(super) static LINE_ENDS: [u32; {}] = [",
        lines.len()
    )
    .unwrap();
    let mut end = 0;
    for line in lines {
        end += line.moves.len();
        writeln!(out, "    {end},").unwrap();
    }
    writeln!(out, "];").unwrap();
    writeln!(
        out,
        "pub(super) static POSITIONS: [(u64, u16); {}] = [",
        tables.positions.len()
    )
    .unwrap();
    for (hash, node) in &tables.positions {
        let named = node.named.map_or(u16::MAX, |i| i as u16);
        writeln!(out, "    ({hash:#x}, {named}),").unwrap();
    }
    writeln!(out, "];").unwrap();
    writeln!(
        out,
        "pub(super) static BOOK: [(u64, u16, u16); {}] = [",
        tables.moves.len()
    )
    .unwrap();
    for ((hash, bits), weight) in &tables.moves {
        writeln!(
            out,
            "    ({hash:#x}, {bits}, {}),",
            (*weight).min(u32::from(u16::MAX))
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
    out
}
