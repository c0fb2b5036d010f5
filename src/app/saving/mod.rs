//! Saving from the running app. Every change of the game goes to a saver thread; the screen
//! shows the change only when the saver reports it on disk, so a power cut never loses a move
//! the user saw, and the UI thread never waits for the SD card.
//!
//! The saver also keeps the archive and the player's record: a finished game is stored as PGN
//! and counted once; a game left unfinished for a new one is stored so it can be resumed.

mod jobs;
mod reports;
mod restore;
mod worker;

use jobs::Job;
pub use jobs::SaveExtras;
pub use reports::{
    Opened, PlayerNews, RatingNews, Report, SaveReport, SavingError, UnanalysedGame,
};
pub use restore::{Restored, mode_of, open, restore, restored_setup, setup_of};
use worker::save_loop;

use crate::tr;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Sender};
use std::thread::JoinHandle;

use chesspi_engine::game::{Game, GameError};

use crate::app::model::mode::{GameSetup, Mode};
use crate::config::Config;
use crate::storage::archive::ArchiveError;
use crate::storage::endgames::EndgameProgress;
use crate::storage::export::{ExportError, ExportReport, UsbFile};
use crate::storage::openings::OpeningCards;
use crate::storage::players::{PlayerFiles, PlayerId, Roster, Who};
use crate::storage::puzzles::PuzzleBook;
use crate::storage::settings::SettingsError;
use crate::storage::stats::RatingChange;
use crate::storage::{
    Archive, AutosaveStore, DeviceSettings, GameHeader, GameId, GameMode, GameSummary, SavedGame,
    SettingsStore, Stats, StatsSummary,
};

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
    /// The player's puzzles as read at the start (later ones come in reports).
    puzzles: PuzzleBook,
    /// The players as read at the start (the controller keeps them since).
    roster: Roster,
    /// The player's opening cards as read at the start (later ones come in reports).
    openings: OpeningCards,
    /// The player's endgame progress as read at the start (later in reports).
    endgames: EndgameProgress,
}

/// The files the saver keeps, all in one state directory.
pub struct Stores {
    pub autosave: AutosaveStore,
    pub archive: Option<Archive>,
    /// The players and each one's record and puzzles.
    pub players: PlayerFiles,
    /// The players as read at the start (the controller keeps them since).
    pub roster: Roster,
    /// The player at the device, whose record and puzzles Train and Your record show.
    pub current: Who,
    /// The current player's record (a guest's stays empty).
    pub stats: Stats,
    /// The current player's puzzles.
    pub puzzles: PuzzleBook,
    /// The current player's opening cards (a guest's kept here only, never written).
    pub openings: OpeningCards,
    /// The current player's progress in the endgame lessons.
    pub endgames: EndgameProgress,
    pub settings: SettingsStore,
    /// Where USB sticks are mounted.
    pub usb: UsbMedia,
    /// What one import may take.
    pub import_limits: crate::storage::archive::ImportLimits,
}

/// Where USB sticks are mounted: `/media` (usbmount's `/media/<label>`, udisks2's
/// `/media/<user>/<label>`). Tests point it at a folder of their own, whose folders count
/// as sticks without being mount points.
#[derive(Debug, Clone)]
pub struct UsbMedia {
    pub root: PathBuf,
    pub any_folder_is_a_stick: bool,
}

impl Default for UsbMedia {
    fn default() -> UsbMedia {
        UsbMedia {
            root: PathBuf::from(crate::storage::export::DEFAULT_MEDIA_ROOT),
            any_folder_is_a_stick: false,
        }
    }
}

impl UsbMedia {
    /// The PGN files on the sticks (read-only ones too).
    pub fn pgn_files(&self) -> Vec<UsbFile> {
        use crate::storage::export::{find_mounts, is_mount_point, labelled, pgn_files_on};
        let sticks = if self.any_folder_is_a_stick {
            find_mounts(&self.root, |_| true)
        } else {
            find_mounts(&self.root, is_mount_point)
        };
        labelled(pgn_files_on(&sticks), &sticks)
    }
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
        let players = PlayerFiles::new(state_dir);
        let (roster, moved) = players.open();
        if let Err(e) = moved {
            log::error!("cannot move the record into player 1's folder: {e}");
        }
        if let Some(r) = &roster.recovered {
            log::error!("players refused: {r}");
            notices.push(tr!(
                "The list of players could not be read and starts again: {}.",
                r
            ));
        }
        let roster = roster.value;
        let current = roster.last();
        let (stats, puzzles, openings, refused) = worker::players::load_player(&players, current);
        notices.extend(refused);
        let (endgames, refused) = worker::endgames::load_endgames(&players, current);
        notices.extend(refused);
        (
            Stores {
                autosave: AutosaveStore::new(state_dir),
                archive,
                players,
                roster,
                current,
                stats,
                puzzles,
                openings,
                endgames,
                settings: SettingsStore::new(state_dir),
                usb: UsbMedia::default(),
                import_limits: crate::storage::archive::ImportLimits::DEFAULT,
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
        let puzzles = stores.puzzles.clone();
        let roster = stores.roster.clone();
        let openings = stores.openings.clone();
        let endgames = stores.endgames.clone();
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
            puzzles,
            roster,
            openings,
            endgames,
        })
    }

    /// The players as read at the start.
    pub fn roster(&self) -> &Roster {
        &self.roster
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
            coach: extras.coach,
            seats: extras.seats,
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
        let mode = match (c.session().setup().mode, c.session().partner()) {
            (Mode::Network { local }, Some(p)) => GameMode::Lan {
                local,
                peer: p.name.clone(),
                link: Some(p.resume.clone()),
            },
            (_, _) => mode_of(&c.session().setup()),
        };
        let clocks = c.session().clock().map(|k| {
            let now = std::time::Instant::now();
            crate::storage::Clocks {
                white: k.remaining(chesspi_engine::Color::White, now),
                black: k.remaining(chesspi_engine::Color::Black, now),
                increment: k.control().increment,
                base: k.control().base,
                after_moves: k.after_moves().to_vec(),
            }
        });
        let setup = c.session().setup();
        let sides = c.session().record().sides();
        let mut seats = crate::storage::Seats::none();
        for color in [chesspi_engine::Color::White, chesspi_engine::Color::Black] {
            if setup.is_human(color) {
                let who = sides.of(color);
                // The PGN's name: the player's, or "Guest" in the files' language.
                let name = c
                    .player()
                    .roster()
                    .name_of(who)
                    .map_or_else(|| "Guest".to_string(), |n| n.as_str().to_string());
                seats.set(color, Some(crate::storage::Seat { who, name }));
            }
        }
        let extras = SaveExtras {
            flipped: c.session().is_flipped(),
            rated: c.session().record().is_rated(),
            clocks,
            coach: c.session().coach().level(),
            seats,
        };
        self.submit_mode(
            c.session().record().serial(),
            mode,
            c.session().game(),
            extras,
        )
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

    /// Imports the games of a PGN file (a USB stick's) into Saved games
    /// ([`Report::Imported`]).
    pub fn import(&self, file: PathBuf) {
        self.send(Job::Import { file });
    }

    /// Stops the import under way after the game it is storing ([`Report::Imported`] says
    /// what was stored).
    pub fn cancel_import(&self) {
        self.send(Job::CancelImport);
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

    /// Writes a finished analysis into the newest stored file of game `game_id`.
    pub fn annotate_game(
        &self,
        game_id: u64,
        analysis: Box<chesspi_engine::analysis::GameAnalysis>,
    ) {
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

    /// The player's puzzles as read at the start; each change comes as [`Report::Puzzles`].
    pub fn puzzles(&self) -> &PuzzleBook {
        &self.puzzles
    }

    /// Records a try at a puzzle (the schedule is kept on disk by the saver thread).
    pub fn puzzle_tried(&self, id: String, solved: bool, now: u64) {
        self.send(Job::PuzzleTried { id, solved, now });
    }

    /// The player's opening cards as read at the start; each change comes as
    /// [`Report::Openings`].
    pub fn openings(&self) -> &OpeningCards {
        &self.openings
    }

    /// Records a try at an opening line (the schedule is kept on disk by the saver thread).
    pub fn opening_tried(
        &self,
        line: chesspi_engine::openings::lines::LineId,
        passed: bool,
        now: u64,
    ) {
        self.send(Job::OpeningTried { line, passed, now });
    }

    /// `who` comes to the device: their record and puzzles are read ([`Report::Player`]).
    pub fn choose(&self, who: Who) {
        self.send(Job::Choose(who));
    }

    /// Writes the players file; `removed`'s record and puzzles are deleted
    /// ([`Report::PlayersSaved`]).
    pub fn keep_players(&self, roster: &Roster, removed: Option<PlayerId>) {
        self.send(Job::Players {
            roster: Box::new(roster.clone()),
            removed,
        });
    }

    /// The player's endgame progress as read at the start; each change comes as
    /// [`Report::Endgames`].
    pub fn endgames(&self) -> &EndgameProgress {
        &self.endgames
    }

    /// Records a try at an endgame lesson ([`Report::Endgames`]).
    pub fn endgame_tried(&self, id: String, passed: bool, moves: u32) {
        self.send(Job::EndgameTried { id, passed, moves });
    }

    /// Asks for the newest saved game that has no analysis yet ([`Report::Unanalysed`]).
    pub fn find_unanalysed(&self, skip: Vec<u64>) {
        self.send(Job::FindUnanalysed { skip });
    }

    /// Takes a report from the saver thread into account.
    pub fn note_report(&mut self, report: &SaveReport) {
        if let Some(stats) = &report.stats {
            self.stats = stats.clone();
        }
    }

    /// Another player came to the device: their record and puzzles.
    pub fn note_player(&mut self, news: &PlayerNews) {
        self.stats = news.stats.clone();
        self.puzzles = news.puzzles.clone();
        self.openings = news.openings.clone();
        self.endgames = news.endgames.clone();
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
