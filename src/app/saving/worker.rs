//! The saver thread: its jobs carried out one by one, each answered with a [`Report`].

use std::ops::ControlFlow;
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use super::{Job, Opened, Report, SaveReport, SavingError, Stores};
use crate::storage::export::ExportReport;
use crate::storage::stats::RatingChange;
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
            Job::PuzzleTried { id, solved, now } => {
                state.stores.puzzles.record(&id, solved, now);
                state.puzzles_report()
            }
            Job::Settings { settings, admin } => Report::SettingsSaved(
                state
                    .stores
                    .settings
                    .update(&settings, &admin)
                    .map(|_| log::info!("device settings saved: {settings:?}"))
                    .map_err(SavingError::Settings),
            ),
            Job::Stop => return ControlFlow::Break(()),
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

    /// The puzzles an analysed saved game gives: its player's mistakes and blunders (the
    /// person at this device; both sides of a game between two at it). A report when any
    /// were added.
    fn puzzles_from(
        &mut self,
        id: &GameId,
        analysis: &chesspi_engine::analysis::GameAnalysis,
    ) -> Option<Report> {
        let header = self.archive().ok()?.load(id).ok()?.header;
        let players: Vec<chesspi_engine::Color> = match (header.mode.as_deref(), header.local) {
            (Some("two-players"), _) => {
                vec![chesspi_engine::Color::White, chesspi_engine::Color::Black]
            }
            (Some("computer-vs-computer"), _) => Vec::new(),
            (_, Some(local)) => vec![local],
            (_, None) => Vec::new(),
        };
        let now = crate::storage::timestamp::unix_now();
        let added = self.stores.puzzles.add_from_analysis(
            analysis,
            &players,
            id.as_str(),
            &header.date,
            now,
        );
        log::info!("{added} puzzles from saved game {id}");
        (added > 0).then(|| self.puzzles_report())
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

    /// Writes the puzzles and reports them.
    fn puzzles_report(&self) -> Report {
        let written = self
            .stores
            .puzzle_store
            .save(&self.stores.puzzles)
            .map_err(SavingError::Puzzles);
        Report::Puzzles(Box::new(self.stores.puzzles.clone()), written)
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

#[cfg(test)]
mod tests {
    //! An analysis shown after a restart is the one shown before it: stored the way the app
    //! stores it ([`Archive::annotate`]), read back the way the app restores it
    //! ([`stored_marks`]), every move's class, label and graph value the same.

    use super::*;
    use crate::app::model::mode::{GameSetup, Mode};
    use crate::app::screens::analysis::worker::AnalysisReport;
    use crate::app::screens::{Action, AnalysisMarks, AnalysisView, Controller, Effect};
    use chesspi_engine::analysis::{Eval, GameAnalysis, MoveClass, PositionAnalysis};
    use chesspi_engine::game::Game;
    use chesspi_engine::level::Level;
    use chesspi_engine::san::parse_san;
    use chesspi_engine::{Color, Move};

    const FRIEND: GameSetup = GameSetup {
        mode: Mode::Friend,
        level: Level::DEFAULT,
    };

    fn game_of(sans: &[&str]) -> Game {
        let mut game = Game::new();
        for san in sans {
            let mv = parse_san(game.position(), san).expect("san");
            game.play(mv).expect("legal");
        }
        game
    }

    /// The analysis stored into the archive and read back as after a restart.
    fn stored_and_read_back(game: &Game, analysis: &GameAnalysis) -> (AnalysisMarks, String) {
        let dir = tempfile::tempdir().expect("tempdir");
        let archive = Archive::open(dir.path()).expect("archive");
        let saved = SavedGame::new(GameMode::TwoPlayers, game.clone());
        archive.store(&saved).expect("store");
        let id = archive.annotate(saved.id, analysis).expect("annotate");
        let text = archive.read_text(&id).expect("text");
        let marks = stored_marks(&archive, saved.id).expect("the stored analysis reads back");
        (*marks, text)
    }

    /// What the screen shows at each ply: the analysis view and the move list's classes.
    type Shown = Vec<(AnalysisView, Vec<Option<MoveClass>>)>;

    /// What the screen shows at every ply.
    fn shown(mut c: Controller) -> Shown {
        c.action(Action::Analyse);
        let moves = c.game().moves().len();
        (0..=moves)
            .map(|ply| {
                c.graph_tapped(ply as f32 / moves as f32);
                let view = c.analysis_view().expect("an analysis");
                assert_eq!(view.ply, ply);
                let rows = c.move_rows();
                let classes = rows
                    .iter()
                    .flat_map(|r| [r.white_class, r.black_class])
                    .collect();
                (view, classes)
            })
            .collect()
    }

    /// The screen right after the analysis finished.
    fn shown_live(game: &Game, analysis: &GameAnalysis) -> Shown {
        let mut c = Controller::with_game(game.clone(), FRIEND);
        c.action(Action::Analyse);
        let id = c
            .take_effects()
            .iter()
            .find_map(|e| match e {
                Effect::Analyse { id, .. } => Some(*id),
                _ => None,
            })
            .expect("an Analyse effect");
        c.analysis_report(AnalysisReport::Pass {
            id,
            analysis: Box::new(analysis.clone()),
            last: true,
        });
        shown(c)
    }

    /// The screen after a restart, showing the stored analysis.
    fn shown_restored(game: &Game, marks: AnalysisMarks) -> Shown {
        let mut c = Controller::with_game(game.clone(), FRIEND);
        c.stored_marks_found(game.moves(), marks);
        assert!(c.has_analysis(), "the stored analysis is taken");
        shown(c)
    }

    fn assert_same_after_restart(game: &Game, analysis: &GameAnalysis) {
        let (stored, text) = stored_and_read_back(game, analysis);
        let live = AnalysisMarks::from_analysis(analysis);
        assert_eq!(stored.classes, live.classes, "classes\n{text}");
        assert_eq!(stored.evals, live.evals, "evaluations\n{text}");
        assert_eq!(stored.better, live.better, "better moves\n{text}");
        assert_eq!(stored, live, "{text}");
        let before = shown_live(game, analysis);
        let after = shown_restored(game, stored);
        for (ply, (b, a)) in before.iter().zip(&after).enumerate() {
            assert_eq!(a.0.line, b.0.line, "label at ply {ply}\n{text}");
            assert_eq!(a.1, b.1, "move list marks at ply {ply}\n{text}");
            assert_eq!(a.0.accuracy, b.0.accuracy, "accuracy\n{text}");
            assert_eq!(a.0.marks, b.0.marks, "graph marks\n{text}");
            assert_eq!(a.0.better, b.0.better, "arrow at ply {ply}\n{text}");
            assert_eq!(a.0.graph.len(), b.0.graph.len());
            for (i, (x, y)) in a.0.graph.iter().zip(&b.0.graph).enumerate() {
                assert!((x - y).abs() < 1e-3, "graph at {i}: {x} != {y}\n{text}");
            }
        }
        assert_eq!(after, before, "{text}");
    }

    #[test]
    fn fools_mate_reads_back_as_it_was_shown() {
        let game = game_of(&["f3", "e5", "g4", "Qh4#"]);
        let analysis = crate::app::screens::analysis::quick_analysis(&game);
        assert_eq!(analysis.moves[3].class, MoveClass::Best, "Qh4# is best");
        assert_same_after_restart(&game, &analysis);
    }

    #[test]
    fn every_class_and_a_mate_in_two_read_back_as_they_were_shown() {
        // Legal's mate, with evaluations and best moves planted so that every rule is used.
        let sans = [
            "e4", "e5", "Nf3", "d6", "Bc4", "Bg4", "Nc3", "g6", "Nxe5", "Bxd1", "Bxf7+", "Ke7",
            "Nd5#",
        ];
        let game = game_of(&sans);
        let white_mates = |moves| Eval::Mate {
            winner: Color::White,
            moves,
        };
        // Per position: White's evaluation and the search's best move there.
        let planted: [(Eval, Option<&str>); 14] = [
            (Eval::Cp(20), Some("e4")),
            (Eval::Cp(25), Some("e5")),
            // Nc3 is the search's choice, Nf3 as good: best by the evaluations.
            (Eval::Cp(30), Some("Nc3")),
            // d6 is the search's choice though the evaluation after it is worse: best.
            (Eval::Cp(30), Some("d6")),
            // Bc4 loses a little: good.
            (Eval::Cp(60), Some("d4")),
            // Bg4: an inaccuracy.
            (Eval::Cp(50), Some("Nc6")),
            // Nc3: a mistake.
            (Eval::Cp(100), Some("h3")),
            // g6: good.
            (Eval::Cp(10), Some("Nc6")),
            (Eval::Cp(30), Some("Nxe5")),
            // Bxd1 walks into mate in two: a blunder.
            (Eval::Cp(40), Some("dxe5")),
            (white_mates(2), Some("Bxf7+")),
            (white_mates(1), Some("Ke7")),
            (white_mates(1), Some("Nd5#")),
            (white_mates(0), None),
        ];
        let mut pos = *game.initial_position();
        let mut positions = Vec::new();
        for (i, (eval, best)) in planted.iter().enumerate() {
            let best: Option<Move> = best.map(|san| parse_san(&pos, san).expect("best move"));
            positions.push(PositionAnalysis {
                eval: *eval,
                best_move: best,
                pv: best.into_iter().collect(),
                depth: 1,
                nodes: 1,
            });
            if let Some(&mv) = game.moves().get(i) {
                pos.play_unchecked(mv);
            }
        }
        let analysis = GameAnalysis::from_positions(
            *game.initial_position(),
            game.moves().to_vec(),
            positions,
        )
        .expect("consistent");
        let mut analysis = analysis;
        // An accuracy the tag rounds up across a whole percent (stored as 81.5).
        analysis.white.accuracy = Some(81.46);
        use MoveClass::*;
        let classes: Vec<MoveClass> = analysis.moves.iter().map(|m| m.class).collect();
        assert_eq!(
            classes,
            [
                Best, Best, Best, Best, Good, Inaccuracy, Mistake, Good, Best, Blunder, Best, Best,
                Best
            ]
        );
        assert_same_after_restart(&game, &analysis);
    }

    /// An analysis stored with a saved game gives puzzles of the player's mistakes (the
    /// person's side only), written to disk and reported; the same analysis again adds none.
    #[test]
    fn a_stored_analysis_makes_puzzles_of_the_players_mistakes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (stores, notices) = Stores::open(dir.path());
        assert!(notices.is_empty(), "{notices:?}");
        // You (Black) against the computer: 2... Qg5?? 3. Nxg5.
        let game = game_of(&["e4", "e5", "Nf3", "Qg5", "Nxg5"]);
        let mut saved = SavedGame::new(
            GameMode::VsComputer {
                human: Color::Black,
                level: Level::DEFAULT,
            },
            game.clone(),
        );
        saved.rated = false;
        let archive = stores.archive.as_ref().expect("archive");
        archive.store(&saved).expect("store");
        let analysis = crate::app::screens::analysis::quick_analysis(&game);
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..2 {
            tx.send(Job::Annotate {
                game_id: saved.id,
                analysis: Box::new(analysis.clone()),
            })
            .expect("send");
        }
        tx.send(Job::Stop).expect("send");
        let reports = std::sync::Mutex::new(Vec::new());
        save_loop(stores, &rx, |r| reports.lock().expect("lock").push(r));
        let reports = reports.into_inner().expect("lock");
        let books: Vec<_> = reports
            .iter()
            .filter_map(|r| match r {
                Report::Puzzles(book, written) => Some((book.clone(), written.is_ok())),
                _ => None,
            })
            .collect();
        assert_eq!(
            books.len(),
            1,
            "puzzles once: the second analysis adds none"
        );
        let (book, written) = &books[0];
        assert!(written);
        assert_eq!(book.puzzles().len(), 1, "Black's Qg5 only");
        let puzzle = &book.puzzles()[0];
        assert_eq!(puzzle.mistake.to_string(), "d8g5");
        assert!(puzzle.blunder);
        let on_disk = crate::storage::puzzles::PuzzleStore::new(dir.path()).load();
        assert!(on_disk.recovered.is_none());
        assert_eq!(on_disk.book, **book);
    }

    /// A long import does not hold up the saves: a move played while a big file is read is
    /// on disk after one game's import, not after the file's; Cancel stops it there.
    #[test]
    fn an_autosave_is_answered_while_a_big_file_is_imported() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (mut stores, notices) = Stores::open(dir.path());
        assert!(notices.is_empty(), "{notices:?}");
        stores.import_limits.max_games = 100_000;
        let file = dir.path().join("big.pgn");
        let game = "[Event \"x\"]\n[Result \"*\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n\n";
        std::fs::write(&file, game.repeat(3000)).expect("write");
        let (tx, rx) = std::sync::mpsc::channel();
        let (reports_tx, reports) = std::sync::mpsc::channel();
        let saver = std::thread::spawn(move || {
            save_loop(stores, &rx, |r| {
                let _ = reports_tx.send(r);
            });
        });
        tx.send(Job::Import { file: file.clone() }).expect("send");
        // Wait until the import is under way.
        loop {
            match reports
                .recv_timeout(Duration::from_secs(30))
                .expect("a report")
            {
                Report::ImportProgress(_) => break,
                Report::Imported { result, .. } => panic!("done before a save: {result:?}"),
                _ => {}
            }
        }
        let sent = Instant::now();
        let saved = SavedGame::new(GameMode::TwoPlayers, game_of(&["d4"]));
        tx.send(Job::Save {
            seq: 7,
            game: Box::new(saved),
        })
        .expect("send");
        let answered = loop {
            match reports
                .recv_timeout(Duration::from_secs(30))
                .expect("a report")
            {
                Report::Saved(r) => break r,
                Report::Imported { .. } => panic!("the import finished before the save"),
                _ => {}
            }
        };
        assert_eq!(answered.seq, 7);
        assert!(answered.error.is_none());
        assert!(
            sent.elapsed() < Duration::from_secs(1),
            "{:?}",
            sent.elapsed()
        );
        tx.send(Job::CancelImport).expect("send");
        let report = loop {
            if let Report::Imported { result, .. } = reports
                .recv_timeout(Duration::from_secs(30))
                .expect("a report")
            {
                break result.expect("imported");
            }
        };
        assert_eq!(
            report.stopped,
            Some(crate::storage::archive::ImportStop::Cancelled)
        );
        assert!(report.imported.len() < 3000, "{}", report.imported.len());
        tx.send(Job::Stop).expect("send");
        saver.join().expect("saver");
    }
}
