//! The menu and every dialog: each dialog's choices as typed values and the one parse of
//! the window's ids into them (`choice.rs`), what a choice does (`act.rs`: on the game
//! session, or a [`Go`](super::Go) to the feature that owns it), each dialog as the window
//! shows it (`view.rs`), "Your record" in words (`record.rs`); here the controller's side:
//! opening a dialog, a choice made, the view read.

mod act;
mod choice;
pub mod record;
#[cfg(test)]
mod tests;
mod view;

use super::Controller;
use super::dialog::{Dialog, DialogView, ImportShown};
use crate::app::model::settings::SettingsView;
use crate::app::session::partner::rules::{can_adjourn, partner_name};
use choice::Choice;
use view::DialogFacts;

impl Controller {
    /// The device settings to show in the Settings dialog.
    pub fn set_settings_view(&mut self, settings: SettingsView) {
        self.settings = settings;
        self.session.set_assist(settings.assist);
        // A two-player board turns at once.
        self.turn_to_mover();
    }

    /// The dialog open now, if any.
    pub fn dialog(&self) -> Option<&Dialog> {
        self.dialog.as_ref()
    }

    /// A choice in the open dialog, by the id the window knows it by: parsed into the
    /// dialog's typed choice ([`Choice::parse`]), then carried out ([`Choice::act`]). An id
    /// the dialog does not know just closes it.
    pub fn dialog_option(&mut self, id: &str) {
        // A greyed entry is not a choice (the window does not send it either).
        if self
            .dialog_view()
            .is_some_and(|v| v.options.iter().any(|o| o.id == id && !o.enabled))
        {
            return;
        }
        let Some(dialog) = self.dialog.take() else {
            // No dialog over it: the lobby's choices are its own (the shell hands them over).
            return;
        };
        if let Some(choice) = Choice::parse(dialog, id) {
            self.run(|_, cx| choice.act(cx));
        }
    }

    /// A tap outside the dialog: the same as its cancel choice. A draw offer needs an answer.
    pub fn dialog_dismissed(&mut self) {
        if !matches!(
            self.dialog,
            Some(Dialog::DrawOffered { .. } | Dialog::PartnerOffer(_))
        ) {
            self.dialog = None;
        }
    }

    /// The open dialog as the screen shows it.
    pub fn dialog_view(&self) -> Option<DialogView> {
        // With none open, the shell shows the lobby's step, if it is open.
        let dialog = self.dialog.as_ref()?;
        let facts = DialogFacts {
            session: &self.session,
            settings: &self.settings,
            human_to_move: self.session.human_to_move(),
            can_ask_threat: self.session.can_ask_threat(),
            can_adjourn: can_adjourn(&self.session),
            puzzles_due: self.player.puzzles_due(),
            shutdown_allowed: self.allowed.shutdown,
            wifi_allowed: self.allowed.wifi,
            partner_name: partner_name(&self.session),
        };
        Some(facts.view(dialog))
    }

    /// An import's progress, shown while its dialog is open.
    pub fn import_progress(&mut self, shown: ImportShown) {
        if let Some(Dialog::Importing { progress, .. }) = &mut self.dialog {
            *progress = Some(shown);
        }
    }
}
