//! Train (Menu → Train): the player's own mistakes as puzzles. Each puzzle is the position
//! before a mistake or blunder of an analysed game; the player finds a better move. The
//! analysis's best move solves it, and so does any move the coach judges within
//! [`SOLVED_LOSS`] points of win probability of it. Puzzles come back by a spaced-repetition
//! schedule (`storage::puzzles`): solved ones later, failed ones soon.

#[cfg(test)]
mod tests;
pub mod view;

use super::board_input::{BoardInput, Touch};
use super::{Controller, Ctx, Effect, Go, Purpose, ThinkRequest};
use crate::storage::puzzles::{Puzzle, PuzzleBook, PuzzleRecord};
use crate::tr;
use chesspi_engine::coach::Judgement;
use chesspi_engine::game::Game;
use chesspi_engine::{Color, Move, Position, Role, Square};

/// A move that loses at most this many points of win probability against the best one
/// solves a puzzle too.
pub const SOLVED_LOSS: f64 = 3.0;

/// How a try ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TryResult {
    /// The analysis's best move.
    Best,
    /// Another move, as good within [`SOLVED_LOSS`].
    AlsoGood(Move),
    /// A move that loses more.
    Failed(Move),
}

impl TryResult {
    fn solved(self) -> bool {
        !matches!(self, TryResult::Failed(_))
    }
}

/// The Train screen's state.
#[derive(Debug, Clone)]
pub struct Training {
    /// The puzzle on the board (`None`: nothing due).
    puzzle: Option<Puzzle>,
    /// The selection and a promotion waiting for its piece.
    input: BoardInput,
    /// The move tried, waiting for the coach's judgement.
    judging: Option<Move>,
    result: Option<TryResult>,
    /// A judgement stopped the game's own search (the computer's move, the coach's look at
    /// the player's): the game takes it up again when Train closes.
    interrupted: bool,
}

impl Training {
    /// The move on the board: the one tried while it is judged, a solving one after; a
    /// failed try is taken back, so the best move's arrow stands where it is played.
    fn shown_move(&self) -> Option<Move> {
        match self.result {
            Some(TryResult::Best) => self.puzzle.as_ref().map(|p| p.best),
            Some(TryResult::AlsoGood(mv)) => Some(mv),
            Some(TryResult::Failed(_)) => None,
            None => self.judging,
        }
    }

    fn position(&self) -> Option<Position> {
        let puzzle = self.puzzle.as_ref()?;
        let played = self.shown_move();
        Some(match played {
            Some(mv) => puzzle.position.play(mv).unwrap_or(puzzle.position),
            None => puzzle.position,
        })
    }

    /// The player's side sits at the bottom.
    fn flipped(&self) -> bool {
        self.puzzle
            .as_ref()
            .is_some_and(|p| p.position.turn() == Color::Black)
    }
}

/// What the Train screen shows.
#[derive(Debug, Clone, PartialEq)]
pub struct TrainView {
    pub cells: [super::CellView; 64],
    pub flipped: bool,
    /// Where the puzzle is from and what to find.
    pub title: String,
    pub prompt: String,
    /// After a try: what it was.
    pub verdict: String,
    pub solved: Option<bool>,
    /// Due puzzles, the streak, the share solved.
    pub record: String,
    /// The mistake played in the game (before a try), then the best move: display cells.
    pub arrow: Option<(usize, usize)>,
    pub arrow_good: bool,
    pub can_next: bool,
    pub promotion: Option<Color>,
    pub thinking: bool,
}

impl Controller {
    /// The coach's judgement of the move tried (`None`: it could not judge it), for Train
    /// if it is open.
    pub(in crate::app::screens) fn train_judged(&mut self, judgement: Option<Box<Judgement>>) {
        self.on(|t: &mut Training, cx| t.judged(cx, judgement));
    }
}

impl Training {
    /// Train on the first puzzle due in `book`.
    pub(in crate::app::screens) fn open(book: &PuzzleBook) -> Training {
        Training {
            puzzle: next_due_puzzle(book, None),
            input: BoardInput::default(),
            judging: None,
            result: None,
            interrupted: false,
        }
    }

    /// Train's buttons: "next", "done".
    pub fn button(&mut self, cx: &mut Ctx, id: &str) {
        match id {
            "next" => {
                let tried = self.puzzle.as_ref().map(|p| p.id.clone());
                self.puzzle = next_due_puzzle(cx.puzzles, tried.as_deref());
                self.input.clear();
                self.judging = None;
                self.result = None;
            }
            "done" => {
                if cx.session.thinking.purpose() == Some(Purpose::TrainJudge) {
                    cx.cancel_thinking();
                }
                cx.go(Go::Back);
                if self.interrupted {
                    cx.go(Go::Resume);
                }
            }
            _ => {}
        }
    }

    /// A tap on Train's board (display column and row).
    pub fn tap(&mut self, cx: &mut Ctx, col: usize, row: usize) {
        if self.result.is_some() || self.judging.is_some() {
            return;
        }
        let Some(pos) = self.position() else {
            return;
        };
        let Some(sq) = super::board_view::display_square(self.flipped(), col, row) else {
            return;
        };
        if let Touch::Move(mv) = self.input.tap(&pos, sq) {
            self.try_move(cx, mv);
        }
    }

    /// The promotion picker's answer on Train's board (`None`: cancelled, the pawn let go).
    pub fn choose_promotion(&mut self, cx: &mut Ctx, role: Option<Role>) {
        let Some(pos) = self.position() else {
            return;
        };
        match self.input.choose_promotion(&pos, role) {
            Some(mv) => self.try_move(cx, mv),
            None => self.input.deselect(),
        }
    }

    /// A move tried: the best one solves at once; another is judged by the coach.
    fn try_move(&mut self, cx: &mut Ctx, mv: Move) {
        self.input.deselect();
        let Some(puzzle) = self.puzzle.clone() else {
            return;
        };
        if mv == puzzle.best {
            self.record(cx, TryResult::Best);
            return;
        }
        self.judging = Some(mv);
        let mut game = Game::from_position(puzzle.position);
        if game.play(mv).is_err() {
            self.judging = None;
            return;
        }
        // The worker does one search at a time: the game's own waits until Train closes.
        let game_search = cx
            .session
            .thinking
            .purpose()
            .is_some_and(|p| matches!(p, Purpose::Move | Purpose::Judge));
        self.interrupted |= game_search;
        cx.cancel_thinking();
        let id = cx.session.thinking.begin(Purpose::TrainJudge);
        let level = cx.session.setup.level;
        cx.effect(Effect::Think(ThinkRequest {
            id,
            purpose: Purpose::TrainJudge,
            game,
            level,
            clock: None,
            book: false,
        }));
    }

    /// The coach's judgement of the move tried (`None`: it could not judge it).
    pub fn judged(&mut self, cx: &mut Ctx, judgement: Option<Box<Judgement>>) {
        let Some(mv) = self.judging.take() else {
            return;
        };
        let good = judgement.is_some_and(|j| j.played == mv && j.loss <= SOLVED_LOSS);
        self.record(
            cx,
            if good {
                TryResult::AlsoGood(mv)
            } else {
                TryResult::Failed(mv)
            },
        );
    }

    /// Shows how the try ended and records it in the book (and, through the saver, on disk).
    fn record(&mut self, cx: &mut Ctx, result: TryResult) {
        self.result = Some(result);
        let Some(id) = self.puzzle.as_ref().map(|p| p.id.clone()) else {
            return;
        };
        let now = crate::storage::timestamp::unix_now();
        cx.puzzles.record(&id, result.solved(), now);
        cx.effect(Effect::PuzzleTried {
            id,
            solved: result.solved(),
            now,
        });
    }

    /// The Train screen as the window shows it; `book` gives the record line.
    pub fn view(&self, book: &PuzzleBook) -> TrainView {
        let flipped = self.flipped();
        let now = crate::storage::timestamp::unix_now();
        let record = record_text(&book.summary(now));
        let Some(puzzle) = &self.puzzle else {
            return TrainView {
                cells: train_cells(&Position::startpos(), flipped, None, &[]),
                flipped,
                // The screen's heading says "Train" already.
                title: String::new(),
                prompt: if book.puzzles().is_empty() {
                    tr!(
                        "No puzzles yet. Analyse a finished game: your mistakes in it become \
                         puzzles here."
                    )
                } else {
                    tr!("Nothing due now. Solved puzzles come back after a while.")
                },
                verdict: String::new(),
                solved: None,
                record,
                arrow: None,
                arrow_good: false,
                can_next: false,
                promotion: None,
                thinking: false,
            };
        };
        let pos = self.position().unwrap_or(puzzle.position);
        let cell = |sq: Square| super::board_view::display_cell(flipped, sq);
        let cells_of = |mv: Move| (cell(mv.from()), cell(mv.to()));
        let san = |mv: Move| crate::i18n::san(&chesspi_engine::san::to_san(&puzzle.position, mv));
        let side = super::words::color_name(puzzle.position.turn());
        let (verdict, solved, arrow, good) = match self.result {
            None => (String::new(), None, Some(cells_of(puzzle.mistake)), false),
            Some(TryResult::Best) => (
                tr!("Solved: {} is the best move.", san(puzzle.best)),
                Some(true),
                Some(cells_of(puzzle.best)),
                true,
            ),
            Some(TryResult::AlsoGood(mv)) => (
                tr!(
                    "Solved: {} is good too. The best move was {}.",
                    san(mv),
                    san(puzzle.best)
                ),
                Some(true),
                Some(cells_of(puzzle.best)),
                true,
            ),
            Some(TryResult::Failed(mv)) => (
                tr!(
                    "Not this time: {} loses too much. The best move was {}.",
                    san(mv),
                    san(puzzle.best)
                ),
                Some(false),
                Some(cells_of(puzzle.best)),
                true,
            ),
        };
        let selected = self.input.selected();
        let targets = self.input.targets(&pos);
        let last = self.shown_move();
        let mut view = TrainView {
            cells: train_cells(&pos, flipped, selected, &targets).map(|mut c| {
                c.last_move = false;
                c
            }),
            flipped,
            title: tr!(
                "From your game of {}",
                super::words::date_text(&puzzle.date)
            ),
            prompt: if puzzle.blunder {
                tr!(
                    "{} to move. In the game {} was played here, a blunder: find a better move.",
                    side,
                    san(puzzle.mistake)
                )
            } else {
                tr!(
                    "{} to move. In the game {} was played here, a mistake: find a better move.",
                    side,
                    san(puzzle.mistake)
                )
            },
            verdict,
            solved,
            record,
            arrow: arrow.filter(|_| last.is_none() || self.result.is_some()),
            arrow_good: good,
            can_next: self.result.is_some(),
            promotion: self
                .input
                .pending_promotion()
                .map(|_| puzzle.position.turn()),
            thinking: self.judging.is_some(),
        };
        // The move tried stands on the board as the last move.
        if let Some(mv) = last {
            for sq in [mv.from(), mv.to()] {
                view.cells[cell(sq)].last_move = true;
            }
        }
        view
    }
}

/// The first puzzle due in `book`, but `not` the one just tried while another is due.
fn next_due_puzzle(book: &PuzzleBook, not: Option<&str>) -> Option<Puzzle> {
    let now = crate::storage::timestamp::unix_now();
    let due = book.due(now);
    // The one just tried comes back later, not at once (unless it is the only one).
    due.iter()
        .find(|p| Some(p.id.as_str()) != not)
        .or(due.first())
        .map(|p| (*p).clone())
}

/// Train's board: `pos` with the piece picked up and where it may go.
fn train_cells(
    pos: &Position,
    flipped: bool,
    selected: Option<Square>,
    targets: &[Move],
) -> [super::CellView; 64] {
    let marks = super::board_view::BoardMarks {
        selected,
        targets,
        last: None,
        hint: None,
        warned: &[],
        assist: &[],
    };
    super::board_view::board_cells(pos, &marks, |col, row| {
        super::board_view::display_square(flipped, col, row)
    })
}

/// "3 due · streak 2 · 70 % solved".
fn record_text(r: &PuzzleRecord) -> String {
    let mut text = tr!("{} due of {}", r.due, r.puzzles);
    if let Some(percent) = r.solved_percent() {
        text.push_str(" · ");
        text.push_str(&tr!("streak {} · {} % solved", r.streak, percent));
    }
    text
}
