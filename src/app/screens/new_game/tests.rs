//! The New game form's tests: the game it starts and its clock.

use crate::app::screens::test_support::{friend, think_ids};
use crate::app::screens::*;

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

/// Issue 47: Settings → Coach on, New game → "Coach: off" → Start: the game is rated, and a
/// coach switched on again (or on from the start) takes it out of the rating, with the reason.
#[test]
fn the_forms_coach_off_over_the_settings_coach_leaves_the_game_rated() {
    use crate::app::session::game::Unrated;
    use chesspi_engine::coach::CoachLevel;
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.set_settings_view(SettingsView {
        coach: CoachLevel::Blunders,
        ..SettingsView::default()
    });
    c.action(Action::NewGame);
    c.on(|f: &mut NewGameForm, _| f.choose_mode("computer"));
    assert!(c.shown::<NewGameForm>().expect("form").coach.is_on());
    c.on(|f: &mut NewGameForm, _| f.toggle_coach(CoachLevel::Blunders));
    assert!(!c.shown::<NewGameForm>().expect("form").coach.is_on());
    c.on(NewGameForm::start);
    assert_eq!(c.session().coach().level(), CoachLevel::Off);
    assert!(
        c.session().record().is_rated(),
        "{:?}",
        c.session().record().unrated()
    );
    // The same form with the coach left on: not rated, because of the coach.
    c.action(Action::NewGame);
    c.on(|f: &mut NewGameForm, _| f.choose_mode("computer"));
    c.on(NewGameForm::start);
    assert_eq!(c.session().record().unrated(), Some(Unrated::Coach));
}
