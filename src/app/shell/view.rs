//! Turns the controller's plain description of the screen into Slint models, touching only
//! what changed so the software renderer repaints as little as possible.

use crate::app::model::clock::TimeControl;
use crate::app::model::mode::{ModeChoice, NetworkRole, NewGameForm};
use crate::app::screens::board_view::arrow_path;
use crate::app::screens::board_view::{CellView, board_piece, square_view};
use crate::app::screens::play::view::panel_action;
use crate::app::screens::{
    Analysis, Controller, Lobby, MoveListRow, PlayerInfo, ResultTone as Tone, ScreenKind, analysis,
    coach, editor, train, wifi,
};
use crate::app::session::marks::{area_path, mark};
use crate::app::ui::{
    ActionView, AnalysisAdapter, AppWindow, BoardPiece, DialogAdapter, GameAdapter, GraphMark,
    KeypadAdapter, ModeView, MoveMark, MoveRow, NewGameAdapter, OptionView, PanelAction,
    PlayerView, ResultTone, Screen, SquareView, StatusAdapter,
};
use crate::lan::session::LinkState;
use crate::tr;
use chesspi_engine::Color;
use chesspi_engine::analysis::MoveClass;
use slint::{ComponentHandle, Model, ModelRc, SharedString, VecModel};
use std::rc::Rc;
use std::time::{Duration, Instant};

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

/// The evaluation graph, its progress and verdict, and the accuracies.
fn refresh_analysis(window: &AppWindow, c: &Controller) {
    let adapter = window.global::<AnalysisAdapter>();
    let Some(a) = c
        .get::<Analysis>()
        .view(c.session())
        .filter(|_| c.session().is_reviewing() || c.session().game().is_over())
    else {
        adapter.set_visible(false);
        adapter.set_accuracy(SharedString::new());
        adapter.set_arrow(SharedString::new());
        return;
    };
    let moves = a.graph.len().saturating_sub(1).max(1) as f32;
    adapter.set_visible(true);
    adapter.set_running(a.progress.is_some());
    adapter.set_progress(a.progress.unwrap_or(1.0));
    adapter.set_white_area(area_path(&a.graph).into());
    adapter.set_current(if a.graph.is_empty() {
        0.0
    } else {
        a.ply as f32 / moves
    });
    let marks: Vec<GraphMark> = a
        .marks
        .iter()
        .map(|&(ply, class)| GraphMark {
            x: ply as f32 / moves,
            y: a.graph.get(ply).copied().unwrap_or(0.0),
            blunder: class == MoveClass::Blunder,
        })
        .collect();
    adapter.set_marks(ModelRc::new(VecModel::from(marks)));
    adapter.set_line(a.line.into());
    adapter.set_accuracy(a.accuracy.into());
    let arrow = a.better.map(|(from, to)| arrow_path(from, to));
    adapter.set_arrow(arrow.unwrap_or_default().into());
}

/// The models the window shows, kept between refreshes so unchanged rows are not touched.
pub struct ViewModels {
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

/// The New game screen's mode tiles, in the language now chosen (again after a switch: the
/// texts come from Rust, which Slint's own translation switch does not reach).
pub fn set_mode_views(window: &AppWindow) {
    let modes: Vec<ModeView> = ModeChoice::ALL
        .iter()
        .map(|m| ModeView {
            id: m.id().into(),
            label: m.label().into(),
            detail: m.detail().into(),
        })
        .collect();
    window
        .global::<NewGameAdapter>()
        .set_modes(ModelRc::new(VecModel::from(modes)));
}

impl ViewModels {
    /// Creates the models and hands them to the window.
    pub fn attach(window: &AppWindow) -> ViewModels {
        let squares = Rc::new(VecModel::from(vec![SquareView::default(); 64]));
        let moves = Rc::new(VecModel::default());
        let game = window.global::<GameAdapter>();
        game.set_squares(ModelRc::from(squares.clone()));
        game.set_moves(ModelRc::from(moves.clone()));
        set_mode_views(window);
        ViewModels {
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
    fn slide_new_move(&mut self, window: &AppWindow, c: &Controller, cells: &[CellView; 64]) {
        let ply = c.session().game().moves().len();
        let previous = self.last_ply.replace(ply);
        let Some(&mv) = c.session().game().moves().last() else {
            return;
        };
        let mover = c.session().game().positions()[ply - 1].turn();
        if previous != Some(ply - 1)
            || c.session().setup().is_human(mover)
            || c.session().is_reviewing()
        {
            return;
        }
        let (from, to) = (c.cell_of(mv.from()), c.cell_of(mv.to()));
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

    /// Shows the controller's state.
    pub fn refresh(&mut self, window: &AppWindow, c: &Controller) {
        window
            .global::<GameAdapter>()
            .set_screen(screen_of(c.screen()));
        self.refresh_board(window, c);
        self.refresh_panel(window, c);
        refresh_dialog(window, c);
        refresh_keypad(window, c);
        refresh_network_status(window, c);
        refresh_new_game(window, c);
        editor::view::refresh(window, c);
        analysis::board::view::refresh(window, c);
        coach::view::refresh(window, &coach::view::coach_view(c.session()));
        train::view::refresh(window, c);
        wifi::view::refresh(window, c);
    }

    /// The squares, the selection and the sliding move.
    fn refresh_board(&mut self, window: &AppWindow, c: &Controller) {
        let game = window.global::<GameAdapter>();
        let cells = c.cells();
        for (i, cell) in cells.iter().enumerate() {
            if self.last_cells.is_none_or(|last| last[i] != *cell) {
                self.squares.set_row_data(i, square_view(cell));
            }
        }
        self.slide_new_move(window, c, &cells);
        self.last_cells = Some(cells);
        game.set_selected_cell(c.selected().map_or(-1, |sq| c.cell_of(sq) as i32));
    }

    /// The side panel: players, opening, status, moves, buttons, result, promotion.
    fn refresh_panel(&mut self, window: &AppWindow, c: &Controller) {
        let game = window.global::<GameAdapter>();
        let players = c.players();
        if self.last_players.as_ref() != Some(&players) {
            game.set_top_player(player_view(&players.0));
            game.set_bottom_player(player_view(&players.1));
            self.last_players = Some(players);
        }

        game.set_opening(c.opening().unwrap_or_default().into());
        let status = c.status();
        game.set_status(crate::app::screens::words::no_bad_breaks(&status.text).into());
        game.set_status_alert(status.alert);
        game.set_thinking(status.thinking);

        let rows = c.move_rows();
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
        game.set_focus_row(c.focus_row().map_or(-1, |r| r as i32));

        let actions: Vec<ActionView> = c
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

        match c.result() {
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

        refresh_analysis(window, c);

        match c.pending_promotion() {
            Some(_) => {
                game.set_promotion_white(c.session().game().position().turn() == Color::White);
                game.set_promotion_visible(true);
            }
            None => game.set_promotion_visible(false),
        }
    }
}

/// The generic dialog (menu, confirmations, offers, the lobby).
fn refresh_dialog(window: &AppWindow, c: &Controller) {
    let dialog = window.global::<DialogAdapter>();
    // The lobby's steps show as dialogs, under a dialog opened over it.
    let lobby = || c.shown::<Lobby>().and_then(|l| l.view());
    match c.dialog_view().or_else(lobby) {
        Some(d) => {
            dialog.set_title(d.title.into());
            dialog.set_message(d.message.into());
            dialog.set_confirmation(d.confirmation);
            let options: Vec<OptionView> = d
                .options
                .iter()
                .map(|o| OptionView {
                    id: o.id.as_str().into(),
                    label: o.label.as_str().into(),
                    primary: o.primary,
                    danger: o.danger,
                })
                .collect();
            dialog.set_options(ModelRc::new(VecModel::from(options)));
            dialog.set_visible(true);
        }
        None => dialog.set_visible(false),
    }
}

/// The New game form.
fn refresh_new_game(window: &AppWindow, c: &Controller) {
    let new_game = window.global::<NewGameAdapter>();
    match c.shown::<NewGameForm>() {
        Some(form) => {
            let computer = form.mode == ModeChoice::Computer;
            let demo = form.mode == ModeChoice::Demo;
            let network = form.mode == ModeChoice::Network;
            let hosting = network && form.network == NetworkRole::Host;
            new_game.set_mode(form.mode.id().into());
            new_game.set_show_network(network);
            new_game.set_hosting(hosting);
            new_game.set_show_colour(computer || hosting);
            // In a network game the host decides the clocks.
            new_game.set_show_clock(!network || hosting);
            new_game.set_clock(match form.clock {
                None => -1,
                Some(_) if form.custom_chosen => TimeControl::PRESETS.len() as i32,
                Some(c) => c.preset().map_or(-1, |i| i as i32),
            });
            new_game.set_custom_minutes((form.custom.base.as_secs() / 60) as i32);
            new_game.set_custom_increment(form.custom.increment.as_secs() as i32);
            new_game.set_colour(form.colour.index());
            new_game.set_show_level(computer || demo);
            new_game.set_show_coach(computer || form.mode == ModeChoice::Friend);
            new_game.set_fitting_level(
                c.player()
                    .fitting_level()
                    .filter(|_| computer)
                    .map_or(0, |l| i32::from(l.number())),
            );
            new_game.set_level_fits(form.level_fits);
            new_game.set_coach(form.coach.is_on());
            new_game.set_level(i32::from(form.level.number()));
            new_game.set_level_text(
                tr!(
                    "Level {} — plays at about {} Elo{}",
                    form.level.number(),
                    form.level.elo(),
                    level_words(form.level.number())
                )
                .into(),
            );
            new_game.set_note(
                match form.mode {
                    // Whether the game will count for the rating, before it starts.
                    ModeChoice::Computer => crate::app::screens::words::rating_words(
                        form.coach
                            .is_on()
                            .then_some(crate::app::session::game::Unrated::Coach),
                    ),
                    ModeChoice::Friend => {
                        tr!("Two people share this screen. White starts; flip the board any time.")
                    }
                    ModeChoice::Demo => tr!("Sit back and watch. Tap New game to stop."),
                    ModeChoice::Network if hosting => {
                        tr!("Offer a game here: the other ChessPI joins with the code shown.")
                    }
                    ModeChoice::Network => tr!("Join a game offered by a ChessPI nearby."),
                }
                .into(),
            );
            new_game.set_visible(true);
        }
        None => new_game.set_visible(false),
    }
}

fn refresh_keypad(window: &AppWindow, c: &Controller) {
    let keypad = window.global::<KeypadAdapter>();
    match c.shown::<Lobby>().and_then(Lobby::keypad_view) {
        Some(k) => {
            keypad.set_title(k.title.into());
            keypad.set_text(k.text.into());
            keypad.set_message(k.message.into());
            keypad.set_message_alert(k.alert);
            keypad.set_address(k.address);
            keypad.set_can_submit(k.can_submit);
            keypad.set_visible(true);
        }
        None => keypad.set_visible(false),
    }
}

/// The status bar's network cell: shown during a network game.
fn refresh_network_status(window: &AppWindow, c: &Controller) {
    let status = window.global::<StatusAdapter>();
    match c.session().partner() {
        Some(p) => {
            let label = match p.link {
                LinkState::Connected => tr!("● Connected"),
                LinkState::Reconnecting => tr!("○ Reconnecting…"),
                LinkState::Waiting => tr!("○ Waiting"),
                LinkState::Lost => tr!("○ Connection lost"),
                LinkState::Closed => tr!("○ Partner left"),
            };
            status.set_network_label(label.into());
            status.set_network_connected(p.link == LinkState::Connected);
            status.set_network_visible(true);
        }
        None => status.set_network_visible(false),
    }
}

/// A few words about the strength, for people who do not know what Elo means.
fn level_words(level: u8) -> String {
    match level {
        1..=2 => tr!(" (beginner)"),
        3..=4 => tr!(" (casual player)"),
        5..=6 => tr!(" (club player)"),
        7..=8 => tr!(" (strong club player)"),
        _ => tr!(" (expert)"),
    }
}

fn same_actions(current: &ModelRc<ActionView>, new: &[ActionView]) -> bool {
    current.row_count() == new.len() && current.iter().zip(new).all(|(a, b)| a == *b)
}

/// The controller's open screen as the window's `Screen`.
fn screen_of(kind: ScreenKind) -> Screen {
    match kind {
        ScreenKind::Game => Screen::Game,
        ScreenKind::NewGame => Screen::NewGame,
        ScreenKind::Lobby => Screen::Lobby,
        ScreenKind::Editor => Screen::Editor,
        ScreenKind::AnalysisBoard => Screen::AnalysisBoard,
        ScreenKind::SavedGames => Screen::SavedGames,
        ScreenKind::Help => Screen::Help,
        ScreenKind::Train => Screen::Train,
        ScreenKind::Wifi => Screen::Wifi,
    }
}
