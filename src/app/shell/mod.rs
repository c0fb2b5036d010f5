//! The shell: the window and everything behind it — the controller, the worker threads'
//! links, the saver — wired together. It carries out the controller's effects and shows its
//! state; what a tap or a move means is the screens' business.

mod background;
mod connect;
pub mod device;
pub mod effects;
mod hearing;
pub mod lan;
mod saves;
pub mod view;

use crate::app::model::mode::{GameSetup, Mode};
use crate::app::notices::bar::NoticeBar;
use crate::app::saving::{GameIdentity, Report, Saver, Stores};
use crate::app::screens::SavedGameChoice;
use crate::app::screens::analysis::link::AnalysisLink;
use crate::app::screens::network::partner::PartnerGame;
use crate::app::screens::{Allow, Controller, Lobby, ScreenKind};
use crate::app::shell::device::DeviceControls;
use crate::app::shell::lan::Network;
use crate::app::ui::{AppWindow, GameAdapter};
use crate::app::workers::board_link::BoardLink;
use crate::app::workers::computer::{self, Answer, ComputerPlayer};
use crate::app::workers::wifi_link::WifiLink;
use chesspi_engine::FenError;
use chesspi_engine::game::Game;
use slint::ComponentHandle;
use std::cell::RefCell;
use std::fmt;
use std::rc::{Rc, Weak};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;
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
/// before the reply (and can follow a demo game, and hear its moves said: `words` is how
/// long the last move's words take).
fn pacing(setup: &GameSetup, words: Duration) -> Duration {
    match setup.mode {
        Mode::Demo => Duration::from_millis(900).max(words),
        _ => Duration::from_millis(300),
    }
}

/// Everything behind the window: the controller and the machinery that serves it.
struct Shell {
    controller: Controller,
    models: ViewModels,
    game_changed: Vec<GameChangedHook>,
    saving: Option<Saving>,
    /// The status bar's notices.
    notices: NoticeBar,
    /// Sounds and spoken moves.
    hearing: hearing::Hearing,
    /// The threads that serve the controller, and their links.
    workers: Workers,
    timers: Timers,
    /// The device around the window: its power, its touches, its settings.
    device: Device,
}

/// The worker threads and their links to the UI thread.
struct Workers {
    computer: ComputerPlayer,
    answers: Receiver<Answer>,
    /// Game analysis on its worker thread.
    analysis: AnalysisLink,
    /// The analysis board's search thread, while the board is open.
    board_link: BoardLink,
    /// Saved games analysed in the background (for puzzles).
    background: background::Background,
    /// The Wi-Fi thread; `None` until [`App::enable_wifi`].
    wifi: Option<WifiLink>,
    /// Network games; `None` until [`App::enable_network`].
    network: Option<Network>,
    /// Assist's search thread, once a touch first asks for grades.
    assist: crate::app::workers::assist::AssistLink,
}

/// The shell's timers: each runs only while there is something to wait for.
#[derive(Default)]
struct Timers {
    /// Holds back a computer move that came faster than [`pacing`].
    pacing: slint::Timer,
    /// Starts the next demo game a little after one ends: a kiosk demo loops.
    demo: slint::Timer,
    /// Wakes the screen when a running clock's display changes or its flag falls; stopped
    /// while no clock runs.
    clock: slint::Timer,
    /// Offers to adjourn a network game once the partner has been away long enough.
    adjourn: slint::Timer,
    /// Plays the computer's move in the Openings drill after a short pause.
    opening: slint::Timer,
}

/// The device around the window (a desktop has none of it but the power state).
#[derive(Default)]
struct Device {
    /// Runs on a confirmed shutdown; `None` on a desktop.
    shutdown: Option<crate::power::ShutdownCommand>,
    /// Closed while the screen is dimmed or dark: the waking touch is not a move.
    touch_gate: Option<crate::power::watcher::TouchGate>,
    /// The current gesture started as a wake-up touch and is ignored to its release.
    swallowing: bool,
    /// Brightness, dimming and the remembered level.
    controls: Option<DeviceControls>,
    /// The screen asleep, the battery charging: as the device last reported them.
    power: Power,
}

/// What the device last reported of its power: kept here, not read back from the window.
#[derive(Debug, Clone, Copy, Default)]
struct Power {
    /// The backlight is dimmed or off.
    asleep: bool,
    /// The battery is charging.
    charging: bool,
}

impl Power {
    /// Nothing runs in the background while the screen is dark unless the device is charging.
    fn pauses_work(self) -> bool {
        self.asleep && !self.charging
    }
}

/// What changes when someone uses the device (or a game goes on): the game, its moves, the
/// screen, a dialog. A change holds back the background work on a desktop.
fn activity(c: &Controller) -> (u64, usize, ScreenKind, bool) {
    (
        c.session().record().serial(),
        c.session().game().moves().len(),
        c.screen(),
        c.dialog().is_some(),
    )
}

/// [`update`] from a callback: nothing once the app is gone.
fn with_shell(
    shell: &Weak<RefCell<Shell>>,
    window: &slint::Weak<AppWindow>,
    f: impl FnOnce(&mut Controller),
) {
    if let (Some(shell), Some(window)) = (shell.upgrade(), window.upgrade()) {
        update(&shell, &window, f);
    }
}

/// Applies a change, carries out the effects it produced, and refreshes the screen.
fn update(shell: &Rc<RefCell<Shell>>, window: &AppWindow, f: impl FnOnce(&mut Controller)) {
    update_shell(shell, window, |s| f(&mut s.controller));
}

/// [`update`] for a change that comes through the shell's own parts (the network's events).
fn update_shell(shell: &Rc<RefCell<Shell>>, window: &AppWindow, f: impl FnOnce(&mut Shell)) {
    let mut guard = shell.borrow_mut();
    let s = &mut *guard;
    let activity_before = activity(&s.controller);
    f(s);
    let lobby_open = s.controller.screen() == ScreenKind::Lobby;
    s.controller
        .part(|p: &mut PartnerGame, cx| p.leave_hotspot_when_done(cx, lobby_open));
    // The clocks first: a move presses its clock before the game is saved with it.
    s.controller
        .sync_clock(std::time::Instant::now(), s.device.power.asleep);
    // Carrying out an effect may lead to more (the network refusing at once, ...).
    loop {
        let effects = s.controller.take_effects();
        if effects.is_empty() {
            break;
        }
        effects::run_effects(s, shell, window, effects);
    }
    // Another game replaced a network game: say goodbye to the partner. A hotspot kept for a
    // moment after the game's end goes now (the Wi-Fi thread ignores this without one).
    if let Some(net) = s.workers.network.as_mut()
        && net.is_active()
        && s.controller.session().partner().is_none()
        && s.controller.shown::<Lobby>().is_none()
    {
        net.leave();
        if let Some(wifi) = &s.workers.wifi {
            wifi.send(crate::wifi::worker::WifiRequest::LeaveHotspot);
        }
    }
    if activity(&s.controller) != activity_before {
        background::touched(s, shell, window);
    }
    effects::after_effects(s, shell, window);
}

/// Shows the controller's state, and sounds what changed.
fn show(s: &mut Shell, window: &AppWindow) {
    if let Some(device) = &s.device.controls
        && s.controller.dialog() == Some(&crate::app::screens::Dialog::Settings)
    {
        // The sound device may have been found (or not) since the dialog's view was made.
        let view = device.view(s.hearing.sound().speaker());
        s.controller.set_settings_view(view);
    }
    s.models.refresh(window, &s.controller);
    s.hearing.heard(&s.controller, std::time::Instant::now());
}

/// Reconnects the network game on the board with `peer` (restored after a restart, or
/// played on from Saved games): hosts it again, or joins its host again.
fn resume_network(s: &mut Shell, peer: &str, link: crate::storage::LanLink) {
    let Mode::Network { local } = s.controller.session().setup().mode else {
        return;
    };
    s.controller
        .session_mut()
        .network_restored(peer, link.clone());
    let clock = s
        .controller
        .session()
        .clocks
        .lan_clock(std::time::Instant::now());
    if let Some(net) = s.workers.network.as_mut() {
        let stats = s.saving.as_ref().map(|sv| sv.saver.stats());
        net.resume(
            peer,
            local,
            s.controller.session().game().clone(),
            link,
            clock,
            crate::app::shell::lan::local_player(&s.controller, stats),
        );
    }
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
    games: Vec<SavedGameChoice>,
    /// The PGN files on the USB sticks, as last listed (Saved games → From USB stick).
    usb_pgn: Vec<crate::storage::export::UsbFile>,
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

impl App {
    /// Creates the window (not yet shown) and starts the computer player.
    ///
    /// # Errors
    /// [`AppError`] when the window or the worker thread cannot be created.
    pub fn new(game: Game, setup: GameSetup) -> Result<App, AppError> {
        App::with_engine(game, setup, computer::EngineSettings::default())
    }

    /// [`App::new`] with the computer player's memory and time cap from the config.
    ///
    /// # Errors
    /// As [`App::new`].
    pub fn with_engine(
        game: Game,
        setup: GameSetup,
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
        let notices = NoticeBar::attach(&window);
        let shell = Rc::new(RefCell::new(Shell {
            controller: Controller::with_game(game, setup),
            models,
            game_changed: Vec::new(),
            saving: None,
            notices,
            hearing: hearing::Hearing::new(crate::sound::Sound::silent()),
            workers: Workers {
                computer,
                answers,
                analysis: AnalysisLink::default(),
                board_link: BoardLink::default(),
                background: background::Background::default(),
                wifi: None,
                network: None,
                assist: crate::app::workers::assist::AssistLink::default(),
            },
            timers: Timers::default(),
            device: Device::default(),
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
    pub fn notices(&self) -> NoticeBar {
        self.shell.borrow().notices.clone()
    }

    /// Reads the controller (tests, saving).
    pub fn with_controller<R>(&self, f: impl FnOnce(&Controller) -> R) -> R {
        f(&self.shell.borrow().controller)
    }

    /// Whether a tap on the side panel's button `action` counts now: a button that has just
    /// taken its place ignores taps for a moment (tests wait for it, as a finger would).
    pub fn action_armed(&self, action: crate::app::screens::Action) -> bool {
        let shown = crate::app::screens::play::view::panel_action(action);
        self.shell.borrow().models.action_armed(shown)
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
            // Before the first save: it names the game's players.
            s.controller.player_mut().set_roster(saver.roster().clone());
            // A device several people share may ask who plays each time it starts.
            if saver.roster().ask_at_start() {
                s.controller.go(crate::app::screens::Go::Players);
            }
            let seq = saver.submit_current(&s.controller);
            s.controller
                .player_mut()
                .set_fitting_level(saver.stats().fitting_level());
            s.controller
                .player_mut()
                .set_puzzles(saver.puzzles().clone());
            s.controller
                .player_mut()
                .set_openings(saver.openings().clone());
            s.controller
                .player_mut()
                .set_endgames(saver.endgames().clone());
            s.saving = Some(Saving {
                saver,
                reports,
                awaiting: seq,
                clock_saved: None,
                games: Vec::new(),
                usb_pgn: Vec::new(),
                watchdog: slint::Timer::default(),
            });
        }
        // The desktop's idle time starts: background analysis may follow.
        {
            let mut shell = self.shell.borrow_mut();
            background::touched(&mut shell, &self.shell, &self.window);
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
        let net = Network::new(config, &self.window);
        let mut shell = self.shell.borrow_mut();
        shell
            .controller
            .part(|p: &mut PartnerGame, _| p.set_adjourn_after(net.adjourn_after()));
        shell.workers.network = Some(net);
    }

    /// Reconnects the restored network game with `peer` (see [`crate::app::saving::Restored::lan`]).
    pub fn resume_network(&self, peer: &str, link: crate::storage::LanLink) {
        resume_network(&mut self.shell.borrow_mut(), peer, link);
        self.update();
    }

    /// The addresses a hosted network game listens on (empty when none).
    pub fn network_addrs(&self) -> Vec<std::net::SocketAddr> {
        self.shell
            .borrow()
            .workers
            .network
            .as_ref()
            .map(Network::local_addrs)
            .unwrap_or_default()
    }

    /// Lets a confirmed shutdown (power key, menu) run `command`.
    pub fn enable_shutdown(&self, command: crate::power::ShutdownCommand) {
        let mut shell = self.shell.borrow_mut();
        shell.controller.allow(Allow::Shutdown);
        shell.device.shutdown = Some(command);
    }

    /// Lets the Settings dialog change the device's settings through `device`.
    pub fn enable_device(&self, device: DeviceControls) {
        let mut shell = self.shell.borrow_mut();
        shell.device.controls = Some(device);
        effects::apply_settings(&mut shell);
    }

    /// Plays sounds and speaks through `sound` (call after [`App::enable_device`]: the
    /// volume and spoken moves are device settings).
    pub fn enable_sound(&self, sound: crate::sound::Sound) {
        let mut guard = self.shell.borrow_mut();
        let shell = &mut *guard;
        shell.hearing = hearing::Hearing::new(sound);
        effects::apply_settings(shell);
    }

    /// Offers Settings → Wi-Fi, done by `wifi` on its own thread.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn enable_wifi(&self, wifi: Box<dyn crate::wifi::Wifi>) -> std::io::Result<()> {
        let link = WifiLink::start(&self.window, wifi)?;
        let mut shell = self.shell.borrow_mut();
        shell.workers.wifi = Some(link);
        shell.controller.allow(Allow::Wifi);
        Ok(())
    }

    /// Ignores touches on the board while `gate` is closed (the screen is waking up).
    pub fn set_touch_gate(&self, gate: crate::power::watcher::TouchGate) {
        self.shell.borrow_mut().device.touch_gate = Some(gate);
    }

    /// Ends the app's work: the computer's search is abandoned, the saves already queued are
    /// written (or cut short by the signal watcher's deadline).
    pub fn finish(self) {
        let saving = self.shell.borrow_mut().saving.take();
        if let Some(mut saving) = saving {
            let start = std::time::Instant::now();
            // A clock that ran since the last move keeps the time used: saved as it stands now.
            let shell = self.shell.borrow();
            let c = &shell.controller;
            if c.clock_runs_for_the_game() {
                saving.saver.submit_current(c);
            }
            drop(shell);
            saving.saver.stop();
            log::info!("saves finished in {} ms", start.elapsed().as_millis());
        }
        drop(self);
        log::info!("ChessPI stopped");
    }
}
