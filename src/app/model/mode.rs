//! Who plays which side: the game modes and the New game form.

use crate::app::model::clock::TimeControl;
use crate::storage::players::{Roster, Sides, Who};
use crate::tr;
use chesspi_engine::Color;
use chesspi_engine::coach::CoachLevel;
use chesspi_engine::game::{Game, Termination};
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
    /// Against another ChessPI on the network: this device plays `local`, the partner the
    /// other side (its moves arrive like the computer's, from outside).
    Network { local: Color },
}

/// A game's players: the mode and the computer's level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameSetup {
    pub mode: Mode,
    pub level: Level,
}

impl GameSetup {
    /// A game against the computer that ended before the player's first move: it is not
    /// rated (the storage's rule, [`crate::storage::stats::player_moved`]), and says so.
    pub fn is_aborted(&self, game: &Game) -> bool {
        match self.mode {
            // A mate or stalemate from a set-up position is a result, not an abort.
            Mode::Computer { human } => {
                game.outcome().is_some_and(|o| {
                    !matches!(
                        o.termination,
                        Termination::Checkmate | Termination::Stalemate
                    )
                }) && !crate::storage::stats::player_moved(game, human)
            }
            _ => false,
        }
    }

    /// Whether Undo takes back a resignation or an agreed or claimed draw (only that: the
    /// game goes on from the same position).
    pub fn can_reopen(&self, game: &Game) -> bool {
        let ends_by_choice = game.outcome().is_some_and(|o| {
            use Termination::*;
            matches!(
                o.termination,
                Resignation | Agreement | ThreefoldRepetition | FiftyMoves
            )
        });
        ends_by_choice && matches!(self.mode, Mode::Computer { .. } | Mode::Friend)
    }

    /// Who resigns: the player on move between two people, the person against the computer.
    pub fn resigning_color(&self, game: &Game) -> Color {
        match self.mode {
            Mode::Computer { human } | Mode::Network { local: human } => human,
            Mode::Friend | Mode::Demo => game.position().turn(),
        }
    }

    /// The very first start: you as White against a moderate computer.
    pub const FIRST_START: GameSetup = GameSetup {
        mode: Mode::Computer {
            human: Color::White,
        },
        level: Level::DEFAULT,
    };

    /// Whether the computer moves for `color`.
    pub fn is_computer(&self, color: Color) -> bool {
        match self.mode {
            Mode::Computer { human } => color != human,
            Mode::Friend | Mode::Network { .. } => false,
            Mode::Demo => true,
        }
    }

    /// Whether the network partner moves for `color`.
    pub fn is_partner(&self, color: Color) -> bool {
        matches!(self.mode, Mode::Network { local } if local != color)
    }

    /// Whether a person at this screen moves for `color`.
    pub fn is_human(&self, color: Color) -> bool {
        !self.is_computer(color) && !self.is_partner(color)
    }

    /// The colour shown at the bottom of the board when the game starts.
    pub fn bottom_color(&self) -> Color {
        match self.mode {
            Mode::Computer { human } | Mode::Network { local: human } => human,
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

    pub fn of(color: Color) -> ColourChoice {
        match color {
            Color::White => ColourChoice::White,
            Color::Black => ColourChoice::Black,
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

/// The kinds of game the New game dialog offers, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeChoice {
    Computer,
    Friend,
    Demo,
    Network,
}

impl ModeChoice {
    pub const ALL: [ModeChoice; 4] = [
        ModeChoice::Computer,
        ModeChoice::Friend,
        ModeChoice::Demo,
        ModeChoice::Network,
    ];

    /// Stable id used by the screen.
    pub fn id(self) -> &'static str {
        match self {
            ModeChoice::Computer => "computer",
            ModeChoice::Friend => "friend",
            ModeChoice::Demo => "demo",
            ModeChoice::Network => "network",
        }
    }

    pub fn from_id(id: &str) -> Option<ModeChoice> {
        ModeChoice::ALL.into_iter().find(|m| m.id() == id)
    }

    pub fn label(self) -> String {
        match self {
            ModeChoice::Computer => tr!("Play the computer"),
            ModeChoice::Friend => tr!("Two players"),
            ModeChoice::Demo => tr!("Demo"),
            ModeChoice::Network => tr!("Network"),
        }
    }

    pub fn detail(self) -> String {
        match self {
            ModeChoice::Computer => tr!("You against ChessPI"),
            ModeChoice::Friend => tr!("Take turns on this screen"),
            ModeChoice::Demo => tr!("The computer plays itself"),
            ModeChoice::Network => tr!("Another ChessPI on this network"),
        }
    }
}

/// In a network game: offer a game here, or join one offered nearby.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetworkRole {
    Host,
    Join,
}

/// The New game dialog's current choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewGameForm {
    pub mode: ModeChoice,
    pub colour: ColourChoice,
    pub level: Level,
    pub network: NetworkRole,
    /// The time control; `None` plays without clocks.
    pub clock: Option<TimeControl>,
    /// The custom control the steppers show; chosen when `custom_chosen`.
    pub custom: TimeControl,
    pub custom_chosen: bool,
    /// The coach for the game (against the computer, or two players).
    pub coach: CoachLevel,
    /// `level` is the level that fits the player, chosen as such.
    pub level_fits: bool,
    /// Who plays: between two people White's and Black's players; otherwise the person at
    /// the board is `white`'s.
    pub players: Sides,
}

/// The custom control the steppers start from: 10+0.
pub const DEFAULT_CUSTOM: TimeControl = TimeControl {
    base: std::time::Duration::from_secs(600),
    increment: std::time::Duration::ZERO,
};

impl NewGameForm {
    /// The form prefilled from the game being played, so "New game, Start" replays the same
    /// kind of game.
    pub fn from_setup(setup: &GameSetup) -> NewGameForm {
        let (mode, colour) = match setup.mode {
            Mode::Computer { human } => (ModeChoice::Computer, ColourChoice::of(human)),
            Mode::Friend => (ModeChoice::Friend, ColourChoice::White),
            Mode::Demo => (ModeChoice::Demo, ColourChoice::White),
            Mode::Network { local } => (ModeChoice::Network, ColourChoice::of(local)),
        };
        NewGameForm {
            mode,
            colour,
            level: setup.level,
            network: NetworkRole::Host,
            clock: None,
            custom: DEFAULT_CUSTOM,
            custom_chosen: false,
            coach: CoachLevel::Off,
            level_fits: false,
            players: Sides::default(),
        }
    }

    /// Chooses `control` (the last game's, as the next default): a preset, or else the
    /// custom control.
    pub fn choose_clock(&mut self, control: Option<TimeControl>) {
        self.clock = control;
        self.custom_chosen = control.is_some_and(|c| c.preset().is_none());
        if let Some(c) = control.filter(|_| self.custom_chosen) {
            self.custom = c;
        }
    }

    /// Steps the custom control by `minutes` and `seconds` of increment (clamped to the
    /// custom ranges) and chooses it.
    pub fn step_custom(&mut self, minutes: i64, seconds: i64) {
        let step = |now: u64, by: i64, range: std::ops::RangeInclusive<u64>| {
            now.saturating_add_signed(by)
                .clamp(*range.start(), *range.end())
        };
        let m = step(
            self.custom.base.as_secs() / 60,
            minutes,
            TimeControl::MINUTES,
        );
        let s = step(
            self.custom.increment.as_secs(),
            seconds,
            TimeControl::INCREMENT,
        );
        if let Some(c) = TimeControl::new(m, s) {
            self.custom = c;
        }
        self.custom_chosen = true;
        self.clock = Some(self.custom);
    }

    /// The colour the player asked for, drawing it when they asked for a random one.
    pub fn chosen_colour(&self) -> Color {
        match self.colour {
            ColourChoice::White => Color::White,
            ColourChoice::Black => Color::Black,
            ColourChoice::Random => random_color(),
        }
    }

    /// The person at the board in a game of one person (against the computer or over the
    /// network).
    pub fn person(&self) -> Who {
        self.players.white
    }

    /// The sides the game starts with: between two people as chosen, otherwise the person at
    /// both (the computer's or partner's side is not theirs, whichever it is).
    pub fn sides(&self) -> Sides {
        match self.mode {
            ModeChoice::Friend => self.players,
            _ => Sides::both(self.person()),
        }
    }

    /// The next choice for the seat `index` (0: White or the person, 1: Black between two):
    /// the roster's players in order, then the guest, round again. Between two people a
    /// player already at the other side is skipped (one person is not both sides).
    pub fn cycle_player(&mut self, index: usize, roster: &Roster) {
        let choices: Vec<Who> = roster.people().collect();
        let friend = self.mode == ModeChoice::Friend;
        let (seat, other) = match index {
            1 if friend => (self.players.black, self.players.white),
            _ => (self.players.white, self.players.black),
        };
        let at = choices.iter().position(|w| *w == seat);
        let next = (1..=choices.len())
            .map(|step| choices[(at.map_or(0, |i| i + 1) + step - 1) % choices.len()])
            .find(|w| !friend || *w == Who::Guest || *w != other)
            .unwrap_or(Who::Guest);
        match index {
            1 if friend => self.players.black = next,
            _ => self.players.white = next,
        }
    }

    /// The setup to start, drawing the colour when the player asked for a random one. A
    /// network game starts only once a partner is found: its setup is the one the pairing gives.
    pub fn to_setup(&self) -> GameSetup {
        let mode = match self.mode {
            ModeChoice::Computer => Mode::Computer {
                human: self.chosen_colour(),
            },
            ModeChoice::Friend => Mode::Friend,
            ModeChoice::Demo => Mode::Demo,
            ModeChoice::Network => Mode::Network {
                local: self.chosen_colour(),
            },
        };
        GameSetup {
            mode,
            level: self.level,
        }
    }
}

/// A coin toss for the colour, seeded by the standard library's per-process random keys.
pub fn random_color() -> Color {
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
        let s = GameSetup::FIRST_START;
        assert!(s.is_human(Color::White) && s.is_computer(Color::Black));
        let demo = GameSetup {
            mode: Mode::Demo,
            level: Level::DEFAULT,
        };
        assert!(demo.is_computer(Color::White) && demo.is_computer(Color::Black));
        let friend = GameSetup {
            mode: Mode::Friend,
            level: Level::DEFAULT,
        };
        assert!(friend.is_human(Color::White) && friend.is_human(Color::Black));
    }

    #[test]
    fn form_round_trips_the_setup() {
        let setup = GameSetup {
            mode: Mode::Computer {
                human: Color::Black,
            },
            level: Level::new(7).expect("level 7 exists"),
        };
        assert_eq!(NewGameForm::from_setup(&setup).to_setup(), setup);
    }

    #[test]
    fn the_custom_clock_steps_within_its_ranges() {
        let mut form = NewGameForm::from_setup(&GameSetup::FIRST_START);
        assert_eq!((form.clock, form.custom_chosen), (None, false));
        form.step_custom(-10, -1);
        assert_eq!(form.clock, TimeControl::new(1, 0), "clamped at 1+0");
        assert!(form.custom_chosen);
        form.step_custom(500, 75);
        assert_eq!(form.clock, TimeControl::new(180, 60), "clamped at 180+60");
        form.step_custom(-5, -58);
        assert_eq!(form.clock, TimeControl::new(175, 2));
        // The last game's control comes back: a preset as the preset, else as custom.
        form.choose_clock(TimeControl::new(3, 2));
        assert_eq!(
            (form.clock, form.custom_chosen),
            (TimeControl::new(3, 2), false)
        );
        assert_eq!(
            form.custom,
            TimeControl::new(175, 2).expect("175+2"),
            "kept"
        );
        form.choose_clock(TimeControl::new(7, 4));
        assert_eq!(
            (form.custom, form.custom_chosen),
            (TimeControl::new(7, 4).expect("7+4"), true)
        );
        form.choose_clock(None);
        assert_eq!((form.clock, form.custom_chosen), (None, false));
    }

    #[test]
    fn random_colour_gives_both_colours() {
        let form = NewGameForm {
            mode: ModeChoice::Computer,
            colour: ColourChoice::Random,
            level: Level::DEFAULT,
            network: NetworkRole::Host,
            clock: None,
            custom: DEFAULT_CUSTOM,
            custom_chosen: false,
            coach: CoachLevel::Off,
            level_fits: false,
            players: Sides::default(),
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
