//! The lessons' list laid out in pages: two columns a page, each area under its heading in
//! [`Area::ALL`]'s order, an area that goes on in the next column headed again there.

use chesspi_engine::endgame::lessons::{Area, Lesson};

/// The height of a column (px): the screen's 480 less the top bar and the margins.
pub const COLUMN_HEIGHT: u32 = 408;
/// Columns on a page.
pub const COLUMNS: usize = 2;
/// An area's heading (px).
pub const HEADING: u32 = 28;
/// A lesson's row: a 48 px button and the gap below it.
pub const ROW: u32 = 52;

/// What one place of the list holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    Heading(Area),
    /// A lesson, by its index in the lessons given.
    Lesson(usize),
}

/// One item and where it stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub item: Item,
    pub page: usize,
    pub column: usize,
    /// From the column's top (px).
    pub y: u32,
}

/// Every lesson of `lessons` placed, area by area.
pub fn layout(lessons: &[Lesson]) -> Vec<Placed> {
    let mut out = Vec::new();
    let (mut page, mut column, mut y) = (0, 0, 0);
    let next_column = |page: &mut usize, column: &mut usize, y: &mut u32| {
        *column += 1;
        if *column == COLUMNS {
            *column = 0;
            *page += 1;
        }
        *y = 0;
    };
    for area in Area::ALL {
        let mut headed = false;
        for (index, _) in lessons.iter().enumerate().filter(|(_, l)| l.area == area) {
            let need = if headed { ROW } else { HEADING + ROW };
            if y + need > COLUMN_HEIGHT {
                next_column(&mut page, &mut column, &mut y);
                headed = false;
            }
            if !headed {
                out.push(Placed {
                    item: Item::Heading(area),
                    page,
                    column,
                    y,
                });
                y += HEADING;
                headed = true;
            }
            out.push(Placed {
                item: Item::Lesson(index),
                page,
                column,
                y,
            });
            y += ROW;
        }
    }
    out
}

/// How many pages `layout` fills.
pub fn pages(placed: &[Placed]) -> usize {
    placed.iter().map(|p| p.page + 1).max().unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesspi_engine::endgame::lessons::LESSONS;

    #[test]
    fn every_lesson_once_under_its_heading_within_the_columns() {
        let placed = layout(&LESSONS);
        assert_eq!(pages(&placed), 2, "24 lessons on two pages");
        let mut seen = Vec::new();
        let mut heading = None;
        for (i, p) in placed.iter().enumerate() {
            let height = match p.item {
                Item::Heading(_) => HEADING,
                Item::Lesson(_) => ROW,
            };
            assert!(p.y + height <= COLUMN_HEIGHT, "{p:?}");
            assert!(p.column < COLUMNS);
            let new_column =
                i == 0 || (placed[i - 1].page, placed[i - 1].column) != (p.page, p.column);
            match p.item {
                Item::Heading(area) => heading = Some(area),
                Item::Lesson(index) => {
                    assert!(!new_column, "a column starts with its heading: {p:?}");
                    assert_eq!(heading, Some(LESSONS[index].area), "{p:?}");
                    seen.push(index);
                }
            }
        }
        // In the lessons' order, which is area by area in `Area::ALL`'s.
        let mut expected: Vec<usize> = (0..LESSONS.len()).collect();
        expected.sort_by_key(|&i| Area::ALL.iter().position(|&a| a == LESSONS[i].area));
        assert_eq!(seen, expected);
    }
}
