//! The coach's warning as the window shows it: the card over the move list and the arrows
//! (ui/coach.slint), read from the game session. (The squares it marks are the board's,
//! `Coaching::marks`.)

use crate::app::screens::board_view::{arrow_path, display_cell};
use crate::app::screens::words::coach_language;
use crate::app::session::game::GameSession;
use crate::app::ui::{AppWindow, CoachAdapter};
use chesspi_engine::analysis::MoveClass;
use chesspi_engine::coach::words;

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

/// The warning as the window shows it (or, without one, the arrow of a threat shown).
pub fn coach_view(session: &GameSession) -> CoachView {
    let cells = |mv: chesspi_engine::Move| {
        (
            display_cell(session.is_flipped(), mv.from()),
            display_cell(session.is_flipped(), mv.to()),
        )
    };
    let Some(advice) = session.coach().advice() else {
        // A threat shown: its arrow, no card.
        return CoachView {
            threat: session.shown_threat().map(|t| cells(t.first())),
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
