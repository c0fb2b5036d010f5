//! The board: taps and drags on squares, promotion, and the player's moves.

use crate::app::model::mode::Mode;
use crate::app::screens::board_input::{BoardInput, Touch};
use crate::app::screens::{Controller, Ctx, Effect, Go, LanRequest};
use chesspi_engine::{Move, Role, Square};

/// The game's board: its selection, a press in progress, a promotion waiting for its piece.
/// A [`crate::app::screens::Part`]; its methods take a [`Ctx`] and, where they need it, the
/// [`Gate`] the view reads (see [`Controller::play`]).
#[derive(Debug, Clone, Default)]
pub struct Play {
    pub(in crate::app::screens) input: BoardInput,
}

/// What the board needs to know of the rest of the game screen, read from
/// [`super::present::GameView::gate`] before a touch.
#[derive(Debug, Clone, Copy)]
pub struct Gate {
    /// A saved game is looked through in place of the game.
    pub viewing: bool,
    /// The moves of the game being played are browsed (not a saved game, not a finished one).
    pub browsing: bool,
}

impl Controller {
    /// Runs a method of the game's board with a [`Ctx`] and its [`Gate`], then goes where it
    /// sends the user: `c.play(|p, cx, gate| p.press(cx, gate, square))`.
    pub fn play<R>(&mut self, f: impl FnOnce(&mut Play, &mut Ctx, Gate) -> R) -> R {
        let gate = self.game_view().gate();
        self.part(|p: &mut Play, cx| f(p, cx, gate))
    }
}

impl Play {
    /// A finger down on the board (`None`: off it): selects a piece of the side to move, or
    /// moves the selected one there.
    pub fn press(&mut self, cx: &mut Ctx, gate: Gate, square: Option<Square>) {
        cx.session.note = None;
        // The player is back at the board: a held clock runs again (see `hold_clock`).
        cx.session.clocks.release();
        // A touch on the board while browsing the moves goes back to the game and counts.
        if gate.browsing {
            cx.session.review = None;
        }
        if !cx.session.human_to_move() {
            self.input.end_press();
            return;
        }
        let touch = self.input.press(cx.session.game.position(), square);
        self.touched(cx, touch);
    }

    /// The finger up (`None`: off the board), after a drag or not.
    pub fn release(&mut self, cx: &mut Ctx, square: Option<Square>, dragged: bool) {
        let touch = self
            .input
            .release(cx.session.game.position(), square, dragged);
        self.touched(cx, touch);
    }

    fn touched(&mut self, cx: &mut Ctx, touch: Touch) {
        match touch {
            Touch::Move(mv) => self.play(cx, mv),
            Touch::Missed => cx.effect(Effect::Sound(crate::sound::Cue::Illegal)),
            Touch::Selection => {
                // A piece with moves counts as a touch for Assist.
                if let Some(from) = self.input.selected()
                    && !self.input.targets(cx.session.game.position()).is_empty()
                {
                    cx.session.assist_touch(from);
                }
            }
            Touch::Nothing | Touch::Promotion => {}
        }
    }

    /// The promotion picker's answer; `None` cancels (the pawn stays selected).
    pub fn choose_promotion(&mut self, cx: &mut Ctx, role: Option<Role>) {
        if let Some(mv) = self
            .input
            .choose_promotion(cx.session.game.position(), role)
        {
            self.play(cx, mv);
        }
    }

    /// Turns the board; saved with the game so a restart shows it the same way.
    pub fn flip(&mut self, cx: &mut Ctx, gate: Gate) {
        cx.session.flipped = !cx.session.flipped;
        if !gate.viewing {
            cx.effect(Effect::GameChanged);
        }
    }

    /// A person's move, if they may move and it is legal; the game then goes on.
    pub fn play(&mut self, cx: &mut Ctx, mv: Move) {
        if cx.session.human_to_move() && cx.session.game.play(mv).is_ok() {
            if matches!(cx.session.setup.mode, Mode::Network { .. }) {
                cx.effect(Effect::Lan(LanRequest::Play(mv)));
            }
            cx.session.cancel_hint();
            cx.go(Go::Resume);
        }
    }
}
