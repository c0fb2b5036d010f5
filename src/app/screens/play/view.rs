//! The game screen as the window shows it: the board's squares and the sliding move, the
//! players, the move list, the status line, the side panel's buttons (named as the window
//! names them) and the result card, touching only what changed so the software renderer
//! repaints as little as possible.

use super::buttons::Action;
use super::present::{AnalysisShown, GameView, MoveListRow, PlayerInfo, Saved};
use crate::app::screens::Controller;
use crate::app::screens::board_view::{CellView, board_piece, square_view};
use crate::app::screens::words::ResultTone as Tone;
use crate::app::session::marks::mark;
use crate::app::ui::{
    ActionView, AppWindow, BoardPiece, GameAdapter, MoveMark, MoveRow, PanelAction, PlayerView,
    ResultTone, SquareView,
};
use chesspi_engine::Color;
use chesspi_engine::analysis::MoveClass;
use slint::{ComponentHandle, Model, ModelRc, SharedString, VecModel};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The window's name for a button.
pub fn panel_action(action: Action) -> PanelAction {
    match action {
        Action::NewGame => PanelAction::NewGame,
        Action::Undo => PanelAction::Undo,
        Action::Hint => PanelAction::Hint,
        Action::Flip => PanelAction::Flip,
        Action::ResignOrDraw => PanelAction::ResignOrDraw,
        Action::Menu => PanelAction::Menu,
        Action::Review => PanelAction::Review,
        Action::ReviewFirst => PanelAction::ReviewFirst,
        Action::ReviewBack => PanelAction::ReviewBack,
        Action::ReviewForward => PanelAction::ReviewForward,
        Action::ReviewLast => PanelAction::ReviewLast,
        Action::ReviewDone => PanelAction::ReviewDone,
        Action::MoveNow => PanelAction::MoveNow,
        Action::SetUp => PanelAction::SetUp,
        Action::TakeBack => PanelAction::TakeBack,
        Action::PlayOn => PanelAction::PlayOn,
        Action::ShowMe => PanelAction::ShowMe,
        Action::Analyse => PanelAction::Analyse,
        Action::NextMistake => PanelAction::NextMistake,
    }
}

/// The button the window reports.
pub fn action_of(shown: PanelAction) -> Action {
    match shown {
        PanelAction::NewGame => Action::NewGame,
        PanelAction::Undo => Action::Undo,
        PanelAction::Hint => Action::Hint,
        PanelAction::Flip => Action::Flip,
        PanelAction::ResignOrDraw => Action::ResignOrDraw,
        PanelAction::Menu => Action::Menu,
        PanelAction::Review => Action::Review,
        PanelAction::ReviewFirst => Action::ReviewFirst,
        PanelAction::ReviewBack => Action::ReviewBack,
        PanelAction::ReviewForward => Action::ReviewForward,
        PanelAction::ReviewLast => Action::ReviewLast,
        PanelAction::ReviewDone => Action::ReviewDone,
        PanelAction::MoveNow => Action::MoveNow,
        PanelAction::SetUp => Action::SetUp,
        PanelAction::TakeBack => Action::TakeBack,
        PanelAction::PlayOn => Action::PlayOn,
        PanelAction::ShowMe => Action::ShowMe,
        PanelAction::Analyse => Action::Analyse,
        PanelAction::NextMistake => Action::NextMistake,
    }
}

impl Controller {
    /// The game screen as it is shown now.
    pub fn game_view(&self) -> GameView<'_> {
        GameView {
            session: &self.session,
            input: &self.parts.play.input,
            saved: self.parts.viewing.saved().map(|v| Saved {
                white: &v.white,
                black: &v.black,
                result: v.result.as_ref(),
            }),
            analysis: self.analysis_shown(),
            browsing: self.parts.viewing.is_browsing(&self.session),
        }
    }

    /// What the analysis adds to the game screen.
    fn analysis_shown(&self) -> AnalysisShown {
        let (a, saved) = (&self.parts.analysis, self.parts.viewing.is_viewing_saved());
        AnalysisShown {
            analysed: a.exists(),
            analysable: a.analysable(&self.session, saved),
            can_analyse: a.can_analyse(&self.session, saved),
            has_mistakes: a.has_mistakes(),
            classes: (0..=self.session.game.moves().len())
                .map(|ply| a.class_at(ply))
                .collect(),
        }
    }
}

fn player_view(p: &PlayerInfo) -> PlayerView {
    let captured: Vec<BoardPiece> = p.captured.iter().map(|&pc| board_piece(Some(pc))).collect();
    PlayerView {
        name: p.name.as_str().into(),
        detail: p.detail.as_str().into(),
        white: p.color == Color::White,
        to_move: p.to_move,
        captured: ModelRc::new(VecModel::from(captured)),
        balance: if p.advantage > 0 {
            format!("+{}", p.advantage).into()
        } else {
            SharedString::new()
        },
        clock: p.clock.as_deref().unwrap_or("").into(),
        clock_running: p.clock_running,
        clock_low: p.clock_low,
    }
}

fn move_row(r: &MoveListRow) -> MoveRow {
    MoveRow {
        number: format!("{}.", r.number).into(),
        white: r.white.as_deref().unwrap_or("…").into(),
        black: r.black.as_deref().unwrap_or("").into(),
        white_current: r.white_current,
        black_current: r.black_current,
        white_mark: r.white_class.map_or("", mark).into(),
        white_kind: r.white_class.map_or(MoveMark::None, mark_kind),
        black_mark: r.black_class.map_or("", mark).into(),
        black_kind: r.black_class.map_or(MoveMark::None, mark_kind),
    }
}

/// The mark's kind for its colour: 1 inaccuracy, 2 mistake, 3 blunder, 0 none.
fn mark_kind(class: MoveClass) -> MoveMark {
    match class {
        MoveClass::Inaccuracy => MoveMark::Inaccuracy,
        MoveClass::Mistake => MoveMark::Mistake,
        MoveClass::Blunder => MoveMark::Blunder,
        MoveClass::Best | MoveClass::Good => MoveMark::None,
    }
}

/// The models the window shows, kept between refreshes so unchanged rows are not touched.
pub struct GameModels {
    squares: Rc<VecModel<SquareView>>,
    moves: Rc<VecModel<MoveRow>>,
    last_cells: Option<[CellView; 64]>,
    last_rows: Vec<MoveListRow>,
    last_players: Option<(PlayerInfo, PlayerInfo)>,
    /// Moves on the board at the last refresh, to see a new one arrive.
    last_ply: Option<usize>,
    /// Drives the slide of the opponent's move; runs only while one slides.
    slide: Rc<slint::Timer>,
    /// The side panel's buttons and when each place last changed meaning.
    panel: PanelSlots,
}

/// A side-panel button whose place took another meaning ignores taps this long: a tap aimed
/// at "Move now" as the computer answered took back two moves with the Undo in its place.
pub const REARM: Duration = Duration::from_millis(400);

/// Which button is in each place of the side panel, and since when.
#[derive(Default)]
struct PanelSlots {
    shown: Vec<(PanelAction, Instant)>,
}

impl PanelSlots {
    fn show(&mut self, actions: &[ActionView], now: Instant) {
        // The first buttons shown replace nothing: they take taps at once.
        let first = self.shown.is_empty();
        self.shown = actions
            .iter()
            .enumerate()
            .map(|(i, a)| match self.shown.get(i) {
                Some(&(before, since)) if before == a.action => (before, since),
                _ if first => (a.action, now.checked_sub(REARM).unwrap_or(now)),
                _ => (a.action, now),
            })
            .collect();
    }

    /// Whether a tap on `action` counts at `now`: its place has shown it for [`REARM`].
    fn armed(&self, action: PanelAction, now: Instant) -> bool {
        self.shown
            .iter()
            .find(|(a, _)| *a == action)
            .is_some_and(|&(_, since)| now.duration_since(since) >= REARM)
    }
}

/// How long an opponent's move takes to slide to its square.
const SLIDE: Duration = Duration::from_millis(150);
/// Frames of the slide: about 60 per second.
const SLIDE_FRAME: Duration = Duration::from_millis(16);

impl GameModels {
    /// Creates the models and hands them to the window.
    pub fn attach(window: &AppWindow) -> GameModels {
        let squares = Rc::new(VecModel::from(vec![SquareView::default(); 64]));
        let moves = Rc::new(VecModel::default());
        let game = window.global::<GameAdapter>();
        game.set_squares(ModelRc::from(squares.clone()));
        game.set_moves(ModelRc::from(moves.clone()));
        GameModels {
            squares,
            moves,
            last_cells: None,
            last_rows: Vec::new(),
            last_players: None,
            last_ply: None,
            slide: Rc::new(slint::Timer::default()),
            panel: PanelSlots::default(),
        }
    }

    /// Whether a tap on the side panel's `action` counts now (see [`REARM`]).
    pub fn action_armed(&self, action: PanelAction) -> bool {
        self.panel.armed(action, Instant::now())
    }

    /// Slides a move the person did not make (the computer's, the partner's) to its square,
    /// so it is not missed; a move of one's own is where the finger put it.
    fn slide_new_move(&mut self, window: &AppWindow, v: &GameView, cells: &[CellView; 64]) {
        let ply = v.session().game().moves().len();
        let previous = self.last_ply.replace(ply);
        let Some(&mv) = v.session().game().moves().last() else {
            return;
        };
        let mover = v.session().game().positions()[ply - 1].turn();
        if previous != Some(ply - 1)
            || v.session().setup().is_human(mover)
            || v.session().is_reviewing()
        {
            return;
        }
        let (from, to) = (v.cell_of(mv.from()), v.cell_of(mv.to()));
        let game = window.global::<GameAdapter>();
        game.set_slide_from(from as i32);
        game.set_slide_to(to as i32);
        game.set_slide_progress(0.0);
        game.set_slide_piece(square_view(&cells[to]).piece);
        let started = Instant::now();
        let weak_window = window.as_weak();
        let weak_timer = Rc::downgrade(&self.slide);
        self.slide
            .start(slint::TimerMode::Repeated, SLIDE_FRAME, move || {
                let t = started.elapsed().as_secs_f32() / SLIDE.as_secs_f32();
                if let Some(w) = weak_window.upgrade() {
                    let game = w.global::<GameAdapter>();
                    if t >= 1.0 {
                        game.set_slide_piece(BoardPiece::None);
                    } else {
                        game.set_slide_progress(t);
                    }
                }
                if t >= 1.0
                    && let Some(timer) = weak_timer.upgrade()
                {
                    timer.stop();
                }
            });
    }

    /// Shows the game screen: the board and the side panel.
    pub fn refresh(&mut self, window: &AppWindow, c: &Controller) {
        let view = c.game_view();
        self.refresh_board(window, &view);
        self.refresh_panel(window, &view);
    }

    /// The squares, the selection and the sliding move.
    fn refresh_board(&mut self, window: &AppWindow, v: &GameView) {
        let game = window.global::<GameAdapter>();
        let cells = v.cells();
        for (i, cell) in cells.iter().enumerate() {
            if self.last_cells.is_none_or(|last| last[i] != *cell) {
                self.squares.set_row_data(i, square_view(cell));
            }
        }
        self.slide_new_move(window, v, &cells);
        self.last_cells = Some(cells);
        game.set_selected_cell(v.selected().map_or(-1, |sq| v.cell_of(sq) as i32));
    }

    /// The side panel: players, opening, status, moves, buttons, result, promotion.
    fn refresh_panel(&mut self, window: &AppWindow, v: &GameView) {
        let game = window.global::<GameAdapter>();
        let players = v.players();
        if self.last_players.as_ref() != Some(&players) {
            game.set_top_player(player_view(&players.0));
            game.set_bottom_player(player_view(&players.1));
            self.last_players = Some(players);
        }

        game.set_opening(v.opening().unwrap_or_default().into());
        let status = v.status();
        game.set_status(crate::app::screens::words::no_bad_breaks(&status.text).into());
        game.set_status_alert(status.alert);
        game.set_thinking(status.thinking);

        let rows = v.move_rows();
        if rows != self.last_rows {
            let common = self.last_rows.len().min(rows.len());
            for (i, row) in rows.iter().enumerate().take(common) {
                if self.last_rows[i] != *row {
                    self.moves.set_row_data(i, move_row(row));
                }
            }
            while self.moves.row_count() > rows.len() {
                self.moves.remove(self.moves.row_count() - 1);
            }
            for row in &rows[common..] {
                self.moves.push(move_row(row));
            }
            self.last_rows = rows;
        }
        game.set_focus_row(v.focus_row().map_or(-1, |r| r as i32));

        let actions: Vec<ActionView> = v
            .actions()
            .iter()
            .map(|a| ActionView {
                action: panel_action(a.action),
                label: a.label.as_str().into(),
                enabled: a.enabled,
                primary: a.primary,
            })
            .collect();
        self.panel.show(&actions, Instant::now());
        if !same_actions(&game.get_actions(), &actions) {
            game.set_actions(ModelRc::new(VecModel::from(actions)));
        }

        match v.result() {
            Some(result) => {
                game.set_game_over(true);
                game.set_result_title(result.title.into());
                game.set_result_reason(result.reason.into());
                game.set_result_tone(match result.tone {
                    Tone::Won => ResultTone::Won,
                    Tone::Lost => ResultTone::Lost,
                    Tone::Drawn => ResultTone::Drawn,
                    Tone::Neutral => ResultTone::Neutral,
                });
            }
            None => game.set_game_over(false),
        }

        match v.pending_promotion() {
            Some(_) => {
                game.set_promotion_white(v.session().game().position().turn() == Color::White);
                game.set_promotion_visible(true);
            }
            None => game.set_promotion_visible(false),
        }
    }
}

fn same_actions(current: &ModelRc<ActionView>, new: &[ActionView]) -> bool {
    current.row_count() == new.len() && current.iter().zip(new).all(|(a, b)| a == *b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_button_comes_back_as_itself() {
        for shown in [
            PanelAction::NewGame,
            PanelAction::Undo,
            PanelAction::Hint,
            PanelAction::Flip,
            PanelAction::ResignOrDraw,
            PanelAction::Menu,
            PanelAction::Review,
            PanelAction::ReviewFirst,
            PanelAction::ReviewBack,
            PanelAction::ReviewForward,
            PanelAction::ReviewLast,
            PanelAction::ReviewDone,
            PanelAction::MoveNow,
            PanelAction::SetUp,
            PanelAction::Analyse,
            PanelAction::NextMistake,
            PanelAction::TakeBack,
            PanelAction::PlayOn,
            PanelAction::ShowMe,
        ] {
            assert_eq!(panel_action(action_of(shown)), shown);
        }
    }
}
