//! What the chooser lists: the families (most lines first), an opening within a family (all
//! its lines, then each variation: a name up to its first ", "), their names in the user's
//! language, and each one's progress, a page at a time.

use crate::storage::openings::{CardProgress, OpeningCards};
use crate::trn;
use chesspi_engine::openings::lines::{self, Family, Line};
use std::borrow::Cow;

/// Rows on one page of a list (two columns of six).
pub const ROWS_PER_PAGE: usize = 12;

/// The families, the most lines first (the openings played most), then by English name.
pub fn families() -> Vec<&'static Family> {
    let mut families: Vec<&'static Family> = lines::families().iter().collect();
    families.sort_by_key(|f| (std::cmp::Reverse(f.line_count()), f.name()));
    families
}

/// The openings of `family`: the family itself (all its lines) first, then its variations,
/// the most lines first, each named as the data names its lines (`"Ruy Lopez: Closed"`).
pub fn openings_of(family: &Family) -> Vec<&'static str> {
    let mut variations: Vec<(&'static str, usize)> = Vec::new();
    for line in family.lines() {
        let Some(name) = variation(line) else {
            continue;
        };
        match variations.iter_mut().find(|(n, _)| *n == name) {
            Some((_, count)) => *count += 1,
            None => variations.push((name, 1)),
        }
    }
    variations.sort_by_key(|&(name, count)| (std::cmp::Reverse(count), name));
    std::iter::once(family.name())
        .chain(variations.into_iter().map(|(name, _)| name))
        .collect()
}

/// The variation a line belongs to: its name up to the first ", " after the family's `": "`
/// (`None` for the family's own line, which has no variation).
fn variation(line: &'static Line) -> Option<&'static str> {
    let name = line.name();
    let (family, rest) = name.split_once(": ")?;
    let end = family.len() + 2 + rest.find(", ").unwrap_or(rest.len());
    // `end` is at ", " or the end: a character boundary.
    name.get(..end)
}

/// The lines of the opening called `name` (a family's or a variation's name).
pub fn lines_of(name: &str) -> Vec<&'static Line> {
    lines::opening_lines(name)
}

/// The opening's name to show: in German where it has a German name, without the family's
/// part (the page's title names it) unless it is the family itself.
pub fn shown_name(name: &'static str, german: bool) -> Cow<'static, str> {
    let full = if german {
        chesspi_engine::openings::german::german_name(name)
    } else {
        Cow::Borrowed(name)
    };
    match full {
        Cow::Borrowed(text) => Cow::Borrowed(text.split_once(": ").map_or(text, |(_, v)| v)),
        Cow::Owned(text) => match text.split_once(": ") {
            Some((_, v)) => Cow::Owned(v.to_string()),
            None => Cow::Owned(text),
        },
    }
}

/// A line's full name as shown (German where known).
pub fn line_name(line: &Line, german: bool) -> Cow<'static, str> {
    if german {
        line.german_name()
    } else {
        Cow::Borrowed(line.name())
    }
}

/// The progress over `lines` at `now`.
pub fn progress(lines: &[&'static Line], cards: &OpeningCards, now: u64) -> CardProgress {
    cards.progress(lines.iter().map(|l| l.id()), now)
}

/// "12 lines · 3 seen · 1 learnt · 2 due".
pub fn progress_text(p: &CardProgress) -> String {
    trn!(
        "{} line · {} seen · {} learnt · {} due",
        "{} lines · {} seen · {} learnt · {} due",
        p.lines,
        p.seen,
        p.learnt,
        p.due
    )
}

/// How many pages `count` rows take (at least one).
pub fn page_count(count: usize) -> usize {
    count.div_ceil(ROWS_PER_PAGE).max(1)
}

/// The rows of page `page` (cut to the last page).
pub fn page_of<T: Copy>(items: &[T], page: usize) -> &[T] {
    let page = page.min(page_count(items.len()) - 1);
    let start = (page * ROWS_PER_PAGE).min(items.len());
    let end = (start + ROWS_PER_PAGE).min(items.len());
    &items[start..end]
}
