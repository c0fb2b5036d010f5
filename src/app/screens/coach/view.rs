//! The coach's warning as the window shows it: the card over the move list, the marked
//! squares and the arrows (ui/coach.slint).

use crate::app::screens::Controller;
use crate::app::screens::board_view::arrow_path;
use crate::app::screens::words::coach_language;
use crate::app::ui::{AppWindow, CoachAdapter};
use chesspi_engine::Square;
use chesspi_engine::analysis::MoveClass;
use chesspi_engine::coach::{Threat, words};

/// The warning in words and marks, for the window.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CoachView {
    pub visible: bool,
    pub blunder: bool,
    pub text: String,
    pub better: String,
    /// Display cells (from, to) of the opponent's punishing answer and of the better move.
    pub threat: Option<(usize, usize)>,
    pub better_move: Option<(usize, usize)>,
}

impl Controller {
    /// The squares the warning is about, or the piece a shown threat is after.
    pub fn coach_marks(&self) -> Vec<Square> {
        if let Some(advice) = self.coach_advice() {
            return advice.judgement.reason.squares();
        }
        match self.shown_threat() {
            Some(Threat::Wins { wins, .. }) => vec![wins.square],
            _ => Vec::new(),
        }
    }

    /// The warning as the window shows it.
    pub fn coach_view(&self) -> CoachView {
        let cell = |sq| crate::app::screens::board_view::display_cell(self.session.flipped, sq);
        let cells = |mv: chesspi_engine::Move| (cell(mv.from()), cell(mv.to()));
        let Some(advice) = self.coach_advice() else {
            // A threat shown: its arrow, no card.
            return CoachView {
                threat: self.shown_threat().map(|t| cells(t.first())),
                ..CoachView::default()
            };
        };
        let j = &advice.judgement;
        let blunder = j.verdict >= MoveClass::Blunder;
        CoachView {
            visible: true,
            blunder,
            text: words::sentence(j, coach_language()),
            better: if advice.showing_better {
                words::better_move(j, coach_language())
            } else {
                String::new()
            },
            threat: j.refutation.first().copied().map(cells),
            better_move: advice.showing_better.then(|| cells(j.best)),
        }
    }
}

/// Shows the warning (or hides the card).
pub fn refresh(window: &AppWindow, view: &CoachView) {
    use slint::ComponentHandle;
    let adapter = window.global::<CoachAdapter>();
    let arrow = |cells: Option<(usize, usize)>| {
        cells
            .map(|(from, to)| arrow_path(from, to))
            .unwrap_or_default()
    };
    adapter.set_visible(view.visible);
    adapter.set_blunder(view.blunder);
    adapter.set_text(view.text.as_str().into());
    adapter.set_better(view.better.as_str().into());
    adapter.set_threat_arrow(arrow(view.threat).into());
    adapter.set_better_arrow(arrow(view.better_move).into());
}
