//! The New game form: mode, colour and level, then the game it describes.

use super::{Controller, Effect};
use crate::app::clock::{GameClock, TimeControl};
use crate::app::mode::{ColourChoice, Mode, ModeChoice, NetworkRole, NewGameForm};
use chesspi_engine::game::Game;
use chesspi_engine::level::Level;

impl Controller {
    /// The New game form while its dialog is open.
    pub fn new_game_form(&self) -> Option<&NewGameForm> {
        self.new_game.as_ref()
    }

    pub(super) fn open_new_game(&mut self) {
        self.dialog = None;
        self.new_game = Some(NewGameForm::from_setup(&self.setup));
    }

    /// Changes the New game form: mode (by id), colour and level.
    pub fn new_game_mode(&mut self, id: &str) {
        if let (Some(form), Some(mode)) = (self.new_game.as_mut(), ModeChoice::from_id(id)) {
            form.mode = mode;
        }
    }

    pub fn new_game_colour(&mut self, colour: ColourChoice) {
        if let Some(form) = self.new_game.as_mut() {
            form.colour = colour;
        }
    }

    pub fn new_game_level(&mut self, level: Level) {
        if let Some(form) = self.new_game.as_mut() {
            form.level = level;
        }
    }

    /// Network: host a game (`true`) or join one.
    pub fn new_game_network(&mut self, host: bool) {
        if let Some(form) = self.new_game.as_mut() {
            form.network = if host {
                NetworkRole::Host
            } else {
                NetworkRole::Join
            };
        }
    }

    /// The time control: a preset's index into [`TimeControl::PRESETS`], or `None` for none.
    pub fn new_game_clock(&mut self, preset: Option<usize>) {
        if let Some(form) = self.new_game.as_mut() {
            form.clock = preset
                .and_then(|i| TimeControl::PRESETS.get(i))
                .and_then(|&(m, s)| TimeControl::new(m, s));
        }
    }

    pub fn new_game_cancel(&mut self) {
        self.new_game = None;
    }

    /// Starts the game the form describes.
    pub fn new_game_start(&mut self) {
        if let Some(form) = self.new_game.take() {
            // A network game starts once a partner is found.
            if form.mode == ModeChoice::Network {
                let host = (form.network == NetworkRole::Host).then(|| form.chosen_colour());
                self.open_lobby(host);
                return;
            }
            let setup = form.to_setup();
            if setup.mode != Mode::Friend {
                self.effects.push(Effect::LevelChosen(setup.level));
            }
            self.start(setup, Game::new());
            if let Some(control) = form.clock {
                self.set_clock(Some(GameClock::new(control)));
                // The computer playing White starts on its clock.
                self.cancel_thinking();
                self.after_change();
            }
        }
    }
}
