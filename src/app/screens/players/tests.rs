use super::{PlayersPageKind, PlayersScreen, PlayersView};
use crate::app::model::mode::GameSetup;
use crate::app::screens::{Action, Controller, Dialog, Effect, ScreenKind};
use crate::storage::players::{MAX_PLAYERS, PlayerId, Roster, Who};

/// The Players screen opened from Settings.
fn opened() -> Controller {
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.action(Action::Menu);
    c.dialog_option("settings");
    c.dialog_option("players");
    assert_eq!(c.screen(), ScreenKind::Players);
    assert!(c.dialog().is_none());
    c.take_effects();
    c
}

fn view(c: &Controller) -> PlayersView {
    c.shown::<PlayersScreen>().expect("the screen").view()
}

fn names(c: &Controller) -> Vec<String> {
    view(c).rows.into_iter().map(|r| r.name).collect()
}

fn button(c: &mut Controller, id: &str) {
    c.on(|p: &mut PlayersScreen, cx| p.button(cx, id));
}

fn key(c: &mut Controller, id: &str) {
    c.on(|p: &mut PlayersScreen, cx| p.key(cx, id));
}

fn tap_row(c: &mut Controller, name: &str) {
    let i = names(c).iter().position(|n| n == name).expect("a row");
    c.on(|p: &mut PlayersScreen, _| p.tap_row(i));
}

/// Types `text` as a finger would: shift before a capital.
fn type_text(c: &mut Controller, text: &str) {
    for ch in text.chars() {
        if ch.is_uppercase() {
            key(c, "shift");
        }
        if ch == ' ' {
            key(c, "space");
        } else {
            key(c, &format!("c:{ch}"));
        }
    }
}

fn clear(c: &mut Controller) {
    for _ in 0..30 {
        key(c, "delete");
    }
}

/// What the saver was asked to write: the rosters' names and the removed player.
fn kept(c: &mut Controller) -> Vec<(Vec<String>, Option<PlayerId>)> {
    c.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::KeepPlayers { roster, removed } => Some((roster_names(&roster), removed)),
            _ => None,
        })
        .collect()
}

fn roster_names(roster: &Roster) -> Vec<String> {
    roster
        .players()
        .iter()
        .map(|p| p.name.as_str().to_string())
        .collect()
}

fn add(c: &mut Controller, name: &str) {
    button(c, "add");
    type_text(c, name);
    button(c, "ok");
}

#[test]
fn the_players_are_listed_with_the_guest_last_and_the_one_playing_marked() {
    let c = opened();
    let v = view(&c);
    assert_eq!(v.page, PlayersPageKind::List);
    assert_eq!(v.title, "Players");
    assert_eq!(names(&c), ["Player 1", "Guest"]);
    assert!(v.rows[0].playing && v.rows[0].selected);
    assert!(!v.rows[1].playing && !v.rows[1].selected);
    assert!(!v.can_play, "Player 1 plays already");
    assert!(v.can_change && v.can_add);
}

#[test]
fn a_player_is_added_and_kept() {
    let mut c = opened();
    button(&mut c, "add");
    let v = view(&c);
    assert_eq!(
        (v.page, v.title.as_str()),
        (PlayersPageKind::Name, "Add a player")
    );
    assert_eq!(v.units, 22);
    type_text(&mut c, "Jürgen");
    assert_eq!(view(&c).name, "Jürgen");
    key(&mut c, "done");
    let v = view(&c);
    assert_eq!(v.page, PlayersPageKind::List);
    assert_eq!(v.message, "Jürgen added.");
    assert_eq!(names(&c), ["Player 1", "Jürgen", "Guest"]);
    assert!(v.rows[1].selected && !v.rows[1].playing && v.can_play);
    assert_eq!(
        roster_names(c.player().roster()),
        ["Player 1", "Jürgen"],
        "the controller keeps it"
    );
    assert_eq!(
        kept(&mut c),
        [(vec!["Player 1".into(), "Jürgen".into()], None)]
    );
}

#[test]
fn a_taken_name_is_refused_in_words_and_the_page_stays() {
    let mut c = opened();
    add(&mut c, "Anna");
    kept(&mut c);
    add(&mut c, "ANNA");
    let v = view(&c);
    assert_eq!(v.page, PlayersPageKind::Name);
    assert_eq!(v.message, "Another player already has this name.");
    assert!(v.alert);
    assert_eq!(v.name, "ANNA", "kept to correct");
    assert!(kept(&mut c).is_empty(), "nothing written");
    // Typing again clears the complaint; an empty name is refused too.
    clear(&mut c);
    assert_eq!(view(&c).message, "");
    button(&mut c, "ok");
    assert_eq!(view(&c).message, "Type a name first.");
    // Cancel leaves the players as they were.
    button(&mut c, "cancel");
    assert_eq!(view(&c).page, PlayersPageKind::List);
    assert_eq!(names(&c), ["Player 1", "Anna", "Guest"]);
}

#[test]
fn a_player_is_renamed_and_may_keep_their_name_in_another_case() {
    let mut c = opened();
    add(&mut c, "Anna");
    kept(&mut c);
    tap_row(&mut c, "Player 1");
    add(&mut c, "Bob");
    kept(&mut c);
    tap_row(&mut c, "Anna");
    button(&mut c, "rename");
    let v = view(&c);
    assert_eq!((v.title.as_str(), v.name.as_str()), ("Rename Anna", "Anna"));
    // Bob's name is taken; Anna's own, in capitals, is not.
    clear(&mut c);
    type_text(&mut c, "bob");
    button(&mut c, "ok");
    assert_eq!(view(&c).message, "Another player already has this name.");
    clear(&mut c);
    type_text(&mut c, "ANNA");
    button(&mut c, "ok");
    assert_eq!(view(&c).message, "Anna is now called ANNA.");
    assert_eq!(names(&c), ["Player 1", "ANNA", "Bob", "Guest"]);
    assert_eq!(
        kept(&mut c),
        [(vec!["Player 1".into(), "ANNA".into(), "Bob".into()], None)]
    );
}

#[test]
fn the_guest_is_neither_renamed_nor_removed() {
    let mut c = opened();
    tap_row(&mut c, "Guest");
    let v = view(&c);
    assert!(v.rows[1].selected && !v.can_change && v.can_play);
    button(&mut c, "rename");
    assert_eq!(view(&c).page, PlayersPageKind::List);
    button(&mut c, "remove");
    assert!(c.dialog().is_none());
}

#[test]
fn play_now_makes_the_one_chosen_the_player_at_the_device() {
    let mut c = opened();
    add(&mut c, "Anna");
    c.take_effects();
    button(&mut c, "play");
    assert_eq!(c.player().current(), c.player().roster().last());
    let anna = c.player().roster().players()[1].id;
    assert_eq!(c.player().current(), Who::Player(anna));
    let chosen: Vec<Who> = c
        .take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::ChoosePlayer { who, .. } => Some(who),
            _ => None,
        })
        .collect();
    assert_eq!(chosen, [Who::Player(anna)]);
    let v = view(&c);
    assert!(v.rows[1].playing && !v.rows[0].playing && !v.can_play);
}

#[test]
fn no_more_than_the_most_players_are_added() {
    let mut c = opened();
    for i in 2..=MAX_PLAYERS {
        add(&mut c, &format!("P{i}"));
    }
    assert_eq!(c.player().roster().players().len(), MAX_PLAYERS);
    assert!(!view(&c).can_add);
    button(&mut c, "add");
    assert_eq!(view(&c).page, PlayersPageKind::List);
}

#[test]
fn removing_asks_first_and_the_guest_plays_when_the_one_playing_goes() {
    let mut c = opened();
    add(&mut c, "Anna");
    button(&mut c, "play");
    c.take_effects();
    let anna = c.player().roster().players()[1].id;
    button(&mut c, "remove");
    assert_eq!(
        c.dialog(),
        Some(&Dialog::ConfirmRemovePlayer {
            id: anna,
            name: "Anna".into()
        })
    );
    let confirm = c.dialog_view().expect("the confirmation");
    assert_eq!(confirm.title, "Remove a player?");
    assert_eq!(
        confirm.message,
        "Remove Anna? Their record and puzzles are deleted; their saved games stay."
    );
    // Cancel keeps her.
    c.dialog_option("cancel");
    assert!(c.dialog().is_none());
    assert_eq!(names(&c), ["Player 1", "Anna", "Guest"]);
    assert!(kept(&mut c).is_empty());
    button(&mut c, "remove");
    c.dialog_option("remove");
    assert_eq!(names(&c), ["Player 1", "Guest"]);
    assert_eq!(view(&c).message, "Anna removed.");
    let effects = c.take_effects();
    assert!(
        matches!(
            &effects[..],
            [
                Effect::KeepPlayers { removed: Some(id), .. },
                Effect::ChoosePlayer { who: Who::Guest, .. },
            ] if *id == anna
        ),
        "{effects:?}"
    );
    assert_eq!(c.player().current(), Who::Guest);
    let v = view(&c);
    assert!(v.rows[1].playing && v.rows[1].selected);
}

#[test]
fn close_goes_back_to_settings() {
    let mut c = opened();
    button(&mut c, "close");
    assert_eq!(c.screen(), ScreenKind::Game);
    assert_eq!(c.dialog(), Some(&Dialog::Settings));
}

/// "Ask at start" goes on and off, and each change is kept.
#[test]
fn ask_at_start_is_a_toggle_kept_at_once() {
    let mut c = opened();
    assert!(!view(&c).ask_at_start);
    button(&mut c, "ask");
    assert!(view(&c).ask_at_start);
    assert!(
        c.player().roster().ask_at_start(),
        "the controller's copy too"
    );
    let kept = c.take_effects().into_iter().find_map(|e| match e {
        Effect::KeepPlayers { roster, .. } => Some(roster.ask_at_start()),
        _ => None,
    });
    assert_eq!(kept, Some(true), "written");
    button(&mut c, "ask");
    assert!(!view(&c).ask_at_start);
}
