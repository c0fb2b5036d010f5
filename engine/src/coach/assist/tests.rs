//! Assist's tests: grades, the coach's verdicts near an edge, the deadline.

use super::*;
use crate::analysis::class_of_loss;

fn position(fen: &str) -> Position {
    Position::from_fen(fen).expect("valid FEN")
}

#[test]
fn the_limit_steps_round_and_refuses_more_than_six() {
    assert!(!AssistLimit::default().is_on());
    assert_eq!(AssistLimit::new(7), None);
    let mut limit = AssistLimit::OFF;
    let mut seen = Vec::new();
    for _ in 0..7 {
        limit = limit.next();
        seen.push(limit.touches());
    }
    assert_eq!(seen, [1, 2, 3, 4, 5, 6, 0]);
    assert_eq!(AssistLimit::new(3).map(AssistLimit::touches), Some(3));
}

#[test]
fn grades_follow_the_coach_classes() {
    assert_eq!(Grade::of(MoveClass::Best), Grade::Good);
    assert_eq!(Grade::of(MoveClass::Good), Grade::Good);
    assert_eq!(Grade::of(MoveClass::Inaccuracy), Grade::Inaccuracy);
    assert_eq!(Grade::of(MoveClass::Mistake), Grade::Bad);
    assert_eq!(Grade::of(MoveClass::Blunder), Grade::Bad);
    // The thresholds are the coach's: a loss of 7 points is an inaccuracy, 12 a mistake.
    assert_eq!(Grade::of(class_of_loss(7.0)), Grade::Inaccuracy);
    assert_eq!(Grade::of(class_of_loss(12.0)), Grade::Bad);
}

#[test]
fn every_legal_move_is_graded_and_only_taking_the_queen_is_green() {
    // Black's queen on h4 hangs to the knight on f3: every other knight move lets it go.
    let pos = position("rnb1kbnr/pppp1ppp/8/4p3/3PP2q/5N2/PPP2PPP/RNBQKB1R w KQkq - 1 4");
    let mut assist = Assist::new(60_000);
    let stop = AtomicBool::new(false);
    let mut reports = Vec::new();
    let grades = assist
        .grade(&pos, &[], &Judging::NONE, &stop, &mut |g| {
            reports.push(g.clone())
        })
        .expect("graded");
    assert_eq!(grades.moves.len(), pos.legal_moves().len());
    assert!(!reports.is_empty());
    assert_eq!(reports.last(), Some(&grades));
    assert!(reports.windows(2).all(|w| w[0].depth < w[1].depth));
    assert!(reports.iter().all(|g| g.depth >= FIRST_DEPTH));
    let take = pos.parse_uci_move("f3h4").expect("Nxh4");
    assert_eq!(grades.moves[0].mv, take);
    assert_eq!(grades.of(take), Some(Grade::Good));
    let knight: Vec<&GradedMove> = grades.from_square(Square::F3).collect();
    assert_eq!(knight.len(), 5);
    assert!(
        knight
            .iter()
            .all(|g| g.mv == take || g.grade() == Grade::Bad)
    );
}

#[test]
fn a_mate_in_one_is_the_best_and_the_only_green_with_the_rook() {
    // Back-rank mate: Ra8#.
    let pos = position("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1");
    let mut assist = Assist::new(20_000);
    let stop = AtomicBool::new(false);
    let grades = assist
        .grade(&pos, &[], &Judging::NONE, &stop, &mut |_| {})
        .expect("graded");
    let mate = pos.parse_uci_move("a1a8").expect("Ra8#");
    assert_eq!(grades.moves[0].mv, mate);
    assert_eq!(grades.moves[0].class, MoveClass::Best);
    // Every other rook move lets the mate go: still winning, but not best.
    assert!(
        grades
            .from_square(Square::A1)
            .all(|g| g.mv == mate || g.class > MoveClass::Best)
    );
}

#[test]
fn no_moves_and_cancelled_are_errors() {
    let mated = position("R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 1 1");
    let stop = AtomicBool::new(false);
    let mut assist = Assist::new(1_000);
    assert_eq!(
        assist.grade(&mated, &[], &Judging::NONE, &stop, &mut |_| {}),
        Err(CoachError::GameOver)
    );
    let stopped = AtomicBool::new(true);
    let mut called = false;
    assert_eq!(
        assist.grade(
            &Position::startpos(),
            &[],
            &Judging::NONE,
            &stopped,
            &mut |_| called = true
        ),
        Err(CoachError::Cancelled)
    );
    assert!(!called);
}

#[test]
fn settle_puts_the_coach_verdict_on_the_moves_near_an_edge_only() {
    let pos = position("rnb1kbnr/pppp1ppp/8/4p3/3PP2q/5N2/PPP2PPP/RNBQKB1R w KQkq - 1 4");
    let mut assist = Assist::new(20_000);
    let stop = AtomicBool::new(false);
    let mut grades = assist
        .grade(&pos, &[], &Judging::NONE, &stop, &mut |_| {})
        .expect("graded");
    // Put two knight moves at an edge, whatever the search said of them; the others are
    // far from both edges.
    let near: Vec<Move> = ["f3g5", "f3e5"]
        .iter()
        .map(|m| pos.parse_uci_move(m).expect("legal"))
        .collect();
    for g in &mut grades.moves {
        g.class = MoveClass::Good;
        g.loss = if near.contains(&g.mv) { 4.6 } else { 30.0 };
    }
    let two = Judging {
        touched: &[Square::F3],
        threads: Threads::clamped(2),
        until: None,
    };
    let mut reports = 0;
    let judged = assist
        .settle(&pos, &[], &mut grades, &two, &stop, &mut |_| {
            reports += 1;
        })
        .expect("settled");
    assert_eq!((judged, reports), (2, 2));
    let mut coach = Coach::default();
    for g in grades.from_square(Square::F3) {
        assert_eq!(g.judged, near.contains(&g.mv), "{:?}", g.mv);
        if g.judged {
            let verdict = coach.judge(&pos, &[], g.mv, &stop).expect("judged").verdict;
            assert_eq!(g.class, verdict);
        } else {
            assert_eq!(g.class, MoveClass::Good);
        }
    }
    // Nothing is judged twice.
    let again = assist.settle(
        &pos,
        &[],
        &mut grades,
        &Judging {
            threads: Threads::ONE,
            ..two
        },
        &stop,
        &mut |_| {},
    );
    assert_eq!(again, Ok(0));
}

#[test]
fn a_touched_piece_moves_near_an_edge_take_the_coach_verdict_on_any_threads() {
    // The Italian Game before 4.c3: the bishop on c4 has moves of every kind.
    let pos = position("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let stop = AtomicBool::new(false);
    let mut coach = Coach::default();
    for threads in [1, 3] {
        let mut assist = Assist::new(40_000);
        let judging = Judging {
            touched: &[Square::C4],
            threads: Threads::clamped(threads),
            until: None,
        };
        let mut last = None;
        let grades = assist
            .grade(&pos, &[], &judging, &stop, &mut |g| last = Some(g.clone()))
            .expect("graded");
        assert_eq!(last.as_ref(), Some(&grades));
        // Bb3, Bb5 and Be2 lie near an edge at this budget.
        assert!(grades.from_square(Square::C4).filter(|g| g.judged).count() >= 2);
        for g in &grades.moves {
            if g.mv.from() != Square::C4 {
                assert!(!g.judged, "{:?} is not the touched piece's", g.mv);
                continue;
            }
            // Judged or not, a move's class came from the coach once it is near an edge.
            assert!(
                g.judged || !g.near_an_edge(),
                "{:?} ({threads} threads)",
                g.mv
            );
            if g.judged {
                let verdict = coach.judge(&pos, &[], g.mv, &stop).expect("judged");
                assert_eq!(g.class, verdict.verdict, "{:?} ({threads} threads)", g.mv);
            }
        }
    }
}

#[test]
fn no_verdict_is_taken_after_the_deadline() {
    let pos = position("r1bqk1nr/pppp1ppp/2n5/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
    let stop = AtomicBool::new(false);
    let mut assist = Assist::new(40_000);
    let passed = Judging {
        touched: &[Square::C4],
        threads: Threads::clamped(2),
        until: Some(Instant::now()),
    };
    let grades = assist
        .grade(&pos, &[], &passed, &stop, &mut |_| {})
        .expect("graded");
    assert!(grades.moves.iter().all(|g| !g.judged));
    // The search's grades are all there.
    assert_eq!(grades.moves.len(), pos.legal_moves().len());
}

#[test]
fn a_tiny_budget_still_grades_every_move() {
    let mut assist = Assist::new(1);
    let stop = AtomicBool::new(false);
    let mut reported = 0;
    let grades = assist
        .grade(
            &Position::startpos(),
            &[],
            &Judging::NONE,
            &stop,
            &mut |_| reported += 1,
        )
        .expect("graded");
    assert_eq!(grades.moves.len(), 20);
    assert_eq!(reported, 1);
}
