//! Endgames (Menu → Endgames): the lessons of `chesspi_engine::endgame::lessons` listed by
//! area with the player's progress, and one lesson at a time played against the computer at
//! full strength from its start position: the tables' move where they cover the position,
//! else the search at level 10, both on the computer's worker thread (which also builds the
//! tables the first time, so the UI thread never waits for them). The worker's answer carries
//! what the tables say of every position; `judge.rs` turns that and the game into passed,
//! failed or going on. Each try that ends is recorded (`storage::endgames`, by the saver).

mod judge;
mod list;
#[cfg(test)]
mod tests;
pub mod view;
mod words;

pub use judge::{Fail, HOLD_MOVES, Pass, PassKind, Standing};

use super::board_input::{BoardInput, Touch};
use super::{Controller, Ctx, Effect, EndgameReply, Go, Purpose, ThinkRequest};
use crate::storage::endgames::EndgameProgress;
use crate::{tr, trn};
use chesspi_engine::endgame::Verdict;
use chesspi_engine::endgame::lessons::{Goal, LESSONS, Lesson};
use chesspi_engine::game::{Game, Termination};
use chesspi_engine::level::Level;
use chesspi_engine::{Color, Move, Position, Role};

/// The Endgames screen's state: the list's page, and the lesson being played, if any.
#[derive(Debug, Clone, Default)]
pub struct Endgames {
    page: usize,
    attempt: Option<Box<Attempt>>,
    /// A lesson's search stopped the game's own (the computer's move, the coach's look): the
    /// game takes it up again when Endgames closes.
    interrupted: bool,
}

/// One try at a lesson.
#[derive(Debug, Clone)]
struct Attempt {
    lesson: &'static Lesson,
    /// From the lesson's start.
    game: Game,
    /// What the tables say of the game's positions, as far as the worker has answered.
    values: Vec<Option<Verdict>>,
    input: BoardInput,
    /// The worker is asked (the tables, the computer's move).
    waiting: bool,
    standing: Standing,
}

impl Attempt {
    fn new(lesson: &'static Lesson) -> Option<Attempt> {
        let start = lesson.position().ok()?;
        Some(Attempt {
            lesson,
            game: Game::from_position(start),
            values: Vec::new(),
            input: BoardInput::default(),
            waiting: false,
            standing: Standing::Playing,
        })
    }

    /// The player's side sits at the bottom.
    fn flipped(&self) -> bool {
        self.lesson.player == Color::Black
    }

    fn moves(&self) -> u32 {
        judge::player_moves(&self.game, self.lesson.player)
    }
}

impl Controller {
    /// The worker's answer in an endgame lesson, for Endgames if it is open.
    pub(in crate::app::screens) fn endgame_answered(&mut self, reply: EndgameReply) {
        self.on(|e: &mut Endgames, cx| e.answered(cx, reply));
    }
}

impl Endgames {
    /// The list's buttons ("prev", "next", "done") and the lesson's ("retry", "lessons").
    pub fn button(&mut self, cx: &mut Ctx, id: &str) {
        let pages = list::pages(&list::layout(&LESSONS));
        match id {
            "prev" => self.page = self.page.saturating_sub(1),
            "next" => self.page = (self.page + 1).min(pages - 1),
            "retry" => {
                let lesson = self.attempt.as_ref().map(|a| a.lesson);
                if let Some(lesson) = lesson {
                    self.start(cx, lesson);
                }
            }
            "lessons" => {
                stop_own_search(cx);
                self.attempt = None;
            }
            "done" => {
                stop_own_search(cx);
                cx.go(Go::Back);
                if self.interrupted {
                    cx.go(Go::Resume);
                }
            }
            _ => {}
        }
    }

    /// A lesson chosen from the list, by its index among the lessons.
    pub fn choose(&mut self, cx: &mut Ctx, index: usize) {
        if self.attempt.is_none()
            && let Some(lesson) = LESSONS.get(index)
        {
            self.start(cx, lesson);
        }
    }

    /// A new try at `lesson`: the tables are asked about its start (and built, the first time).
    fn start(&mut self, cx: &mut Ctx, lesson: &'static Lesson) {
        stop_own_search(cx);
        self.attempt = Attempt::new(lesson).map(Box::new);
        self.ask(cx, Purpose::EndgameProbe);
    }

    /// A tap on the lesson's board (display column and row).
    pub fn tap(&mut self, cx: &mut Ctx, col: usize, row: usize) {
        let Some(a) = self.attempt.as_mut() else {
            return;
        };
        if a.waiting || a.standing.is_over() || a.game.position().turn() != a.lesson.player {
            return;
        }
        let Some(sq) = super::board_view::display_square(a.flipped(), col, row) else {
            return;
        };
        let pos = *a.game.position();
        if let Touch::Move(mv) = a.input.tap(&pos, sq) {
            self.play(cx, mv);
        }
    }

    /// The promotion picker's answer (`None`: cancelled, the pawn let go).
    pub fn choose_promotion(&mut self, cx: &mut Ctx, role: Option<Role>) {
        let Some(a) = self.attempt.as_mut() else {
            return;
        };
        let pos = *a.game.position();
        match a.input.choose_promotion(&pos, role) {
            Some(mv) => self.play(cx, mv),
            None => a.input.deselect(),
        }
    }

    /// The player's move: played, then the worker asked for the tables' word on it and,
    /// unless it ended the game, the computer's answer.
    fn play(&mut self, cx: &mut Ctx, mv: Move) {
        let Some(a) = self.attempt.as_mut() else {
            return;
        };
        a.input.clear();
        if a.game.play(mv).is_err() {
            return;
        }
        let over = a.game.is_over() || a.game.claimable_draw().is_some();
        self.ask(
            cx,
            if over {
                Purpose::EndgameProbe
            } else {
                Purpose::EndgameMove
            },
        );
    }

    /// Asks the worker about the lesson's game; the game's own search, if one runs, waits
    /// until Endgames closes (the worker does one search at a time).
    fn ask(&mut self, cx: &mut Ctx, purpose: Purpose) {
        let Some(a) = self.attempt.as_mut() else {
            return;
        };
        let game_search = cx
            .session
            .thinking
            .purpose()
            .is_some_and(|p| matches!(p, Purpose::Move | Purpose::Judge));
        self.interrupted |= game_search;
        cx.cancel_thinking();
        let id = cx.session.thinking.begin(purpose);
        a.waiting = true;
        cx.effect(Effect::Think(ThinkRequest {
            id,
            purpose,
            game: a.game.clone(),
            // Full strength where the tables do not cover the position.
            level: Level::MAX,
            clock: None,
            book: false,
        }));
    }

    /// The worker's answer: the player's move judged first (a move that throws the result
    /// away ends the try on that move, the computer's answer not played), then the answer
    /// played and the try judged again.
    pub fn answered(&mut self, cx: &mut Ctx, reply: EndgameReply) {
        let Some(a) = self.attempt.as_mut() else {
            return;
        };
        if !a.waiting {
            return;
        }
        a.waiting = false;
        let known = a.game.positions().len().min(reply.values.len());
        a.values = reply.values[..known].to_vec();
        a.standing = judge::judge(a.lesson, &a.game, &a.values);
        if !a.standing.is_over()
            && let Some(mv) = reply.reply
            && a.game.play(mv).is_ok()
        {
            a.values = reply.values;
            a.standing = judge::judge(a.lesson, &a.game, &a.values);
        }
        let passed = match a.standing {
            Standing::Playing => return,
            Standing::Passed(_) => true,
            Standing::Failed(_) => false,
        };
        let (id, moves) = (a.lesson.id.to_string(), a.moves());
        cx.endgames.record(&id, passed, moves);
        cx.effect(Effect::EndgameTried { id, passed, moves });
    }

    /// The position on the lesson's board (`None` on the list).
    pub fn position(&self) -> Option<Position> {
        self.attempt.as_ref().map(|a| *a.game.position())
    }

    /// The screen as the window shows it, with the player's `progress`.
    pub fn view(&self, progress: &EndgameProgress) -> EndgamesView {
        match &self.attempt {
            None => EndgamesView::List(self.list_view(progress)),
            Some(a) => EndgamesView::Lesson(Box::new(lesson_view(a))),
        }
    }

    fn list_view(&self, progress: &EndgameProgress) -> ListView {
        let placed = list::layout(&LESSONS);
        let pages = list::pages(&placed);
        let page = self.page.min(pages - 1);
        let items = placed
            .iter()
            .filter(|p| p.page == page)
            .map(|p| match p.item {
                list::Item::Heading(area) => ItemView {
                    lesson: None,
                    text: words::area_name(area),
                    detail: String::new(),
                    passed: false,
                    column: p.column,
                    y: p.y,
                },
                list::Item::Lesson(index) => {
                    let lesson = &LESSONS[index];
                    let record = progress.get(lesson.id);
                    let tries = trn!("{} try", "{} tries", record.tries);
                    let detail = match (record.passed, record.best_moves) {
                        (true, Some(best)) => format!(
                            "{} · {tries}",
                            trn!("Passed in {} move", "Passed in {} moves", best)
                        ),
                        _ if record.tries > 0 => format!("{} · {tries}", tr!("Not passed yet")),
                        _ => tr!("Not tried yet"),
                    };
                    ItemView {
                        lesson: Some(index),
                        text: words::title(lesson),
                        detail,
                        passed: record.passed,
                        column: p.column,
                        y: p.y,
                    }
                }
            })
            .collect();
        let passed = progress.passed_of(LESSONS.iter().map(|l| l.id));
        ListView {
            items,
            progress: tr!("{} of {} passed", passed, LESSONS.len()),
            page: tr!("Page {} of {}", page + 1, pages),
            can_prev: page > 0,
            can_next: page + 1 < pages,
        }
    }
}

/// Stops the worker's search if it is one of Endgames'.
fn stop_own_search(cx: &mut Ctx) {
    let own = cx
        .session
        .thinking
        .purpose()
        .is_some_and(|p| matches!(p, Purpose::EndgameProbe | Purpose::EndgameMove));
    if own {
        cx.cancel_thinking();
    }
}

/// What the Endgames screen shows: the list or a lesson.
#[derive(Debug, Clone, PartialEq)]
pub enum EndgamesView {
    List(ListView),
    Lesson(Box<LessonView>),
}

/// The lessons' list, one page.
#[derive(Debug, Clone, PartialEq)]
pub struct ListView {
    pub items: Vec<ItemView>,
    /// "5 of 24 passed".
    pub progress: String,
    /// "Page 1 of 2".
    pub page: String,
    pub can_prev: bool,
    pub can_next: bool,
}

/// A heading (no lesson) or a lesson's button, and where it stands on the page.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemView {
    /// The lesson's index among the lessons; `None` for an area's heading.
    pub lesson: Option<usize>,
    pub text: String,
    pub detail: String,
    pub passed: bool,
    pub column: usize,
    pub y: u32,
}

/// A lesson being played.
#[derive(Debug, Clone, PartialEq)]
pub struct LessonView {
    pub cells: [super::CellView; 64],
    pub flipped: bool,
    pub area: String,
    pub title: String,
    /// What the lesson teaches.
    pub summary: String,
    pub goal: String,
    /// Whose move, the count so far, the computer thinking.
    pub status: String,
    /// At the end: passed (`Some(true)`) or failed, and why.
    pub result: Option<bool>,
    pub verdict: String,
    pub thinking: bool,
    pub promotion: Option<Color>,
}

fn lesson_view(a: &Attempt) -> LessonView {
    let pos = *a.game.position();
    let flipped = a.flipped();
    let targets = a.input.targets(&pos);
    // A move that threw the result away is marked as the coach marks a warned move.
    let slipped = match a.standing {
        Standing::Failed(Fail::ThrewWin(ply) | Fail::LetDrawSlip(ply)) => {
            a.game.moves().get(ply).map(|mv| [mv.from(), mv.to()])
        }
        _ => None,
    };
    let marks = super::board_view::BoardMarks {
        selected: a.input.selected(),
        targets: &targets,
        last: a.game.moves().last().copied(),
        hint: None,
        warned: slipped.as_ref().map_or(&[], |s| &s[..]),
        assist: &[],
    };
    let cells = super::board_view::board_cells(&pos, &marks, |col, row| {
        super::board_view::display_square(flipped, col, row)
    });
    let shortest = judge::shortest_mate(a.values.first().copied().flatten());
    let goal = match (a.lesson.goal, shortest) {
        (Goal::Mate, Some(n)) => trn!(
            "Goal: checkmate. Best play mates in {} move.",
            "Goal: checkmate. Best play mates in {} moves.",
            n
        ),
        (Goal::Mate, None) => tr!("Goal: checkmate."),
        (Goal::Win, _) => {
            tr!("Goal: win. Mate, or leave the king alone against your queen or rook.")
        }
        (Goal::Draw, _) => tr!(
            "Goal: hold the draw for {} moves, or reach a draw by the rules.",
            HOLD_MOVES
        ),
    };
    let moves = a.moves();
    let status = if a.waiting && pos.turn() != a.lesson.player {
        tr!("The computer thinks…")
    } else if a.waiting {
        tr!("The endgame tables are read…")
    } else {
        trn!(
            "Your move. {} move played.",
            "Your move. {} moves played.",
            moves
        )
    };
    let (result, verdict) = match a.standing {
        Standing::Playing => (None, String::new()),
        Standing::Passed(pass) => (Some(true), passed_text(pass)),
        Standing::Failed(fail) => (Some(false), failed_text(fail, &a.game, a.lesson.player)),
    };
    LessonView {
        cells,
        flipped,
        area: words::area_name(a.lesson.area),
        title: words::title(a.lesson),
        summary: words::summary(a.lesson),
        goal,
        status: if result.is_some() {
            String::new()
        } else {
            status
        },
        result,
        verdict,
        thinking: a.waiting,
        promotion: a.input.pending_promotion().map(|_| a.lesson.player),
    }
}

fn passed_text(pass: Pass) -> String {
    let n = pass.moves;
    match pass.how {
        PassKind::Mate { shortest: Some(s) } if n <= s => trn!(
            "Passed: mate in {} move, the shortest there is.",
            "Passed: mate in {} moves, the shortest there is.",
            n
        ),
        PassKind::Mate { shortest: Some(s) } => trn!(
            "Passed: mate in {} move; the shortest was {}.",
            "Passed: mate in {} moves; the shortest was {}.",
            n,
            s
        ),
        PassKind::Mate { shortest: None } => {
            trn!("Passed: mate in {} move.", "Passed: mate in {} moves.", n)
        }
        PassKind::BareKing => trn!(
            "Passed: won in {} move. The lone king cannot hold out against your queen or rook.",
            "Passed: won in {} moves. The lone king cannot hold out against your queen or rook.",
            n
        ),
        PassKind::Drawn(termination) => tr!(
            "Passed: a draw {}.",
            super::words::termination_reason(termination)
        ),
        PassKind::Held => tr!("Passed: you held the draw for {} moves.", n),
    }
}

fn failed_text(fail: Fail, game: &Game, player: Color) -> String {
    let san = |ply: usize| {
        let before: &Position = &game.positions()[ply];
        crate::i18n::san(&chesspi_engine::san::to_san(before, game.moves()[ply]))
    };
    match fail {
        Fail::ThrewWin(ply) => tr!("{}: this throws the win away. Try again.", san(ply)),
        Fail::LetDrawSlip(ply) => tr!("{}: this lets the draw slip. Try again.", san(ply)),
        Fail::Ended(outcome) => match (outcome.winner, outcome.termination) {
            (Some(w), _) if w != player => tr!("Not passed: you were mated. Try again."),
            (_, Termination::Stalemate) => {
                tr!("Not passed: stalemate, a draw. Leave the king a square. Try again.")
            }
            (_, t) => tr!(
                "Not passed: a draw {}. Try again.",
                super::words::termination_reason(t)
            ),
        },
        Fail::BareKing => {
            tr!("Not passed: your king is left alone against a queen or rook. Try again.")
        }
    }
}
