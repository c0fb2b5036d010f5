//! The position editor: a board set up by hand (from the Menu, or from a moment of a game
//! under review), checked with "Done", then played against the computer or between two
//! people. The board's rules live in [`board`]; this is the screen's state.

pub mod board;
pub mod view;

use super::board_view::display_square;
use super::{CellView, Ctx, Go};
use crate::app::model::mode::{GameSetup, Mode};
use crate::app::session::game::GameSession;
use crate::tr;
use board::{SetupBoard, SetupError, Tool};
use chesspi_engine::game::Game;
use chesspi_engine::{CastlingSide, Color, Piece, Position};

/// The editor's state while its screen is open.
#[derive(Debug, Clone)]
pub struct Editor {
    board: SetupBoard,
    tool: Tool,
    /// What "Done" found wrong, until the board changes.
    error: Option<SetupError>,
    /// "Done" found the position legal: the screen offers how to play it.
    ready: Option<Position>,
}

/// How to play the set-up position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditorPlay {
    /// The person plays this colour against the computer.
    Computer(Color),
    /// Two people on this screen.
    Friend,
    /// The analysis board, with this position.
    Analyse,
}

impl EditorPlay {
    /// Stable id used by the screen.
    pub fn from_id(id: &str) -> Option<EditorPlay> {
        match id {
            "white" => Some(EditorPlay::Computer(Color::White)),
            "black" => Some(EditorPlay::Computer(Color::Black)),
            "friend" => Some(EditorPlay::Friend),
            "analyse" => Some(EditorPlay::Analyse),
            _ => None,
        }
    }
}

/// A castling right the board allows, as the screen offers it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CastlingChoice {
    pub color: Color,
    pub side: CastlingSide,
    /// "White" over "O-O".
    pub label: String,
    pub on: bool,
}

impl CastlingChoice {
    /// Stable id used by the screen: the FEN letter (K, Q, k, q).
    pub fn id(&self) -> char {
        let letter = match self.side {
            CastlingSide::King => 'k',
            CastlingSide::Queen => 'q',
        };
        match self.color {
            Color::White => letter.to_ascii_uppercase(),
            Color::Black => letter,
        }
    }

    /// The right a screen id names.
    pub fn parse_id(id: &str) -> Option<(Color, CastlingSide)> {
        match id {
            "K" => Some((Color::White, CastlingSide::King)),
            "Q" => Some((Color::White, CastlingSide::Queen)),
            "k" => Some((Color::Black, CastlingSide::King)),
            "q" => Some((Color::Black, CastlingSide::Queen)),
            _ => None,
        }
    }
}

/// The editor as the screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditorView {
    /// The 64 cells in display order (row-major from the top-left).
    pub cells: [CellView; 64],
    pub tool: Tool,
    pub turn: Color,
    /// Only the rights the board allows.
    pub castling: Vec<CastlingChoice>,
    /// What to do, or what is wrong (`alert`).
    pub message: String,
    pub alert: bool,
    /// The position is legal: offer how to play it.
    pub ready: bool,
    /// The computer's level for a game against it.
    pub level: u8,
}

impl Editor {
    /// The editor on `position` (the game's, or the reviewed moment's).
    pub fn open(position: &Position) -> Editor {
        Editor {
            board: SetupBoard::from_position(position),
            tool: Tool::Piece(Piece::new(Color::White, chesspi_engine::Role::King)),
            error: None,
            ready: None,
        }
    }

    /// The board being set up (tests, the screen).
    pub fn board(&self) -> &SetupBoard {
        &self.board
    }

    /// Changes the board and forgets what "Done" said about the old one.
    fn edit(&mut self, f: impl FnOnce(&mut Editor)) {
        f(self);
        self.error = None;
        self.ready = None;
    }

    /// A tap on the cell at (`col`, `row`) of the screen's board.
    pub fn tap(&mut self, cx: &mut Ctx, col: usize, row: usize) {
        if let Some(sq) = display_square(cx.session.is_flipped(), col, row) {
            self.edit(|e| e.board.tap(sq, e.tool));
        }
    }

    /// The piece (or the eraser) the next taps put down.
    pub fn choose_tool(&mut self, tool: Tool) {
        self.tool = tool;
    }

    pub fn clear(&mut self) {
        self.edit(|e| e.board.clear());
    }

    pub fn start_position(&mut self) {
        self.edit(|e| e.board = SetupBoard::start());
    }

    pub fn set_turn(&mut self, color: Color) {
        self.edit(|e| e.board.set_turn(color));
    }

    pub fn toggle_castling(&mut self, color: Color, side: CastlingSide) {
        self.edit(|e| e.board.toggle_castling(color, side));
    }

    /// "Done": the position is checked; legal, the screen offers how to play it.
    pub fn done(&mut self) {
        match self.board.validate() {
            Ok(pos) => {
                self.ready = Some(pos);
                self.error = None;
            }
            Err(e) => {
                self.ready = None;
                self.error = Some(e);
            }
        }
    }

    /// Back from the choice of how to play to editing the board.
    pub fn back(&mut self) {
        self.edit(|_| {});
    }

    /// Closes the editor; the game (or review) under it is as it was.
    pub fn cancel(&mut self, cx: &mut Ctx) {
        cx.go(Go::Back);
    }

    /// Starts a game from the checked position. It replaces the game in progress (already
    /// saved, as with New game) and is not rated: a set-up position is no test of strength.
    pub fn play(&mut self, cx: &mut Ctx, play: EditorPlay) {
        let Some(pos) = self.ready else {
            return;
        };
        let mode = match play {
            EditorPlay::Computer(human) => Mode::Computer { human },
            EditorPlay::Friend => Mode::Friend,
            EditorPlay::Analyse => return cx.go(Go::AnalysisBoardAt(pos)),
        };
        let setup = GameSetup {
            mode,
            level: cx.session.setup().level,
        };
        cx.go(Go::Back);
        cx.go(Go::Start {
            setup,
            game: Game::from_position(pos),
            rated: false,
            coach: None,
            clock: None,
            sides: None,
        });
    }

    /// The editor as the screen shows it.
    pub fn view(&self, session: &GameSession) -> EditorView {
        let mut cells = [CellView::default(); 64];
        for (cell, view) in cells.iter_mut().enumerate() {
            if let Some(sq) = display_square(session.is_flipped(), cell % 8, cell / 8) {
                *view = CellView {
                    piece: self.board.piece_at(sq),
                    square_light: sq.is_light(),
                    file_label: (cell / 8 == 7).then(|| sq.file().char()),
                    rank_label: (cell % 8 == 0).then(|| sq.rank().char()),
                    ..CellView::default()
                };
            }
        }
        let mut castling = Vec::new();
        for color in Color::ALL {
            for side in CastlingSide::ALL {
                if self.board.castling_allowed(color, side) {
                    castling.push(CastlingChoice {
                        color,
                        side,
                        label: match (color, side) {
                            (Color::White, CastlingSide::King) => tr!("White\nO-O"),
                            (Color::White, CastlingSide::Queen) => tr!("White\nO-O-O"),
                            (Color::Black, CastlingSide::King) => tr!("Black\nO-O"),
                            (Color::Black, CastlingSide::Queen) => tr!("Black\nO-O-O"),
                        },
                        on: self.board.has_castling(color, side),
                    });
                }
            }
        }
        let turn = self.board.turn();
        let (message, alert) = match (&self.error, self.ready) {
            (Some(e), _) => (e.to_string(), true),
            (None, Some(_)) => (
                tr!(
                    "The position is legal, {} to move. How do you want to play it?",
                    super::words::color_name(turn)
                ),
                false,
            ),
            (None, None) => (
                tr!("Pick a piece, then tap squares to put it there; tap it again to take it off."),
                false,
            ),
        };
        EditorView {
            cells,
            tool: self.tool,
            turn,
            castling,
            message,
            alert,
            ready: self.ready.is_some(),
            level: session.setup().level.number(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Action, Controller, Effect};
    use super::*;
    use chesspi_engine::{Role, Square};

    fn sq(name: &str) -> Square {
        name.parse().expect("a square name")
    }

    /// Taps the editor's board at a square, whichever way the board is turned.
    fn tap(c: &mut Controller, name: &str) {
        let cell = c.game_view().cell_of(sq(name));
        c.on(|e: &mut Editor, cx| e.tap(cx, cell % 8, cell / 8));
    }

    fn piece(color: Color, role: Role) -> Tool {
        Tool::Piece(Piece::new(color, role))
    }

    #[test]
    fn the_menu_opens_the_editor_on_the_board_s_position() {
        let mut c = Controller::new(GameSetup::FIRST_START);
        c.action(Action::Menu);
        c.dialog_option("setup");
        assert!(c.shown::<Editor>().is_some());
        assert!(c.dialog().is_none());
        assert_eq!(
            c.shown::<Editor>()
                .map(Editor::board)
                .map(SetupBoard::to_fen)
                .as_deref(),
            Some(chesspi_engine::fen::STARTPOS)
        );
        let view = c
            .shown::<Editor>()
            .map(|e| e.view(c.session()))
            .expect("shown");
        assert_eq!(
            view.castling.len(),
            4,
            "every right is allowed at the start"
        );
        assert!(!view.alert && !view.ready);
        c.on(Editor::cancel);
        assert!(
            c.shown::<Editor>().is_none()
                && c.shown::<Editor>().map(|e| e.view(c.session())).is_none()
        );
    }

    #[test]
    fn done_says_what_is_wrong_and_a_change_clears_it() {
        let mut c = Controller::new(GameSetup::FIRST_START);
        c.go(Go::Editor);
        c.on(|e: &mut Editor, _| e.clear());
        c.on(|e: &mut Editor, _| e.choose_tool(piece(Color::White, Role::King)));
        tap(&mut c, "e1");
        c.on(|e: &mut Editor, _| e.done());
        let view = c
            .shown::<Editor>()
            .map(|e| e.view(c.session()))
            .expect("shown");
        assert!(view.alert && !view.ready);
        assert_eq!(
            view.message,
            "There is no black king: put one on the board."
        );
        c.on(|e: &mut Editor, _| e.choose_tool(piece(Color::Black, Role::King)));
        tap(&mut c, "e8");
        assert!(
            !c.shown::<Editor>()
                .map(|e| e.view(c.session()))
                .expect("shown")
                .alert,
            "the board changed"
        );
        c.on(|e: &mut Editor, _| e.choose_tool(piece(Color::White, Role::Queen)));
        tap(&mut c, "d1");
        c.on(|e: &mut Editor, _| e.done());
        assert!(
            c.shown::<Editor>()
                .map(|e| e.view(c.session()))
                .expect("shown")
                .ready
        );
        // Playing before "Done" found the position legal does nothing.
        c.on(|e: &mut Editor, _| e.back());
        c.on(|e: &mut Editor, cx| e.play(cx, EditorPlay::Friend));
        assert!(c.shown::<Editor>().is_some());
    }

    #[test]
    fn a_checked_position_starts_an_unrated_game_against_the_computer() {
        let mut c = Controller::new(GameSetup::FIRST_START);
        let serial = c.session().record().serial();
        c.go(Go::Editor);
        c.on(|e: &mut Editor, _| e.clear());
        for (color, role, square) in [
            (Color::White, Role::King, "e1"),
            (Color::White, Role::Rook, "a1"),
            (Color::Black, Role::King, "e8"),
            (Color::Black, Role::Pawn, "d5"),
        ] {
            c.on(|e: &mut Editor, _| e.choose_tool(piece(color, role)));
            tap(&mut c, square);
        }
        c.on(|e: &mut Editor, _| e.toggle_castling(Color::White, CastlingSide::Queen));
        // Not allowed: no rook on h1.
        c.on(|e: &mut Editor, _| e.toggle_castling(Color::White, CastlingSide::King));
        c.on(|e: &mut Editor, _| e.set_turn(Color::Black));
        c.on(|e: &mut Editor, _| e.done());
        c.take_effects();
        c.on(|e: &mut Editor, cx| e.play(cx, EditorPlay::Computer(Color::White)));
        assert!(c.shown::<Editor>().is_none());
        assert_eq!(
            c.session().game().initial_position().to_fen(),
            "4k3/8/8/3p4/8/8/8/R3K3 b Q - 0 1"
        );
        assert_eq!(
            c.session().setup().mode,
            Mode::Computer {
                human: Color::White
            }
        );
        assert!(!c.session().record().is_rated());
        assert_ne!(c.session().record().serial(), serial, "another game");
        let effects = c.take_effects();
        assert!(effects.iter().any(|e| matches!(e, Effect::GameChanged)));
        // Black is on move: the computer is asked at once.
        assert!(effects.iter().any(|e| matches!(e, Effect::Think(_))));
    }

    #[test]
    fn a_reviewed_moment_goes_into_the_editor_and_cancel_returns_to_it() {
        let mut c = Controller::new(GameSetup {
            mode: Mode::Friend,
            level: chesspi_engine::level::Level::DEFAULT,
        });
        for (from, to) in [("e2", "e4"), ("c7", "c5"), ("g1", "f3")] {
            c.play(|p, cx, gate| p.press(cx, gate, Some(sq(from))));
            c.play(|p, cx, _| p.release(cx, Some(sq(from)), false));
            c.play(|p, cx, gate| p.press(cx, gate, Some(sq(to))));
            c.play(|p, cx, _| p.release(cx, Some(sq(to)), false));
        }
        // Browsing the game's moves: the position after 1. e4.
        c.part(|v: &mut crate::app::screens::Viewing, cx| v.move_tapped(cx, 0, false));
        assert!(
            c.game_view()
                .actions()
                .iter()
                .any(|a| a.action == Action::SetUp)
        );
        let shown = *c.session().shown_position();
        c.action(Action::SetUp);
        assert!(c.shown::<Editor>().is_some());
        assert_eq!(
            c.shown::<Editor>().map(Editor::board),
            Some(&SetupBoard::from_position(&shown))
        );
        c.on(Editor::cancel);
        assert!(c.session().is_reviewing());
        assert_eq!(*c.session().shown_position(), shown);
        assert_eq!(c.session().game().moves().len(), 3, "the game is untouched");
    }
}
