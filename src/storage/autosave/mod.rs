//! The game in progress, saved after every move and restored at the next start.
//!
//! The file `<state>/autosave.toml` is small TOML (readable by a person, diffable) followed by a
//! last line `# fnv1a64 <hex>` holding a checksum of everything before it. Writes go through
//! [`write_atomic_keeping`], so a reader sees a whole old file or a whole new one, and the two
//! saves before the newest are kept (`autosave.1.toml`, `autosave.2.toml`); the checksum also
//! catches a file cut short or damaged some other way (a failing SD card, a hand edit), and
//! then the newest good earlier save is used.
//!
//! Restoring replays every move through the engine, so a file that parses but describes an
//! impossible game is refused like a damaged one. A refused file is renamed aside (never
//! deleted) and the app goes on from the save before it, or starts a new game when none is
//! good, with the reason to log and a plain sentence to show once.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use chesspi_engine::coach::CoachLevel;
use chesspi_engine::game::{Game, Outcome, Termination};
use chesspi_engine::level::Level;
use chesspi_engine::{Color, FenError, Position};
use serde::{Deserialize, Serialize};

use super::atomic::write_atomic_keeping;
use super::peer_rating::PeerRating;
use super::quarantine::quarantine;
use super::sealed::{seal, unseal};
use super::seats::{MAX_NAME_CHARS, Seat, Seats, Who};
use super::timestamp::UtcDateTime;

/// The autosave file's name in the state directory.
pub const AUTOSAVE_FILE: &str = "autosave.toml";

/// The `format` value that marks an autosave file.
const FORMAT_NAME: &str = "chesspi-autosave";

/// The format version this build writes and reads.
pub const AUTOSAVE_VERSION: u32 = 1;

/// Who plays the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameMode {
    /// The local player against the computer.
    VsComputer {
        /// The local player's colour.
        human: Color,
        /// The computer's level.
        level: Level,
    },
    /// Two people taking turns on one screen.
    TwoPlayers,
    /// The computer plays both sides (demo).
    ComputerVsComputer {
        /// White's level.
        white: Level,
        /// Black's level.
        black: Level,
    },
    /// Against another ChessPI on the network.
    Lan {
        /// This device's colour.
        local: Color,
        /// The other device's name as it announced itself.
        peer: String,
        /// How to find the partner again after a restart (`None`: it cannot be resumed).
        link: Option<LanLink>,
    },
}

/// What a network game needs to reconnect to the same partner after a restart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LanLink {
    /// What resumes the game, as the LAN session gives it (`lan::secret::ResumeKey`): the
    /// game's id (protocol `game`) and the resume secret. A secret: never exported.
    pub game_id: String,
    /// `None` when this device hosts; the host's `HOST:PORT` when it joined.
    pub host: Option<String>,
    /// The partner's rating before the game, as its device sent it: this device's player
    /// is rated against it when the game ends (`None`: the game is unrated).
    pub peer_rating: Option<PeerRating>,
}

/// Remaining thinking time of both sides at the moment of the save.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clocks {
    /// White's remaining time.
    pub white: Duration,
    /// Black's remaining time.
    pub black: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Each side's time at the start (the control's minutes).
    pub base: Duration,
    /// The mover's time left after each move, for the PGN's `%clk` comments.
    pub after_moves: Vec<Duration>,
}

/// A game with everything needed to continue it exactly.
#[derive(Debug, Clone)]
pub struct SavedGame {
    /// Identifies the game across autosave, archive and statistics (so a game restored after a
    /// crash is not archived or counted twice).
    pub id: u64,
    /// When the game started, seconds since the Unix epoch (for the PGN `Date`).
    pub started_unix: u64,
    /// Who plays.
    pub mode: GameMode,
    /// Start position, moves and outcome. Whose turn it is follows from the position.
    pub game: Game,
    /// Clocks, for timed games.
    pub clocks: Option<Clocks>,
    /// The board was turned (Black at the bottom, or White when playing Black): kept so the
    /// board looks the same after a restart.
    pub flipped: bool,
    /// Whether the game counts for the player's rating: not when the level was changed or
    /// the sides were switched during it.
    pub rated: bool,
    /// The coach in this game (off unless it was on).
    pub coach: CoachLevel,
    /// Who of this device's players played which side.
    pub seats: Seats,
}

impl SavedGame {
    /// A game started now, with a fresh id and no clocks.
    pub fn new(mode: GameMode, game: Game) -> SavedGame {
        SavedGame {
            id: new_game_id(),
            started_unix: unix_now(),
            mode,
            game,
            clocks: None,
            flipped: false,
            rated: true,
            coach: CoachLevel::Off,
            seats: Seats::none(),
        }
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.game.position().turn()
    }
}

/// A game id unique on this device: time in nanoseconds mixed with the process id and a counter.
pub fn new_game_id() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    nanos ^ (u64::from(std::process::id()) << 40) ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

use super::timestamp::unix_now;

/// What [`AutosaveStore::load`] found.
#[derive(Debug)]
pub enum LoadOutcome {
    /// The saved game, replayed and checked.
    Restored(Box<SavedGame>),
    /// No autosave: start a new game.
    Fresh,
    /// The file was unusable: it was set aside; the app goes on with the newest good earlier
    /// save if one was kept, else starts a new game; it logs the reason and tells the player.
    Recovered {
        /// Why the file was refused.
        reason: AutosaveError,
        /// Where the file now is, or why it could not be moved (it is then still in place and
        /// will be overwritten by the next save).
        quarantined_path: io::Result<PathBuf>,
        /// The newest earlier save that reads back (see [`AUTOSAVE_BACKUPS`]).
        fallback: Option<Box<SavedGame>>,
    },
}

/// How many earlier autosaves are kept beside the newest (`autosave.1.toml`, ...), so one bad
/// write never costs the game.
pub const AUTOSAVE_BACKUPS: usize = 2;

/// Why an autosave file was refused.
#[derive(Debug)]
pub enum AutosaveError {
    /// The file exists but could not be read.
    Unreadable(io::Error),
    /// The file is empty.
    Empty,
    /// The file is not UTF-8 text.
    NotText,
    /// The checksum line is missing or does not match: the file was cut short or damaged.
    Checksum,
    /// Not TOML, or a key is missing, unknown or of the wrong type.
    Syntax(String),
    /// Not an autosave file (`format` is something else).
    WrongFormat(String),
    /// A format version this build does not read.
    UnsupportedVersion(u32),
    /// A value is out of range or unknown.
    BadValue {
        /// The key.
        key: &'static str,
        /// What is wrong.
        message: String,
    },
    /// The start position is not a valid FEN.
    BadStartPosition(FenError),
    /// A move is not legal where it is played.
    IllegalMove {
        /// 1-based half-move number.
        ply: usize,
        /// The move as saved.
        text: String,
        /// The engine's reason.
        message: String,
    },
    /// The saved outcome contradicts the position (e.g. checkmate in a position that is not).
    OutcomeMismatch(String),
}

impl fmt::Display for AutosaveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unreadable(e) => write!(f, "cannot read the saved game: {e}"),
            Self::Empty => write!(f, "the saved game file is empty"),
            Self::NotText => write!(f, "the saved game file is not text"),
            Self::Checksum => write!(
                f,
                "the saved game file is incomplete or damaged (checksum mismatch)"
            ),
            Self::Syntax(m) => write!(f, "the saved game file is malformed: {m}"),
            Self::WrongFormat(name) => {
                write!(f, "not a ChessPI saved game (format \"{name}\")")
            }
            Self::UnsupportedVersion(v) => write!(
                f,
                "the saved game has format version {v}; this version of ChessPI reads \
                 version {AUTOSAVE_VERSION}"
            ),
            Self::BadValue { key, message } => {
                write!(f, "the saved game has a bad `{key}`: {message}")
            }
            Self::BadStartPosition(e) => {
                write!(f, "the saved game has a bad start position: {e}")
            }
            Self::IllegalMove { ply, text, message } => write!(
                f,
                "the saved game's move {ply} ({text}) is not legal: {message}"
            ),
            Self::OutcomeMismatch(m) => write!(f, "the saved game's result is impossible: {m}"),
        }
    }
}

impl std::error::Error for AutosaveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Unreadable(e) => Some(e),
            Self::BadStartPosition(e) => Some(e),
            _ => None,
        }
    }
}

/// Reads and writes `<state>/autosave.toml`.
#[derive(Debug)]
pub struct AutosaveStore {
    path: PathBuf,
    sequence: u64,
}

impl AutosaveStore {
    /// A store in `state_dir` (which must exist: see [`super::state_dir`]).
    pub fn new(state_dir: &Path) -> AutosaveStore {
        AutosaveStore {
            path: state_dir.join(AUTOSAVE_FILE),
            sequence: 0,
        }
    }

    /// The autosave file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The sequence number of the last save made or loaded (0 before any).
    pub fn sequence(&self) -> u64 {
        self.sequence
    }

    /// Writes `game` atomically and durably with the next sequence number, and returns that
    /// number. When it returns `Ok`, the game is on disk: the app may show the move.
    ///
    /// # Errors
    /// Any I/O error; the previous autosave is then unchanged.
    pub fn save(&mut self, game: &SavedGame) -> io::Result<u64> {
        let sequence = self.sequence + 1;
        let text = encode(game, sequence);
        write_atomic_keeping(&self.path, text.as_bytes(), &self.backups())?;
        self.sequence = sequence;
        Ok(sequence)
    }

    /// `autosave.1.toml`, `autosave.2.toml`, ...: the saves before the newest, newest first.
    pub fn backups(&self) -> Vec<PathBuf> {
        (1..=AUTOSAVE_BACKUPS)
            .map(|i| self.path.with_file_name(format!("autosave.{i}.toml")))
            .collect()
    }

    /// The newest backup that reads back, with its sequence number.
    fn newest_good_backup(&self) -> Option<(SavedGame, u64)> {
        self.backups().iter().find_map(|path| {
            let bytes = std::fs::read(path).ok()?;
            match decode(&bytes) {
                Ok(found) => Some(found),
                Err(e) => {
                    log::warn!("backup {} refused too: {e}", path.display());
                    None
                }
            }
        })
    }

    /// Reads the autosave; call once at start-up, before any save. Never fails: an unusable
    /// file is renamed aside and reported as [`LoadOutcome::Recovered`]. Leftover temporary
    /// files of interrupted saves are removed (their save never returned, so their move was
    /// never shown).
    pub fn load(&mut self) -> LoadOutcome {
        self.remove_stale_temp_files();
        let bytes = match std::fs::read(&self.path) {
            Ok(b) => b,
            // A power cut between the renames of a save leaves only the backup: it is the
            // newest complete save, and nothing is wrong.
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return match self.newest_good_backup() {
                    Some((game, sequence)) => {
                        self.sequence = sequence;
                        LoadOutcome::Restored(Box::new(game))
                    }
                    None => LoadOutcome::Fresh,
                };
            }
            Err(e) => return self.recover(AutosaveError::Unreadable(e)),
        };
        match decode(&bytes) {
            Ok((game, sequence)) => {
                self.sequence = sequence;
                LoadOutcome::Restored(Box::new(game))
            }
            Err(reason) => self.recover(reason),
        }
    }

    fn recover(&mut self, reason: AutosaveError) -> LoadOutcome {
        let quarantined_path = quarantine(&self.path, UtcDateTime::now());
        let fallback = self.newest_good_backup().map(|(game, sequence)| {
            self.sequence = sequence;
            Box::new(game)
        });
        LoadOutcome::Recovered {
            reason,
            quarantined_path,
            fallback,
        }
    }

    fn remove_stale_temp_files(&self) {
        let (Some(dir), Some(name)) = (self.path.parent(), self.path.file_name()) else {
            return;
        };
        let prefix = format!(".{}.tmp-", name.to_string_lossy());
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with(&prefix) {
                // Best effort: a temp file left behind is harmless.
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// The autosave text of `game` with this sequence number.
pub fn encode(game: &SavedGame, sequence: u64) -> String {
    let raw = RawAutosave {
        format: FORMAT_NAME.to_string(),
        version: AUTOSAVE_VERSION,
        sequence,
        id: format!("{:016x}", game.id),
        started_unix: game.started_unix,
        start_fen: game.game.initial_position().to_fen(),
        moves: game.game.moves().iter().map(ToString::to_string).collect(),
        mode: RawMode::from(&game.mode),
        outcome: game.game.outcome().map(|o| RawOutcome {
            winner: color_name(o.winner).to_string(),
            termination: termination_key(o.termination).to_string(),
        }),
        clocks: game.clocks.as_ref().map(|c| RawClocks {
            white_ms: duration_ms(c.white),
            black_ms: duration_ms(c.black),
            increment_ms: duration_ms(c.increment),
            base_ms: duration_ms(c.base),
            after_moves_ms: c.after_moves.iter().map(|&d| duration_ms(d)).collect(),
        }),
        flipped: game.flipped,
        unrated: !game.rated,
        coach: game.coach.is_on().then(|| game.coach.code().to_string()),
        players: [Color::White, Color::Black]
            .into_iter()
            .filter_map(|c| {
                game.seats.get(c).map(|seat| RawSeat {
                    side: color_name(Some(c)).to_string(),
                    player: seat.who.code(),
                    name: seat.name.clone(),
                })
            })
            .collect(),
    };
    // Serializing plain strings and numbers cannot fail; fall back to an empty body (which
    // loads as a checksum-valid but malformed file) rather than panic.
    let body = toml::to_string(&raw).unwrap_or_default();
    seal(&format!(
        "# ChessPI game in progress. Written after every move; do not edit.\n{body}"
    ))
}

/// Reads autosave text back into a checked game and its sequence number.
///
/// # Errors
/// Every way the text can be wrong, as an [`AutosaveError`].
pub fn decode(bytes: &[u8]) -> Result<(SavedGame, u64), AutosaveError> {
    if bytes.is_empty() {
        return Err(AutosaveError::Empty);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| AutosaveError::NotText)?;
    let body = unseal(text).ok_or(AutosaveError::Checksum)?;

    // Read format and version first, so a newer file is reported as such rather than as
    // unknown keys.
    let header: RawHeader =
        toml::from_str(body).map_err(|e| AutosaveError::Syntax(e.message().to_string()))?;
    if header.format.as_deref() != Some(FORMAT_NAME) {
        return Err(AutosaveError::WrongFormat(
            header.format.unwrap_or_default(),
        ));
    }
    match header.version {
        Some(AUTOSAVE_VERSION) => {}
        Some(v) => return Err(AutosaveError::UnsupportedVersion(v)),
        None => {
            return Err(AutosaveError::Syntax("missing key `version`".to_string()));
        }
    }
    let raw: RawAutosave = toml::from_str(body)
        .map_err(|e| AutosaveError::Syntax(e.message().trim_end().to_string()))?;
    let sequence = raw.sequence;
    Ok((raw.into_saved_game()?, sequence))
}

fn duration_ms(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// `"white"`, `"black"` or `"none"` (a draw).
pub(crate) fn color_name(color: Option<Color>) -> &'static str {
    match color {
        Some(Color::White) => "white",
        Some(Color::Black) => "black",
        None => "none",
    }
}

fn parse_color(key: &'static str, text: &str) -> Result<Color, AutosaveError> {
    match text {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        _ => Err(AutosaveError::BadValue {
            key,
            message: format!("expected \"white\" or \"black\", got \"{text}\""),
        }),
    }
}

fn parse_level(key: &'static str, n: Option<u8>) -> Result<Level, AutosaveError> {
    let n = n.ok_or(AutosaveError::BadValue {
        key,
        message: "missing".to_string(),
    })?;
    Level::new(n).ok_or(AutosaveError::BadValue {
        key,
        message: format!("must be 1..=10, got {n}"),
    })
}

/// Every termination, for mapping names back.
pub(crate) const TERMINATIONS: [Termination; 11] = [
    Termination::Checkmate,
    Termination::Stalemate,
    Termination::Resignation,
    Termination::Agreement,
    Termination::ThreefoldRepetition,
    Termination::FivefoldRepetition,
    Termination::FiftyMoves,
    Termination::SeventyFiveMoves,
    Termination::InsufficientMaterial,
    Termination::Time,
    Termination::Abandonment,
];

/// A stable key for a termination (the engine's descriptions are for people and may change).
pub(crate) fn termination_key(t: Termination) -> &'static str {
    match t {
        Termination::Checkmate => "checkmate",
        Termination::Stalemate => "stalemate",
        Termination::Resignation => "resignation",
        Termination::Agreement => "agreement",
        Termination::ThreefoldRepetition => "threefold-repetition",
        Termination::FivefoldRepetition => "fivefold-repetition",
        Termination::FiftyMoves => "fifty-moves",
        Termination::SeventyFiveMoves => "seventy-five-moves",
        Termination::InsufficientMaterial => "insufficient-material",
        Termination::Time => "time",
        Termination::Abandonment => "abandonment",
    }
}

/// Terminations the rules impose by themselves (as opposed to a player's decision or claim).
fn is_automatic(t: Termination) -> bool {
    matches!(
        t,
        Termination::Checkmate
            | Termination::Stalemate
            | Termination::FivefoldRepetition
            | Termination::SeventyFiveMoves
            | Termination::InsufficientMaterial
    )
}

/// The first lines of the file, read before anything else.
#[derive(Deserialize)]
struct RawHeader {
    format: Option<String>,
    version: Option<u32>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAutosave {
    format: String,
    version: u32,
    sequence: u64,
    id: String,
    started_unix: u64,
    start_fen: String,
    moves: Vec<String>,
    mode: RawMode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    outcome: Option<RawOutcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    clocks: Option<RawClocks>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    flipped: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    unrated: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    coach: Option<String>,
    /// The players at the sides; a save from before players has none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    players: Vec<RawSeat>,
}

/// One side's player: `side` is `white` or `black`, `player` a [`Who::code`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSeat {
    side: String,
    player: String,
    name: String,
}

/// The mode as a flat table: `kind` says which other keys apply.
#[derive(Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawMode {
    kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    human: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    level: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    white_level: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    black_level: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    local: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    peer: Option<String>,
    /// LAN: the protocol's game id, to resume it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lan_game: Option<String>,
    /// LAN: `host` or `guest`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lan_role: Option<String>,
    /// LAN, guest: the host's `HOST:PORT`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lan_host: Option<String>,
    /// LAN: the partner's rating before the game, `RATING DEVIATION` ([`PeerRating`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lan_rating: Option<String>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOutcome {
    winner: String,
    termination: String,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClocks {
    white_ms: u64,
    black_ms: u64,
    #[serde(default)]
    base_ms: u64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    after_moves_ms: Vec<u64>,
    increment_ms: u64,
}

impl From<&GameMode> for RawMode {
    fn from(mode: &GameMode) -> RawMode {
        match mode {
            GameMode::VsComputer { human, level } => RawMode {
                kind: "vs-computer".to_string(),
                human: Some(color_name(Some(*human)).to_string()),
                level: Some(level.number()),
                ..RawMode::default()
            },
            GameMode::TwoPlayers => RawMode {
                kind: "two-players".to_string(),
                ..RawMode::default()
            },
            GameMode::ComputerVsComputer { white, black } => RawMode {
                kind: "computer-vs-computer".to_string(),
                white_level: Some(white.number()),
                black_level: Some(black.number()),
                ..RawMode::default()
            },
            GameMode::Lan { local, peer, link } => RawMode {
                kind: "lan".to_string(),
                local: Some(color_name(Some(*local)).to_string()),
                peer: Some(peer.clone()),
                lan_game: link.as_ref().map(|l| l.game_id.clone()),
                lan_role: link
                    .as_ref()
                    .map(|l| if l.host.is_some() { "guest" } else { "host" }.to_string()),
                lan_host: link.as_ref().and_then(|l| l.host.clone()),
                lan_rating: link
                    .as_ref()
                    .and_then(|l| l.peer_rating)
                    .map(|r| r.to_string()),
                ..RawMode::default()
            },
        }
    }
}

impl RawMode {
    fn into_mode(self) -> Result<GameMode, AutosaveError> {
        let missing = |key| AutosaveError::BadValue {
            key,
            message: "missing".to_string(),
        };
        // A rating only rates the game: one that does not read leaves it unrated, not lost.
        let peer_rating = self.lan_rating.as_deref().and_then(|text| {
            let rating = PeerRating::parse(text);
            if rating.is_none() {
                log::warn!("autosave: partner rating \"{text}\" dropped; the game is unrated");
            }
            rating
        });
        let mode = match self.kind.as_str() {
            "vs-computer" => GameMode::VsComputer {
                human: parse_color("mode.human", &self.human.ok_or(missing("mode.human"))?)?,
                level: parse_level("mode.level", self.level)?,
            },
            "two-players" => GameMode::TwoPlayers,
            "computer-vs-computer" => GameMode::ComputerVsComputer {
                white: parse_level("mode.white_level", self.white_level)?,
                black: parse_level("mode.black_level", self.black_level)?,
            },
            "lan" => GameMode::Lan {
                local: parse_color("mode.local", &self.local.ok_or(missing("mode.local"))?)?,
                peer: self.peer.ok_or(missing("mode.peer"))?,
                link: match (self.lan_game, self.lan_role.as_deref(), self.lan_host) {
                    (None, None, None) => None,
                    (Some(game_id), Some("host"), None) => Some(LanLink {
                        game_id,
                        host: None,
                        peer_rating,
                    }),
                    (Some(game_id), Some("guest"), Some(host)) => Some(LanLink {
                        game_id,
                        host: Some(host),
                        peer_rating,
                    }),
                    _ => {
                        return Err(AutosaveError::BadValue {
                            key: "mode.lan_role",
                            message: "needs lan_game, and lan_host exactly for a guest".to_string(),
                        });
                    }
                },
            },
            other => {
                return Err(AutosaveError::BadValue {
                    key: "mode.kind",
                    message: format!(
                        "unknown mode \"{other}\" (expected vs-computer, two-players, \
                         computer-vs-computer or lan)"
                    ),
                });
            }
        };
        Ok(mode)
    }
}

impl RawOutcome {
    fn into_outcome(self) -> Result<Outcome, AutosaveError> {
        let winner = match self.winner.as_str() {
            "none" => None,
            w => Some(
                parse_color("outcome.winner", w).map_err(|_| AutosaveError::BadValue {
                    key: "outcome.winner",
                    message: format!("expected \"white\", \"black\" or \"none\", got \"{w}\""),
                })?,
            ),
        };
        let termination = TERMINATIONS
            .into_iter()
            .find(|t| termination_key(*t) == self.termination)
            .ok_or_else(|| AutosaveError::BadValue {
                key: "outcome.termination",
                message: format!("unknown termination \"{}\"", self.termination),
            })?;
        Ok(Outcome {
            winner,
            termination,
        })
    }
}

impl RawAutosave {
    fn into_saved_game(self) -> Result<SavedGame, AutosaveError> {
        let id = u64::from_str_radix(&self.id, 16).map_err(|_| AutosaveError::BadValue {
            key: "id",
            message: format!("expected hexadecimal digits, got \"{}\"", self.id),
        })?;
        let mode = self.mode.into_mode()?;
        let start = Position::from_fen(&self.start_fen).map_err(AutosaveError::BadStartPosition)?;
        let mut game = Game::from_position(start);
        for (i, text) in self.moves.iter().enumerate() {
            let illegal = |message: String| AutosaveError::IllegalMove {
                ply: i + 1,
                text: text.clone(),
                message,
            };
            let mv = game
                .position()
                .parse_uci_move(text)
                .map_err(|e| illegal(e.to_string()))?;
            game.play(mv).map_err(|e| illegal(e.to_string()))?;
        }
        if let Some(raw) = self.outcome {
            let saved = raw.into_outcome()?;
            restore_outcome(&mut game, saved)?;
        }
        let clocks = self.clocks.map(|c| Clocks {
            white: Duration::from_millis(c.white_ms),
            black: Duration::from_millis(c.black_ms),
            increment: Duration::from_millis(c.increment_ms),
            // Older saves did not keep the start time: the larger clock is the best guess.
            base: Duration::from_millis(if c.base_ms > 0 {
                c.base_ms
            } else {
                c.white_ms.max(c.black_ms)
            }),
            after_moves: c
                .after_moves_ms
                .into_iter()
                .map(Duration::from_millis)
                .collect(),
        });
        let coach = match self.coach.as_deref() {
            None => CoachLevel::Off,
            Some(code) => CoachLevel::from_code(code).ok_or_else(|| AutosaveError::BadValue {
                key: "coach",
                message: format!("{code:?} is not off, blunders or mistakes"),
            })?,
        };
        let mut seats = Seats::none();
        for raw in self.players {
            let bad = |message: String| AutosaveError::BadValue {
                key: "players",
                message,
            };
            let side = match raw.side.as_str() {
                "white" => Color::White,
                "black" => Color::Black,
                other => return Err(bad(format!("side {other:?}"))),
            };
            let who = Who::from_code(&raw.player)
                .ok_or_else(|| bad(format!("player {:?}", raw.player)))?;
            let name = crate::text::shown(&raw.name, MAX_NAME_CHARS);
            seats.set(side, Some(Seat { who, name }));
        }
        Ok(SavedGame {
            id,
            started_unix: self.started_unix,
            mode,
            game,
            clocks,
            flipped: self.flipped,
            rated: !self.unrated,
            coach,
            seats,
        })
    }
}

/// Puts a saved outcome back on a replayed game, refusing one the position contradicts.
fn restore_outcome(game: &mut Game, saved: Outcome) -> Result<(), AutosaveError> {
    match game.outcome() {
        Some(by_rules) if by_rules == saved => Ok(()),
        Some(by_rules) => Err(AutosaveError::OutcomeMismatch(format!(
            "saved \"{saved}\" but the position gives \"{by_rules}\""
        ))),
        None if is_automatic(saved.termination) => Err(AutosaveError::OutcomeMismatch(format!(
            "saved \"{saved}\" but the position does not end the game"
        ))),
        None if saved.termination == Termination::Resignation && saved.winner.is_none() => Err(
            AutosaveError::OutcomeMismatch("a resignation without a winner".to_string()),
        ),
        None => game
            .set_outcome(saved)
            .map(|_| ())
            .map_err(|e| AutosaveError::OutcomeMismatch(e.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksum_line_is_required_and_checked() {
        let game = SavedGame::new(GameMode::TwoPlayers, Game::new());
        let text = encode(&game, 7);
        assert!(text.lines().last().expect("line").starts_with("# fnv1a64 "));
        let (back, seq) = decode(text.as_bytes()).expect("decode");
        assert_eq!(seq, 7);
        assert_eq!(back.id, game.id);
        let tampered = text.replace("sequence = 7", "sequence = 8");
        assert!(matches!(
            decode(tampered.as_bytes()),
            Err(AutosaveError::Checksum)
        ));
    }
}
