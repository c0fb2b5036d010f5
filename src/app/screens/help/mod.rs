//! Help (Menu → Help, `Go::Help`): a page to read. Its words are in ui/help.slint; here,
//! closing it.

use super::{Ctx, Dispatch, Go};
use crate::app::ui::{AppWindow, HelpAdapter};
use slint::ComponentHandle;

/// Help's state: none (the page is fixed), but a type of its own, so that its Close is
/// Help's method like any screen's.
#[derive(Debug, Clone, Copy, Default)]
pub struct Help;

impl Help {
    /// Back to the game from Help.
    pub fn close(&mut self, cx: &mut Ctx) {
        cx.go(Go::Back);
    }
}

/// Help's Close button.
pub fn connect(window: &AppWindow, dispatch: &Dispatch) {
    let d = dispatch.clone();
    window
        .global::<HelpAdapter>()
        .on_closed(move || d(Box::new(|c| c.on(Help::close))));
}

#[cfg(test)]
mod tests {
    use super::Help;
    use crate::app::model::mode::GameSetup;
    use crate::app::screens::{Action, Controller, ScreenKind};

    #[test]
    fn help_opens_from_the_menu_and_closes_to_the_game() {
        let mut c = Controller::new(GameSetup::FIRST_START);
        c.action(Action::Menu);
        c.dialog_option("help");
        assert_eq!(c.screen(), ScreenKind::Help);
        assert!(c.dialog().is_none(), "the menu closed");
        c.on(Help::close);
        assert_eq!(c.screen(), ScreenKind::Game);
    }
}
