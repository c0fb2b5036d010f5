//! The game screen's side of Slint that is not a board: the side panel's buttons named as the
//! window names them. (The board, players and move list are shown by `shell::view`.)

use super::buttons::Action;
use crate::app::ui::PanelAction;

/// The window's name for a button.
pub fn panel_action(action: Action) -> PanelAction {
    match action {
        Action::NewGame => PanelAction::NewGame,
        Action::Undo => PanelAction::Undo,
        Action::Hint => PanelAction::Hint,
        Action::Flip => PanelAction::Flip,
        Action::ResignOrDraw => PanelAction::ResignOrDraw,
        Action::Menu => PanelAction::Menu,
        Action::Review => PanelAction::Review,
        Action::ReviewFirst => PanelAction::ReviewFirst,
        Action::ReviewBack => PanelAction::ReviewBack,
        Action::ReviewForward => PanelAction::ReviewForward,
        Action::ReviewLast => PanelAction::ReviewLast,
        Action::ReviewDone => PanelAction::ReviewDone,
        Action::MoveNow => PanelAction::MoveNow,
        Action::SetUp => PanelAction::SetUp,
        Action::TakeBack => PanelAction::TakeBack,
        Action::PlayOn => PanelAction::PlayOn,
        Action::ShowMe => PanelAction::ShowMe,
        Action::Analyse => PanelAction::Analyse,
        Action::NextMistake => PanelAction::NextMistake,
    }
}

/// The button the window reports.
pub fn action_of(shown: PanelAction) -> Action {
    match shown {
        PanelAction::NewGame => Action::NewGame,
        PanelAction::Undo => Action::Undo,
        PanelAction::Hint => Action::Hint,
        PanelAction::Flip => Action::Flip,
        PanelAction::ResignOrDraw => Action::ResignOrDraw,
        PanelAction::Menu => Action::Menu,
        PanelAction::Review => Action::Review,
        PanelAction::ReviewFirst => Action::ReviewFirst,
        PanelAction::ReviewBack => Action::ReviewBack,
        PanelAction::ReviewForward => Action::ReviewForward,
        PanelAction::ReviewLast => Action::ReviewLast,
        PanelAction::ReviewDone => Action::ReviewDone,
        PanelAction::MoveNow => Action::MoveNow,
        PanelAction::SetUp => Action::SetUp,
        PanelAction::TakeBack => Action::TakeBack,
        PanelAction::PlayOn => Action::PlayOn,
        PanelAction::ShowMe => Action::ShowMe,
        PanelAction::Analyse => Action::Analyse,
        PanelAction::NextMistake => Action::NextMistake,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_button_comes_back_as_itself() {
        for shown in [
            PanelAction::NewGame,
            PanelAction::Undo,
            PanelAction::Hint,
            PanelAction::Flip,
            PanelAction::ResignOrDraw,
            PanelAction::Menu,
            PanelAction::Review,
            PanelAction::ReviewFirst,
            PanelAction::ReviewBack,
            PanelAction::ReviewForward,
            PanelAction::ReviewLast,
            PanelAction::ReviewDone,
            PanelAction::MoveNow,
            PanelAction::SetUp,
            PanelAction::Analyse,
            PanelAction::NextMistake,
            PanelAction::TakeBack,
            PanelAction::PlayOn,
            PanelAction::ShowMe,
        ] {
            assert_eq!(panel_action(action_of(shown)), shown);
        }
    }
}
