//! The Players screen: the controller's [`PlayersView`](super::PlayersView) into the
//! `PlayersAdapter`, and the screen's taps back into the controller.

use super::{PlayerRow, PlayersPageKind, PlayersScreen};
use crate::app::screens::keyboard::key_models;
use crate::app::screens::{Controller, Dispatch};
use crate::app::ui::{AppWindow, PlayerRowView, PlayersAdapter, PlayersPage};
use slint::{ComponentHandle, Model, ModelRc, VecModel};

fn row_view(r: &PlayerRow) -> PlayerRowView {
    PlayerRowView {
        name: r.name.as_str().into(),
        playing: r.playing,
        selected: r.selected,
    }
}

/// Shows the Players screen while it is open.
pub fn refresh(window: &AppWindow, c: &Controller) {
    let Some(view) = c.shown::<PlayersScreen>().map(PlayersScreen::view) else {
        return;
    };
    let adapter = window.global::<PlayersAdapter>();
    adapter.set_page(match view.page {
        PlayersPageKind::List => PlayersPage::List,
        PlayersPageKind::Name => PlayersPage::Name,
    });
    adapter.set_title(view.title.into());
    adapter.set_message(view.message.into());
    adapter.set_alert(view.alert);
    let rows: Vec<PlayerRowView> = view.rows.iter().map(row_view).collect();
    let shown = adapter.get_rows();
    if shown.row_count() != rows.len() || shown.iter().zip(&rows).any(|(a, b)| a != *b) {
        adapter.set_rows(ModelRc::new(VecModel::from(rows)));
    }
    adapter.set_can_play(view.can_play);
    adapter.set_can_change(view.can_change);
    adapter.set_can_add(view.can_add);
    adapter.set_ask_at_start(view.ask_at_start);
    adapter.set_name(view.name.into());
    adapter.set_units(i32::from(view.units));
    if let Some(keys) = key_models(&adapter.get_keys(), &view.keys) {
        adapter.set_keys(keys);
    }
}

/// Wires the screen's taps.
pub fn connect(window: &AppWindow, dispatch: &Dispatch) {
    let adapter = window.global::<PlayersAdapter>();
    let d = dispatch.clone();
    adapter.on_button(move |id| {
        d(Box::new(move |c| {
            c.on(|p: &mut PlayersScreen, cx| p.button(cx, &id));
        }));
    });
    let d = dispatch.clone();
    adapter.on_key(move |id| {
        d(Box::new(move |c| {
            c.on(|p: &mut PlayersScreen, cx| p.key(cx, &id));
        }));
    });
    let d = dispatch.clone();
    adapter.on_row_tapped(move |index| {
        if let Ok(index) = usize::try_from(index) {
            d(Box::new(move |c| {
                c.on(|p: &mut PlayersScreen, _| p.tap_row(index));
            }));
        }
    });
}
