use super::*;
use crate::app::screens::SettingsView;
use chesspi_engine::game::Termination;
use chesspi_engine::san::to_san;
use chesspi_engine::{Piece, Role};

fn sq(name: &str) -> Square {
    name.parse().expect("a square name")
}

fn tap(c: &mut Controller, name: &str) {
    c.press(Some(sq(name)));
    c.release(Some(sq(name)), false);
}

fn friend() -> GameSetup {
    GameSetup {
        mode: Mode::Friend,
        level: Level::DEFAULT,
    }
}

fn think_ids(effects: &[Effect]) -> Vec<(u64, Purpose)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Think(r) => Some((r.id, r.purpose)),
            _ => None,
        })
        .collect()
}

fn targets(c: &Controller) -> Vec<Square> {
    let mut out: Vec<Square> = (0..64)
        .filter(|&i| c.cells()[i].target)
        .filter_map(|i| c.square_at(i % 8, i / 8))
        .collect();
    out.sort_by_key(|s| s.index());
    out
}

#[test]
fn reviewing_a_saved_game_stops_the_computer_and_restores_the_game() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    tap(&mut c, "e2");
    tap(&mut c, "e4");
    let asked = think_ids(&c.take_effects());
    assert_eq!(asked.len(), 1, "the computer is asked to move");
    let (id, _) = asked[0];

    let mut saved = Game::new();
    let d4 = saved
        .position()
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.to() == sq("d4"));
    saved.play(d4.expect("d2d4")).expect("legal");
    c.view_saved(saved, "You", "Level 2", None);
    assert!(c.is_viewing_saved());
    assert!(!c.session().is_computer_thinking());
    let effects = c.take_effects();
    assert!(effects.iter().any(|e| matches!(e, Effect::CancelThinking)));
    assert!(
        !effects.iter().any(|e| matches!(e, Effect::GameChanged)),
        "nothing to save"
    );

    // The answer to the old request arrives late: it must not land on the saved game.
    let reply = Game::new().position().legal_moves().iter().copied().next();
    c.computer_answered(id, Reply::Move(reply));
    assert_eq!(c.session().game().moves().len(), 1);
    assert_eq!(c.players().1.name, "You");

    c.action(Action::ReviewDone);
    assert!(!c.is_viewing_saved());
    assert_eq!(c.session().game().moves().len(), 1, "e4 is back");
    assert_eq!(
        to_san(
            &c.session().game().positions()[0],
            c.session().game().moves()[0]
        ),
        "e4"
    );
    assert_eq!(
        think_ids(&c.take_effects()).len(),
        1,
        "the computer thinks again"
    );
}

#[test]
fn display_cells_map_to_squares_both_ways() {
    let mut c = Controller::new(friend());
    assert_eq!(c.square_at(0, 7), Some(sq("a1")));
    assert_eq!(c.square_at(4, 4), Some(sq("e4")));
    assert_eq!(c.cell_of(sq("e4")), 36);
    c.action(Action::Flip);
    assert_eq!(c.square_at(0, 7), Some(sq("h8")));
    assert_eq!(c.cell_of(sq("h8")), 56);
    assert_eq!(c.square_at(8, 0), None);
}

#[test]
fn tapping_a_piece_shows_its_targets_and_a_target_moves() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.take_effects();
    tap(&mut c, "e2");
    assert_eq!(c.selected(), Some(sq("e2")));
    assert_eq!(targets(&c), vec![sq("e3"), sq("e4")]);
    assert_eq!(c.status().text, "Tap where the pawn should go");
    tap(&mut c, "e4");
    assert_eq!(c.session().game().moves().len(), 1);
    assert_eq!(c.selected(), None);
    assert_eq!(think_ids(&c.take_effects()), vec![(1, Purpose::Move)]);
    assert!(c.status().thinking);
    // The computer's turn: taps do nothing.
    tap(&mut c, "d7");
    assert_eq!(c.selected(), None);
}

#[test]
fn reselect_deselect_and_illegal_taps() {
    let mut c = Controller::new(friend());
    tap(&mut c, "g1");
    assert_eq!(targets(&c), vec![sq("f3"), sq("h3")]);
    tap(&mut c, "b1");
    assert_eq!(c.selected(), Some(sq("b1")));
    tap(&mut c, "b1");
    assert_eq!(
        c.selected(),
        None,
        "tapping the selected piece again deselects"
    );
    tap(&mut c, "b1");
    tap(&mut c, "b5");
    assert_eq!(c.selected(), None, "an illegal square deselects");
    assert!(c.session().game().moves().is_empty());
    tap(&mut c, "e7");
    assert_eq!(
        c.selected(),
        None,
        "the opponent's pieces cannot be selected"
    );
    tap(&mut c, "a1");
    assert_eq!(c.status().text, "The rook cannot move — tap another piece");
}

#[test]
fn drag_and_drop() {
    let mut c = Controller::new(friend());
    c.press(Some(sq("e2")));
    assert_eq!(c.selected(), Some(sq("e2")), "a press selects at once");
    c.release(Some(sq("e5")), true);
    assert!(
        c.session().game().moves().is_empty(),
        "an illegal drop does nothing"
    );
    assert_eq!(c.selected(), Some(sq("e2")));
    c.press(Some(sq("e2")));
    c.release(Some(sq("e4")), true);
    assert_eq!(c.session().game().moves().len(), 1);
    c.press(Some(sq("g8")));
    c.release(None, true);
    assert_eq!(
        c.selected(),
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
    assert_eq!(c.pending_promotion(), Some((sq("e7"), sq("e8"))));
    assert_eq!(c.status().text, "Choose a piece for promotion");
    c.choose_promotion(None);
    assert_eq!(c.pending_promotion(), None);
    assert_eq!(c.selected(), Some(sq("e7")));
    tap(&mut c, "e8");
    c.choose_promotion(Some(Role::Knight));
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
    let actions = c.actions();
    let undo = actions
        .iter()
        .find(|a| a.action == Action::Undo)
        .expect("an Undo button");
    assert!(!undo.enabled, "nothing of the player's to take back");
    let (top, bottom) = c.players();
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
    let result = c.result().expect("the game is over");
    assert_eq!(result.title, "Black wins");
    assert_eq!(result.reason, "by checkmate");
    let ids: Vec<Action> = c.actions().iter().map(|a| a.action).collect();
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
    assert_eq!(c.status().text, "Reviewing: after 1. f3");
    assert_eq!(c.focus_row(), Some(0));
    c.action(Action::ReviewDone);
    assert!(c.session().shown_position().is_checkmate());
}

#[test]
fn resign_needs_confirmation() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.action(Action::ResignOrDraw);
    assert_eq!(c.dialog(), Some(&Dialog::ResignOrDraw));
    c.dialog_option("resign");
    assert_eq!(c.dialog(), Some(&Dialog::ConfirmResign));
    assert!(!c.session().game().is_over());
    c.dialog_option("resign");
    // Before the player's first move: aborted, not rated, and the card says so.
    let result = c.result().expect("resigned");
    assert_eq!(
        (result.title.as_str(), result.reason.as_str(), result.tone),
        (
            "Game aborted",
            "Not rated: you made no move",
            ResultTone::Neutral
        )
    );
}

/// Plays e4 and the computer's first legal reply.
fn e4_and_a_reply(c: &mut Controller) {
    c.take_effects();
    tap(c, "e2");
    tap(c, "e4");
    let (id, _) = think_ids(&c.take_effects())[0];
    let reply = c.session().game().position().legal_moves()[0];
    c.computer_answered(id, Reply::Move(Some(reply)));
}

#[test]
fn a_resignation_is_a_loss_on_a_loss_card_and_undo_takes_back_only_it() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    e4_and_a_reply(&mut c);
    c.action(Action::ResignOrDraw);
    c.dialog_option("resign");
    c.dialog_option("resign");
    let result = c.result().expect("resigned");
    assert_eq!(
        (result.title.as_str(), result.reason.as_str(), result.tone),
        ("The computer wins", "by resignation", ResultTone::Lost)
    );
    assert!(c.session().is_rated());
    let undo = c.actions().into_iter().find(|a| a.action == Action::Undo);
    assert!(
        undo.is_some_and(|a| a.enabled),
        "the resignation can be taken back"
    );
    c.action(Action::Undo);
    assert!(!c.session().game().is_over());
    assert_eq!(
        c.session().game().moves().len(),
        2,
        "both moves stay on the board"
    );
    assert!(
        !c.session().is_rated(),
        "played on after a result: not rated"
    );
    assert_eq!(
        c.status().text,
        "Taken back — play on; this game is not rated"
    );
    // The player is on move: the computer is not asked.
    assert!(think_ids(&c.take_effects()).is_empty());
}

#[test]
fn the_result_card_shows_whose_result_it_is() {
    let mate = [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")];
    let mut friends = Controller::new(friend());
    for (from, to) in mate {
        tap(&mut friends, from);
        tap(&mut friends, to);
    }
    assert_eq!(friends.result().map(|r| r.tone), Some(ResultTone::Neutral));
    let black = GameSetup {
        mode: Mode::Computer {
            human: Color::Black,
        },
        level: Level::DEFAULT,
    };
    let mut resigned = Controller::new(black);
    resigned.session.game.resign(Color::White).expect("resign");
    assert!(
        resigned.session().is_aborted(),
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
    let card = played.result().expect("over");
    assert_eq!(
        (card.title.as_str(), card.tone),
        ("You win!", ResultTone::Won)
    );
    played.session.game.reopen();
    played.session.game.agree_draw().expect("draw");
    assert_eq!(played.result().map(|r| r.tone), Some(ResultTone::Drawn));
}

#[test]
fn draw_offer_to_the_computer_is_judged_by_a_search() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    e4_and_a_reply(&mut c);
    c.action(Action::ResignOrDraw);
    c.dialog_option("offer");
    let (id, purpose) = think_ids(&c.take_effects())[0];
    assert_eq!(purpose, Purpose::DrawOffer);
    assert!(c.status().thinking);
    c.computer_answered(id, Reply::Draw { accept: false });
    assert_eq!(c.status().text, "The computer declines the draw — play on");
    c.action(Action::ResignOrDraw);
    c.dialog_option("offer");
    let (id, _) = think_ids(&c.take_effects())[0];
    c.computer_answered(id, Reply::Draw { accept: true });
    assert_eq!(c.result().map(|r| r.title), Some("Draw".to_string()));
}

#[test]
fn draw_offer_between_two_players() {
    let mut c = Controller::new(friend());
    c.action(Action::ResignOrDraw);
    c.dialog_option("offer");
    assert_eq!(c.dialog(), Some(&Dialog::DrawOffered { by: Color::White }));
    c.dialog_dismissed();
    assert!(c.dialog().is_some(), "an offer needs an answer");
    c.dialog_option("decline");
    assert_eq!(c.status().text, "Black declined the draw");
    c.action(Action::ResignOrDraw);
    c.dialog_option("offer");
    c.dialog_option("accept");
    assert_eq!(
        c.result().map(|r| r.reason),
        Some("by agreement".to_string())
    );
}

#[test]
fn threefold_repetition_is_offered_once() {
    let mut c = Controller::new(friend());
    for _ in 0..2 {
        for (from, to) in [("g1", "f3"), ("g8", "f6"), ("f3", "g1"), ("f6", "g8")] {
            tap(&mut c, from);
            tap(&mut c, to);
        }
    }
    assert_eq!(
        c.dialog(),
        Some(&Dialog::ClaimDraw(Termination::ThreefoldRepetition))
    );
    c.dialog_option("cancel");
    assert!(!c.session().game().is_over());
    c.action(Action::ResignOrDraw);
    c.dialog_option("claim");
    assert_eq!(
        c.result().map(|r| r.reason),
        Some("by threefold repetition".to_string())
    );
}

#[test]
fn hint_highlights_the_suggested_move() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.take_effects();
    c.action(Action::Hint);
    let (id, purpose) = think_ids(&c.take_effects())[0];
    assert_eq!(purpose, Purpose::Hint);
    assert_eq!(c.status().text, "Looking for a good move…");
    let mv = Position::startpos()
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.from() == sq("g1") && m.to() == sq("f3"))
        .expect("Nf3 is legal");
    c.computer_answered(id, Reply::Move(Some(mv)));
    assert!(c.cells()[c.cell_of(sq("f3"))].hint);
    assert!(c.status().text.starts_with("Hint: "));
    tap(&mut c, "e2");
    tap(&mut c, "e4");
    assert!(
        !c.cells()[c.cell_of(sq("f3"))].hint,
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
    let (black, white) = c.players();
    assert!(white.captured.is_empty() && black.captured.is_empty());
    assert_eq!((white.advantage, black.advantage), (1, 0), "a pawn up");
    // Nxg5: White captured the queen.
    let mv = game.position().parse_uci_move("f3g5").expect("move");
    game.play(mv).expect("legal");
    let c = Controller::with_game(game, friend());
    let (black, white) = c.players();
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
    let (black, white) = c.players();
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
    let (_, white) = c.players();
    assert!(white.captured.is_empty());
}

#[test]
fn new_game_dialog_starts_the_chosen_game() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.action(Action::NewGame);
    assert!(c.shown::<NewGameForm>().is_some());
    c.on(|f: &mut NewGameForm, _| f.choose_mode("demo"));
    c.on(|f: &mut NewGameForm, _| f.choose_level(Level::new(2).expect("level 2")));
    c.take_effects();
    c.on(NewGameForm::start);
    assert_eq!(c.session().setup().mode, Mode::Demo);
    assert_eq!(c.session().setup().level.number(), 2);
    assert!(c.shown::<NewGameForm>().is_none());
    assert_eq!(
        think_ids(&c.take_effects()).len(),
        1,
        "the demo starts at once"
    );
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
    assert!(c.status().alert, "{:?}", c.status());
    // The a-pawn cannot stop the check.
    tap(&mut c, "a7");
    let status = c.status();
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
    c.move_tapped(0, true);
    assert_eq!(c.status().text, "Reviewing: after 1… e5");
    assert!(c.session().shown_position().piece_at(sq("f3")).is_none());
    let actions = c.actions();
    let labels: Vec<&str> = actions.iter().map(|a| a.label.as_str()).collect();
    assert!(labels.contains(&"Back to game"), "{labels:?}");
    assert_eq!(c.session().game().moves().len(), 3, "the game is unchanged");
    // Out of range taps change nothing.
    c.move_tapped(1, true);
    assert_eq!(c.status().text, "Reviewing: after 1… e5");
    // Playing a move returns to the game and counts.
    tap(&mut c, "b8");
    tap(&mut c, "c6");
    assert_eq!(c.session().game().moves().len(), 4);
    assert!(!c.status().text.starts_with("Reviewing"));
}

#[test]
fn move_now_level_change_and_switching_sides_mid_game() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    tap(&mut c, "e2");
    tap(&mut c, "e4");
    c.take_effects();
    // While the computer thinks, Hint's place says Move now, and it asks the shell.
    let actions = c.actions();
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
    assert!(!c.session().is_rated());
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
    assert!(c.session().is_rated());
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
    assert_eq!(c.result().map(|r| r.title), Some("White wins".to_string()));
    assert_eq!(c.result().map(|r| r.reason), Some("on time".to_string()));
    // Time cannot be taken back: Undo is off and does nothing; the moves stay.
    assert!(
        c.actions()
            .iter()
            .any(|a| a.action == Action::Undo && !a.enabled)
    );
    c.action(Action::Undo);
    assert_eq!(c.session().game().moves().len(), 1);
    assert!(c.result().is_some());
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
    let (black, white) = c.players();
    assert_eq!(white.clock.as_deref(), Some("0:09.5"));
    assert!(white.clock_low, "9.5 s left: red");
    assert!(!black.clock_low, "10 s left: not yet");
}

#[test]
fn a_custom_clock_is_set_with_steppers_and_offered_again_next_time() {
    use crate::app::model::clock::TimeControl;
    let mut c = Controller::new(friend());
    c.action(Action::NewGame);
    c.on(|f: &mut NewGameForm, _| f.choose_mode("computer"));
    c.on(|f: &mut NewGameForm, _| f.choose_custom_clock());
    let form = c.shown::<NewGameForm>().expect("form");
    assert!(form.custom_chosen);
    assert_eq!(
        form.clock,
        TimeControl::new(10, 0),
        "the steppers start at 10+0"
    );
    c.on(|f: &mut NewGameForm, _| f.step_custom(10, 0));
    c.on(|f: &mut NewGameForm, _| f.step_custom(-1, 5));
    c.on(|f: &mut NewGameForm, _| f.step_custom(0, -1));
    assert_eq!(
        c.shown::<NewGameForm>().and_then(|f| f.clock),
        TimeControl::new(19, 4)
    );
    c.on(NewGameForm::start);
    assert_eq!(
        c.session().clock().map(|k| k.control()),
        TimeControl::new(19, 4)
    );
    // The next New game offers the same custom clock; a preset replaces it.
    c.action(Action::NewGame);
    let form = c.shown::<NewGameForm>().expect("form");
    assert_eq!(
        (form.clock, form.custom_chosen),
        (TimeControl::new(19, 4), true)
    );
    c.on(|f: &mut NewGameForm, _| f.choose_preset(Some(1)));
    let form = c.shown::<NewGameForm>().expect("form");
    assert_eq!(
        (form.clock, form.custom_chosen),
        (TimeControl::new(3, 2), false)
    );
    assert_eq!(
        form.custom,
        TimeControl::new(19, 4).expect("19+4"),
        "kept for the steppers"
    );
    c.on(|f: &mut NewGameForm, _| f.choose_preset(None));
    c.on(NewGameForm::start);
    assert!(c.session().clock().is_none());
    c.action(Action::NewGame);
    assert_eq!(c.shown::<NewGameForm>().and_then(|f| f.clock), None);
}

#[test]
fn the_opening_book_setting_goes_with_the_computers_next_move() {
    let mut c = Controller::new(GameSetup {
        mode: Mode::Computer {
            human: Color::Black,
        },
        level: Level::DEFAULT,
    });
    let book_of_request = |c: &mut Controller| {
        c.take_effects().into_iter().find_map(|e| match e {
            Effect::Think(r) => Some(r.book),
            _ => None,
        })
    };
    assert_eq!(book_of_request(&mut c), Some(true), "on by default");
    c.action(Action::Menu);
    c.dialog_option("settings");
    let labels: Vec<String> = c
        .dialog_view()
        .map(|d| d.options.into_iter().map(|o| o.label).collect())
        .unwrap_or_default();
    assert!(
        labels.contains(&"Opening book: on".to_string()),
        "{labels:?}"
    );
    c.dialog_option("book");
    assert!(
        c.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::ChangeSetting(super::Setting::Book))),
        "the shell steps the stored setting"
    );
    // The shell hands the new value back; the computer's next search goes without the book.
    c.set_settings_view(SettingsView {
        book: false,
        ..SettingsView::default()
    });
    c.dialog_option("close");
    c.start(c.session().setup(), Game::new());
    assert_eq!(book_of_request(&mut c), Some(false));
}

/// A network game with `name`, this side playing `local`, just paired.
fn paired(name: &str, local: Color) -> Controller {
    let mut c = Controller::new(GameSetup {
        mode: Mode::Network { local },
        level: Level::DEFAULT,
    });
    let link = crate::storage::LanLink {
        game_id: "g".into(),
        host: None,
    };
    c.network_paired(name, local, Game::new(), link, None);
    c
}

#[test]
fn a_lost_partner_is_told_on_both_sides_whoever_moves() {
    use crate::lan::session::LinkState;
    let mut c = paired("Kitchen", Color::White);
    assert_eq!(c.status().text, "Your move — tap a piece");
    c.network_link(LinkState::Lost);
    // Our move: the connection is what matters now.
    assert_eq!(c.status().text, "Connection lost — waiting for Kitchen");
    // With a piece in hand, the hints come back.
    let e2 = c.square_at(4, 6);
    c.press(e2);
    c.release(e2, false);
    assert_eq!(c.status().text, "Tap where the pawn should go");
    c.network_link(LinkState::Connected);
    c.press(e2);
    c.release(e2, false);
    assert_eq!(c.status().text, "Your move — tap a piece");
}

#[test]
fn an_offer_voided_by_a_lost_link_leaves_no_waiting_note() {
    use crate::lan::session::LinkState;
    let mut c = paired("Kitchen", Color::White);
    c.network_link(LinkState::Connected);
    c.offer_to_partner(crate::lan::codec::OfferKind::Draw);
    assert_eq!(c.status().text, "Draw offered — waiting for Kitchen");
    // The session drops offers with the link, then says the link is lost.
    c.network_offers_cleared();
    c.network_link(LinkState::Lost);
    assert_eq!(c.status().text, "Connection lost — waiting for Kitchen");
    c.network_link(LinkState::Connected);
    assert_eq!(c.status().text, "Your move — tap a piece");
    // An older word of the partner's gives way to the lost link too.
    c.offer_to_partner(crate::lan::codec::OfferKind::Draw);
    c.partner_answered(crate::lan::codec::OfferKind::Draw, false);
    assert_eq!(c.status().text, "Kitchen declines the draw — play on");
    c.network_link(LinkState::Lost);
    assert_eq!(c.status().text, "Connection lost — waiting for Kitchen");
}

#[test]
fn a_long_partner_name_is_shortened_in_texts() {
    let mut c = paired(&"W".repeat(32), Color::Black);
    c.network_link(crate::lan::session::LinkState::Connected);
    assert_eq!(c.status().text, format!("{}… is thinking…", "W".repeat(13)));
}

#[test]
fn a_saved_game_under_review_shows_no_clock_of_the_game_on_the_board() {
    let mut c = Controller::new(friend());
    c.action(Action::NewGame);
    c.on(|f: &mut NewGameForm, _| f.choose_mode("friend"));
    c.on(|f: &mut NewGameForm, _| f.choose_preset(Some(0)));
    c.on(NewGameForm::start);
    assert!(c.players().0.clock.is_some());
    c.view_saved(Game::new(), "You", "Level 2", None);
    assert!(c.players().0.clock.is_none() && c.players().1.clock.is_none());
    c.action(Action::ReviewDone);
    assert!(c.players().1.clock.is_some());
}

#[test]
fn the_hosting_dialog_gives_the_address_to_type() {
    let mut c = Controller::new(friend());
    c.host_network(Color::White);
    c.on(|l: &mut Lobby, _| {
        l.hosting(
            "Kitchen",
            "4821",
            &[
                "192.168.1.20:7531".to_string(),
                "169.254.3.4:7531".to_string(),
            ],
        )
    });
    let view = c.dialog_view().expect("the hosting dialog");
    assert_eq!(view.title, "Pairing code 4821");
    assert!(
        view.message.ends_with(
            "Not in its list? There tap Enter address and type 192.168.1.20:7531 or \
             169.254.3.4:7531"
        ),
        "{}",
        view.message
    );
}

#[test]
fn the_join_list_says_when_this_device_does_not_look_for_hosts() {
    let mut c = Controller::new(friend());
    c.open_lobby(None, None);
    let looking = c.dialog_view().expect("the join list").message;
    assert!(looking.starts_with("Looking for ChessPIs"), "{looking}");
    assert!(
        looking.contains("Enter address"),
        "what to do if none is found"
    );
    c.on(|l: &mut Lobby, _| l.not_looking());
    let off = c.dialog_view().expect("the join list").message;
    assert!(off.contains("discovery is off"), "{off}");
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
fn the_menus_close_is_first_whatever_else_it_offers() {
    let mut menus = Vec::new();
    for level in [1, 5, 10] {
        let setup = GameSetup {
            mode: Mode::Computer {
                human: Color::White,
            },
            level: Level::new(level).expect("level"),
        };
        menus.push(Controller::new(setup));
    }
    menus.push(Controller::new(friend()));
    let mut device = Controller::new(friend());
    device.allow_shutdown();
    menus.push(device);
    let mut counts = std::collections::BTreeSet::new();
    for mut c in menus {
        c.action(Action::Menu);
        let view = c.dialog_view().expect("the menu");
        counts.insert(view.options.len());
        assert_eq!(view.options[0].id, "close", "{:?}", view.options);
        c.dialog_option("settings");
        let view = c.dialog_view().expect("settings");
        assert_eq!(view.options[0].id, "close");
    }
    assert!(counts.len() > 2, "menus of several sizes: {counts:?}");
}

#[test]
fn two_players_may_have_the_board_turn_to_the_player_on_move() {
    let mut c = Controller::new(friend());
    tap(&mut c, "e2");
    tap(&mut c, "e4");
    assert!(!c.session().is_flipped(), "off by default: the board stays");
    c.set_settings_view(SettingsView {
        turn_board: true,
        ..SettingsView::default()
    });
    assert!(
        c.session().is_flipped(),
        "Black on move sits at the bottom at once"
    );
    tap(&mut c, "e7");
    tap(&mut c, "e5");
    assert!(!c.session().is_flipped(), "White's turn");
    let (top, bottom) = c.players();
    assert_eq!((top.color, bottom.color), (Color::Black, Color::White));
    // Against the computer the board never turns by itself.
    let mut vs = Controller::new(GameSetup::FIRST_START);
    vs.set_settings_view(SettingsView {
        turn_board: true,
        ..SettingsView::default()
    });
    tap(&mut vs, "e2");
    tap(&mut vs, "e4");
    assert!(!vs.session().is_flipped());
    // The setting is offered.
    c.action(Action::Menu);
    c.dialog_option("settings");
    let labels: Vec<String> = c
        .dialog_view()
        .expect("settings")
        .options
        .into_iter()
        .map(|o| o.label)
        .collect();
    assert!(
        labels.contains(&"Two players: board turns".to_string()),
        "{labels:?}"
    );
}

#[test]
fn a_wrong_code_is_said_until_the_next_one_is_typed() {
    use crate::app::screens::Lobby;
    let mut c = Controller::new(friend());
    c.join_network("192.168.1.20:7531", None);
    for key in ["1", "2", "3", "4"] {
        c.on(|l: &mut Lobby, _| l.key(key));
    }
    c.on(Lobby::submit);
    c.on(|l: &mut Lobby, cx| {
        l.refused(cx, Some(crate::lan::codec::ErrorCode::BadCode), "bad code")
    });
    let Some(Lobby::Keypad { message, alert, .. }) = c.shown::<Lobby>().cloned() else {
        panic!("back on the keypad: {:?}", c.shown::<Lobby>());
    };
    assert!(alert);
    assert_eq!(message, "Wrong code — try again");
    c.on(|l: &mut Lobby, _| l.key("5"));
    let Some(Lobby::Keypad { message, alert, .. }) = c.shown::<Lobby>().cloned() else {
        panic!("the keypad");
    };
    assert!(!alert);
    assert_eq!(message, "The code is shown on the other ChessPI");
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
    assert!(!c.session().is_aborted());
    assert_eq!(
        c.result().map(|r| (r.title, r.tone)),
        Some(("The computer wins".to_string(), ResultTone::Lost))
    );
}
