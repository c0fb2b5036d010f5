//! The local player's record against each computer level, and their rating.
//!
//! Rating: Glicko-2 ([`super::glicko`]) after each finished game against the computer, the
//! level's label ([`Level::elo`]) as the opponent's rating, known to [`LEVEL_DEVIATION`].
//! A new player starts at [`INITIAL_RATING`] (1000) with the widest deviation (500, with the
//! volatility and Glicko-2's τ as lichess sets them), so the first games move the rating far
//! and fast; the rating is shown as provisional while its
//! deviation is above [`PROVISIONAL_DEVIATION`]. A rating kept from before Glicko-2 (an Elo
//! estimate, stored without a deviation) keeps its value, with the deviation its rated games
//! would leave ([`super::glicko::deviation_after`]).
//!
//! Stored in `<state>/stats.toml` with a checksum line; a damaged file is set aside and the
//! record restarts (reported once).

use std::fmt;

use chesspi_engine::level::Level;
use serde::{Deserialize, Serialize};

use super::autosave::{GameMode, SavedGame};
use super::glicko::{self, Rating};
use super::store::{Sealable, SealedStore, StoreError};

/// The stats file's name in the state directory.
pub const STATS_FILE: &str = "stats.toml";

/// Rating of a player with no rated game (the chess-app design ChessPI started from sets a
/// new user's Elo to 1000).
pub const INITIAL_RATING: f64 = 1000.0;

/// Deviation of a player with no rated game: nothing known (lichess's; Glickman's 350 left a
/// simulated 2000 player 120 short after 30 games, the gap between levels 6 and 7 slowing
/// them: see the simulation below).
pub const INITIAL_DEVIATION: f64 = 500.0;

/// Volatility of a new player (lichess's; Glickman suggests 0.06).
pub const INITIAL_VOLATILITY: f64 = 0.09;

/// A rating is provisional while its deviation is above this (lichess's rule).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// How sure the levels' labels are, as an opponent's deviation: each was measured in 40 to 100
/// games against rated engines and lies within ±100 of its measurement (docs/BENCHMARKS.md,
/// "Levels"; the measurements' own intervals are wider).
pub const LEVEL_DEVIATION: f64 = 100.0;

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
#[derive(Debug, Clone, PartialEq)]
pub struct StatsSummary {
    /// The rating, rounded.
    pub rating: i32,
    /// The rating unrounded, with its deviation (what a network partner is told).
    pub glicko: Rating,
    /// The deviation is above [`PROVISIONAL_DEVIATION`].
    pub provisional: bool,
    /// Rated games played.
    pub rated_games: u32,
    /// All levels, 1 to 10, including those never played.
    pub levels: Vec<LevelRecord>,
    /// The sum over all levels.
    pub total: Record,
    /// Rated games against other players.
    pub people: Record,
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
    rating: Rating,
    rated_games: u32,
    levels: [Record; 10],
    /// Rated games against other players (at this board or over the network).
    people: Record,
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
            rating: Rating {
                rating: INITIAL_RATING,
                deviation: INITIAL_DEVIATION,
                volatility: INITIAL_VOLATILITY,
            },
            rated_games: 0,
            levels: [Record::default(); 10],
            people: Record::default(),
            recent_ids: Vec::new(),
        }
    }

    /// The current rating, unrounded.
    pub fn rating(&self) -> f64 {
        self.rating.rating
    }

    /// The rating with its deviation and volatility.
    pub fn glicko(&self) -> Rating {
        self.rating
    }

    /// Counts one game against the computer at `level` and updates the rating.
    pub fn record(&mut self, level: Level, result: PlayerResult) -> RatingChange {
        let before = self.rating.rating;
        let game = glicko::Game {
            opponent: f64::from(level.elo()),
            opponent_deviation: LEVEL_DEVIATION,
            score: result.score(),
        };
        self.rate(game);
        self.rated_games = self.rated_games.saturating_add(1);
        self.levels[usize::from(level.number() - 1)].add(result);
        RatingChange {
            before: before.round() as i32,
            after: self.rating.rating.round() as i32,
        }
    }

    /// The rating after one game. Glicko-2 first widens the deviation by the volatility; a
    /// game far from the player's rating (a first win against level 9) tells too little to
    /// narrow it back, and a deviation above the starting one means nothing (the start is
    /// "nothing known") and would be refused when the file is read again.
    fn rate(&mut self, game: glicko::Game) {
        self.rating = self.rating.after(&[game], glicko::TAU);
        self.rating.deviation = self.rating.deviation.min(INITIAL_DEVIATION);
    }

    /// Counts one rated game against another player, whose rating before the game was
    /// `opponent`, and updates the rating.
    pub fn record_against(&mut self, opponent: Rating, result: PlayerResult) -> RatingChange {
        let before = self.rating.rating;
        let game = glicko::Game {
            opponent: opponent.rating,
            opponent_deviation: opponent.deviation,
            score: result.score(),
        };
        self.rate(game);
        self.rated_games = self.rated_games.saturating_add(1);
        self.people.add(result);
        RatingChange {
            before: before.round() as i32,
            after: self.rating.rating.round() as i32,
        }
    }

    /// Whether game `id` was counted already; remembers it as counted. A restored game
    /// (after a crash between counting it and starting the next one) counts once.
    pub fn first_count_of(&mut self, id: u64) -> bool {
        if self.recent_ids.contains(&id) {
            return false;
        }
        if self.recent_ids.len() >= RECENT_IDS {
            self.recent_ids.remove(0);
        }
        self.recent_ids.push(id);
        true
    }

    /// Counts a finished game against the computer once: `None` (and no change) for other
    /// modes, unfinished games, and a game already counted (e.g. restored after a crash that
    /// came between counting it and starting the next one).
    pub fn record_game(&mut self, game: &SavedGame) -> Option<RatingChange> {
        let (level, result) = PlayerResult::of_game(game)?;
        self.first_count_of(game.id)
            .then(|| self.record(level, result))
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
            rating: self.rating.rating.round() as i32,
            glicko: self.rating,
            provisional: self.rating.deviation > PROVISIONAL_DEVIATION,
            rated_games: self.rated_games,
            levels,
            total,
            people: self.people,
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
    /// Glicko-2's deviation and volatility; a file from before them has neither.
    #[serde(default)]
    deviation: Option<f64>,
    #[serde(default)]
    volatility: Option<f64>,
    rated_games: u32,
    recent_ids: Vec<String>,
    /// One table per level, level 1 first.
    levels: Vec<Record>,
    /// Games against players; a file from before players has none.
    #[serde(default)]
    people: Option<Record>,
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
            rating: self.rating.rating,
            deviation: Some(self.rating.deviation),
            volatility: Some(self.rating.volatility),
            rated_games: self.rated_games,
            recent_ids: self
                .recent_ids
                .iter()
                .map(|id| format!("{id:016x}"))
                .collect(),
            levels: self.levels.to_vec(),
            people: Some(self.people),
        }
    }

    fn format_of(raw: &RawStats) -> (&str, u32) {
        (&raw.format, raw.version)
    }

    fn from_raw(raw: RawStats) -> Result<Stats, BadStats> {
        if !raw.rating.is_finite() || !(0.0..=4000.0).contains(&raw.rating) {
            return Err(BadStats(format!("rating {}", raw.rating)));
        }
        // An Elo estimate from before Glicko-2 is as sure as its games make it.
        let deviation = raw
            .deviation
            .unwrap_or_else(|| glicko::deviation_after(INITIAL_DEVIATION, raw.rated_games));
        if !deviation.is_finite() || !(1.0..=INITIAL_DEVIATION).contains(&deviation) {
            return Err(BadStats(format!("deviation {deviation}")));
        }
        let volatility = raw.volatility.unwrap_or(INITIAL_VOLATILITY);
        if !volatility.is_finite() || !(0.0..=1.0).contains(&volatility) || volatility == 0.0 {
            return Err(BadStats(format!("volatility {volatility}")));
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
            rating: Rating {
                rating: raw.rating,
                deviation,
                volatility,
            },
            rated_games: raw.rated_games,
            levels,
            people: raw.people.unwrap_or_default(),
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

    /// A first game against any level, with any result, is read back as it was written
    /// (a first win against level 9 once left a deviation over the starting one, refused).
    #[test]
    fn a_first_game_against_any_level_reads_back() {
        for level in Level::all() {
            for result in [PlayerResult::Win, PlayerResult::Draw, PlayerResult::Loss] {
                let mut stats = Stats::new();
                stats.record(level, result);
                assert!(stats.glicko().deviation <= INITIAL_DEVIATION);
                let read = decode::<Stats>(encode(&stats).as_bytes()).expect("reads back");
                assert_eq!(read, stats, "level {} {result:?}", level.number());
            }
        }
    }

    /// Values behind a valid checksum are still checked.
    #[test]
    fn sealed_but_impossible_files_are_refused() {
        let body = encode(&Stats::new());
        let body = unseal(&body).expect("sealed");
        let cases = [
            (body.replace("version = 1", "version = 2"), "version 2"),
            (body.replace("rating = 1000.0", "rating = nan"), "rating"),
            (body.replace("rating = 1000.0", "rating = -5.0"), "rating"),
            (
                body.replace("deviation = 500.0", "deviation = 900.0"),
                "deviation",
            ),
            (
                body.replace("volatility = 0.09", "volatility = inf"),
                "volatility",
            ),
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
            assert_ne!(text, body, "{needle}: the case changes the file");
            let err = decode::<Stats>(seal(&text).as_bytes()).expect_err(needle);
            assert!(err.to_string().contains(needle), "{err} lacks {needle}");
        }
    }

    /// 200 simulated players of each fixed strength play "the level that fits" 30 times, each
    /// result drawn (seeded) from the Elo model against the level's label. Prints the figures
    /// (`cargo test --lib simulated_players -- --nocapture`).
    #[test]
    fn simulated_players_are_rated_near_their_strength_within_thirty_games() {
        // SplitMix64: a fixed, portable sequence.
        let mut seed = 0x5eed_c0ff_ee15_600d_u64;
        let mut uniform = move || {
            seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = seed;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            (z ^ (z >> 31)) as f64 / u64::MAX as f64
        };
        let median = |v: &mut Vec<f64>| {
            v.sort_by(f64::total_cmp);
            (v[v.len() / 2 - 1] + v[v.len() / 2]) / 2.0
        };
        // (strength, largest miss of the median rating, range of the median late score).
        // 2000 lies in the ladder's widest gap (level 6 at 1610, level 7 at 2090, measured on
        // 2026-11-29): a player there meets levels 250-400 points away, each game tells less,
        // and 30 games bring the median to about 1860, scoring about 70 % late on. Evening
        // the levels' steps is open (docs/BENCHMARKS.md, "Levels").
        let cases = [
            (1000.0, 75.0, 0.4..=0.6),
            (1500.0, 75.0, 0.4..=0.6),
            (2000.0, 175.0, 0.4..=0.75),
        ];
        for (strength, miss, late_range) in cases {
            let (mut finals, mut late_scores) = (Vec::new(), Vec::new());
            for _ in 0..200 {
                let mut stats = Stats::new();
                let mut late = 0.0;
                for game in 1..=30 {
                    let level = stats
                        .summary()
                        .fitting_level()
                        .unwrap_or(Level::nearest_to_elo(INITIAL_RATING as u32));
                    let e = expected_score(strength, f64::from(level.elo()));
                    // Draws a fifth of the time where both sides can win, the expected
                    // score kept.
                    let draw = 0.2_f64.min(2.0 * e).min(2.0 * (1.0 - e));
                    let u = uniform();
                    let result = if u < e - draw / 2.0 {
                        PlayerResult::Win
                    } else if u < e + draw / 2.0 {
                        PlayerResult::Draw
                    } else {
                        PlayerResult::Loss
                    };
                    stats.record(level, result);
                    if game > 20 {
                        late += result.score();
                    }
                }
                finals.push(stats.rating());
                late_scores.push(late / 10.0);
            }
            let within = |d: f64| {
                finals
                    .iter()
                    .filter(|r| (**r - strength).abs() <= d)
                    .count()
            };
            let share_250 = within(250.0) as f64 / finals.len() as f64;
            let median_final = median(&mut finals);
            let median_late = median(&mut late_scores);
            println!(
                "strength {strength}: median rating {median_final:.0}, {:.0} % within ±250, \
                 median score in games 21-30 {:.0} %",
                share_250 * 100.0,
                median_late * 100.0
            );
            assert!((median_final - strength).abs() <= miss, "{median_final}");
            assert!(share_250 >= 0.9, "{share_250}");
            assert!(late_range.contains(&median_late), "{median_late}");
        }
    }

    /// A file from before Glicko-2: an Elo estimate and its games, no deviation.
    #[test]
    fn an_elo_estimate_is_kept_as_sure_as_its_games_make_it() {
        let mut old = Stats::new();
        for _ in 0..12 {
            old.record(Level::new(4).expect("level"), PlayerResult::Draw);
        }
        let body = encode(&old);
        let body = unseal(&body).expect("sealed");
        let before_glicko: String = body
            .lines()
            .filter(|l| !l.starts_with("deviation") && !l.starts_with("volatility"))
            .map(|l| format!("{l}\n"))
            .collect();
        assert_ne!(before_glicko, body);
        let kept = decode::<Stats>(seal(&before_glicko).as_bytes()).expect("read");
        assert_eq!(kept.rating(), old.rating());
        assert_eq!(kept.summary().rated_games, 12);
        assert_eq!(kept.summary().total, old.summary().total);
        let g = kept.glicko();
        assert_eq!(g.deviation, glicko::deviation_after(INITIAL_DEVIATION, 12));
        assert_eq!(g.volatility, INITIAL_VOLATILITY);
    }
}
