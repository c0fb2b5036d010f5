//! The app as it runs for real: configuration, logging, the saved game, and the device's
//! battery, backlight and power key around the window. Each service reports on its own thread
//! and reaches the screen through the event loop.

use crate::sound::{Cue, Sound, SpeakMoves, spoken};
use crate::tr;
use std::path::PathBuf;

use chesspi_engine::game::Game;
use chesspi_engine::level::Level;
use chesspi_engine::search::Threads;
use slint::ComponentHandle;

use super::options::{LanStart, RunOptions};
use super::{display, signals};
use crate::app::model::mode::GameSetup;
use crate::app::model::mode::Mode;
use crate::app::notices::bar::NoticeMsg;
use crate::app::saving::{self, Stores};
use crate::app::screens::Go;
use crate::app::shell::device::DeviceControls;
use crate::app::shell::{App, AppError, apply_language};
use crate::app::ui::{AppWindow, GameAdapter, StatusAdapter};
use crate::battery::{BatteryEvent, BatteryLevel, BatteryMonitor, BatteryStatus, start_monitor};
use crate::config::{self, Config, init_logging};
use crate::power::ShutdownCommand;
use crate::storage::{AutosaveStore, DeviceSettings, LoadOutcome, SettingsStore};
use chesspi_engine::Position;

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
    let first_start = GameSetup {
        level: Level::new(config.engine.default_level).unwrap_or(Level::DEFAULT),
        ..GameSetup::FIRST_START
    };
    let mut lan_resume = None;
    let mut flipped = false;
    let mut rated = true;
    let mut clocks = None;
    let mut coach = chesspi_engine::coach::CoachLevel::Off;
    // Who sits at the game: as saved, else the player last at the device.
    let mut sides = None;
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
            sides = stores
                .as_ref()
                .map(|s| crate::storage::Sides::both(s.current));
            (game, setup, None, stores)
        }
        (None, Some(dir)) => {
            let (restored, stores, store_notes) = saving::open(&dir, (Game::new(), first_start));
            notes.extend(store_notes);
            lan_resume = restored.lan.clone();
            flipped = restored.flipped;
            rated = restored.rated;
            clocks = restored.clocks.clone();
            coach = restored.coach;
            sides = Some(crate::storage::Sides::of_seats(
                &restored.seats,
                stores.current,
            ));
            (
                restored.game,
                restored.setup,
                restored.identity,
                Some(stores),
            )
        }
        (None, None) => (Game::new(), first_start, None, None),
    };

    // The searches the player waits for think on every core unless the config says less.
    let threads = config
        .engine
        .threads
        .map_or_else(Threads::available, Threads::clamped);
    log::info!("searches the player waits for use {threads} thread(s)");
    crate::config::set_search_threads(threads);
    let engine = crate::app::workers::computer::EngineSettings {
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
    apply_language(language);
    app.update_controller(|c| {
        restore_view(c, flipped, rated, clocks, coach);
        if let Some(sides) = sides {
            c.session_mut().set_sides(sides);
        }
    });
    // A network game cut off knows its partner before the first save: that save must keep
    // the partner and how to reach it, or a second power cut before the next move would lose
    // the game. (`--lan-*` asks for another network game instead.)
    if let (Some((peer, link)), None) = (&lan_resume, &options.lan) {
        app.update_controller(|c| c.session_mut().network_restored(peer, link.clone()));
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
    // Sound opens its device on its own thread: the first frame does not wait for it.
    let sound = Sound::start(&config.sound.device, device_settings.volume());
    let power = start_power(&app, &config);
    app.enable_device(DeviceControls::new(device_settings, admin, power));
    // The device settings reach the sound (spoken moves too) before the battery may speak.
    app.enable_sound(sound.clone());
    let _battery = start_battery(&app, &config, shutdown, sound);
    if !notes.is_empty() {
        let text = notes.join("\n\n");
        app.update_controller(|c| {
            c.go(Go::Info {
                title: tr!("Please note"),
                message: text,
            })
        });
    }
    if !signals::stop_requested() {
        app.window().run()?;
    }
    log::info!("ChessPI stopping");
    app.finish();
    Ok(())
}

/// What the autosave keeps besides the moves: the turned board, whether the game is rated,
/// its coach, and the clocks, which come back paused where they were (they do not run while the device
/// is off).
pub fn restore_view(
    c: &mut crate::app::screens::Controller,
    flipped: bool,
    rated: bool,
    clocks: Option<crate::storage::Clocks>,
    coach: chesspi_engine::coach::CoachLevel,
) {
    use crate::app::session::game::Unrated;
    c.session_mut().set_flipped(flipped);
    if !rated {
        // Which change took it out of the rating is not kept, but for the coach.
        let why = if coach.is_on() {
            Unrated::Coach
        } else {
            Unrated::Changed
        };
        c.session_mut().set_unrated(why);
    }
    // The game's own coach, as it was (Settings' choice is for new games).
    c.session_mut().set_coach_level(coach);
    if let Some(k) = clocks {
        let control = crate::app::model::clock::TimeControl {
            base: k.base,
            increment: k.increment,
        };
        c.session_mut()
            .set_clock(Some(crate::app::model::clock::GameClock::restore(
                control,
                k.white,
                k.black,
                k.after_moves,
            )));
        // Back after a restart: the player's clock waits for the player.
        c.session_mut().hold_clock();
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
    // Settings → Wi-Fi asks NetworkManager (on the device, on Raspberry Pi OS, on a desktop
    // that runs it); nothing is asked until the screen is opened.
    if let Err(e) = app.enable_wifi(Box::new(crate::wifi::nm::NetworkManager::new())) {
        log::error!("cannot start the Wi-Fi thread: {e}");
    }
    // A game asked for on the command line (`--new`, `--lan-*`) replaces the one cut off.
    if let (Some((peer, link)), None, None) = (lan_resume, &options.lan, &options.new_game) {
        app.resume_network(&peer, link);
    }
    match &options.lan {
        Some(LanStart::Host { color }) => {
            let local = color.unwrap_or_else(crate::app::model::mode::random_color);
            app.update_controller(|c| {
                c.go(Go::Lobby {
                    host: Some(local),
                    clock: None,
                });
            });
        }
        Some(LanStart::Join { target, code }) => {
            let target = with_default_port(target);
            let code = code.clone();
            app.update_controller(|c| c.go(Go::Join { target, code }));
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
        let (config, error) = load.value.effective(admin);
        let device = match error {
            Some(e) => {
                log::error!("device settings ignored: {e}");
                notes.push(tr!("The device settings were ignored: {}.", e));
                DeviceSettings::default()
            }
            None => load.value,
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

/// Starts the battery monitor; its events reach the status bar, and its warnings `sound`.
pub fn start_battery(
    app: &App,
    config: &Config,
    shutdown: ShutdownCommand,
    sound: Sound,
) -> Option<BatteryMonitor> {
    let notices = app.notices().sender();
    start_monitor(&config.battery, shutdown, move |event| {
        sound_battery_event(&sound, &event);
        // The indicator and the notice a change raises or ends are shown in one step.
        match &event {
            BatteryEvent::Changed(status) => {
                let status = status.clone();
                notices.send_with(NoticeMsg::Battery(event), move |w| {
                    show_battery_level(w, &status)
                });
            }
            _ => notices.send(NoticeMsg::Battery(event)),
        }
    })
}

/// The battery's warnings as sound: a low battery chimes; an empty one sounds its alarm and,
/// for someone listening to spoken moves, says why the device is about to switch off.
fn sound_battery_event(sound: &Sound, event: &BatteryEvent) {
    match event {
        BatteryEvent::LowWarning => sound.play(Cue::BatteryLow),
        BatteryEvent::Critical { .. } => {
            sound.play(Cue::BatteryCritical);
            if sound.speak_moves() != SpeakMoves::Off {
                let language = crate::i18n::language();
                sound.say(spoken::battery_critical_words(language), language);
            }
        }
        _ => {}
    }
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
            status.invoke_charging_changed(charging);
        }
        None => status.set_battery_visible(false),
    }
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
                    .invoke_screen_changed(state != ScreenState::Awake);
            }
            PowerEvent::Woke { .. } => {
                w.global::<StatusAdapter>().invoke_screen_changed(false);
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

/// The game to start with: the `--fen` position with the person on move against the
/// computer, or the first-start game.
///
/// # Errors
/// [`AppError::Fen`] when the FEN is invalid.
pub fn initial_game(fen: Option<&str>) -> Result<(Game, GameSetup), AppError> {
    match fen {
        None => Ok((Game::new(), GameSetup::FIRST_START)),
        Some(fen) => {
            let pos = Position::from_fen(fen).map_err(AppError::Fen)?;
            let setup = GameSetup {
                mode: Mode::Computer { human: pos.turn() },
                level: Level::DEFAULT,
            };
            Ok((Game::from_position(pos), setup))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::battery::BatteryReading;
    use crate::i18n::Language;
    use std::time::Duration;

    /// The critical words in either language: the language is a process-wide setting that
    /// other tests may switch while this one runs.
    fn critical_words() -> [String; 2] {
        [Language::English, Language::German].map(spoken::battery_critical_words)
    }

    #[test]
    fn a_low_battery_chimes_and_says_nothing() {
        let (sound, heard) = Sound::recorder();
        sound.set_speak_moves(SpeakMoves::All);
        sound_battery_event(&sound, &BatteryEvent::LowWarning);
        assert_eq!(heard.cues(), vec![Cue::BatteryLow]);
        assert!(heard.said().is_empty());
    }

    #[test]
    fn a_critical_battery_sounds_its_alarm_and_speaks_only_when_moves_are_spoken() {
        let critical = BatteryEvent::Critical {
            shutdown_in: Duration::from_secs(30),
        };
        let (sound, heard) = Sound::recorder();
        // Moves not spoken: the alarm alone.
        sound.set_speak_moves(SpeakMoves::Off);
        sound_battery_event(&sound, &critical);
        assert_eq!(heard.cues(), vec![Cue::BatteryCritical]);
        assert!(heard.said().is_empty());
        // Any spoken moves (only the opponent's too): the alarm and the words.
        for speak in [SpeakMoves::Opponent, SpeakMoves::All] {
            sound.set_speak_moves(speak);
            sound_battery_event(&sound, &critical);
            assert_eq!(heard.cues(), vec![Cue::BatteryCritical], "{speak:?}");
            let said = heard.said();
            assert_eq!(said.len(), 1, "{speak:?}: {said:?}");
            assert!(critical_words().contains(&said[0]), "{speak:?}: {said:?}");
        }
    }

    #[test]
    fn other_battery_events_are_silent() {
        let (sound, heard) = Sound::recorder();
        sound.set_speak_moves(SpeakMoves::All);
        let events = [
            BatteryEvent::Changed(BatteryStatus::Level(BatteryReading {
                level: BatteryLevel::Low,
                charging: Some(false),
            })),
            BatteryEvent::Changed(BatteryStatus::Level(BatteryReading {
                level: BatteryLevel::Critical,
                charging: Some(false),
            })),
            BatteryEvent::CriticalCancelled,
        ];
        for event in &events {
            sound_battery_event(&sound, event);
            assert!(heard.cues().is_empty(), "{event:?}");
            assert!(heard.said().is_empty(), "{event:?}");
        }
    }
}
