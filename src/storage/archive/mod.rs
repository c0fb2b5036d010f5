//! Saved games: one PGN file per game in `<state>/games/`, readable by any chess program.
//!
//! A file is named `<number>-<game id>.pgn`: the number grows with every store, so "newest
//! first" does not depend on the clock (a Pi without network may boot with a wrong date); the
//! game id (also in the `ChessPIGameId` tag) lets a game stored unfinished, or stored again after
//! a crash, replace its earlier file instead of appearing twice.
//!
//! Besides the seven-tag roster each file has `UTCDate`, `UTCTime`, `Termination` (the PGN
//! standard's values: `normal`, `time forfeit`, `abandoned`, `unterminated`), `PlyCount` and
//! ChessPI's own tags: `ChessPITermination` (why a finished game ended, e.g. `resignation`),
//! `ChessPIGameId`, `ChessPIMode` and the levels and colours that mode needs, so an unfinished
//! game can be resumed exactly.

mod encoding;
mod import;
mod listing;

pub use encoding::{
    LOCAL_PLAYER, computer_name, pgn_tags, player_names, termination_from_tag, to_pgn,
};
use encoding::{clocks_from_tags, header_of, mode_from_tags, seats_from_tags, started_unix};
pub use import::{FileCut, ImportLimits, ImportProgress, ImportReport, ImportStop, Unplayable};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use chesspi_engine::game::{Game, GameError};
use chesspi_engine::pgn::{self, GameResult, PgnGame};
use chesspi_engine::{Color, IllegalMoveError};

use super::atomic::{sync_dir, write_atomic};
use super::autosave::{SavedGame, new_game_id};

/// The archive's directory name in the state directory.
pub const GAMES_DIR: &str = "games";

/// The PGN `Termination` value of an unfinished game (PGN standard, section 9.8.1).
const UNTERMINATED: &str = "unterminated";

/// Names one archived game (the file name without `.pgn`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(String);

impl GameId {
    /// The id as text, e.g. `000012-1a2b3c4d5e6f7a8b`.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// An id from text (as shown by [`GameId::as_str`]), if it has the archive's form.
    pub fn parse(text: &str) -> Option<GameId> {
        parse_file_stem(text).map(|_| GameId(text.to_string()))
    }

    /// The identity of the game stored under this id ([`SavedGame::id`]): every file of one
    /// game carries it, whatever its store number.
    pub fn game(&self) -> u64 {
        parse_file_stem(&self.0).map_or(0, |(_, g)| g)
    }

    /// The store number: larger is newer.
    fn number(&self) -> u64 {
        parse_file_stem(&self.0).map_or(0, |(n, _)| n)
    }

    fn file_name(&self) -> String {
        format!("{}.pgn", self.0)
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// `NNNNNN-<hex>` → (number, game id).
fn parse_file_stem(stem: &str) -> Option<(u64, u64)> {
    let (number, id) = stem.split_once('-')?;
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if id.len() != 16 || !id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    Some((number.parse().ok()?, u64::from_str_radix(id, 16).ok()?))
}

/// What the Games screen shows for one readable game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameHeader {
    /// The archive id.
    pub id: GameId,
    /// White's name, e.g. `You` or `ChessPI level 4 (~1400)`.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The PGN date, `YYYY.MM.DD` (parts may be `??`).
    pub date: String,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (unfinished).
    pub result: GameResult,
    /// Why it ended, as written in the `Termination` tag (e.g. `checkmate`), if given.
    pub termination: Option<String>,
    /// Number of half-moves.
    pub plies: usize,
    /// The computer's level in a game against it.
    pub level: Option<u8>,
    /// `ChessPIMode` (`vs-computer`, `two-players`, `computer-vs-computer`, `lan`), if given.
    pub mode: Option<String>,
    /// The colour this device's player had (against the computer or over the network).
    pub local: Option<Color>,
    /// `HH:MM` of the start (`UTCTime`), if given.
    pub time: Option<String>,
}

impl GameHeader {
    /// Whether the game can be continued ([`Archive::resume`]).
    pub fn is_unfinished(&self) -> bool {
        self.result == GameResult::Unknown
    }

    /// Number of full moves, as people count them.
    pub fn move_count(&self) -> usize {
        self.plies.div_ceil(2)
    }
}

/// One entry of [`Archive::list`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameSummary {
    /// A game that reads back.
    Game(GameHeader),
    /// A file that does not hold exactly one readable game. It can still be deleted.
    Damaged {
        /// The archive id.
        id: GameId,
        /// Why it cannot be read.
        reason: String,
    },
}

impl GameSummary {
    /// The archive id.
    pub fn id(&self) -> &GameId {
        match self {
            GameSummary::Game(h) => &h.id,
            GameSummary::Damaged { id, .. } => id,
        }
    }
}

/// A game read back from the archive, for review.
#[derive(Debug, Clone)]
pub struct ArchivedGame {
    /// Names, date, result.
    pub header: GameHeader,
    /// Tags, start position and moves as stored.
    pub pgn: PgnGame,
}

impl ArchivedGame {
    /// The game replayed from its start position, for stepping through the moves
    /// (`Game::positions`). The outcome is what the rules give; the stored result is in
    /// [`GameHeader::result`].
    ///
    /// # Errors
    /// A move is illegal (never for a game the engine's PGN reader accepted).
    pub fn replay(&self) -> Result<Game, GameError> {
        Game::from_moves(self.pgn.start, &self.pgn.moves)
    }
}

/// Why an archive operation failed.
#[derive(Debug)]
pub enum ArchiveError {
    /// Reading, writing, listing or deleting failed.
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// No game with this id.
    NotFound(GameId),
    /// The file does not hold exactly one readable game.
    Damaged {
        /// The game.
        id: GameId,
        /// Why.
        reason: String,
    },
    /// [`Archive::resume`] on a game that has a result.
    Finished(GameId),
    /// The game to store has a move that is not legal (a bug in the caller).
    Illegal(IllegalMoveError),
    /// [`Archive::resume`]: the mode tags are missing or wrong.
    BadMode {
        /// The game.
        id: GameId,
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for ArchiveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { path, source } => write!(f, "{}: {source}", path.display()),
            Self::NotFound(id) => write!(f, "no saved game {id}"),
            Self::Damaged { id, reason } => write!(f, "saved game {id} is damaged: {reason}"),
            Self::Finished(id) => write!(f, "saved game {id} is finished and cannot be resumed"),
            Self::Illegal(e) => write!(f, "cannot store the game: {e}"),
            Self::BadMode { id, reason } => {
                write!(f, "saved game {id} cannot be resumed: {reason}")
            }
        }
    }
}

impl std::error::Error for ArchiveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            Self::Illegal(e) => Some(e),
            _ => None,
        }
    }
}

fn io_error(path: &Path) -> impl FnOnce(io::Error) -> ArchiveError + '_ {
    move |source| ArchiveError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The games in `<state>/games/`. Clones share the numbering and the listing's cache.
#[derive(Debug, Clone)]
pub struct Archive {
    dir: PathBuf,
    /// The highest file number handed out or seen, so that games stored between two
    /// listings (an import's) never share a number.
    highest: Arc<AtomicU64>,
    /// Each file's summary with the size and time it had when read ([`Archive::list`]).
    cache: Arc<Mutex<listing::Cache>>,
    /// Whether files and the directory are fsynced (off only where nothing survives anyway:
    /// a fuzzing harness on tmpfs).
    durable: bool,
}

impl Archive {
    /// The archive in `state_dir`, creating its directory if needed.
    ///
    /// # Errors
    /// The directory cannot be created.
    pub fn open(state_dir: &Path) -> Result<Archive, ArchiveError> {
        let dir = state_dir.join(GAMES_DIR);
        std::fs::create_dir_all(&dir).map_err(io_error(&dir))?;
        Ok(Archive {
            dir,
            highest: Arc::new(AtomicU64::new(0)),
            cache: Arc::default(),
            durable: true,
        })
    }

    /// This archive without fsyncs, for a fuzzing harness whose files live on tmpfs: a power
    /// cut there loses them anyway. Never for the device's games.
    #[must_use]
    pub fn without_fsync(mut self) -> Archive {
        self.durable = false;
        self
    }

    /// Notes a file number seen, so that the next one handed out is larger.
    fn note_number(&self, number: u64) {
        self.highest.fetch_max(number, Ordering::Relaxed);
    }

    /// The next file number, larger than every one seen or handed out.
    fn next_number(&self) -> u64 {
        self.highest.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Writes the newest file of game `game_id` without syncing the directory (an import
    /// syncs it once at its end).
    fn store_new(&self, game_id: u64, text: &str) -> Result<GameId, ArchiveError> {
        let id = GameId(format!("{:06}-{game_id:016x}", self.next_number()));
        let path = self.dir.join(id.file_name());
        let written = if self.durable {
            super::atomic::write_atomic_unsynced_dir(&path, text.as_bytes())
        } else {
            super::atomic::write_atomic_unsynced(&path, text.as_bytes())
        };
        written.map_err(io_error(&path))?;
        Ok(id)
    }

    /// Replaces a file atomically (and durably unless [`Archive::without_fsync`]).
    fn write(&self, path: &Path, bytes: &[u8]) -> Result<(), ArchiveError> {
        let written = if self.durable {
            write_atomic(path, bytes)
        } else {
            super::atomic::write_atomic_unsynced(path, bytes)
        };
        written.map_err(io_error(path))
    }

    /// Fsyncs the directory (its new and removed names).
    fn sync(&self) -> io::Result<()> {
        if self.durable {
            sync_dir(&self.dir)
        } else {
            Ok(())
        }
    }

    /// The directory holding the PGN files.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Stores a game, finished or not, replacing an earlier file of the same game (same
    /// [`SavedGame::id`]). Returns its new archive id.
    ///
    /// # Errors
    /// I/O errors; [`ArchiveError::Illegal`] if a move is not legal.
    pub fn store(&self, game: &SavedGame) -> Result<GameId, ArchiveError> {
        let text = to_pgn(game).map_err(ArchiveError::Illegal)?;
        self.store_text(game.id, &text)
    }

    /// Writes `text` as the newest file of game `game_id`, then removes older files of the same
    /// game. In that order, a crash in between leaves two copies rather than none.
    fn store_text(&self, game_id: u64, text: &str) -> Result<GameId, ArchiveError> {
        let entries = self.entries()?;
        for id in &entries {
            self.note_number(id.number());
        }
        let id = GameId(format!("{:06}-{game_id:016x}", self.next_number()));
        let path = self.dir.join(id.file_name());
        self.write(&path, text.as_bytes())?;
        let mut removed = false;
        for old in entries {
            if parse_file_stem(&old.0).map(|(_, g)| g) == Some(game_id) {
                let old_path = self.dir.join(old.file_name());
                std::fs::remove_file(&old_path).map_err(io_error(&old_path))?;
                removed = true;
            }
        }
        if removed {
            self.sync().map_err(io_error(&self.dir))?;
        }
        Ok(id)
    }

    /// The newest stored file of game `game_id`, if any.
    ///
    /// # Errors
    /// I/O errors listing the archive.
    pub fn newest_of(&self, game_id: u64) -> Result<Option<GameId>, ArchiveError> {
        Ok(self
            .entries()?
            .into_iter()
            .filter(|id| id.game() == game_id)
            .max_by_key(GameId::number))
    }

    /// Whether the newest stored file of `game`'s id holds it finished as it is (same moves,
    /// same result): storing it again would only lose what was added to it (its analysis).
    pub fn holds_finished(&self, game: &SavedGame) -> bool {
        let Some(outcome) = game.game.outcome() else {
            return false;
        };
        self.newest_of(game.id)
            .ok()
            .flatten()
            .and_then(|id| self.load(&id).ok())
            .is_some_and(|stored| {
                stored.pgn.moves == game.game.moves()
                    && stored.pgn.start == *game.game.initial_position()
                    && stored.pgn.result == GameResult::from_winner(outcome.winner)
            })
    }

    /// Writes the analysis into the newest stored file of game `game_id`, in place (its id
    /// and place in the list stay): `[%eval]` comments, NAGs, better lines and the accuracy
    /// tags, as lichess exports them. Returns its id.
    ///
    /// # Errors
    /// [`ArchiveError::NotFound`] when no file of that game holds the analysed moves; errors
    /// of [`Archive::load`]; I/O errors.
    pub fn annotate(
        &self,
        game_id: u64,
        analysis: &chesspi_engine::analysis::GameAnalysis,
    ) -> Result<GameId, ArchiveError> {
        let id = self
            .newest_of(game_id)?
            .ok_or_else(|| ArchiveError::NotFound(GameId(format!("{game_id:016x}"))))?;
        let stored = self.load(&id)?;
        let moves: Vec<_> = analysis.moves.iter().map(|m| m.mv).collect();
        if stored.pgn.moves != moves || stored.pgn.start != analysis.start {
            return Err(ArchiveError::NotFound(id));
        }
        // A timed game's clocks stay: `{ [%eval 0.17] [%clk 0:04:57] }`, as lichess writes.
        // The PGN reader's: one per move, or none (no clock lands on the wrong move).
        let clocks = pgn::read_games_with_clocks(&self.read_text(&id)?)
            .into_iter()
            .next()
            .map(|(_, clocks)| clocks)
            .unwrap_or_default();
        let text = analysis
            .to_pgn_of_keeping(&stored.pgn, &clocks)
            .map_err(ArchiveError::Illegal)?;
        let path = self.dir.join(id.file_name());
        self.write(&path, text.as_bytes())?;
        Ok(id)
    }

    /// Removes every file of game `game_id` (the game went back on the board, where the
    /// autosave keeps it). Returns how many were removed.
    ///
    /// # Errors
    /// I/O errors; files removed before the error stay removed.
    pub fn remove_game(&self, game_id: u64) -> Result<usize, ArchiveError> {
        let mut removed = 0;
        for old in self.entries()? {
            if old.game() == game_id {
                let path = self.dir.join(old.file_name());
                std::fs::remove_file(&path).map_err(io_error(&path))?;
                removed += 1;
            }
        }
        if removed > 0 {
            self.sync().map_err(io_error(&self.dir))?;
        }
        Ok(removed)
    }

    /// Every archive id, in no particular order. Files that do not have the archive's name
    /// form are ignored (a person may keep other files there).
    fn entries(&self) -> Result<Vec<GameId>, ArchiveError> {
        let read = std::fs::read_dir(&self.dir).map_err(io_error(&self.dir))?;
        let mut ids = Vec::new();
        for entry in read {
            let entry = entry.map_err(io_error(&self.dir))?;
            let name = entry.file_name();
            let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".pgn")) else {
                continue;
            };
            if let Some(id) = GameId::parse(stem) {
                ids.push(id);
            }
        }
        Ok(ids)
    }

    /// Reads one game.
    ///
    /// # Errors
    /// [`ArchiveError::NotFound`], [`ArchiveError::Damaged`], or an I/O error.
    pub fn load(&self, id: &GameId) -> Result<ArchivedGame, ArchiveError> {
        let path = self.dir.join(id.file_name());
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Err(ArchiveError::NotFound(id.clone()));
            }
            Err(e) => return Err(io_error(&path)(e)),
        };
        let damaged = |reason: String| ArchiveError::Damaged {
            id: id.clone(),
            reason,
        };
        let text = std::str::from_utf8(&bytes).map_err(|_| damaged("not UTF-8 text".into()))?;
        let mut games = pgn::read_games(text).into_iter();
        let game = match (games.next(), games.next()) {
            (Some(Ok(game)), None) => game,
            (None, _) => return Err(damaged("no game in the file".into())),
            (Some(Err(e)), _) => return Err(damaged(e.to_string())),
            (Some(Ok(_)), Some(_)) => return Err(damaged("more than one game in the file".into())),
        };
        Ok(ArchivedGame {
            header: header_of(id.clone(), &game),
            pgn: game,
        })
    }

    /// The stored PGN text of one game, unchanged.
    ///
    /// # Errors
    /// [`ArchiveError::NotFound`] or an I/O error.
    pub fn read_text(&self, id: &GameId) -> Result<String, ArchiveError> {
        let path = self.dir.join(id.file_name());
        std::fs::read_to_string(&path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => ArchiveError::NotFound(id.clone()),
            _ => io_error(&path)(e),
        })
    }

    /// Deletes one game (the app asks for confirmation first).
    ///
    /// # Errors
    /// [`ArchiveError::NotFound`] or an I/O error.
    pub fn delete(&self, id: &GameId) -> Result<(), ArchiveError> {
        let path = self.dir.join(id.file_name());
        std::fs::remove_file(&path).map_err(|e| match e.kind() {
            io::ErrorKind::NotFound => ArchiveError::NotFound(id.clone()),
            _ => io_error(&path)(e),
        })?;
        self.sync().map_err(io_error(&self.dir))
    }

    /// An unfinished game (result `*`) made ready to continue, with its mode, id and start
    /// date. Storing it again (or its autosave) replaces this archive entry.
    ///
    /// # Errors
    /// [`ArchiveError::Finished`] if the game has a result; [`ArchiveError::BadMode`] if the
    /// ChessPI tags are wrong; errors of [`Archive::load`].
    pub fn resume(&self, id: &GameId) -> Result<SavedGame, ArchiveError> {
        let archived = self.load(id)?;
        if !archived.header.is_unfinished() {
            return Err(ArchiveError::Finished(id.clone()));
        }
        let bad_mode = |reason: String| ArchiveError::BadMode {
            id: id.clone(),
            reason,
        };
        let mode = mode_from_tags(&archived.pgn).map_err(bad_mode)?;
        let game = archived.replay().map_err(|e| bad_mode(e.to_string()))?;
        let game_id = archived
            .pgn
            .tag("ChessPIGameId")
            .and_then(|t| u64::from_str_radix(t, 16).ok())
            .or_else(|| parse_file_stem(id.as_str()).map(|(_, g)| g))
            .unwrap_or_else(new_game_id);
        let plies = game.moves().len();
        let mut saved = SavedGame::new(mode, game);
        saved.clocks = clocks_from_tags(&archived.pgn, plies);
        saved.seats = seats_from_tags(&archived.pgn);
        saved.id = game_id;
        if let Some(started) = started_unix(&archived.pgn) {
            saved.started_unix = started;
        }
        Ok(saved)
    }

    /// Every readable game as one PGN text, oldest first (the order a database expects), and
    /// the ids of damaged files left out.
    ///
    /// # Errors
    /// The directory cannot be listed.
    pub fn all_pgn(&self) -> Result<(String, usize, Vec<GameId>), ArchiveError> {
        let mut ids = self.entries()?;
        ids.sort_by_key(GameId::number);
        let mut out = String::new();
        let mut count = 0;
        let mut damaged = Vec::new();
        for id in ids {
            // The file as stored, with its clocks and analysis (comments a rewrite from the
            // parsed game would drop); the parse keeps damaged files out.
            let text = self.load(&id).ok().and_then(|_| self.read_text(&id).ok());
            match text {
                Some(text) => {
                    if count > 0 {
                        out.push('\n');
                    }
                    out.push_str(without_secrets(&text).trim_end());
                    out.push('\n');
                    count += 1;
                }
                None => damaged.push(id),
            }
        }
        Ok((out, count, damaged))
    }
}

/// Tags that stay on the device: an adjourned network game's link lets whoever holds it
/// reconnect as this device's player, so an export (a stick handed around) leaves it out.
const SECRET_TAGS: [&str; 1] = ["ChessPILanGame"];

/// A stored file's text without its [`SECRET_TAGS`] lines.
fn without_secrets(text: &str) -> String {
    text.split_inclusive('\n')
        .filter(|line| !is_tag_line_of(line, &SECRET_TAGS))
        .collect()
}

/// Whether `line` is a tag pair (`[Name "value"]`) named one of `names`.
fn is_tag_line_of(line: &str, names: &[&str]) -> bool {
    let Some(rest) = line.trim_start().strip_prefix('[') else {
        return false;
    };
    names.iter().any(|name| {
        rest.trim_start()
            .strip_prefix(name)
            .is_some_and(|after| after.starts_with([' ', '\t', '"']))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::autosave::GameMode;

    #[test]
    fn file_stems() {
        assert_eq!(parse_file_stem("000012-00000000000000ff"), Some((12, 255)));
        assert_eq!(parse_file_stem("12-ff"), None);
        assert_eq!(parse_file_stem("x-00000000000000ff"), None);
        assert_eq!(parse_file_stem("000012-00000000000000FF"), None);
    }

    #[test]
    fn utc_tags_give_back_the_start_time() {
        let mut game = SavedGame::new(GameMode::TwoPlayers, Game::new());
        game.started_unix = 1_795_321_525;
        let text = to_pgn(&game).expect("pgn");
        let parsed = pgn::read_games(&text)
            .into_iter()
            .next()
            .expect("one game")
            .expect("readable");
        assert_eq!(started_unix(&parsed), Some(1_795_321_525));
    }
}
