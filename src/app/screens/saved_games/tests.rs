//! Saved games' tests: a saved game looked through in place of the game on the board.

use crate::app::screens::test_support::{friend, sq, tap, think_ids};
use crate::app::screens::*;
use chesspi_engine::san::to_san;

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
    c.part(|v: &mut Viewing, cx| v.view_saved(cx, saved, "You", "Level 2", None));
    assert!(c.get::<Viewing>().is_viewing_saved());
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
    assert_eq!(c.game_view().players().1.name, "You");

    c.action(Action::ReviewDone);
    assert!(!c.get::<Viewing>().is_viewing_saved());
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
fn a_saved_game_under_review_shows_no_clock_of_the_game_on_the_board() {
    let mut c = Controller::new(friend());
    c.action(Action::NewGame);
    c.on(|f: &mut NewGameForm, _| f.choose_mode("friend"));
    c.on(|f: &mut NewGameForm, _| f.choose_preset(Some(0)));
    c.on(NewGameForm::start);
    assert!(c.game_view().players().0.clock.is_some());
    c.part(|v: &mut Viewing, cx| v.view_saved(cx, Game::new(), "You", "Level 2", None));
    assert!(c.game_view().players().0.clock.is_none() && c.game_view().players().1.clock.is_none());
    c.action(Action::ReviewDone);
    assert!(c.game_view().players().1.clock.is_some());
}
