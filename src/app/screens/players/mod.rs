//! Settings → Players: the device's players in roster order and the guest last, the one
//! playing marked; the one chosen plays now, is renamed or removed, and players are added.
//! Names are typed on the shared on-screen keyboard and checked by the roster (a refusal is
//! said in words, and the page stays). Each change goes to the controller as
//! [`Go::KeepPlayers`], which keeps the same roster and has the saver write it.

pub mod view;

#[cfg(test)]
mod tests;

use super::keyboard::{Key, Keyboard, Tapped};
use super::{Ctx, Dialog, Go};
use crate::storage::players::{
    MAX_NAME_CHARS, MAX_PLAYERS, NameError, PlayerId, Roster, RosterError, Who,
};
use crate::tr;

/// The Players screen's state.
#[derive(Debug, Clone)]
pub struct PlayersScreen {
    /// The players as this screen changes them: the controller is handed each change, so
    /// its roster stays the same as this one while the screen is open.
    roster: Roster,
    /// Who is at the device.
    current: Who,
    /// The row chosen: a player's, or the guest's.
    selected: Who,
    page: Page,
    /// What the last change did ("Anna added."), shown on the list.
    done: Option<String>,
}

#[derive(Debug, Clone)]
enum Page {
    /// The players, and what can be done with the one chosen.
    List,
    /// A name being typed: a new player's, or a player's new one. `refused` says why the
    /// last name was not taken.
    Name {
        target: NameTarget,
        keyboard: Keyboard,
        refused: Option<String>,
    },
}

/// Whose name is being typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NameTarget {
    Add,
    Rename(PlayerId),
}

/// Which page of the screen shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayersPageKind {
    List,
    Name,
}

/// A row of the list: a player, or the guest (last).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRow {
    pub name: String,
    /// At the device now.
    pub playing: bool,
    /// The row chosen, which the buttons act on.
    pub selected: bool,
}

/// The Players screen as it is drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayersView {
    pub page: PlayersPageKind,
    pub title: String,
    /// The last change, or why a name was refused.
    pub message: String,
    pub alert: bool,
    pub rows: Vec<PlayerRow>,
    /// "Play now": the row chosen is not the one playing.
    pub can_play: bool,
    /// "Rename…" and "Remove…": the row chosen is a player, not the guest.
    pub can_change: bool,
    /// "Add a player…": fewer than [`MAX_PLAYERS`].
    pub can_add: bool,
    /// "Ask at start": the device asks "Who is playing?" when it starts.
    pub ask_at_start: bool,
    /// The name as typed.
    pub name: String,
    pub keys: Vec<Vec<Key>>,
    /// Key units in a row of `keys`.
    pub units: u8,
}

/// Why the roster refused a change, in words.
fn refusal(error: &RosterError) -> String {
    match error {
        RosterError::Name(NameError::Empty) => tr!("Type a name first."),
        RosterError::Name(NameError::TooLong { .. }) => {
            tr!("A name has at most {} characters.", MAX_NAME_CHARS)
        }
        RosterError::Name(NameError::Taken) => tr!("Another player already has this name."),
        RosterError::Full => tr!("This device has {} players already.", MAX_PLAYERS),
        RosterError::Unknown(_) => tr!("This player has been removed."),
    }
}

impl PlayersScreen {
    /// The screen on the device's players, `current` chosen.
    pub fn open(roster: &Roster, current: Who) -> PlayersScreen {
        PlayersScreen {
            roster: roster.clone(),
            current,
            selected: current,
            page: Page::List,
            done: None,
        }
    }

    /// `who`'s name as the list shows it.
    fn name_of(&self, who: Who) -> String {
        self.roster
            .name_of(who)
            .map_or_else(|| tr!("Guest"), |n| n.as_str().to_string())
    }

    /// The rows' people in order: the players, then the guest.
    fn people(&self) -> impl Iterator<Item = Who> + '_ {
        self.roster.people()
    }

    /// The controller is handed the roster as it is now; `removed`'s files go.
    fn keep(&self, cx: &mut Ctx, removed: Option<PlayerId>) {
        cx.go(Go::KeepPlayers {
            roster: Box::new(self.roster.clone()),
            removed,
        });
    }

    /// `who` plays now, as the Players dialog's choice does.
    fn play(&mut self, cx: &mut Ctx, who: Who) {
        let Some(index) = self.people().position(|p| p == who) else {
            return;
        };
        self.current = who;
        self.roster.set_last(who);
        cx.go(Go::ChoosePlayer(index));
    }

    /// A row of the list was tapped.
    pub fn tap_row(&mut self, index: usize) {
        if !matches!(self.page, Page::List) {
            return;
        }
        let who = self.people().nth(index);
        if let Some(who) = who {
            self.selected = who;
        }
    }

    /// A button: `close`, `play`, `add`, `rename`, `remove`, `ask` (at start, on or off) on
    /// the list; `cancel`, `ok` on the name page.
    pub fn button(&mut self, cx: &mut Ctx, id: &str) {
        match (&self.page, id) {
            // Back to Settings, where the screen was opened from.
            (Page::List, "close") => {
                cx.go(Go::Back);
                cx.go(Go::Settings);
            }
            (Page::List, "play") if self.selected != self.current => self.play(cx, self.selected),
            (Page::List, "add") if self.roster.players().len() < MAX_PLAYERS => {
                self.done = None;
                self.page = Page::Name {
                    target: NameTarget::Add,
                    keyboard: Keyboard::for_name(""),
                    refused: None,
                };
            }
            (Page::List, "rename") => {
                if let Some(player) = self.selected.player().and_then(|id| self.roster.get(id)) {
                    self.done = None;
                    self.page = Page::Name {
                        target: NameTarget::Rename(player.id),
                        keyboard: Keyboard::for_name(player.name.as_str()),
                        refused: None,
                    };
                }
            }
            (Page::List, "remove") => {
                if let Some(player) = self.selected.player().and_then(|id| self.roster.get(id)) {
                    cx.go(Go::Dialog(Dialog::ConfirmRemovePlayer {
                        id: player.id,
                        name: player.name.as_str().to_string(),
                    }));
                }
            }
            (Page::List, "ask") => {
                let ask = !self.roster.ask_at_start();
                self.roster.set_ask_at_start(ask);
                self.keep(cx, None);
            }
            (Page::Name { .. }, "cancel") => self.page = Page::List,
            (Page::Name { .. }, "ok") => self.submit(cx),
            _ => {}
        }
    }

    /// A key of the on-screen keyboard; its Done takes the name.
    pub fn key(&mut self, cx: &mut Ctx, id: &str) {
        let Page::Name {
            keyboard, refused, ..
        } = &mut self.page
        else {
            return;
        };
        match keyboard.tap(id) {
            Tapped::Done => self.submit(cx),
            // A new try at the name: the last complaint is out of date.
            Tapped::Typed => *refused = None,
        }
    }

    /// The name typed is taken (added, or the player renamed), or why not is shown.
    fn submit(&mut self, cx: &mut Ctx) {
        let Page::Name {
            target, keyboard, ..
        } = &self.page
        else {
            return;
        };
        let (target, typed) = (*target, keyboard.text().to_string());
        let result = match target {
            NameTarget::Add => self.roster.add(&typed).map(|id| {
                self.selected = Who::Player(id);
                tr!("{} added.", self.name_of(Who::Player(id)))
            }),
            NameTarget::Rename(id) => {
                let old = self.name_of(Who::Player(id));
                self.roster.rename(id, &typed).map(|()| {
                    self.selected = Who::Player(id);
                    tr!("{} is now called {}.", old, self.name_of(Who::Player(id)))
                })
            }
        };
        match result {
            Ok(done) => {
                self.done = Some(done);
                self.page = Page::List;
                self.keep(cx, None);
            }
            Err(error) => {
                if let Page::Name { refused, .. } = &mut self.page {
                    *refused = Some(refusal(&error));
                }
            }
        }
    }

    /// The removal of player `id` was confirmed: their record and puzzles are deleted, and
    /// the guest plays if they were playing.
    pub fn remove(&mut self, cx: &mut Ctx, id: PlayerId) {
        let Ok(player) = self.roster.remove(id) else {
            return;
        };
        let gone = Who::Player(id);
        self.done = Some(tr!("{} removed.", player.name.as_str()));
        self.page = Page::List;
        self.keep(cx, Some(id));
        if self.current == gone {
            self.play(cx, Who::Guest);
        }
        if self.selected == gone {
            self.selected = self.current;
        }
    }

    /// The Players screen as it is drawn.
    pub fn view(&self) -> PlayersView {
        let rows = self
            .people()
            .map(|who| PlayerRow {
                name: self.name_of(who),
                playing: who == self.current,
                selected: who == self.selected,
            })
            .collect();
        let mut view = PlayersView {
            page: PlayersPageKind::List,
            title: tr!("Players"),
            message: self.done.clone().unwrap_or_default(),
            alert: false,
            rows,
            can_play: self.selected != self.current,
            can_change: self.selected.player().is_some(),
            can_add: self.roster.players().len() < MAX_PLAYERS,
            ask_at_start: self.roster.ask_at_start(),
            name: String::new(),
            keys: Vec::new(),
            units: 0,
        };
        if let Page::Name {
            target,
            keyboard,
            refused,
        } = &self.page
        {
            view.page = PlayersPageKind::Name;
            view.title = match target {
                NameTarget::Add => tr!("Add a player"),
                NameTarget::Rename(id) => tr!("Rename {}", self.name_of(Who::Player(*id))),
            };
            view.message = refused.clone().unwrap_or_default();
            view.alert = refused.is_some();
            view.name = keyboard.text().to_string();
            view.keys = keyboard.rows();
            view.units = keyboard.units();
        }
        view
    }
}
