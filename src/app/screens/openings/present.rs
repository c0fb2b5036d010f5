//! What the Openings screen shows, as plain data: the list pages (names in the user's
//! language, each with its progress), the colour's page and the drill's board and words.

use super::run::Run;
use super::{OpeningsScreen, Page, chooser};
use crate::app::screens::board_view::{self, BoardMarks, CellView};
use crate::app::screens::words::color_name;
use crate::storage::openings::OpeningCards;
use crate::{tr, trn};
use chesspi_engine::openings::lines::Family;
use chesspi_engine::{Color, Move, Position};

/// Which page is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpeningsPage {
    Families,
    Openings,
    Colour,
    Drill,
}

/// One row of a list: a family or an opening, and its progress.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowView {
    pub name: String,
    /// "12 lines · 3 seen · 1 learnt · 2 due".
    pub detail: String,
    /// Some of its lines are due.
    pub due: bool,
}

/// The drill's board and words.
#[derive(Debug, Clone, PartialEq)]
pub struct DrillView {
    pub cells: [CellView; 64],
    /// Black at the bottom (the user plays Black).
    pub flipped: bool,
    /// What to do now.
    pub prompt: String,
    /// A miss (the book's moves) or the line's end.
    pub verdict: String,
    pub missed: bool,
    pub complete: bool,
    /// The moves so far: "1. e4 e5 2. Nf3".
    pub moves: String,
    /// The book's first move after a miss: display cells.
    pub arrow: Option<(usize, usize)>,
    /// After a miss: the book's move may be played for the user.
    pub can_book: bool,
    pub promotion: Option<Color>,
}

/// What the Openings screen shows.
#[derive(Debug, Clone, PartialEq)]
pub struct OpeningsView {
    pub page: OpeningsPage,
    pub title: String,
    /// Under the title: what to choose and the page, or the opening's progress.
    pub subtitle: String,
    pub rows: Vec<RowView>,
    pub can_previous: bool,
    pub can_next: bool,
    /// Whether a colour has a line with a move for it.
    pub can_white: bool,
    pub can_black: bool,
    pub drill: Option<DrillView>,
}

impl OpeningsScreen {
    /// The screen as the window shows it, with `cards`' progress at `now`.
    pub fn view(&self, cards: &OpeningCards, now: u64) -> OpeningsView {
        let german = crate::i18n::language() == crate::i18n::Language::German;
        let mut view = OpeningsView {
            page: OpeningsPage::Families,
            title: tr!("Openings"),
            subtitle: String::new(),
            rows: Vec::new(),
            can_previous: false,
            can_next: false,
            can_white: false,
            can_black: false,
            drill: None,
        };
        match &self.page {
            Page::Families => {
                let families = chooser::families();
                let (page, pages) = paging(families.len(), self.families_page);
                view.subtitle = tr!("Choose an opening · page {} of {}", page + 1, pages);
                view.rows = chooser::page_of(&families, page)
                    .iter()
                    .map(|f| {
                        let lines: Vec<_> = f.lines().collect();
                        row(f.display_name(german).to_string(), &lines, cards, now)
                    })
                    .collect();
                (view.can_previous, view.can_next) = (page > 0, page + 1 < pages);
            }
            Page::Openings { family } => {
                let openings = chooser::openings_of(family);
                let (page, pages) = paging(openings.len(), self.openings_page);
                view.page = OpeningsPage::Openings;
                view.title = family.display_name(german).to_string();
                view.subtitle = tr!("Choose the lines · page {} of {}", page + 1, pages);
                view.rows = chooser::page_of(&openings, page)
                    .iter()
                    .map(|&name| {
                        let shown = if name == family.name() {
                            tr!("All lines")
                        } else {
                            chooser::shown_name(name, german).into_owned()
                        };
                        row(shown, &chooser::lines_of(name), cards, now)
                    })
                    .collect();
                (view.can_previous, view.can_next) = (page > 0, page + 1 < pages);
            }
            Page::Colour { family, opening } => {
                let lines = chooser::lines_of(opening);
                view.page = OpeningsPage::Colour;
                view.title = opening_title(family, opening, german);
                view.subtitle = chooser::progress_text(&chooser::progress(&lines, cards, now));
                view.can_white = !lines.is_empty();
                view.can_black = lines.iter().any(|l| l.moves().len() > 1);
            }
            Page::Drill {
                family,
                opening,
                run,
            } => {
                let lines = chooser::lines_of(opening);
                view.page = OpeningsPage::Drill;
                view.title = opening_title(family, opening, german);
                view.subtitle = chooser::progress_text(&chooser::progress(&lines, cards, now));
                view.drill = Some(self.drill_view(run, cards, now, german));
            }
        }
        view
    }

    fn drill_view(&self, run: &Run, cards: &OpeningCards, now: u64, german: bool) -> DrillView {
        let drill = run.drill();
        let pos = drill.position();
        let user = drill.user();
        let flipped = user == Color::Black;
        let san = |at: &Position, mv: Move| crate::i18n::san(&chesspi_engine::san::to_san(at, mv));
        let cell = |sq| board_view::display_cell(flipped, sq);
        let mut view = DrillView {
            cells: [CellView::default(); 64],
            flipped,
            prompt: String::new(),
            verdict: String::new(),
            missed: false,
            complete: false,
            moves: moves_text(drill.played()),
            arrow: None,
            can_book: false,
            promotion: None,
        };
        if let Some(done) = run.complete() {
            view.complete = true;
            view.verdict = match done {
                Some(line) => tr!("Line complete: {}", chooser::line_name(line, german)),
                None => tr!("The lines end here."),
            };
            view.prompt = match done.and_then(|l| cards.get(l.id())) {
                _ if run.missed() => tr!("A move was missed on the way: the line comes back soon."),
                Some(card) => {
                    let days = card.due_unix.saturating_sub(now).div_ceil(86_400);
                    trn!(
                        "Learnt: the line comes back in {} day.",
                        "Learnt: the line comes back in {} days.",
                        days
                    )
                }
                None => tr!("Choose the next line, or go back."),
            };
        } else if let Some(miss) = run.miss() {
            let book: Vec<String> = miss.expected.iter().map(|&mv| san(pos, mv)).collect();
            view.missed = true;
            view.verdict = tr!(
                "{} is not in the book here. The book plays {}.",
                san(pos, miss.tried),
                book.join(", ")
            );
            view.prompt = tr!("Try again on the board, or play the book move.");
            view.arrow = miss
                .expected
                .first()
                .map(|mv| (cell(mv.from()), cell(mv.to())));
            view.can_book = !miss.expected.is_empty();
        } else if run.computer_to_move() {
            view.prompt = tr!("The computer plays {}…", color_name(!user));
        } else {
            view.prompt = tr!("Your move with {}.", color_name(user));
        }
        let selected = self.input.selected();
        let targets = if run.user_to_move() {
            self.input.targets(pos)
        } else {
            Vec::new()
        };
        let marks = BoardMarks {
            selected,
            targets: &targets,
            last: drill.played().last().copied(),
            hint: None,
            warned: &[],
            assist: &[],
        };
        view.cells = board_view::board_cells(pos, &marks, |col, row| {
            board_view::display_square(flipped, col, row)
        });
        view.promotion = self.input.pending_promotion().map(|_| user);
        view
    }
}

/// The page shown (cut to the last) and how many there are.
fn paging(count: usize, page: usize) -> (usize, usize) {
    let pages = chooser::page_count(count);
    (page.min(pages - 1), pages)
}

fn row(
    name: String,
    lines: &[&'static chesspi_engine::openings::lines::Line],
    cards: &OpeningCards,
    now: u64,
) -> RowView {
    let progress = chooser::progress(lines, cards, now);
    RowView {
        name,
        detail: chooser::progress_text(&progress),
        due: progress.due > 0,
    }
}

/// The opening's name as a title: the family's, or the family's and the variation's.
fn opening_title(family: &Family, opening: &'static str, german: bool) -> String {
    let family_name = family.display_name(german);
    if opening == family.name() {
        return family_name.to_string();
    }
    format!("{family_name}: {}", chooser::shown_name(opening, german))
}

/// "1. e4 e5 2. Nf3": the moves from the start position, numbered, in the user's language.
fn moves_text(played: &[Move]) -> String {
    let san = chesspi_engine::san::moves_to_san(&Position::startpos(), played);
    let mut text = String::new();
    for (i, mv) in san.iter().enumerate() {
        if i > 0 {
            text.push(' ');
        }
        if i % 2 == 0 {
            text.push_str(&format!("{}. ", i / 2 + 1));
        }
        text.push_str(&crate::i18n::san(mv));
    }
    text
}
