//! The dialogs' tests: resigning, draw offers and claims, the menu, and Settings' rows
//! acting on the game.

use crate::app::screens::test_support::{e4_and_a_reply, friend, tap, think_ids};
use crate::app::screens::*;
use chesspi_engine::game::Termination;

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
    let result = c.game_view().result().expect("resigned");
    assert_eq!(
        (result.title.as_str(), result.reason.as_str(), result.tone),
        (
            "Game aborted",
            "Not rated: you made no move",
            ResultTone::Neutral
        )
    );
}

#[test]
fn a_resignation_is_a_loss_on_a_loss_card_and_undo_takes_back_only_it() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    e4_and_a_reply(&mut c);
    c.action(Action::ResignOrDraw);
    c.dialog_option("resign");
    c.dialog_option("resign");
    let result = c.game_view().result().expect("resigned");
    assert_eq!(
        (result.title.as_str(), result.reason.as_str(), result.tone),
        ("The computer wins", "by resignation", ResultTone::Lost)
    );
    assert!(c.session().record().is_rated());
    let undo = c
        .game_view()
        .actions()
        .into_iter()
        .find(|a| a.action == Action::Undo);
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
        !c.session().record().is_rated(),
        "played on after a result: not rated"
    );
    assert_eq!(
        c.game_view().status().text,
        "Taken back — play on; this game is not rated"
    );
    // The player is on move: the computer is not asked.
    assert!(think_ids(&c.take_effects()).is_empty());
}

#[test]
fn draw_offer_to_the_computer_is_judged_by_a_search() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    e4_and_a_reply(&mut c);
    c.action(Action::ResignOrDraw);
    c.dialog_option("offer");
    let (id, purpose) = think_ids(&c.take_effects())[0];
    assert_eq!(purpose, Purpose::DrawOffer);
    assert!(c.game_view().status().thinking);
    c.computer_answered(id, Reply::Draw { accept: false });
    assert_eq!(
        c.game_view().status().text,
        "The computer declines the draw — play on"
    );
    c.action(Action::ResignOrDraw);
    c.dialog_option("offer");
    let (id, _) = think_ids(&c.take_effects())[0];
    c.computer_answered(id, Reply::Draw { accept: true });
    assert_eq!(
        c.game_view().result().map(|r| r.title),
        Some("Draw".to_string())
    );
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
    assert_eq!(c.game_view().status().text, "Black declined the draw");
    c.action(Action::ResignOrDraw);
    c.dialog_option("offer");
    c.dialog_option("accept");
    assert_eq!(
        c.game_view().result().map(|r| r.reason),
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
        c.game_view().result().map(|r| r.reason),
        Some("by threefold repetition".to_string())
    );
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
            .any(|e| matches!(e, Effect::ChangeSetting(Setting::Book))),
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

#[test]
fn every_menu_entry_keeps_its_place_whatever_else_the_menu_offers() {
    let computer = |level| GameSetup {
        mode: Mode::Computer {
            human: Color::White,
        },
        level: Level::new(level).expect("level"),
    };
    let mut menus = Vec::new();
    for level in [1, 5, 10] {
        menus.push(("computer", Controller::new(computer(level))));
    }
    // The player to move and not in check: "What is threatened?" is offered.
    let mut threat = Controller::new(computer(5));
    e4_and_a_reply(&mut threat);
    menus.push(("threat", threat));
    let mut over = Controller::new(computer(5));
    over.action(Action::ResignOrDraw);
    over.dialog_option("resign");
    over.dialog_option("resign");
    menus.push(("over", over));
    menus.push(("friend", Controller::new(friend())));
    let mut device = Controller::new(friend());
    device.allow(Allow::Shutdown);
    menus.push(("device", device));
    let mut network = Controller::new(GameSetup {
        mode: Mode::Network {
            local: Color::White,
        },
        level: Level::DEFAULT,
    });
    let link = crate::storage::LanLink {
        game_id: "g".into(),
        host: None,
        peer_rating: None,
    };
    network.part(|p: &mut network::partner::PartnerGame, cx| {
        p.paired(cx, "Kitchen", Color::White, Game::new(), link, None)
    });
    menus.push(("network", network));

    let mut places = std::collections::BTreeMap::new();
    let mut enabled_sets = std::collections::BTreeSet::new();
    for (name, mut c) in menus {
        c.action(Action::Menu);
        let view = c.dialog_view().expect("the menu");
        assert_eq!(view.options[0].id, "close", "{name}: {:?}", view.options);
        enabled_sets.insert(
            view.options
                .iter()
                .filter(|o| o.enabled)
                .map(|o| o.id.clone())
                .collect::<Vec<_>>(),
        );
        for (i, o) in view.options.iter().enumerate() {
            let place = *places.entry(o.id.clone()).or_insert((i, name));
            assert_eq!(
                place.0, i,
                "{name}: {} at {i}, at {} in {}",
                o.id, place.0, place.1
            );
        }
        c.dialog_option("settings");
        let view = c.dialog_view().expect("settings");
        assert_eq!(view.options[0].id, "close");
    }
    // And each place holds one entry, but the two a network game uses for its own.
    let mut by_place = std::collections::BTreeMap::<usize, Vec<String>>::new();
    for (id, (i, _)) in places {
        by_place.entry(i).or_default().push(id);
    }
    for (i, ids) in &by_place {
        let shared = [vec!["adjourn", "stronger"], vec!["forfeit", "weaker"]];
        assert!(
            ids.len() == 1 || shared.iter().any(|s| s == ids),
            "place {i}: {ids:?}"
        );
    }
    assert!(
        enabled_sets.len() > 4,
        "menus offering different entries: {enabled_sets:?}"
    );
    // A greyed entry is no choice: the menu stays open.
    let mut c = Controller::new(computer(10));
    c.action(Action::Menu);
    c.dialog_option("stronger");
    assert_eq!(c.dialog(), Some(&Dialog::Menu));
    assert_eq!(c.session().setup().level.number(), 10);
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
    let (top, bottom) = c.game_view().players();
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
fn every_choice_a_dialog_shows_is_understood_and_unknown_ids_are_not() {
    use super::choice::Choice;
    use crate::lan::codec::OfferKind;
    let game = SavedGameChoice {
        id: "g1".into(),
        title: "A game".into(),
        unfinished: true,
        readable: true,
    };
    let dialogs = [
        Dialog::Menu,
        Dialog::About,
        Dialog::ResignOrDraw,
        Dialog::ConfirmResign,
        Dialog::DrawOffered { by: Color::White },
        Dialog::ClaimDraw(Termination::FiftyMoves),
        Dialog::PartnerOffer(OfferKind::Takeback),
        Dialog::Adjourn,
        Dialog::ConfirmShutdown,
        Dialog::Settings,
        Dialog::SavedGame(game.clone()),
        Dialog::ConfirmDelete(game),
        Dialog::Info {
            title: "Note".into(),
            message: "Read me".into(),
        },
        Dialog::UsbFiles(vec!["a.pgn".into(), "b.pgn".into()]),
        Dialog::Importing {
            file: "a.pgn".into(),
            progress: None,
        },
    ];
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.allow(Allow::Shutdown);
    for dialog in dialogs {
        c.dialog = Some(dialog.clone());
        let view = c.dialog_view().expect("a dialog");
        for o in &view.options {
            assert!(
                Choice::parse(dialog.clone(), &o.id).is_some(),
                "{dialog:?}: {}",
                o.id
            );
        }
        for id in ["", "nonsense", "file2", "file-1", "close "] {
            assert_eq!(Choice::parse(dialog.clone(), id), None, "{dialog:?}: {id}");
        }
    }
    // An unknown id closes the dialog, as Close does.
    c.dialog = Some(Dialog::Menu);
    c.dialog_option("nonsense");
    assert_eq!(c.dialog(), None);
}
