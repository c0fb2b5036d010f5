//! Saving from the running app. Every change of the game goes to a saver thread; the screen
//! shows the change only when the saver reports it on disk, so a power cut never loses a move
//! the user saw, and the UI thread never waits for the SD card.
//!
//! The saver also keeps the archive and the player's record: a finished game is stored as PGN
//! and counted once; a game left unfinished for a new one is stored so it can be resumed.

use crate::tr;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;

use chesspi_engine::game::{Game, GameError};
use chesspi_engine::level::Level;

use crate::app::model::mode::{GameSetup, Mode};
use crate::config::Config;
use crate::storage::archive::ArchiveError;
use crate::storage::export::{DEFAULT_MEDIA_ROOT, ExportError, ExportReport};
use crate::storage::settings::SettingsError;
use crate::storage::stats::RatingChange;
use crate::storage::{
    Archive, AutosaveStore, DeviceSettings, GameHeader, GameId, GameMode, GameSummary, LanLink,
    LoadOutcome, SavedGame, SettingsStore, Stats, StatsStore, StatsSummary, export_all,
    find_usb_mounts,
};

/// The players of a saved game as the app plays them. `None` for a game the app cannot
/// continue (a LAN game: the peer is gone after a restart). A game without a computer keeps
/// `level`, the level the device has, for the next game against it.
pub fn setup_of(mode: &GameMode, level: Level) -> Option<GameSetup> {
    match *mode {
        GameMode::VsComputer { human, level } => Some(GameSetup {
            mode: Mode::Computer { human },
            level,
        }),
        GameMode::TwoPlayers => Some(GameSetup {
            mode: Mode::Friend,
            level,
        }),
        GameMode::ComputerVsComputer { white, .. } => Some(GameSetup {
            mode: Mode::Demo,
            level: white,
        }),
        GameMode::Lan { .. } => None,
    }
}

/// The players of a saved game (autosaved, or played on from Saved games), and for a network
/// game the partner to reconnect. `level` as for [`setup_of`].
pub fn restored_setup(
    mode: &GameMode,
    level: Level,
) -> Option<(GameSetup, Option<(String, LanLink)>)> {
    match mode {
        GameMode::Lan {
            local,
            peer,
            link: Some(link),
        } => Some((
            GameSetup {
                mode: Mode::Network { local: *local },
                level,
            },
            Some((peer.clone(), link.clone())),
        )),
        other => setup_of(other, level).map(|s| (s, None)),
    }
}

/// The saved form of the app's players.
pub fn mode_of(setup: &GameSetup) -> GameMode {
    match setup.mode {
        Mode::Computer { human } => GameMode::VsComputer {
            human,
            level: setup.level,
        },
        Mode::Friend => GameMode::TwoPlayers,
        Mode::Demo => GameMode::ComputerVsComputer {
            white: setup.level,
            black: setup.level,
        },
        Mode::Network { local } => GameMode::Lan {
            local,
            peer: "Partner".to_string(),
            link: None,
        },
    }
}

/// What the app starts with, read from the state directory.
pub struct Restored {
    /// The game and its players.
    pub game: Game,
    pub setup: GameSetup,
    /// The saved game's identity, kept so the archive and record see the same game.
    pub identity: Option<GameIdentity>,
    /// Something to tell the user once (a damaged file set aside), already logged.
    pub notice: Option<String>,
    /// A network game to reconnect: the partner's name and how to find it.
    pub lan: Option<(String, LanLink)>,
    /// The board was turned when the game was saved.
    pub flipped: bool,
    /// Whether the game still counts for the rating.
    pub rated: bool,
    /// The clocks as saved (they do not run while the device is off).
    pub clocks: Option<crate::storage::Clocks>,
}

/// Opens the state directory for play: the game to start with (see [`restore`]) and the
/// stores, with what to tell the user (already logged).
pub fn open(state_dir: &Path, fallback: (Game, GameSetup)) -> (Restored, Stores, Vec<String>) {
    let mut autosave = AutosaveStore::new(state_dir);
    let restored = restore(&mut autosave, fallback);
    let (mut stores, mut notices) = Stores::open(state_dir);
    stores.autosave = autosave;
    notices.splice(0..0, restored.notice.clone());
    (restored, stores, notices)
}

/// Reads the autosave: the saved game, or `fallback` when there is none or it is unusable.
pub fn restore(store: &mut AutosaveStore, fallback: (Game, GameSetup)) -> Restored {
    let fresh = |notice| Restored {
        game: fallback.0.clone(),
        setup: fallback.1,
        identity: None,
        notice,
        lan: None,
        flipped: false,
        rated: true,
        clocks: None,
    };
    match store.load() {
        LoadOutcome::Fresh => {
            log::info!("no saved game in {}: new game", store.path().display());
            fresh(None)
        }
        LoadOutcome::Restored(saved) => {
            log::info!(
                "restored the game from {} ({} moves, {} to move)",
                store.path().display(),
                saved.game.moves().len(),
                saved.turn()
            );
            from_saved(saved, None, fallback.1.level).unwrap_or_else(fresh)
        }
        LoadOutcome::Recovered {
            reason,
            quarantined_path,
            fallback: earlier,
        } => {
            let kept = match &quarantined_path {
                Ok(path) => format!("the file was kept as {}", path.display()),
                Err(e) => format!("the file could not be set aside: {e}"),
            };
            log::error!("saved game refused: {reason}; {kept}");
            // The player is told in a player's words; the details are in the log.
            match earlier {
                Some(saved) => {
                    log::warn!("going on from the previous save");
                    let notice = tr!(
                        "The last save was damaged, so the game goes on from the move before it."
                    );
                    from_saved(*saved, Some(notice), fallback.1.level).unwrap_or_else(fresh)
                }
                None => fresh(Some(tr!(
                    "The saved game was damaged and could not be read, so a new game was \
                     started. A copy was kept for the record."
                ))),
            }
        }
    }
}

/// The app's start from a saved game; `Err` (with what to tell the player) when the app cannot
/// continue it.
fn from_saved(
    saved: SavedGame,
    notice: Option<String>,
    level: Level,
) -> Result<Restored, Option<String>> {
    match restored_setup(&saved.mode, level) {
        Some((setup, lan)) => Ok(Restored {
            identity: Some(GameIdentity {
                id: saved.id,
                started_unix: saved.started_unix,
            }),
            game: saved.game,
            setup,
            notice,
            lan,
            flipped: saved.flipped,
            rated: saved.rated,
            clocks: saved.clocks,
        }),
        None => {
            log::warn!("the saved game was a network game, which cannot resume: new game");
            Err(Some(tr!(
                "The network game could not be resumed; a new game was started."
            )))
        }
    }
}

/// Which game a save belongs to: the same id from its first move to its result, across
/// restarts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameIdentity {
    pub id: u64,
    pub started_unix: u64,
}

impl GameIdentity {
    fn fresh() -> GameIdentity {
        let saved = SavedGame::new(GameMode::TwoPlayers, Game::new());
        GameIdentity {
            id: saved.id,
            started_unix: saved.started_unix,
        }
    }
}

/// Why a save or a saved-games job failed. The screen says it in the user's language (see
/// `shell::effects`); `Display` is for the log.
#[derive(Debug)]
pub enum SavingError {
    /// There is no place for saved games (no state directory).
    NoArchive,
    /// No saved game has this id.
    NoSuchGame(String),
    /// The game asked for is the one on the board.
    OnTheBoard,
    /// No USB stick is plugged in.
    NoUsbStick,
    /// The game on the board could not be written.
    Autosave(std::io::Error),
    Archive(ArchiveError),
    /// A saved game's moves do not replay.
    Replay(GameError),
    Export(ExportError),
    Settings(SettingsError),
}

impl fmt::Display for SavingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SavingError::NoArchive => write!(f, "saved games are not available"),
            SavingError::NoSuchGame(id) => write!(f, "there is no saved game {id}"),
            SavingError::OnTheBoard => write!(f, "the game is the one on the board"),
            SavingError::NoUsbStick => write!(f, "no USB stick found"),
            SavingError::Autosave(e) => write!(f, "cannot save the game: {e}"),
            SavingError::Archive(e) => e.fmt(f),
            SavingError::Replay(e) => e.fmt(f),
            SavingError::Export(e) => e.fmt(f),
            SavingError::Settings(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SavingError {}

/// The saver's report for one save.
#[derive(Debug)]
pub struct SaveReport {
    /// The save's number, as [`Saver::submit`] returned it.
    pub seq: u64,
    /// Why the autosave failed, if it did (the move is then shown anyway: refusing to play on
    /// would be worse, and the user is told).
    pub error: Option<SavingError>,
    /// The player's rating change when this save finished a rated game.
    pub rating: Option<RatingChange>,
    /// The player's record after that game.
    pub stats: Option<StatsSummary>,
    /// The stored analysis of the finished game saved (found after a restart): the moves
    /// it belongs to, and the analysis.
    pub stored_marks: Option<(
        Vec<chesspi_engine::Move>,
        Box<crate::app::screens::analysis::marks::AnalysisMarks>,
    )>,
}

/// A saved game read back for the screen.
#[derive(Debug)]
pub enum Opened {
    /// To step through: the replayed game and its header.
    Review {
        game: Box<Game>,
        header: GameHeader,
        /// Its stored analysis, if it has one.
        marks: Option<Box<crate::app::screens::analysis::marks::AnalysisMarks>>,
    },
    /// To play on.
    Resume(Box<SavedGame>),
}

/// What the storage thread reports, besides saves.
#[derive(Debug)]
pub enum Report {
    /// A save finished.
    Saved(SaveReport),
    /// The saved games, newest first, and the USB sticks an export could go to.
    Games {
        games: Result<Vec<GameSummary>, SavingError>,
        usb: Vec<PathBuf>,
    },
    /// A saved game was read.
    Opened(Result<Opened, SavingError>),
    /// A saved game was deleted (or why not).
    Deleted(Result<(), SavingError>),
    /// The export's outcome.
    Exported(Result<ExportReport, SavingError>),
    /// An analysis was written into a saved game (or why not).
    Annotated(Result<(), SavingError>),
    /// Device settings were stored (or why not).
    SettingsSaved(Result<(), SavingError>),
}

enum Job {
    Save {
        seq: u64,
        game: Box<SavedGame>,
    },
    ListGames,
    Open {
        id: String,
        resume: bool,
    },
    Delete {
        id: String,
    },
    Export,
    Annotate {
        game_id: u64,
        analysis: Box<chesspi_engine::analysis::GameAnalysis>,
    },
    Settings {
        settings: DeviceSettings,
        admin: Box<Config>,
    },
    Stop,
}

/// What is saved with a game besides its moves and players.
#[derive(Debug, Clone)]
pub struct SaveExtras {
    pub flipped: bool,
    pub rated: bool,
    pub clocks: Option<crate::storage::Clocks>,
}

impl Default for SaveExtras {
    fn default() -> Self {
        SaveExtras {
            flipped: false,
            rated: true,
            clocks: None,
        }
    }
}

/// The saver thread and the app's view of the game being saved.
pub struct Saver {
    tx: Sender<Job>,
    thread: Option<JoinHandle<()>>,
    identity: GameIdentity,
    /// The controller's game serial the identity belongs to.
    serial: Option<u64>,
    /// The identity of a resumed game, taken at the next change of serial.
    adopted: Option<GameIdentity>,
    next_seq: u64,
    stats: StatsSummary,
}

/// The files the saver keeps, all in one state directory.
pub struct Stores {
    pub autosave: AutosaveStore,
    pub archive: Option<Archive>,
    pub stats_store: StatsStore,
    pub stats: Stats,
    pub settings: SettingsStore,
}

impl Stores {
    /// Opens everything in `state_dir`. Problems are logged and returned as notices for the
    /// user; none stops the app.
    pub fn open(state_dir: &Path) -> (Stores, Vec<String>) {
        let mut notices = Vec::new();
        let archive = match Archive::open(state_dir) {
            Ok(a) => Some(a),
            Err(e) => {
                log::error!("cannot open the game archive: {e}");
                notices.push(tr!("Finished games cannot be stored: {}", e));
                None
            }
        };
        let stats_store = StatsStore::new(state_dir);
        let load = stats_store.load();
        if let Some(r) = &load.recovered {
            log::error!("player record refused: {r}");
            notices.push(tr!(
                "Your game record could not be read and restarts: {}.",
                r
            ));
        }
        (
            Stores {
                autosave: AutosaveStore::new(state_dir),
                archive,
                stats_store,
                stats: load.stats,
                settings: SettingsStore::new(state_dir),
            },
            notices,
        )
    }
}

impl Saver {
    /// Starts the saver thread. `identity` is the restored game's, if any; `on_report` runs on
    /// the saver thread after each save.
    ///
    /// # Errors
    /// The thread cannot be started.
    pub fn start(
        stores: Stores,
        identity: Option<GameIdentity>,
        on_report: impl Fn(Report) + Send + 'static,
    ) -> std::io::Result<Saver> {
        let (tx, rx) = mpsc::channel();
        let stats = stores.stats.summary();
        let thread = std::thread::Builder::new()
            .name("saver".into())
            .spawn(move || save_loop(stores, &rx, on_report))?;
        Ok(Saver {
            tx,
            thread: Some(thread),
            identity: identity.unwrap_or_else(GameIdentity::fresh),
            serial: None,
            adopted: None,
            next_seq: 1,
            stats,
        })
    }

    /// Queues a save of the current game; returns its number, or `None` when the saver has
    /// stopped. `serial` changes when the controller starts another game, which then gets a
    /// new identity (the first serial seen keeps the restored identity).
    pub fn submit(&mut self, serial: u64, setup: &GameSetup, game: &Game) -> Option<u64> {
        self.submit_mode(serial, mode_of(setup), game, SaveExtras::default())
    }

    /// [`Saver::submit`] with the saved form of the players and what else is kept with the
    /// game (the board's orientation, whether it is rated, its clocks).
    pub fn submit_mode(
        &mut self,
        serial: u64,
        mode: GameMode,
        game: &Game,
        extras: SaveExtras,
    ) -> Option<u64> {
        match self.serial {
            None => self.serial = Some(serial),
            Some(s) if s != serial => {
                self.serial = Some(serial);
                self.identity = self.adopted.take().unwrap_or_else(GameIdentity::fresh);
            }
            Some(_) => {}
        }
        let seq = self.next_seq;
        self.next_seq += 1;
        let saved = SavedGame {
            id: self.identity.id,
            started_unix: self.identity.started_unix,
            mode,
            game: game.clone(),
            clocks: extras.clocks,
            flipped: extras.flipped,
            rated: extras.rated,
        };
        self.tx
            .send(Job::Save {
                seq,
                game: Box::new(saved),
            })
            .ok()
            .map(|()| seq)
    }

    /// The identity of the game last submitted.
    pub fn identity(&self) -> GameIdentity {
        self.identity
    }

    /// [`Saver::submit`] for the controller's game.
    pub fn submit_current(&mut self, c: &crate::app::screens::Controller) -> Option<u64> {
        let mode = match (c.setup().mode, c.partner()) {
            (Mode::Network { local }, Some(p)) => GameMode::Lan {
                local,
                peer: p.name.clone(),
                link: Some(p.resume.clone()),
            },
            (_, _) => mode_of(&c.setup()),
        };
        let clocks = c.clock().map(|k| {
            let now = std::time::Instant::now();
            crate::storage::Clocks {
                white: k.remaining(chesspi_engine::Color::White, now),
                black: k.remaining(chesspi_engine::Color::Black, now),
                increment: k.control().increment,
                base: k.control().base,
                after_moves: k.after_moves().to_vec(),
            }
        });
        let extras = SaveExtras {
            flipped: c.is_flipped(),
            rated: c.is_rated(),
            clocks,
        };
        self.submit_mode(c.game_serial(), mode, c.game(), extras)
    }

    /// The next game started is `saved` played on: it keeps its identity, so it replaces its
    /// archive entry instead of adding one.
    pub fn adopt(&mut self, saved: &SavedGame) {
        self.adopted = Some(GameIdentity {
            id: saved.id,
            started_unix: saved.started_unix,
        });
    }

    /// Asks for the saved games list ([`Report::Games`]).
    pub fn list_games(&self) {
        self.send(Job::ListGames);
    }

    /// Writes a finished analysis into the saved game `saved` (an archive id), or into the
    /// stored copy of the game on the board when `None` ([`Report::Annotated`]).
    pub fn annotate(
        &self,
        saved: Option<&str>,
        analysis: Box<chesspi_engine::analysis::GameAnalysis>,
    ) {
        let game_id = match saved {
            Some(id) => match GameId::parse(id) {
                Some(id) => id.game(),
                None => return log::error!("cannot store the analysis: no saved game {id}"),
            },
            None => self.identity.id,
        };
        self.send(Job::Annotate { game_id, analysis });
    }

    /// Asks for a saved game, to review or to play on ([`Report::Opened`]).
    pub fn open(&self, id: String, resume: bool) {
        self.send(Job::Open { id, resume });
    }

    /// Deletes a saved game ([`Report::Deleted`]).
    pub fn delete(&self, id: String) {
        self.send(Job::Delete { id });
    }

    /// Stores device settings checked against the admin's config ([`Report::SettingsSaved`]).
    pub fn save_settings(&self, settings: DeviceSettings, admin: &Config) {
        self.send(Job::Settings {
            settings,
            admin: Box::new(admin.clone()),
        });
    }

    /// Exports every saved game to the first USB stick ([`Report::Exported`]).
    pub fn export(&self) {
        self.send(Job::Export);
    }

    fn send(&self, job: Job) {
        if self.tx.send(job).is_err() {
            log::error!("the storage thread has stopped");
        }
    }

    /// The player's record as of the last finished game.
    pub fn stats(&self) -> &StatsSummary {
        &self.stats
    }

    /// Takes a report from the saver thread into account.
    pub fn note_report(&mut self, report: &SaveReport) {
        if let Some(stats) = &report.stats {
            self.stats = stats.clone();
        }
    }

    /// Finishes the queued saves and stops the thread.
    pub fn stop(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        let _ = self.tx.send(Job::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Saver {
    fn drop(&mut self) {
        self.shut_down();
    }
}

/// A computer-vs-computer demo: shown, autosaved so it resumes, but never stored in Saved
/// games (a looping kiosk demo would fill the list).
fn is_demo(game: &SavedGame) -> bool {
    matches!(game.mode, GameMode::ComputerVsComputer { .. })
}

/// The analysis stored in saved game `id`, if it has one.
fn marks_of(
    archive: &Archive,
    id: &GameId,
    archived: &crate::storage::ArchivedGame,
) -> Option<Box<crate::app::screens::analysis::marks::AnalysisMarks>> {
    let text = archive.read_text(id).ok()?;
    let pgn = &archived.pgn;
    crate::app::screens::analysis::marks::AnalysisMarks::from_pgn(
        &text, &pgn.start, &pgn.moves, &pgn.tags,
    )
    .map(Box::new)
}

/// The analysis stored with the newest file of game `game_id`.
fn stored_marks(
    archive: &Archive,
    game_id: u64,
) -> Option<Box<crate::app::screens::analysis::marks::AnalysisMarks>> {
    let id = archive.newest_of(game_id).ok()??;
    let archived = archive.load(&id).ok()?;
    marks_of(archive, &id, &archived)
}

/// What the saver thread remembers between saves.
struct SaverState {
    stores: Stores,
    /// The last game saved, to store it when the user leaves it unfinished.
    previous: Option<SavedGame>,
    /// The finished game last stored (id and plies), so it is stored once.
    archived: Option<(u64, usize)>,
    /// The game whose archive copies were removed when it came on the board: one game has
    /// one place, so no stale copy can be played on in its stead.
    claimed: Option<u64>,
    /// The analysis stored with the finished game just saved, found after a restart.
    found_marks: Option<Box<crate::app::screens::analysis::marks::AnalysisMarks>>,
}

fn save_loop(stores: Stores, rx: &Receiver<Job>, on_report: impl Fn(Report)) {
    let mut state = SaverState {
        stores,
        previous: None,
        archived: None,
        claimed: None,
        found_marks: None,
    };
    while let Ok(job) = rx.recv() {
        let report = match job {
            Job::Save { seq, game } => Report::Saved(state.save(seq, *game)),
            Job::ListGames => state.list(),
            Job::Open { id, resume } => Report::Opened(state.open(&id, resume)),
            Job::Delete { id } => Report::Deleted(state.delete(&id)),
            Job::Export => Report::Exported(state.export()),
            Job::Annotate { game_id, analysis } => Report::Annotated(
                state
                    .archive()
                    .and_then(|a| a.annotate(game_id, &analysis).map_err(SavingError::Archive))
                    .map(|id| log::info!("analysis stored in saved game {id}")),
            ),
            Job::Settings { settings, admin } => Report::SettingsSaved(
                state
                    .stores
                    .settings
                    .update(&settings, &admin)
                    .map(|_| log::info!("device settings saved: {settings:?}"))
                    .map_err(SavingError::Settings),
            ),
            Job::Stop => break,
        };
        on_report(report);
    }
}

impl SaverState {
    fn archive(&self) -> Result<&Archive, SavingError> {
        self.stores.archive.as_ref().ok_or(SavingError::NoArchive)
    }

    /// The game on the board while it is under way: it is not a saved game to list or open
    /// (its copy in the archive, if one is left by a crash, is stale).
    fn on_board(&self) -> Option<u64> {
        self.previous
            .as_ref()
            .filter(|g| !g.game.is_over())
            .map(|g| g.id)
    }

    fn list(&self) -> Report {
        let on_board = self.on_board();
        Report::Games {
            games: self.archive().and_then(|a| {
                a.list()
                    .map(|games| {
                        games
                            .into_iter()
                            .filter(|g| Some(g.id().game()) != on_board)
                            .collect()
                    })
                    .map_err(SavingError::Archive)
            }),
            usb: find_usb_mounts(Path::new(DEFAULT_MEDIA_ROOT)),
        }
    }

    fn open(&self, id: &str, resume: bool) -> Result<Opened, SavingError> {
        let archive = self.archive()?;
        let id = GameId::parse(id).ok_or_else(|| SavingError::NoSuchGame(id.to_string()))?;
        if Some(id.game()) == self.on_board() {
            return Err(SavingError::OnTheBoard);
        }
        if resume {
            return archive
                .resume(&id)
                .map(|saved| Opened::Resume(Box::new(saved)))
                .map_err(SavingError::Archive);
        }
        let archived = archive.load(&id).map_err(SavingError::Archive)?;
        let game = archived.replay().map_err(SavingError::Replay)?;
        // An analysed game shows its analysis without analysing again.
        let marks = marks_of(archive, &id, &archived);
        Ok(Opened::Review {
            game: Box::new(game),
            header: archived.header,
            marks,
        })
    }

    fn delete(&self, id: &str) -> Result<(), SavingError> {
        let archive = self.archive()?;
        let id = GameId::parse(id).ok_or_else(|| SavingError::NoSuchGame(id.to_string()))?;
        archive.delete(&id).map_err(SavingError::Archive)?;
        log::info!("saved game {id} deleted");
        Ok(())
    }

    fn export(&self) -> Result<ExportReport, SavingError> {
        let archive = self.archive()?;
        let Some(stick) = find_usb_mounts(Path::new(DEFAULT_MEDIA_ROOT))
            .into_iter()
            .next()
        else {
            return Err(SavingError::NoUsbStick);
        };
        let report = export_all(archive, &stick).map_err(SavingError::Export)?;
        log::info!(
            "exported {} games to {}",
            report.games,
            report.path.display()
        );
        Ok(report)
    }

    fn save(&mut self, seq: u64, game: SavedGame) -> SaveReport {
        // The game taken off the board is stored before the autosave forgets it.
        self.leave(&game);
        let error = match self.stores.autosave.save(&game) {
            Ok(_) => {
                self.claim(&game);
                None
            }
            Err(e) => {
                log::error!(
                    "cannot save the game to {}: {e}",
                    self.stores.autosave.path().display()
                );
                Some(SavingError::Autosave(e))
            }
        };
        let rating = self.archive_if_finished(&game);
        let stored_marks = self
            .found_marks
            .take()
            .map(|r| (game.game.moves().to_vec(), r));
        self.previous = Some(game);
        SaveReport {
            seq,
            error,
            rating,
            stats: rating.map(|_| self.stores.stats.summary()),
            stored_marks,
        }
    }

    /// Removes the archive copies of a game under way once the autosave holds it (a game
    /// played on from Saved games, or one stored twice by a crash between two writes).
    fn claim(&mut self, game: &SavedGame) {
        if game.game.is_over() || self.claimed == Some(game.id) {
            return;
        }
        let Some(archive) = &self.stores.archive else {
            return;
        };
        match archive.remove_game(game.id) {
            Ok(0) => {}
            Ok(n) => log::info!(
                "game {:016x} is on the board: {n} stored copy removed",
                game.id
            ),
            Err(e) => {
                // Listing hides it meanwhile; the next save tries again.
                log::error!("cannot remove the stored copy of the game on the board: {e}");
                return;
            }
        }
        self.claimed = Some(game.id);
        // Its finished copy, if it had one, is gone with the rest: finished again (after a
        // takeback), even at the same move, it is stored anew.
        if self.archived.is_some_and(|(id, _)| id == game.id) {
            self.archived = None;
        }
    }

    /// Stores the previous game when `next` is another game and the previous one was left
    /// unfinished with moves on the board.
    fn leave(&mut self, next: &SavedGame) {
        let Some(prev) = self.previous.take_if(|p| p.id != next.id) else {
            return;
        };
        if prev.game.is_over() || prev.game.moves().is_empty() || is_demo(&prev) {
            return;
        }
        if let Some(archive) = &self.stores.archive {
            match archive.store(&prev) {
                Ok(id) => log::info!("unfinished game stored as {id}"),
                Err(e) => log::error!("cannot store the unfinished game: {e}"),
            }
        }
    }

    fn archive_if_finished(&mut self, game: &SavedGame) -> Option<RatingChange> {
        if !game.game.is_over() || is_demo(game) {
            return None;
        }
        let key = (game.id, game.game.moves().len());
        if self.archived == Some(key) {
            return None;
        }
        self.archived = Some(key);
        // Taken back and played on, the game is under way again: claim it anew.
        self.claimed = None;
        if let Some(archive) = &self.stores.archive {
            if archive.holds_finished(game) {
                // After a restart: stored already, perhaps with its analysis, which the
                // screen shows again.
                log::info!("finished game {:016x} is stored already", game.id);
                self.found_marks = stored_marks(archive, game.id);
            } else {
                match archive.store(game) {
                    Ok(id) => log::info!("finished game stored as {id}"),
                    Err(e) => log::error!("cannot store the finished game: {e}"),
                }
            }
        }
        let change = self.stores.stats.record_game(game)?;
        if let Err(e) = self.stores.stats_store.save(&self.stores.stats) {
            log::error!("cannot save the player record: {e}");
        }
        log::info!("rating {} -> {}", change.before, change.after);
        Some(change)
    }
}
