//! From parsed named lines to the two tables the engine ships: every position on a named
//! line (with the line that ends there, if any) and every move played on one (weighted by
//! how many lines play it there); plus the book-checks file that records which moves the
//! engine's own search found unsound.
//!
//! Like `tsv.rs`, this file is also compiled into `build.rs`, so the build and the generator
//! (`examples/openings.rs`) see exactly the same tables. It reaches the parser as
//! `super::tsv`, which is right in both places.

use super::tsv::OpeningLine;
use crate::position::Position;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;

/// A position on some named line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// FEN without the move counters (what identifies the position for people and files).
    pub epd: String,
    /// Index (into the lines) of the named line that ends here, if one does.
    pub named: Option<usize>,
}

/// The tables, ordered by hash so the generated arrays can be binary-searched.
#[derive(Debug, Clone, Default)]
pub struct Tables {
    pub positions: BTreeMap<u64, Node>,
    /// (position hash, move bits) → number of named lines that play this move there.
    pub moves: BTreeMap<(u64, u16), u32>,
}

/// Why the lines do not make consistent tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableError {
    /// Two different positions with the same Zobrist hash (the tables are keyed by it).
    HashCollision { first: String, second: String },
    /// Two lines end in the same position, so its name would be ambiguous.
    SameNamedPosition {
        epd: String,
        first: String,
        second: String,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::HashCollision { first, second } => {
                write!(f, "positions {first:?} and {second:?} have the same hash")
            }
            TableError::SameNamedPosition { epd, first, second } => write!(
                f,
                "{first:?} and {second:?} both end in {epd:?}; a position has one name"
            ),
        }
    }
}

impl std::error::Error for TableError {}

/// FEN without the halfmove clock and move number: the position itself.
pub fn epd(pos: &Position) -> String {
    let fen = pos.to_fen();
    let fields: Vec<&str> = fen.split(' ').collect();
    fields[..fields.len().min(4)].join(" ")
}

/// Builds the tables from the lines (in file order; their indices are the name indices).
///
/// # Errors
/// A hash collision, or two lines naming the same position.
pub fn build(lines: &[OpeningLine]) -> Result<Tables, TableError> {
    let mut tables = Tables::default();
    for (index, line) in lines.iter().enumerate() {
        let mut pos = Position::startpos();
        // A line counts once for each move it plays, even if it repeated a position.
        let mut seen = BTreeSet::new();
        for &mv in &line.moves {
            add_position(&mut tables, &pos)?;
            if seen.insert((pos.hash(), mv.to_bits())) {
                *tables.moves.entry((pos.hash(), mv.to_bits())).or_insert(0) += 1;
            }
            pos.play_unchecked(mv);
        }
        let node = add_position(&mut tables, &pos)?;
        if let Some(first) = node.named {
            return Err(TableError::SameNamedPosition {
                epd: node.epd.clone(),
                first: lines[first].name.clone(),
                second: line.name.clone(),
            });
        }
        node.named = Some(index);
    }
    Ok(tables)
}

fn add_position<'t>(tables: &'t mut Tables, pos: &Position) -> Result<&'t mut Node, TableError> {
    let epd = epd(pos);
    let node = tables.positions.entry(pos.hash()).or_insert_with(|| Node {
        epd: epd.clone(),
        named: None,
    });
    if node.epd != epd {
        return Err(TableError::HashCollision {
            first: node.epd.clone(),
            second: epd,
        });
    }
    Ok(node)
}

/// FNV-1a over the data files (names and contents, in order): the book-checks file records
/// it, so a data file changed without re-checking the book fails the build.
pub fn fingerprint<'a>(files: impl IntoIterator<Item = (&'a str, &'a str)>) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for (name, text) in files {
        for byte in name.bytes().chain([0]).chain(text.bytes()).chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    hash
}

/// What the generator found: the parameters of its check and the moves it dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookChecks {
    /// [`fingerprint`] of the data files that were checked.
    pub fingerprint: u64,
    /// Node budget of each search.
    pub nodes: u64,
    /// A move is dropped when its score (centipawns, for the side that plays it) is below
    /// `floor`, or more than `margin` below the best book move of the same position.
    pub floor: i32,
    pub margin: i32,
    /// How many book moves were searched.
    pub checked: usize,
    pub dropped: Vec<Dropped>,
}

/// A book move found unsound.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    pub epd: String,
    /// The move in UCI notation.
    pub uci: String,
    /// Its score, and the best book move's score in the same position, for the mover.
    pub score: i32,
    pub best: i32,
}

const ROWS_HEADER: &str = "epd\tmove\tscore\tbest";

/// A line of the book-checks file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChecksError {
    /// 1-based line number; 0 for the file as a whole.
    pub line: usize,
    pub what: String,
}

impl fmt::Display for ChecksError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "book checks line {}: {}", self.line, self.what)
    }
}

impl std::error::Error for ChecksError {}

impl BookChecks {
    /// The file's text; `# ` comment lines at the top say where it comes from.
    pub fn write(&self, comments: &[&str]) -> String {
        let mut out = String::new();
        for c in comments {
            out.push_str(&format!("# {c}\n"));
        }
        out.push_str(&format!("fingerprint\t{:016x}\n", self.fingerprint));
        out.push_str(&format!("nodes\t{}\n", self.nodes));
        out.push_str(&format!("floor\t{}\n", self.floor));
        out.push_str(&format!("margin\t{}\n", self.margin));
        out.push_str(&format!("checked\t{}\n", self.checked));
        out.push_str(ROWS_HEADER);
        out.push('\n');
        for d in &self.dropped {
            out.push_str(&format!("{}\t{}\t{}\t{}\n", d.epd, d.uci, d.score, d.best));
        }
        out
    }

    /// Reads what [`BookChecks::write`] wrote.
    ///
    /// # Errors
    /// The first line that does not fit the format, or a missing header field.
    pub fn parse(text: &str) -> Result<BookChecks, ChecksError> {
        let err = |line: usize, what: String| ChecksError { line, what };
        let mut fields: HashMap<&str, &str> = HashMap::new();
        let mut dropped = Vec::new();
        let mut in_rows = false;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim_end_matches('\r');
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            if !in_rows {
                if line == ROWS_HEADER {
                    in_rows = true;
                } else if let Some((key, value)) = line.split_once('\t') {
                    fields.insert(key, value);
                } else {
                    return Err(err(
                        i + 1,
                        format!("expected KEY<TAB>VALUE, found {line:?}"),
                    ));
                }
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            let [epd, uci, score, best] = cols[..] else {
                return Err(err(
                    i + 1,
                    format!("expected 4 columns, found {}", cols.len()),
                ));
            };
            let number = |s: &str| {
                s.parse::<i32>()
                    .map_err(|_| err(i + 1, format!("{s:?} is not a score")))
            };
            dropped.push(Dropped {
                epd: epd.to_string(),
                uci: uci.to_string(),
                score: number(score)?,
                best: number(best)?,
            });
        }
        if !in_rows {
            return Err(err(0, format!("no {ROWS_HEADER:?} line")));
        }
        let field = |key: &str| {
            fields
                .get(key)
                .copied()
                .ok_or_else(|| err(0, format!("no {key:?} field")))
        };
        let bad = |key: &str| err(0, format!("field {key:?} is not a number"));
        Ok(BookChecks {
            fingerprint: u64::from_str_radix(field("fingerprint")?, 16)
                .map_err(|_| bad("fingerprint"))?,
            nodes: field("nodes")?.parse().map_err(|_| bad("nodes"))?,
            floor: field("floor")?.parse().map_err(|_| bad("floor"))?,
            margin: field("margin")?.parse().map_err(|_| bad("margin"))?,
            checked: field("checked")?.parse().map_err(|_| bad("checked"))?,
            dropped,
        })
    }
}

impl Tables {
    /// Removes the dropped moves from the book.
    ///
    /// # Errors
    /// A dropped move that is not in the tables: the checks are stale.
    pub fn apply(&mut self, checks: &BookChecks) -> Result<(), ChecksError> {
        let by_epd: HashMap<&str, u64> = self
            .positions
            .iter()
            .map(|(hash, node)| (node.epd.as_str(), *hash))
            .collect();
        let mut remove = Vec::new();
        for d in &checks.dropped {
            let stale = || ChecksError {
                line: 0,
                what: format!("dropped move {} in {:?} is not a book move", d.uci, d.epd),
            };
            let hash = *by_epd.get(d.epd.as_str()).ok_or_else(stale)?;
            let key = self
                .moves
                .range((hash, 0)..=(hash, u16::MAX))
                .map(|(key, _)| *key)
                .find(|(_, bits)| crate::moves::Move::from_bits(*bits).to_uci() == d.uci)
                .ok_or_else(stale)?;
            remove.push(key);
        }
        for key in remove {
            self.moves.remove(&key);
        }
        Ok(())
    }
}
