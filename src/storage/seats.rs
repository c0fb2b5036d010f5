//! Who of this device's players sat at a game's sides, as the game's files keep it: the
//! players' ids and the names they played under (the players themselves are
//! [`super::players`]'s; this module depends on none of the stores, so every file can name
//! its players).

use std::fmt;

use chesspi_engine::Color;

/// The longest player name, in characters.
pub const MAX_NAME_CHARS: usize = 24;

/// A player's number, never reused on this device (a removed player's games keep theirs).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PlayerId(u32);

impl PlayerId {
    /// The player the one-player record of older versions becomes.
    pub const FIRST: PlayerId = PlayerId(1);

    /// The id the first player added gets.
    pub const SECOND: PlayerId = PlayerId(2);

    /// `n` as an id; 0 is none.
    pub const fn new(n: u32) -> Option<PlayerId> {
        if n > 0 { Some(PlayerId(n)) } else { None }
    }

    /// The number, as written in files and PGN tags.
    pub fn get(self) -> u32 {
        self.0
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Who sits at a side of the board: a player of this device, or a guest whose games count for
/// no one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Who {
    Guest,
    Player(PlayerId),
}

impl Who {
    /// The player, unless a guest.
    pub fn player(self) -> Option<PlayerId> {
        match self {
            Who::Guest => None,
            Who::Player(id) => Some(id),
        }
    }

    /// The form in files and PGN tags: the id's number, or `guest`.
    pub fn code(self) -> String {
        match self {
            Who::Guest => "guest".to_string(),
            Who::Player(id) => id.to_string(),
        }
    }

    /// Reads [`Who::code`].
    pub fn from_code(code: &str) -> Option<Who> {
        if code == "guest" {
            return Some(Who::Guest);
        }
        code.parse().ok().and_then(PlayerId::new).map(Who::Player)
    }
}

/// A person of this device at one side: who, and the name they had then (a renamed player's
/// old games keep the name they were played under in their PGN; the id finds the player).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    pub who: Who,
    pub name: String,
}

/// The persons at a game's sides; a side the computer or a network partner plays has none.
/// A game saved before players existed has none either: see [`Seats::who`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Seats {
    white: Option<Seat>,
    black: Option<Seat>,
}

/// A PGN tag naming the player at a side: `ChessPIWhitePlayer`, `ChessPIBlackPlayer`.
pub fn player_tag(color: Color) -> &'static str {
    match color {
        Color::White => "ChessPIWhitePlayer",
        Color::Black => "ChessPIBlackPlayer",
    }
}

impl Seats {
    /// No one recorded at either side.
    pub fn none() -> Seats {
        Seats::default()
    }

    /// The person at `color`, if one was recorded.
    pub fn get(&self, color: Color) -> Option<&Seat> {
        match color {
            Color::White => self.white.as_ref(),
            Color::Black => self.black.as_ref(),
        }
    }

    /// Records `seat` at `color`.
    pub fn set(&mut self, color: Color, seat: Option<Seat>) {
        match color {
            Color::White => self.white = seat,
            Color::Black => self.black = seat,
        }
    }

    /// `self` with `seat` at `color`.
    pub fn with(mut self, color: Color, seat: Seat) -> Seats {
        self.set(color, Some(seat));
        self
    }

    /// Who played `color`, a side a person of this device played: the one recorded, else
    /// (a game from before players) player 1, whom the one-player record became.
    pub fn who(&self, color: Color) -> Who {
        self.get(color)
            .map_or(Who::Player(PlayerId::FIRST), |seat| seat.who)
    }
}

/// Who sits at each side of the game on the board (a side the computer or a network
/// partner plays is ignored): the game's form while it is played; [`Seats`] adds the names
/// when it is saved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sides {
    pub white: Who,
    pub black: Who,
}

impl Sides {
    /// `who` at both sides (one person against the computer, whichever side they take).
    pub fn both(who: Who) -> Sides {
        Sides {
            white: who,
            black: who,
        }
    }

    /// Who sits at `color`.
    pub fn of(self, color: Color) -> Who {
        match color {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }

    /// The sides a saved game recorded, `default` where it recorded no one (the computer's
    /// side, or a game from before players).
    pub fn of_seats(seats: &Seats, default: Who) -> Sides {
        let at = |color| seats.get(color).map_or(default, |s: &Seat| s.who);
        Sides {
            white: at(Color::White),
            black: at(Color::Black),
        }
    }
}

impl Default for Sides {
    /// Player 1 everywhere, as a game from before players.
    fn default() -> Sides {
        Sides::both(Who::Player(PlayerId::FIRST))
    }
}
