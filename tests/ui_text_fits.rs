//! No visible text is clipped at 800x480, in English or in German: every screen and dialog is
//! brought up headless with the longest strings it shows, and Slint measures each text against
//! its box (ui/checks.slint: every `Text`, `VerticalLayout` and `HorizontalLayout` of the UI
//! reports through `TextFit.overflow` when its content does not fit).
//!
//! A text does not fit when its line is wider than its box, when it wraps and a word is wider
//! than the box (the word would be broken or clipped) or its lines are taller than the box,
//! or when its box runs off the screen's sides; a row or column does not fit when its content
//! cannot shrink to its box (it spills over what is beside it). Elided texts count: "…" is
//! text the player does not see.
//!
//! First a control, so the check is seen to fail: a word of 60 letters in a dialog's message
//! and on its button must be reported. Then the states, each in English and in German (a
//! frame drawn, then measured):
//! - start: a new game against the computer (level 4);
//! - selection: a piece picked mid-game, its targets shown;
//! - promotion: the picker over the board;
//! - game over: you win (checkmate), the computer wins (resignation), game aborted (resigned
//!   before a move), draw by agreement, by threefold repetition (claimed), by the 50-move
//!   rule (claimed), by stalemate, by insufficient material, on time;
//! - review: a finished game three moves back;
//! - dialogs: Resign or draw against the computer and between two players (with a draw to
//!   claim), each confirmation (resign against the computer, between two players and in a
//!   network game; shut down; delete a saved game), a draw offered between two players, a
//!   draw to claim (threefold, 50 moves), the partner's draw offer and takeback request,
//!   adjourn, claim the win or keep waiting;
//! - menu: against the computer with every entry (stronger, weaker, switch sides, Shut
//!   down), in a network game (adjourn, claim the win); the notes after a level change and a switch of
//!   sides;
//! - settings as on the device (brightness, dimming), About, Help (the whole page), Your record
//!   (not kept, and all ten levels played);
//! - New game: each mode (computer, two players, demo, network host and join), without a
//!   clock and with the custom clock at 180+60; every level's words; the clock presets;
//! - clock: a game with the custom 180+60 clock, both clocks at 3:00:00;
//! - saved games: none yet (and the files of a USB stick to import from), and a list of six
//!   (a network partner's name of 32 characters, three-digit move counts, the longest
//!   terminations), with a USB stick in, a game's choices (unfinished; a damaged file) and
//!   the delete confirmation;
//! - network: hosting (a device name of 32 characters, three addresses), joining without
//!   discovery, the list of four hosts with long names, the keypad for a code and for an
//!   address (the longest address, a wrong one), connecting, not reachable, refused (another
//!   version), a game with a partner of 32 characters (thinking, connection lost,
//!   reconnecting, partner left, the partner wins, won by forfeit);
//! - position editor: the start position (four castling rights), the longest refusal (more
//!   pieces than promotions allow), no king and no castling rights, the position ready to
//!   play;
//! - analysis board: its search finished;
//! - analysis of a game: the graph and verdict, then the next mistake;
//! - Train: no puzzles yet, a blunder to find, solved, failed;
//! - the coach: a hanging piece and a skewer (the longest sentence), each with "Show me";
//!   Settings with the coach warning of mistakes; New game with the coach on and off;
//! - Endgames: the list's two pages with progress, every lesson at its start, a lesson under
//!   way, passed (mate with the count judged, a pawn queened) and failed (stalemate, a move
//!   that throws the win away);
//! - Settings → Players: eight players with names of 24 wide letters, a name refused (taken,
//!   empty), the accented capitals, the removal's confirmation;
//! - notices: the critical battery countdown, a battery fault, a failed shutdown, a
//!   shutdown that did not happen, low battery, a notice over the New game screen;
//! - opening: the longest opening name of the data set in each language (after the side
//!   panel's shortening);
//! - Openings: every page of the families, every page of the openings of the family with the
//!   longest variation name, that variation's colours, its drill (the user's move, a miss
//!   with the book's moves, the line complete after a miss and passed, the computer's move).
//!
//! Known overflows in files another change owns are listed in [`KNOWN`]; the test fails on
//! any other. Slint allows one platform per process: one test runs the states in order.

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::boot::screenshot::square_center;
use chesspi::app::boot::start::show_battery_event;
use chesspi::app::model::mode::{GameSetup, Level, Mode, NewGameForm};
use chesspi::app::screens::analysis::board::Session;
use chesspi::app::screens::network::partner::PartnerGame;
use chesspi::app::screens::{
    Action, Allow, Dialog, Go, HostEntry, Lobby, SavedGameChoice, SettingsView,
};
use chesspi::app::ui::{DialogAdapter, GamesAdapter, OptionView, TextFit, TextOverflow};
use chesspi::battery::{BatteryEvent, BatteryFault, BatteryStatus};
use chesspi::i18n::Language;
use chesspi_engine::coach::CoachLevel;
use chesspi_engine::game::{Game, Outcome, Termination};
use chesspi_engine::{Color, Position, Square};
use slint::{ComponentHandle, Model};
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// How long the app may take for what the test waits for (searches in a debug build).
const PATIENCE: Duration = Duration::from_secs(120);

/// A network partner's name as long as the protocol lets it be (32 characters,
/// `lan::session::MAX_NAME_CHARS`).
const PARTNER: &str = "Wohnzimmer-Schachbrett Großvater";
/// This device's name as long as `lan.name` may be (32 characters).
const DEVICE: &str = "Schachclub Mühlheim Brett Nr 12a";

/// Overflows known in the files of another change (ui/side-panel.slint, ui/editor.slint,
/// ui/analysis.slint), to be fixed there: (the state's start, "" for any; the text; what does
/// not fit). Alternatives go apart by "|"; a text ending in "*" is its start. Remove an
/// entry once its fix is in: the test prints entries that no longer match.
const KNOWN: &[(&str, &str, &str)] = &[];

/// The overflows seen, with the state they were seen in.
struct Fits {
    language: Language,
    reports: Rc<RefCell<Vec<TextOverflow>>>,
    round: i32,
    states: Vec<String>,
    found: Vec<(String, TextOverflow)>,
}

impl Fits {
    /// Measures every text on screen now, as state `state`.
    fn check(&mut self, app: &App, state: &str) {
        let fit = app.window().global::<TextFit>();
        let reports = self.reports.clone();
        fit.on_overflow(move |r| reports.borrow_mut().push(r));
        // A frame as the device draws it (every `if` and `for` instantiated), then a new round
        // of the check: each text that does not fit reports once.
        headless::render().expect("a frame");
        self.round += 1;
        fit.set_round(self.round);
        headless::pump();
        let (frame, _) = headless::render().expect("a frame");
        fit.set_round(0);
        let state = format!("{} [{}]", state, self.language.code());
        // CHESSPI_TEXT_FITS_SHOTS=DIR keeps each state's frame, to look at what was measured.
        if let Some(dir) = std::env::var_os("CHESSPI_TEXT_FITS_SHOTS") {
            let name: String = state
                .chars()
                .map(|c| if c.is_alphanumeric() { c } else { '-' })
                .collect();
            let path = std::path::Path::new(&dir).join(format!("{:03}-{name}.png", self.round));
            frame.save_png(&path).expect("a PNG");
        }
        for r in self.reports.borrow_mut().drain(..) {
            self.found.push((state.clone(), r));
        }
        self.states.push(state);
    }
}

fn describe(state: &str, r: &TextOverflow) -> String {
    let mut text = format!(
        "{state}: {:?} in a box of {}x{} at ({}, {}) needs {}x{}",
        r.text, r.width, r.height, r.x, r.y, r.needed_width, r.needed_height
    );
    // A text that sizes itself is centred in its parent: it sticks out on both sides.
    if r.left < 0.0 {
        text.push_str(&format!(", {} px wider than its parent", -2.0 * r.left));
    }
    if r.top < 0.0 {
        text.push_str(&format!(", {} px taller than its parent", -2.0 * r.top));
    }
    text
}

/// A game from the start with these UCI moves played.
fn game(moves: &str) -> Game {
    let mut game = Game::new();
    play(&mut game, moves);
    game
}

fn play(game: &mut Game, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = game.position().parse_uci_move(text).expect("a legal move");
        game.play(mv).expect("play");
    }
}

fn from_fen(fen: &str) -> Game {
    Game::from_position(Position::from_fen(fen).expect("a position"))
}

fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

/// Taps square `from`, then `to`, on the board shown.
fn tap_move(app: &App, from: &str, to: &str) {
    for name in [from, to] {
        let (x, y) = square_center(sq(name), app.with_controller(|c| c.session().is_flipped()));
        headless::tap(x, y).expect("tap");
    }
}

/// Three host addresses as long as they get (`typed_addresses` shows at most three).
fn long_addresses() -> [String; 3] {
    [
        "192.168.178.123:47531",
        "172.31.255.254:47531",
        "169.254.123.234:47531",
    ]
    .map(String::from)
}

fn you(human: Color, level: u8) -> GameSetup {
    GameSetup {
        mode: Mode::Computer { human },
        level: Level::new(level).expect("a level"),
    }
}

const FRIENDS: GameSetup = GameSetup {
    mode: Mode::Friend,
    level: Level::DEFAULT,
};

/// The app on `game`, its window shown, speaking `language`.
fn open(game: Game, setup: GameSetup, language: Language) -> App {
    chesspi::i18n::set_language(language);
    let app = App::new(game, setup).expect("the app starts");
    chesspi::app::apply_language(language);
    app.window().show().expect("the window shows");
    // The Rust side's texts in the language too.
    app.update_controller(|_| {});
    app
}

fn pump_until(what: &str, done: impl FnMut() -> bool) {
    assert!(
        headless::pump_until(PATIENCE, done),
        "timed out waiting for {what}"
    );
}

/// The check itself sees a text that does not fit: a word of 60 letters in a dialog's
/// message (it cannot wrap: its column spills) and on a choice's button.
fn control(fits: &mut Fits) {
    let word = "Donaudampfschifffahrtsgesellschaftskapitänsmützenabzeichenha";
    assert_eq!(word.chars().count(), 60);
    let app = open(Game::new(), you(Color::White, 4), fits.language);
    app.update_controller(|c| {
        c.go(Go::Info {
            title: "Control".to_string(),
            message: word.to_string(),
        })
    });
    let options = Rc::new(slint::VecModel::from(vec![OptionView {
        id: "close".into(),
        label: word.into(),
        primary: true,
        danger: false,
        enabled: true,
        name: false,
    }]));
    app.window()
        .global::<DialogAdapter>()
        .set_options(options.into());
    fits.check(&app, "control");
    let seen: Vec<_> = fits.found.drain(..).map(|(_, r)| r).collect();
    fits.states.pop();
    assert!(
        seen.iter()
            .any(|r| r.text == word && r.needed_width > r.width),
        "the button's word was not reported: {seen:?}"
    );
    assert!(
        seen.iter()
            .any(|r| r.text.starts_with('(') && r.needed_width > r.width),
        "the message's column was not reported: {seen:?}"
    );
}

fn board_states(fits: &mut Fits) {
    let lang = fits.language;
    let app = open(Game::new(), you(Color::White, 4), lang);
    fits.check(&app, "start");

    let app = open(
        game("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d4 e5d4 e1g1 f6e4 f1e1 d7d5 c4d5 d8d5 b1c3 d5a5"),
        FRIENDS,
        lang,
    );
    let (x, y) = square_center(sq("c3"), false);
    headless::tap(x, y).expect("tap");
    fits.check(&app, "selection");

    let app = open(
        from_fen("3r2k1/1P3ppp/8/8/8/8/5PPP/6K1 w - - 0 30"),
        FRIENDS,
        lang,
    );
    tap_move(&app, "b7", "b8");
    fits.check(&app, "promotion picker");
}

fn game_over_states(fits: &mut Fits) {
    let lang = fits.language;
    // Scholar's mate against the computer, then its review.
    let app = open(
        game("e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7"),
        you(Color::White, 4),
        lang,
    );
    fits.check(&app, "game over: you win by checkmate");
    app.update_controller(|c| {
        c.action(Action::Review);
        c.action(Action::ReviewLast);
        for _ in 0..3 {
            c.action(Action::ReviewBack);
        }
    });
    fits.check(&app, "review, three moves back");

    // Resigning against the computer: the dialog, its confirmation, the loss.
    let app = open(game("e2e4 e7e5"), you(Color::White, 4), lang);
    app.update_controller(|c| c.action(Action::ResignOrDraw));
    fits.check(&app, "resign or draw (computer)");
    app.update_controller(|c| c.dialog_option("resign"));
    fits.check(&app, "confirm resign (computer)");
    app.update_controller(|c| c.dialog_option("resign"));
    fits.check(&app, "game over: the computer wins by resignation");

    // Resigned before a move of one's own.
    let app = open(Game::new(), you(Color::Black, 4), lang);
    app.update_controller(|c| {
        c.action(Action::ResignOrDraw);
        c.dialog_option("resign");
        c.dialog_option("resign");
    });
    fits.check(&app, "game over: aborted");

    // Two players: the third repetition offers the claim, then Resign or draw with the claim,
    // a draw offered, the confirmation of a resignation, and the draw by agreement.
    let app = open(game("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1"), FRIENDS, lang);
    tap_move(&app, "f6", "g8");
    fits.check(&app, "claim a draw: threefold repetition");
    app.update_controller(|c| {
        c.dialog_option("cancel");
        c.action(Action::ResignOrDraw);
    });
    fits.check(&app, "resign or draw (two players, a draw to claim)");
    app.update_controller(|c| c.dialog_option("resign"));
    fits.check(&app, "confirm resign (two players)");
    app.update_controller(|c| {
        c.dialog_option("cancel");
        c.action(Action::ResignOrDraw);
        c.dialog_option("offer");
    });
    fits.check(&app, "a draw offered (two players)");
    app.update_controller(|c| c.dialog_option("accept"));
    fits.check(&app, "game over: draw by agreement");
    let app = open(game("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1"), FRIENDS, lang);
    tap_move(&app, "f6", "g8");
    app.update_controller(|c| c.dialog_option("claim"));
    fits.check(&app, "game over: draw by threefold repetition");

    // The 50-move rule.
    let app = open(from_fen("8/8/4k3/8/8/4K3/8/R7 w - - 99 80"), FRIENDS, lang);
    tap_move(&app, "a1", "a2");
    fits.check(&app, "claim a draw: 50 moves");
    app.update_controller(|c| c.dialog_option("claim"));
    fits.check(&app, "game over: draw by the 50-move rule");

    let app = open(from_fen("7k/8/8/6Q1/8/8/8/K7 w - - 0 1"), FRIENDS, lang);
    tap_move(&app, "g5", "g6");
    fits.check(&app, "game over: stalemate");

    let app = open(from_fen("8/8/4k3/8/8/8/3pK3/8 w - - 0 1"), FRIENDS, lang);
    tap_move(&app, "e2", "d2");
    fits.check(&app, "game over: insufficient material");

    // A minute's clock between two players, run out.
    let app = open(Game::new(), FRIENDS, lang);
    app.update_controller(|c| {
        c.action(Action::NewGame);
        c.on(|f: &mut NewGameForm, _| f.choose_mode("friend"));
        c.on(|f: &mut NewGameForm, _| f.choose_preset(Some(0)));
        c.on(NewGameForm::start);
        let t0 = Instant::now();
        c.sync_clock(t0, false);
        c.clock_tick(t0 + Duration::from_secs(90));
    });
    fits.check(&app, "game over: on time");
}

fn menu_states(fits: &mut Fits) {
    let lang = fits.language;
    let app = open(game("e2e4 e7e5 g1f3"), you(Color::White, 4), lang);
    pump_until("the computer's move", || {
        app.with_controller(|c| c.session().game().moves().len() == 4)
    });
    app.update_controller(|c| {
        c.allow(Allow::Shutdown);
        c.action(Action::Menu);
    });
    fits.check(&app, "menu (computer, every entry)");
    app.update_controller(|c| c.dialog_option("stronger"));
    fits.check(&app, "status: the level changed");
    app.update_controller(|c| {
        c.action(Action::Menu);
        c.dialog_option("switch");
    });
    fits.check(&app, "status: sides switched");
    // Every reason a game is not rated, beside "You" (the longest in German).
    {
        use chesspi::app::session::game::Unrated;
        for why in [
            Unrated::Coach,
            Unrated::PlayedOn,
            Unrated::SetUp,
            Unrated::Changed,
            Unrated::Assist,
        ] {
            app.update_controller(|c| {
                c.start(you(Color::White, 4), Game::new());
                c.session_mut().set_unrated(why);
            });
            fits.check(&app, &format!("player line: not rated ({why:?})"));
        }
    }
    app.update_controller(|c| {
        c.set_settings_view(SettingsView {
            brightness_percent: Some(100),
            dim_after: Some(Some(Duration::from_secs(600))),
            language: lang,
            volume: chesspi::sound::Volume::nearest(100),
            speak_moves: chesspi::sound::SpeakMoves::Opponent,
            speaker: chesspi::sound::SpeakerState::Ready,
            assist: chesspi_engine::coach::AssistLimit::new(6).expect("6 touches"),
            ..SettingsView::default()
        });
        c.action(Action::Menu);
        c.dialog_option("settings");
    });
    fits.check(&app, "settings (as on the device, Assist: 6 touches)");
    // Assist's other values: one touch, and off (below).
    app.update_controller(|c| {
        c.set_settings_view(SettingsView {
            brightness_percent: Some(100),
            dim_after: Some(Some(Duration::from_secs(600))),
            language: lang,
            assist: chesspi_engine::coach::AssistLimit::new(1).expect("1 touch"),
            ..SettingsView::default()
        });
        c.action(Action::Menu);
        c.dialog_option("settings");
    });
    fits.check(&app, "settings (Assist: 1 touch)");
    app.update_controller(|c| {
        c.set_settings_view(SettingsView {
            brightness_percent: None,
            dim_after: Some(None),
            language: lang,
            volume: chesspi::sound::Volume::MUTE,
            speak_moves: chesspi::sound::SpeakMoves::All,
            speaker: chesspi::sound::SpeakerState::Missing,
            ..SettingsView::default()
        });
        c.action(Action::Menu);
        c.dialog_option("settings");
    });
    fits.check(&app, "settings (never dims, brightness elsewhere)");
    app.update_controller(|c| c.dialog_option("about"));
    fits.check(&app, "about");
    // Help: every paragraph, scrolled or not, at the page's width.
    app.update_controller(|c| {
        c.action(Action::Menu);
        c.dialog_option("help");
    });
    fits.check(&app, "help");
    app.update_controller(|c| c.on(chesspi::app::screens::help::Help::close));
    app.update_controller(|c| {
        c.action(Action::Menu);
        c.dialog_option("stats");
    });
    fits.check(&app, "your record (not kept)");
    app.update_controller(|c| {
        let levels = (1..=10)
            .map(|n| {
                let level = Level::new(n).expect("a level");
                chesspi::storage::stats::LevelRecord {
                    level,
                    level_elo: level.elo(),
                    record: chesspi::storage::stats::Record {
                        wins: 123,
                        draws: 45,
                        losses: 678,
                    },
                }
            })
            .collect();
        let summary = chesspi::storage::stats::StatsSummary {
            rating: 2345,
            glicko: chesspi::storage::Stats::new().glicko(),
            provisional: true,
            rated_games: 8460,
            levels,
            total: chesspi::storage::stats::Record {
                wins: 1230,
                draws: 450,
                losses: 6780,
            },
            people: chesspi::storage::stats::Record {
                wins: 321,
                draws: 54,
                losses: 876,
            },
        };
        let text = chesspi::app::screens::dialogs::record::record_text(&summary);
        c.go(Go::Info {
            title: chesspi::tr!("Your record"),
            message: text.to_string(),
        });
    });
    fits.check(&app, "your record (all ten levels)");
    app.update_controller(|c| {
        c.dialog_option("close");
        c.action(Action::Menu);
        c.dialog_option("shutdown");
    });
    fits.check(&app, "confirm shut down");
}

fn new_game_states(fits: &mut Fits) {
    let lang = fits.language;
    let app = open(Game::new(), you(Color::White, 4), lang);
    app.update_controller(|c| {
        c.player_mut().set_fitting_level(Level::new(10));
        c.action(Action::NewGame);
    });
    for n in 1..=10 {
        app.update_controller(|c| {
            c.on(|f: &mut NewGameForm, _| f.choose_level(Level::new(n).expect("a level")))
        });
        fits.check(&app, &format!("new game: computer, level {n}"));
    }
    for preset in 0..chesspi::app::model::clock::TimeControl::PRESETS.len() {
        app.update_controller(|c| c.on(|f: &mut NewGameForm, _| f.choose_preset(Some(preset))));
        fits.check(&app, &format!("new game: computer, clock preset {preset}"));
    }
    for (mode, host) in [
        ("computer", None),
        ("friend", None),
        ("demo", None),
        ("network", Some(true)),
        ("network", Some(false)),
    ] {
        let name = match host {
            Some(true) => "network, host".to_string(),
            Some(false) => "network, join".to_string(),
            None => mode.to_string(),
        };
        app.update_controller(|c| {
            c.on(|f: &mut NewGameForm, _| f.choose_mode(mode));
            if let Some(host) = host {
                c.on(|f: &mut NewGameForm, _| f.choose_network(host));
            }
            c.on(|f: &mut NewGameForm, _| f.choose_preset(None));
        });
        fits.check(&app, &format!("new game: {name}"));
        app.update_controller(|c| c.on(|f: &mut NewGameForm, _| f.step_custom(200, 100)));
        fits.check(&app, &format!("new game: {name}, custom clock 180+60"));
    }
    app.update_controller(|c| {
        c.on(|f: &mut NewGameForm, _| f.choose_mode("computer"));
        let fits = c.player().fitting_level();
        c.on(|f: &mut NewGameForm, _| f.choose_fitting_level(fits));
    });
    fits.check(&app, "new game: the level that fits (10)");
    for mode in ["computer", "friend"] {
        app.update_controller(|c| {
            c.on(|f: &mut NewGameForm, _| f.choose_mode(mode));
            let default = c.settings().coach;
            c.on(|f: &mut NewGameForm, _| f.toggle_coach(default));
        });
        let on = app.with_controller(|c| c.shown::<NewGameForm>().is_some_and(|f| f.coach.is_on()));
        fits.check(
            &app,
            &format!("new game: {mode}, coach {}", if on { "on" } else { "off" }),
        );
    }

    // Players with the longest names (24 wide letters), seated, and all eight in the
    // Players dialog.
    let mut roster = chesspi::storage::players::Roster::default();
    roster
        .rename(chesspi::storage::players::PlayerId::FIRST, &"W".repeat(24))
        .expect("name");
    for n in 1..chesspi::storage::players::MAX_PLAYERS {
        roster
            .add(&format!("{}{n}", "Ä".repeat(23)))
            .expect("a player");
    }
    app.update_controller(|c| {
        c.player_mut().set_roster(roster);
        c.on(|f: &mut NewGameForm, _| f.choose_mode("friend"));
        c.on(|f: &mut NewGameForm, cx| f.choose_player(cx, 1));
        c.on(|f: &mut NewGameForm, cx| f.choose_player(cx, 0));
        c.on(|f: &mut NewGameForm, cx| f.choose_player(cx, 0));
    });
    fits.check(&app, "new game: two players with long names");
    app.update_controller(|c| c.on(|f: &mut NewGameForm, _| f.choose_mode("computer")));
    fits.check(&app, "new game: a player with a long name");
    app.update_controller(|c| c.on(|f: &mut NewGameForm, cx| f.choose_player(cx, 0)));
    fits.check(&app, "new game: a guest, not rated");
    app.update_controller(|c| {
        c.on(NewGameForm::cancel);
        c.go(chesspi::app::screens::Go::Players);
    });
    fits.check(&app, "who is playing: eight players with long names");
    app.update_controller(|c| {
        c.dialog_option("close");
        c.action(Action::NewGame);
    });

    // The custom clock's game: both clocks at 3:00:00.
    app.update_controller(|c| {
        c.on(|f: &mut NewGameForm, _| f.choose_mode("computer"));
        c.on(|f: &mut NewGameForm, _| f.step_custom(200, 100));
        c.on(NewGameForm::start);
    });
    fits.check(&app, "clock 180+60 at 3:00:00");
}

/// A legal game of at least `plies` half-moves that has not ended: moves chosen by a fixed
/// sequence, avoiding captures where there is a choice (so material stays).
fn long_game(plies: usize) -> Game {
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    'attempt: loop {
        let mut g = Game::new();
        while g.moves().len() < plies {
            let moves = g.position().legal_moves();
            let quiet: Vec<_> = moves
                .iter()
                .copied()
                .filter(|m| g.position().piece_at(m.to()).is_none())
                .collect();
            let pick = if quiet.is_empty() {
                moves.iter().copied().collect::<Vec<_>>()
            } else {
                quiet
            };
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let Some(&mv) = pick.get((seed % pick.len().max(1) as u64) as usize) else {
                continue 'attempt;
            };
            if g.play(mv).is_err() || g.is_over() {
                continue 'attempt;
            }
        }
        return g;
    }
}

fn saved_games_states(fits: &mut Fits) {
    let lang = fits.language;
    let state = std::env::temp_dir().join(format!(
        "chesspi-text-fits-{}-{}",
        std::process::id(),
        lang.code()
    ));
    std::fs::create_dir_all(&state).expect("state dir");

    // None yet.
    let (stores, _) = chesspi::app::saving::Stores::open(&state);
    let app = open(Game::new(), GameSetup::FIRST_START, lang);
    app.enable_saving(stores, None).expect("saving");
    pump_until("the first save", || app.is_saved());
    app.update_controller(|c| {
        c.action(Action::Menu);
        c.dialog_option("games");
    });
    let games = app.window().global::<GamesAdapter>();
    pump_until("the list", || games.get_message() != games_reading());
    fits.check(&app, "saved games: none yet");
    // From USB stick: the longest file names a dialog button takes.
    games.set_can_import(true);
    app.update_controller(|c| {
        c.go(Go::Dialog(Dialog::UsbFiles(vec![
            "SCHACHCLUB-2026/Vereinsmeisterschaft-Runde-07.pgn".to_string(),
            "KINGSTON/games.pgn".to_string(),
        ])))
    });
    fits.check(&app, "saved games: from a USB stick");
    drop(app);

    let archive = chesspi::storage::Archive::open(&state).expect("archive");
    let long = long_game(240);
    let long_san = chesspi_engine::san::moves_to_san(&Position::startpos(), long.moves());
    let movetext = long_san
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| format!("{}. {}", i + 1, pair.join(" ")))
        .collect::<Vec<_>>()
        .join(" ");
    let tags = |white: &str, black: &str, result: &str, mode: &str, extra: &str, t: u32| {
        format!(
            "[Event \"ChessPI game\"]\n[Date \"2026.11.2{t}\"]\n[UTCTime \"1{t}:05:00\"]\n\
             [White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
             [ChessPIMode \"{mode}\"]\n{extra}"
        )
    };
    let computer = "[ChessPILevel \"10\"]\n[ChessPIHuman \"white\"]\n";
    let lan_white =
        "[ChessPILocal \"white\"]\n[ChessPIPeer \"Wohnzimmer-Schachbrett Großvater\"]\n";
    let lan_black =
        "[ChessPILocal \"black\"]\n[ChessPIPeer \"Wohnzimmer-Schachbrett Großvater\"]\n";
    let pgn = [
        format!(
            "{}[Termination \"draw by fivefold repetition\"]\n\n{movetext} 1/2-1/2\n",
            tags("You", PARTNER, "1/2-1/2", "lan", lan_white, 1)
        ),
        format!(
            "{}[Termination \"draw by insufficient material\"]\n\n{movetext} 1/2-1/2\n",
            tags(
                "You",
                "ChessPI level 10 (~2390)",
                "1/2-1/2",
                "vs-computer",
                computer,
                2
            )
        ),
        format!(
            "{}[Termination \"time forfeit\"]\n\n{movetext} 0-1\n",
            tags("You", PARTNER, "0-1", "lan", lan_white, 3)
        ),
        format!(
            "{}\n{movetext} *\n",
            tags(PARTNER, "You", "*", "lan", lan_black, 4)
        ),
        format!(
            "{}[Termination \"abandonment\"]\n\n{movetext} 1-0\n",
            tags("White", "Black", "1-0", "computer-vs-computer", "", 5)
        ),
        format!(
            "{}[Termination \"draw by the 75-move rule\"]\n\n{movetext} 1/2-1/2\n",
            tags("White", "Black", "1/2-1/2", "two-players", "", 6)
        ),
    ]
    .join("\n");
    let report = archive.import_pgn(&pgn).expect("import");
    assert_eq!(report.imported.len(), 6, "{report:?}");
    drop(archive);

    let (stores, _) = chesspi::app::saving::Stores::open(&state);
    let app = open(Game::new(), GameSetup::FIRST_START, lang);
    app.enable_saving(stores, None).expect("saving");
    pump_until("the first save", || app.is_saved());
    app.update_controller(|c| {
        c.action(Action::Menu);
        c.dialog_option("games");
    });
    let games = app.window().global::<GamesAdapter>();
    pump_until("the list", || games.get_games().row_count() >= 6);
    fits.check(&app, "saved games: six games, long names");
    // As with a USB stick in: the export button's words.
    games.set_can_export(true);
    fits.check(&app, "saved games: six games, a USB stick");
    // The adjourned network game: its choices, then deleting it.
    let adjourned = games
        .get_games()
        .iter()
        .find(|g| g.result == chesspi::tr!("Adjourned"))
        .expect("the adjourned game");
    app.update_controller(|c| {
        c.go(Go::Dialog(Dialog::SavedGame(SavedGameChoice {
            id: adjourned.id.to_string(),
            title: adjourned.title.to_string(),
            unfinished: true,
            readable: true,
        })))
    });
    fits.check(&app, "saved game: its choices (unfinished)");
    app.update_controller(|c| c.dialog_option("delete"));
    fits.check(&app, "saved game: confirm delete");
    app.update_controller(|c| {
        c.go(Go::Dialog(Dialog::SavedGame(SavedGameChoice {
            id: "x".into(),
            title: chesspi::tr!("Damaged file"),
            unfinished: false,
            readable: false,
        })))
    });
    fits.check(&app, "saved game: a damaged file's choices");
    drop(app);
    let _ = std::fs::remove_dir_all(&state);
}

fn games_reading() -> slint::SharedString {
    chesspi::tr!("Reading the saved games…").into()
}

fn network_states(fits: &mut Fits) {
    let lang = fits.language;
    assert_eq!(PARTNER.chars().count(), 32);
    assert_eq!(DEVICE.chars().count(), 32);
    let app = open(Game::new(), GameSetup::FIRST_START, lang);
    app.enable_network(chesspi::config::LanConfig {
        name: Some(DEVICE.into()),
        port: 0,
        listen: vec![std::net::Ipv4Addr::LOCALHOST.into()],
        discovery: false,
        interfaces: Vec::new(),
        code: chesspi::config::PairingCode::Fixed("4821".into()),
        adjourn_after: chesspi::config::DEFAULT_ADJOURN_AFTER,
    });
    app.update_controller(|c| {
        c.go(Go::Lobby {
            host: Some(Color::White),
            clock: None,
        })
    });
    pump_until("hosting", || !app.network_addrs().is_empty());
    app.update_controller(|c| {
        c.on(|l: &mut Lobby, _| l.hosting(DEVICE, "4821", &long_addresses()))
    });
    fits.check(&app, "network: hosting");
    // The hotspot for a game without a router: opening, open (name and password), failed.
    {
        use chesspi::wifi::worker::WifiReport;
        use chesspi::wifi::{JoinError, WifiState, hotspot_ssid};
        // The Wi-Fi thread's look: a radio is here.
        let radio = || WifiReport::Looked {
            state: WifiState::Disconnected,
            networks: Ok(Vec::new()),
        };
        app.update_controller(|c| {
            c.allow(Allow::Wifi);
            c.wifi_report(radio());
            c.on(|l: &mut Lobby, cx| l.option(cx, "hotspot"));
        });
        fits.check(&app, "network: hosting, the hotspot opening");
        app.update_controller(|c| {
            c.wifi_report(WifiReport::HotspotOpened {
                ssid: hotspot_ssid(DEVICE),
                result: Ok(WifiState::Disconnected),
            })
        });
        fits.check(&app, "network: hosting with a hotspot");
        app.update_controller(|c| {
            c.on(|l: &mut Lobby, cx| l.option(cx, "cancel"));
            c.go(Go::Lobby {
                host: Some(Color::White),
                clock: None,
            });
            // With the addresses to type: a failed hotspot leaves them to the guest.
            c.on(|l: &mut Lobby, _| l.hosting(DEVICE, "4821", &long_addresses()));
            c.wifi_report(radio());
            c.on(|l: &mut Lobby, cx| l.option(cx, "hotspot"));
            c.wifi_report(WifiReport::HotspotOpened {
                ssid: hotspot_ssid(DEVICE),
                result: Err(JoinError::Failed(
                    "Connection activation failed: (53) The Wi-Fi network could not be found"
                        .into(),
                )),
            })
        });
        fits.check(&app, "network: hosting, the hotspot failed");
        app.update_controller(|c| {
            c.on(|l: &mut Lobby, cx| l.option(cx, "cancel"));
            c.go(Go::Lobby {
                host: Some(Color::White),
                clock: None,
            });
        });
        pump_until("hosting again", || !app.network_addrs().is_empty());
        app.update_controller(|c| {
            c.on(|l: &mut Lobby, _| l.hosting(DEVICE, "4821", &long_addresses()))
        });
    }
    app.update_controller(|c| {
        c.on(|l: &mut Lobby, cx| l.option(cx, "cancel"));
        c.action(Action::NewGame);
        c.on(|f: &mut NewGameForm, _| f.choose_mode("network"));
        c.on(|f: &mut NewGameForm, _| f.choose_network(false));
        c.on(NewGameForm::start);
    });
    fits.check(&app, "network: join (no discovery)");
    app.update_controller(|c| {
        c.on(|l: &mut Lobby, _| l.found(four_hosts()));
    });
    fits.check(&app, "network: four hosts");
    // Two hosts and two hotspots (the longest names), then a hotspot's password.
    {
        use chesspi::wifi::worker::WifiReport;
        use chesspi::wifi::{Network, Security, WifiState, hotspot_ssid};
        app.update_controller(|c| {
            c.on(Lobby::keypad_cancel);
            c.on(|l: &mut Lobby, cx| l.option(cx, "cancel"));
            c.action(Action::NewGame);
            c.on(|f: &mut NewGameForm, _| f.choose_mode("network"));
            c.on(|f: &mut NewGameForm, _| f.choose_network(false));
            c.on(NewGameForm::start);
            c.on(|l: &mut Lobby, _| {
                l.found(
                    [PARTNER, DEVICE]
                        .iter()
                        .map(|name| HostEntry {
                            name: name.to_string(),
                            host_colour: Some(Color::White),
                            target: "127.0.0.1:9".to_string(),
                        })
                        .collect(),
                )
            });
            let hotspot = |name: &str| Network {
                ssid: hotspot_ssid(name),
                strength: 60,
                security: Security::Password,
                known: false,
                active: false,
            };
            c.wifi_report(WifiReport::Looked {
                state: WifiState::Disconnected,
                networks: Ok(vec![hotspot(PARTNER), hotspot("Küchentisch")]),
            });
        });
        fits.check(&app, "network: two hosts and two hotspots");
        app.update_controller(|c| c.on(|l: &mut Lobby, cx| l.option(cx, "hotspot:2")));
        fits.check(&app, "network: keypad for a hotspot's password");
        app.update_controller(|c| {
            for k in "12345678".chars() {
                c.on(|l: &mut Lobby, _| l.key(&k.to_string()));
            }
        });
        fits.check(&app, "network: keypad, hotspot password typed");
        app.update_controller(|c| {
            c.on(Lobby::keypad_cancel);
            // The four hosts again, for the steps below.
            c.on(|l: &mut Lobby, _| l.found(four_hosts()));
        });
    }
    app.update_controller(|c| c.on(|l: &mut Lobby, cx| l.option(cx, "host:0")));
    fits.check(&app, "network: keypad for a code");
    app.update_controller(|c| {
        for k in ["4", "8", "2", "1"] {
            c.on(|l: &mut Lobby, _| l.key(k));
        }
    });
    fits.check(&app, "network: keypad, code typed");
    app.update_controller(|c| c.on(Lobby::submit));
    fits.check(&app, "network: connecting");
    pump_until("the refusal", || {
        app.window()
            .global::<DialogAdapter>()
            .get_message()
            .contains('(')
    });
    fits.check(&app, "network: not reachable");
    app.update_controller(|c| {
        c.on(|l: &mut Lobby, cx| l.refused(cx, Some(chesspi::lan::codec::ErrorCode::Version), ""));
    });
    fits.check(&app, "network: refused (another version)");
    app.update_controller(|c| {
        c.dialog_option("close");
        c.go(Go::Join {
            target: "127.0.0.1:9".to_string(),
            code: None,
        });
        c.on(Lobby::keypad_cancel);
        c.on(|l: &mut Lobby, cx| l.option(cx, "address"));
        for k in "255.255.255.255:65535".chars() {
            c.on(|l: &mut Lobby, _| l.key(&k.to_string()));
        }
    });
    fits.check(&app, "network: keypad, the longest address");
    app.update_controller(|c| {
        for _ in 0..21 {
            c.on(|l: &mut Lobby, _| l.key("⌫"));
        }
        for k in "1.2.3".chars() {
            c.on(|l: &mut Lobby, _| l.key(&k.to_string()));
        }
        c.on(Lobby::submit);
    });
    fits.check(&app, "network: keypad, not an address");
    app.update_controller(|c| {
        c.on(Lobby::keypad_cancel);
        c.on(|l: &mut Lobby, cx| l.option(cx, "cancel"));
        c.part(|p: &mut PartnerGame, cx| {
            p.paired(
                cx,
                PARTNER,
                Color::White,
                game("e2e4"),
                chesspi::storage::LanLink {
                    game_id: "5d41402abc4b2a76".into(),
                    host: Some("192.168.178.123:47531".into()),
                    peer_rating: None,
                },
                Some(chesspi::lan::session::LanClock::new(
                    Duration::from_secs(3 * 3600),
                    Duration::from_secs(60),
                )),
            )
        });
    });
    fits.check(&app, "network game: the partner thinking, 3-hour clocks");
    app.update_controller(|c| {
        c.part(|p: &mut PartnerGame, cx| p.offered(cx, chesspi::lan::codec::OfferKind::Takeback))
    });
    fits.check(&app, "network game: the partner asks for a takeback");
    app.update_controller(|c| {
        c.part(|p: &mut PartnerGame, cx| p.offered(cx, chesspi::lan::codec::OfferKind::Draw))
    });
    fits.check(&app, "network game: the partner offers a draw");
    app.update_controller(|c| {
        c.part(|p: &mut PartnerGame, cx| p.offers_cleared(cx));
        c.action(Action::ResignOrDraw);
        c.dialog_option("resign");
    });
    fits.check(&app, "confirm resign (network)");
    app.update_controller(|c| {
        c.dialog_option("cancel");
        c.part(|p: &mut PartnerGame, cx| p.link(cx, chesspi::lan::session::LinkState::Lost));
    });
    fits.check(&app, "network game: connection lost");
    app.update_controller(|c| {
        c.part(|p: &mut PartnerGame, cx| {
            p.away_check(cx, Instant::now() + Duration::from_secs(3600))
        });
    });
    fits.check(&app, "network game: adjourn?");
    app.update_controller(|c| {
        c.dialog_option("wait");
        c.action(Action::Menu);
    });
    fits.check(&app, "menu (network game, adjourn)");
    app.update_controller(|c| {
        c.dialog_option("close");
        c.part(|p: &mut PartnerGame, cx| {
            p.link(cx, chesspi::lan::session::LinkState::Reconnecting)
        });
    });
    fits.check(&app, "network game: reconnecting");
    app.update_controller(|c| c.part(|p: &mut PartnerGame, cx| p.left(cx)));
    fits.check(&app, "network game: the partner left");
    app.update_controller(|c| {
        c.part(|p: &mut PartnerGame, cx| {
            p.game_over(
                cx,
                Outcome {
                    winner: Some(Color::Black),
                    termination: Termination::Abandonment,
                },
            )
        })
    });
    fits.check(&app, "network game: the partner wins");
    app.update_controller(|c| {
        c.part(|p: &mut PartnerGame, cx| {
            p.paired(
                cx,
                PARTNER,
                Color::White,
                game("e2e4"),
                chesspi::storage::LanLink {
                    game_id: "5d41402abc4b2a77".into(),
                    host: None,
                    peer_rating: None,
                },
                None,
            )
        });
        c.part(|p: &mut PartnerGame, cx| p.link(cx, chesspi::lan::session::LinkState::Lost));
        c.part(|p: &mut PartnerGame, cx| {
            p.game_over(
                cx,
                Outcome {
                    winner: Some(Color::White),
                    termination: Termination::Abandonment,
                },
            )
        });
    });
    assert_eq!(
        app.with_controller(|c| c.session().game().outcome().map(|o| o.winner)),
        Some(Some(Color::White))
    );
    fits.check(&app, "network game: won by forfeit");
}

fn editor_states(fits: &mut Fits) {
    use chesspi::app::screens::Editor;
    use chesspi::app::screens::editor::board::Tool;
    let lang = fits.language;
    let app = open(Game::new(), you(Color::White, 4), lang);
    let tap = |c: &mut chesspi::app::screens::Controller, name: &str| {
        let cell = c.game_view().cell_of(sq(name));
        c.on(|e: &mut Editor, cx| e.tap(cx, cell % 8, cell / 8));
    };
    app.update_controller(|c| c.go(Go::Editor));
    fits.check(&app, "editor: the start position");
    app.update_controller(|c| {
        c.on(|e: &mut Editor, _| {
            e.choose_tool(Tool::Piece(chesspi_engine::Piece::new(
                Color::White,
                chesspi_engine::Role::Queen,
            )))
        });
        tap(c, "d4");
        // Sixteen pieces, but a second queen with all eight pawns on the board.
        c.on(|e: &mut Editor, _| {
            e.choose_tool(Tool::Piece(chesspi_engine::Piece::new(
                Color::White,
                chesspi_engine::Role::Knight,
            )))
        });
        tap(c, "b1");
        c.on(|e: &mut Editor, _| e.done());
    });
    fits.check(&app, "editor: more pieces than promotions allow");
    app.update_controller(|c| {
        c.on(|e: &mut Editor, _| e.clear());
        c.on(|e: &mut Editor, _| e.done());
    });
    fits.check(&app, "editor: no king, no castling");
    app.update_controller(|c| {
        c.on(|e: &mut Editor, _| e.start_position());
        c.on(|e: &mut Editor, _| e.done());
    });
    fits.check(&app, "editor: ready to play");
}

/// The coach's warnings: a hanging piece, and the longest sentence (a skewer, in German),
/// each with "Show me"; Settings with the coach's longest setting.
fn coach_states(fits: &mut Fits) {
    let lang = fits.language;
    for (name, fen, human, from, to) in [
        (
            "hangs",
            "r1bqkbnr/pppp1ppp/8/4p3/2BnP3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            Color::White,
            "f3",
            "g5",
        ),
        (
            "skewer",
            "r7/7p/8/2k5/8/8/8/1B4K1 b - - 0 1",
            Color::Black,
            "c5",
            "c6",
        ),
    ] {
        let app = open(from_fen(fen), you(human, 4), lang);
        app.update_controller(|c| {
            c.set_settings_view(SettingsView {
                coach: CoachLevel::Mistakes,
                ..SettingsView::default()
            });
            c.session_mut().set_coach_level(CoachLevel::Mistakes);
        });
        tap_move(&app, from, to);
        pump_until("the coach's warning", || {
            app.with_controller(|c| c.session().coach().advice().is_some())
        });
        fits.check(&app, &format!("coach: {name}"));
        app.update_controller(|c| c.action(Action::ShowMe));
        fits.check(&app, &format!("coach: {name}, show me"));
        app.update_controller(|c| {
            c.action(Action::Menu);
            c.dialog_option("settings");
        });
        fits.check(&app, "settings: coach warns of mistakes");
    }
}

/// Train: no puzzles yet, a puzzle (a blunder), then solved and failed tries.
/// Four hosts with long names; nothing listens at their address: joining is refused at once.
fn four_hosts() -> Vec<HostEntry> {
    [
        (PARTNER, Some(Color::White)),
        (DEVICE, Some(Color::Black)),
        // Just over and just under the label's length for the smaller size.
        ("Küchentisch im Garten", Some(Color::Black)),
        ("Opas Schachbrett", Some(Color::White)),
    ]
    .iter()
    .map(|&(name, host_colour)| HostEntry {
        name: name.to_string(),
        host_colour,
        target: "127.0.0.1:9".to_string(),
    })
    .collect()
}

fn wifi_states(fits: &mut Fits) {
    use chesspi::app::screens::wifi::WifiScreen;
    use chesspi::wifi::worker::WifiReport;
    use chesspi::wifi::{JoinError, Network, Security, Ssid, WifiState};
    let lang = fits.language;
    let app = open(Game::new(), you(Color::White, 4), lang);
    // The longest name a network may have, and the longest words of the screen.
    let long = Ssid::new("W".repeat(32)).expect("a name");
    let network = |ssid: &Ssid, security, known, active| Network {
        ssid: ssid.clone(),
        strength: 50,
        security,
        known,
        active,
    };
    app.update_controller(|c| {
        c.allow(Allow::Wifi);
        c.go(Go::Wifi);
        c.wifi_report(WifiReport::Looked {
            state: WifiState::Connected {
                ssid: long.clone(),
                address: Some("fd12:3456:789a:1:abcd:ef01:2345:6789".parse().expect("ip")),
            },
            networks: Ok(vec![
                network(&long, Security::Password, true, true),
                network(
                    &Ssid::new("Saved").unwrap(),
                    Security::Password,
                    true,
                    false,
                ),
                network(
                    &Ssid::new("Office").unwrap(),
                    Security::Unsupported,
                    false,
                    false,
                ),
                network(&Ssid::new("Open").unwrap(), Security::Open, false, false),
                network(&Ssid::new("New").unwrap(), Security::Password, false, false),
            ]),
        });
        c.on(|w: &mut WifiScreen, cx| w.tap_row(cx, 2));
    });
    fits.check(&app, "wifi: the list, an enterprise network explained");
    app.update_controller(|c| c.on(|w: &mut WifiScreen, cx| w.tap_row(cx, 0)));
    fits.check(&app, "wifi: the current network chosen");
    app.update_controller(|c| {
        c.on(|w: &mut WifiScreen, cx| w.button(cx, "back"));
        c.on(|w: &mut WifiScreen, cx| w.tap_row(cx, 4));
        c.on(|w: &mut WifiScreen, _| w.key("c:x"));
        c.on(|w: &mut WifiScreen, cx| w.button(cx, "submit"));
    });
    fits.check(&app, "wifi: a password too short");
    app.update_controller(|c| {
        c.on(|w: &mut WifiScreen, cx| w.button(cx, "show"));
        c.on(|w: &mut WifiScreen, _| w.key("symbols"));
    });
    fits.check(&app, "wifi: symbols, password shown");
    for error in [
        JoinError::WrongPassword,
        JoinError::Timeout,
        JoinError::Failed("Connection activation failed: (7) Secrets were required".into()),
    ] {
        app.update_controller(|c| {
            for _ in 0..8 {
                c.on(|w: &mut WifiScreen, _| w.key("c:x"));
            }
            c.on(|w: &mut WifiScreen, cx| w.button(cx, "submit"));
            c.wifi_report(WifiReport::Joined {
                ssid: Ssid::new("New").unwrap(),
                result: Err(error.clone()),
            });
        });
        fits.check(&app, &format!("wifi: join failed ({error:?})"));
        app.update_controller(|c| {
            c.on(|w: &mut WifiScreen, cx| w.button(cx, "back"));
            c.on(|w: &mut WifiScreen, cx| w.tap_row(cx, 4));
        });
    }
    for state in [
        WifiState::NoManager("no bus".into()),
        WifiState::NoRadio,
        WifiState::Off,
    ] {
        app.update_controller(|c| {
            c.on(|w: &mut WifiScreen, cx| w.button(cx, "back"));
            c.wifi_report(WifiReport::Looked {
                state: state.clone(),
                networks: Ok(Vec::new()),
            });
        });
        fits.check(&app, &format!("wifi: {state:?}"));
    }
}

fn train_states(fits: &mut Fits) {
    use chesspi::app::screens::train::Training;
    use chesspi::storage::puzzles::{Puzzle, PuzzleBook};
    let lang = fits.language;
    let app = open(Game::new(), you(Color::White, 4), lang);
    app.update_controller(|c| c.go(Go::Train));
    fits.check(&app, "train: no puzzles yet");
    let pos = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
        .expect("fen");
    let mv = |uci: &str| pos.parse_uci_move(uci).expect("move");
    let puzzle =
        Puzzle::new(pos, mv("d8g5"), mv("b8c6"), true, "game", "2026.11.26", 0).expect("a puzzle");
    for (name, from, to) in [("solved", "b8", "c6"), ("failed", "d8", "g5")] {
        let mut book = PuzzleBook::new();
        book.add(puzzle.clone());
        app.update_controller(|c| {
            c.player_mut().set_puzzles(book);
            c.on(|t: &mut Training, cx| t.button(cx, "done"));
            c.go(Go::Train);
        });
        fits.check(&app, "train: a blunder to find");
        let flipped = app.with_controller(|c| {
            c.shown::<Training>()
                .map(|t| t.view(c.player().puzzles()))
                .is_some_and(|v| v.flipped)
        });
        for name in [from, to] {
            let (x, y) = square_center(sq(name), flipped);
            headless::tap(x, y).expect("tap");
        }
        pump_until("the try's verdict", || {
            app.with_controller(|c| {
                c.shown::<Training>()
                    .map(|t| t.view(c.player().puzzles()))
                    .is_some_and(|v| v.solved.is_some())
            })
        });
        fits.check(&app, &format!("train: {name}"));
    }
}

fn analysis_states(fits: &mut Fits) {
    let lang = fits.language;
    let app = open(game("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"), FRIENDS, lang);
    app.update_controller(|c| c.go(Go::AnalysisBoard));
    pump_until("the analysis board's search", || {
        app.with_controller(|c| c.shown::<Session>().is_some_and(Session::finished))
    });
    fits.check(&app, "analysis board");

    // Legal's mate analysed.
    let app = open(
        game("e2e4 e7e5 g1f3 d7d6 f1c4 c8g4 b1c3 g7g6 f3e5 g4d1 c4f7 e8e7 c3d5"),
        FRIENDS,
        lang,
    );
    app.update_controller(|c| c.action(Action::Analyse));
    let adapter = app.window().global::<chesspi::app::ui::AnalysisAdapter>();
    pump_until("the analysis", || !adapter.get_running());
    fits.check(&app, "analysis of a game");
    app.update_controller(|c| c.action(Action::NextMistake));
    fits.check(&app, "analysis: the next mistake");
}

/// Settings → Players with as many players as a device may have, each name 24 wide letters
/// (the longest): the list, the name page with each refusal in words, the accented capitals,
/// and the removal's confirmation.
fn players_states(fits: &mut Fits) {
    use chesspi::app::screens::players::PlayersScreen;
    use chesspi::storage::players::{MAX_NAME_CHARS, MAX_PLAYERS};
    let lang = fits.language;
    let app = open(Game::new(), you(Color::White, 4), lang);
    let type_name = |c: &mut chesspi::app::screens::Controller, name: &str| {
        for _ in 0..MAX_NAME_CHARS {
            c.on(|p: &mut PlayersScreen, cx| p.key(cx, "delete"));
        }
        c.on(|p: &mut PlayersScreen, cx| p.key(cx, "shift"));
        c.on(|p: &mut PlayersScreen, cx| p.key(cx, "shift"));
        for ch in name.chars() {
            c.on(|p: &mut PlayersScreen, cx| p.key(cx, &format!("c:{ch}")));
        }
        c.on(|p: &mut PlayersScreen, cx| p.key(cx, "shift"));
    };
    app.update_controller(|c| {
        c.go(Go::PlayersScreen);
        // Player 1 becomes the first long name.
        c.on(|p: &mut PlayersScreen, cx| p.button(cx, "rename"));
        type_name(c, &format!("{}1", "W".repeat(MAX_NAME_CHARS - 1)));
        c.on(|p: &mut PlayersScreen, cx| p.button(cx, "ok"));
        for i in 2..=MAX_PLAYERS {
            c.on(|p: &mut PlayersScreen, cx| p.button(cx, "add"));
            type_name(c, &format!("{}{i}", "W".repeat(MAX_NAME_CHARS - 1)));
            c.on(|p: &mut PlayersScreen, cx| p.button(cx, "ok"));
        }
        c.on(|p: &mut PlayersScreen, _| p.tap_row(MAX_PLAYERS - 1));
    });
    fits.check(&app, "players: the most, the longest names, one added");
    app.update_controller(|c| {
        c.on(|p: &mut PlayersScreen, cx| p.button(cx, "rename"));
        type_name(c, &format!("{}1", "W".repeat(MAX_NAME_CHARS - 1)));
        c.on(|p: &mut PlayersScreen, cx| p.button(cx, "ok"));
    });
    fits.check(&app, "players: rename, a name taken");
    app.update_controller(|c| {
        type_name(c, "");
        c.on(|p: &mut PlayersScreen, cx| p.key(cx, "shift"));
        c.on(|p: &mut PlayersScreen, cx| p.key(cx, "accents"));
        c.on(|p: &mut PlayersScreen, cx| p.button(cx, "ok"));
    });
    fits.check(&app, "players: no name, the accented capitals");
    app.update_controller(|c| {
        c.on(|p: &mut PlayersScreen, cx| p.button(cx, "cancel"));
        c.on(|p: &mut PlayersScreen, cx| p.button(cx, "remove"));
    });
    fits.check(&app, "players: confirm remove");
    app.update_controller(|c| {
        c.dialog_option("remove");
        c.on(|p: &mut PlayersScreen, _| p.tap_row(MAX_PLAYERS - 1));
    });
    fits.check(&app, "players: one removed, the guest chosen");
}

/// Endgames: the list's pages (with a lesson passed and one tried), every lesson's start, and
/// the verdicts, the longest ones played out against the real computer.
fn endgames_states(fits: &mut Fits) {
    use chesspi::app::screens::endgames::{Endgames, EndgamesView};
    use chesspi_engine::endgame::{best_move, lessons::LESSONS};
    let lang = fits.language;
    let app = open(Game::new(), you(Color::White, 4), lang);
    let mut progress = chesspi::storage::endgames::EndgameProgress::default();
    progress.record("krk-2", true, 14);
    progress.record("kpk-1", false, 3);
    progress.record("kpk-1", false, 3);
    app.update_controller(|c| {
        c.player_mut().set_endgames(progress);
        c.go(Go::Endgames);
    });
    fits.check(&app, "endgames: the list");
    app.update_controller(|c| c.on(|e: &mut Endgames, cx| e.button(cx, "next")));
    fits.check(&app, "endgames: the list's second page");
    let lesson_done = |app: &App| {
        app.with_controller(|c| {
            c.shown::<Endgames>()
                .map(|e| e.view(c.player().endgames()))
                .is_some_and(|v| matches!(v, EndgamesView::Lesson(l) if !l.thinking))
        })
    };
    let index = |id: &str| LESSONS.iter().position(|l| l.id == id).expect("a lesson");
    let choose = |app: &App, i: usize| {
        app.update_controller(|c| {
            c.on(|e: &mut Endgames, cx| e.button(cx, "lessons"));
            c.on(|e: &mut Endgames, cx| e.choose(cx, i));
        });
        pump_until("the tables", || lesson_done(app));
    };
    for (i, lesson) in LESSONS.iter().enumerate() {
        choose(&app, i);
        fits.check(&app, &format!("endgames: {}", lesson.id));
    }
    // Plays `uci` (or the tables' move when empty) on the lesson's board and waits.
    let play = |app: &App, uci: &str| {
        app.update_controller(|c| {
            let e = c.shown::<Endgames>().expect("open");
            let pos = e.position().expect("a lesson");
            let mv = if uci.is_empty() {
                best_move(&pos).expect("a move")
            } else {
                pos.parse_uci_move(uci).expect("legal")
            };
            let flipped = pos.turn() == Color::Black;
            for sq in [mv.from(), mv.to()] {
                let cell = chesspi::app::screens::board_view::display_cell(flipped, sq);
                c.on(|e: &mut Endgames, cx| e.tap(cx, cell % 8, cell / 8));
            }
            // A pawn reaching the last rank waits for the picker's piece.
            if let Some(role) = mv.promotion() {
                c.on(|e: &mut Endgames, cx| e.choose_promotion(cx, Some(role)));
            }
        });
        pump_until("the answer", || lesson_done(app));
    };
    let result = |app: &App| {
        app.with_controller(|c| {
            match c.shown::<Endgames>().map(|e| e.view(c.player().endgames())) {
                Some(EndgamesView::Lesson(l)) => l.result,
                _ => None,
            }
        })
    };
    choose(&app, index("krk-2"));
    play(&app, "a1a4");
    fits.check(&app, "endgames: under way");
    while result(&app).is_none() {
        play(&app, "");
    }
    fits.check(&app, "endgames: mated, the count judged");
    choose(&app, index("kqk-3"));
    play(&app, "b5b6");
    assert_eq!(result(&app), Some(false));
    fits.check(&app, "endgames: stalemate");
    choose(&app, index("kpk-3"));
    while result(&app).is_none() {
        play(&app, "");
    }
    assert_eq!(result(&app), Some(true));
    fits.check(&app, "endgames: the pawn queened");
    choose(&app, index("kpk-8"));
    let start = LESSONS[index("kpk-8")].position().expect("fen");
    let drawing = start
        .legal_moves()
        .iter()
        .copied()
        .find(|&mv| {
            chesspi_engine::endgame::probe(&start.play(mv).expect("legal"))
                == Some(chesspi_engine::endgame::Verdict::Draw)
        })
        .expect("a move that draws");
    play(&app, &drawing.to_uci());
    fits.check(&app, "endgames: the win thrown away");
}

fn notice_states(fits: &mut Fits) {
    let lang = fits.language;
    let app = open(
        game("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"),
        you(Color::White, 4),
        lang,
    );
    show_battery_event(&app, &BatteryEvent::LowWarning);
    fits.check(&app, "notice: battery low");
    show_battery_event(
        &app,
        &BatteryEvent::Changed(BatteryStatus::Fault(
            BatteryFault::InconsistentComparators {
                above_mv: 3700,
                not_above_mv: 3300,
            },
        )),
    );
    fits.check(&app, "notice: battery fault");
    show_battery_event(
        &app,
        &BatteryEvent::Critical {
            shutdown_in: Duration::from_secs(15),
        },
    );
    fits.check(&app, "notice: critical countdown");
    app.update_controller(|c| c.action(Action::NewGame));
    fits.check(&app, "notice: over the New game screen");
    app.update_controller(|c| c.on(NewGameForm::cancel));
    show_battery_event(
        &app,
        &BatteryEvent::ShutdownFailed(
            "systemctl poweroff exited with status 1: Access denied".into(),
        ),
    );
    fits.check(&app, "notice: the shutdown failed");
    show_battery_event(&app, &BatteryEvent::StillOn);
    fits.check(&app, "notice: still on after the shutdown");
}

/// The longest opening name the side panel shows in this language, played out.
fn opening_states(fits: &mut Fits) {
    use chesspi::app::screens::play::present::shorten_opening;
    let lang = fits.language;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("engine/data/openings");
    let mut lines = Vec::new();
    for file in ["a", "b", "c", "d", "e"] {
        let name = format!("{file}.tsv");
        let text = std::fs::read_to_string(dir.join(&name)).expect("the opening data");
        lines.extend(chesspi_engine::openings::tsv::parse_tsv(&name, &text).expect("tsv"));
    }
    let shown = |eco: &str, name: &str| {
        let o = chesspi_engine::openings::all()
            .find(|o| o.eco == eco && o.name == name)
            .expect("a named opening");
        shorten_opening(&match lang {
            Language::German => o.to_german_string(),
            _ => o.to_string(),
        })
    };
    let mut by_length: Vec<_> = lines.iter().map(|l| (shown(&l.eco, &l.name), l)).collect();
    by_length.sort_by_key(|(text, _)| std::cmp::Reverse(text.chars().count()));
    // The longest whose line names it when played (a transposition may name another).
    let mut done = 0;
    for (text, line) in by_length {
        let mut g = Game::new();
        for &mv in &line.moves {
            g.play(mv).expect("the line's move");
        }
        let app = open(g, FRIENDS, lang);
        if app.with_controller(|c| c.game_view().opening()).as_deref() != Some(text.as_str()) {
            continue;
        }
        fits.check(&app, &format!("opening: {text}"));
        done += 1;
        if done == 3 {
            break;
        }
    }
    assert_eq!(done, 3, "no long opening shown");
}

/// The variation shown longest in the current language: its family's English name, its shown
/// name, its full name.
fn longest_variation(lang: Language) -> (&'static str, String, &'static str) {
    use chesspi_engine::openings::lines;
    let mut best: Option<(&'static str, String, &'static str)> = None;
    for line in lines::lines() {
        let name = line.name();
        let Some((family, rest)) = name.split_once(": ") else {
            continue;
        };
        let variation = &name[..family.len() + 2 + rest.find(", ").unwrap_or(rest.len())];
        let full = match lang {
            Language::German => {
                chesspi_engine::openings::german::german_name(variation).into_owned()
            }
            _ => variation.to_string(),
        };
        let shown = full
            .split_once(": ")
            .map_or(full.clone(), |(_, v)| v.to_string());
        if best
            .as_ref()
            .is_none_or(|(_, b, _)| shown.chars().count() > b.chars().count())
        {
            best = Some((line.family(), shown, variation));
        }
    }
    best.expect("a variation")
}

fn openings_screen_states(fits: &mut Fits) {
    use chesspi::app::screens::openings::OpeningsScreen;
    use chesspi::app::ui::OpeningsAdapter;
    let lang = fits.language;
    let app = open(Game::new(), you(Color::White, 4), lang);
    let button =
        |id: &str| app.update_controller(|c| c.on(|o: &mut OpeningsScreen, cx| o.button(cx, id)));
    let rows = || -> Vec<String> {
        let adapter = app.window().global::<OpeningsAdapter>();
        adapter
            .get_rows()
            .iter()
            .map(|r| r.name.to_string())
            .collect()
    };
    let can_next = || app.window().global::<OpeningsAdapter>().get_can_next();
    app.update_controller(|c| c.go(Go::Openings));
    let (family, shown, variation) = longest_variation(lang);
    let family_shown = chesspi_engine::openings::lines::family(family)
        .expect("the family")
        .display_name(lang == Language::German);
    let mut page = 1;
    let mut found = None;
    loop {
        fits.check(&app, &format!("openings: families, page {page}"));
        if let Some(i) = rows().iter().position(|n| n == family_shown) {
            found = found.or(Some((page, i)));
        }
        if !can_next() {
            break;
        }
        button("next");
        page += 1;
    }
    let (family_page, i) = found.expect("the family listed");
    for _ in family_page..page {
        button("previous");
    }
    app.update_controller(|c| c.on(|o: &mut OpeningsScreen, _| o.tap_row(i)));
    let mut page = 1;
    let i = loop {
        fits.check(&app, &format!("openings: {family}, page {page}"));
        if let Some(i) = rows().iter().position(|n| *n == shown) {
            break i;
        }
        assert!(can_next(), "{variation} listed");
        button("next");
        page += 1;
    };
    app.update_controller(|c| c.on(|o: &mut OpeningsScreen, _| o.tap_row(i)));
    fits.check(&app, &format!("openings: {variation}, the colours"));
    button("white");
    fits.check(&app, "openings: the drill, your move");
    // A legal move off the lines.
    let off = app.with_controller(|c| {
        let d = c
            .shown::<OpeningsScreen>()
            .and_then(|o| o.drill())
            .expect("a drill");
        let book: Vec<_> = d.book_moves().iter().map(|b| b.mv).collect();
        d.position()
            .legal_moves()
            .iter()
            .copied()
            .find(|m| !book.contains(m))
            .expect("a move off the lines")
    });
    let tap = |mv: chesspi_engine::Move| {
        for sq in [mv.from(), mv.to()] {
            let (x, y) = square_center(sq, false);
            headless::tap(x, y).expect("tap");
        }
    };
    tap(off);
    fits.check(&app, "openings: the drill, a miss");
    let play_through = || {
        for _ in 0..80 {
            let (waits, next) = app.with_controller(|c| {
                let o = c.shown::<OpeningsScreen>().expect("open");
                let d = o.drill().expect("a drill");
                let next = o
                    .followed_line()
                    .and_then(|l| l.moves().get(d.played().len()).copied())
                    .filter(|_| d.users_turn());
                (o.computer_waits(), next)
            });
            if waits {
                app.update_controller(|c| c.on(|o: &mut OpeningsScreen, cx| o.computer_plays(cx)));
            } else if let Some(mv) = next {
                tap(mv);
            } else {
                return;
            }
        }
    };
    button("book");
    play_through();
    fits.check(&app, "openings: the drill, complete after a miss");
    button("next-line");
    play_through();
    fits.check(&app, "openings: the drill, complete");
    button("back");
    button("black");
    fits.check(&app, "openings: the drill, the computer's move");
}

#[test]
fn no_text_is_clipped() {
    headless::install().expect("headless");
    let mut fits = Fits {
        language: Language::English,
        reports: Rc::default(),
        round: 0,
        states: Vec::new(),
        found: Vec::new(),
    };
    control(&mut fits);
    for language in [Language::English, Language::German] {
        fits.language = language;
        board_states(&mut fits);
        game_over_states(&mut fits);
        menu_states(&mut fits);
        new_game_states(&mut fits);
        saved_games_states(&mut fits);
        network_states(&mut fits);
        editor_states(&mut fits);
        analysis_states(&mut fits);
        coach_states(&mut fits);
        train_states(&mut fits);
        wifi_states(&mut fits);
        players_states(&mut fits);
        endgames_states(&mut fits);
        notice_states(&mut fits);
        opening_states(&mut fits);
        openings_screen_states(&mut fits);
    }
    println!("{} states measured:", fits.states.len());
    for state in &fits.states {
        println!("  {state}");
    }
    let matches = |(s, t, _): &(&str, &str, &str), state: &str, r: &TextOverflow| {
        s.split('|').any(|s| state.starts_with(s))
            && t.split('|').any(|t| match t.strip_suffix('*') {
                Some(start) => r.text.starts_with(start),
                None => r.text == t,
            })
    };
    let (known, unknown): (Vec<_>, Vec<_>) = fits
        .found
        .iter()
        .partition(|(state, r)| KNOWN.iter().any(|k| matches(k, state, r)));
    for k in KNOWN {
        let seen: Vec<_> = known.iter().filter(|(s, r)| matches(k, s, r)).collect();
        match seen.first() {
            Some((state, r)) => println!(
                "known, to be fixed ({}; {} times), e.g. {}",
                k.2,
                seen.len(),
                describe(state, r)
            ),
            None => println!("no longer seen, remove from KNOWN: {k:?}"),
        }
    }
    assert!(
        unknown.is_empty(),
        "{} texts do not fit:\n{}",
        unknown.len(),
        unknown
            .iter()
            .map(|(state, r)| describe(state, r))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
