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

mod format;
pub(crate) use format::{TERMINATIONS, color_name};
pub use format::{decode, encode};

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
