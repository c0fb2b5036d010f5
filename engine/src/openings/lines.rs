//! Every named line of the data with its moves in the data's order, and the lines grouped
//! into families, for the opening drill (Menu → Openings) and its spaced-repetition cards.
//!
//! The moves come from `build.rs` as one static array (nothing is parsed on the device); the
//! catalogue of [`Line`]s and [`Family`]s around them is built on first use, once.
//!
//! A line's [`LineId`] is a hash of its moves alone (not its name or its place in the files):
//! the moves are what the user learns, they are unique in the data (a test checks), and so a
//! card keeps its schedule when a newer data set renames a line, moves it to another ECO code
//! or inserts lines before it.

use super::{LINE_ENDS, LINE_MOVE_BITS, NAMES, german};
use crate::moves::Move;
use crate::position::Position;
use crate::san::moves_to_san;
use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// Every line's moves, converted from `build.rs`'s bits at compile time.
static MOVES: [Move; LINE_MOVE_BITS.len()] = moves_from_bits(&LINE_MOVE_BITS);

const fn moves_from_bits<const N: usize>(bits: &[u16; N]) -> [Move; N] {
    let mut moves = [Move::from_bits(0); N];
    let mut i = 0;
    while i < N {
        moves[i] = Move::from_bits(bits[i]);
        i += 1;
    }
    moves
}

/// A line's stable identity: FNV-1a (64 bits, fixed by its definition unlike std's hashers)
/// of its moves in UCI, separated by spaces
/// (`e2e4 e7e5 g1f3`). Written and read as 16 lowercase hex digits, for storage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LineId(u64);

impl LineId {
    /// The id of a line with these moves (from the start position).
    pub fn of_moves(moves: &[Move]) -> LineId {
        // The UCI text char by char: `Display` through `write!` costs 30 times as much,
        // and this runs for every line when the catalogue is built.
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for (i, mv) in moves.iter().enumerate() {
            let space = (i > 0).then_some(' ');
            let (from, to) = (mv.from(), mv.to());
            let squares = [from.file().char(), from.rank().char()]
                .into_iter()
                .chain([to.file().char(), to.rank().char()]);
            let promotion = mv.promotion().map(|role| role.char());
            for c in space.into_iter().chain(squares).chain(promotion) {
                // UCI is ASCII: one byte per char.
                hash ^= u64::from(c as u8);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        LineId(hash)
    }

    /// The 64-bit value (what `Display` writes in hex).
    pub fn to_u64(self) -> u64 {
        self.0
    }
}

impl fmt::Display for LineId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:016x}", self.0)
    }
}

/// Text that is not a [`LineId`] (16 hex digits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseLineIdError(pub String);

impl fmt::Display for ParseLineIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not an opening line id (16 hex digits)", self.0)
    }
}

impl std::error::Error for ParseLineIdError {}

impl FromStr for LineId {
    type Err = ParseLineIdError;

    fn from_str(text: &str) -> Result<LineId, ParseLineIdError> {
        let hex = text.len() == 16 && text.bytes().all(|b| b.is_ascii_hexdigit());
        hex.then(|| u64::from_str_radix(text, 16).ok())
            .flatten()
            .map(LineId)
            .ok_or_else(|| ParseLineIdError(text.to_string()))
    }
}

/// One named line of the data: ECO code, name, family and moves from the start position.
/// Only this module makes them, so the id always belongs to the moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    id: LineId,
    eco: &'static str,
    family: &'static str,
    name: &'static str,
    moves: &'static [Move],
}

impl Line {
    /// The stable id, the card's key (see [`LineId`]).
    pub fn id(&self) -> LineId {
        self.id
    }

    /// `"C50"`.
    pub fn eco(&self) -> &'static str {
        self.eco
    }

    /// The family, the name's part before `": "` (`"Italian Game"`), as German names do it.
    pub fn family(&self) -> &'static str {
        self.family
    }

    /// The full English name (`"Italian Game: Giuoco Piano"`).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The name in German where German has one (see [`german::german_name`]).
    pub fn german_name(&self) -> Cow<'static, str> {
        german::german_name(self.name)
    }

    /// The moves as the data gives them, from the start position; every one legal there.
    pub fn moves(&self) -> &'static [Move] {
        self.moves
    }

    /// The moves in SAN (`["e4", "e5", "Nf3"]`), for showing the line.
    pub fn san(&self) -> Vec<String> {
        moves_to_san(&Position::startpos(), self.moves)
    }
}

/// A family of lines (`"Ruy Lopez"`): every line whose name starts with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Family {
    name: &'static str,
    german: Option<&'static str>,
    /// Indices into the catalogue's lines, in data order (by ECO code, then name).
    lines: Vec<usize>,
}

impl Family {
    /// The English family name.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The established German name, where `german.rs` has one.
    pub fn german_name(&self) -> Option<&'static str> {
        self.german
    }

    /// The name to show: German where asked and known, else English.
    pub fn display_name(&self, german: bool) -> &'static str {
        match self.german {
            Some(name) if german => name,
            _ => self.name,
        }
    }

    /// How many lines the family has.
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// The family's lines, in data order.
    pub fn lines(&self) -> impl Iterator<Item = &'static Line> + '_ {
        let all = lines();
        self.lines.iter().map(move |&i| &all[i])
    }
}

/// What [`lines`] and [`families`] read from, built once.
pub(super) struct Catalogue {
    lines: Vec<Line>,
    families: Vec<Family>,
    /// (id, index into `lines`), sorted by id.
    by_id: Vec<(LineId, usize)>,
}

fn catalogue() -> &'static Catalogue {
    static CATALOGUE: OnceLock<Catalogue> = OnceLock::new();
    CATALOGUE.get_or_init(build_catalogue)
}

pub(super) fn build_catalogue() -> Catalogue {
    let mut start = 0;
    let lines: Vec<Line> = NAMES
        .iter()
        .zip(LINE_ENDS.iter())
        .map(|(&(eco, name), &end)| {
            let end = end as usize;
            let moves = &MOVES[start..end];
            start = end;
            Line {
                id: LineId::of_moves(moves),
                eco,
                family: family_of(name),
                name,
                moves,
            }
        })
        .collect();
    let mut families: Vec<Family> = Vec::new();
    let mut order: Vec<(&str, usize)> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| (line.family, i))
        .collect();
    // Stable: the lines of a family keep their data order.
    order.sort_by_key(|&(family, _)| family);
    for (family, i) in order {
        match families.last_mut() {
            Some(last) if last.name == family => last.lines.push(i),
            _ => families.push(Family {
                name: family,
                german: german_family(family),
                lines: vec![i],
            }),
        }
    }
    let mut by_id: Vec<(LineId, usize)> = lines
        .iter()
        .enumerate()
        .map(|(i, line)| (line.id, i))
        .collect();
    by_id.sort_unstable();
    Catalogue {
        lines,
        families,
        by_id,
    }
}

/// Heap bytes of the catalogue (without the allocator's overhead) and bytes of the static
/// moves and line ends, for measuring.
#[cfg(test)]
pub(super) fn catalogue_bytes() -> (usize, usize) {
    use std::mem::size_of;
    let cat = catalogue();
    let families: usize = cat
        .families
        .iter()
        .map(|f| f.lines.capacity() * size_of::<usize>())
        .sum();
    let heap = cat.lines.capacity() * size_of::<Line>()
        + cat.families.capacity() * size_of::<Family>()
        + families
        + cat.by_id.capacity() * size_of::<(LineId, usize)>();
    let statics = size_of::<[Move; LINE_MOVE_BITS.len()]>() + size_of_val(&LINE_ENDS);
    (heap, statics)
}

/// The part of a name before `": "`, as `german.rs` splits it.
fn family_of(name: &str) -> &str {
    name.split_once(": ").map_or(name, |(family, _)| family)
}

fn german_family(family: &str) -> Option<&'static str> {
    german::FAMILIES
        .binary_search_by_key(&family, |&(en, _)| en)
        .ok()
        .map(|i| german::FAMILIES[i].1)
}

/// Every named line, in the data's order (files `a.tsv` … `e.tsv`, line by line).
pub fn lines() -> &'static [Line] {
    &catalogue().lines
}

/// The line with this id, if the data has it (a stored card whose line is gone has none).
pub fn line(id: LineId) -> Option<&'static Line> {
    let cat = catalogue();
    let i = cat.by_id.binary_search_by_key(&id, |&(id, _)| id).ok()?;
    cat.lines.get(cat.by_id[i].1)
}

/// Every family, sorted by English name, each with its lines.
pub fn families() -> &'static [Family] {
    &catalogue().families
}

/// The family of this English name.
pub fn family(name: &str) -> Option<&'static Family> {
    let families = families();
    let i = families.binary_search_by_key(&name, |f| f.name).ok()?;
    families.get(i)
}

/// The lines of an opening chosen by name: a family (`"Ruy Lopez"`) gives all its lines; a
/// line's name (`"Ruy Lopez: Closed"`) gives every line of that name and its subvariations
/// (`"Ruy Lopez: Closed, Breyer Defense"`). Data order; empty for an unknown name.
pub fn opening_lines(name: &str) -> Vec<&'static Line> {
    lines()
        .iter()
        .filter(|line| {
            line.name.strip_prefix(name).is_some_and(|rest| {
                rest.is_empty() || rest.starts_with(": ") || rest.starts_with(", ")
            })
        })
        .collect()
}
