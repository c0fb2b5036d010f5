//! The New game form: mode, colour and level, then the game it describes.

use super::{Controller, Effect};
use crate::app::model::clock::{GameClock, TimeControl};
use crate::app::model::mode::{ColourChoice, Mode, ModeChoice, NetworkRole, NewGameForm};
use crate::app::screens::{Screen, ScreenKind};
use chesspi_engine::coach::CoachLevel;
use chesspi_engine::game::Game;
use chesspi_engine::level::Level;

impl Controller {
    /// The New game form while its dialog is open.
    pub fn new_game_form(&self) -> Option<&NewGameForm> {
        self.screen.new_game()
    }

    pub(super) fn open_new_game(&mut self) {
        self.dialog = None;
        let mut form = NewGameForm::from_setup(&self.session.setup);
        // The last game's clock is the next default, like its mode and level.
        form.choose_clock(self.session.clock.as_ref().map(GameClock::control));
        // The coach as Settings has it for new games.
        form.coach = self.coach_default();
        // The level that fits, when it was chosen last time: it follows the player's rating.
        if let (true, Some(level)) = (self.follow_fitting_level, self.fitting_level) {
            form.level = level;
            form.level_fits = true;
        }
        self.screen = Screen::NewGame(form);
    }

    /// Changes the New game form: mode (by id), colour and level.
    pub fn new_game_mode(&mut self, id: &str) {
        if let (Some(form), Some(mode)) = (self.screen.new_game_mut(), ModeChoice::from_id(id)) {
            form.mode = mode;
        }
    }

    pub fn new_game_colour(&mut self, colour: ColourChoice) {
        if let Some(form) = self.screen.new_game_mut() {
            form.colour = colour;
        }
    }

    pub fn new_game_level(&mut self, level: Level) {
        if let Some(form) = self.screen.new_game_mut() {
            form.level = level;
            form.level_fits = false;
        }
    }

    /// New game → "The level that fits you": the level nearest the player's rating.
    pub fn new_game_fitting_level(&mut self) {
        let Some(level) = self.fitting_level else {
            return;
        };
        if let Some(form) = self.screen.new_game_mut() {
            form.level = level;
            form.level_fits = true;
        }
    }

    /// The level that fits the player's rating (Your record keeps it), once there is one.
    pub fn set_fitting_level(&mut self, level: Option<Level>) {
        self.fitting_level = level;
    }

    pub fn fitting_level(&self) -> Option<Level> {
        self.fitting_level
    }

    /// Whether New game starts at the level that fits (a device setting).
    pub fn set_follow_fitting_level(&mut self, on: bool) {
        self.follow_fitting_level = on;
    }

    /// Network: host a game (`true`) or join one.
    pub fn new_game_network(&mut self, host: bool) {
        if let Some(form) = self.screen.new_game_mut() {
            form.network = if host {
                NetworkRole::Host
            } else {
                NetworkRole::Join
            };
        }
    }

    /// The time control: a preset's index into [`TimeControl::PRESETS`], or `None` for none.
    pub fn new_game_clock(&mut self, preset: Option<usize>) {
        if let Some(form) = self.screen.new_game_mut() {
            form.choose_clock(
                preset
                    .and_then(|i| TimeControl::PRESETS.get(i))
                    .and_then(|&(m, s)| TimeControl::new(m, s)),
            );
        }
    }

    /// Chooses the custom time control (as the steppers show it).
    pub fn new_game_custom_clock(&mut self) {
        self.new_game_custom_step(0, 0);
    }

    /// Steps the custom time control by `minutes` and `seconds` of increment, and chooses it.
    pub fn new_game_custom_step(&mut self, minutes: i64, seconds: i64) {
        if let Some(form) = self.screen.new_game_mut() {
            form.step_custom(minutes, seconds);
        }
    }

    /// The coach for the new game: on (as Settings has it, or for blunders) or off.
    pub fn new_game_coach_toggled(&mut self) {
        let default = self.coach_default();
        if let Some(form) = self.screen.new_game_mut() {
            form.coach = match (form.coach.is_on(), default.is_on()) {
                (true, _) => CoachLevel::Off,
                (false, true) => default,
                (false, false) => CoachLevel::Blunders,
            };
        }
    }

    pub fn new_game_cancel(&mut self) {
        self.screen.close(ScreenKind::NewGame);
    }

    /// Starts the game the form describes.
    pub fn new_game_start(&mut self) {
        if let Some(form) = self.screen.take_new_game() {
            // A network game starts once a partner is found.
            if form.mode == ModeChoice::Network {
                let host = (form.network == NetworkRole::Host).then(|| form.chosen_colour());
                self.open_lobby(host, form.clock);
                return;
            }
            self.start_new_game(&form, Game::new());
        }
    }

    /// Starts `game` (the start position, or one set up) as `form` describes it, as New game
    /// does: the game on the board is replaced (the saver keeps it in Saved games) and the
    /// level becomes the next default. Not for network games (they need a partner first).
    pub fn start_new_game(&mut self, form: &NewGameForm, game: Game) {
        let setup = form.to_setup();
        if setup.mode != Mode::Friend {
            self.effects.push(Effect::LevelChosen {
                level: setup.level,
                fits: form.level_fits,
            });
        }
        self.start(setup, game);
        self.reset_coach(form.coach);
        if let Some(control) = form.clock {
            self.session.set_clock(Some(GameClock::new(control)));
            // The computer playing White starts on its clock.
            self.cancel_thinking();
            self.after_change();
        }
    }
}
