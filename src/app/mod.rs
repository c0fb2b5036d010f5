//! The kiosk app: the window, its controller, the computer player and headless rendering.

pub mod analysis;
pub mod analysis_board;
mod analysis_board_link;
pub mod analysis_board_worker;
mod analysis_link;
pub mod analysis_worker;
pub mod clock;
pub mod computer;
pub mod controller;
pub mod display;
mod editor_view;
pub mod games;
pub mod headless;
pub mod mode;
pub mod network;
pub mod notice_board;
pub mod notices;
pub mod persist;
pub mod screenshot;
pub mod services;
pub mod setup;
mod shell;
pub mod signals;
pub mod view;

/// The Slint screens compiled from `ui/`.
#[allow(clippy::all, clippy::unwrap_used)]
pub mod ui {
    slint::include_modules!();
}

use crate::tr;
use chesspi_engine::game::Game;
use chesspi_engine::level::Level;
use chesspi_engine::{FenError, Position};
use computer::{Answer, ComputerPlayer};
use controller::{Action, Controller};
use mode::{ColourChoice, Mode, Setup};
use notice_board::Board;
use notices::Topic;
use persist::{GameIdentity, Report, Saver, Stores};
use shell::{
    cell_square, receive_answers, receive_network, receive_save_reports, update, with_shell,
};
use slint::ComponentHandle;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;
use ui::{AppWindow, DialogAdapter, GameAdapter, GamesAdapter, KeypadAdapter, NewGameAdapter};
use view::ViewModels;

/// Why the app could not start.
#[derive(Debug)]
pub enum AppError {
    /// No display, or the window could not be created.
    Platform(slint::PlatformError),
    /// The `--fen` position is not valid.
    Fen(FenError),
    /// The computer player's thread could not start.
    Thread(std::io::Error),
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppError::Platform(e) => write!(f, "cannot open the display: {e}"),
            AppError::Fen(e) => write!(f, "invalid FEN: {e}"),
            AppError::Thread(e) => write!(f, "cannot start the computer player: {e}"),
        }
    }
}

impl std::error::Error for AppError {}

impl From<slint::PlatformError> for AppError {
    fn from(e: slint::PlatformError) -> AppError {
        AppError::Platform(e)
    }
}

/// The least time a computer move takes on screen, so a person sees their own move land
/// before the reply (and can follow a demo game).
fn pacing(setup: &Setup) -> Duration {
    match setup.mode {
        Mode::Demo => Duration::from_millis(900),
        _ => Duration::from_millis(300),
    }
}

/// Everything behind the window: the controller and the machinery that serves it.
struct Shell {
    controller: Controller,
    computer: ComputerPlayer,
    answers: Receiver<Answer>,
    models: ViewModels,
    /// Holds back a computer move that came faster than [`pacing`].
    pacing_timer: slint::Timer,
    game_changed: Vec<GameChangedHook>,
    saving: Option<Saving>,
    /// Runs on a confirmed shutdown; `None` on a desktop.
    shutdown: Option<crate::power::ShutdownCommand>,
    /// Closed while the screen is dimmed or dark: the waking touch is not a move.
    touch_gate: Option<crate::power::watcher::TouchGate>,
    /// The current gesture started as a wake-up touch and is ignored to its release.
    swallowing: bool,
    /// Brightness, dimming and the remembered level.
    device: Option<services::DeviceControls>,
    /// The status bar's notices.
    notices: Board,
    /// Starts the next demo game a little after one ends: a kiosk demo loops.
    demo_timer: slint::Timer,
    /// Network games; `None` until [`App::enable_network`].
    network: Option<network::Network>,
    /// Wakes the screen when a running clock's display changes or its flag falls; stopped
    /// while no clock runs.
    clock_timer: slint::Timer,
    /// Offers to adjourn a network game once the partner has been away long enough.
    adjourn_timer: slint::Timer,
    /// Game analysis on its worker thread.
    analysis: analysis_link::AnalysisLink,
    /// The analysis board's search thread, while the board is open.
    board_link: analysis_board_link::BoardLink,
}

/// The pause between two demo games, to see how the last one ended.
const DEMO_PAUSE: Duration = Duration::from_secs(6);

/// The saver and the save the screen waits for.
struct Saving {
    saver: Saver,
    reports: Receiver<Report>,
    /// The newest save not yet on disk: the screen is not refreshed until it is.
    awaiting: Option<u64>,
    /// The saved games list as last shown.
    games: Vec<controller::SavedGameChoice>,
    /// Shows the game anyway if a save never reports back (see [`SAVE_PATIENCE`]).
    watchdog: slint::Timer,
    /// When a running clock was last saved between moves (see [`CLOCK_CHECKPOINT`]).
    clock_saved: Option<std::time::Instant>,
}

/// A running clock is saved this often between moves: a power cut loses at most this much
/// of the time used (a save per move alone lost all of the current move's).
const CLOCK_CHECKPOINT: Duration = Duration::from_secs(10);

/// How long the screen waits for a save. A stuck storage thread or disk must not freeze the
/// game: after this the change is shown with a warning.
const SAVE_PATIENCE: Duration = Duration::from_secs(5);

/// Called after every change of the game (see [`App::on_game_changed`]).
type GameChangedHook = Box<dyn FnMut(&Controller)>;

/// The running app: its window and state.
pub struct App {
    window: AppWindow,
    shell: Rc<RefCell<Shell>>,
}

/// Makes the screen speak `language`: the Rust side's texts at the next refresh, Slint's
/// `@tr` texts at once. Call after the window exists (Slint needs its first component).
pub fn apply_language(language: crate::i18n::Language) {
    crate::i18n::set_language(language);
    if let Err(e) = slint::select_bundled_translation(language.code()) {
        log::error!("cannot switch the UI to {language}: {e:?}");
    }
}

/// The game to start with: the `--fen` position with the person on move against the
/// computer, or the first-start game.
///
/// # Errors
/// [`AppError::Fen`] when the FEN is invalid.
pub fn initial_game(fen: Option<&str>) -> Result<(Game, Setup), AppError> {
    match fen {
        None => Ok((Game::new(), Setup::FIRST_START)),
        Some(fen) => {
            let pos = Position::from_fen(fen).map_err(AppError::Fen)?;
            let setup = Setup {
                mode: Mode::Computer { human: pos.turn() },
                level: Level::DEFAULT,
            };
            Ok((Game::from_position(pos), setup))
        }
    }
}

impl App {
    /// Creates the window (not yet shown) and starts the computer player.
    ///
    /// # Errors
    /// [`AppError`] when the window or the worker thread cannot be created.
    pub fn new(game: Game, setup: Setup) -> Result<App, AppError> {
        App::with_engine(game, setup, computer::EngineSettings::default())
    }

    /// [`App::new`] with the computer player's memory and time cap from the config.
    ///
    /// # Errors
    /// As [`App::new`].
    pub fn with_engine(
        game: Game,
        setup: Setup,
        engine: computer::EngineSettings,
    ) -> Result<App, AppError> {
        let window = AppWindow::new()?;
        let (answer_tx, answers) = mpsc::channel::<Answer>();
        let weak_window = window.as_weak();
        let computer = ComputerPlayer::start(engine, move |answer| {
            if answer_tx.send(answer).is_ok() {
                // Ring the UI thread; it drains the channel.
                let _ = weak_window.upgrade_in_event_loop(|w| {
                    w.global::<GameAdapter>().invoke_computer_ready();
                });
            }
        })
        .map_err(AppError::Thread)?;
        let models = ViewModels::attach(&window);
        let notices = Board::attach(&window);
        let shell = Rc::new(RefCell::new(Shell {
            controller: Controller::with_game(game, setup),
            computer,
            answers,
            models,
            pacing_timer: slint::Timer::default(),
            game_changed: Vec::new(),
            saving: None,
            shutdown: None,
            touch_gate: None,
            swallowing: false,
            device: None,
            notices,
            demo_timer: slint::Timer::default(),
            network: None,
            clock_timer: slint::Timer::default(),
            adjourn_timer: slint::Timer::default(),
            analysis: analysis_link::AnalysisLink::new(),
            board_link: analysis_board_link::BoardLink::new(),
        }));
        let app = App { window, shell };
        app.connect();
        app.update();
        Ok(app)
    }

    /// The window, for showing it, running it, or (tests) sending it events.
    pub fn window(&self) -> &AppWindow {
        &self.window
    }

    /// Calls `f` after every change of the game (move, takeback, new game, result), before
    /// the screen shows it: the place to save the game.
    pub fn on_game_changed(&self, f: impl FnMut(&Controller) + 'static) {
        self.shell.borrow_mut().game_changed.push(Box::new(f));
    }

    /// The status bar's notices (battery warnings, errors, news).
    pub fn notices(&self) -> Board {
        self.shell.borrow().notices.clone()
    }

    /// Reads the controller (tests, saving).
    pub fn with_controller<R>(&self, f: impl FnOnce(&Controller) -> R) -> R {
        f(&self.shell.borrow().controller)
    }

    /// Changes the controller from outside the screen (e.g. restoring a saved game) and
    /// shows the result.
    pub fn update_controller(&self, f: impl FnOnce(&mut Controller)) {
        update(&self.shell, &self.window, f);
    }

    fn update(&self) {
        update(&self.shell, &self.window, |_| {});
    }

    /// Saves every change from now on (starting with the game on screen) through a saver
    /// thread, and shows a change only once it is on disk.
    ///
    /// # Errors
    /// [`AppError::Thread`] when the saver thread cannot start.
    pub fn enable_saving(
        &self,
        stores: Stores,
        identity: Option<GameIdentity>,
    ) -> Result<(), AppError> {
        let (tx, reports) = mpsc::channel::<Report>();
        let weak_window = self.window.as_weak();
        let mut saver = Saver::start(stores, identity, move |report| {
            if tx.send(report).is_ok() {
                let _ = weak_window.upgrade_in_event_loop(|w| {
                    w.global::<GameAdapter>().invoke_saved();
                });
            }
        })
        .map_err(AppError::Thread)?;
        {
            let mut shell = self.shell.borrow_mut();
            let s = &mut *shell;
            let seq = saver.submit_current(&s.controller);
            s.saving = Some(Saving {
                saver,
                reports,
                awaiting: seq,
                clock_saved: None,
                games: Vec::new(),
                watchdog: slint::Timer::default(),
            });
        }
        Ok(())
    }

    /// Whether every change shown so far is on disk (tests).
    pub fn is_saved(&self) -> bool {
        self.shell
            .borrow()
            .saving
            .as_ref()
            .is_none_or(|s| s.awaiting.is_none())
    }

    /// Lets the player host and join network games, as `config` says.
    pub fn enable_network(&self, config: crate::config::LanConfig) {
        let net = network::Network::new(config, &self.window);
        let mut shell = self.shell.borrow_mut();
        shell.controller.set_adjourn_after(net.adjourn_after());
        shell.network = Some(net);
    }

    /// Reconnects the restored network game with `peer` (see [`persist::Restored::lan`]).
    pub fn resume_network(&self, peer: &str, link: crate::storage::LanLink) {
        shell::resume_network(&mut self.shell.borrow_mut(), peer, link);
        self.update();
    }

    /// The addresses a hosted network game listens on (empty when none).
    pub fn network_addrs(&self) -> Vec<std::net::SocketAddr> {
        self.shell
            .borrow()
            .network
            .as_ref()
            .map(network::Network::local_addrs)
            .unwrap_or_default()
    }

    /// Lets a confirmed shutdown (power key, menu) run `command`.
    pub fn enable_shutdown(&self, command: crate::power::ShutdownCommand) {
        let mut shell = self.shell.borrow_mut();
        shell.controller.allow_shutdown();
        shell.shutdown = Some(command);
    }

    /// Lets the Settings dialog change the device's settings through `device`.
    pub fn enable_device(&self, device: services::DeviceControls) {
        let mut shell = self.shell.borrow_mut();
        shell.controller.set_settings_view(device.view());
        shell.controller.set_book(device.book());
        shell.device = Some(device);
    }

    /// Ignores touches on the board while `gate` is closed (the screen is waking up).
    pub fn set_touch_gate(&self, gate: crate::power::watcher::TouchGate) {
        self.shell.borrow_mut().touch_gate = Some(gate);
    }

    /// Wires the screens' callbacks to the controller.
    fn connect(&self) {
        self.connect_board();
        self.connect_workers();
        self.connect_dialogs();
        self.connect_new_game();
        self.connect_games();
        self.connect_editor();
        analysis_link::connect(&Rc::downgrade(&self.shell), &self.window);
        analysis_board_link::connect(&Rc::downgrade(&self.shell), &self.window);
    }

    /// A callback that changes the controller and shows the result.
    fn on(&self, f: Box<dyn Fn(&mut Controller)>) -> impl Fn() + 'static {
        let shell = Rc::downgrade(&self.shell);
        let window = self.window.as_weak();
        move || with_shell(&shell, &window, |c| f(c))
    }

    /// The board, the side panel's buttons, the promotion picker and the power key.
    fn connect_board(&self) {
        let game = self.window.global::<GameAdapter>();
        let on = |f| self.on(f);
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_cell_pressed(move |col, row| {
                if let Some(rc) = shell.upgrade() {
                    let mut s = rc.borrow_mut();
                    s.swallowing = s.touch_gate.as_ref().is_some_and(|g| g.blocks_touch());
                    if s.swallowing {
                        log::debug!("wake-up touch ignored");
                        return;
                    }
                }
                with_shell(&shell, &window, |c| {
                    let sq = cell_square(c, col, row);
                    c.press(sq);
                });
            });
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_cell_released(move |col, row, dragged| {
                if let Some(rc) = shell.upgrade()
                    && std::mem::take(&mut rc.borrow_mut().swallowing)
                {
                    return;
                }
                with_shell(&shell, &window, |c| {
                    let sq = cell_square(c, col, row);
                    c.release(sq, dragged);
                });
            });
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_action(move |id| {
                with_shell(&shell, &window, |c| {
                    if let Some(action) = Action::from_id(&id) {
                        c.action(action);
                    }
                });
            });
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_promotion_chosen(move |role| {
                with_shell(&shell, &window, |c| {
                    c.choose_promotion(view::promotion_role(role))
                });
            });
        }
        game.on_power_key(on(Box::new(|c| c.ask_shutdown())));
    }

    /// The worker threads' wake-ups (computer, saver, network), the keypad and the move list.
    fn connect_workers(&self) {
        let game = self.window.global::<GameAdapter>();
        let on = |f| self.on(f);
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_computer_ready(move || receive_answers(&shell, &window));
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_saved(move || receive_save_reports(&shell, &window));
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_network_ready(move || receive_network(&shell, &window));
        }
        {
            let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
            game.on_move_tapped(move |row, black| {
                if let Ok(row) = usize::try_from(row) {
                    with_shell(&shell, &window, |c| c.move_tapped(row, black));
                }
            });
        }
        {
            let keypad = self.window.global::<KeypadAdapter>();
            let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
            keypad.on_key(move |k| with_shell(&shell, &window, |c| c.keypad_key(&k)));
            keypad.on_submit(on(Box::new(|c| c.keypad_submit())));
            keypad.on_cancel(on(Box::new(|c| c.keypad_cancel())));
        }
    }

    /// The generic dialog.
    fn connect_dialogs(&self) {
        let on = |f| self.on(f);
        let dialog = self.window.global::<DialogAdapter>();
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            dialog.on_option_chosen(move |id| {
                with_shell(&shell, &window, |c| c.dialog_option(&id));
            });
        }
        dialog.on_dismissed(on(Box::new(|c| c.dialog_dismissed())));
    }

    /// The New game form.
    fn connect_new_game(&self) {
        let on = |f| self.on(f);
        let new_game = self.window.global::<NewGameAdapter>();
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            new_game.on_mode_chosen(move |id| {
                with_shell(&shell, &window, |c| c.new_game_mode(&id));
            });
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            new_game.on_colour_chosen(move |i| {
                with_shell(&shell, &window, |c| {
                    if let Some(colour) = ColourChoice::from_index(i) {
                        c.new_game_colour(colour);
                    }
                });
            });
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            new_game.on_level_chosen(move |n| {
                with_shell(&shell, &window, |c| {
                    if let Some(level) = u8::try_from(n).ok().and_then(Level::new) {
                        c.new_game_level(level);
                    }
                });
            });
        }
        new_game.on_start(on(Box::new(|c| c.new_game_start())));
        {
            let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
            new_game.on_clock_chosen(move |i| {
                with_shell(&shell, &window, |c| {
                    c.new_game_clock(usize::try_from(i).ok())
                });
            });
        }
        new_game.on_custom_chosen(on(Box::new(|c| c.new_game_custom_clock())));
        {
            let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
            new_game.on_custom_step(move |minutes, seconds| {
                with_shell(&shell, &window, |c| {
                    c.new_game_custom_step(i64::from(minutes), i64::from(seconds));
                });
            });
        }
        {
            let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
            new_game.on_network_role_chosen(move |host| {
                with_shell(&shell, &window, |c| c.new_game_network(host));
            });
        }

        new_game.on_cancel(on(Box::new(|c| c.new_game_cancel())));
    }

    /// The Saved games screen.
    fn connect_games(&self) {
        let games = self.window.global::<GamesAdapter>();
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            games.on_game_chosen(move |id| {
                let Some(rc) = shell.upgrade() else { return };
                let choice =
                    rc.borrow().saving.as_ref().and_then(|saving| {
                        saving.games.iter().find(|g| g.id == id.as_str()).cloned()
                    });
                if let Some(choice) = choice {
                    with_shell(&shell, &window, |c| c.choose_saved(choice));
                }
            });
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            games.on_export(move || {
                if let (Some(rc), Some(w)) = (shell.upgrade(), window.upgrade())
                    && let Some(saving) = &rc.borrow().saving
                {
                    saving.saver.export();
                    w.global::<GamesAdapter>().set_can_export(false);
                    rc.borrow()
                        .notices
                        .raise(Topic::Export, tr!("Copying the games to the USB stick…"));
                }
            });
        }
        {
            let window = self.window.as_weak();
            games.on_close(move || {
                if let Some(w) = window.upgrade() {
                    w.global::<GamesAdapter>().set_visible(false);
                }
            });
        }
    }
}
pub use services::run;
