//! The shell's loop around the controller: carrying out its effects (the computer, the
//! saver, the network, the device), taking the worker threads' reports back on the UI thread,
//! timing the clocks and the demo, and refreshing the screen once a change is on disk.

use super::saves::{checkpoint_clock, save_overdue};
use super::{DEMO_PAUSE, SAVE_PATIENCE, Shell, pacing, update, with_shell};
use crate::app::model::mode::{Mode, NewGameForm};
use crate::app::notices::Topic;
use crate::app::notices::bar::{NoticeMsg, NoticeSender};
use crate::app::screens::dialogs::record::{puzzle_record_text, record_text};
use crate::app::screens::network::partner::PartnerGame;
use crate::app::screens::{self, Controller, Effect, Go, Lobby, ScreenKind, Setting, Viewing};
use crate::app::ui::{AppWindow, GamesAdapter};
use crate::tr;
use chesspi_engine::game::Game;
use slint::ComponentHandle;
use std::cell::RefCell;
use std::rc::{Rc, Weak};

pub(super) fn cell_square(c: &Controller, col: i32, row: i32) -> Option<chesspi_engine::Square> {
    let col = usize::try_from(col).ok()?;
    let row = usize::try_from(row).ok()?;
    c.game_view().square_at(col, row)
}

pub(super) fn run_effects(
    s: &mut Shell,
    shell: &Rc<RefCell<Shell>>,
    window: &AppWindow,
    effects: Vec<Effect>,
) {
    for effect in effects {
        match effect {
            Effect::Think(request) => s.workers.computer.think(request),
            Effect::CancelThinking => {
                s.workers.computer.cancel();
                s.timers.pacing.stop();
            }
            Effect::GameChanged => game_changed(s, shell, window),
            Effect::ShowGames => match &s.saving {
                Some(saving) => {
                    let games = window.global::<GamesAdapter>();
                    games.set_message(tr!("Reading the saved games…").into());
                    saving.saver.list_games();
                }
                None => {
                    s.controller.part(|v: &mut Viewing, cx| v.close_list(cx));
                    s.controller.go(Go::Info {
                        title: tr!("Saved games"),
                        message: tr!("Games are not saved: there is no place to store them."),
                    });
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
            Effect::ChangeSetting(setting) => change_setting(s, window, setting),
            Effect::LevelChosen { level, fits } => {
                if let Some(device) = &mut s.device.controls {
                    device.choose_level(level, fits);
                    s.controller.player_mut().set_follow_fitting_level(fits);
                    if let Some(saving) = &s.saving {
                        saving
                            .saver
                            .save_settings(device.settings(), device.admin());
                    }
                }
            }
            Effect::ShowStatistics => {
                let text = match &s.saving {
                    Some(saving) => {
                        let now = crate::storage::timestamp::unix_now();
                        let puzzles = s.controller.player().puzzles().summary(now);
                        let mut text = record_text(saving.saver.stats());
                        if let Some(line) = puzzle_record_text(&puzzles) {
                            text.push('\n');
                            text.push_str(&line);
                        }
                        text
                    }
                    None => tr!("Your record is not kept: there is no place to store it."),
                };
                s.controller.go(Go::Info {
                    title: tr!("Your record"),
                    message: text,
                });
            }
            Effect::Shutdown => match &s.device.shutdown {
                Some(command) => shut_down(command, s.notices.sender()),
                None => log::warn!("shutdown asked for, but this build cannot shut down"),
            },
            Effect::MoveNow => s.workers.computer.move_now(),
            Effect::Sound(cue) => s.hearing.sound().play(cue),
            Effect::ImportPgn { index } => match &s.saving {
                Some(saving) => match saving.usb_pgn.get(index) {
                    Some(file) => saving.saver.import(file.path.clone()),
                    None => log::warn!("no PGN file {index} on the USB sticks"),
                },
                None => log::warn!("an import without saved games"),
            },
            Effect::CancelImport => {
                if let Some(saving) = &s.saving {
                    saving.saver.cancel_import();
                }
            }
            Effect::ChoosePlayer { who, roster, name } => {
                if let Some(saving) = &s.saving {
                    saving.saver.keep_players(&roster, None);
                    saving.saver.choose(who);
                }
                // Their own coach for new games, once they chose one.
                let coach = who
                    .player()
                    .and_then(|id| roster.get(id))
                    .and_then(|p| p.coach);
                if let (Some(coach), Some(device)) = (coach, &mut s.device.controls) {
                    device.set_coach(coach);
                    if let Some(saving) = &s.saving {
                        saving
                            .saver
                            .save_settings(device.settings(), device.admin());
                    }
                    apply_settings(s);
                }
                s.notices.inform(tr!("{} is playing now.", name));
            }
            Effect::PuzzleTried { id, solved, now } => {
                if let Some(saving) = &s.saving {
                    saving.saver.puzzle_tried(id, solved, now);
                }
            }
            Effect::EndgameTried { id, passed, moves } => {
                if let Some(saving) = &s.saving {
                    saving.saver.endgame_tried(id, passed, moves);
                }
            }
            Effect::Analyse { id, start, moves } => {
                let paused = s.device.power.pauses_work();
                s.workers
                    .analysis
                    .start(&mut s.controller, window, id, start, moves, paused);
            }
            Effect::CancelAnalysis => s.workers.analysis.cancel(),
            Effect::StoreAnalysis { saved, analysis } => {
                s.workers.analysis.finished();
                match &s.saving {
                    Some(saving) => saving.saver.annotate(saved.as_deref(), analysis),
                    None => log::info!("the analysis is not stored: games are not saved here"),
                }
            }
            Effect::Wifi(request) => match &s.workers.wifi {
                Some(link) => link.send(request),
                None => log::warn!("a Wi-Fi request without the Wi-Fi thread: {request:?}"),
            },
            Effect::Lan(request) => match &s.workers.network {
                Some(net) => {
                    let session = s.controller.session();
                    let moves = session.game().moves().len();
                    net.request(request, session.clocks.after_last_move(moves))
                }
                None => log::warn!("a network request without network play: {request:?}"),
            },
            Effect::Network(effect) => match s.workers.network.as_mut() {
                Some(net) => {
                    let stats = s.saving.as_ref().map(|sv| sv.saver.stats());
                    net.lobby(effect, stats, &mut s.controller, &s.notices);
                }
                None => {
                    s.controller.on(Lobby::close);
                    s.controller.go(Go::Info {
                        title: tr!("Network"),
                        message: tr!("Network games are not enabled here."),
                    });
                }
            },
            Effect::KeepPlayers { roster, removed } => {
                if let Some(saving) = &s.saving {
                    saving.saver.keep_players(&roster, removed);
                }
            }
            Effect::OpeningTried { line, passed, now } => {
                if let Some(saving) = &s.saving {
                    saving.saver.opening_tried(line, passed, now);
                }
            }
        }
    }
}

/// The game changed: the hooks run, and the saver gets it (the screen waits for it, with a
/// watchdog in case it never reports back).
fn game_changed(s: &mut Shell, shell: &Rc<RefCell<Shell>>, window: &AppWindow) {
    for hook in &mut s.game_changed {
        hook(&s.controller);
    }
    let Some(saving) = &mut s.saving else {
        return;
    };
    match saving.saver.submit_current(&s.controller) {
        Some(seq) => {
            saving.awaiting = Some(seq);
            let weak_shell = Rc::downgrade(shell);
            let weak_window = window.as_weak();
            saving
                .watchdog
                .start(slint::TimerMode::SingleShot, SAVE_PATIENCE, move || {
                    save_overdue(&weak_shell, &weak_window, seq)
                });
        }
        None => {
            log::error!("the saver thread has stopped; the game is not saved");
            s.notices
                .raise(Topic::Saving, tr!("The game can no longer be saved."));
        }
    }
}

/// A device setting stepped: applied (the language to the whole screen), shown, stored.
fn change_setting(s: &mut Shell, window: &AppWindow, setting: Setting) {
    let Some(device) = &mut s.device.controls else {
        return;
    };
    device.step(setting);
    if setting == Setting::Language {
        super::apply_language(device.language());
        super::view::set_mode_views(window);
    }
    apply_settings(s);
    let sound = s.hearing.sound();
    match setting {
        Setting::Volume => sound.play(crate::sound::Cue::Test),
        Setting::SpeakMoves if sound.speak_moves() != crate::sound::SpeakMoves::Off => {
            // A sample, so the player hears what it sounds like.
            let language = crate::i18n::language();
            sound.say(crate::sound::spoken::san_words("Nf3", language), language);
        }
        _ => {}
    }
    if let (Some(saving), Some(device)) = (&s.saving, &s.device.controls) {
        saving
            .saver
            .save_settings(device.settings(), device.admin());
        // The coach is the player's own: it comes back when they do.
        if let (Setting::Coach, Some(id)) = (setting, s.controller.player().current().player()) {
            let roster = s.controller.player_mut().roster_mut();
            if roster.set_coach(id, device.settings().coach()).is_ok() {
                saving.saver.keep_players(roster, None);
            }
        }
    }
}

/// Where the device settings act: the sound thread takes the volume and spoken moves, the
/// controller the rest (the dialog's rows, the book, the board, the coach).
pub(super) fn apply_settings(s: &mut Shell) {
    let Some(device) = &s.device.controls else {
        return;
    };
    let view = device.view(s.hearing.sound().speaker());
    s.hearing.sound().set_volume(view.volume);
    s.hearing.sound().set_speak_moves(view.speak_moves);
    s.controller.set_settings_view(view);
    s.controller
        .player_mut()
        .set_follow_fitting_level(device.fitting_level());
}

/// After the effects: the clocks, the demo's next game, and the screen (once the change is on
/// disk).
pub(super) fn after_effects(s: &mut Shell, shell: &Rc<RefCell<Shell>>, window: &AppWindow) {
    s.controller
        .sync_clock(std::time::Instant::now(), s.device.power.asleep);
    schedule_clock(s, shell, window);
    schedule_adjourn(s, shell, window);
    schedule_opening_move(s, shell, window);
    if let Some(link) = &s.workers.wifi {
        // The Wi-Fi screen, or the Join list (for hotspots nearby).
        let watched = s.controller.screen() == ScreenKind::Wifi
            || s.controller
                .shown::<Lobby>()
                .is_some_and(Lobby::looks_for_hotspots);
        link.screen_open(watched);
    }
    s.workers
        .board_link
        .sync(&s.controller, window, s.device.power.pauses_work());
    s.workers.assist.sync(s.controller.session(), window);
    if s.controller.session().setup().mode == Mode::Demo
        && s.controller.session().game().is_over()
        && !s.timers.demo.running()
    {
        let weak_shell = Rc::downgrade(shell);
        let weak_window = window.as_weak();
        s.timers
            .demo
            .start(slint::TimerMode::SingleShot, DEMO_PAUSE, move || {
                with_shell(&weak_shell, &weak_window, next_demo_game);
            });
    }
    // A change is shown only once it is on disk (see `receive_save_reports`).
    if s.saving
        .as_ref()
        .is_none_or(|saving| saving.awaiting.is_none())
    {
        super::show(s, window);
    }
}

/// Wakes the controller when a network game may be adjourned (the partner away long enough).
fn schedule_adjourn(s: &mut Shell, shell: &Rc<RefCell<Shell>>, window: &AppWindow) {
    let due = s
        .controller
        .get::<PartnerGame>()
        .adjourn_due(s.controller.session());
    match due {
        Some(due) => {
            let wait = due.saturating_duration_since(std::time::Instant::now());
            let weak_shell = Rc::downgrade(shell);
            let weak_window = window.as_weak();
            s.timers
                .adjourn
                .start(slint::TimerMode::SingleShot, wait, move || {
                    with_shell(&weak_shell, &weak_window, |c| {
                        c.part(|p: &mut PartnerGame, cx| {
                            p.away_check(cx, std::time::Instant::now());
                        });
                    });
                });
        }
        None => s.timers.adjourn.stop(),
    }
}

/// Plays the computer's move in the Openings drill once it has waited its pause (the drill
/// picks from data at once: the pause is only so the move does not feel instant).
fn schedule_opening_move(s: &mut Shell, shell: &Rc<RefCell<Shell>>, window: &AppWindow) {
    let waits = s
        .controller
        .shown::<screens::openings::OpeningsScreen>()
        .is_some_and(screens::openings::OpeningsScreen::computer_waits);
    if !waits {
        s.timers.opening.stop();
        return;
    }
    if s.timers.opening.running() {
        return;
    }
    let weak_shell = Rc::downgrade(shell);
    let weak_window = window.as_weak();
    s.timers.opening.start(
        slint::TimerMode::SingleShot,
        screens::openings::COMPUTER_PAUSE,
        move || {
            with_shell(&weak_shell, &weak_window, |c| {
                c.on(|o: &mut screens::openings::OpeningsScreen, cx| o.computer_plays(cx));
            });
        },
    );
}

/// Wakes the screen for the running clock's next change (and its flag).
pub(super) fn schedule_clock(s: &mut Shell, shell: &Rc<RefCell<Shell>>, window: &AppWindow) {
    let next = s
        .controller
        .session()
        .clock()
        .and_then(|c| c.next_change(std::time::Instant::now()));
    match next {
        Some(wait) => {
            let weak_shell = Rc::downgrade(shell);
            let weak_window = window.as_weak();
            s.timers
                .clock
                .start(slint::TimerMode::SingleShot, wait, move || {
                    with_shell(&weak_shell, &weak_window, |c| {
                        c.clock_tick(std::time::Instant::now());
                    });
                    checkpoint_clock(&weak_shell);
                });
        }
        None => s.timers.clock.stop(),
    }
}

/// Takes the network's news (moves, partners, hosts nearby) into the controller.
pub(super) fn receive_network(shell: &Weak<RefCell<Shell>>, window: &slint::Weak<AppWindow>) {
    let (Some(rc), Some(win)) = (shell.upgrade(), window.upgrade()) else {
        return;
    };
    super::update_shell(&rc, &win, |s| {
        if let Some(net) = s.workers.network.as_mut() {
            net.receive(&mut s.controller, &s.notices);
        }
    });
}

/// Starts the next demo game, unless the person took over meanwhile (a dialog, a review,
/// another mode).
pub(super) fn next_demo_game(c: &mut Controller) {
    let idle = c.dialog().is_none()
        && c.shown::<NewGameForm>().is_none()
        && !c.get::<Viewing>().is_viewing_saved();
    if c.session().setup().mode == Mode::Demo && c.session().game().is_over() && idle {
        c.start(c.session().setup(), Game::new());
    }
}

/// Takes the worker's answers off the channel and plays them, holding back a move that came
/// faster than the pacing allows.
pub(super) fn receive_answers(shell: &Weak<RefCell<Shell>>, window: &slint::Weak<AppWindow>) {
    let (Some(rc), Some(win)) = (shell.upgrade(), window.upgrade()) else {
        return;
    };
    loop {
        let answer = match rc.borrow().workers.answers.try_recv() {
            Ok(answer) => answer,
            Err(_) => break,
        };
        let wait = {
            let s = rc.borrow();
            pacing(
                &s.controller.session().setup(),
                s.hearing.words_of_last_move(),
            )
            .saturating_sub(answer.elapsed)
        };
        if answer.purpose == screens::Purpose::Move && !wait.is_zero() {
            let shell = shell.clone();
            let window = window.clone();
            rc.borrow()
                .timers
                .pacing
                .start(slint::TimerMode::SingleShot, wait, move || {
                    with_shell(&shell, &window, |c| {
                        c.computer_answered(answer.id, answer.reply.clone());
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
