//! The local player's record against each computer level, and an Elo estimate.
//!
//! Rating: the standard Elo update after each finished game against the computer, with the
//! level's [`Level::elo`] as the opponent's rating:
//! `R' = R + K (S - E)`, `E = 1 / (1 + 10^((R_level - R) / 400))`, `S` = 1, ½ or 0.
//! A new player starts at [`INITIAL_RATING`] (1200, about where a casual club beginner is, close to
//! the level-3 computer) with `K = 32` for the first [`PROVISIONAL_GAMES`] games so the estimate
//! moves quickly to the player's strength, then `K = 16`. While provisional the Statistics
//! screen should say so.
//!
//! Stored in `<state>/stats.toml` with a checksum line; a damaged file is set aside and the
//! record restarts (reported once).

use std::fmt;

use chesspi_engine::level::Level;
use serde::{Deserialize, Serialize};

use super::autosave::{GameMode, SavedGame};
use super::store::{Sealable, SealedStore, StoreError};

/// The stats file's name in the state directory.
pub const STATS_FILE: &str = "stats.toml";

/// Rating of a player with no rated game.
pub const INITIAL_RATING: f64 = 1200.0;

/// Games with the larger K-factor; the rating is shown as provisional until then.
pub const PROVISIONAL_GAMES: u32 = 30;

const K_PROVISIONAL: f64 = 32.0;
const K_ESTABLISHED: f64 = 16.0;

/// How many recent game ids are remembered to refuse counting a game twice.
const RECENT_IDS: usize = 32;

/// The local player's result in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerResult {
    /// The player won.
    Win,
    /// A draw.
    Draw,
    /// The player lost.
    Loss,
}

impl PlayerResult {
    /// The Elo score: 1, 0.5 or 0.
    pub fn score(self) -> f64 {
        match self {
            PlayerResult::Win => 1.0,
            PlayerResult::Draw => 0.5,
            PlayerResult::Loss => 0.0,
        }
    }

    /// The computer's level and the player's result, for a finished game against the
    /// computer from the start position; `None` for other modes, unfinished games and games
    /// from a set-up position (a won endgame is not a win against the level: not rated), and
    /// games the player never moved in (aborted, as on lichess: a flag that fell or a
    /// resignation before the first move measures nothing).
    pub fn of_game(game: &SavedGame) -> Option<(Level, PlayerResult)> {
        let GameMode::VsComputer { human, level } = game.mode else {
            return None;
        };
        if game.game.initial_position().to_fen() != chesspi_engine::fen::STARTPOS
            || !game.rated
            || !player_moved(&game.game, human)
        {
            return None;
        }
        let outcome = game.game.outcome()?;
        let result = match outcome.winner {
            None => PlayerResult::Draw,
            Some(c) if c == human => PlayerResult::Win,
            Some(_) => PlayerResult::Loss,
        };
        Some((level, result))
    }
}

/// Whether `player` made at least one move in `game`.
pub fn player_moved(game: &chesspi_engine::game::Game, player: chesspi_engine::Color) -> bool {
    let positions = game.positions();
    (0..game.moves().len()).any(|i| positions[i].turn() == player)
}

/// Wins, draws and losses.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Record {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    fn add(&mut self, result: PlayerResult) {
        let n = match result {
            PlayerResult::Win => &mut self.wins,
            PlayerResult::Draw => &mut self.draws,
            PlayerResult::Loss => &mut self.losses,
        };
        *n = n.saturating_add(1);
    }
}

/// A rating before and after one game, rounded for display.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatingChange {
    /// Before the game.
    pub before: i32,
    /// After the game.
    pub after: i32,
}

/// One row of the Statistics screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelRecord {
    /// The computer level.
    pub level: Level,
    /// Its Elo, for the screen.
    pub level_elo: u32,
    /// The player's results against it.
    pub record: Record,
}

/// Everything the Statistics screen shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatsSummary {
    /// The Elo estimate, rounded.
    pub rating: i32,
    /// Fewer than [`PROVISIONAL_GAMES`] rated games.
    pub provisional: bool,
    /// Rated games played.
    pub rated_games: u32,
    /// All levels, 1 to 10, including those never played.
    pub levels: Vec<LevelRecord>,
    /// The sum over all levels.
    pub total: Record,
}

impl StatsSummary {
    /// The computer level that fits the player: the one whose Elo is nearest the rating, so
    /// each side wins about half the points. `None` before the first rated game.
    pub fn fitting_level(&self) -> Option<Level> {
        (self.rated_games > 0).then(|| Level::nearest_to_elo(self.rating.max(0).unsigned_abs()))
    }
}

/// The player's record and rating.
#[derive(Debug, Clone, PartialEq)]
pub struct Stats {
    rating: f64,
    rated_games: u32,
    levels: [Record; 10],
    recent_ids: Vec<u64>,
}

impl Default for Stats {
    fn default() -> Self {
        Stats::new()
    }
}

/// The expected score of a player rated `rating` against `opponent`.
pub fn expected_score(rating: f64, opponent: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((opponent - rating) / 400.0))
}

impl Stats {
    /// No games, rating [`INITIAL_RATING`].
    pub fn new() -> Stats {
        Stats {
            rating: INITIAL_RATING,
            rated_games: 0,
            levels: [Record::default(); 10],
            recent_ids: Vec::new(),
        }
    }

    /// The current rating, unrounded.
    pub fn rating(&self) -> f64 {
        self.rating
    }

    /// Counts one game against the computer at `level` and updates the rating.
    pub fn record(&mut self, level: Level, result: PlayerResult) -> RatingChange {
        let before = self.rating;
        let k = if self.rated_games < PROVISIONAL_GAMES {
            K_PROVISIONAL
        } else {
            K_ESTABLISHED
        };
        let expected = expected_score(before, f64::from(level.elo()));
        self.rating = before + k * (result.score() - expected);
        self.rated_games = self.rated_games.saturating_add(1);
        self.levels[usize::from(level.number() - 1)].add(result);
        RatingChange {
            before: before.round() as i32,
            after: self.rating.round() as i32,
        }
    }

    /// Counts a finished game against the computer once: `None` (and no change) for other
    /// modes, unfinished games, and a game already counted (e.g. restored after a crash that
    /// came between counting it and starting the next one).
    pub fn record_game(&mut self, game: &SavedGame) -> Option<RatingChange> {
        let (level, result) = PlayerResult::of_game(game)?;
        if self.recent_ids.contains(&game.id) {
            return None;
        }
        if self.recent_ids.len() >= RECENT_IDS {
            self.recent_ids.remove(0);
        }
        self.recent_ids.push(game.id);
        Some(self.record(level, result))
    }

    /// The player's record against `level`.
    pub fn level_record(&self, level: Level) -> Record {
        self.levels[usize::from(level.number() - 1)]
    }

    /// What the Statistics screen shows.
    pub fn summary(&self) -> StatsSummary {
        let levels: Vec<LevelRecord> = Level::all()
            .map(|level| LevelRecord {
                level,
                level_elo: level.elo(),
                record: self.level_record(level),
            })
            .collect();
        let total = levels.iter().fold(Record::default(), |mut t, l| {
            t.wins += l.record.wins;
            t.draws += l.record.draws;
            t.losses += l.record.losses;
            t
        });
        StatsSummary {
            rating: self.rating.round() as i32,
            provisional: self.rated_games < PROVISIONAL_GAMES,
            rated_games: self.rated_games,
            levels,
            total,
        }
    }
}

/// A value in a stats file is impossible (a rating that is not a number, a wrong number of
/// levels).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadStats(pub String);

impl fmt::Display for BadStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the statistics file has a bad value: {}", self.0)
    }
}

/// Why a stats file was refused.
pub type StatsError = StoreError<Stats>;

/// Reads and writes `<state>/stats.toml`.
pub type StatsStore = SealedStore<Stats>;

/// The TOML shape of `stats.toml`; opaque, public only as [`Sealable::Raw`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStats {
    format: String,
    version: u32,
    rating: f64,
    rated_games: u32,
    recent_ids: Vec<String>,
    /// One table per level, level 1 first.
    levels: Vec<Record>,
}

impl Sealable for Stats {
    const FILE: &'static str = STATS_FILE;
    const FORMAT: &'static str = "chesspi-stats";
    const VERSION: u32 = 1;
    const HEADER: &'static str = "# ChessPI player statistics. Do not edit.";
    const NOUN: &'static str = "the statistics";
    type Raw = RawStats;
    type Invalid = BadStats;

    fn to_raw(&self) -> RawStats {
        RawStats {
            format: Self::FORMAT.to_string(),
            version: Self::VERSION,
            rating: self.rating,
            rated_games: self.rated_games,
            recent_ids: self
                .recent_ids
                .iter()
                .map(|id| format!("{id:016x}"))
                .collect(),
            levels: self.levels.to_vec(),
        }
    }

    fn format_of(raw: &RawStats) -> (&str, u32) {
        (&raw.format, raw.version)
    }

    fn from_raw(raw: RawStats) -> Result<Stats, BadStats> {
        if !raw.rating.is_finite() || !(0.0..=4000.0).contains(&raw.rating) {
            return Err(BadStats(format!("rating {}", raw.rating)));
        }
        let levels: [Record; 10] = raw
            .levels
            .try_into()
            .map_err(|v: Vec<Record>| BadStats(format!("{} levels, not 10", v.len())))?;
        let recent_ids = raw
            .recent_ids
            .iter()
            .map(|t| u64::from_str_radix(t, 16))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| BadStats("a game id is not hexadecimal".to_string()))?;
        Ok(Stats {
            rating: raw.rating,
            rated_games: raw.rated_games,
            levels,
            recent_ids,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::sealed::{seal, unseal};
    use crate::storage::store::{decode, encode};

    #[test]
    fn the_fitting_level_is_the_one_nearest_the_rating() {
        let mut stats = Stats::new();
        assert_eq!(stats.summary().fitting_level(), None, "no rated game yet");
        stats.record(Level::new(4).expect("level"), PlayerResult::Win);
        let summary = stats.summary();
        let fits = summary.fitting_level().expect("a level");
        assert_eq!(fits, Level::nearest_to_elo(summary.rating as u32));
        // Winning against a strong level, the player is offered a stronger one.
        for _ in 0..30 {
            stats.record(Level::new(9).expect("level"), PlayerResult::Win);
        }
        assert!(stats.summary().fitting_level().expect("a level") > fits);
    }

    /// Values behind a valid checksum are still checked.
    #[test]
    fn sealed_but_impossible_files_are_refused() {
        let body = encode(&Stats::new());
        let body = unseal(&body).expect("sealed");
        let cases = [
            (body.replace("version = 1", "version = 2"), "version 2"),
            (body.replace("rating = 1200.0", "rating = nan"), "rating"),
            (body.replace("rating = 1200.0", "rating = -5.0"), "rating"),
            (
                body[..body.rfind("[[levels]]").expect("levels")].to_string(),
                "9 levels",
            ),
            (
                body.replace("recent_ids = []", "recent_ids = [\"xyz\"]"),
                "game id",
            ),
            (format!("{body}extra = 1\n"), "extra"),
        ];
        for (text, needle) in cases {
            let err = decode::<Stats>(seal(&text).as_bytes()).expect_err(needle);
            assert!(err.to_string().contains(needle), "{err} lacks {needle}");
        }
    }
}
