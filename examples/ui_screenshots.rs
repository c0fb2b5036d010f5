//! Renders the screenshots in docs/screenshots/ headless (the same pixels on every
//! machine: software renderer and an embedded font).
//!
//! `cargo run --example ui_screenshots [OUT_DIR [LANG]]` (default: docs/screenshots, English;
//! `cargo run --example ui_screenshots docs/screenshots/de de` makes the German set)

use chesspi::app::App;
use chesspi::app::boot::headless;
use chesspi::app::boot::screenshot::square_center;
use chesspi::app::boot::start::show_battery_event;
use chesspi::app::model::mode::{GameSetup, Level, Mode, NewGameForm};
use chesspi::app::screens::analysis::board::Session;
use chesspi::app::screens::network::partner::PartnerGame;
use chesspi::app::screens::{Action, Allow, Go, Lobby, SettingsView};
use chesspi::battery::{BatteryEvent, BatteryLevel, BatteryReading, BatteryStatus};
use chesspi_engine::game::Game;
use chesspi_engine::{Color, Position, Square};
use slint::{ComponentHandle, Model};
use std::error::Error;
use std::path::{Path, PathBuf};

/// A game from the start position with these UCI moves played.
fn game(moves: &str) -> Result<Game, Box<dyn Error>> {
    let mut game = Game::new();
    for text in moves.split_whitespace() {
        let mv = game.position().parse_uci_move(text)?;
        game.play(mv)?;
    }
    Ok(game)
}

fn tap(app: &App, name: &str) -> Result<(), Box<dyn Error>> {
    let sq: Square = name.parse().map_err(|_| format!("bad square {name}"))?;
    let (x, y) = square_center(sq, app.with_controller(|c| c.session().is_flipped()));
    headless::tap(x, y)?;
    Ok(())
}

fn shoot(app: &App, dir: &Path, name: &str) -> Result<(), Box<dyn Error>> {
    let (frame, _) = headless::render()?;
    let path = dir.join(name);
    frame.save_png(&path)?;
    println!("wrote {}", path.display());
    let _ = app;
    Ok(())
}

fn open(game: Game, setup: GameSetup) -> Result<App, Box<dyn Error>> {
    let app = App::new(game, setup)?;
    // Slint's translations can be chosen once a component exists; the Rust side's already are.
    chesspi::app::apply_language(chesspi::i18n::language());
    app.window().show()?;
    Ok(app)
}

fn main() -> Result<(), Box<dyn Error>> {
    let dir = std::env::args()
        .nth(1)
        .map_or_else(|| PathBuf::from("docs/screenshots"), PathBuf::from);
    std::fs::create_dir_all(&dir)?;
    if let Some(code) = std::env::args().nth(2) {
        let language = chesspi::i18n::Language::from_code(&code)
            .ok_or_else(|| format!("unknown language {code:?}: en or de"))?;
        chesspi::i18n::set_language(language);
    }
    headless::install()?;
    let you_white = GameSetup::FIRST_START;
    let friends = GameSetup {
        mode: Mode::Friend,
        level: Level::DEFAULT,
    };

    let app = open(Game::new(), you_white)?;
    shoot(&app, &dir, "start.png")?;

    // Mid-game, a capture available: the bishop on c4 selected.
    let app = open(
        game("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 d2d4 e5d4 e1g1 f6e4 f1e1 d7d5 c4d5 d8d5 b1c3 d5a5")?,
        friends,
    )?;
    tap(&app, "c3")?;
    shoot(&app, &dir, "selection.png")?;

    // A long opening name: two lines, its family and its last part.
    let app = open(
        game("e2e4 c7c5 g1f3 e7e6 d2d4 c5d4 f3d4 b8c6 b1c3 d8c7 c1e3")?,
        friends,
    )?;
    shoot(&app, &dir, "opening-long.png")?;

    // A pawn about to promote.
    let pos = Position::from_fen("3r2k1/1P3ppp/8/8/8/8/5PPP/6K1 w - - 0 30")?;
    let app = open(Game::from_position(pos), friends)?;
    tap(&app, "b7")?;
    tap(&app, "b8")?;
    shoot(&app, &dir, "promotion.png")?;

    // Scholar's mate: you (White) beat the computer.
    let app = open(game("e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7")?, you_white)?;
    shoot(&app, &dir, "game-over.png")?;
    // Reviewing it, three moves back: the step buttons on the first row.
    app.update_controller(|c| {
        c.action(Action::Review);
        c.action(Action::ReviewLast);
        for _ in 0..3 {
            c.action(Action::ReviewBack);
        }
    });
    shoot(&app, &dir, "review.png")?;
    analysis(&dir)?;
    coach(&dir)?;
    train(&dir)?;
    learning(&dir)?;

    // Playing Black against the computer, in check: the board is flipped.
    let you_black = GameSetup {
        mode: Mode::Computer {
            human: Color::Black,
        },
        level: Level::new(6).ok_or("level 6")?,
    };
    let app = open(
        game(
            "e2e4 d7d5 e4d5 d8d5 b1c3 d5e5 f1e2 e5c3 d2c3 e7e5 f2f4 f8c5 g1f3 b8c6 d1d5 g8e7 d5f7",
        )?,
        you_black,
    )?;
    shoot(&app, &dir, "check.png")?;

    let app = open(Game::new(), you_white)?;
    app.update_controller(|c| c.action(Action::NewGame));
    shoot(&app, &dir, "new-game.png")?;

    // Resigning after 1. e4 e5: the confirmation near the top, clear of the buttons that
    // open one; then the loss, on its own colour.
    let app = open(game("e2e4 e7e5")?, you_white)?;
    app.update_controller(|c| {
        c.action(Action::ResignOrDraw);
        c.dialog_option("resign");
    });
    shoot(&app, &dir, "confirm-resign.png")?;
    app.update_controller(|c| c.dialog_option("resign"));
    shoot(&app, &dir, "game-lost.png")?;

    // The battery indicator at each level, as the monitor reports it; charging on the last.
    let app = open(Game::new(), you_white)?;
    for (level, charging) in [
        (BatteryLevel::Full, false),
        (BatteryLevel::High, false),
        (BatteryLevel::Medium, false),
        (BatteryLevel::Low, false),
        (BatteryLevel::Critical, false),
        (BatteryLevel::Medium, true),
    ] {
        let status = BatteryStatus::Level(BatteryReading {
            level,
            charging: Some(charging),
        });
        show_battery_event(&app, &BatteryEvent::Changed(status));
        let name = if charging {
            format!("battery-{}-charging.png", level.name())
        } else {
            format!("battery-{}.png", level.name())
        };
        shoot(&app, &dir, &name)?;
    }

    // Help, from the menu.
    let help = open(Game::new(), you_white)?;
    help.update_controller(|c| {
        c.action(Action::Menu);
        c.dialog_option("help");
    });
    shoot(&help, &dir, "help.png")?;

    // Settings → Wi-Fi: the list, a saved network chosen, the password on the keyboard.
    let wifi = open(Game::new(), you_white)?;
    wifi_screens(&wifi, &dir)?;

    // Settings → Players: the list, a name typed (refused), the accented letters, removing.
    let players = open(Game::new(), you_white)?;
    players_screens(&players, &dir)?;

    // Notices: a long warning wraps inside its bar; the critical countdown is red and has no ✕.
    let app = open(game("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6")?, you_white)?;
    show_battery_event(
        &app,
        &BatteryEvent::Changed(BatteryStatus::Fault(
            chesspi::battery::BatteryFault::InconsistentComparators {
                above_mv: 3700,
                not_above_mv: 3300,
            },
        )),
    );
    shoot(&app, &dir, "notice-warning.png")?;
    // Over a dialog the notice goes on top, drawn once (not again under the dimmed panel).
    app.update_controller(|c| c.action(Action::Menu));
    shoot(&app, &dir, "notice-over-dialog.png")?;
    app.update_controller(|c| c.dialog_option("close"));
    show_battery_event(
        &app,
        &BatteryEvent::Critical {
            shutdown_in: std::time::Duration::from_secs(15),
        },
    );
    shoot(&app, &dir, "notice-critical.png")?;
    // A full screen over the side panel: the notice stays on top.
    app.update_controller(|c| c.action(Action::NewGame));
    shoot(&app, &dir, "notice-over-new-game.png")?;
    app.update_controller(|c| c.on(NewGameForm::cancel));

    // A timed game: 5+3, the player's clock running.
    let app = open(Game::new(), you_white)?;
    app.update_controller(|c| {
        c.action(Action::NewGame);
        c.on(|f: &mut NewGameForm, _| f.choose_preset(Some(2)));
    });
    shoot(&app, &dir, "new-game-clock.png")?;
    // The custom control's steppers at their widest values, 180+60.
    app.update_controller(|c| c.on(|f: &mut NewGameForm, _| f.step_custom(200, 100)));
    shoot(&app, &dir, "new-game-custom-clock.png")?;
    app.update_controller(|c| c.on(|f: &mut NewGameForm, _| f.choose_preset(Some(2))));
    app.update_controller(|c| c.on(NewGameForm::start));
    shoot(&app, &dir, "clock.png")?;

    // The position editor: a board being set up, "Done" refusing it with the reason, then
    // the same board fixed and ready to play.
    let app = open(game("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6")?, you_white)?;
    app.update_controller(|c| {
        c.go(Go::Editor);
        c.on(|e: &mut chesspi::app::screens::Editor, _| {
            e.choose_tool(chesspi::app::screens::editor::board::Tool::Piece(
                chesspi_engine::Piece::new(Color::White, chesspi_engine::Role::Pawn),
            ))
        });
        let cell = c.game_view().cell_of("b8".parse().unwrap_or(Square::A1));
        c.on(|e: &mut chesspi::app::screens::Editor, cx| e.tap(cx, cell % 8, cell / 8));
        c.on(|e: &mut chesspi::app::screens::Editor, _| e.done());
    });
    shoot(&app, &dir, "editor.png")?;
    app.update_controller(|c| {
        let cell = c.game_view().cell_of("b8".parse().unwrap_or(Square::A1));
        c.on(|e: &mut chesspi::app::screens::Editor, cx| e.tap(cx, cell % 8, cell / 8));
        c.on(|e: &mut chesspi::app::screens::Editor, _| e.done());
    });
    shoot(&app, &dir, "editor-ready.png")?;

    // The analysis board from the same game, its search finished, a knight picked up.
    let app = open(game("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6")?, you_white)?;
    app.update_controller(|c| c.go(Go::AnalysisBoard));
    if !headless::pump_until(std::time::Duration::from_secs(120), || {
        app.with_controller(|c| c.shown::<Session>().is_some_and(Session::finished))
    }) {
        return Err("the analysis board's search did not finish".into());
    }
    app.update_controller(|c| {
        let cell = c.game_view().cell_of("f3".parse().unwrap_or(Square::A1));
        c.on(|s: &mut Session, _| s.tap(cell % 8, cell / 8));
    });
    shoot(&app, &dir, "analysis-board.png")?;

    // A pawn about to promote on the analysis board: the game's picker over it.
    let pos = Position::from_fen("3r2k1/1P3ppp/8/8/8/8/5PPP/6K1 w - - 0 30")?;
    let app = open(Game::from_position(pos), friends)?;
    app.update_controller(|c| c.go(Go::AnalysisBoard));
    if !headless::pump_until(std::time::Duration::from_secs(120), || {
        app.with_controller(|c| c.shown::<Session>().is_some_and(Session::finished))
    }) {
        return Err("the analysis board's search did not finish".into());
    }
    tap(&app, "b7")?;
    tap(&app, "b8")?;
    shoot(&app, &dir, "analysis-board-promotion.png")?;

    // The menu mid-game against the computer, with shutdown as on the device.
    let app = open(game("e2e4 e7e5 g1f3")?, you_white)?;
    app.update_controller(|c| {
        c.allow(Allow::Shutdown);
        c.action(Action::Menu);
    });
    shoot(&app, &dir, "menu.png")?;
    // Settings as on the device: brightness, dimming, language, sound.
    app.update_controller(|c| {
        c.set_settings_view(SettingsView {
            brightness_percent: Some(80),
            dim_after: Some(Some(std::time::Duration::from_secs(120))),
            language: chesspi::i18n::language(),
            volume: chesspi::sound::Volume::DEFAULT,
            speak_moves: chesspi::sound::SpeakMoves::Opponent,
            speaker: chesspi::sound::SpeakerState::Ready,
            ..SettingsView::default()
        });
        c.dialog_option("settings");
    });
    shoot(&app, &dir, "settings.png")?;

    // Network play: the New game form, hosting, joining with the keypad, a game under way.
    let app = open(Game::new(), you_white)?;
    app.update_controller(|c| {
        c.action(Action::NewGame);
        c.on(|f: &mut NewGameForm, _| f.choose_mode("network"));
    });
    shoot(&app, &dir, "new-game-network.png")?;
    // Hosting for real, on loopback only; a fixed port, so the address shown is the same in
    // every run.
    app.enable_network(chesspi::config::LanConfig {
        name: Some("Kitchen table".into()),
        port: 47531,
        listen: vec![std::net::Ipv4Addr::LOCALHOST.into()],
        discovery: false,
        interfaces: Vec::new(),
        code: chesspi::config::PairingCode::Fixed("4821".into()),
        adjourn_after: chesspi::config::DEFAULT_ADJOURN_AFTER,
    });
    app.update_controller(|c| {
        c.on(NewGameForm::cancel);
        c.go(Go::Lobby {
            host: Some(Color::White),
            clock: None,
        });
    });
    shoot(&app, &dir, "network-hosting.png")?;
    // No router: the host's hotspot, and the guest's list with it.
    {
        use chesspi::wifi::worker::WifiReport;
        use chesspi::wifi::{Network, Security, WifiState, hotspot_ssid};
        app.update_controller(|c| {
            c.allow(Allow::Wifi);
            // The Wi-Fi thread's look: a radio is here.
            c.wifi_report(WifiReport::Looked {
                state: WifiState::Disconnected,
                networks: Ok(Vec::new()),
            });
            c.on(|l: &mut Lobby, cx| l.option(cx, "hotspot"));
            c.wifi_report(WifiReport::HotspotOpened {
                ssid: hotspot_ssid("Kitchen table"),
                result: Ok(WifiState::Disconnected),
            });
        });
        shoot(&app, &dir, "network-hotspot.png")?;
        app.update_controller(|c| {
            c.on(|l: &mut Lobby, cx| l.option(cx, "cancel"));
            c.action(Action::NewGame);
            c.on(|f: &mut NewGameForm, _| f.choose_mode("network"));
            c.on(|f: &mut NewGameForm, _| f.choose_network(false));
            c.on(NewGameForm::start);
            c.wifi_report(WifiReport::Looked {
                state: WifiState::Disconnected,
                networks: Ok(vec![Network {
                    ssid: hotspot_ssid("Kitchen table"),
                    strength: 80,
                    security: Security::Password,
                    known: false,
                    active: false,
                }]),
            });
        });
        shoot(&app, &dir, "network-join-hotspot.png")?;
        app.update_controller(|c| {
            c.on(|l: &mut Lobby, cx| l.option(cx, "hotspot:0"));
            for k in "4071".chars() {
                c.on(|l: &mut Lobby, _| l.key(&k.to_string()));
            }
        });
        shoot(&app, &dir, "network-hotspot-password.png")?;
    }
    app.update_controller(|c| {
        c.on(Lobby::close);
        c.go(Go::Join {
            target: "192.168.1.20:7531".to_string(),
            code: None,
        });
        for k in ["4", "8", "2"] {
            c.on(|l: &mut Lobby, _| l.key(k));
        }
    });
    shoot(&app, &dir, "network-keypad.png")?;
    app.update_controller(|c| {
        c.on(Lobby::close);
        c.part(|p: &mut PartnerGame, cx| {
            p.paired(
                cx,
                "Kitchen table",
                Color::Black,
                game("e2e4 c7c5 g1f3").unwrap_or_default(),
                chesspi::storage::LanLink {
                    game_id: "5d41402abc4b2a76".into(),
                    host: Some("192.168.1.20:7531".into()),
                    peer_rating: None,
                },
                None,
            )
        });
    });
    shoot(&app, &dir, "network-game.png")?;
    // The partner gone for longer than `lan.adjourn_after_seconds`: adjourn, claim the win
    // or keep waiting.
    app.update_controller(|c| {
        c.part(|p: &mut PartnerGame, cx| p.link(cx, chesspi::lan::session::LinkState::Lost));
        c.part(|p: &mut PartnerGame, cx| {
            p.away_check(
                cx,
                std::time::Instant::now() + std::time::Duration::from_secs(600),
            )
        });
    });
    shoot(&app, &dir, "network-adjourn.png")?;
    saved_games(&dir)?;
    Ok(())
}

/// Legal's mate analysed: the graph, the marks, and the better move at the blunder.
fn analysis(dir: &Path) -> Result<(), Box<dyn Error>> {
    let friends = GameSetup {
        mode: Mode::Friend,
        level: Level::DEFAULT,
    };
    let app = open(
        game("e2e4 e7e5 g1f3 d7d6 f1c4 c8g4 b1c3 g7g6 f3e5 g4d1 c4f7 e8e7 c3d5")?,
        friends,
    )?;
    app.update_controller(|c| c.action(Action::Analyse));
    let adapter = app.window().global::<chesspi::app::ui::AnalysisAdapter>();
    headless::pump_until(std::time::Duration::from_secs(60), || {
        !adapter.get_running()
    });
    shoot(&app, dir, "analysis.png")?;
    app.update_controller(|c| c.action(Action::NextMistake));
    shoot(&app, dir, "analysis-mistake.png")?;
    Ok(())
}

/// The coach's warning: 4. Ng5?? hangs the knight; then "Show me".
fn coach(dir: &Path) -> Result<(), Box<dyn Error>> {
    use chesspi_engine::coach::CoachLevel;
    let app = open(
        game("e2e4 e7e5 g1f3 b8c6 f1c4 c6d4")?,
        GameSetup::FIRST_START,
    )?;
    app.update_controller(|c| {
        c.set_settings_view(chesspi::app::screens::SettingsView {
            coach: CoachLevel::Blunders,
            ..Default::default()
        });
        c.session_mut().set_coach_level(CoachLevel::Blunders);
    });
    tap(&app, "f3")?;
    tap(&app, "g5")?;
    headless::pump_until(std::time::Duration::from_secs(60), || {
        app.with_controller(|c| c.session().coach().advice().is_some())
    });
    shoot(&app, dir, "coach.png")?;
    app.update_controller(|c| c.action(Action::ShowMe));
    shoot(&app, dir, "coach-show-me.png")?;

    // Menu → What is threatened? as Black after 1. e4 e5 2. Bc4 Nc6 3. Qh5: Qxf7#.
    let you_black = GameSetup {
        mode: Mode::Computer {
            human: Color::Black,
        },
        level: Level::DEFAULT,
    };
    let app = open(game("e2e4 e7e5 f1c4 b8c6 d1h5")?, you_black)?;
    app.update_controller(|c| {
        c.action(Action::Menu);
        c.dialog_option("threat");
    });
    headless::pump_until(std::time::Duration::from_secs(60), || {
        app.with_controller(|c| c.session().shown_threat().is_some())
    });
    shoot(&app, dir, "threat.png")?;
    Ok(())
}

/// Train: a puzzle from the player's game (4... Qg5?? of 1. e4 e5 2. Nf3), then a wrong try.
fn train(dir: &Path) -> Result<(), Box<dyn Error>> {
    use chesspi::app::screens::train::Training;
    use chesspi::storage::puzzles::{Puzzle, PuzzleBook};
    let pos = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")?;
    let mistake = pos.parse_uci_move("d8g5")?;
    let best = pos.parse_uci_move("b8c6")?;
    let puzzle =
        Puzzle::new(pos, mistake, best, true, "game", "2026.11.26", 0).ok_or("the puzzle")?;
    let mut book = PuzzleBook::new();
    book.add(puzzle);
    let app = open(Game::new(), GameSetup::FIRST_START)?;
    app.update_controller(|c| {
        c.player_mut().set_puzzles(book);
        c.go(Go::Train);
    });
    shoot(&app, dir, "train.png")?;
    for name in ["f8", "c5"] {
        let sq: Square = name.parse().map_err(|_| "square")?;
        let (x, y) = square_center(sq, true);
        headless::tap(x, y)?;
    }
    headless::pump_until(std::time::Duration::from_secs(60), || {
        app.with_controller(|c| {
            c.shown::<Training>()
                .map(|t| t.view(c.player().puzzles()))
                .is_some_and(|v| v.solved.is_some())
        })
    });
    shoot(&app, dir, "train-tried.png")?;
    Ok(())
}

/// Menu → Openings' first page (the families) and Menu → Endgames' list of lessons.
fn learning(dir: &Path) -> Result<(), Box<dyn Error>> {
    let app = open(Game::new(), GameSetup::FIRST_START)?;
    app.update_controller(|c| c.go(Go::Openings));
    shoot(&app, dir, "openings.png")?;
    app.update_controller(|c| c.go(Go::Endgames));
    shoot(&app, dir, "endgames.png")?;
    Ok(())
}

/// Saved games with three stored games: won, lost and unfinished.
fn saved_games(dir: &Path) -> Result<(), Box<dyn Error>> {
    let state = std::env::temp_dir().join(format!("chesspi-shots-{}", std::process::id()));
    std::fs::create_dir_all(&state)?;
    let (stores, _) = chesspi::app::saving::Stores::open(&state);
    let archive = chesspi::storage::Archive::open(&state)?;
    let tags = |white: &str, black: &str, result: &str, human: &str, t: &str| {
        format!(
            "[Event \"ChessPI game\"]\n[Date \"2026.11.2{t}\"]\n[UTCTime \"1{t}:05:00\"]\n\
             [White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
             [ChessPIMode \"vs-computer\"]\n[ChessPILevel \"4\"]\n[ChessPIHuman \"{human}\"]\n"
        )
    };
    let pgn = [
        format!(
            "{}[Termination \"checkmate\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n",
            tags("You", "ChessPI level 4 (~1390)", "1-0", "white", "1")
        ),
        format!(
            "{}[Termination \"resignation\"]\n\n1. d4 d5 2. c4 e6 0-1\n",
            tags("You", "ChessPI level 6 (~1790)", "0-1", "white", "2")
        ),
        format!(
            "{}\n1. e4 c5 2. Nf3 *\n",
            tags("ChessPI level 3 (~1190)", "You", "*", "black", "3")
        ),
    ]
    .join("\n");
    archive.import_pgn(&pgn)?;
    let app = open(Game::new(), GameSetup::FIRST_START)?;
    app.enable_saving(stores, None)?;
    headless::pump_until(std::time::Duration::from_secs(10), || app.is_saved());
    app.update_controller(|c| c.action(Action::Menu));
    app.window()
        .global::<chesspi::app::ui::DialogAdapter>()
        .invoke_option_chosen("games".into());
    let games = app.window().global::<chesspi::app::ui::GamesAdapter>();
    headless::pump_until(std::time::Duration::from_secs(10), || {
        games.get_games().row_count() == 3
    });
    shoot(&app, dir, "saved-games.png")?;
    drop(app);
    std::fs::remove_dir_all(&state)?;
    Ok(())
}

fn wifi_screens(app: &App, dir: &Path) -> Result<(), Box<dyn Error>> {
    use chesspi::app::screens::wifi::WifiScreen;
    use chesspi::wifi::worker::WifiReport;
    use chesspi::wifi::{Network, Security, Ssid, WifiState};
    let ssid = |name: &str| Ssid::new(name.as_bytes()).expect("a name");
    let network = |name: &str, strength, security, known, active| Network {
        ssid: ssid(name),
        strength,
        security,
        known,
        active,
    };
    app.update_controller(|c| {
        c.allow(Allow::Wifi);
        c.go(Go::Wifi);
        c.wifi_report(WifiReport::Looked {
            state: WifiState::Connected {
                ssid: ssid("Chess club"),
                address: Some([192, 168, 4, 23].into()),
            },
            networks: Ok(vec![
                network("Chess club", 90, Security::Password, true, true),
                network("Cafe Zugzwang", 64, Security::Open, false, false),
                network("FRITZ!Box 7530 XY", 40, Security::Password, false, false),
                network("Library", 20, Security::Password, true, false),
                network("eduroam", 35, Security::Unsupported, false, false),
            ]),
        });
    });
    shoot(app, dir, "wifi.png")?;
    app.update_controller(|c| c.on(|w: &mut WifiScreen, cx| w.tap_row(cx, 0)));
    shoot(app, dir, "wifi-chosen.png")?;
    app.update_controller(|c| {
        c.on(|w: &mut WifiScreen, cx| w.button(cx, "back"));
        c.on(|w: &mut WifiScreen, cx| w.tap_row(cx, 2));
        for key in [
            "shift", "c:K", "c:n", "c:i", "c:g", "c:h", "c:t", "symbols", "c:#",
        ] {
            c.on(|w: &mut WifiScreen, _| w.key(key));
        }
        c.on(|w: &mut WifiScreen, _| w.key("letters"));
        c.on(|w: &mut WifiScreen, _| w.key("c:7"));
    });
    shoot(app, dir, "wifi-password.png")?;
    app.update_controller(|c| {
        c.on(|w: &mut WifiScreen, cx| w.button(cx, "show"));
        c.on(|w: &mut WifiScreen, _| w.key("symbols"));
    });
    shoot(app, dir, "wifi-symbols.png")?;
    Ok(())
}

fn players_screens(app: &App, dir: &Path) -> Result<(), Box<dyn Error>> {
    use chesspi::app::screens::players::PlayersScreen;
    let typed = |name: &str| -> Vec<String> {
        name.chars()
            .flat_map(|ch| {
                let shift = ch.is_uppercase().then(|| "shift".to_string());
                let key = if ch == ' ' {
                    "space".to_string()
                } else {
                    format!("c:{ch}")
                };
                shift.into_iter().chain(std::iter::once(key))
            })
            .collect()
    };
    let add = |c: &mut chesspi::app::screens::Controller, name: &str| {
        c.on(|p: &mut PlayersScreen, cx| p.button(cx, "add"));
        for key in typed(name) {
            c.on(|p: &mut PlayersScreen, cx| p.key(cx, &key));
        }
        c.on(|p: &mut PlayersScreen, cx| p.button(cx, "ok"));
    };
    app.update_controller(|c| {
        c.go(Go::PlayersScreen);
        for name in ["Anna", "Jürgen", "Zoe"] {
            add(c, name);
        }
        c.on(|p: &mut PlayersScreen, _| p.tap_row(2));
    });
    shoot(app, dir, "players.png")?;
    app.update_controller(|c| add(c, "anna"));
    shoot(app, dir, "players-name.png")?;
    app.update_controller(|c| {
        c.on(|p: &mut PlayersScreen, cx| p.key(cx, "shift"));
        c.on(|p: &mut PlayersScreen, cx| p.key(cx, "accents"));
    });
    shoot(app, dir, "players-accents.png")?;
    app.update_controller(|c| {
        c.on(|p: &mut PlayersScreen, cx| p.button(cx, "cancel"));
        c.on(|p: &mut PlayersScreen, cx| p.button(cx, "remove"));
    });
    shoot(app, dir, "players-remove.png")?;
    Ok(())
}
