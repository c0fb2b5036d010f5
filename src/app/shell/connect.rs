//! The screens' callbacks wired to the controller: the board, the side panel, the dialogs,
//! the New game form, Saved games, and the workers' wake-ups. Each screen with its own
//! wiring (the editor, the analysis screens) gets a [`Dispatch`].

use super::effects::{cell_square, receive_answers, receive_network};
use super::saves::receive_save_reports;
use super::{App, Shell};
use super::{update, with_shell};
use crate::app::model::mode::{ColourChoice, NewGameForm};
use crate::app::notices::Topic;
use crate::app::screens::analysis::board::Session;
use crate::app::screens::board_view::promotion_role;
use crate::app::screens::play::view::action_of;
use crate::app::screens::{
    Analysis, Controller, Dialog, Dispatch, Go, Lobby, Viewing, analysis, editor, help, openings,
    players, train, wifi,
};
use crate::app::ui::{
    AnalysisAdapter, AnalysisBoardAdapter, DialogAdapter, GameAdapter, GamesAdapter, KeypadAdapter,
    NewGameAdapter, StatusAdapter, WifiAdapter,
};
use crate::tr;
use chesspi_engine::level::Level;
use slint::ComponentHandle;
use std::rc::Rc;

impl App {
    /// Wires the screens' callbacks to the controller.
    pub(super) fn connect(&self) {
        self.connect_board();
        self.connect_workers();
        self.connect_dialogs();
        self.connect_new_game();
        self.connect_games();
        self.connect_analysis_workers();
        self.connect_wifi_worker();
        self.connect_assist_worker();
        self.connect_power();
        let dispatch = self.dispatch();
        editor::view::connect(&self.window, &dispatch);
        analysis::link::connect(&self.window, &dispatch);
        analysis::board::view::connect(&self.window, &dispatch);
        help::connect(&self.window, &dispatch);
        train::view::connect(&self.window, &dispatch);
        wifi::view::connect(&self.window, &dispatch);
        players::view::connect(&self.window, &dispatch);
        openings::view::connect(&self.window, &dispatch);
        crate::app::screens::endgames::view::connect(&self.window, &dispatch);
    }

    /// Runs a change from a screen's callback (see [`Dispatch`]).
    fn dispatch(&self) -> Dispatch {
        let shell = Rc::downgrade(&self.shell);
        let window = self.window.as_weak();
        Rc::new(move |f| with_shell(&shell, &window, f))
    }

    /// The device's power reports: kept in the shell, shown, and passed to the workers that
    /// pause while the screen is dark on battery.
    fn connect_power(&self) {
        let status = self.window.global::<StatusAdapter>();
        let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
        status.on_screen_changed(move |asleep| {
            if let (Some(rc), Some(w)) = (shell.upgrade(), window.upgrade()) {
                rc.borrow_mut().device.power.asleep = asleep;
                w.global::<StatusAdapter>().set_screen_asleep(asleep);
                power_changed(&mut rc.borrow_mut(), &w);
            }
        });
        let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
        status.on_charging_changed(move |charging| {
            if let (Some(rc), Some(w)) = (shell.upgrade(), window.upgrade()) {
                rc.borrow_mut().device.power.charging = charging;
                w.global::<StatusAdapter>().set_battery_charging(charging);
                power_changed(&mut rc.borrow_mut(), &w);
            }
        });
    }

    /// The analysis workers' wake-ups.
    fn connect_analysis_workers(&self) {
        let analysis = self.window.global::<AnalysisAdapter>();
        let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
        analysis.on_report_ready(move || {
            let Some(rc) = shell.upgrade() else { return };
            if let Some(w) = window.upgrade() {
                super::background::received(&mut rc.borrow_mut(), &w);
            }
            let reports = rc.borrow().workers.analysis.take_reports();
            if !reports.is_empty() {
                with_shell(&shell, &window, |c| {
                    for report in reports {
                        c.part(|a: &mut Analysis, cx| a.report(cx, report));
                    }
                });
            }
        });
        let board = self.window.global::<AnalysisBoardAdapter>();
        let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
        board.on_report_ready(move || {
            let Some(rc) = shell.upgrade() else { return };
            let reports = rc.borrow().workers.board_link.take_reports();
            if !reports.is_empty() {
                with_shell(&shell, &window, |c| {
                    for report in reports {
                        c.on(|s: &mut Session, _| s.report(report));
                    }
                });
            }
        });
    }

    /// Assist's wake-ups: its grades go to the game.
    fn connect_assist_worker(&self) {
        let adapter = self.window.global::<GameAdapter>();
        let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
        adapter.on_assist_ready(move || {
            let Some(rc) = shell.upgrade() else { return };
            let reports = rc.borrow().workers.assist.take_reports();
            if !reports.is_empty() {
                with_shell(&shell, &window, |c| {
                    for report in reports {
                        c.session_mut()
                            .assist_graded(report.generation, report.grades);
                    }
                });
            }
        });
    }

    /// The Wi-Fi thread's wake-ups: its reports go to the controller.
    fn connect_wifi_worker(&self) {
        let adapter = self.window.global::<WifiAdapter>();
        let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
        adapter.on_report_ready(move || {
            let Some(rc) = shell.upgrade() else { return };
            let reports = rc
                .borrow()
                .workers
                .wifi
                .as_ref()
                .map(|link| link.take_reports())
                .unwrap_or_default();
            if !reports.is_empty() {
                with_shell(&shell, &window, |c| {
                    for report in reports {
                        c.wifi_report(report);
                    }
                });
            }
        });
    }

    /// A callback that changes the controller and shows the result.
    fn on(&self, f: Box<dyn Fn(&mut Controller)>) -> impl Fn() + 'static {
        let shell = Rc::downgrade(&self.shell);
        let window = self.window.as_weak();
        move || with_shell(&shell, &window, |c| f(c))
    }

    /// The board, the side panel's buttons, the promotion picker and the power key.
    fn connect_board(&self) {
        let game = self.window.global::<GameAdapter>();
        let on = |f| self.on(f);
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_cell_pressed(move |col, row| {
                if let Some(rc) = shell.upgrade() {
                    let mut s = rc.borrow_mut();
                    s.device.swallowing = s
                        .device
                        .touch_gate
                        .as_ref()
                        .is_some_and(|g| g.blocks_touch());
                    if s.device.swallowing {
                        log::debug!("wake-up touch ignored");
                        return;
                    }
                }
                with_shell(&shell, &window, |c| {
                    let sq = cell_square(c, col, row);
                    c.play(|p, cx, gate| p.press(cx, gate, sq));
                });
            });
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_cell_released(move |col, row, dragged| {
                if let Some(rc) = shell.upgrade()
                    && std::mem::take(&mut rc.borrow_mut().device.swallowing)
                {
                    return;
                }
                with_shell(&shell, &window, |c| {
                    let sq = cell_square(c, col, row);
                    c.play(|p, cx, _| p.release(cx, sq, dragged));
                });
            });
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_action(move |shown| {
                let (Some(shell), Some(window)) = (shell.upgrade(), window.upgrade()) else {
                    return;
                };
                // A button that just took this place is not what the finger aimed at.
                if !shell.borrow().models.action_armed(shown) {
                    log::info!("tap on {shown:?} ignored: it has just appeared there");
                    return;
                }
                update(&shell, &window, |c| c.action(action_of(shown)));
            });
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_promotion_chosen(move |role| {
                with_shell(&shell, &window, |c| {
                    let role = promotion_role(role);
                    c.play(|p, cx, _| p.choose_promotion(cx, role));
                });
            });
        }
        game.on_power_key(on(Box::new(|c| {
            c.go(Go::Interrupt(Dialog::ConfirmShutdown))
        })));
    }

    /// The worker threads' wake-ups (computer, saver, network), the keypad and the move list.
    fn connect_workers(&self) {
        let game = self.window.global::<GameAdapter>();
        let on = |f| self.on(f);
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_computer_ready(move || receive_answers(&shell, &window));
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_saved(move || receive_save_reports(&shell, &window));
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            game.on_network_ready(move || receive_network(&shell, &window));
        }
        {
            let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
            game.on_move_tapped(move |row, black| {
                if let Ok(row) = usize::try_from(row) {
                    with_shell(&shell, &window, |c| {
                        c.part(|v: &mut Viewing, cx| v.move_tapped(cx, row, black));
                    });
                }
            });
        }
        {
            let keypad = self.window.global::<KeypadAdapter>();
            let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
            keypad.on_key(move |k| {
                with_shell(&shell, &window, |c| c.on(|l: &mut Lobby, _| l.key(&k)));
            });
            keypad.on_submit(on(Box::new(|c| c.on(Lobby::submit))));
            keypad.on_cancel(on(Box::new(|c| c.on(Lobby::keypad_cancel))));
        }
    }

    /// The generic dialog.
    fn connect_dialogs(&self) {
        let on = |f| self.on(f);
        let dialog = self.window.global::<DialogAdapter>();
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            dialog.on_option_chosen(move |id| {
                with_shell(&shell, &window, |c| {
                    // With no dialog open, the choice is the lobby's (its steps show as
                    // dialogs).
                    if c.dialog().is_some() {
                        c.dialog_option(&id);
                    } else {
                        c.on(|l: &mut Lobby, cx| l.option(cx, &id));
                    }
                });
            });
        }
        dialog.on_dismissed(on(Box::new(|c| c.dialog_dismissed())));
    }

    /// The New game form.
    fn connect_new_game(&self) {
        let on = |f| self.on(f);
        let new_game = self.window.global::<NewGameAdapter>();
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            new_game.on_mode_chosen(move |id| {
                with_shell(&shell, &window, |c| {
                    c.on(|f: &mut NewGameForm, _| f.choose_mode(&id))
                });
            });
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            new_game.on_colour_chosen(move |i| {
                with_shell(&shell, &window, |c| {
                    if let Some(colour) = ColourChoice::from_index(i) {
                        c.on(|f: &mut NewGameForm, _| f.choose_colour(colour));
                    }
                });
            });
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            new_game.on_level_chosen(move |n| {
                with_shell(&shell, &window, |c| {
                    if let Some(level) = u8::try_from(n).ok().and_then(Level::new) {
                        c.on(|f: &mut NewGameForm, _| f.choose_level(level));
                    }
                });
            });
        }
        new_game.on_start(on(Box::new(|c| c.on(NewGameForm::start))));
        new_game.on_coach_toggled(on(Box::new(|c| {
            let default = c.settings().coach;
            c.on(|f: &mut NewGameForm, _| f.toggle_coach(default))
        })));
        new_game.on_fitting_chosen(on(Box::new(|c| {
            let fits = c.player().fitting_level();
            c.on(|f: &mut NewGameForm, _| f.choose_fitting_level(fits))
        })));
        {
            let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
            new_game.on_player_tapped(move |i| {
                with_shell(&shell, &window, |c| {
                    c.on(|f: &mut NewGameForm, cx| {
                        f.choose_player(cx, usize::try_from(i).unwrap_or(0));
                    });
                });
            });
        }
        {
            let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
            new_game.on_clock_chosen(move |i| {
                with_shell(&shell, &window, |c| {
                    c.on(|f: &mut NewGameForm, _| f.choose_preset(usize::try_from(i).ok()))
                });
            });
        }
        new_game.on_custom_chosen(on(Box::new(|c| {
            c.on(|f: &mut NewGameForm, _| f.choose_custom_clock())
        })));
        {
            let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
            new_game.on_custom_step(move |minutes, seconds| {
                with_shell(&shell, &window, |c| {
                    c.on(|f: &mut NewGameForm, _| {
                        f.step_custom(i64::from(minutes), i64::from(seconds))
                    });
                });
            });
        }
        {
            let (shell, window) = (Rc::downgrade(&self.shell), self.window.as_weak());
            new_game.on_network_role_chosen(move |host| {
                with_shell(&shell, &window, |c| {
                    c.on(|f: &mut NewGameForm, _| f.choose_network(host))
                });
            });
        }

        new_game.on_cancel(on(Box::new(|c| c.on(NewGameForm::cancel))));
    }

    /// The Saved games screen.
    fn connect_games(&self) {
        let games = self.window.global::<GamesAdapter>();
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            games.on_game_chosen(move |id| {
                let Some(rc) = shell.upgrade() else { return };
                let choice =
                    rc.borrow().saving.as_ref().and_then(|saving| {
                        saving.games.iter().find(|g| g.id == id.as_str()).cloned()
                    });
                if let Some(choice) = choice {
                    with_shell(&shell, &window, |c| {
                        c.go(Go::Dialog(Dialog::SavedGame(choice)))
                    });
                }
            });
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            games.on_export(move || {
                if let (Some(rc), Some(w)) = (shell.upgrade(), window.upgrade())
                    && let Some(saving) = &rc.borrow().saving
                {
                    saving.saver.export();
                    w.global::<GamesAdapter>().set_can_export(false);
                    rc.borrow()
                        .notices
                        .raise(Topic::Export, tr!("Copying the games to the USB stick…"));
                }
            });
        }
        {
            let shell = Rc::downgrade(&self.shell);
            let window = self.window.as_weak();
            games.on_import(move || {
                let Some(rc) = shell.upgrade() else { return };
                // The files as the dialog names them: the stick's name and the file's path.
                // A stick's names are anyone's: no line breaks or bidi overrides on a button.
                let names: Vec<String> = rc
                    .borrow()
                    .saving
                    .as_ref()
                    .map(|s| {
                        s.usb_pgn
                            .iter()
                            .map(|f| crate::text::shown(&f.label, 60))
                            .collect()
                    })
                    .unwrap_or_default();
                with_shell(&shell, &window, |c| {
                    c.go(Go::Dialog(Dialog::UsbFiles(names)))
                });
            });
        }
        games.on_close(self.on(Box::new(|c| {
            c.part(|v: &mut Viewing, cx| v.close_list(cx));
        })));
    }
}

/// Tells the workers whether to pause after a power change.
fn power_changed(s: &mut Shell, window: &crate::app::ui::AppWindow) {
    let paused = s.device.power.pauses_work();
    s.workers.analysis.power_changed(paused);
    s.workers.board_link.power_changed(paused);
    super::background::poke(s, window);
}
