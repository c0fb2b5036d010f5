//! Openings (Menu → Openings): an opening's named lines learnt as cards. The user chooses a
//! family, then an opening within it (all its lines, or one variation), then a colour; the
//! computer plays the other side along the opening's lines, following the line whose card is
//! due (`run.rs`), and the user plays their side by touch. A move off the lines is a miss:
//! the lines' moves are shown, the user tries again or plays the book move. Each line is a
//! card on Train's Leitner schedule (`storage::openings`), kept by the saver per player.
//!
//! The computer's move waits a moment ([`COMPUTER_PAUSE`]) so it does not feel instant: the
//! shell's timer asks for it ([`OpeningsScreen::computer_waits`], then
//! [`OpeningsScreen::computer_plays`]); no search is made, the drill picks from data.

mod chooser;
mod present;
mod run;
#[cfg(test)]
mod tests;
pub mod view;

pub use present::{DrillView, OpeningsPage, OpeningsView, RowView};

use super::board_input::{BoardInput, Touch};
use super::{Ctx, Effect, Go};
use chesspi_engine::openings::drill::Drill;
use chesspi_engine::openings::lines::{Family, Line};
use chesspi_engine::{Color, Move, Role};
use run::{Grade, Run};
use std::time::Duration;

/// How long the computer seems to think before its move.
pub const COMPUTER_PAUSE: Duration = Duration::from_millis(600);

/// Where the user is: each page holds what the page before it chose.
#[derive(Debug, Clone)]
enum Page {
    Families,
    Openings {
        family: &'static Family,
    },
    Colour {
        family: &'static Family,
        opening: &'static str,
    },
    Drill {
        family: &'static Family,
        opening: &'static str,
        run: Box<Run>,
    },
}

/// The Openings screen's state.
#[derive(Debug, Clone)]
pub struct OpeningsScreen {
    page: Page,
    /// The page of the families' list shown (kept while an opening is chosen).
    families_page: usize,
    /// The page of the family's openings shown.
    openings_page: usize,
    /// Varies the computer's choices from one round to the next.
    seed: u64,
    /// The drill board's selection and a promotion waiting for its piece.
    input: BoardInput,
}

impl OpeningsScreen {
    /// The families' list; `now` (seconds since the epoch) seeds the computer's choices.
    pub(in crate::app::screens) fn open(now: u64) -> OpeningsScreen {
        OpeningsScreen {
            page: Page::Families,
            families_page: 0,
            openings_page: 0,
            seed: now,
            input: BoardInput::default(),
        }
    }

    /// The drill on the board, once a colour is chosen.
    pub fn drill(&self) -> Option<&Drill> {
        self.run().map(Run::drill)
    }

    /// The line the computer follows in the drill (its card is the one graded).
    pub fn followed_line(&self) -> Option<&'static Line> {
        self.run().and_then(Run::target)
    }

    /// Whether the computer is to move in the drill (the shell's timer then asks for it).
    pub fn computer_waits(&self) -> bool {
        self.run().is_some_and(Run::computer_to_move)
    }

    fn run(&self) -> Option<&Run> {
        match &self.page {
            Page::Drill { run, .. } => Some(run),
            _ => None,
        }
    }

    /// A fresh seed (splitmix64): the choices of one round differ from the last.
    fn next_seed(&mut self) -> u64 {
        self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// The screen's buttons: "previous" and "next" (a list's pages), "back", "white" and
    /// "black" (the colour), "next-line" and "book" (the drill: another round, the book's move
    /// played for the user after a miss).
    pub fn button(&mut self, cx: &mut Ctx, id: &str) {
        match id {
            "previous" | "next" => self.turn_page(id == "next"),
            "back" => self.back(cx),
            "white" => self.start(cx, Color::White),
            "black" => self.start(cx, Color::Black),
            "next-line" => {
                if let Page::Drill { run, .. } = &self.page {
                    let user = run.drill().user();
                    self.start(cx, user);
                }
            }
            "book" => {
                let book = self
                    .run()
                    .and_then(|r| r.miss())
                    .and_then(|m| m.expected.first().copied());
                if let Some(mv) = book {
                    self.user_move(cx, mv);
                }
            }
            _ => {}
        }
    }

    /// A tap on row `index` of the list shown: a family, then an opening.
    pub fn tap_row(&mut self, index: usize) {
        match self.page {
            Page::Families => {
                let families = chooser::families();
                let page = chooser::page_of(&families, self.families_page);
                if let Some(&family) = page.get(index) {
                    self.openings_page = 0;
                    self.page = Page::Openings { family };
                }
            }
            Page::Openings { family } => {
                let openings = chooser::openings_of(family);
                let page = chooser::page_of(&openings, self.openings_page);
                if let Some(&opening) = page.get(index) {
                    self.page = Page::Colour { family, opening };
                }
            }
            Page::Colour { .. } | Page::Drill { .. } => {}
        }
    }

    fn turn_page(&mut self, forward: bool) {
        let (page, count) = match self.page {
            Page::Families => (&mut self.families_page, chooser::families().len()),
            Page::Openings { family } => {
                (&mut self.openings_page, chooser::openings_of(family).len())
            }
            Page::Colour { .. } | Page::Drill { .. } => return,
        };
        let last = chooser::page_count(count) - 1;
        *page = if forward {
            (*page + 1).min(last)
        } else {
            page.saturating_sub(1)
        };
    }

    /// One page up: the drill to the colours, to the openings, to the families, to the game.
    fn back(&mut self, cx: &mut Ctx) {
        self.input.clear();
        self.page = match &self.page {
            Page::Families => {
                cx.go(Go::Back);
                return;
            }
            Page::Openings { .. } => Page::Families,
            &Page::Colour { family, .. } => Page::Openings { family },
            &Page::Drill {
                family, opening, ..
            } => Page::Colour { family, opening },
        };
    }

    /// A round of the chosen opening with the user playing `user`.
    fn start(&mut self, cx: &mut Ctx, user: Color) {
        let (family, opening) = match &self.page {
            Page::Colour { family, opening }
            | Page::Drill {
                family, opening, ..
            } => (*family, *opening),
            Page::Families | Page::Openings { .. } => return,
        };
        let now = crate::storage::timestamp::unix_now();
        let seed = self.next_seed();
        match Run::start(chooser::lines_of(opening), user, cx.openings, now, seed) {
            Ok(run) => {
                self.input.clear();
                self.page = Page::Drill {
                    family,
                    opening,
                    run: Box::new(run),
                };
            }
            // The colour's button is off when no line has a move for it.
            Err(e) => log::warn!("no drill of {opening} for {user:?}: {e}"),
        }
    }

    /// The computer's move in the drill, once its pause is over.
    pub fn computer_plays(&mut self, cx: &mut Ctx) {
        let now = crate::storage::timestamp::unix_now();
        let seed = self.next_seed();
        let Page::Drill { run, .. } = &mut self.page else {
            return;
        };
        let grade = run.computer_move(cx.openings, now, seed);
        record(cx, grade, now);
    }

    /// A tap on the drill's board (display column and row).
    pub fn tap(&mut self, cx: &mut Ctx, col: usize, row: usize) {
        let Some(run) = self.run().filter(|r| r.user_to_move()) else {
            return;
        };
        let pos = *run.drill().position();
        let flipped = run.drill().user() == Color::Black;
        let Some(sq) = super::board_view::display_square(flipped, col, row) else {
            return;
        };
        if let Touch::Move(mv) = self.input.tap(&pos, sq) {
            self.user_move(cx, mv);
        }
    }

    /// The promotion picker's answer on the drill's board (`None`: cancelled).
    pub fn choose_promotion(&mut self, cx: &mut Ctx, role: Option<Role>) {
        let Some(pos) = self.drill().map(|d| *d.position()) else {
            return;
        };
        match self.input.choose_promotion(&pos, role) {
            Some(mv) => self.user_move(cx, mv),
            None => self.input.deselect(),
        }
    }

    fn user_move(&mut self, cx: &mut Ctx, mv: Move) {
        self.input.deselect();
        let now = crate::storage::timestamp::unix_now();
        let seed = self.next_seed();
        let Page::Drill { run, .. } = &mut self.page else {
            return;
        };
        let grade = run.user_move(mv, cx.openings, now, seed);
        if run.miss().is_some() {
            cx.effect(Effect::Sound(crate::sound::Cue::Illegal));
        }
        record(cx, grade, now);
    }
}

/// A card's try: in the controller's cards at once, and on disk through the saver.
fn record(cx: &mut Ctx, grade: Option<Grade>, now: u64) {
    let Some(Grade { line, passed }) = grade else {
        return;
    };
    cx.openings.record(line, passed, now);
    cx.effect(Effect::OpeningTried { line, passed, now });
}
