use super::*;
use crate::app::model::mode::GameSetup;
use crate::app::screens::{Action, Reply, ScreenKind};
use chesspi_engine::endgame::{best_move, lessons, probe};

fn endgames() -> Controller {
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.action(Action::Menu);
    c.dialog_option("endgames");
    assert_eq!(c.screen(), ScreenKind::Endgames);
    c.take_effects();
    c
}

fn view(c: &Controller) -> EndgamesView {
    c.shown::<Endgames>()
        .map(|e| e.view(c.player().endgames()))
        .expect("Endgames is open")
}

fn lesson_view(c: &Controller) -> LessonView {
    match view(c) {
        EndgamesView::Lesson(l) => *l,
        EndgamesView::List(_) => panic!("the list is shown"),
    }
}

/// The worker's part, as the computer's thread does it where the tables cover the lesson:
/// the request answered with the tables' move and their word on every position. Returns
/// whether there was a request.
fn work(c: &mut Controller) -> bool {
    let request = c.take_effects().into_iter().find_map(|e| match e {
        Effect::Think(r) => Some(r),
        _ => None,
    });
    let Some(request) = request else {
        return false;
    };
    assert_eq!(request.level, Level::MAX, "full strength");
    let mut game = request.game.clone();
    let mut reply = None;
    if request.purpose == Purpose::EndgameMove {
        reply = best_move(game.position());
        game.play(reply.expect("covered")).expect("legal");
    }
    let values = game.positions().iter().map(probe).collect();
    c.computer_answered(request.id, Reply::Endgame(EndgameReply { reply, values }));
    true
}

fn index_of(id: &str) -> usize {
    LESSONS.iter().position(|l| l.id == id).expect("a lesson")
}

/// Plays `mv` by taps on the lesson's board.
fn tap_move(c: &mut Controller, mv: Move, flipped: bool) {
    for sq in [mv.from(), mv.to()] {
        let cell = crate::app::screens::board_view::display_cell(flipped, sq);
        c.on(|e: &mut Endgames, cx| e.tap(cx, cell % 8, cell / 8));
    }
}

fn lesson_game(c: &Controller) -> Game {
    c.shown::<Endgames>()
        .and_then(|e| e.attempt.as_ref())
        .map(|a| a.game.clone())
        .expect("a lesson")
}

fn tried(effects: &[Effect]) -> Vec<(String, bool, u32)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::EndgameTried { id, passed, moves } => Some((id.clone(), *passed, *moves)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_list_shows_every_area_with_its_lessons_on_two_pages() {
    let mut c = endgames();
    let EndgamesView::List(first) = view(&c) else {
        panic!("the list first");
    };
    assert_eq!(first.items[0].text, "Queen mate");
    assert_eq!(first.items[0].lesson, None, "a heading");
    assert_eq!(first.items[1].text, "Queen mate: the box");
    assert_eq!(first.items[1].detail, "Not tried yet");
    assert_eq!(first.progress, "0 of 24 passed");
    assert!(!first.can_prev && first.can_next);
    c.on(|e: &mut Endgames, cx| e.button(cx, "next"));
    let EndgamesView::List(second) = view(&c) else {
        panic!("the list");
    };
    assert!(second.can_prev && !second.can_next);
    let lessons = |l: &ListView| l.items.iter().filter(|i| i.lesson.is_some()).count();
    assert_eq!(lessons(&first) + lessons(&second), LESSONS.len());
    c.on(|e: &mut Endgames, cx| e.button(cx, "done"));
    assert_eq!(c.screen(), ScreenKind::Game);
}

/// K+R v K played out with the tables' moves for both sides: passed, the count the shortest,
/// the try recorded; then a slower mate is judged against the shortest.
#[test]
fn a_rook_mate_is_passed_and_its_count_judged() {
    let mut c = endgames();
    c.on(|e: &mut Endgames, cx| e.choose(cx, index_of("krk-1")));
    assert!(lesson_view(&c).thinking, "the tables are asked first");
    assert!(work(&mut c));
    let start = lesson_view(&c);
    let shortest = match probe(
        &lessons::find("krk-1")
            .expect("lesson")
            .position()
            .expect("fen"),
    ) {
        Some(Verdict::WinIn(n)) => n,
        other => panic!("{other:?}"),
    };
    assert!(
        start.goal.contains(&format!("mates in {shortest} move")),
        "{}",
        start.goal
    );
    loop {
        let game = lesson_game(&c);
        let Some(mv) = best_move(game.position()) else {
            break;
        };
        tap_move(&mut c, mv, false);
        assert!(work(&mut c));
        if lesson_view(&c).result.is_some() {
            break;
        }
    }
    let done = lesson_view(&c);
    assert_eq!(done.result, Some(true), "{}", done.verdict);
    assert_eq!(
        done.verdict,
        format!(
            "Passed: mate in {shortest} move{}, the shortest there is.",
            if shortest == 1 { "" } else { "s" }
        )
    );
    let record = c.player().endgames().get("krk-1");
    assert!(record.passed && record.tries == 1);
    assert_eq!(record.best_moves, Some(shortest));

    // Retry: a first move that loses time (the rook to the far side and back is slower).
    c.on(|e: &mut Endgames, cx| e.button(cx, "retry"));
    assert!(work(&mut c));
    let mut slow = true;
    loop {
        let game = lesson_game(&c);
        let pos = *game.position();
        let before = probe(&pos).and_then(Verdict::plies_to_mate).expect("won");
        let mv = if slow {
            // Any winning move that does not shorten the mate.
            pos.legal_moves()
                .iter()
                .copied()
                .find(|&mv| {
                    let after = probe(&pos.play(mv).expect("legal"));
                    matches!(after, Some(Verdict::LossIn(_)))
                        && after.and_then(Verdict::plies_to_mate).expect("won") + 1 > before
                })
                .expect("a slower move")
        } else {
            best_move(&pos).expect("a move")
        };
        slow = false;
        tap_move(&mut c, mv, false);
        assert!(work(&mut c));
        if lesson_view(&c).result.is_some() {
            break;
        }
    }
    let done = lesson_view(&c);
    assert_eq!(done.result, Some(true), "{}", done.verdict);
    assert!(
        done.verdict
            .ends_with(&format!("the shortest was {shortest}.")),
        "{}",
        done.verdict
    );
    let effects = c.take_effects();
    assert_eq!(tried(&effects).len(), 1);
    let record = c.player().endgames().get("krk-1");
    assert_eq!((record.tries, record.best_moves), (2, Some(shortest)));
}

/// K+P v K: the one move that draws is refused at once, in the coach's words, and the
/// computer does not answer it; Retry starts again.
#[test]
fn a_move_that_throws_the_win_away_fails_the_lesson() {
    let mut c = endgames();
    c.on(|e: &mut Endgames, cx| e.choose(cx, index_of("kpk-1")));
    assert!(work(&mut c));
    let pos = *lesson_game(&c).position();
    let drawing = pos
        .legal_moves()
        .iter()
        .copied()
        .find(|&mv| probe(&pos.play(mv).expect("legal")) == Some(Verdict::Draw))
        .expect("a drawing move");
    tap_move(&mut c, drawing, false);
    assert!(work(&mut c));
    let failed = lesson_view(&c);
    assert_eq!(failed.result, Some(false));
    assert!(
        failed.verdict.contains("this throws the win away"),
        "{}",
        failed.verdict
    );
    assert_eq!(lesson_game(&c).moves().len(), 1, "the reply is not played");
    let effects = c.take_effects();
    assert_eq!(
        tried(&effects),
        vec![("kpk-1".to_string(), false, 1)],
        "the try recorded"
    );
    // No more moves on a finished try.
    tap_move(&mut c, pos.legal_moves()[0], false);
    assert!(!work(&mut c));
    c.on(|e: &mut Endgames, cx| e.button(cx, "retry"));
    assert!(work(&mut c));
    assert_eq!(lesson_view(&c).result, None);
    assert!(lesson_game(&c).moves().is_empty());
    c.on(|e: &mut Endgames, cx| e.button(cx, "lessons"));
    let row = |c: &Controller| match view(c) {
        EndgamesView::List(list) => list
            .items
            .into_iter()
            .find(|i| i.lesson == Some(index_of("kpk-1"))),
        EndgamesView::Lesson(_) => panic!("back to the list"),
    };
    let row = row(&c)
        .or_else(|| {
            c.on(|e: &mut Endgames, cx| e.button(cx, "next"));
            row(&c)
        })
        .expect("the lesson's row");
    assert_eq!(row.detail, "Not passed yet · 1 try");
}

/// A lesson's search stops the computer's own; Done gives the game its turn back.
#[test]
fn the_games_search_waits_until_endgames_closes() {
    let mut c = Controller::new(GameSetup {
        mode: crate::app::model::mode::Mode::Computer {
            human: Color::Black,
        },
        level: Level::DEFAULT,
    });
    assert_eq!(c.session().thinking.purpose(), Some(Purpose::Move));
    c.go(Go::Endgames);
    c.take_effects();
    c.on(|e: &mut Endgames, cx| e.choose(cx, index_of("kqk-3")));
    assert!(
        c.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::CancelThinking))
    );
    c.on(|e: &mut Endgames, cx| e.button(cx, "done"));
    assert_eq!(c.screen(), ScreenKind::Game);
    let asked = crate::app::screens::test_support::think_ids(&c.take_effects());
    assert!(
        asked.iter().any(|&(_, p)| p == Purpose::Move),
        "the computer thinks again: {asked:?}"
    );
}
