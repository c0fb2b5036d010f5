//! The Wi-Fi screen: the controller's [`WifiView`](super::WifiView) into the `WifiAdapter`,
//! and the screen's taps back into the controller.

use super::{WifiPageKind, WifiRow, WifiScreen};
use crate::app::screens::keyboard::key_models;
use crate::app::screens::{Controller, Dispatch};
use crate::app::ui::{AppWindow, WifiAdapter, WifiPage, WifiRowView};
use slint::{ComponentHandle, Model, ModelRc, VecModel};
use std::rc::Rc;

fn row_view(r: &WifiRow) -> WifiRowView {
    WifiRowView {
        name: r.name.as_str().into(),
        bars: i32::from(r.bars),
        detail: r.detail.as_str().into(),
        active: r.active,
    }
}

/// Replaces `current` only when `new` differs, so an unchanged list is not redrawn.
fn model_if_changed<T: Clone + PartialEq + 'static>(
    current: &ModelRc<T>,
    new: Vec<T>,
) -> Option<ModelRc<T>> {
    let same = current.row_count() == new.len() && current.iter().zip(&new).all(|(a, b)| a == *b);
    (!same).then(|| ModelRc::from(Rc::new(VecModel::from(new))))
}

/// Shows the Wi-Fi screen while it is open.
pub fn refresh(window: &AppWindow, c: &Controller) {
    let Some(view) = c.shown::<WifiScreen>().map(WifiScreen::view) else {
        return;
    };
    let adapter = window.global::<WifiAdapter>();
    adapter.set_page(match view.page {
        WifiPageKind::List => WifiPage::List,
        WifiPageKind::Chosen => WifiPage::Chosen,
        WifiPageKind::Password => WifiPage::Password,
        WifiPageKind::Working => WifiPage::Working,
    });
    adapter.set_title(view.title.into());
    adapter.set_status(view.status.into());
    adapter.set_message(view.message.into());
    adapter.set_alert(view.alert);
    if let Some(rows) = model_if_changed(
        &adapter.get_rows(),
        view.rows.iter().map(row_view).collect(),
    ) {
        adapter.set_rows(rows);
    }
    adapter.set_chosen(view.chosen.into());
    adapter.set_can_join(view.can_join);
    adapter.set_password(view.password.into());
    adapter.set_password_shown(view.password_shown);
    if let Some(keys) = key_models(&adapter.get_keys(), &view.keys) {
        adapter.set_keys(keys);
    }
}

/// Wires the screen's taps.
pub fn connect(window: &AppWindow, dispatch: &Dispatch) {
    let adapter = window.global::<WifiAdapter>();
    let d = dispatch.clone();
    adapter.on_button(move |id| {
        d(Box::new(move |c| {
            c.on(|w: &mut WifiScreen, cx| w.button(cx, &id))
        }));
    });
    let d = dispatch.clone();
    adapter.on_key(move |id| d(Box::new(move |c| c.on(|w: &mut WifiScreen, _| w.key(&id)))));
    let d = dispatch.clone();
    adapter.on_row_tapped(move |index| {
        if let Ok(index) = usize::try_from(index) {
            d(Box::new(move |c| {
                c.on(|w: &mut WifiScreen, cx| w.tap_row(cx, index));
            }));
        }
    });
}
