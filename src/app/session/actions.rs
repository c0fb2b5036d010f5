//! What the player does to the game itself mid-game, from the menu or a dialog: the computer's
//! level changed, the sides switched, the game ended by a result. Each says whether it
//! changed the game; the caller then goes on as after any change.

use super::effect::Effect;
use super::game::{GameSession, Unrated};
use crate::app::model::mode::Mode;
use crate::tr;
use chesspi_engine::Color;
use chesspi_engine::game::{Game, GameError, Outcome};
use chesspi_engine::level::Level;

impl GameSession {
    /// The computer plays on at the next level up or down (`step`); the game is no longer
    /// rated (a win must be against the level that played all of it). False against no
    /// computer, or past the last level.
    pub fn change_level(&mut self, step: i8) -> bool {
        let Mode::Computer { .. } = self.setup.mode else {
            return false;
        };
        let Some(level) = self
            .setup
            .level
            .number()
            .checked_add_signed(step)
            .and_then(Level::new)
        else {
            return false;
        };
        self.setup.level = level;
        self.set_unrated(Unrated::LevelChanged);
        self.effect(Effect::LevelChosen { level, fits: false });
        self.note = Some(tr!(
            "The computer now plays at level {} — this game is not rated",
            level.number()
        ));
        true
    }

    /// The player takes the computer's side and the computer the player's, on the same
    /// board; the game is no longer rated. False against no computer.
    pub fn switch_sides(&mut self) -> bool {
        let Mode::Computer { human } = self.setup.mode else {
            return false;
        };
        self.setup.mode = Mode::Computer { human: !human };
        self.flipped = self.setup.bottom_color() == Color::Black;
        self.set_unrated(Unrated::SidesSwitched);
        self.note = Some(tr!("Sides switched — this game is not rated"));
        true
    }

    /// Ends the game by a result (resignation, agreement, claim) if the rules allow it now.
    pub fn end_game(&mut self, end: impl FnOnce(&mut Game) -> Result<Outcome, GameError>) -> bool {
        end(&mut self.game).is_ok()
    }
}
