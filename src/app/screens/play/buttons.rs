//! The side panel's buttons: what each does and which are offered now; takebacks.

use crate::app::model::mode::Mode;
use crate::app::screens::{Controller, Dialog, Effect, Go, Purpose};
use crate::app::session::partner::PartnerStep;
use crate::app::session::partner::rules::can_ask_takeback;
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
    /// A side-panel button.
    pub fn action(&mut self, action: Action) {
        if !self
            .actions()
            .iter()
            .any(|a| a.action == action && a.enabled)
        {
            return;
        }
        self.session.note = None;
        match action {
            Action::NewGame => self.open_new_game(),
            // A network game's moves belong to both players: ask, do not take.
            Action::Undo if self.session.partner().is_some() => {
                self.go(Go::Partner(PartnerStep::Offer(
                    crate::lan::codec::OfferKind::Takeback,
                )));
            }
            Action::Undo => self.undo(),
            Action::Hint => {
                self.input.deselect();
                self.session.thinking.set_hint(None);
                self.session.request(Purpose::Hint, self.settings.book);
            }
            Action::Flip => self.flip(),
            Action::ResignOrDraw => self.dialog = Some(Dialog::ResignOrDraw),
            Action::Menu => self.dialog = Some(Dialog::Menu),
            Action::Review => self.session.review = Some(self.session.game.moves().len()),
            Action::ReviewFirst => self.session.review = Some(0),
            Action::ReviewBack => {
                self.session.review = self.session.review.map(|p| p.saturating_sub(1))
            }
            Action::ReviewForward => {
                let end = self.session.game.moves().len();
                self.session.review = self.session.review.map(|p| (p + 1).min(end));
            }
            Action::ReviewLast => self.session.review = Some(self.session.game.moves().len()),
            Action::ReviewDone => {
                self.session.review = None;
                self.go(Go::LeaveReview);
            }
            Action::Analyse => self.go(Go::Analyse),
            Action::NextMistake => self.go(Go::NextMistake),
            Action::MoveNow => self.session.effect(Effect::MoveNow),
            Action::SetUp => self.open_editor(),
            Action::TakeBack => {
                if self.session.coach_take_back() {
                    self.after_change();
                }
            }
            Action::PlayOn => {
                if self.session.coach.play_on() {
                    self.next_turn();
                }
            }
            Action::ShowMe => self.session.coach.show_me(),
        }
    }

    /// How many moves an Undo takes back: vs the computer, back to the player's previous
    /// turn (their move and the reply); between two players, one move.
    pub(in crate::app::screens) fn undo_count(&self) -> usize {
        // Time that ran out cannot be taken back: the game stays lost (or drawn) on time.
        if self
            .session
            .game
            .outcome()
            .is_some_and(|o| o.termination == chesspi_engine::game::Termination::Time)
        {
            return 0;
        }
        let moves = self.session.game.moves().len();
        match self.session.setup.mode {
            Mode::Demo | Mode::Network { .. } => 0,
            Mode::Friend => moves.min(1),
            Mode::Computer { human } => {
                // Take back until a move of the player's is undone and it is their turn.
                let positions = self.session.game.positions();
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

    pub(in crate::app::screens) fn undo(&mut self) {
        if self.session.can_reopen() && self.session.game.reopen().is_some() {
            self.session.cancel_thinking();
            self.go(Go::DropAnalysis);
            self.session.review = None;
            self.session.claim_offered_at = Some(self.session.game.moves().len());
            // Its result may have counted already; played on, it does not count again.
            if self.session.is_rated() && matches!(self.session.setup.mode, Mode::Computer { .. }) {
                self.session
                    .set_unrated(crate::app::session::game::Unrated::PlayedOn);
                self.session.note = Some(tr!("Taken back — play on; this game is not rated"));
            }
            self.after_change();
            return;
        }
        let count = self.undo_count();
        if count == 0 {
            return;
        }
        self.session.cancel_thinking();
        self.go(Go::DropAnalysis);
        for _ in 0..count {
            self.session.game.undo();
        }
        self.session.review = None;
        // Do not offer the same claim again right after a takeback.
        self.session.claim_offered_at = Some(self.session.game.moves().len());
        self.after_change();
    }

    /// The buttons the side panel shows now.
    pub fn actions(&self) -> Vec<ActionItem> {
        let network = self.session.partner().is_some();
        let browsing = self.parts.viewing.is_browsing(&self.session);
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
            if self.parts.analysis.exists() {
                items.push(item(
                    Action::NextMistake,
                    self.parts.analysis.has_mistakes(),
                    false,
                ));
            } else if self
                .parts
                .analysis
                .can_analyse(&self.session, self.parts.viewing.is_viewing_saved())
            {
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
        let can_undo =
            self.session.can_reopen() || self.undo_count() > 0 || can_ask_takeback(&self.session);
        if self.session.game.is_over() {
            return vec![
                item(Action::NewGame, true, true),
                item(Action::Review, moves > 0, false),
                item(Action::Undo, can_undo, false),
                item(
                    Action::Analyse,
                    self.parts
                        .analysis
                        .analysable(&self.session, self.parts.viewing.is_viewing_saved()),
                    false,
                ),
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
