//! Who plays which side: the game modes and the New game form.

use chesspi_engine::Color;
pub use chesspi_engine::level::Level;
use std::hash::{BuildHasher, Hasher};

/// The kind of game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// One person against the computer.
    Computer { human: Color },
    /// Two people taking turns on the same screen.
    Friend,
    /// The computer plays both sides.
    Demo,
}

/// A game's players: the mode and the computer's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setup {
    pub mode: Mode,
    pub level: Level,
}

impl Setup {
    /// The very first start: you as White against a moderate computer.
    pub const FIRST_START: Setup = Setup {
        mode: Mode::Computer {
            human: Color::White,
        },
        level: Level::DEFAULT,
    };

    /// Whether the computer moves for `color`.
    pub fn is_computer(&self, color: Color) -> bool {
        match self.mode {
            Mode::Computer { human } => color != human,
            Mode::Friend => false,
            Mode::Demo => true,
        }
    }

    /// Whether a person moves for `color`.
    pub fn is_human(&self, color: Color) -> bool {
        !self.is_computer(color)
    }

    /// The colour shown at the bottom of the board when the game starts.
    pub fn bottom_color(&self) -> Color {
        match self.mode {
            Mode::Computer { human } => human,
            Mode::Friend | Mode::Demo => Color::White,
        }
    }
}

/// The colour choice in the New game dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColourChoice {
    White,
    Black,
    Random,
}

impl ColourChoice {
    /// Index in the dialog's row of buttons.
    pub fn index(self) -> i32 {
        match self {
            ColourChoice::White => 0,
            ColourChoice::Black => 1,
            ColourChoice::Random => 2,
        }
    }

    pub fn from_index(i: i32) -> Option<ColourChoice> {
        match i {
            0 => Some(ColourChoice::White),
            1 => Some(ColourChoice::Black),
            2 => Some(ColourChoice::Random),
            _ => None,
        }
    }
}

/// The kinds of game the New game dialog offers, in order. LAN play adds its entry here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeChoice {
    Computer,
    Friend,
    Demo,
}

impl ModeChoice {
    pub const ALL: [ModeChoice; 3] = [ModeChoice::Computer, ModeChoice::Friend, ModeChoice::Demo];

    /// Stable id used by the screen.
    pub fn id(self) -> &'static str {
        match self {
            ModeChoice::Computer => "computer",
            ModeChoice::Friend => "friend",
            ModeChoice::Demo => "demo",
        }
    }

    pub fn from_id(id: &str) -> Option<ModeChoice> {
        ModeChoice::ALL.into_iter().find(|m| m.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            ModeChoice::Computer => "Play the computer",
            ModeChoice::Friend => "Two players",
            ModeChoice::Demo => "Demo",
        }
    }

    pub fn detail(self) -> &'static str {
        match self {
            ModeChoice::Computer => "You against ChessPI",
            ModeChoice::Friend => "Take turns on this screen",
            ModeChoice::Demo => "The computer plays itself",
        }
    }
}

/// The New game dialog's current choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewGameForm {
    pub mode: ModeChoice,
    pub colour: ColourChoice,
    pub level: Level,
}

impl NewGameForm {
    /// The form prefilled from the game being played, so "New game, Start" replays the same
    /// kind of game.
    pub fn from_setup(setup: &Setup) -> NewGameForm {
        let (mode, colour) = match setup.mode {
            Mode::Computer { human } => (
                ModeChoice::Computer,
                match human {
                    Color::White => ColourChoice::White,
                    Color::Black => ColourChoice::Black,
                },
            ),
            Mode::Friend => (ModeChoice::Friend, ColourChoice::White),
            Mode::Demo => (ModeChoice::Demo, ColourChoice::White),
        };
        NewGameForm {
            mode,
            colour,
            level: setup.level,
        }
    }

    /// The setup to start, drawing the colour when the player asked for a random one.
    pub fn to_setup(&self) -> Setup {
        let mode = match self.mode {
            ModeChoice::Computer => Mode::Computer {
                human: match self.colour {
                    ColourChoice::White => Color::White,
                    ColourChoice::Black => Color::Black,
                    ColourChoice::Random => random_color(),
                },
            },
            ModeChoice::Friend => Mode::Friend,
            ModeChoice::Demo => Mode::Demo,
        };
        Setup {
            mode,
            level: self.level,
        }
    }
}

/// A coin toss for the colour, seeded by the standard library's per-process random keys.
fn random_color() -> Color {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0),
    );
    if hasher.finish() & 1 == 0 {
        Color::White
    } else {
        Color::Black
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn who_moves() {
        let s = Setup::FIRST_START;
        assert!(s.is_human(Color::White) && s.is_computer(Color::Black));
        let demo = Setup {
            mode: Mode::Demo,
            level: Level::DEFAULT,
        };
        assert!(demo.is_computer(Color::White) && demo.is_computer(Color::Black));
        let friend = Setup {
            mode: Mode::Friend,
            level: Level::DEFAULT,
        };
        assert!(friend.is_human(Color::White) && friend.is_human(Color::Black));
    }

    #[test]
    fn form_round_trips_the_setup() {
        let setup = Setup {
            mode: Mode::Computer {
                human: Color::Black,
            },
            level: Level::new(7).expect("level 7 exists"),
        };
        assert_eq!(NewGameForm::from_setup(&setup).to_setup(), setup);
    }

    #[test]
    fn random_colour_gives_both_colours() {
        let form = NewGameForm {
            mode: ModeChoice::Computer,
            colour: ColourChoice::Random,
            level: Level::DEFAULT,
        };
        let mut seen = [false; 2];
        for _ in 0..200 {
            if let Mode::Computer { human } = form.to_setup().mode {
                seen[human.index()] = true;
            }
        }
        assert_eq!(seen, [true, true]);
    }
}
