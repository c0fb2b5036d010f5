//! What the player hears: the shell compares what the screen showed before with what it
//! shows now and plays the matching sound — a move, a capture, a check, the result, the
//! partner coming or going, the last ten seconds on the player's clock — and speaks moves
//! as the Settings ask. Heard from the state, so every way a move arrives sounds the same.

use crate::app::model::mode::{GameSetup, Mode};
use crate::app::screens::Controller;
use crate::lan::session::LinkState;
use crate::sound::{Cue, Sound, SpeakMoves, spoken};
use chesspi_engine::game::Outcome;
use std::time::{Duration, Instant};

/// The player's clock ticks audibly below this.
const TICKING_BELOW: Duration = Duration::from_secs(10);

/// What the screen showed, as far as sound cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Shown {
    serial: u64,
    plies: usize,
    over: bool,
    /// The network partner: `Some(true)` while connected.
    partner: Option<bool>,
}

impl Shown {
    fn of(c: &Controller) -> Shown {
        Shown {
            serial: c.game_serial(),
            plies: c.game().moves().len(),
            over: c.game().is_over(),
            partner: c.partner().map(|p| p.link == LinkState::Connected),
        }
    }
}

/// Sound's side of the shell.
pub(super) struct Hearing {
    sound: Sound,
    shown: Option<Shown>,
    /// The whole second last ticked on the player's clock.
    ticked: Option<u64>,
}

impl Hearing {
    pub(super) fn new(sound: Sound) -> Hearing {
        Hearing {
            sound,
            shown: None,
            ticked: None,
        }
    }

    pub(super) fn sound(&self) -> &Sound {
        &self.sound
    }

    /// Called whenever the screen is refreshed: sounds what changed since the last time.
    pub(super) fn heard(&mut self, c: &Controller, now: Instant) {
        let shown = Shown::of(c);
        let before = self.shown.replace(shown);
        self.tick(c, now);
        let Some(before) = before else {
            // The first screen after start: nothing happened yet.
            return;
        };
        let setup = c.setup();
        if shown.serial == before.serial && shown.plies == before.plies + 1 {
            self.moved(c, setup, shown.over && !before.over);
        } else if shown.serial == before.serial && shown.over && !before.over {
            // Ended without a move: resigned, flag fallen, draw agreed, partner gone.
            if let Some(outcome) = c.game().outcome() {
                self.ended(setup, outcome, true);
            }
        }
        match (before.partner, shown.partner) {
            (Some(true), Some(false)) => self.sound.play(Cue::PartnerLeft),
            (None | Some(false), Some(true)) if !shown.over => self.sound.play(Cue::PartnerJoined),
            _ => {}
        }
    }

    /// The last move of the game on the board, just shown.
    fn moved(&mut self, c: &Controller, setup: GameSetup, ended: bool) {
        let game = c.game();
        let (Some(&mv), Some(before)) = (game.moves().last(), game.positions().iter().rev().nth(1))
        else {
            return;
        };
        let san = chesspi_engine::san::to_san(before, mv);
        let cue = if san.ends_with(['+', '#']) {
            Cue::Check
        } else if mv.is_castle() {
            Cue::Castle
        } else if before.is_capture(mv) {
            Cue::Capture
        } else {
            Cue::Move
        };
        self.sound.play(cue);
        let mover = before.turn();
        let speak = match self.sound.speak_moves() {
            SpeakMoves::Off => false,
            SpeakMoves::All => true,
            SpeakMoves::Opponent => !setup.is_human(mover),
        };
        let language = crate::i18n::language();
        let outcome = game.outcome().filter(|_| ended);
        if speak {
            let mut text = spoken::san_words(&san, language);
            if let Some(o) = outcome {
                text.push_str(". ");
                text.push_str(&spoken::result_words(o, language));
            }
            self.sound.say(text, language);
        }
        if let Some(o) = outcome {
            self.ended(setup, o, !speak);
        }
    }

    /// The game just ended: its sound, and its result said when moves are spoken.
    fn ended(&mut self, setup: GameSetup, outcome: Outcome, say: bool) {
        self.sound.play(result_cue(setup, outcome));
        if say && self.sound.speak_moves() != SpeakMoves::Off {
            let language = crate::i18n::language();
            self.sound
                .say(spoken::result_words(outcome, language), language);
        }
    }

    /// One tick for each of the last ten seconds on the clock of the player at the screen.
    fn tick(&mut self, c: &Controller, now: Instant) {
        let running = c
            .clock()
            .and_then(|k| k.running().map(|side| (side, k.remaining(side, now))))
            .filter(|&(side, _)| c.setup().is_human(side) && !c.game().is_over());
        let second = match running {
            Some((_, left)) if left < TICKING_BELOW && !left.is_zero() => {
                Some(left.as_millis().div_ceil(1000) as u64)
            }
            _ => None,
        };
        if second.is_some() && second != self.ticked {
            self.sound.play(Cue::Tick);
        }
        self.ticked = second;
    }
}

/// Won or lost from the view of the person at the screen; a decided game between two people
/// at the screen (or the computer against itself) has a winner but no loser here.
fn result_cue(setup: GameSetup, outcome: Outcome) -> Cue {
    match outcome.winner {
        None => Cue::Drawn,
        Some(winner) => match setup.mode {
            Mode::Friend | Mode::Demo => Cue::Won,
            Mode::Computer { human } | Mode::Network { local: human } => {
                if winner == human {
                    Cue::Won
                } else {
                    Cue::Lost
                }
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesspi_engine::Color;
    use chesspi_engine::game::Termination;

    #[test]
    fn results_sound_from_the_players_side() {
        let computer = |human| GameSetup {
            mode: Mode::Computer { human },
            level: crate::app::model::mode::Level::DEFAULT,
        };
        let black_mates = Outcome::win(Color::Black, Termination::Checkmate);
        assert_eq!(result_cue(computer(Color::Black), black_mates), Cue::Won);
        assert_eq!(result_cue(computer(Color::White), black_mates), Cue::Lost);
        let friend = GameSetup {
            mode: Mode::Friend,
            ..computer(Color::White)
        };
        assert_eq!(result_cue(friend, black_mates), Cue::Won);
        assert_eq!(
            result_cue(friend, Outcome::draw(Termination::Stalemate)),
            Cue::Drawn
        );
    }
}
