use super::*;
use crate::app::model::mode::GameSetup;
use crate::app::screens::{Controller, ScreenKind};
use crate::storage::leitner::RETRY_SECONDS;
use chesspi_engine::openings::lines::{self, LineId};

fn openings() -> Controller {
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.go(Go::Openings);
    c.take_effects();
    c
}

fn view(c: &Controller) -> OpeningsView {
    let now = crate::storage::timestamp::unix_now();
    c.shown::<OpeningsScreen>()
        .map(|o| o.view(c.player().openings(), now))
        .expect("Openings is open")
}

fn button(c: &mut Controller, id: &str) {
    c.on(|o: &mut OpeningsScreen, cx| o.button(cx, id));
}

/// Pages through the families to `name` and taps it, then taps the opening `opening`
/// ("All lines" or a variation's shown name).
fn choose(c: &mut Controller, family: &str, opening: &str) {
    for _ in 0..20 {
        if let Some(i) = view(c).rows.iter().position(|r| r.name == family) {
            c.on(|o: &mut OpeningsScreen, _| o.tap_row(i));
            break;
        }
        assert!(view(c).can_next, "{family} not found");
        button(c, "next");
    }
    assert_eq!(view(c).page, OpeningsPage::Openings);
    let i = view(c)
        .rows
        .iter()
        .position(|r| r.name == opening)
        .unwrap_or_else(|| panic!("no {opening}: {:?}", view(c).rows));
    c.on(|o: &mut OpeningsScreen, _| o.tap_row(i));
    assert_eq!(view(c).page, OpeningsPage::Colour);
}

fn tap_move(c: &mut Controller, mv: Move) {
    let flipped = view(c).drill.expect("the drill").flipped;
    for sq in [mv.from(), mv.to()] {
        let cell = crate::app::screens::board_view::display_cell(flipped, sq);
        c.on(|o: &mut OpeningsScreen, cx| o.tap(cx, cell % 8, cell / 8));
    }
}

fn uci(c: &Controller, text: &str) -> Move {
    drill(c)
        .position()
        .parse_uci_move(text)
        .expect("a legal move")
}

fn drill(c: &Controller) -> Drill {
    c.shown::<OpeningsScreen>()
        .and_then(|o| o.drill().cloned())
        .expect("a drill")
}

fn tried(c: &mut Controller) -> Vec<(LineId, bool)> {
    c.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::OpeningTried { line, passed, .. } => Some((line, passed)),
            _ => None,
        })
        .collect()
}

/// Plays the round to its end, the user always playing the book's first move.
fn play_to_the_end(c: &mut Controller) {
    for _ in 0..60 {
        let o = c.shown::<OpeningsScreen>().expect("open");
        if o.computer_waits() {
            c.on(|o: &mut OpeningsScreen, cx| o.computer_plays(cx));
        } else if view(c).drill.is_some_and(|d| d.complete) {
            return;
        } else {
            let mv = drill(c).book_moves()[0].mv;
            tap_move(c, mv);
        }
    }
    panic!("the round did not end");
}

#[test]
fn families_come_most_lines_first_and_page_by_twelve() {
    let mut c = openings();
    let v = view(&c);
    assert_eq!(v.page, OpeningsPage::Families);
    assert_eq!(v.rows.len(), chooser::ROWS_PER_PAGE);
    assert_eq!(v.rows[0].name, "Sicilian Defense");
    let sicilian = lines::family("Sicilian Defense").expect("the Sicilian");
    assert!(
        lines::families()
            .iter()
            .all(|f| f.line_count() <= sicilian.line_count())
    );
    let detail = format!(
        "{} lines · 0 seen · 0 learnt · 0 due",
        sicilian.line_count()
    );
    assert_eq!(v.rows[0].detail, detail);
    assert!(!v.can_previous && v.can_next);
    let pages = chooser::page_count(lines::families().len());
    for _ in 0..pages + 2 {
        button(&mut c, "next");
    }
    let last = view(&c);
    assert!(last.can_previous && !last.can_next);
    assert_eq!(
        last.rows.len(),
        lines::families().len() - (pages - 1) * chooser::ROWS_PER_PAGE
    );
    button(&mut c, "back");
    assert_eq!(c.screen(), ScreenKind::Game, "Close from the families");
}

#[test]
fn a_family_offers_all_its_lines_then_its_variations() {
    let ruy = lines::family("Ruy Lopez").expect("the Ruy Lopez");
    let choices = chooser::openings_of(ruy);
    assert_eq!(choices[0], "Ruy Lopez");
    assert!(choices.contains(&"Ruy Lopez: Closed"));
    for name in &choices[1..] {
        let lines = chooser::lines_of(name);
        assert!(!lines.is_empty(), "{name}");
        assert!(lines.iter().all(|l| l.family() == "Ruy Lopez"), "{name}");
        assert!(!name.contains(", "), "{name} is a variation, not a line");
    }
    let mut c = openings();
    choose(&mut c, "Ruy Lopez", "Closed");
    let v = view(&c);
    assert_eq!(v.title, "Ruy Lopez: Closed");
    assert!(v.can_white && v.can_black);
    button(&mut c, "back");
    assert_eq!(view(&c).page, OpeningsPage::Openings);
    assert_eq!(view(&c).rows[0].name, "All lines");
}

/// White, the Italian Game's lines: a correct line played to its end passes its card; the
/// next round's wrong first move is a miss that shows the book's moves and grades the line
/// the computer follows, once; the book's move then goes on.
#[test]
fn a_line_played_through_passes_and_a_miss_shows_the_book() {
    let mut c = openings();
    choose(&mut c, "Italian Game", "All lines");
    button(&mut c, "white");
    let d = view(&c).drill.expect("the drill");
    assert!(!d.flipped);
    assert!(d.prompt.contains("Your move"), "{}", d.prompt);
    let followed = c
        .shown::<OpeningsScreen>()
        .and_then(|o| o.followed_line())
        .expect("a line followed");
    play_to_the_end(&mut c);
    let done = view(&c).drill.expect("the drill");
    assert!(done.complete && done.verdict.starts_with("Line complete: Italian Game"));
    assert!(
        done.prompt.contains("comes back in 1 day"),
        "{}",
        done.prompt
    );
    let tries = tried(&mut c);
    assert_eq!(tries.len(), 1, "{tries:?}");
    assert!(tries[0].1, "passed");
    let card = *c.player().openings().get(tries[0].0).expect("a card");
    assert_eq!((card.box_index, card.tries), (1, 1));
    assert!(lines::line(tries[0].0).is_some());
    let _ = followed;

    button(&mut c, "next-line");
    let next = c
        .shown::<OpeningsScreen>()
        .and_then(|o| o.followed_line())
        .expect("a line followed");
    assert_ne!(
        next.id(),
        tries[0].0,
        "a line never tried before one not due"
    );
    let a3 = uci(&c, "a2a3");
    tap_move(&mut c, a3);
    let d = view(&c).drill.expect("the drill");
    assert!(d.missed && d.can_book);
    assert_eq!(d.verdict, "a3 is not in the book here. The book plays e4.");
    assert!(d.arrow.is_some());
    assert_eq!(tried(&mut c), vec![(next.id(), false)]);
    let card = *c.player().openings().get(next.id()).expect("a card");
    assert_eq!(card.box_index, 0);
    assert!(card.due_unix <= crate::storage::timestamp::unix_now() + RETRY_SECONDS);
    // Missed again: counted once.
    let h3 = uci(&c, "h2h3");
    tap_move(&mut c, h3);
    assert!(tried(&mut c).is_empty());
    button(&mut c, "book");
    assert_eq!(drill(&c).played().len(), 1, "the book's e4 played");
    assert!(!view(&c).drill.expect("the drill").missed);
    play_to_the_end(&mut c);
    assert!(
        tried(&mut c).is_empty(),
        "a round with a miss passes nothing"
    );
    let d = view(&c).drill.expect("the drill");
    assert!(d.prompt.contains("missed"), "{}", d.prompt);
}

/// The computer follows the line whose card is due, and plays first for Black.
#[test]
fn the_computer_follows_a_due_line_and_opens_for_black() {
    let mut c = openings();
    choose(&mut c, "Italian Game", "All lines");
    let lines = chooser::lines_of("Italian Game");
    let due = lines
        .iter()
        .rev()
        .find(|l| l.moves().len() > 6)
        .expect("a long line");
    let mut cards = crate::storage::openings::OpeningCards::new();
    cards.record(due.id(), false, 0);
    c.player_mut().set_openings(cards);
    button(&mut c, "black");
    let o = c.shown::<OpeningsScreen>().expect("open");
    assert_eq!(o.followed_line().map(|l| l.id()), Some(due.id()));
    assert!(o.computer_waits(), "White moves first");
    assert!(view(&c).drill.expect("the drill").flipped);
    // The user plays the due line's moves: the computer keeps to it.
    for (ply, &mv) in due.moves().iter().enumerate() {
        if ply % 2 == 0 {
            c.on(|o: &mut OpeningsScreen, cx| o.computer_plays(cx));
            assert_eq!(drill(&c).played().last(), Some(&mv));
        } else {
            tap_move(&mut c, mv);
        }
    }
    assert_eq!(drill(&c).played(), due.moves());
    assert!(view(&c).drill.expect("the drill").complete);
    assert_eq!(tried(&mut c), vec![(due.id(), true)]);
}
