//! The saver's side of the shell: its reports taken on the UI thread (a save on disk, the
//! saved games list, a game opened or deleted, an export), the clock's checkpoints, and a save
//! that never reports back.

use super::{CLOCK_CHECKPOINT, SAVE_PATIENCE, Shell};
use super::{resume_network, update};
use crate::app::notices::Topic;
use crate::app::notices::bar::NoticeBar;
use crate::app::saving::{self, Opened, Report, SaveReport, SavingError};
use crate::app::screens::saved_games::import as import_words;
use crate::app::screens::saved_games::list as games;
use crate::app::screens::{Analysis, Go, Viewing};
use crate::app::ui::{AppWindow, GameRowView, GamesAdapter};
use crate::storage::export::UsbFile;
use crate::storage::{GameSummary, SavedGame};
use crate::{tr, trn};
use slint::{ComponentHandle, ModelRc, VecModel};
use std::cell::RefCell;
use std::path::PathBuf;
use std::rc::{Rc, Weak};

/// Saves the game with a running clock every [`CLOCK_CHECKPOINT`] (the screen does
/// not wait for these saves: nothing on it changes).
pub(super) fn checkpoint_clock(shell: &Weak<RefCell<Shell>>) {
    let Some(rc) = shell.upgrade() else {
        return;
    };
    let mut guard = rc.borrow_mut();
    let s = &mut *guard;
    let c = &s.controller;
    let running = c.clock_runs_for_the_game();
    let Some(saving) = s.saving.as_mut() else {
        return;
    };
    let now = std::time::Instant::now();
    if !running {
        saving.clock_saved = None;
        return;
    }
    match saving.clock_saved {
        None => saving.clock_saved = Some(now),
        Some(t) if now.duration_since(t) >= CLOCK_CHECKPOINT => {
            saving.saver.submit_current(c);
            saving.clock_saved = Some(now);
        }
        Some(_) => {}
    }
}

/// The save `seq` has not reported back in time: show the game anyway and say so.
pub(super) fn save_overdue(
    shell: &Weak<RefCell<Shell>>,
    window: &slint::Weak<AppWindow>,
    seq: u64,
) {
    let (Some(rc), Some(win)) = (shell.upgrade(), window.upgrade()) else {
        return;
    };
    let mut guard = rc.borrow_mut();
    let s = &mut *guard;
    let Some(saving) = s.saving.as_mut() else {
        return;
    };
    if saving.awaiting == Some(seq) {
        log::error!("save {seq} has not finished after {SAVE_PATIENCE:?}; showing the game");
        saving.awaiting = None;
        s.notices.raise(
            Topic::Saving,
            tr!("Saving is slow: the last move may not be on disk yet."),
        );
        super::show(s, &win);
    }
}

/// Takes the storage thread's reports: shows what is now on disk, and answers the Saved
/// games screen.
pub(super) fn receive_save_reports(shell: &Weak<RefCell<Shell>>, window: &slint::Weak<AppWindow>) {
    let (Some(rc), Some(win)) = (shell.upgrade(), window.upgrade()) else {
        return;
    };
    loop {
        let report = match rc.borrow().saving.as_ref().map(|s| s.reports.try_recv()) {
            Some(Ok(report)) => report,
            _ => break,
        };
        handle_report(&rc, &win, report);
    }
    let mut guard = rc.borrow_mut();
    let s = &mut *guard;
    if s.saving
        .as_ref()
        .is_some_and(|saving| saving.awaiting.is_none())
    {
        super::show(s, &win);
    }
}

fn handle_report(rc: &Rc<RefCell<Shell>>, win: &AppWindow, report: Report) {
    let notices = rc.borrow().notices.clone();
    let games_screen = win.global::<GamesAdapter>();
    match report {
        Report::Saved(report) => saved(rc, win, &notices, report),
        Report::Games {
            games,
            usb,
            pgn_files,
        } => show_games(rc, &games_screen, &games, &usb, pgn_files),
        Report::ImportProgress(progress) => {
            update(rc, win, |c| {
                c.import_progress(import_words::shown(&progress))
            });
        }
        Report::Imported { file, result } => {
            let text = match &result {
                Ok(report) => import_words::report_text(&file, report),
                Err(e) => import_words::failed_text(&file, &saving_error_text(e)),
            };
            if let Some(saving) = &rc.borrow().saving {
                saving.saver.list_games();
            }
            update(rc, win, |c| {
                c.go(Go::Info {
                    title: tr!("From USB stick"),
                    message: text,
                })
            });
        }
        Report::Opened(Ok(Opened::Review {
            game,
            header,
            marks,
        })) => {
            let result = games::result_card(&header);
            update(rc, win, |c| {
                c.part(|v: &mut Viewing, cx| {
                    v.close_list(cx);
                });
                c.part(|v: &mut Viewing, cx| {
                    v.view_saved(cx, *game, &header.white, &header.black, result);
                });
                c.part(|v: &mut Viewing, cx| {
                    v.saved_opened(cx, header.id.as_str(), marks.map(|m| *m));
                });
            });
        }
        Report::Annotated(Err(e)) => log::error!("cannot store the analysis: {e}"),
        Report::Annotated(Ok(())) => {}
        Report::Opened(Ok(Opened::Resume(saved))) => resume(rc, win, *saved),
        Report::Opened(Err(e)) => update(rc, win, |c| {
            c.go(Go::Info {
                title: tr!("This game cannot be opened"),
                message: saving_error_text(&e),
            });
        }),
        Report::Deleted(result) => {
            if let Err(e) = result {
                update(rc, win, |c| {
                    c.go(Go::Info {
                        title: tr!("The game was not deleted"),
                        message: saving_error_text(&e),
                    })
                });
            }
            if let Some(saving) = &rc.borrow().saving {
                saving.saver.list_games();
            }
        }
        Report::SettingsSaved(Err(e)) => {
            log::error!("device settings not saved: {e}");
            notices.raise(
                Topic::Error,
                tr!("The setting could not be stored: {}", saving_error_text(&e)),
            );
        }
        Report::SettingsSaved(Ok(())) => {}
        Report::Unanalysed(game) => {
            let mut guard = rc.borrow_mut();
            super::background::found(&mut guard, win, game);
        }
        Report::Player(news) => {
            for text in &news.refused {
                notices.raise(Topic::Error, text.clone());
            }
            if let Some(saving) = rc.borrow_mut().saving.as_mut() {
                saving.saver.note_player(&news);
            }
            update(rc, win, |c| {
                let player = c.player_mut();
                player.set_puzzles(news.puzzles);
                player.set_openings(news.openings);
                player.set_endgames(news.endgames);
                player.set_fitting_level(news.stats.fitting_level());
            });
        }
        Report::PlayersSaved(Err(e)) => {
            log::error!("players not saved: {e}");
            notices.raise(Topic::Error, saving_error_text(&e));
        }
        Report::PlayersSaved(Ok(())) => {}
        Report::Puzzles(book, written) => {
            if let Err(e) = written {
                log::error!("puzzles not saved: {e}");
                notices.raise(Topic::Error, saving_error_text(&e));
            }
            update(rc, win, |c| c.player_mut().set_puzzles(*book));
        }
        Report::Exported(result) => {
            notices.clear(Topic::Export);
            match result {
                Ok(report) => notices.inform(trn!(
                    "{} game written to {}",
                    "{} games written to {}",
                    report.games,
                    report.path.display()
                )),
                Err(e) => notices.raise(Topic::Error, saving_error_text(&e)),
            }
            if let Some(saving) = &rc.borrow().saving {
                saving.saver.list_games();
            }
        }
        Report::Openings(cards, written) => {
            if let Err(e) = written {
                log::error!("opening cards not saved: {e}");
                notices.raise(Topic::Error, saving_error_text(&e));
            }
            update(rc, win, |c| c.player_mut().set_openings(*cards));
        }
        Report::Endgames(progress, written) => {
            if let Err(e) = written {
                log::error!("endgame lessons not saved: {e}");
                notices.raise(Topic::Error, saving_error_text(&e));
            }
            update(rc, win, |c| c.player_mut().set_endgames(*progress));
        }
    }
}

/// A save is on disk (or failed): say so, show the change, and take a stored analysis.
fn saved(rc: &Rc<RefCell<Shell>>, win: &AppWindow, notices: &NoticeBar, report: SaveReport) {
    let mut guard = rc.borrow_mut();
    let s = &mut *guard;
    let Some(saving) = s.saving.as_mut() else {
        return;
    };
    saving.saver.note_report(&report);
    if report.stats.is_some() {
        // Your record changed: so may the level that fits.
        s.controller
            .player_mut()
            .set_fitting_level(saving.saver.stats().fitting_level());
    }
    match &report.error {
        Some(error) => notices.raise(Topic::Saving, saving_error_text(error)),
        // Saved again: an earlier failure or slowness is over.
        None => notices.clear(Topic::Saving),
    }
    if !report.rating.is_empty() {
        notices.inform(rating_text(&report.rating));
    }
    if saving.awaiting.is_some_and(|seq| report.seq >= seq) {
        saving.awaiting = None;
    }
    drop(guard);
    if let Some((moves, marks)) = report.stored_marks {
        update(rc, win, |c| {
            let saved = c.get::<Viewing>().is_viewing_saved();
            c.part(|a: &mut Analysis, cx| {
                a.stored_marks_found(cx.session, saved, &moves, *marks);
            });
        });
    }
}

/// The saved games list as read from disk.
fn show_games(
    rc: &Rc<RefCell<Shell>>,
    games_screen: &GamesAdapter,
    games: &Result<Vec<GameSummary>, SavingError>,
    usb: &[PathBuf],
    pgn_files: Vec<UsbFile>,
) {
    let rows: Vec<_> = match games {
        Ok(list) => list.iter().map(games::row).collect(),
        Err(_) => Vec::new(),
    };
    games_screen.set_message(match games {
        Err(e) => tr!("The saved games cannot be read: {}", saving_error_text(e)).into(),
        Ok(_) if rows.is_empty() => tr!("No saved games yet. Finished games appear here.").into(),
        Ok(_) => "".into(),
    });
    games_screen.set_can_export(!usb.is_empty() && !rows.is_empty());
    games_screen.set_can_import(!pgn_files.is_empty());
    let views: Vec<GameRowView> = rows
        .iter()
        .map(|r| GameRowView {
            id: r.choice.id.clone().into(),
            title: r.choice.title.clone().into(),
            detail: r.detail.clone().into(),
            result: r.result.clone().into(),
        })
        .collect();
    games_screen.set_games(ModelRc::new(VecModel::from(views)));
    if let Some(saving) = rc.borrow_mut().saving.as_mut() {
        saving.games = rows.into_iter().map(|r| r.choice).collect();
        saving.usb_pgn = pgn_files;
    }
}

/// A saved game opened to play on: its setup, clocks and network partner restored.
fn resume(rc: &Rc<RefCell<Shell>>, win: &AppWindow, saved: SavedGame) {
    // Read first: a borrow in the match's head would last through its arms.
    let level = rc.borrow().controller.session().setup().level;
    match saving::restored_setup(&saved.mode, level) {
        Some((setup, lan)) => {
            if let Some(saving) = rc.borrow_mut().saving.as_mut() {
                saving.saver.adopt(&saved);
            }
            log::info!("resuming a saved game ({} moves)", saved.game.moves().len());
            let clocks = saved.clocks.clone();
            let seats = saved.seats.clone();
            update(rc, win, |c| {
                c.part(|v: &mut Viewing, cx| v.close_list(cx));
                c.start(setup, saved.game);
                // Played on by those who played it (a game from before players: whoever is
                // at the device now).
                let current = c.player().current();
                c.session_mut()
                    .set_sides(crate::storage::Sides::of_seats(&seats, current));
                // The clocks where they stood when the game was put aside.
                if let Some(k) = clocks {
                    let control = crate::app::model::clock::TimeControl {
                        base: k.base,
                        increment: k.increment,
                    };
                    c.resume_clock(crate::app::model::clock::GameClock::restore(
                        control,
                        k.white,
                        k.black,
                        k.after_moves,
                    ));
                    c.session_mut().hold_clock();
                }
                if let Some((peer, link)) = &lan {
                    c.session_mut().network_restored(peer, link.clone());
                }
            });
            // An adjourned network game: the same partner, reconnected.
            if let Some((peer, link)) = lan {
                resume_network(&mut rc.borrow_mut(), &peer, link);
                update(rc, win, |_| {});
            }
        }
        None => update(rc, win, |c| {
            c.go(Go::Info {
                title: tr!("Saved games"),
                message: tr!("A network game cannot be continued."),
            });
        }),
    }
}

/// The rating changes in words: one player's as "Your rating", two players' each with their
/// name. A rating moves little when the result was expected (a loss to a far stronger
/// level, a win against a far weaker one): say so instead of "1200 → 1200".
pub(super) fn rating_text(news: &[crate::app::saving::RatingNews]) -> String {
    if let [one] = news {
        let change = one.change;
        return if change.before == change.after {
            tr!(
                "Your rating stays at {}: the ratings expected this result.",
                change.after
            )
        } else {
            tr!("Your rating: {} → {}", change.before, change.after)
        };
    }
    news.iter()
        .map(|n| tr!("{}: {} → {}", n.name, n.change.before, n.change.after))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// A saver's failure in the user's words: the words are made here, where they are shown.
fn saving_error_text(e: &SavingError) -> String {
    match e {
        SavingError::NoArchive => tr!("Saved games are not available."),
        SavingError::NoSuchGame(id) => tr!("There is no saved game {}.", id),
        SavingError::OnTheBoard => tr!("This game is the one on the board."),
        SavingError::NoUsbStick => tr!("No USB stick found. Plug one in and try again."),
        SavingError::Busy => tr!("Another file is being read. Try again when it is done."),
        SavingError::Autosave(e) => tr!("The game could not be saved: {}", e),
        // The storage layer's own account (a path, an OS error) is not translated.
        SavingError::Archive(e) => e.to_string(),
        SavingError::Replay(e) => e.to_string(),
        SavingError::Export(e) => e.to_string(),
        SavingError::Settings(e) => e.to_string(),
        SavingError::Puzzles(e) => tr!("Your puzzles could not be saved: {}", e),
        SavingError::Players(e) => tr!("The players could not be saved: {}", e),
        SavingError::Openings(e) => tr!("Your opening cards could not be saved: {}", e),
        SavingError::Endgames(e) => tr!("Your endgame lessons could not be saved: {}", e),
    }
}
