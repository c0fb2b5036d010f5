//! The app as it runs for real: configuration, logging, the saved game, and the device's
//! battery, backlight and power key around the window. Each service reports on its own thread
//! and reaches the screen through the event loop.

use crate::{tr, trn};
use std::path::PathBuf;
use std::time::Duration;

use chesspi_engine::game::Game;
use chesspi_engine::level::Level;
use slint::ComponentHandle;

use super::controller::{Setting, SettingsView};
use super::mode::Setup;
use super::notice_board::{NoticeMsg, NoticeSender};
use super::notices::Topic;
use super::persist::{self, Stores};
use super::ui::{AppWindow, GameAdapter, StatusAdapter};
use super::{App, AppError, display, initial_game, signals};
use crate::battery::{BatteryEvent, BatteryLevel, BatteryMonitor, BatteryStatus, start_monitor};
use crate::cli::{LanStart, RunOptions};
use crate::config::{self, Config, init_logging};
use crate::i18n::Language;
use crate::power::ShutdownCommand;
use crate::power::idle::IdleSettings;
use crate::power::watcher::PowerWatcher;
use crate::storage::{
    AutosaveStore, DeviceSettings, IdleTime, LoadOutcome, SettingsStore, StatsSummary,
};

/// Opens the window (or the fullscreen display on the device) and plays until it closes.
///
/// # Errors
/// [`AppError`] when there is no display, the `--fen` position is invalid, or a thread
/// cannot start. A bad config file or state directory is not an error: the app runs on
/// defaults and says so on screen.
pub fn run(options: &RunOptions) -> Result<(), AppError> {
    let config_path = options
        .config
        .clone()
        .unwrap_or_else(config::default_config_path);
    let (admin, config_error) = Config::load_or_defaults(&config_path);
    if init_logging(admin.logging.level).is_err() {
        eprintln!("chesspi: a logger was already installed");
    }
    log::info!("ChessPI {} starting", env!("CARGO_PKG_VERSION"));
    // Notes below are made in the admin's language; the device's choice follows with the state.
    crate::i18n::set_language(admin.display.language.resolve());
    // From here on SIGTERM/SIGINT end the app as closing the window does: saves finished.
    let _signals = signals::watch(|_| signals::quit_event_loop())
        .inspect_err(|e| log::error!("cannot watch for SIGTERM: {e}"))
        .ok();
    let mut notes = Vec::new();
    match &config_error {
        None if config_path.exists() => log::info!("config: {}", config_path.display()),
        None => log::info!(
            "config: {} does not exist, using the built-in defaults",
            config_path.display()
        ),
        Some(e) => {
            log::error!("{e}; using the built-in defaults");
            notes.push(tr!(
                "The configuration has an error, so ChessPI uses its defaults.\n{}",
                e
            ));
        }
    }

    let state = State::open(&admin, &mut notes);
    let config = state.config.clone().unwrap_or_else(|| admin.clone());
    let device_settings = state.device;
    let language = config.display.language.resolve();
    crate::i18n::set_language(language);
    let first_start = Setup {
        level: Level::new(config.engine.default_level).unwrap_or(Level::DEFAULT),
        ..Setup::FIRST_START
    };
    let mut lan_resume = None;
    let mut flipped = false;
    let mut rated = true;
    let mut clocks = None;
    // `--new`: the game to start once the game in progress is restored (and then stored).
    let requested = match &options.new_game {
        Some(new) => Some((
            new.form(first_start.level),
            initial_game(options.fen.as_deref())?.0,
        )),
        None => None,
    };
    let fen = options.fen.as_ref().filter(|_| requested.is_none());
    let (game, setup, identity, stores) = match (fen, state.dir) {
        (Some(fen), dir) => {
            let (game, setup) = initial_game(Some(fen))?;
            let stores = dir.map(|dir| {
                keep_unfinished_autosave(&dir);
                open_stores(&dir, &mut notes)
            });
            (game, setup, None, stores)
        }
        (None, Some(dir)) => {
            let (restored, stores, store_notes) = persist::open(&dir, (Game::new(), first_start));
            notes.extend(store_notes);
            lan_resume = restored.lan.clone();
            flipped = restored.flipped;
            rated = restored.rated;
            clocks = restored.clocks.clone();
            (
                restored.game,
                restored.setup,
                restored.identity,
                Some(stores),
            )
        }
        (None, None) => (Game::new(), first_start, None, None),
    };

    let engine = super::computer::EngineSettings {
        hash_mb: config.engine.hash_mb,
        max_think_time: Some(config.engine.max_think_time),
    };
    let opened = display::open_with_patience(display::patience(), || {
        App::with_engine(game.clone(), setup, engine)
    })?;
    let Some(app) = opened else {
        log::info!("ChessPI stopping before the display opened");
        return Ok(());
    };
    super::apply_language(language);
    app.update_controller(|c| restore_view(c, flipped, rated, clocks));
    // A network game cut off knows its partner before the first save: that save must keep
    // the partner and how to reach it, or a second power cut before the next move would lose
    // the game. (`--lan-*` asks for another network game instead.)
    if let (Some((peer, link)), None) = (&lan_resume, &options.lan) {
        app.update_controller(|c| c.network_restored(peer, link.clone()));
    }
    if let Some(stores) = stores {
        app.enable_saving(stores, identity)?;
    }
    if let Some((form, game)) = requested {
        // As New game does: the saver stores the game on the board before it is replaced.
        app.update_controller(|c| c.start_new_game(&form, game));
    }
    let shutdown = ShutdownCommand::new(config.power.shutdown_command.clone());
    if cfg!(feature = "kms") {
        app.enable_shutdown(shutdown.clone());
    }
    start_network(&app, &config, options, lan_resume);
    let _battery = start_battery(&app, &config, shutdown);
    let power = start_power(&app, &config);
    app.enable_device(DeviceControls::new(device_settings, admin, power));
    if !notes.is_empty() {
        let text = notes.join("\n\n");
        app.update_controller(|c| c.show_info(&tr!("Please note"), &text));
    }
    if !signals::stop_requested() {
        app.window().run()?;
    }
    log::info!("ChessPI stopping");
    finish(app);
    Ok(())
}

/// Ends the app's work: the computer's search is abandoned, the saves already queued are
/// written (or cut short by the signal watcher's deadline).
fn finish(app: App) {
    let saving = app.shell.borrow_mut().saving.take();
    if let Some(mut saving) = saving {
        let start = std::time::Instant::now();
        // A clock that ran since the last move keeps the time used: saved as it stands now.
        let shell = app.shell.borrow();
        let c = &shell.controller;
        if c.clock_runs_for_the_game() {
            saving.saver.submit_current(c);
        }
        drop(shell);
        saving.saver.stop();
        log::info!("saves finished in {} ms", start.elapsed().as_millis());
    }
    drop(app);
    log::info!("ChessPI stopped");
}

/// What the autosave keeps besides the moves: the turned board, whether the game is rated,
/// and the clocks, which come back paused where they were (they do not run while the device
/// is off).
pub fn restore_view(
    c: &mut super::controller::Controller,
    flipped: bool,
    rated: bool,
    clocks: Option<crate::storage::Clocks>,
) {
    c.set_flipped(flipped);
    if !rated {
        c.set_unrated();
    }
    if let Some(k) = clocks {
        let control = crate::app::clock::TimeControl {
            base: k.base,
            increment: k.increment,
        };
        c.set_clock(Some(crate::app::clock::GameClock::restore(
            control,
            k.white,
            k.black,
            k.after_moves,
        )));
        // Back after a restart: the player's clock waits for the player.
        c.hold_clock();
    }
}

/// Network play: reconnects a network game cut by a power loss, unless the command line
/// asked for another game (`--lan-host`, `--lan-join`, `--new`).
fn start_network(
    app: &App,
    config: &Config,
    options: &RunOptions,
    lan_resume: Option<(String, crate::storage::LanLink)>,
) {
    app.enable_network(config.lan.clone());
    // A game asked for on the command line (`--new`, `--lan-*`) replaces the one cut off.
    if let (Some((peer, link)), None, None) = (lan_resume, &options.lan, &options.new_game) {
        app.resume_network(&peer, link);
    }
    match &options.lan {
        Some(LanStart::Host { color }) => {
            let local = color.unwrap_or_else(crate::app::mode::random_color);
            app.update_controller(|c| c.host_network(local));
        }
        Some(LanStart::Join { target, code }) => {
            let target = with_default_port(target);
            app.update_controller(|c| c.join_network(&target, code.as_deref()));
        }
        None => {}
    }
}

/// `HOST[:PORT]` with the protocol's port when none is given.
fn with_default_port(target: &str) -> String {
    if target.parse::<std::net::SocketAddr>().is_ok() || target.contains(':') {
        target.to_string()
    } else {
        format!("{target}:{}", crate::lan::net::DEFAULT_PORT)
    }
}

/// The state directory and the device settings stored in it.
struct State {
    dir: Option<PathBuf>,
    /// Settings changed on the device.
    device: DeviceSettings,
    /// The admin's config with the settings changed on the device laid over it.
    config: Option<Config>,
}

impl State {
    fn open(admin: &Config, notes: &mut Vec<String>) -> State {
        let dir = match crate::storage::state_dir(admin.storage.state_dir.as_deref()) {
            Ok(dir) => dir,
            Err(e) => {
                log::error!("{e}; games will not be saved");
                notes.push(tr!("Games cannot be saved: {}.", e));
                return State {
                    dir: None,
                    device: DeviceSettings::default(),
                    config: None,
                };
            }
        };
        log::info!("state directory: {}", dir.display());
        let load = SettingsStore::new(&dir).load();
        if let Some(r) = &load.recovered {
            log::error!("device settings refused: {r}");
            notes.push(tr!("The device settings could not be read: {}.", r));
        }
        let (config, error) = load.settings.effective(admin);
        let device = match error {
            Some(e) => {
                log::error!("device settings ignored: {e}");
                notes.push(tr!("The device settings were ignored: {}.", e));
                DeviceSettings::default()
            }
            None => load.settings,
        };
        State {
            dir: Some(dir),
            device,
            config: Some(config),
        }
    }
}

fn open_stores(dir: &std::path::Path, notes: &mut Vec<String>) -> Stores {
    let (stores, store_notes) = Stores::open(dir);
    notes.extend(store_notes);
    stores
}

/// With `--fen` the autosaved game is replaced: keep it in the archive first if it was under way.
fn keep_unfinished_autosave(dir: &std::path::Path) {
    let mut autosave = AutosaveStore::new(dir);
    if let LoadOutcome::Restored(saved) = autosave.load()
        && !saved.game.is_over()
        && !saved.game.moves().is_empty()
    {
        match crate::storage::Archive::open(dir).and_then(|a| a.store(&saved)) {
            Ok(id) => log::info!("the game in progress was stored as {id} before --fen"),
            Err(e) => log::error!("cannot store the game in progress: {e}"),
        }
    }
}

/// The player's record as the "Your record" dialog shows it.
pub fn record_text(s: &StatsSummary) -> String {
    if s.rated_games == 0 {
        return tr!(
            "No finished games against the computer yet. Your rating starts at 1200 and \
             follows your results."
        );
    }
    let rating = if s.provisional {
        tr!("Rating {} (provisional)", s.rating)
    } else {
        tr!("Rating {}", s.rating)
    };
    let mut text = trn!(
        "{1} after {0} game: {2} won, {3} drawn, {4} lost.",
        "{1} after {0} games: {2} won, {3} drawn, {4} lost.",
        s.rated_games,
        rating,
        s.total.wins,
        s.total.draws,
        s.total.losses
    );
    for row in s.levels.iter().filter(|r| r.record.games() > 0) {
        text.push('\n');
        text.push_str(&tr!(
            "Level {} (≈{}): +{} ={} −{}",
            row.level.number(),
            row.level_elo,
            row.record.wins,
            row.record.draws,
            row.record.losses
        ));
    }
    text
}

/// Runs the shutdown command off the UI thread; a failure is shown in the status bar.
pub fn shut_down(command: &ShutdownCommand, notices: NoticeSender) {
    notices.send(NoticeMsg::Raise(Topic::Shutdown, tr!("Shutting down…")));
    let started = command.spawn(move |result| {
        if let Err(e) = result {
            log::error!("shutdown failed: {e}");
            let text = tr!("Could not shut down: {}", e);
            notices.send(NoticeMsg::Raise(Topic::Shutdown, text));
        }
    });
    if let Err(e) = started {
        log::error!("cannot start the shutdown thread: {e}");
    }
}

/// Starts the battery monitor; its events reach the status bar.
pub fn start_battery(
    app: &App,
    config: &Config,
    shutdown: ShutdownCommand,
) -> Option<BatteryMonitor> {
    let window = app.window().as_weak();
    let notices = app.notices().sender();
    start_monitor(&config.battery, shutdown, move |event| {
        if let BatteryEvent::Changed(status) = &event {
            let status = status.clone();
            let _ = window.upgrade_in_event_loop(move |w| show_battery_level(&w, &status));
        }
        notices.send(NoticeMsg::Battery(event));
    })
}

/// The status bar's battery cell: 0 = critical … 4 = full; `None` hides it.
pub fn battery_cell(status: &BatteryStatus) -> Option<(i32, bool)> {
    let level = match status.level() {
        BatteryLevel::Unknown => return None,
        BatteryLevel::Critical => 0,
        BatteryLevel::Low => 1,
        BatteryLevel::Medium => 2,
        BatteryLevel::High => 3,
        BatteryLevel::Full => 4,
    };
    Some((level, status.is_charging()))
}

/// Shows the battery indicator for `battery`.
pub fn show_battery_level(window: &AppWindow, battery: &BatteryStatus) {
    let status = window.global::<StatusAdapter>();
    match battery_cell(battery) {
        Some((level, charging)) => {
            status.set_battery_visible(true);
            status.set_battery_level(level);
            status.set_battery_charging(charging);
        }
        None => status.set_battery_visible(false),
    }
    window
        .global::<super::ui::AnalysisAdapter>()
        .invoke_power_changed();
    if let BatteryStatus::Fault(fault) = battery {
        log::warn!("{fault}");
    }
}

/// Shows a battery event on the UI thread: the indicator, and the notices it raises or ends.
pub fn show_battery_event(app: &App, event: &BatteryEvent) {
    if let BatteryEvent::Changed(status) = event {
        show_battery_level(app.window(), status);
    }
    app.notices().change(|n, now| n.battery(event, now));
}

/// Starts the idle/backlight/power-key watcher on the device. On a desktop it stays off: the
/// desktop's own backlight and keys are not the app's to drive.
fn start_power(app: &App, config: &Config) -> Option<crate::power::watcher::PowerWatcher> {
    if !cfg!(feature = "kms") {
        return None;
    }
    use crate::power::idle::ScreenState;
    use crate::power::watcher::{PowerEvent, PowerWatcher};
    let window = app.window().as_weak();
    let watcher = PowerWatcher::start(&config.display, &config.power, move |event| {
        let _ = window.upgrade_in_event_loop(move |w| match event {
            PowerEvent::Screen(state) => {
                w.global::<StatusAdapter>()
                    .set_screen_asleep(state != ScreenState::Awake);
                w.global::<super::ui::AnalysisAdapter>()
                    .invoke_power_changed();
            }
            PowerEvent::Woke { .. } => {
                w.global::<StatusAdapter>().set_screen_asleep(false);
                w.global::<super::ui::AnalysisAdapter>()
                    .invoke_power_changed();
            }
            PowerEvent::ShutdownRequested => w.global::<GameAdapter>().invoke_power_key(),
        });
    });
    match watcher {
        Ok(watcher) => {
            app.set_touch_gate(watcher.touch_gate());
            Some(watcher)
        }
        Err(e) => {
            log::error!("cannot start the power watcher: {e}");
            None
        }
    }
}

/// The settings a person changes on the device, applied at once and stored in the state
/// directory (never in the admin's config file).
pub struct DeviceControls {
    settings: DeviceSettings,
    admin: Config,
    power: Option<PowerWatcher>,
}

/// Brightness steps of the Settings dialog, percent.
const BRIGHTNESS_STEPS: [u8; 4] = [30, 55, 80, 100];
/// Dimming steps of the Settings dialog, seconds; 0 never dims.
const DIM_STEPS: [u64; 5] = [60, 120, 300, 600, 0];
/// The screen goes off this many times the dimming time after the last touch.
const BLANK_FACTOR: u32 = 5;

impl DeviceControls {
    /// `settings` as read from the state directory, over `admin`; `power` drives the
    /// backlight (absent on a desktop, where the Settings dialog offers no light settings).
    pub fn new(settings: DeviceSettings, admin: Config, power: Option<PowerWatcher>) -> Self {
        DeviceControls {
            settings,
            admin,
            power,
        }
    }

    /// The settings to store.
    pub fn settings(&self) -> DeviceSettings {
        self.settings
    }

    /// The admin's config the settings are checked against.
    pub fn admin(&self) -> &Config {
        &self.admin
    }

    fn effective(&self) -> Config {
        self.settings.effective(&self.admin).0
    }

    /// What the Settings dialog shows.
    pub fn view(&self) -> SettingsView {
        let display = self.effective().display;
        let language = display.language.resolve();
        if self.power.is_none() {
            return SettingsView {
                language,
                ..SettingsView::default()
            };
        }
        SettingsView {
            brightness_percent: Some(display.brightness_percent),
            dim_after: Some(display.dim_after),
            language,
        }
    }

    /// Whether the computer plays from its opening book.
    pub fn book(&self) -> bool {
        self.settings.book()
    }

    /// The language the screen speaks now.
    pub fn language(&self) -> Language {
        self.effective().display.language.resolve()
    }

    /// Steps `setting` to its next value and applies it to the screen.
    pub fn step(&mut self, setting: Setting) {
        let display = self.effective().display;
        match setting {
            Setting::Brightness => {
                let now = display.brightness_percent;
                let next = BRIGHTNESS_STEPS
                    .iter()
                    .copied()
                    .find(|&b| b > now)
                    .unwrap_or(BRIGHTNESS_STEPS[0]);
                self.settings.brightness_percent = Some(next);
                if let Some(power) = &self.power {
                    power.set_brightness(next);
                }
            }
            Setting::DimAfter => {
                let now = display.dim_after.map_or(0, |d| d.as_secs());
                let index = DIM_STEPS.iter().position(|&s| s == now);
                let next = match index {
                    Some(i) => DIM_STEPS[(i + 1) % DIM_STEPS.len()],
                    // A value from the admin's config that is not a step: start the steps.
                    None => DIM_STEPS[0],
                };
                let (dim, blank) = if next == 0 {
                    (IdleTime::Never, IdleTime::Never)
                } else {
                    let dim = Duration::from_secs(next);
                    (IdleTime::After(dim), IdleTime::After(dim * BLANK_FACTOR))
                };
                self.settings.dim_after = Some(dim);
                self.settings.blank_after = Some(blank);
                if let Some(power) = &self.power {
                    let display = self.effective().display;
                    power.set_idle(IdleSettings {
                        dim_after: display.dim_after,
                        blank_after: display.blank_after,
                    });
                }
            }
            // The shell applies it to the screen (it owns the window).
            Setting::Language => {
                let now = display.language.resolve();
                let all = Language::ALL;
                let i = all.iter().position(|&l| l == now).unwrap_or(0);
                self.settings.language = Some(all[(i + 1) % all.len()]);
            }
            // The shell hands it to the controller, for the computer's next move.
            Setting::Book => self.settings.opening_book = Some(!self.settings.book()),
        }
    }

    /// Remembers the level of the game just started for the next New game.
    pub fn choose_level(&mut self, level: Level) {
        self.settings.default_level = Some(level);
    }
}
