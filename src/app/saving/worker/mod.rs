//! The saver thread: its jobs carried out one by one, each answered with a [`Report`].

use std::ops::ControlFlow;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use super::{Job, Opened, RatingNews, Report, SaveReport, SavingError, Stores};
use crate::storage::export::ExportReport;
use crate::storage::{Archive, GameId, GameMode, SavedGame, export_all, find_usb_mounts};

/// How often a long import says how far it has come.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

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
) -> Option<Box<crate::app::session::marks::AnalysisMarks>> {
    let text = archive.read_text(id).ok()?;
    let pgn = &archived.pgn;
    crate::app::session::marks::AnalysisMarks::from_pgn(&text, &pgn.start, &pgn.moves, &pgn.tags)
        .map(Box::new)
}

/// The analysis stored with the newest file of game `game_id`.
fn stored_marks(
    archive: &Archive,
    game_id: u64,
) -> Option<Box<crate::app::session::marks::AnalysisMarks>> {
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
    found_marks: Option<Box<crate::app::session::marks::AnalysisMarks>>,
}

pub(super) fn save_loop(stores: Stores, rx: &Receiver<Job>, on_report: impl Fn(Report)) {
    let mut state = SaverState {
        stores,
        previous: None,
        archived: None,
        claimed: None,
        found_marks: None,
    };
    while let Ok(job) = rx.recv() {
        if state.run(job, rx, &on_report).is_break() {
            break;
        }
    }
}

impl SaverState {
    /// Carries out one job and reports it; [`ControlFlow::Break`] when the saver is to stop.
    fn run(
        &mut self,
        job: Job,
        rx: &Receiver<Job>,
        on_report: &impl Fn(Report),
    ) -> ControlFlow<()> {
        let state = self;
        let report = match job {
            Job::Save { seq, game } => Report::Saved(state.save(seq, *game)),
            Job::ListGames => state.list(),
            Job::Open { id, resume } => Report::Opened(state.open(&id, resume)),
            Job::Delete { id } => Report::Deleted(state.delete(&id)),
            Job::Export => Report::Exported(state.export()),
            Job::Annotate { game_id, analysis } => {
                let stored = state
                    .archive()
                    .and_then(|a| a.annotate(game_id, &analysis).map_err(SavingError::Archive));
                match stored {
                    Ok(id) => {
                        log::info!("analysis stored in saved game {id}");
                        if let Some(report) = state.puzzles_from(&id, &analysis) {
                            on_report(report);
                        }
                        Report::Annotated(Ok(()))
                    }
                    Err(e) => Report::Annotated(Err(e)),
                }
            }
            Job::Import { file } => return state.import(file, rx, on_report),
            // No import under way: nothing to cancel.
            Job::CancelImport => return ControlFlow::Continue(()),
            Job::FindUnanalysed { skip } => Report::Unanalysed(state.unanalysed(&skip)),
            Job::PuzzleTried { id, solved, now } => state.puzzle_tried(&id, solved, now),
            Job::Choose(who) => state.choose(who),
            Job::Players { roster, removed } => state.keep_roster(&roster, removed),
            Job::EndgameTried { id, passed, moves } => state.endgame_tried(&id, passed, moves),
            Job::Settings { settings, admin } => Report::SettingsSaved(
                state
                    .stores
                    .settings
                    .update(&settings, &admin)
                    .map(|_| log::info!("device settings saved: {settings:?}"))
                    .map_err(SavingError::Settings),
            ),
            Job::Stop => return ControlFlow::Break(()),
            Job::OpeningTried { line, passed, now } => state.opening_tried(line, passed, now),
        };
        on_report(report);
        ControlFlow::Continue(())
    }

    /// Imports a PGN file game by game; between two games the jobs that came meanwhile are
    /// carried out (an autosave waits for one game, not for the whole file), progress is
    /// reported a few times a second, and Cancel or Stop ends the import there.
    fn import(
        &mut self,
        file: std::path::PathBuf,
        rx: &Receiver<Job>,
        on_report: &impl Fn(Report),
    ) -> ControlFlow<()> {
        let archive = match self.archive() {
            Ok(archive) => archive.clone(),
            Err(e) => {
                on_report(Report::Imported {
                    file,
                    result: Err(e),
                });
                return ControlFlow::Continue(());
            }
        };
        let mut stop = ControlFlow::Continue(());
        let mut last_progress: Option<Instant> = None;
        let limits = self.stores.import_limits;
        let result = archive.import_file_within(&file, &limits, |progress| {
            if last_progress.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY) {
                last_progress = Some(Instant::now());
                on_report(Report::ImportProgress(*progress));
            }
            while let Ok(job) = rx.try_recv() {
                match job {
                    Job::CancelImport => return ControlFlow::Break(()),
                    Job::Stop => {
                        stop = ControlFlow::Break(());
                        return ControlFlow::Break(());
                    }
                    Job::Import { file } => on_report(Report::Imported {
                        file,
                        result: Err(SavingError::Busy),
                    }),
                    other => {
                        if self.run(other, rx, on_report).is_break() {
                            stop = ControlFlow::Break(());
                            return ControlFlow::Break(());
                        }
                    }
                }
            }
            ControlFlow::Continue(())
        });
        match &result {
            Ok(report) => log::info!(
                "imported {}: {} stored, {} already stored, {} refused, stopped: {:?}, cut: {:?}",
                file.display(),
                report.imported.len(),
                report.already_stored.len(),
                report.failed.len(),
                report.stopped,
                report.file_cut
            ),
            Err(e) => log::error!("cannot import {}: {e}", file.display()),
        }
        on_report(Report::Imported {
            file,
            result: result.map_err(SavingError::Archive),
        });
        stop
    }

    fn archive(&self) -> Result<&Archive, SavingError> {
        self.stores.archive.as_ref().ok_or(SavingError::NoArchive)
    }

    /// The newest finished game of the archive that a person at this device played (so it
    /// can give puzzles) and that has no analysis, leaving out `skip` and the game on the
    /// board.
    fn unanalysed(&self, skip: &[u64]) -> Option<Box<super::UnanalysedGame>> {
        let archive = self.archive().ok()?;
        let on_board = self.on_board();
        archive.list().ok()?.into_iter().find_map(|summary| {
            let crate::storage::GameSummary::Game(header) = summary else {
                return None;
            };
            let game_id = header.id.game();
            // Games imported from elsewhere have no player of this device: no puzzles.
            let person = header.mode.as_deref() == Some("two-players") || header.local.is_some();
            if header.is_unfinished()
                || !person
                || header.plies == 0
                || skip.contains(&game_id)
                || Some(game_id) == on_board
            {
                return None;
            }
            let pgn = archive.load(&header.id).ok()?.pgn;
            let analysed = pgn.tags.iter().any(|(name, _)| name.ends_with("Accuracy"));
            (!analysed).then(|| {
                Box::new(super::UnanalysedGame {
                    game_id,
                    start: pgn.start,
                    moves: pgn.moves,
                })
            })
        })
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
            usb: find_usb_mounts(&self.stores.usb.root),
            pgn_files: self.stores.usb.pgn_files(),
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
        let Some(stick) = find_usb_mounts(&self.stores.usb.root).into_iter().next() else {
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
        let stats = (!rating.is_empty()).then(|| self.stores.stats.summary());
        let stored_marks = self
            .found_marks
            .take()
            .map(|r| (game.game.moves().to_vec(), r));
        self.previous = Some(game);
        SaveReport {
            seq,
            error,
            rating,
            stats,
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

    fn archive_if_finished(&mut self, game: &SavedGame) -> Vec<RatingNews> {
        if !game.game.is_over() || is_demo(game) {
            return Vec::new();
        }
        let key = (game.id, game.game.moves().len());
        if self.archived == Some(key) {
            return Vec::new();
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
        let news = self.rate(game);
        for n in &news {
            log::info!(
                "rating of {:?}: {} -> {}",
                n.name,
                n.change.before,
                n.change.after
            );
        }
        news
    }
}

pub(super) mod endgames;
pub(super) mod players;

#[cfg(test)]
mod tests;
