//! The game screen's tests: taps, drags and promotion on the board, takebacks, the
//! computer's turn, results, the side panel's words and the clocks.

use crate::app::screens::test_support::{friend, sq, tap, think_ids};
use crate::app::screens::*;
use chesspi_engine::{Piece, Position, Role, Square};

fn targets(c: &Controller) -> Vec<Square> {
    let mut out: Vec<Square> = (0..64)
        .filter(|&i| c.game_view().cells()[i].target)
        .filter_map(|i| c.game_view().square_at(i % 8, i / 8))
        .collect();
    out.sort_by_key(|s| s.index());
    out
}

#[test]
fn display_cells_map_to_squares_both_ways() {
    let mut c = Controller::new(friend());
    assert_eq!(c.game_view().square_at(0, 7), Some(sq("a1")));
    assert_eq!(c.game_view().square_at(4, 4), Some(sq("e4")));
    assert_eq!(c.game_view().cell_of(sq("e4")), 36);
    c.action(Action::Flip);
    assert_eq!(c.game_view().square_at(0, 7), Some(sq("h8")));
    assert_eq!(c.game_view().cell_of(sq("h8")), 56);
    assert_eq!(c.game_view().square_at(8, 0), None);
}

#[test]
fn tapping_a_piece_shows_its_targets_and_a_target_moves() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.take_effects();
    tap(&mut c, "e2");
    assert_eq!(c.game_view().selected(), Some(sq("e2")));
    assert_eq!(targets(&c), vec![sq("e3"), sq("e4")]);
    assert_eq!(c.game_view().status().text, "Tap where the pawn should go");
    tap(&mut c, "e4");
    assert_eq!(c.session().game().moves().len(), 1);
    assert_eq!(c.game_view().selected(), None);
    assert_eq!(think_ids(&c.take_effects()), vec![(1, Purpose::Move)]);
    assert!(c.game_view().status().thinking);
    // The computer's turn: taps do nothing.
    tap(&mut c, "d7");
    assert_eq!(c.game_view().selected(), None);
}

#[test]
fn reselect_deselect_and_illegal_taps() {
    let mut c = Controller::new(friend());
    tap(&mut c, "g1");
    assert_eq!(targets(&c), vec![sq("f3"), sq("h3")]);
    tap(&mut c, "b1");
    assert_eq!(c.game_view().selected(), Some(sq("b1")));
    tap(&mut c, "b1");
    assert_eq!(
        c.game_view().selected(),
        None,
        "tapping the selected piece again deselects"
    );
    tap(&mut c, "b1");
    tap(&mut c, "b5");
    assert_eq!(
        c.game_view().selected(),
        None,
        "an illegal square deselects"
    );
    assert!(c.session().game().moves().is_empty());
    tap(&mut c, "e7");
    assert_eq!(
        c.game_view().selected(),
        None,
        "the opponent's pieces cannot be selected"
    );
    tap(&mut c, "a1");
    assert_eq!(
        c.game_view().status().text,
        "The rook cannot move — tap another piece"
    );
}

#[test]
fn drag_and_drop() {
    let mut c = Controller::new(friend());
    c.play(|p, cx, gate| p.press(cx, gate, Some(sq("e2"))));
    assert_eq!(
        c.game_view().selected(),
        Some(sq("e2")),
        "a press selects at once"
    );
    c.play(|p, cx, _| p.release(cx, Some(sq("e5")), true));
    assert!(
        c.session().game().moves().is_empty(),
        "an illegal drop does nothing"
    );
    assert_eq!(c.game_view().selected(), Some(sq("e2")));
    c.play(|p, cx, gate| p.press(cx, gate, Some(sq("e2"))));
    c.play(|p, cx, _| p.release(cx, Some(sq("e4")), true));
    assert_eq!(c.session().game().moves().len(), 1);
    c.play(|p, cx, gate| p.press(cx, gate, Some(sq("g8"))));
    c.play(|p, cx, _| p.release(cx, None, true));
    assert_eq!(
        c.game_view().selected(),
        Some(sq("g8")),
        "a drop off the board puts the piece back"
    );
}

#[test]
fn promotion_asks_and_can_be_cancelled() {
    let game = Game::from_position(
        Position::from_fen("8/4P1k1/8/8/8/8/8/4K3 w - - 0 1").expect("valid FEN"),
    );
    let mut c = Controller::with_game(game, friend());
    tap(&mut c, "e7");
    tap(&mut c, "e8");
    assert_eq!(
        c.game_view().pending_promotion(),
        Some((sq("e7"), sq("e8")))
    );
    assert_eq!(c.game_view().status().text, "Choose a piece for promotion");
    c.play(|p, cx, _| p.choose_promotion(cx, None));
    assert_eq!(c.game_view().pending_promotion(), None);
    assert_eq!(c.game_view().selected(), Some(sq("e7")));
    tap(&mut c, "e8");
    c.play(|p, cx, _| p.choose_promotion(cx, Some(Role::Knight)));
    let last = *c
        .session()
        .game()
        .moves()
        .last()
        .expect("a move was played");
    assert_eq!(last.promotion(), Some(Role::Knight));
    assert_eq!(
        c.session()
            .game()
            .position()
            .piece_at(sq("e8"))
            .map(|p| p.role),
        Some(Role::Knight)
    );
}

#[test]
fn undo_against_the_computer_takes_back_both_moves() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    tap(&mut c, "e2");
    tap(&mut c, "e4");
    let (id, _) = think_ids(&c.take_effects())[0];
    let reply = c.session().game().position().legal_moves()[0];
    c.computer_answered(id, Reply::Move(Some(reply)));
    assert_eq!(c.session().game().moves().len(), 2);
    c.action(Action::Undo);
    assert!(c.session().game().moves().is_empty());
    assert!(
        think_ids(&c.take_effects()).is_empty(),
        "the player is on move again"
    );
}

#[test]
fn undo_while_the_computer_thinks_cancels_and_ignores_its_answer() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    tap(&mut c, "d2");
    tap(&mut c, "d4");
    let (id, _) = think_ids(&c.take_effects())[0];
    c.action(Action::Undo);
    assert!(c.session().game().moves().is_empty());
    assert!(
        c.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::CancelThinking))
    );
    let stale = Position::startpos().legal_moves()[0];
    c.computer_answered(id, Reply::Move(Some(stale)));
    assert!(
        c.session().game().moves().is_empty(),
        "a stale answer is ignored"
    );
}

#[test]
fn playing_black_flips_the_board_and_the_computer_opens() {
    let setup = GameSetup {
        mode: Mode::Computer {
            human: Color::Black,
        },
        level: Level::DEFAULT,
    };
    let mut c = Controller::new(setup);
    assert!(c.session().is_flipped());
    assert_eq!(think_ids(&c.take_effects()).len(), 1);
    let actions = c.game_view().actions();
    let undo = actions
        .iter()
        .find(|a| a.action == Action::Undo)
        .expect("an Undo button");
    assert!(!undo.enabled, "nothing of the player's to take back");
    let (top, bottom) = c.game_view().players();
    assert_eq!(
        (top.name.as_str(), bottom.name.as_str()),
        ("Computer", "You")
    );
}

#[test]
fn checkmate_ends_the_game_with_a_result_card() {
    let mut c = Controller::new(friend());
    for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
        tap(&mut c, from);
        tap(&mut c, to);
    }
    let result = c.game_view().result().expect("the game is over");
    assert_eq!(result.title, "Black wins");
    assert_eq!(result.reason, "by checkmate");
    let ids: Vec<Action> = c.game_view().actions().iter().map(|a| a.action).collect();
    assert_eq!(ids[0], Action::NewGame);
    assert!(ids.contains(&Action::Review));
    // Review steps through the game with the board following.
    c.action(Action::Review);
    c.action(Action::ReviewFirst);
    assert_eq!(
        c.session().shown_position().to_fen(),
        Position::startpos().to_fen()
    );
    c.action(Action::ReviewForward);
    assert_eq!(c.game_view().status().text, "Reviewing: after 1. f3");
    assert_eq!(c.game_view().focus_row(), Some(0));
    c.action(Action::ReviewDone);
    assert!(c.session().shown_position().is_checkmate());
}

#[test]
fn the_result_card_shows_whose_result_it_is() {
    let mate = [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")];
    let mut friends = Controller::new(friend());
    for (from, to) in mate {
        tap(&mut friends, from);
        tap(&mut friends, to);
    }
    assert_eq!(
        friends.game_view().result().map(|r| r.tone),
        Some(ResultTone::Neutral)
    );
    let black = GameSetup {
        mode: Mode::Computer {
            human: Color::Black,
        },
        level: Level::DEFAULT,
    };
    let mut resigned = Controller::new(black);
    resigned.session.game.resign(Color::White).expect("resign");
    assert!(
        resigned
            .session()
            .setup()
            .is_aborted(resigned.session().game()),
        "Black (the player) never moved"
    );
    let mut played = Controller::new(black);
    played
        .session
        .game
        .play(played.session.game.position().legal_moves()[0])
        .expect("white");
    played
        .session
        .game
        .play(played.session.game.position().legal_moves()[0])
        .expect("black");
    played.session.game.resign(Color::White).expect("resign");
    let card = played.game_view().result().expect("over");
    assert_eq!(
        (card.title.as_str(), card.tone),
        ("You win!", ResultTone::Won)
    );
    played.session.game.reopen();
    played.session.game.agree_draw().expect("draw");
    assert_eq!(
        played.game_view().result().map(|r| r.tone),
        Some(ResultTone::Drawn)
    );
}

#[test]
fn hint_highlights_the_suggested_move() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.take_effects();
    c.action(Action::Hint);
    let (id, purpose) = think_ids(&c.take_effects())[0];
    assert_eq!(purpose, Purpose::Hint);
    assert_eq!(c.game_view().status().text, "Looking for a good move…");
    let mv = Position::startpos()
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.from() == sq("g1") && m.to() == sq("f3"))
        .expect("Nf3 is legal");
    c.computer_answered(id, Reply::Move(Some(mv)));
    assert!(c.game_view().cells()[c.game_view().cell_of(sq("f3"))].hint);
    assert!(c.game_view().status().text.starts_with("Hint: "));
    tap(&mut c, "e2");
    tap(&mut c, "e4");
    assert!(
        !c.game_view().cells()[c.game_view().cell_of(sq("f3"))].hint,
        "the hint goes with the next move"
    );
}

#[test]
fn captured_material_and_balance() {
    // A game from a set-up position (Black's d-pawn gone before it began): nothing is
    // captured yet, whatever the position lacks.
    let pos = Position::from_fen("rnb1kbnr/ppp2ppp/8/4p1q1/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
        .expect("valid FEN");
    let mut game = Game::from_position(pos);
    let c = Controller::with_game(game.clone(), friend());
    let (black, white) = c.game_view().players();
    assert!(white.captured.is_empty() && black.captured.is_empty());
    assert_eq!((white.advantage, black.advantage), (1, 0), "a pawn up");
    // Nxg5: White captured the queen.
    let mv = game.position().parse_uci_move("f3g5").expect("move");
    game.play(mv).expect("legal");
    let c = Controller::with_game(game, friend());
    let (black, white) = c.game_view().players();
    assert_eq!(white.captured, vec![Piece::new(Color::Black, Role::Queen)]);
    assert_eq!(white.advantage, 10);
    assert!(black.captured.is_empty());
    assert_eq!(black.advantage, 0);
}

#[test]
fn a_promoted_pawn_is_not_shown_as_captured() {
    // b7xa8=Q: White takes a rook by promoting; Black took nothing. Then ...Kxa8 would take
    // the queen, not a pawn.
    let pos = Position::from_fen("rn2k3/1P6/8/8/8/8/8/4K3 w - - 0 1").expect("valid FEN");
    let mut game = Game::from_position(pos);
    for uci in ["b7a8q", "e8d7", "a8b8"] {
        let mv = game.position().parse_uci_move(uci).expect("move");
        game.play(mv).expect("legal");
    }
    let mut c = Controller::with_game(game, friend());
    let (black, white) = c.game_view().players();
    assert_eq!(
        white.captured,
        vec![
            Piece::new(Color::Black, Role::Knight),
            Piece::new(Color::Black, Role::Rook)
        ]
    );
    assert!(black.captured.is_empty(), "{:?}", black.captured);
    // Shown at the start (as a review shows it): nothing captured yet.
    c.session.review = Some(0);
    let (_, white) = c.game_view().players();
    assert!(white.captured.is_empty());
}

#[test]
fn in_check_a_piece_that_cannot_help_keeps_the_alert_and_says_why() {
    // 1.e4 e5 2.Bc4 Nc6 3.Bxf7+: Black is in check and must move the king or take.
    let mut c = Controller::new(friend());
    for (from, to) in [
        ("e2", "e4"),
        ("e7", "e5"),
        ("f1", "c4"),
        ("b8", "c6"),
        ("c4", "f7"),
    ] {
        tap(&mut c, from);
        tap(&mut c, to);
    }
    assert!(c.game_view().status().alert, "{:?}", c.game_view().status());
    // The a-pawn cannot stop the check.
    tap(&mut c, "a7");
    let status = c.game_view().status();
    assert!(status.alert, "{status:?}");
    assert_eq!(
        status.text,
        "Black is in check — the pawn cannot help; tap another piece"
    );
}

#[test]
fn a_tapped_move_shows_its_position_and_playing_returns_to_the_game() {
    let mut c = Controller::new(friend());
    for (from, to) in [("e2", "e4"), ("e7", "e5"), ("g1", "f3")] {
        tap(&mut c, from);
        tap(&mut c, to);
    }
    // Row 0, Black's move: the position after 1...e5.
    c.part(|v: &mut Viewing, cx| v.move_tapped(cx, 0, true));
    assert_eq!(c.game_view().status().text, "Reviewing: after 1… e5");
    assert!(c.session().shown_position().piece_at(sq("f3")).is_none());
    let actions = c.game_view().actions();
    let labels: Vec<&str> = actions.iter().map(|a| a.label.as_str()).collect();
    assert!(labels.contains(&"Back to game"), "{labels:?}");
    assert_eq!(c.session().game().moves().len(), 3, "the game is unchanged");
    // Out of range taps change nothing.
    c.part(|v: &mut Viewing, cx| v.move_tapped(cx, 1, true));
    assert_eq!(c.game_view().status().text, "Reviewing: after 1… e5");
    // Playing a move returns to the game and counts.
    tap(&mut c, "b8");
    tap(&mut c, "c6");
    assert_eq!(c.session().game().moves().len(), 4);
    assert!(!c.game_view().status().text.starts_with("Reviewing"));
}

#[test]
fn move_now_level_change_and_switching_sides_mid_game() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    tap(&mut c, "e2");
    tap(&mut c, "e4");
    c.take_effects();
    // While the computer thinks, Hint's place says Move now, and it asks the shell.
    let actions = c.game_view().actions();
    let labels: Vec<&str> = actions.iter().map(|a| a.label.as_str()).collect();
    assert_eq!(labels[2], "Move now");
    c.action(Action::MoveNow);
    assert!(
        c.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::MoveNow))
    );

    // A stronger level: the search restarts at it, and the game is no longer rated.
    c.action(Action::Menu);
    c.dialog_option("stronger");
    assert_eq!(c.session().setup().level.number(), 5);
    assert!(!c.session().record().is_rated());
    let effects = c.take_effects();
    let thinks: Vec<_> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Think(r) => Some(r.level.number()),
            _ => None,
        })
        .collect();
    assert_eq!(thinks, [5]);
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::LevelChosen { .. }))
    );

    // Switching sides: the player takes Black (the computer's side, on move) — the board
    // turns and the computer now plays White's next move after the player's.
    let (id, _) = think_ids(&effects)[0];
    c.computer_answered(
        id,
        Reply::Move(Some(
            c.session()
                .game()
                .position()
                .parse_uci_move("e7e5")
                .unwrap(),
        )),
    );
    assert_eq!(c.session().game().moves().len(), 2);
    c.action(Action::Menu);
    c.dialog_option("switch");
    assert_eq!(
        c.session().setup().mode,
        Mode::Computer {
            human: Color::Black
        }
    );
    assert!(c.session().is_flipped());
    assert_eq!(
        think_ids(&c.take_effects()).len(),
        1,
        "the computer plays White now"
    );
    // A new game is rated again.
    c.start(GameSetup::FIRST_START, Game::new());
    assert!(c.session().record().is_rated());
}

#[test]
fn clocks_run_for_the_side_to_move_pause_in_the_menu_and_the_flag_ends_the_game() {
    use crate::app::model::clock::TimeControl;
    use std::time::{Duration, Instant};
    let t0 = Instant::now();
    let mut c = Controller::new(friend());
    c.action(Action::NewGame);
    c.on(|f: &mut NewGameForm, _| f.choose_mode("friend"));
    c.on(|f: &mut NewGameForm, _| f.choose_preset(Some(0))); // 1+0
    c.on(NewGameForm::start);
    assert_eq!(
        c.session().clock().map(|k| k.control()),
        TimeControl::new(1, 0)
    );
    c.sync_clock(t0, false);
    assert_eq!(
        c.session().clock().and_then(|k| k.running()),
        Some(Color::White)
    );
    tap(&mut c, "e2");
    tap(&mut c, "e4");
    c.sync_clock(t0 + Duration::from_secs(2), false);
    let k = c.session().clock().expect("clock");
    assert_eq!(k.running(), Some(Color::Black));
    assert_eq!(k.after_moves().len(), 1);
    // The Menu pauses the clock; closing it runs it again.
    c.action(Action::Menu);
    c.sync_clock(t0 + Duration::from_secs(3), false);
    assert_eq!(c.session().clock().and_then(|k| k.running()), None);
    c.dialog_option("close");
    c.sync_clock(t0 + Duration::from_secs(30), false);
    assert_eq!(
        c.session().clock().and_then(|k| k.running()),
        Some(Color::Black)
    );
    assert_eq!(
        c.session()
            .clock()
            .map(|k| k.remaining(Color::Black, t0 + Duration::from_secs(30))),
        Some(Duration::from_secs(59)),
        "the paused half minute did not count"
    );
    // Black's flag falls a minute later: White wins on time.
    c.clock_tick(t0 + Duration::from_secs(90));
    assert_eq!(
        c.game_view().result().map(|r| r.title),
        Some("White wins".to_string())
    );
    assert_eq!(
        c.game_view().result().map(|r| r.reason),
        Some("on time".to_string())
    );
    // Time cannot be taken back: Undo is off and does nothing; the moves stay.
    assert!(
        c.game_view()
            .actions()
            .iter()
            .any(|a| a.action == Action::Undo && !a.enabled)
    );
    c.action(Action::Undo);
    assert_eq!(c.session().game().moves().len(), 1);
    assert!(c.game_view().result().is_some());
}

#[test]
fn a_clock_in_its_last_ten_seconds_is_low() {
    use crate::app::model::clock::{GameClock, TimeControl};
    use std::time::Duration;
    let mut c = Controller::new(friend());
    let control = TimeControl::new(1, 0).expect("1+0");
    c.session_mut().set_clock(Some(GameClock::restore(
        control,
        Duration::from_millis(9_500),
        Duration::from_secs(10),
        Vec::new(),
    )));
    let (black, white) = c.game_view().players();
    assert_eq!(white.clock.as_deref(), Some("0:09.5"));
    assert!(white.clock_low, "9.5 s left: red");
    assert!(!black.clock_low, "10 s left: not yet");
}

#[test]
fn long_opening_names_keep_their_family_and_last_part() {
    use crate::app::screens::play::present::shorten_opening;
    let short = "C50 Italian Game";
    assert_eq!(shorten_opening(short), short);
    let long = "A45 Queen's Pawn Game: Accelerated London System, Steinitz Countergambit, \
                Morris Countergambit Accepted";
    assert_eq!(
        shorten_opening(long),
        "A45 Queen's Pawn Game: …, Morris Countergambit Accepted"
    );
    // Every named line of the data set fits, in both languages.
    // Only a few are cut off at the end (a long family with a long last part).
    let mut cut = Vec::new();
    for o in chesspi_engine::openings::all() {
        for shown in [
            shorten_opening(&o.to_string()),
            shorten_opening(&o.to_german_string()),
        ] {
            assert!(shown.chars().count() <= 76, "{shown}");
            if shown.ends_with('…') {
                cut.push(shown);
            }
        }
    }
    assert!(cut.len() < 20, "{} cut: {cut:#?}", cut.len());
}

#[test]
fn a_mate_before_the_players_first_move_is_a_result_not_an_abort() {
    // A set-up position: the computer (White) mates at once with Ra8#.
    let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1").expect("fen");
    let mut game = Game::from_position(pos);
    let mv = game.position().parse_uci_move("a1a8").expect("move");
    game.play(mv).expect("legal");
    let black = GameSetup {
        mode: Mode::Computer {
            human: Color::Black,
        },
        level: Level::DEFAULT,
    };
    let c = Controller::with_game(game, black);
    assert!(!c.session().setup().is_aborted(c.session().game()));
    assert_eq!(
        c.game_view().result().map(|r| (r.title, r.tone)),
        Some(("The computer wins".to_string(), ResultTone::Lost))
    );
}

#[test]
fn the_players_line_says_whether_the_game_is_rated_and_why_not() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    let you = |c: &Controller| c.game_view().players().1;
    assert_eq!(
        (you(&c).name.as_str(), you(&c).detail.as_str()),
        ("You", "Rated")
    );
    c.action(Action::Menu);
    c.dialog_option("weaker");
    assert_eq!(you(&c).detail, "Not rated: level changed");
    // The computer's line keeps its level; two players have no rating to tell of.
    assert!(c.game_view().players().0.detail.starts_with("Level 3"));
    c.start(friend(), Game::new());
    assert_eq!(you(&c).detail, "");
}
