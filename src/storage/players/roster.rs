//! Who plays on this device: the players by id and name, the last choice, and whether the
//! device asks at start. Stored in `<state>/players.toml` with a checksum line; a damaged
//! file is set aside like the others (the players' own files stay in their folders).

use std::fmt;

use chesspi_engine::coach::CoachLevel;
use serde::{Deserialize, Serialize};

use super::name::{NameError, PlayerName};
pub use crate::storage::seats::{PlayerId, Who};
use crate::storage::store::{Sealable, SealedStore, StoreError};

/// The players file's name in the state directory.
pub const PLAYERS_FILE: &str = "players.toml";

/// At most this many players: the Players dialog shows them all at once, with Add and
/// Close, in two columns.
pub const MAX_PLAYERS: usize = 8;

/// One player of this device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Player {
    pub id: PlayerId,
    pub name: PlayerName,
    /// The coach their new games start with, once they chose one in Settings (`None`: as
    /// the device's setting, which the one-player versions kept).
    pub coach: Option<CoachLevel>,
}

/// Why a change to the players was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RosterError {
    /// The name is not one (or another player's).
    Name(NameError),
    /// [`MAX_PLAYERS`] players already.
    Full,
    /// No player has this id (removed meanwhile).
    Unknown(PlayerId),
}

impl fmt::Display for RosterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RosterError::Name(e) => e.fmt(f),
            RosterError::Full => write!(f, "{MAX_PLAYERS} players already"),
            RosterError::Unknown(id) => write!(f, "there is no player {id}"),
        }
    }
}

impl std::error::Error for RosterError {}

/// The players of this device.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Roster {
    players: Vec<Player>,
    /// The id the next player gets: above every id ever given.
    next_id: PlayerId,
    /// Who played last (New game offers them first).
    last: Who,
    /// Whether the device asks "Who is playing?" when it starts.
    ask_at_start: bool,
}

impl Default for Roster {
    /// A new device (or one updated from the one-player versions): "Player 1", chosen.
    fn default() -> Roster {
        Roster {
            players: vec![Player {
                id: PlayerId::FIRST,
                name: PlayerName::new("Player 1").expect("a valid name"),
                coach: None,
            }],
            next_id: PlayerId::SECOND,
            last: Who::Player(PlayerId::FIRST),
            ask_at_start: false,
        }
    }
}

impl Roster {
    /// The players, in the order they were added.
    pub fn players(&self) -> &[Player] {
        &self.players
    }

    /// Who may play, in the order lists show them: the players as added, then the guest.
    pub fn people(&self) -> impl Iterator<Item = Who> + '_ {
        self.players
            .iter()
            .map(|p| Who::Player(p.id))
            .chain(std::iter::once(Who::Guest))
    }

    /// Player `id`, if they are still on the device.
    pub fn get(&self, id: PlayerId) -> Option<&Player> {
        self.players.iter().find(|p| p.id == id)
    }

    /// `who`'s name, `None` for a guest or a player since removed.
    pub fn name_of(&self, who: Who) -> Option<&PlayerName> {
        who.player().and_then(|id| self.get(id)).map(|p| &p.name)
    }

    /// Who played last; a player since removed reads as a guest.
    pub fn last(&self) -> Who {
        match self.last {
            Who::Player(id) if self.get(id).is_none() => Who::Guest,
            who => who,
        }
    }

    /// Remembers who plays now, as the next default.
    pub fn set_last(&mut self, who: Who) {
        self.last = who;
    }

    pub fn ask_at_start(&self) -> bool {
        self.ask_at_start
    }

    pub fn set_ask_at_start(&mut self, ask: bool) {
        self.ask_at_start = ask;
    }

    /// The id the next added player gets.
    pub fn next_id(&self) -> PlayerId {
        self.next_id
    }

    /// Skips ids up to `taken` (ids whose folders exist from a roster set aside).
    pub fn skip_ids_through(&mut self, taken: u32) {
        if let Some(after) = PlayerId::new(taken.saturating_add(1)) {
            self.next_id = self.next_id.max(after);
        }
    }

    /// Adds a player called `name` (see [`PlayerName::new`]), the coach as the device's.
    ///
    /// # Errors
    /// The name is not valid or is another player's, or the device has [`MAX_PLAYERS`].
    pub fn add(&mut self, name: &str) -> Result<PlayerId, RosterError> {
        // The last id is never given: the one after it would repeat it.
        let next =
            PlayerId::new(self.next_id.get().saturating_add(1)).filter(|n| *n != self.next_id);
        let (true, Some(next)) = (self.players.len() < MAX_PLAYERS, next) else {
            return Err(RosterError::Full);
        };
        let name = self.free_name(name, None)?;
        let id = self.next_id;
        self.next_id = next;
        self.players.push(Player {
            id,
            name,
            coach: None,
        });
        Ok(id)
    }

    /// Renames player `id`.
    ///
    /// # Errors
    /// No such player, or the name is not valid or is another player's.
    pub fn rename(&mut self, id: PlayerId, name: &str) -> Result<(), RosterError> {
        let name = self.free_name(name, Some(id))?;
        self.player_mut(id)?.name = name;
        Ok(())
    }

    /// Sets the coach player `id`'s new games start with.
    ///
    /// # Errors
    /// No such player.
    pub fn set_coach(&mut self, id: PlayerId, coach: CoachLevel) -> Result<(), RosterError> {
        self.player_mut(id)?.coach = Some(coach);
        Ok(())
    }

    /// Removes player `id` (their saved games keep their name).
    ///
    /// # Errors
    /// No such player.
    pub fn remove(&mut self, id: PlayerId) -> Result<Player, RosterError> {
        let i = self
            .players
            .iter()
            .position(|p| p.id == id)
            .ok_or(RosterError::Unknown(id))?;
        Ok(self.players.remove(i))
    }

    fn player_mut(&mut self, id: PlayerId) -> Result<&mut Player, RosterError> {
        self.players
            .iter_mut()
            .find(|p| p.id == id)
            .ok_or(RosterError::Unknown(id))
    }

    /// `name` as a name no other player than `except` has.
    fn free_name(&self, name: &str, except: Option<PlayerId>) -> Result<PlayerName, RosterError> {
        let name = PlayerName::new(name).map_err(RosterError::Name)?;
        let taken = self
            .players
            .iter()
            .any(|p| Some(p.id) != except && p.name.same_as(&name));
        if taken {
            return Err(RosterError::Name(NameError::Taken));
        }
        Ok(name)
    }
}

/// A value in a players file is impossible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadRoster(pub String);

impl fmt::Display for BadRoster {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the players file has a bad value: {}", self.0)
    }
}

/// Why a players file was refused.
pub type RosterFileError = StoreError<Roster>;

/// Reads and writes `<state>/players.toml`.
pub type RosterStore = SealedStore<Roster>;

/// The TOML shape of `players.toml`; opaque, public only as [`Sealable::Raw`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRoster {
    format: String,
    version: u32,
    next_id: u32,
    last: String,
    ask_at_start: bool,
    players: Vec<RawPlayer>,
}

/// One player in `players.toml`.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPlayer {
    id: u32,
    name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    coach: Option<String>,
}

impl Sealable for Roster {
    const FILE: &'static str = PLAYERS_FILE;
    const FORMAT: &'static str = "chesspi-players";
    const VERSION: u32 = 1;
    const HEADER: &'static str = "# ChessPI players. Do not edit.";
    const NOUN: &'static str = "the players";
    type Raw = RawRoster;
    type Invalid = BadRoster;

    fn to_raw(&self) -> RawRoster {
        RawRoster {
            format: Self::FORMAT.to_string(),
            version: Self::VERSION,
            next_id: self.next_id.get(),
            last: self.last.code(),
            ask_at_start: self.ask_at_start,
            players: self
                .players
                .iter()
                .map(|p| RawPlayer {
                    id: p.id.get(),
                    name: p.name.as_str().to_string(),
                    coach: p.coach.map(|c| c.code().to_string()),
                })
                .collect(),
        }
    }

    fn format_of(raw: &RawRoster) -> (&str, u32) {
        (&raw.format, raw.version)
    }

    fn from_raw(raw: RawRoster) -> Result<Roster, BadRoster> {
        if raw.players.len() > MAX_PLAYERS {
            return Err(BadRoster(format!("{} players", raw.players.len())));
        }
        let mut roster = Roster {
            players: Vec::new(),
            next_id: PlayerId::new(raw.next_id)
                .ok_or_else(|| BadRoster(format!("next id {}", raw.next_id)))?,
            last: Who::from_code(&raw.last)
                .ok_or_else(|| BadRoster(format!("last player {:?}", raw.last)))?,
            ask_at_start: raw.ask_at_start,
        };
        for p in raw.players {
            let id = PlayerId::new(p.id)
                .filter(|id| id.get() < raw.next_id && roster.get(*id).is_none())
                .ok_or_else(|| BadRoster(format!("player id {}", p.id)))?;
            let name = roster
                .free_name(&p.name, None)
                .ok()
                .filter(|n| n.as_str() == p.name)
                .ok_or_else(|| BadRoster(format!("player name {:?}", p.name)))?;
            let coach = p
                .coach
                .map(|code| {
                    CoachLevel::from_code(&code).ok_or_else(|| BadRoster(format!("coach {code:?}")))
                })
                .transpose()?;
            roster.players.push(Player { id, name, coach });
        }
        Ok(roster)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::sealed::{seal, unseal};
    use crate::storage::store::{decode, encode};

    #[test]
    fn players_are_added_renamed_and_removed_with_ids_never_reused() {
        let mut roster = Roster::default();
        assert_eq!(roster.players().len(), 1);
        assert_eq!(roster.last(), Who::Player(PlayerId::FIRST));
        let anna = roster.add("Anna").expect("added");
        assert_eq!(anna.get(), 2);
        assert_eq!(roster.add("ANNA"), Err(RosterError::Name(NameError::Taken)));
        assert_eq!(
            roster.add(" \u{2028} "),
            Err(RosterError::Name(NameError::Empty))
        );
        roster
            .rename(anna, "anna")
            .expect("her own name in other case");
        assert_eq!(
            roster.rename(anna, "player 1"),
            Err(RosterError::Name(NameError::Taken))
        );
        roster.set_last(Who::Player(anna));
        roster.remove(anna).expect("removed");
        assert_eq!(
            roster.last(),
            Who::Guest,
            "a removed player is no one's default"
        );
        let bert = roster.add("Bert").expect("added");
        assert_eq!(bert.get(), 3, "2 stays Anna's");
        assert_eq!(roster.remove(anna), Err(RosterError::Unknown(anna)));
        while roster.players().len() < MAX_PLAYERS {
            let n = roster.players().len();
            roster.add(&format!("P{n}")).expect("room");
        }
        assert_eq!(roster.add("One more"), Err(RosterError::Full));
    }

    #[test]
    fn the_file_keeps_every_player_and_refuses_impossible_ones() {
        let mut roster = Roster::default();
        let id = roster.add("Zoë").expect("added");
        roster.set_coach(id, CoachLevel::Mistakes).expect("coach");
        roster.set_last(Who::Guest);
        roster.set_ask_at_start(true);
        let text = encode(&roster);
        assert_eq!(decode::<Roster>(text.as_bytes()).expect("read"), roster);

        let body = unseal(&text).expect("sealed");
        let cases = [
            (body.replace("id = 2", "id = 1"), "player id 1"),
            (body.replace("id = 2", "id = 0"), "player id 0"),
            (body.replace("next_id = 3", "next_id = 2"), "player id 2"),
            (body.replace("\"Zoë\"", "\"player 1\""), "player name"),
            (body.replace("\"Zoë\"", "\" Zoë\""), "player name"),
            (body.replace("\"mistakes\"", "\"loud\""), "coach"),
            (body.replace("\"guest\"", "\"nobody\""), "last player"),
        ];
        for (text, needle) in cases {
            assert_ne!(text, body, "{needle}: the case changes the file");
            let err = decode::<Roster>(seal(&text).as_bytes()).expect_err(needle);
            assert!(err.to_string().contains(needle), "{err} lacks {needle}");
        }
    }

    #[test]
    fn who_reads_back_from_its_code() {
        for who in [
            Who::Guest,
            Who::Player(PlayerId::FIRST),
            Who::Player(PlayerId::new(42).expect("an id")),
        ] {
            assert_eq!(Who::from_code(&who.code()), Some(who));
        }
        for bad in ["", "0", "-1", "p1", "Guest"] {
            assert_eq!(Who::from_code(bad), None, "{bad}");
        }
    }
}
