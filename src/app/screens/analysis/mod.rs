//! Analysing the game on the board (finished, or a saved one under review): starting and
//! cancelling the worker, taking its passes, the graph's taps and "Next mistake".
//!
//! [`Analysis`] is a part of the controller ([`super::Parts`]): the shell and the analysis
//! link reach it with `c.part(|a: &mut Analysis, cx| …)` and read it with
//! `c.get::<Analysis>()`; other screens send a [`Go`] (`Go::Analyse`, `Go::DropAnalysis`…).
//! Whether the game on the board is a saved one is the viewing part's: it comes in as
//! `saved`, and a finished analysis is stored with the saved game's id through
//! `Go::StoreAnalysis`.

pub mod board;
pub mod link;

pub mod worker;

use super::{Ctx, Effect, Go};
use crate::app::screens::board_view::display_cell;
use crate::app::session::game::GameSession;
use crate::app::session::marks::{AnalysisMarks, mark};
use crate::tr;
use chesspi_engine::analysis::MoveClass;
use chesspi_engine::san::to_san;
use worker::{AnalysisReport, PASSES};

/// The analysis of one game.
#[derive(Debug, Clone, Default)]
struct Analysing {
    /// The worker's id; reports with another are stale.
    id: u64,
    /// The newest pass's result.
    review: Option<AnalysisMarks>,
    /// (pass, positions done, positions in all) while running.
    progress: Option<(usize, usize, usize)>,
    /// Why it failed, if it did.
    failed: Option<String>,
}

/// Game analysis: the analysis of the game on the board, and one asked for the saved game
/// being opened.
#[derive(Debug, Clone, Default)]
pub struct Analysis {
    /// The analysis of the game on the board (running or done).
    current: Option<Analysing>,
    /// "Analyse" was chosen for a saved game: analyse it once it is open.
    analyse_on_open: bool,
}

/// The analysis as the screen shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct AnalysisView {
    /// One value per position, -1..=1 (White's advantage up); empty before the first pass.
    pub graph: Vec<f32>,
    /// The position shown (0..=moves).
    pub ply: usize,
    /// Mistakes and blunders on the graph: (ply, class).
    pub marks: Vec<(usize, MoveClass)>,
    /// 0..1 while running, `None` when done.
    pub progress: Option<f32>,
    /// What the analysis says about the move shown ("Blunder — Nc3 was best").
    pub line: String,
    /// Each side's accuracy, for the result card ("" before the first pass).
    pub accuracy: String,
    /// The better move at the bad move shown, as display cells (from, to), for the arrow.
    pub better: Option<(usize, usize)>,
}

impl Analysis {
    /// Whether the game on the board is one to analyse: finished or a saved one (`saved`),
    /// with moves.
    pub fn analysable(&self, session: &GameSession, saved: bool) -> bool {
        (session.game.is_over() || saved) && !session.game.moves().is_empty()
    }

    /// Whether an analysis can start now (none yet for this game).
    pub fn can_analyse(&self, session: &GameSession, saved: bool) -> bool {
        self.analysable(session, saved) && self.current.is_none()
    }

    /// Whether an analysis (running or done) belongs to the game on the board.
    pub fn exists(&self) -> bool {
        self.current.is_some()
    }

    /// "Analyse": starts the worker and shows the game for review meanwhile; `saved`: the
    /// game on the board is a saved one.
    pub fn start(&mut self, cx: &mut Ctx, saved: bool) {
        if !self.analysable(cx.session, saved) {
            return;
        }
        let session = &mut *cx.session;
        if self.current.is_some() {
            // Analysed (or under way) already: back to the review with its graph.
            session.review.get_or_insert(session.game.moves().len());
            return;
        }
        let id = session.thinking.fresh_id();
        self.current = Some(Analysing {
            id,
            progress: Some((0, 0, session.game.moves().len() + 1)),
            ..Analysing::default()
        });
        if session.review.is_none() {
            session.review = Some(session.game.moves().len());
        }
        cx.effect(Effect::Analyse {
            id,
            start: *cx.session.game.initial_position(),
            moves: cx.session.game.moves().to_vec(),
        });
    }

    /// "Analyse" was chosen for a saved game: it is analysed once open (see
    /// [`Self::saved_opened`]).
    pub fn analyse_on_open(&mut self) {
        self.analyse_on_open = true;
    }

    /// The saved game looked through came from the archive, with its stored analysis if it
    /// has one: that is shown; without one, it is analysed if "Analyse" opened it.
    pub fn saved_opened(&mut self, cx: &mut Ctx, marks: Option<AnalysisMarks>) {
        match marks {
            Some(marks) => self.set_stored_marks(cx.session, marks),
            None if self.analyse_on_open => self.start(cx, true),
            None => {}
        }
        self.analyse_on_open = false;
    }

    /// A saved game came with its stored analysis: shown without analysing again.
    fn set_stored_marks(&mut self, session: &GameSession, review: AnalysisMarks) {
        if review.moves() == session.game.moves().len() {
            self.current = Some(Analysing {
                review: Some(review),
                ..Analysing::default()
            });
        }
    }

    /// The stored analysis of the finished game on the board, found after a restart: shown
    /// as it was, if that game (`moves`) is still on the board (no `saved` game in its place)
    /// and not analysed meanwhile.
    pub fn stored_marks_found(
        &mut self,
        session: &GameSession,
        saved: bool,
        moves: &[chesspi_engine::Move],
        review: AnalysisMarks,
    ) {
        if session.game.is_over()
            && !saved
            && self.current.is_none()
            && session.game.moves() == moves
        {
            self.set_stored_marks(session, review);
        }
    }

    /// Drops the analysis (another game on the board, or leaving a running one).
    pub fn discard(&mut self, cx: &mut Ctx) {
        if let Some(a) = self.current.take()
            && a.progress.is_some()
        {
            cx.effect(Effect::CancelAnalysis);
        }
    }

    /// Leaving the review: a running analysis stops at once; a finished one stays.
    pub fn leave_review(&mut self, cx: &mut Ctx) {
        if self.current.as_ref().is_some_and(|a| a.progress.is_some()) {
            self.discard(cx);
        }
    }

    /// A report of the analysis worker (on the UI thread).
    pub fn report(&mut self, cx: &mut Ctx, report: AnalysisReport) {
        let Some(a) = self.current.as_mut() else {
            return;
        };
        match report {
            AnalysisReport::Progress { id, pass, progress } if id == a.id => {
                a.progress = Some((pass, progress.done, progress.total));
            }
            AnalysisReport::Pass { id, analysis, last } if id == a.id => {
                a.review = Some(AnalysisMarks::from_analysis(&analysis));
                if last {
                    a.progress = None;
                    if let Some(words) = left_the_book(&cx.session.game) {
                        cx.session.note = Some(words);
                    }
                    // Stored with the saved game looked through, if it is one.
                    cx.go(Go::StoreAnalysis(analysis));
                }
            }
            AnalysisReport::Failed { id, error } if id == a.id => {
                log::error!("the analysis failed: {error}");
                a.progress = None;
                a.failed = Some(error);
            }
            _ => {}
        }
    }

    /// A tap on the graph at `fraction` (0..1) of its width: the board shows that position.
    pub fn graph_tapped(&self, cx: &mut Ctx, fraction: f32) {
        let session = &mut *cx.session;
        if self.current.is_none() || session.review.is_none() {
            return;
        }
        let moves = session.game.moves().len();
        let ply = (fraction.clamp(0.0, 1.0) * moves as f32).round() as usize;
        session.review = Some(ply.min(moves));
    }

    /// "Next mistake": the board jumps to the next mistake or blunder (from the start again
    /// after the last).
    pub fn next_mistake(&self, cx: &mut Ctx) {
        let session = &mut *cx.session;
        let ply = session.review.unwrap_or(0);
        let Some(next) = self.marks().and_then(|r| r.next_mistake(ply)) else {
            return;
        };
        // Wrapping round (or staying put) is said: a tap that seems to do nothing is not.
        if next == ply {
            session.note = Some(tr!("This is the game's only mistake"));
        } else if next < ply {
            session.note = Some(tr!("No more mistakes after this one — back to the first"));
        }
        session.review = Some(next);
    }

    /// Whether the analysis found a mistake or blunder ("Next mistake" has somewhere to go).
    pub fn has_mistakes(&self) -> bool {
        self.marks().is_some_and(|r| r.next_mistake(0).is_some())
    }

    /// The newest pass's marks, once there is one.
    pub fn marks(&self) -> Option<&AnalysisMarks> {
        self.current.as_ref().and_then(|a| a.review.as_ref())
    }

    /// The class of the move that led to position `ply`, once analysed.
    pub fn class_at(&self, ply: usize) -> Option<MoveClass> {
        self.marks().and_then(|r| r.class_at(ply))
    }

    /// The better move at the bad move shown on the board (drawn as an arrow).
    pub fn shown_better_move(&self, session: &GameSession) -> Option<chesspi_engine::Move> {
        let ply = session.review?;
        self.marks()?.better_at(ply)
    }

    /// The analysis for the screen, while one belongs to the game on the board.
    pub fn view(&self, session: &GameSession) -> Option<AnalysisView> {
        let a = self.current.as_ref()?;
        let ply = session.review.unwrap_or(session.game.moves().len());
        let review = a.review.as_ref();
        let progress = a.progress.map(|(pass, done, total)| {
            (pass as f32 + done as f32 / total.max(1) as f32) / PASSES.len() as f32
        });
        let marks = review.map_or_else(Vec::new, |r| {
            (1..=r.moves())
                .filter_map(|p| r.class_at(p).map(|c| (p, c)))
                .filter(|(_, c)| *c >= MoveClass::Mistake)
                .collect()
        });
        let line = match (&a.failed, review) {
            (Some(_), _) => tr!("The game could not be analysed."),
            (None, None) => tr!("Analysing…"),
            (None, Some(r)) => verdict(session, r, ply),
        };
        let accuracy = review
            .and_then(|r| Some((r.white_accuracy?, r.black_accuracy?)))
            .map(|(w, b)| tr!("Accuracy: White {}% · Black {}%", w.round(), b.round()))
            .unwrap_or_default();
        let cell = |sq| display_cell(session.flipped, sq);
        Some(AnalysisView {
            graph: review.map(AnalysisMarks::graph).unwrap_or_default(),
            ply,
            marks,
            progress,
            line,
            accuracy,
            better: self
                .shown_better_move(session)
                .map(|m| (cell(m.from()), cell(m.to()))),
        })
    }
}

/// Where the game left the named lines while they went on, in words for the status line:
/// "3…a5 left the Italian Game; the book had Bc5, Nf6" (the opening's family, at most three
/// of the book's moves).
pub(crate) fn left_the_book(game: &chesspi_engine::game::Game) -> Option<String> {
    let left = chesspi_engine::openings::left_lines(game)?;
    let before = &game.positions()[left.ply - 1];
    let number = left.ply.div_ceil(2);
    let played = crate::i18n::san(&to_san(before, game.moves()[left.ply - 1]));
    let played = if left.ply % 2 == 1 {
        format!("{number}.{played}")
    } else {
        format!("{number}…{played}")
    };
    let book: Vec<String> = left
        .book
        .iter()
        .take(3)
        .map(|&mv| crate::i18n::san(&to_san(before, mv)))
        .collect();
    let book = book.join(", ");
    Some(match left.opening {
        Some(opening) => {
            let name = match crate::i18n::language() {
                crate::i18n::Language::German => opening.german_name().into_owned(),
                _ => opening.name.to_string(),
            };
            // The family alone: the side panel names the whole line, and the status card
            // holds three short lines.
            let name = name.split_once(": ").map_or(name.as_str(), |(f, _)| f);
            tr!("{} left the {}; the book had {}", played, name, book)
        }
        None => tr!("{} left the book; it had {}", played, book),
    })
}

/// The words on the move shown: its class and the better move.
fn verdict(session: &GameSession, r: &AnalysisMarks, ply: usize) -> String {
    let Some(class) = r.class_at(ply) else {
        return tr!("Tap the graph to go to a move");
    };
    let san = crate::i18n::san(&to_san(
        &session.game.positions()[ply - 1],
        session.game.moves()[ply - 1],
    ));
    let word = match class {
        MoveClass::Best => tr!("best move"),
        MoveClass::Good => tr!("good move"),
        MoveClass::Inaccuracy => tr!("inaccuracy"),
        MoveClass::Mistake => tr!("mistake"),
        MoveClass::Blunder => tr!("blunder"),
    };
    let played = format!("{san}{}: {word}", mark(class));
    match r.better_at(ply) {
        Some(best) => {
            let best = crate::i18n::san(&to_san(&session.game.positions()[ply - 1], best));
            tr!("{} — {} was best", played, best)
        }
        None => played,
    }
}

/// A small, repeatable analysis of `game` (2,000 nodes a position), for tests here and in
/// the saver's.
#[cfg(test)]
pub(crate) fn quick_analysis(
    game: &chesspi_engine::game::Game,
) -> chesspi_engine::analysis::GameAnalysis {
    let limits = chesspi_engine::analysis::AnalysisLimits {
        nodes: Some(2_000),
        ..chesspi_engine::analysis::AnalysisLimits::default()
    };
    chesspi_engine::analysis::Analyzer::new(limits)
        .expect("bounded")
        .analyse(
            game.initial_position(),
            game.moves(),
            &std::sync::atomic::AtomicBool::new(false),
            &mut |_| {},
        )
        .expect("analysed")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::model::mode::{GameSetup, Mode};
    use crate::app::screens::Controller;
    use chesspi_engine::game::Game;
    use chesspi_engine::level::Level;

    const FRIEND: GameSetup = GameSetup {
        mode: Mode::Friend,
        level: Level::DEFAULT,
    };

    fn fools_mate() -> Controller {
        let mut game = Game::new();
        for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
            let mv = game.position().parse_uci_move(uci).expect("uci");
            game.play(mv).expect("legal");
        }
        let mut c = Controller::with_game(game, FRIEND);
        c.take_effects();
        c
    }

    /// Starts the analysis; returns its id.
    fn analyse(c: &mut Controller) -> u64 {
        c.action(super::super::Action::Analyse);
        let id = c.take_effects().iter().find_map(|e| match e {
            Effect::Analyse { id, moves, .. } if moves.len() == 4 => Some(*id),
            _ => None,
        });
        id.expect("an Analyse effect")
    }

    fn cancelled(c: &mut Controller) -> bool {
        c.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::CancelAnalysis))
    }

    fn finished(id: u64, c: &Controller) -> AnalysisReport {
        AnalysisReport::Pass {
            id,
            analysis: Box::new(quick_analysis(c.session().game())),
            last: true,
        }
    }

    #[test]
    fn the_analysis_says_where_the_game_left_its_opening() {
        let mut game = Game::new();
        for uci in ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "a7a5"] {
            let mv = game.position().parse_uci_move(uci).expect("legal");
            game.play(mv).expect("played");
        }
        let words = super::left_the_book(&game).expect("left the lines");
        assert!(
            words.starts_with("3…a5 left the Italian Game; the book had "),
            "{words}"
        );
        assert!(words.contains("Bc5"), "{words}");
        // Said in the status line once the analysis of the finished game is done.
        game.resign(chesspi_engine::Color::White).expect("resigned");
        let mut c = Controller::with_game(game, FRIEND);
        c.take_effects();
        c.action(super::super::Action::Analyse);
        let id = c.take_effects().iter().find_map(|e| match e {
            Effect::Analyse { id, .. } => Some(*id),
            _ => None,
        });
        let report = finished(id.expect("an Analyse effect"), &c);
        c.part(|a: &mut Analysis, cx| a.report(cx, report));
        assert_eq!(c.session().note.as_deref(), Some(words.as_str()));
        // A game whose moves stay on the lines (fool's mate is one) says nothing.
        let mut c = fools_mate();
        let id = analyse(&mut c);
        let report = finished(id, &c);
        c.part(|a: &mut Analysis, cx| a.report(cx, report));
        assert_eq!(c.session().note, None);
    }

    #[test]
    fn leaving_a_running_analysis_cancels_it_and_a_finished_one_stays() {
        type Leave = fn(&mut Controller);
        let leaves: [(&str, Leave); 2] = [
            ("done", |c| c.action(super::super::Action::ReviewDone)),
            ("new game", |c| c.start(FRIEND, Game::new())),
        ];
        for (what, leave) in leaves {
            let mut c = fools_mate();
            analyse(&mut c);
            assert!(
                c.session().is_reviewing(),
                "{what}: the game is shown for review"
            );
            leave(&mut c);
            assert!(cancelled(&mut c), "{what}: cancelled at once");
            assert!(!c.get::<Analysis>().exists(), "{what}");
        }
        // Finished: Done keeps it (nothing to cancel), Analyse shows it again.
        let mut c = fools_mate();
        let id = analyse(&mut c);
        let report = finished(id, &c);
        c.part(|a: &mut Analysis, cx| a.report(cx, report));
        assert!(
            c.take_effects()
                .iter()
                .any(|e| matches!(e, Effect::StoreAnalysis { saved: None, .. }))
        );
        c.action(super::super::Action::ReviewDone);
        assert!(!cancelled(&mut c));
        assert!(c.get::<Analysis>().exists());
        c.action(super::super::Action::Analyse);
        assert!(c.take_effects().is_empty(), "not analysed again");
        assert!(c.session().is_reviewing());
    }

    #[test]
    fn stale_reports_are_ignored_and_the_graph_and_marks_follow() {
        let mut c = fools_mate();
        let id = analyse(&mut c);
        let report = finished(id + 1, &c);
        c.part(|a: &mut Analysis, cx| a.report(cx, report));
        assert!(
            c.get::<Analysis>()
                .view(c.session())
                .expect("running")
                .graph
                .is_empty()
        );
        let report = finished(id, &c);
        c.part(|a: &mut Analysis, cx| a.report(cx, report));
        let view = c.get::<Analysis>().view(c.session()).expect("done");
        assert_eq!(view.graph.len(), 5);
        assert_eq!(view.graph[4], -1.0, "Black mates");
        assert_eq!(view.progress, None);
        assert!(
            view.marks.contains(&(3, MoveClass::Blunder)),
            "{:?}",
            view.marks
        );
        // The graph: a tap a quarter across shows 1. f3; Next mistake goes to 2. g4.
        c.part(|a: &mut Analysis, cx| a.graph_tapped(cx, 0.25));
        assert_eq!(c.get::<Analysis>().view(c.session()).expect("view").ply, 1);
        c.action(super::super::Action::NextMistake);
        assert_eq!(c.get::<Analysis>().view(c.session()).expect("view").ply, 3);
        assert!(
            c.get::<Analysis>().shown_better_move(c.session()).is_some(),
            "the better move is shown"
        );
        // At the last mistake the step wraps, and says so rather than seeming to do nothing.
        c.action(super::super::Action::NextMistake);
        assert!(c.get::<Analysis>().view(c.session()).expect("view").ply <= 3);
        let said = c.game_view().status().text;
        assert!(
            said == "This is the game's only mistake" || said.starts_with("No more mistakes"),
            "{said}"
        );
        c.action(super::super::Action::ReviewBack);
        assert!(
            c.game_view().status().text.starts_with("Reviewing"),
            "the note goes"
        );
        let rows = c.game_view().move_rows();
        assert_eq!(rows[1].white_class, Some(MoveClass::Blunder));
    }
}
