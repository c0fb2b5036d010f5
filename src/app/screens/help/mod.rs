//! Help (Menu → Help): a page to read. Its words are in ui/help.slint; here, opening and
//! closing it.

use super::{Controller, Dispatch, Screen, ScreenKind};
use crate::app::ui::{AppWindow, HelpAdapter};
use slint::ComponentHandle;

impl Controller {
    /// Opens Help over the game (the game's clock waits meanwhile).
    pub fn open_help(&mut self) {
        self.dialog = None;
        self.screen = Screen::Help;
    }

    /// Back to the game from Help.
    pub fn close_help(&mut self) {
        self.screen.close(ScreenKind::Help);
    }
}

/// Help's Close button.
pub fn connect(window: &AppWindow, dispatch: &Dispatch) {
    let d = dispatch.clone();
    window
        .global::<HelpAdapter>()
        .on_closed(move || d(Box::new(Controller::close_help)));
}

#[cfg(test)]
mod tests {
    use crate::app::model::mode::GameSetup;
    use crate::app::screens::{Action, Controller, ScreenKind};

    #[test]
    fn help_opens_from_the_menu_and_closes_to_the_game() {
        let mut c = Controller::new(GameSetup::FIRST_START);
        c.action(Action::Menu);
        c.dialog_option("help");
        assert_eq!(c.screen(), ScreenKind::Help);
        assert!(c.dialog().is_none(), "the menu closed");
        c.close_help();
        assert_eq!(c.screen(), ScreenKind::Game);
    }
}
