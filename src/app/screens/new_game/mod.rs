//! The New game form: mode, colour and level, then the game it describes. The form's
//! methods are [`NewGameForm`]'s own (reached through [`Controller::on`]), and so is the form
//! the next game starts from ([`NewGameForm::next`], opened by `Go::NewGame`).

#[cfg(test)]
mod tests;

use super::{Controller, Ctx, Effect, Go};
use crate::app::model::clock::{GameClock, TimeControl};
use crate::app::model::mode::{ColourChoice, Mode, ModeChoice, NetworkRole, NewGameForm};
use crate::app::session::game::GameSession;
use crate::app::session::player::Player;
use crate::storage::players::{Sides, Who};
use chesspi_engine::coach::CoachLevel;
use chesspi_engine::game::Game;
use chesspi_engine::level::Level;

impl Controller {
    /// Starts `game` (the start position, or one set up) as `form` describes it, without the
    /// form on screen (the command line's `--new`): as its Start button does.
    pub fn start_new_game(&mut self, form: &NewGameForm, game: Game) {
        self.run(|_, cx| form.start_game(cx, game));
    }
}

impl NewGameForm {
    /// The form for the next game: the last game's mode, level and clock, the coach as
    /// Settings has it for new games (`coach`), the level that fits the player when it was
    /// chosen last time.
    pub fn next(session: &GameSession, coach: CoachLevel, player: &Player) -> NewGameForm {
        let mut form = NewGameForm::from_setup(&session.setup);
        // The last game's clock is the next default, like its mode and level.
        form.choose_clock(session.clock().map(GameClock::control));
        form.coach = coach;
        // The player at the device plays; between two people the other is a guest until
        // chosen.
        form.players = Sides {
            white: player.current(),
            black: Who::Guest,
        };
        // The level that fits follows the player's rating.
        if let Some(level) = player.new_game_level() {
            form.level = level;
            form.level_fits = true;
        }
        form
    }

    /// The mode, by its id.
    pub fn choose_mode(&mut self, id: &str) {
        if let Some(mode) = ModeChoice::from_id(id) {
            self.mode = mode;
        }
    }

    pub fn choose_colour(&mut self, colour: ColourChoice) {
        self.colour = colour;
    }

    pub fn choose_level(&mut self, level: Level) {
        self.level = level;
        self.level_fits = false;
    }

    /// "The level that fits you": `fitting`, the level nearest the player's rating (the
    /// controller's, as it may change while the form is open); none yet does nothing.
    pub fn choose_fitting_level(&mut self, fitting: Option<Level>) {
        if let Some(level) = fitting {
            self.level = level;
            self.level_fits = true;
        }
    }

    /// Network: host a game (`true`) or join one.
    pub fn choose_network(&mut self, host: bool) {
        self.network = if host {
            NetworkRole::Host
        } else {
            NetworkRole::Join
        };
    }

    /// The time control: a preset's index into [`TimeControl::PRESETS`], or `None` for none.
    pub fn choose_preset(&mut self, preset: Option<usize>) {
        self.choose_clock(
            preset
                .and_then(|i| TimeControl::PRESETS.get(i))
                .and_then(|&(m, s)| TimeControl::new(m, s)),
        );
    }

    /// Chooses the custom time control (as the steppers show it).
    pub fn choose_custom_clock(&mut self) {
        self.step_custom(0, 0);
    }

    /// The coach for the new game: on (as Settings has it, `default`, or for blunders) or
    /// off.
    pub fn toggle_coach(&mut self, default: CoachLevel) {
        self.coach = match (self.coach.is_on(), default.is_on()) {
            (true, _) => CoachLevel::Off,
            (false, true) => default,
            (false, false) => CoachLevel::Blunders,
        };
    }

    /// The seat `index` (0: White or the person, 1: Black between two) taken by the next
    /// player of the device (then the guest).
    pub fn choose_player(&mut self, cx: &mut Ctx, index: usize) {
        self.cycle_player(index, cx.roster);
    }

    pub fn cancel(&mut self, cx: &mut Ctx) {
        cx.go(Go::Back);
    }

    /// Starts the game the form describes (starting closes the form).
    pub fn start(&mut self, cx: &mut Ctx) {
        // The person who plays alone comes to the device: their record and puzzles follow.
        if matches!(self.mode, ModeChoice::Computer | ModeChoice::Network) {
            cx.go(Go::PlayAs(self.person()));
        }
        // A network game starts once a partner is found.
        if self.mode == ModeChoice::Network {
            let host = (self.network == NetworkRole::Host).then(|| self.chosen_colour());
            cx.go(Go::Lobby {
                host,
                clock: self.clock,
            });
            return;
        }
        self.start_game(cx, Game::new());
    }

    /// Starts `game` as the form describes it: the game on the board is replaced (the saver
    /// keeps it in Saved games) and the level becomes the next default. Not for network
    /// games (they need a partner first).
    pub fn start_game(&self, cx: &mut Ctx, game: Game) {
        let setup = self.to_setup();
        if setup.mode != Mode::Friend {
            cx.effect(Effect::LevelChosen {
                level: setup.level,
                fits: self.level_fits,
            });
        }
        cx.go(Go::Start {
            setup,
            game,
            rated: true,
            coach: Some(self.coach),
            clock: self.clock,
            sides: Some(self.sides()),
        });
    }
}
