use super::*;
use crate::app::model::mode::GameSetup;
use crate::app::screens::{Action, Go, Reply, ScreenKind};
use crate::storage::puzzles::Puzzle;
use crate::storage::puzzles::PuzzleRecord;
use chesspi_engine::coach::Coach;
use std::sync::atomic::AtomicBool;

/// The puzzle of 1. e4 e5 2. Nf3 Qg5??: Black to move, the mistake Qg5, the best Nc6.
fn puzzle() -> Puzzle {
    let pos = Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2")
        .expect("fen");
    let mistake = pos.parse_uci_move("d8g5").expect("move");
    let best = pos.parse_uci_move("b8c6").expect("move");
    Puzzle::new(
        pos,
        mistake,
        best,
        true,
        "000001-00000000000000aa",
        "2026.11.26",
        0,
    )
    .expect("a puzzle")
}

fn with_puzzle() -> Controller {
    let mut c = Controller::new(GameSetup::FIRST_START);
    let mut book = PuzzleBook::new();
    assert!(book.add(puzzle()));
    c.player_mut().set_puzzles(book);
    c.take_effects();
    c
}

/// Taps `from` then `to` on Train's board (Black at the bottom).
fn tap_move(c: &mut Controller, from: &str, to: &str) {
    for name in [from, to] {
        let sq: Square = name.parse().expect("square");
        let cell = crate::app::screens::board_view::display_cell(true, sq);
        c.on(|t: &mut Training, cx| t.tap(cx, cell % 8, cell / 8));
    }
}

/// Train as the window shows it, while it is open.
fn train_view(c: &Controller) -> Option<TrainView> {
    c.shown::<Training>().map(|t| t.view(c.player().puzzles()))
}

fn tried(c: &mut Controller) -> Vec<(String, bool)> {
    c.take_effects()
        .into_iter()
        .filter_map(|e| match e {
            Effect::PuzzleTried { id, solved, .. } => Some((id, solved)),
            _ => None,
        })
        .collect()
}

#[test]
fn the_menu_counts_the_due_puzzles_and_opens_train() {
    let mut c = with_puzzle();
    assert_eq!(c.player().puzzles_due(), 1);
    c.action(Action::Menu);
    let label = c
        .dialog_view()
        .expect("menu")
        .options
        .iter()
        .find(|o| o.id == "train")
        .map(|o| o.label.clone());
    assert_eq!(label.as_deref(), Some("Train: 1 due"));
    c.dialog_option("train");
    assert_eq!(c.screen(), ScreenKind::Train);
    let view = train_view(&c).expect("the view");
    assert!(view.flipped, "Black to move sits at the bottom");
    assert!(view.prompt.contains("Qg5"), "{}", view.prompt);
    assert!(
        view.arrow.is_some() && !view.arrow_good,
        "the game's mistake drawn"
    );
    assert!(!view.can_next);
}

#[test]
fn the_best_move_solves_at_once() {
    let mut c = with_puzzle();
    c.go(Go::Train);
    tap_move(&mut c, "b8", "c6");
    let view = train_view(&c).expect("view");
    assert_eq!(view.solved, Some(true));
    assert_eq!(view.verdict, "Solved: Nc6 is the best move.");
    assert!(view.can_next && view.arrow_good);
    let id = puzzle().id;
    assert_eq!(tried(&mut c), [(id.clone(), true)]);
    // The local copy moved it on: nothing due now.
    assert_eq!(c.player().puzzles_due(), 0);
    assert_eq!(c.player().puzzles().get(&id).map(|p| p.box_index), Some(1));
    // The board takes no more moves until Next.
    tap_move(&mut c, "g8", "f6");
    assert!(tried(&mut c).is_empty());
    c.on(|t: &mut Training, cx| t.button(cx, "next"));
    let view = train_view(&c).expect("view");
    assert!(view.prompt.starts_with("Nothing due"), "{}", view.prompt);
    c.on(|t: &mut Training, cx| t.button(cx, "done"));
    assert_eq!(c.screen(), ScreenKind::Game);
}

#[test]
fn another_move_is_judged_by_the_coach() {
    for (from, to, solved) in [("g8", "f6", true), ("d8", "g5", false)] {
        let mut c = with_puzzle();
        c.go(Go::Train);
        tap_move(&mut c, from, to);
        let requests: Vec<ThinkRequest> = c
            .take_effects()
            .into_iter()
            .filter_map(|e| match e {
                Effect::Think(r) => Some(r),
                _ => None,
            })
            .collect();
        assert_eq!(requests.len(), 1);
        assert_eq!(requests[0].purpose, Purpose::TrainJudge);
        assert!(train_view(&c).expect("view").thinking);
        let game = &requests[0].game;
        let judgement = Coach::new(20_000)
            .judge(
                &game.positions()[0],
                &[],
                game.moves()[0],
                &AtomicBool::new(false),
            )
            .expect("judged");
        c.computer_answered(requests[0].id, Reply::Judged(Some(Box::new(judgement))));
        let view = train_view(&c).expect("view");
        assert_eq!(view.solved, Some(solved), "{from}{to}: {}", view.verdict);
        assert_eq!(tried(&mut c), [(puzzle().id, solved)]);
    }
}

#[test]
fn without_puzzles_train_says_where_they_come_from() {
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.go(Go::Train);
    let view = train_view(&c).expect("view");
    assert!(view.prompt.starts_with("No puzzles yet"), "{}", view.prompt);
    assert_eq!(view.record, "0 due of 0");
}

#[test]
fn a_try_that_stops_the_computers_search_hands_it_back_on_done() {
    // The computer (Black) is thinking about its move when Train opens.
    let mut c = with_puzzle();
    c.action(Action::Menu);
    let e4 = c
        .session()
        .game()
        .position()
        .parse_uci_move("e2e4")
        .expect("move");
    c.dialog_option("close");
    c.play(|p, cx, gate| p.press(cx, gate, Some(e4.from())));
    c.play(|p, cx, _| p.release(cx, Some(e4.to()), true));
    assert!(c.session().is_computer_thinking());
    c.go(Go::Train);
    tap_move(&mut c, "g8", "f6");
    assert!(
        !c.session().is_computer_thinking(),
        "the judgement took the worker"
    );
    c.take_effects();
    c.on(|t: &mut Training, cx| t.button(cx, "done"));
    assert!(
        c.session().is_computer_thinking(),
        "the computer thinks again"
    );
    assert!(c.take_effects().iter().any(|e| matches!(
        e,
        Effect::Think(ThinkRequest {
            purpose: Purpose::Move,
            ..
        })
    )));
}

/// Issue 47's cosmetics: "2 of 3 solved" is 67 %, the puzzle's date reads as Saved games
/// writes it, and with nothing to solve the heading is not said twice.
#[test]
fn the_record_rounds_the_date_reads_as_saved_games_and_train_is_said_once() {
    let record = PuzzleRecord {
        puzzles: 3,
        due: 1,
        tries: 3,
        solved: 2,
        streak: 1,
        best_streak: 2,
    };
    assert_eq!(record_text(&record), "1 due of 3 · streak 1 · 67 % solved");
    let mut c = with_puzzle();
    c.go(Go::Train);
    let view = train_view(&c).expect("Train open");
    assert_eq!(view.title, "From your game of 26 Nov 2026");
    let mut c = Controller::new(GameSetup::FIRST_START);
    c.go(Go::Train);
    let view = train_view(&c).expect("Train open");
    assert_eq!(view.title, "", "the heading already says Train");
}
