//! The analysis board's glue: opening it (from the Menu with the game's position, or from
//! the editor), taps that move pieces for either side, its buttons, the worker's lines, and
//! what its screen shows: [`Session`]'s methods, reached through [`Controller::on`]. The
//! search itself runs on [`worker`]; the shell asks [`Session::request`] what to search
//! after every change.

pub mod lines;
pub mod view;

use crate::app::screens::board_input::{BoardInput, Touch};
use crate::app::screens::board_view::{BoardMarks, board_cells, display_square};
use crate::app::screens::{CellView, Ctx, Go};
use crate::tr;
use chesspi_engine::search::Score;
use chesspi_engine::{Color, Move, Position, Role, Square};
use lines::{AnalysisBoard, line_text, score_text};

/// The lines of one completed depth of the position of `generation`, best first, scores
/// from the side to move's view; `finished` on the last report of that position.
#[derive(Debug, Clone)]
pub struct BoardReport {
    pub generation: u64,
    pub lines: Vec<(Score, u32, Vec<Move>)>,
    pub finished: bool,
}

/// Moves of a line shown (a row of the panel holds about this many).
const LINE_MOVES: usize = 6;

/// The open board: the model plus what only the screen needs.
#[derive(Debug, Clone)]
pub struct Session {
    board: AnalysisBoard,
    flipped: bool,
    input: BoardInput,
}

/// One line as shown: its evaluation ("+0.35") and its moves ("12. Nf3 Nc6 …").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineView {
    pub score: String,
    pub moves: String,
}

/// What the analysis board's screen shows.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysisBoardView {
    pub cells: [CellView; 64],
    /// White's share of the evaluation bar, 0..=1.
    pub white_share: f32,
    pub flipped: bool,
    pub lines: Vec<LineView>,
    /// "Depth 12" while thinking, the result of a finished game, or what the engine does.
    pub status: String,
    pub can_back: bool,
    pub can_forward: bool,
    /// The colour of the pieces the promotion picker offers, while it is open.
    pub promotion: Option<Color>,
}

impl Session {
    /// The board on `pos`, turned as the game's board is (`flipped`).
    pub(in crate::app::screens) fn open(pos: Position, flipped: bool) -> Session {
        Session {
            board: AnalysisBoard::new(pos),
            flipped,
            input: BoardInput::default(),
        }
    }

    /// The position to search, its generation and the positions before it.
    pub fn request(&self) -> (u64, Position, Vec<u64>) {
        (
            self.board.generation(),
            self.board.position(),
            self.board.history(),
        )
    }

    /// Whether the search of the position shown has spent its budget (screenshots, tests).
    pub fn finished(&self) -> bool {
        self.board.finished()
    }

    /// The worker's lines (dropped when the position has changed since).
    pub fn report(&mut self, report: BoardReport) {
        self.board
            .set_lines(report.generation, report.lines, report.finished);
    }

    /// A tap on a display cell: selects a piece of the side to move, moves it to a legal
    /// square (a pawn reaching the last rank opens the promotion picker), or changes the
    /// selection. Ignored while the picker is open.
    pub fn tap(&mut self, col: usize, row: usize) {
        let Some(sq) = display_square(self.flipped, col, row) else {
            return;
        };
        let pos = self.board.position();
        if let Touch::Move(mv) = self.input.tap(&pos, sq) {
            self.board.play(mv);
        }
    }

    /// The squares a promotion on the board is waiting for (the picker is open).
    pub fn pending_promotion(&self) -> Option<(Square, Square)> {
        self.input.pending_promotion()
    }

    /// The promotion picker's answer on the board; `None` cancels (the pawn stays selected
    /// and the position is unchanged).
    pub fn choose_promotion(&mut self, role: Option<Role>) {
        if let Some(mv) = self.input.choose_promotion(&self.board.position(), role) {
            self.board.play(mv);
        }
    }

    /// The panel's buttons: "back", "forward", "flip", "done". A button closes an open
    /// promotion picker unanswered.
    pub fn button(&mut self, cx: &mut Ctx, id: &str) {
        self.input.clear();
        match id {
            "back" => {
                self.board.back();
            }
            "forward" => {
                self.board.forward();
            }
            "flip" => self.flipped = !self.flipped,
            "done" => cx.go(Go::Back),
            _ => {}
        }
    }

    /// The board as its screen shows it.
    pub fn view(&self) -> AnalysisBoardView {
        let pos = self.board.position();
        let last = self.board.moves_played().last().copied();
        let targets = self.input.targets(&pos);
        let marks = BoardMarks {
            selected: self.input.selected(),
            targets: &targets,
            last,
            hint: None,
            warned: &[],
            assist: &[],
        };
        let cells = board_cells(&pos, &marks, |col, row| {
            display_square(self.flipped, col, row)
        });
        let lines: Vec<LineView> = self
            .board
            .lines()
            .iter()
            .map(|l| LineView {
                score: score_text(l.score),
                moves: line_text(&pos, &l.moves, LINE_MOVES),
            })
            .collect();
        let depth = self.board.lines().first().map_or(0, |l| l.depth);
        // The picker says what it wants itself: the line stays about the engine.
        let status = if pos.is_checkmate() {
            tr!("Checkmate")
        } else if pos.is_stalemate() {
            tr!("Stalemate")
        } else if self.board.finished() {
            tr!("Depth {} — done", depth)
        } else if depth > 0 {
            tr!("Depth {} — thinking…", depth)
        } else {
            tr!("Thinking…")
        };
        let white_share = if pos.is_checkmate() {
            // The side to move is mated.
            if pos.turn() == Color::White { 0.0 } else { 1.0 }
        } else {
            self.board.white_share()
        };
        AnalysisBoardView {
            cells,
            white_share,
            flipped: self.flipped,
            lines,
            status,
            can_back: self.board.can_go_back(),
            can_forward: self.board.can_go_forward(),
            promotion: self.input.pending_promotion().map(|_| pos.turn()),
        }
    }
}

/// The square under display cell (col, row from the top-left).
#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::model::mode::{GameSetup, Mode, NewGameForm};
    use crate::app::screens::{Action, Controller, Editor, EditorPlay};

    fn friend() -> GameSetup {
        GameSetup {
            mode: Mode::Friend,
            ..GameSetup::FIRST_START
        }
    }

    /// The open board's search request.
    fn request(c: &Controller) -> (u64, Position, Vec<u64>) {
        c.shown::<Session>().map(Session::request).unwrap()
    }

    /// The open board as its screen shows it.
    fn shown(c: &Controller) -> AnalysisBoardView {
        c.shown::<Session>().map(Session::view).unwrap()
    }

    fn tap(c: &mut Controller, name: &str) {
        let sq: Square = name.parse().unwrap();
        let cell = c.game_view().cell_of(sq);
        c.on(|s: &mut Session, _| s.tap(cell % 8, cell / 8));
    }

    #[test]
    fn the_menu_opens_the_board_on_the_games_position_and_done_leaves_the_game_alone() {
        let mut c = Controller::new(friend());
        for name in ["e2", "e4"] {
            let sq: Square = name.parse().unwrap();
            c.play(|p, cx, gate| p.press(cx, gate, Some(sq)));
            c.play(|p, cx, _| p.release(cx, Some(sq), false));
        }
        assert_eq!(c.session().game().moves().len(), 1);
        c.action(Action::Menu);
        c.dialog_option("analyse");
        assert!(c.shown::<Session>().is_some());
        let (_, pos, history) = request(&c);
        assert_eq!(pos.hash(), c.session().game().position().hash());
        assert!(history.is_empty());
        tap(&mut c, "e7");
        tap(&mut c, "e5");
        tap(&mut c, "g1");
        tap(&mut c, "f3");
        let view = shown(&c);
        assert!(view.can_back && !view.can_forward);
        assert_eq!(request(&c).2.len(), 2);
        c.on(|s: &mut Session, cx| s.button(cx, "done"));
        assert!(c.shown::<Session>().is_none());
        assert!(c.shown::<Session>().map(Session::request).is_none());
        assert_eq!(c.session().game().moves().len(), 1);
    }

    fn piece_on(c: &Controller, name: &str) -> Option<(Color, Role)> {
        let (_, pos, _) = request(c);
        pos.piece_at(name.parse().unwrap())
            .map(|p| (p.color, p.role))
    }

    #[test]
    fn a_tap_on_a_piece_of_the_side_not_to_move_selects_nothing() {
        let mut c = Controller::new(friend());
        let pos = Position::from_fen("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        c.go(Go::AnalysisBoardAt(pos));
        tap(&mut c, "g7");
        assert!(!shown(&c).cells.iter().any(|v| v.selected));
    }

    #[test]
    fn promotion_asks_which_piece_and_cancel_leaves_the_position_unchanged() {
        let mut c = Controller::new(friend());
        let pos = Position::from_fen("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        c.go(Go::AnalysisBoardAt(pos));
        let (generation, _, _) = request(&c);
        tap(&mut c, "e7");
        tap(&mut c, "e8");
        assert_eq!(
            c.shown::<Session>().and_then(Session::pending_promotion),
            Some(("e7".parse().unwrap(), "e8".parse().unwrap()))
        );
        let view = shown(&c);
        assert_eq!(view.promotion, Some(Color::White));
        // Nothing is played (or searched anew) while the picker is open; board taps wait.
        let (g, now, _) = request(&c);
        assert_eq!((g, now.hash()), (generation, pos.hash()));
        tap(&mut c, "e1");
        assert!(
            c.shown::<Session>()
                .and_then(Session::pending_promotion)
                .is_some()
        );

        c.on(|s: &mut Session, _| s.choose_promotion(None));
        assert_eq!(
            c.shown::<Session>().and_then(Session::pending_promotion),
            None
        );
        let (g, now, _) = request(&c);
        assert_eq!((g, now.hash()), (generation, pos.hash()));
        let view = shown(&c);
        assert_eq!(view.promotion, None);
        assert!(!view.can_back);
        // The pawn stays selected: another tap on e8 asks again.
        let e7 = c.game_view().cell_of("e7".parse().unwrap());
        assert!(view.cells[e7].selected);
        tap(&mut c, "e8");
        assert!(
            c.shown::<Session>()
                .and_then(Session::pending_promotion)
                .is_some()
        );
        // A panel button closes the picker unanswered.
        c.on(|s: &mut Session, cx| s.button(cx, "flip"));
        assert_eq!(
            c.shown::<Session>().and_then(Session::pending_promotion),
            None
        );
        assert_eq!(request(&c).1.hash(), pos.hash());
    }

    #[test]
    fn each_piece_can_be_chosen_for_either_side() {
        let cases = [
            ("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1", "e7", "e8", Color::White),
            (
                "4k3/8/8/8/8/8/1p4K1/2R5 b - - 0 1",
                "b2",
                "c1",
                Color::Black,
            ),
        ];
        for (fen, from, to, color) in cases {
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                let mut c = Controller::new(friend());
                c.go(Go::AnalysisBoardAt(Position::from_fen(fen).unwrap()));
                tap(&mut c, from);
                tap(&mut c, to);
                assert_eq!(shown(&c).promotion, Some(color));
                c.on(|s: &mut Session, _| s.choose_promotion(Some(role)));
                assert_eq!(piece_on(&c, to), Some((color, role)), "{fen} {role:?}");
                assert_eq!(piece_on(&c, from), None);
                let view = shown(&c);
                assert_eq!(view.promotion, None);
                assert!(view.can_back);
            }
        }
    }

    #[test]
    fn an_underpromotion_from_the_editor_goes_back_and_forward_and_is_searched() {
        let pos = Position::from_fen("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let mut c = Controller::with_game(chesspi_engine::game::Game::from_position(pos), friend());
        c.go(Go::Editor);
        c.on(|e: &mut Editor, _| e.done());
        c.on(|e: &mut Editor, cx| e.play(cx, EditorPlay::Analyse));
        assert!(c.shown::<Session>().is_some());
        let (before, _, _) = request(&c);
        tap(&mut c, "e7");
        tap(&mut c, "e8");
        c.on(|s: &mut Session, _| s.choose_promotion(Some(Role::Knight)));
        let (generation, promoted, history) = request(&c);
        // A new position for the search, with the one before it in its history.
        assert!(generation > before);
        assert_eq!(promoted.to_fen(), "4N3/6k1/8/8/8/8/8/4K3 b - - 0 1");
        assert_eq!(history, vec![pos.hash()]);
        // Lines of the promoted position are taken and shown in its notation.
        let reply = chesspi_engine::san::parse_san(&promoted, "Kf8").unwrap();
        c.on(|s: &mut Session, _| {
            s.report(BoardReport {
                generation,
                lines: vec![(chesspi_engine::search::Score::Cp(0), 4, vec![reply])],
                finished: false,
            })
        });
        let view = shown(&c);
        assert_eq!(view.lines[0].moves, "1\u{2026} Kf8");
        assert_eq!(view.status, "Depth 4 — thinking…");

        c.on(|s: &mut Session, cx| s.button(cx, "back"));
        assert_eq!(request(&c).1.hash(), pos.hash());
        assert_eq!(piece_on(&c, "e7"), Some((Color::White, Role::Pawn)));
        assert!(shown(&c).can_forward);
        c.on(|s: &mut Session, cx| s.button(cx, "forward"));
        assert_eq!(piece_on(&c, "e8"), Some((Color::White, Role::Knight)));
        // The same promotion again after a takeback goes forward; another piece starts a new line.
        c.on(|s: &mut Session, cx| s.button(cx, "back"));
        tap(&mut c, "e7");
        tap(&mut c, "e8");
        c.on(|s: &mut Session, _| s.choose_promotion(Some(Role::Rook)));
        assert_eq!(piece_on(&c, "e8"), Some((Color::White, Role::Rook)));
        assert!(!shown(&c).can_forward);
    }

    #[test]
    fn the_games_clock_waits_while_the_board_is_open() {
        use std::time::{Duration, Instant};
        let t0 = Instant::now();
        let mut c = Controller::new(friend());
        c.action(Action::NewGame);
        c.on(|f: &mut NewGameForm, _| f.choose_mode("friend"));
        c.on(|f: &mut NewGameForm, _| f.choose_preset(Some(0)));
        c.on(NewGameForm::start);
        c.sync_clock(t0, false);
        assert_eq!(
            c.session().clock().and_then(|k| k.running()),
            Some(Color::White)
        );
        c.action(Action::Menu);
        c.dialog_option("analyse");
        c.sync_clock(t0 + Duration::from_secs(1), false);
        assert_eq!(c.session().clock().and_then(|k| k.running()), None);
        c.on(|s: &mut Session, cx| s.button(cx, "done"));
        c.sync_clock(t0 + Duration::from_secs(2), false);
        assert_eq!(
            c.session().clock().and_then(|k| k.running()),
            Some(Color::White)
        );
    }

    #[test]
    fn the_editor_opens_the_board_with_a_legal_position() {
        let mut c = Controller::new(friend());
        c.go(Go::Editor);
        c.on(|e: &mut Editor, _| e.done());
        c.on(|e: &mut Editor, cx| e.play(cx, EditorPlay::Analyse));
        assert!(c.shown::<Session>().is_some());
        assert!(c.shown::<Editor>().is_none());
        let (_, pos, _) = request(&c);
        assert_eq!(pos.hash(), Position::startpos().hash());
    }

    #[test]
    fn lines_show_in_whites_view_and_the_position_after_a_mate_says_so() {
        let mut c = Controller::new(friend());
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").unwrap();
        c.go(Go::AnalysisBoardAt(pos));
        let (generation, pos, _) = request(&c);
        let mate = chesspi_engine::san::parse_san(&pos, "Ra8#").unwrap();
        c.on(|s: &mut Session, _| {
            s.report(BoardReport {
                generation,
                lines: vec![(chesspi_engine::search::Score::Mate(1), 3, vec![mate])],
                finished: true,
            })
        });
        let view = shown(&c);
        assert_eq!(view.lines[0].score, "#1");
        assert_eq!(view.lines[0].moves, "1. Ra8#");
        assert_eq!(view.white_share, 1.0);
        tap(&mut c, "a1");
        tap(&mut c, "a8");
        let view = shown(&c);
        assert_eq!(view.status, "Checkmate");
        assert!(view.lines.is_empty());
        assert_eq!(view.white_share, 1.0);
    }
}
