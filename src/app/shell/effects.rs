//! The shell's loop around the controller: carrying out its effects (the computer, the
//! saver, the network, the device), taking the worker threads' reports back on the UI thread,
//! timing the clocks and the demo, and refreshing the screen once a change is on disk.

use super::{DEMO_PAUSE, SAVE_PATIENCE, Shell, pacing};
use crate::app::model::mode::Mode;
use crate::app::notices::Topic;
use crate::app::notices::bar::{NoticeMsg, NoticeSender};
use crate::app::saving::{self, Opened, Report, SavingError};
use crate::app::screens::dialogs::record::record_text;
use crate::app::screens::saved_games::list as games;
use crate::app::screens::{self, Controller, Effect, ScreenKind, Setting};
use crate::app::ui::{AppWindow, GameRowView, GamesAdapter};
use crate::{tr, trn};
use chesspi_engine::game::Game;
use slint::{ComponentHandle, ModelRc, VecModel};
use std::cell::RefCell;
use std::rc::{Rc, Weak};

pub(super) fn cell_square(c: &Controller, col: i32, row: i32) -> Option<chesspi_engine::Square> {
    let col = usize::try_from(col).ok()?;
    let row = usize::try_from(row).ok()?;
    c.square_at(col, row)
}

pub(super) fn with_shell(
    shell: &Weak<RefCell<Shell>>,
    window: &slint::Weak<AppWindow>,
    f: impl FnOnce(&mut Controller),
) {
    if let (Some(shell), Some(window)) = (shell.upgrade(), window.upgrade()) {
        update(&shell, &window, f);
    }
}

/// Applies a change, carries out the effects it produced, and refreshes the screen.
pub(super) fn update(
    shell: &Rc<RefCell<Shell>>,
    window: &AppWindow,
    f: impl FnOnce(&mut Controller),
) {
    let mut guard = shell.borrow_mut();
    let s = &mut *guard;
    f(&mut s.controller);
    // The clocks first: a move presses its clock before the game is saved with it.
    let away = s.controller.screen() == ScreenKind::SavedGames || s.power.asleep;
    s.controller.sync_clock(std::time::Instant::now(), away);
    // Carrying out an effect may lead to more (the network refusing at once, ...).
    loop {
        let effects = s.controller.take_effects();
        if effects.is_empty() {
            break;
        }
        run_effects(s, shell, window, effects);
    }
    // Another game replaced a network game: say goodbye to the partner.
    if let Some(net) = s.network.as_mut()
        && net.is_active()
        && s.controller.partner().is_none()
        && s.controller.lobby().is_none()
    {
        net.leave();
    }
    after_effects(s, shell, window);
}

pub(super) fn run_effects(
    s: &mut Shell,
    shell: &Rc<RefCell<Shell>>,
    window: &AppWindow,
    effects: Vec<Effect>,
) {
    for effect in effects {
        match effect {
            Effect::Think(request) => s.computer.think(request),
            Effect::CancelThinking => {
                s.computer.cancel();
                s.pacing_timer.stop();
            }
            Effect::GameChanged => {
                for hook in &mut s.game_changed {
                    hook(&s.controller);
                }
                if let Some(saving) = &mut s.saving {
                    match saving.saver.submit_current(&s.controller) {
                        Some(seq) => {
                            saving.awaiting = Some(seq);
                            let weak_shell = Rc::downgrade(shell);
                            let weak_window = window.as_weak();
                            saving.watchdog.start(
                                slint::TimerMode::SingleShot,
                                SAVE_PATIENCE,
                                move || save_overdue(&weak_shell, &weak_window, seq),
                            );
                        }
                        None => {
                            log::error!("the saver thread has stopped; the game is not saved");
                            s.notices
                                .raise(Topic::Saving, tr!("The game can no longer be saved."));
                        }
                    }
                }
            }
            Effect::ShowGames => match &s.saving {
                Some(saving) => {
                    let games = window.global::<GamesAdapter>();
                    games.set_message(tr!("Reading the saved games…").into());
                    saving.saver.list_games();
                }
                None => {
                    s.controller.close_saved_games();
                    s.controller.show_info(
                        &tr!("Saved games"),
                        &tr!("Games are not saved: there is no place to store them."),
                    );
                }
            },
            Effect::OpenSaved { id, resume } => {
                if let Some(saving) = &s.saving {
                    saving.saver.open(id, resume);
                }
            }
            Effect::DeleteSaved { id } => {
                if let Some(saving) = &s.saving {
                    saving.saver.delete(id);
                }
            }
            Effect::ChangeSetting(setting) => {
                if let Some(device) = &mut s.device {
                    device.step(setting);
                    if setting == Setting::Language {
                        super::apply_language(device.language());
                        super::view::set_mode_views(window);
                    }
                    s.controller.set_book(device.book());
                    s.controller.set_settings_view(device.view());
                    if let Some(saving) = &s.saving {
                        saving
                            .saver
                            .save_settings(device.settings(), device.admin());
                    }
                }
            }
            Effect::LevelChosen(level) => {
                if let Some(device) = &mut s.device {
                    device.choose_level(level);
                    if let Some(saving) = &s.saving {
                        saving
                            .saver
                            .save_settings(device.settings(), device.admin());
                    }
                }
            }
            Effect::ShowStatistics => {
                let text = match &s.saving {
                    Some(saving) => record_text(saving.saver.stats()),
                    None => tr!("Your record is not kept: there is no place to store it."),
                };
                s.controller.show_info(&tr!("Your record"), &text);
            }
            Effect::Shutdown => match &s.shutdown {
                Some(command) => shut_down(command, s.notices.sender()),
                None => log::warn!("shutdown asked for, but this build cannot shut down"),
            },
            Effect::MoveNow => s.computer.move_now(),
            Effect::Analyse { id, start, moves } => {
                let paused = s.power.pauses_work();
                s.analysis
                    .start(&mut s.controller, window, id, start, moves, paused);
            }
            Effect::CancelAnalysis => s.analysis.cancel(),
            Effect::StoreAnalysis { saved, analysis } => {
                s.analysis.finished();
                match &s.saving {
                    Some(saving) => saving.saver.annotate(saved.as_deref(), analysis),
                    None => log::info!("the analysis is not stored: games are not saved here"),
                }
            }
            Effect::Lan(request) => match &s.network {
                Some(net) => net.request(request, s.controller.clock_after_last_move()),
                None => log::warn!("a network request without network play: {request:?}"),
            },
            Effect::Network(effect) => match s.network.as_mut() {
                Some(net) => net.lobby(effect, &mut s.controller, &s.notices),
                None => {
                    s.controller.lobby_cancel();
                    s.controller
                        .show_info(&tr!("Network"), &tr!("Network games are not enabled here."));
                }
            },
        }
    }
}

/// After the effects: the clocks, the demo's next game, and the screen (once the change is on
/// disk).
pub(super) fn after_effects(s: &mut Shell, shell: &Rc<RefCell<Shell>>, window: &AppWindow) {
    let away = s.controller.screen() == ScreenKind::SavedGames || s.power.asleep;
    s.controller.sync_clock(std::time::Instant::now(), away);
    schedule_clock(s, shell, window);
    schedule_adjourn(s, shell, window);
    s.board_link
        .sync(&s.controller, window, s.power.pauses_work());
    if s.controller.setup().mode == Mode::Demo
        && s.controller.game().is_over()
        && !s.demo_timer.running()
    {
        let weak_shell = Rc::downgrade(shell);
        let weak_window = window.as_weak();
        s.demo_timer
            .start(slint::TimerMode::SingleShot, DEMO_PAUSE, move || {
                with_shell(&weak_shell, &weak_window, next_demo_game);
            });
    }
    // A change is shown only once it is on disk (see `receive_save_reports`).
    if s.saving
        .as_ref()
        .is_none_or(|saving| saving.awaiting.is_none())
    {
        s.models.refresh(window, &s.controller);
    }
}

/// Reconnects the network game on the board with `peer` (restored after a restart, or
/// played on from Saved games): hosts it again, or joins its host again.
pub(super) fn resume_network(s: &mut Shell, peer: &str, link: crate::storage::LanLink) {
    let Mode::Network { local } = s.controller.setup().mode else {
        return;
    };
    s.controller.network_restored(peer, link.clone());
    let clock = s.controller.lan_clock(std::time::Instant::now());
    if let Some(net) = s.network.as_mut() {
        net.resume(peer, local, s.controller.game().clone(), link, clock);
    }
}

/// Wakes the controller when a network game may be adjourned (the partner away long enough).
fn schedule_adjourn(s: &mut Shell, shell: &Rc<RefCell<Shell>>, window: &AppWindow) {
    match s.controller.adjourn_due() {
        Some(due) => {
            let wait = due.saturating_duration_since(std::time::Instant::now());
            let weak_shell = Rc::downgrade(shell);
            let weak_window = window.as_weak();
            s.adjourn_timer
                .start(slint::TimerMode::SingleShot, wait, move || {
                    with_shell(&weak_shell, &weak_window, |c| {
                        c.partner_away_check(std::time::Instant::now());
                    });
                });
        }
        None => s.adjourn_timer.stop(),
    }
}

/// Wakes the screen for the running clock's next change (and its flag).
pub(super) fn schedule_clock(s: &mut Shell, shell: &Rc<RefCell<Shell>>, window: &AppWindow) {
    let next = s
        .controller
        .clock()
        .and_then(|c| c.next_change(std::time::Instant::now()));
    match next {
        Some(wait) => {
            let weak_shell = Rc::downgrade(shell);
            let weak_window = window.as_weak();
            s.clock_timer
                .start(slint::TimerMode::SingleShot, wait, move || {
                    with_shell(&weak_shell, &weak_window, |c| {
                        c.clock_tick(std::time::Instant::now());
                    });
                    checkpoint_clock(&weak_shell);
                });
        }
        None => s.clock_timer.stop(),
    }
}

/// Saves the game with a running clock every [`super::CLOCK_CHECKPOINT`] (the screen does
/// not wait for these saves: nothing on it changes).
fn checkpoint_clock(shell: &Weak<RefCell<Shell>>) {
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
        Some(t) if now.duration_since(t) >= super::CLOCK_CHECKPOINT => {
            saving.saver.submit_current(c);
            saving.clock_saved = Some(now);
        }
        Some(_) => {}
    }
}

/// Takes the network's news (moves, partners, hosts nearby) into the controller.
pub(super) fn receive_network(shell: &Weak<RefCell<Shell>>, window: &slint::Weak<AppWindow>) {
    let (Some(rc), Some(win)) = (shell.upgrade(), window.upgrade()) else {
        return;
    };
    {
        let mut guard = rc.borrow_mut();
        let s = &mut *guard;
        if let Some(net) = s.network.as_mut() {
            net.receive(&mut s.controller, &s.notices);
        }
    }
    update(&rc, &win, |_| {});
}

/// Starts the next demo game, unless the person took over meanwhile (a dialog, a review,
/// another mode).
pub(super) fn next_demo_game(c: &mut Controller) {
    let idle = c.dialog().is_none() && c.new_game_form().is_none() && !c.is_viewing_saved();
    if c.setup().mode == Mode::Demo && c.game().is_over() && idle {
        c.start(c.setup(), Game::new());
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
        s.models.refresh(&win, &s.controller);
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
        s.models.refresh(&win, &s.controller);
    }
}

pub(super) fn handle_report(rc: &Rc<RefCell<Shell>>, win: &AppWindow, report: Report) {
    let notices = rc.borrow().notices.clone();
    let games_screen = win.global::<GamesAdapter>();
    match report {
        Report::Saved(report) => {
            let mut guard = rc.borrow_mut();
            let Some(saving) = guard.saving.as_mut() else {
                return;
            };
            saving.saver.note_report(&report);
            match &report.error {
                Some(error) => notices.raise(Topic::Saving, saving_error_text(error)),
                // Saved again: an earlier failure or slowness is over.
                None => notices.clear(Topic::Saving),
            }
            if let Some(change) = report.rating {
                notices.inform(rating_text(change));
            }
            if saving.awaiting.is_some_and(|seq| report.seq >= seq) {
                saving.awaiting = None;
            }
            drop(guard);
            if let Some((moves, marks)) = report.stored_marks {
                update(rc, win, |c| c.stored_marks_found(&moves, *marks));
            }
        }
        Report::Games { games, usb } => {
            let rows: Vec<_> = match &games {
                Ok(list) => list.iter().map(games::row).collect(),
                Err(_) => Vec::new(),
            };
            games_screen.set_message(match &games {
                Err(e) => tr!("The saved games cannot be read: {}", saving_error_text(e)).into(),
                Ok(_) if rows.is_empty() => {
                    tr!("No saved games yet. Finished games appear here.").into()
                }
                Ok(_) => "".into(),
            });
            games_screen.set_can_export(!usb.is_empty() && !rows.is_empty());
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
            }
        }
        Report::Opened(Ok(Opened::Review {
            game,
            header,
            marks,
        })) => {
            let result = games::result_card(&header);
            update(rc, win, |c| {
                c.close_saved_games();
                c.view_saved(*game, &header.white, &header.black, result);
                c.saved_opened(header.id.as_str(), marks.map(|m| *m));
            });
        }
        Report::Annotated(Err(e)) => log::error!("cannot store the analysis: {e}"),
        Report::Annotated(Ok(())) => {}
        Report::Opened(Ok(Opened::Resume(saved))) => {
            // Read first: a borrow in the match's head would last through its arms.
            let level = rc.borrow().controller.setup().level;
            match saving::restored_setup(&saved.mode, level) {
                Some((setup, lan)) => {
                    if let Some(saving) = rc.borrow_mut().saving.as_mut() {
                        saving.saver.adopt(&saved);
                    }
                    log::info!("resuming a saved game ({} moves)", saved.game.moves().len());
                    let clocks = saved.clocks.clone();
                    update(rc, win, |c| {
                        c.close_saved_games();
                        c.start(setup, saved.game);
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
                            c.hold_clock();
                        }
                        if let Some((peer, link)) = &lan {
                            c.network_restored(peer, link.clone());
                        }
                    });
                    // An adjourned network game: the same partner, reconnected.
                    if let Some((peer, link)) = lan {
                        resume_network(&mut rc.borrow_mut(), &peer, link);
                        update(rc, win, |_| {});
                    }
                }
                None => update(rc, win, |c| {
                    c.show_info(
                        &tr!("Saved games"),
                        &tr!("A network game cannot be continued."),
                    );
                }),
            }
        }
        Report::Opened(Err(e)) => update(rc, win, |c| {
            c.show_info(&tr!("This game cannot be opened"), &saving_error_text(&e));
        }),
        Report::Deleted(result) => {
            if let Err(e) = result {
                update(rc, win, |c| {
                    c.show_info(&tr!("The game was not deleted"), &saving_error_text(&e))
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
    }
}

/// The rating change in words. Elo moves little when the result was expected (a loss to a
/// far stronger level, a win against a far weaker one): say so instead of "1200 → 1200".
pub(super) fn rating_text(change: crate::storage::stats::RatingChange) -> String {
    if change.before == change.after {
        tr!(
            "Your rating stays at {}: the ratings expected this result.",
            change.after
        )
    } else {
        tr!("Your rating: {} → {}", change.before, change.after)
    }
}

/// Takes the worker's answers off the channel and plays them, holding back a move that came
/// faster than the pacing allows.
pub(super) fn receive_answers(shell: &Weak<RefCell<Shell>>, window: &slint::Weak<AppWindow>) {
    let (Some(rc), Some(win)) = (shell.upgrade(), window.upgrade()) else {
        return;
    };
    loop {
        let answer = match rc.borrow().answers.try_recv() {
            Ok(answer) => answer,
            Err(_) => break,
        };
        let wait = {
            let s = rc.borrow();
            pacing(&s.controller.setup()).saturating_sub(answer.elapsed)
        };
        if answer.purpose == screens::Purpose::Move && !wait.is_zero() {
            let shell = shell.clone();
            let window = window.clone();
            rc.borrow()
                .pacing_timer
                .start(slint::TimerMode::SingleShot, wait, move || {
                    with_shell(&shell, &window, |c| {
                        c.computer_answered(answer.id, answer.reply);
                    });
                });
        } else {
            update(&rc, &win, |c| c.computer_answered(answer.id, answer.reply));
        }
    }
}

/// Runs the shutdown command off the UI thread; a failure is shown in the status bar.
fn shut_down(command: &crate::power::ShutdownCommand, notices: NoticeSender) {
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

/// A saver's failure in the user's words: the words are made here, where they are shown.
fn saving_error_text(e: &SavingError) -> String {
    match e {
        SavingError::NoArchive => tr!("Saved games are not available."),
        SavingError::NoSuchGame(id) => tr!("There is no saved game {}.", id),
        SavingError::OnTheBoard => tr!("This game is the one on the board."),
        SavingError::NoUsbStick => tr!("No USB stick found. Plug one in and try again."),
        SavingError::Autosave(e) => tr!("The game could not be saved: {}", e),
        // The storage layer's own account (a path, an OS error) is not translated.
        SavingError::Archive(e) => e.to_string(),
        SavingError::Replay(e) => e.to_string(),
        SavingError::Export(e) => e.to_string(),
        SavingError::Settings(e) => e.to_string(),
    }
}
