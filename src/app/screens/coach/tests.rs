use super::view::coach_view;
use crate::app::model::clock::{GameClock, TimeControl};
use crate::app::model::mode::{GameSetup, Mode, NewGameForm};
use crate::app::screens::SettingsView;
use crate::app::screens::{Action, Controller, Effect, Purpose, Reply, ThinkRequest};
use chesspi_engine::coach::{Coach, CoachLevel, ReasonKind};
use chesspi_engine::game::Game;
use chesspi_engine::level::Level;
use chesspi_engine::{Color, Square};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn sq(name: &str) -> Square {
    name.parse().expect("a square name")
}

fn play(c: &mut Controller, from: &str, to: &str) {
    c.play(|p, cx, gate| p.press(cx, gate, Some(sq(from))));
    c.play(|p, cx, _| p.release(cx, Some(sq(to)), true));
}

fn requests(c: &mut Controller) -> Vec<ThinkRequest> {
    c.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::Think(r) => Some(r),
            _ => None,
        })
        .collect()
}

/// Answers a judging request as the computer's thread does (a small budget: tests run
/// unoptimised).
fn answer_judge(c: &mut Controller, request: &ThinkRequest) {
    assert_eq!(request.purpose, Purpose::Judge);
    let game = &request.game;
    let ply = game.moves().len() - 1;
    let history: Vec<u64> = game.positions()[..=ply].iter().map(|p| p.hash()).collect();
    let judgement = Coach::new(20_000)
        .judge(
            &game.positions()[ply],
            &history,
            game.moves()[ply],
            &AtomicBool::new(false),
        )
        .expect("judged");
    c.computer_answered(request.id, Reply::Judged(Some(Box::new(judgement))));
}

/// You (White) against the computer with the coach on, after 1. e4 e5 2. Nf3 Nc6 3. Bc4 Nd4.
fn coached() -> Controller {
    let mut game = Game::new();
    for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "c6d4"] {
        let mv = game.position().parse_uci_move(uci).expect("move");
        game.play(mv).expect("legal");
    }
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.set_settings_view(SettingsView {
        coach: CoachLevel::Blunders,
        ..SettingsView::default()
    });
    c.start(GameSetup::FIRST_START, game);
    c.take_effects();
    c
}

#[test]
fn a_blunder_stops_the_game_until_the_player_chooses() {
    let mut c = coached();
    assert!(
        !c.session().record().is_rated(),
        "a coached game is not rated"
    );
    // 4. Ng5?? Qxg5: the knight hangs.
    play(&mut c, "f3", "g5");
    let asked = requests(&mut c);
    assert_eq!(asked.len(), 1);
    assert!(
        c.session().thinking.purpose() == Some(Purpose::Judge),
        "the move is judged, the computer waits"
    );
    answer_judge(&mut c, &asked[0]);
    let advice = c.session().coach().advice().expect("a warning").clone();
    assert!(advice.judgement.is_warning());
    assert_eq!(advice.judgement.reason.kind(), ReasonKind::Hangs);
    assert!(
        c.session()
            .coach()
            .marks(c.session().shown_threat())
            .contains(&sq("g5"))
    );
    assert!(
        requests(&mut c).is_empty(),
        "the computer does not answer yet"
    );
    let actions: Vec<Action> = c.game_view().actions().iter().map(|a| a.action).collect();
    assert_eq!(
        &actions[..3],
        &[Action::TakeBack, Action::PlayOn, Action::ShowMe]
    );
    assert!(c.game_view().status().alert);
    let view = coach_view(c.session());
    assert!(view.visible && view.blunder && view.threat.is_some());
    assert!(view.text.contains("g5"), "{}", view.text);
    // The board takes no move meanwhile.
    c.play(|p, cx, gate| p.press(cx, gate, Some(sq("d2"))));
    assert_eq!(c.game_view().selected(), None);

    c.action(Action::ShowMe);
    let view = coach_view(c.session());
    assert!(view.better_move.is_some() && !view.better.is_empty());

    c.action(Action::TakeBack);
    assert!(c.session().coach().advice().is_none());
    assert_eq!(
        c.session().game().moves().len(),
        6,
        "the position before the move"
    );
    assert_eq!(c.session().game().position().turn(), Color::White);
    assert!(
        requests(&mut c)
            .iter()
            .all(|r| r.purpose == Purpose::Threat),
        "the player's turn again (the computer's threat looked for, no move)"
    );
    // Another move is judged afresh.
    play(&mut c, "d2", "d3");
    let asked = requests(&mut c);
    assert_eq!(asked.len(), 1);
    answer_judge(&mut c, &asked[0]);
    assert!(c.session().coach().advice().is_none(), "d3 is fine");
    let asked = requests(&mut c);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].purpose, Purpose::Move, "now the computer answers");
}

#[test]
fn play_on_keeps_the_move_and_the_computer_answers() {
    let mut c = coached();
    play(&mut c, "f3", "g5");
    let asked = requests(&mut c);
    answer_judge(&mut c, &asked[0]);
    assert!(c.session().coach().advice().is_some());
    c.action(Action::PlayOn);
    assert!(c.session().coach().advice().is_none());
    assert_eq!(c.session().game().moves().len(), 7);
    let asked = requests(&mut c);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].purpose, Purpose::Move);
}

#[test]
fn the_clocks_stand_while_the_coach_judges_and_warns() {
    let mut c = coached();
    c.session_mut().set_clock(Some(GameClock::new(
        TimeControl::new(5, 0).expect("a control"),
    )));
    let t0 = Instant::now();
    c.sync_clock(t0, false);
    play(&mut c, "f3", "g5");
    c.sync_clock(t0, false);
    let asked = requests(&mut c);
    assert!(
        c.session().clock().expect("clock").running().is_none(),
        "judging"
    );
    answer_judge(&mut c, &asked[0]);
    c.sync_clock(t0 + Duration::from_secs(1), false);
    assert!(
        c.session().clock().expect("clock").running().is_none(),
        "warning open"
    );
    let white = c
        .session()
        .clock()
        .expect("clock")
        .remaining(Color::White, t0);
    c.action(Action::TakeBack);
    c.sync_clock(t0 + Duration::from_secs(30), false);
    assert_eq!(
        c.session().clock().expect("clock").running(),
        Some(Color::White)
    );
    let after = c
        .session()
        .clock()
        .expect("clock")
        .remaining(Color::White, t0 + Duration::from_secs(30));
    assert_eq!(white, after, "taken back with the time it had");
}

#[test]
fn without_the_coach_the_computer_answers_at_once() {
    let mut c = coached();
    c.session_mut().set_coach_level(CoachLevel::Off);
    play(&mut c, "f3", "g5");
    let asked = requests(&mut c);
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0].purpose, Purpose::Move);
}

#[test]
fn a_stale_judgement_is_ignored() {
    let mut c = coached();
    play(&mut c, "f3", "g5");
    let asked = requests(&mut c);
    c.action(Action::Undo);
    answer_judge(&mut c, &asked[0]);
    assert!(c.session().coach().advice().is_none());
    assert_eq!(c.session().game().moves().len(), 6);
}

#[test]
fn two_players_are_both_coached() {
    let setup = GameSetup {
        mode: Mode::Friend,
        level: Level::DEFAULT,
    };
    let mut c = Controller::new(setup);
    c.set_settings_view(SettingsView {
        coach: CoachLevel::Blunders,
        ..SettingsView::default()
    });
    c.start(setup, Game::new());
    c.take_effects();
    // 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? (Qxf7#): each move judged, the last one warned.
    for (from, to) in [
        ("e2", "e4"),
        ("e7", "e5"),
        ("d1", "h5"),
        ("b8", "c6"),
        ("f1", "c4"),
        ("g8", "f6"),
    ] {
        assert!(
            c.session().coach().advice().is_none(),
            "no warning before {from}{to}"
        );
        play(&mut c, from, to);
        let asked = requests(&mut c);
        assert_eq!(asked.len(), 1, "{from}{to} is judged");
        answer_judge(&mut c, &asked[0]);
    }
    let advice = c.session().coach().advice().expect("Black is warned too");
    assert_eq!(advice.judgement.mover(), Color::Black);
    // White cannot move until Black chooses.
    c.play(|p, cx, gate| p.press(cx, gate, Some(sq("h5"))));
    assert_eq!(c.game_view().selected(), None);
    assert_eq!(
        c.session().coach().marks(c.session().shown_threat()),
        [sq("h5"), sq("f7")]
    );
    c.action(Action::TakeBack);
    assert_eq!(c.session().game().position().turn(), Color::Black);
}

/// Answers a threat request as the computer's thread does.
fn answer_threat(c: &mut Controller, request: &ThinkRequest) {
    assert_eq!(request.purpose, Purpose::Threat);
    let threat = Coach::new(20_000).threat(request.game.position(), &AtomicBool::new(false));
    c.computer_answered(request.id, Reply::Threat(threat));
}

/// After 1. e4 e5 2. Bc4 Nc6 White (the computer) plays 3. Qh5: Black (you, coached) is
/// told of Qxf7#.
fn mate_threatened() -> Controller {
    let mut game = Game::new();
    for uci in ["e2e4", "e7e5", "f1c4", "b8c6"] {
        let mv = game.position().parse_uci_move(uci).expect("move");
        game.play(mv).expect("legal");
    }
    let you_black = GameSetup {
        mode: Mode::Computer {
            human: Color::Black,
        },
        level: Level::DEFAULT,
    };
    let mut c = Controller::new(you_black);
    c.set_settings_view(SettingsView {
        coach: CoachLevel::Blunders,
        ..SettingsView::default()
    });
    c.start(you_black, game);
    let asked = requests(&mut c);
    let request = asked.last().expect("the computer is asked");
    assert_eq!(request.purpose, Purpose::Move);
    let qh5 = c
        .session()
        .game()
        .position()
        .parse_uci_move("d1h5")
        .expect("move");
    c.computer_answered(request.id, Reply::Move(Some(qh5)));
    let asked = requests(&mut c);
    assert_eq!(asked.len(), 1, "the threat is looked for");
    answer_threat(&mut c, &asked[0]);
    c
}

#[test]
fn with_the_coach_the_computers_threat_is_shown_after_its_move() {
    let mut c = mate_threatened();
    let status = c.game_view().status();
    assert_eq!(status.text, "Your opponent threatens mate: Qxf7#.");
    assert!(status.alert);
    assert!(coach_view(c.session()).threat.is_some(), "the arrow");
    // Defending takes the words away (the next position has its own).
    play(&mut c, "d8", "e7");
    assert!(c.session().shown_threat().is_none());
}

#[test]
fn a_note_in_the_status_line_takes_the_threats_arrow_with_its_words() {
    let mut c = mate_threatened();
    c.action(Action::ResignOrDraw);
    c.dialog_option("offer");
    let asked = requests(&mut c);
    assert_eq!(asked[0].purpose, Purpose::DrawOffer);
    c.computer_answered(asked[0].id, Reply::Draw { accept: false });
    assert_eq!(
        c.game_view().status().text,
        "The computer declines the draw — play on"
    );
    assert!(
        coach_view(c.session()).threat.is_none(),
        "no arrow left unexplained"
    );
    assert!(c.session().shown_threat().is_none());
}

#[test]
fn the_menu_asks_what_is_threatened() {
    let mut c = coached();
    c.session_mut().set_coach_level(CoachLevel::Off);
    c.action(Action::Menu);
    let ids: Vec<String> = c
        .dialog_view()
        .expect("the menu")
        .options
        .iter()
        .map(|o| o.id.clone())
        .collect();
    assert!(ids.iter().any(|id| id == "threat"), "{ids:?}");
    c.dialog_option("threat");
    let asked = requests(&mut c);
    assert_eq!(asked.len(), 1);
    assert_eq!(c.game_view().status().text, "Looking for the threat…");
    answer_threat(&mut c, &asked[0]);
    // After 3... Nd4 Black threatens Nxf3+ (a knight for a knight: no material) — nothing
    // worth naming, or a real threat: either way the player hears back.
    let status = c.game_view().status().text;
    assert!(
        status == "Nothing is threatened right now"
            || status.starts_with("Your opponent threatens"),
        "{status}"
    );
}

#[test]
fn new_game_offers_the_level_that_fits_and_follows_it() {
    let mut c = coached();
    c.action(Action::NewGame);
    assert_eq!(c.shown::<NewGameForm>().map(|f| f.level_fits), Some(false));
    let fits = c.player().fitting_level();
    c.on(|f: &mut NewGameForm, _| f.choose_fitting_level(fits));
    assert_eq!(
        c.shown::<NewGameForm>().map(|f| f.level_fits),
        Some(false),
        "none yet"
    );
    c.on(NewGameForm::cancel);
    c.player_mut().set_fitting_level(Level::new(6));
    c.action(Action::NewGame);
    let fits = c.player().fitting_level();
    c.on(|f: &mut NewGameForm, _| f.choose_fitting_level(fits));
    let form = c.shown::<NewGameForm>().expect("the form");
    assert_eq!((form.level.number(), form.level_fits), (6, true));
    c.take_effects();
    c.on(NewGameForm::start);
    assert!(c.take_effects().iter().any(|e| matches!(
        e,
        Effect::LevelChosen { level, fits: true } if level.number() == 6
    )));
    // Chosen once, the next New game follows the player's rating as it moves on.
    c.player_mut().set_follow_fitting_level(true);
    c.player_mut().set_fitting_level(Level::new(7));
    c.action(Action::NewGame);
    let form = c.shown::<NewGameForm>().expect("the form");
    assert_eq!((form.level.number(), form.level_fits), (7, true));
    // A level picked by hand is just that level.
    c.on(|f: &mut NewGameForm, _| f.choose_level(Level::new(3).expect("level")));
    assert_eq!(c.shown::<NewGameForm>().map(|f| f.level_fits), Some(false));
}
