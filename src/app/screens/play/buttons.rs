//! The side panel's buttons: what each does and which are offered now; takebacks.

use super::board::{Gate, Play};
use super::present::GameView;
use crate::app::model::mode::Mode;
use crate::app::screens::{Controller, Ctx, Dialog, Effect, Go, Purpose};
use crate::app::session::coach::CoachAnswer;
use crate::app::session::game::GameSession;
use crate::app::session::partner::rules::can_ask_takeback;
use crate::lan::codec::OfferKind;
use crate::tr;

/// A button of the side panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    NewGame,
    Undo,
    Hint,
    Flip,
    ResignOrDraw,
    Menu,
    Review,
    ReviewFirst,
    ReviewBack,
    ReviewForward,
    ReviewLast,
    ReviewDone,
    /// The computer plays the best move it has found so far.
    MoveNow,
    /// The reviewed position goes into the position editor.
    SetUp,
    /// Analyse the finished (or saved) game.
    Analyse,
    /// Jump to the next mistake or blunder of the analysed game.
    NextMistake,
    /// The coach's warning: take the move back.
    TakeBack,
    /// The coach's warning: keep the move.
    PlayOn,
    /// The coach's warning: draw the better move and say why.
    ShowMe,
}

impl Action {
    fn label(self) -> String {
        match self {
            Action::NewGame => tr!("New game"),
            Action::Undo => tr!("Undo"),
            Action::Hint => tr!("Hint"),
            Action::Flip => tr!("Flip"),
            Action::ResignOrDraw => tr!("Resign / Draw"),
            Action::Menu => tr!("Menu"),
            Action::Review => tr!("Review"),
            Action::ReviewFirst => tr!("|◀ Start"),
            Action::ReviewBack => tr!("◀ Back"),
            Action::ReviewForward => tr!("Next ▶"),
            Action::ReviewLast => tr!("End ▶|"),
            Action::ReviewDone => tr!("Done"),
            Action::MoveNow => tr!("Move now"),
            Action::SetUp => tr!("Set up"),
            Action::Analyse => tr!("Analyse"),
            Action::NextMistake => tr!("Next mistake"),
            Action::TakeBack => tr!("Take back"),
            Action::PlayOn => tr!("Keep it"),
            Action::ShowMe => tr!("Show me"),
        }
    }
}

/// A button as the screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ActionItem {
    pub action: Action,
    pub label: String,
    pub enabled: bool,
    pub primary: bool,
}

impl Controller {
    /// A side-panel button: done if the panel offers it now.
    pub fn action(&mut self, action: Action) {
        let gate = {
            let view = self.game_view();
            if !view
                .actions()
                .iter()
                .any(|a| a.action == action && a.enabled)
            {
                return;
            }
            view.gate()
        };
        self.part(|p: &mut Play, cx| p.action(cx, gate, action));
    }
}

impl Play {
    /// A side-panel button the panel offers (see [`Controller::action`]); what belongs to
    /// another part of the game (the coach, the analysis, a saved game) is sent as a [`Go`].
    pub fn action(&mut self, cx: &mut Ctx, gate: Gate, action: Action) {
        cx.session.note = None;
        match action {
            Action::NewGame => cx.go(Go::NewGame),
            // A network game's moves belong to both players: ask, do not take.
            Action::Undo if cx.session.partner().is_some() => {
                cx.go(Go::OfferToPartner(OfferKind::Takeback));
            }
            Action::Undo => undo(cx),
            Action::Hint => {
                self.input.deselect();
                cx.session.thinking.set_hint(None);
                cx.go(Go::Think(Purpose::Hint));
            }
            Action::Flip => self.flip(cx, gate),
            Action::ResignOrDraw => *cx.dialog = Some(Dialog::ResignOrDraw),
            Action::Menu => *cx.dialog = Some(Dialog::Menu),
            Action::Review => cx.session.review = Some(cx.session.game.moves().len()),
            Action::ReviewFirst => cx.session.review = Some(0),
            Action::ReviewBack => {
                cx.session.review = cx.session.review.map(|p| p.saturating_sub(1));
            }
            Action::ReviewForward => {
                let end = cx.session.game.moves().len();
                cx.session.review = cx.session.review.map(|p| (p + 1).min(end));
            }
            Action::ReviewLast => cx.session.review = Some(cx.session.game.moves().len()),
            Action::ReviewDone => {
                cx.session.review = None;
                cx.go(Go::LeaveReview);
            }
            Action::Analyse => cx.go(Go::Analyse),
            Action::NextMistake => cx.go(Go::NextMistake),
            Action::MoveNow => cx.effect(Effect::MoveNow),
            Action::SetUp => cx.go(Go::Editor),
            Action::TakeBack => cx.go(Go::Coach(CoachAnswer::TakeBack)),
            Action::PlayOn => cx.go(Go::Coach(CoachAnswer::PlayOn)),
            Action::ShowMe => cx.go(Go::Coach(CoachAnswer::ShowMe)),
        }
    }
}

/// How many moves an Undo takes back: vs the computer, back to the player's previous turn
/// (their move and the reply); between two players, one move.
fn undo_count(session: &GameSession) -> usize {
    // Time that ran out cannot be taken back: the game stays lost (or drawn) on time.
    if session
        .game
        .outcome()
        .is_some_and(|o| o.termination == chesspi_engine::game::Termination::Time)
    {
        return 0;
    }
    let moves = session.game.moves().len();
    match session.setup.mode {
        Mode::Demo | Mode::Network { .. } => 0,
        Mode::Friend => moves.min(1),
        Mode::Computer { human } => {
            // Take back until a move of the player's is undone and it is their turn.
            let positions = session.game.positions();
            let mut count = 0;
            let mut took_human_move = false;
            while count < moves {
                let before = &positions[moves - count - 1];
                count += 1;
                if before.turn() == human {
                    took_human_move = true;
                    break;
                }
            }
            if took_human_move { count } else { 0 }
        }
    }
}

/// Undo: a finished game reopened, or the moves of [`undo_count`] taken back; the game then
/// goes on.
fn undo(cx: &mut Ctx) {
    if cx.session.setup.can_reopen(&cx.session.game) && cx.session.game.reopen().is_some() {
        cx.cancel_thinking();
        cx.go(Go::DropAnalysis);
        cx.session.review = None;
        cx.session.claim_offered_at = Some(cx.session.game.moves().len());
        // Its result may have counted already; played on, it does not count again.
        if cx.session.record().is_rated() && matches!(cx.session.setup.mode, Mode::Computer { .. })
        {
            cx.session
                .set_unrated(crate::app::session::game::Unrated::PlayedOn);
            cx.session.note = Some(tr!("Taken back — play on; this game is not rated"));
        }
        cx.go(Go::Resume);
        return;
    }
    let count = undo_count(cx.session);
    if count == 0 {
        return;
    }
    cx.cancel_thinking();
    cx.go(Go::DropAnalysis);
    for _ in 0..count {
        cx.session.game.undo();
    }
    cx.session.review = None;
    // Do not offer the same claim again right after a takeback.
    cx.session.claim_offered_at = Some(cx.session.game.moves().len());
    cx.go(Go::Resume);
}

impl GameView<'_> {
    /// The buttons the side panel shows now.
    pub fn actions(&self) -> Vec<ActionItem> {
        let network = self.session.partner().is_some();
        let browsing = self.browsing;
        let item = |action: Action, enabled: bool, primary: bool| ActionItem {
            action,
            label: match action {
                Action::Undo if network => tr!("Ask for takeback"),
                Action::ReviewDone if browsing => tr!("Back to game"),
                _ => action.label(),
            },
            enabled,
            primary,
        };
        let moves = self.session.game.moves().len();
        // Seven or eight buttons: the four steps on the first row (see ui/side-panel.slint).
        if let Some(ply) = self.session.review {
            let mut items = vec![
                item(Action::ReviewFirst, ply > 0, false),
                item(Action::ReviewBack, ply > 0, false),
                item(Action::ReviewForward, ply < moves, false),
                item(Action::ReviewLast, ply < moves, false),
            ];
            // A finished or saved game: "Analyse", then "Next mistake" once analysed.
            if self.analysis.analysed {
                items.push(item(Action::NextMistake, self.analysis.has_mistakes, false));
            } else if self.analysis.can_analyse {
                items.push(item(Action::Analyse, true, false));
            }
            items.extend([
                item(Action::Flip, true, false),
                item(Action::SetUp, true, false),
                item(Action::ReviewDone, true, true),
            ]);
            return items;
        }
        // The coach's warning: its three choices first, the rest of the game waits.
        if let Some(advice) = self.session.coach().advice() {
            return vec![
                item(Action::TakeBack, true, true),
                item(Action::PlayOn, true, false),
                item(Action::ShowMe, !advice.showing_better, false),
                item(Action::NewGame, true, false),
                item(Action::Flip, true, false),
                item(Action::Menu, true, false),
            ];
        }
        let can_undo = self.session.setup.can_reopen(&self.session.game)
            || undo_count(self.session) > 0
            || can_ask_takeback(self.session);
        if self.session.game.is_over() {
            return vec![
                item(Action::NewGame, true, true),
                item(Action::Review, moves > 0, false),
                item(Action::Undo, can_undo, false),
                item(Action::Analyse, self.analysis.analysable, false),
                item(Action::Flip, true, false),
                item(Action::Menu, true, false),
            ];
        }
        let human_turn = self.session.human_to_move();
        let hint_running = self.session.thinking.is_busy();
        let playing = self.session.setup.mode != Mode::Demo;
        // While the computer thinks about its move, Hint's place says "Move now".
        let third = if self.session.is_computer_thinking() && playing {
            item(Action::MoveNow, true, false)
        } else {
            item(Action::Hint, human_turn && !hint_running, false)
        };
        vec![
            item(Action::NewGame, true, false),
            item(Action::Undo, can_undo, false),
            third,
            item(Action::Flip, true, false),
            item(Action::ResignOrDraw, playing, false),
            item(Action::Menu, true, false),
        ]
    }
}
