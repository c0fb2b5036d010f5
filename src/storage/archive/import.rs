//! Games from a PGN file (a USB stick's) into the archive: read up to a size limit, stored one
//! game at a time as the reader goes, stopped at a game limit, before the disk fills, or when
//! the caller says so between two games.
//!
//! A game keeps its text as it came (comments, clocks, analysis) with a `ChessPIGameId` tag
//! added and the tags only a device writes for itself left out ([`DEVICE_TAGS`]). A game that
//! names a stored game (`ChessPIGameId`) never replaces it: the same game is skipped and
//! reported, a different one is stored under a new id. A game whose moves go on after the rules
//! ended it is refused: it could never be opened.

use std::collections::HashMap;
use std::io::Read;
use std::ops::ControlFlow;
use std::path::Path;

use chesspi_engine::game::{Game, GameError};
use chesspi_engine::pgn::{self, GameResult, PgnError, PgnGame};

use super::{Archive, ArchiveError, GameId, io_error, parse_file_stem};
use crate::storage::autosave::new_game_id;

/// How much one import may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportLimits {
    /// Bytes of the file read; a longer file is read up to its last whole game within them.
    pub max_file_bytes: u64,
    /// Games read (stored, skipped or refused); the rest of the file is left out.
    pub max_games: usize,
    /// Free space the archive never takes: the autosave, the record and the system need it.
    pub reserve_bytes: u64,
}

impl ImportLimits {
    /// The device's limits: 16 MB (about 16 000 games of a usual database) and 2 000 games a
    /// file (each becomes a file of at least one 4 KiB block: 8 MB), and 64 MB kept free.
    pub const DEFAULT: ImportLimits = ImportLimits {
        max_file_bytes: 16 * 1024 * 1024,
        max_games: 2_000,
        reserve_bytes: 64 * 1024 * 1024,
    };
}

impl Default for ImportLimits {
    fn default() -> Self {
        ImportLimits::DEFAULT
    }
}

/// How far an import has come, given to the caller after each game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ImportProgress {
    /// Games read so far (stored, skipped or refused).
    pub games_read: usize,
    /// Games stored so far.
    pub stored: usize,
    /// Bytes of the text read so far, and in all.
    pub bytes_read: u64,
    pub bytes_total: u64,
}

/// Why an import ended before the end of its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImportStop {
    /// [`ImportLimits::max_games`] games were read; more followed.
    GameLimit(usize),
    /// Storing the next game would have left less than [`ImportLimits::reserve_bytes`] free.
    DiskNearlyFull { free_bytes: u64 },
    /// The caller stopped it (the owner's Cancel, or the app stopping).
    Cancelled,
}

/// A file longer than [`ImportLimits::max_file_bytes`]: only its start was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileCut {
    /// Bytes read (up to the last whole game within the limit).
    pub read_bytes: u64,
    /// The file's size.
    pub file_bytes: u64,
}

/// A game of the file that reads but does not replay ([`ImportReport::unplayable`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unplayable {
    /// 1-based number of the game in the file.
    pub game: usize,
    /// Why it does not replay.
    pub error: GameError,
}

impl std::fmt::Display for Unplayable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "game {}: a move after the end ({})",
            self.game, self.error
        )
    }
}

/// What an import did.
#[derive(Debug, Default)]
pub struct ImportReport {
    /// Games stored, in file order.
    pub imported: Vec<GameId>,
    /// Games of the file that could not be read, with why.
    pub failed: Vec<PgnError>,
    /// Games read whose moves go on after the rules ended the game (a dead position, the
    /// 75-move rule): they could never be opened, so they are not stored.
    pub unplayable: Vec<Unplayable>,
    /// Games already in the archive as they are (by `ChessPIGameId`): not stored again.
    pub already_stored: Vec<GameId>,
    /// Why the import ended early, if it did.
    pub stopped: Option<ImportStop>,
    /// The file was read only in part.
    pub file_cut: Option<FileCut>,
}

/// The file's bytes up to `max` and its size. Links are not followed (a stick's file system may
/// hold one to anywhere), and only a regular file is read.
fn read_limited(path: &Path, max: u64) -> std::io::Result<(Vec<u8>, u64)> {
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut bytes = Vec::with_capacity(meta.len().min(max) as usize);
    file.take(max).read_to_end(&mut bytes)?;
    Ok((bytes, meta.len()))
}

/// A text cut at a byte limit, ended where the last game that starts within it starts (its
/// tags follow a blank line): a game cut in half must not be stored as a shorter one.
fn cut_at_last_game(bytes: &mut Vec<u8>) {
    let start = bytes
        .windows(3)
        .rposition(|w| w == b"\n\n[")
        .map(|i| i + 2)
        .or_else(|| {
            bytes
                .windows(5)
                .rposition(|w| w == b"\r\n\r\n[")
                .map(|i| i + 4)
        })
        .unwrap_or(0);
    bytes.truncate(start);
}

/// Free bytes for this process on the file system holding `dir`.
fn free_bytes(dir: &Path) -> std::io::Result<u64> {
    let stat = rustix::fs::statvfs(dir)?;
    Ok(stat.f_bavail.saturating_mul(stat.f_frsize))
}

/// Tags only this device writes for itself: the game's id (given anew), the link that
/// reconnects an adjourned network game (a file from a stick must not point the device at a
/// host of its choosing, nor carry another device's secret), and the ids of its players (on
/// another device they name other people).
const DEVICE_TAGS: [&str; 5] = [
    "ChessPIGameId",
    "ChessPILanGame",
    "ChessPILanHost",
    "ChessPIWhitePlayer",
    "ChessPIBlackPlayer",
];

/// Whether `line` is a tag pair of one of [`DEVICE_TAGS`].
fn is_device_tag(line: &str) -> bool {
    super::is_tag_line_of(line, &DEVICE_TAGS)
}

/// `raw` (one game's text as it came) with `[ChessPIGameId "<id>"]` right after its tags, none
/// of the [`DEVICE_TAGS`] it had, and ending in its result: a file holds one game, but an
/// export puts them one after the other, and a game without a result there (or an id tag
/// before its roster) would run into the next.
fn with_game_id(raw: &str, game_id: u64, result: GameResult) -> String {
    let tag = format!("[ChessPIGameId \"{game_id:016x}\"]\n");
    let lines: Vec<&str> = raw
        .trim_start_matches(['\r', '\n'])
        .split_inclusive('\n')
        .filter(|line| !is_device_tag(line))
        .collect();
    let is_tag = |line: &str| line.trim_start().starts_with('[');
    // After the first run of tag lines; at the start when there are none.
    let first = lines.iter().position(|l| is_tag(l));
    let after_tags = first.map_or(0, |first| {
        first
            + lines
                .get(first..)
                .map_or(0, |rest| rest.iter().take_while(|l| is_tag(l)).count())
    });
    let mut out = String::with_capacity(raw.len() + tag.len() + 16);
    for (i, line) in lines.iter().enumerate() {
        if i == after_tags {
            out.push_str(&tag);
        }
        out.push_str(line);
        if i + 1 == after_tags && !line.ends_with('\n') {
            out.push('\n');
        }
    }
    if after_tags >= lines.len() {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&tag);
    }
    let ends_in_result = out
        .split_whitespace()
        .next_back()
        .is_some_and(|last| last.parse::<GameResult>().is_ok());
    if !ends_in_result {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(result.as_str());
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// The text to store for `game`: its own text with the id when that reads back as the same
/// game, else the game written anew (its comments lost, its moves and tags kept).
fn stored_text(raw: Option<&str>, game: &PgnGame, game_id: u64) -> Result<String, ArchiveError> {
    if let Some(text) = raw.map(|raw| with_game_id(raw, game_id, game.result)) {
        let mut back = pgn::games(&text);
        let same = match (back.next(), back.next()) {
            (Some(Ok(read)), None) => {
                read.start == game.start
                    && read.moves == game.moves
                    && read.result == game.result
                    && read.tag("ChessPIGameId") == Some(&format!("{game_id:016x}"))
                    && !read
                        .tags
                        .iter()
                        .any(|(n, _)| n != "ChessPIGameId" && DEVICE_TAGS.contains(&n.as_str()))
            }
            _ => false,
        };
        if same {
            return Ok(text);
        }
    }
    let mut tags = game.tags.clone();
    tags.retain(|(n, _)| !DEVICE_TAGS.contains(&n.as_str()));
    tags.push(("ChessPIGameId".into(), format!("{game_id:016x}")));
    pgn::write_game(&tags, &game.start, &game.moves, game.result).map_err(ArchiveError::Illegal)
}

impl Archive {
    /// Stores every game of a PGN text within [`ImportLimits::DEFAULT`].
    ///
    /// # Errors
    /// An I/O error while storing (games stored before it stay stored).
    pub fn import_pgn(&self, text: &str) -> Result<ImportReport, ArchiveError> {
        self.import_text(text, &ImportLimits::DEFAULT, |_| ControlFlow::Continue(()))
    }

    /// [`Archive::import_file_within`] with [`ImportLimits::DEFAULT`] and no stopping.
    ///
    /// # Errors
    /// As [`Archive::import_file_within`].
    pub fn import_file(&self, path: &Path) -> Result<ImportReport, ArchiveError> {
        self.import_file_within(path, &ImportLimits::DEFAULT, |_| ControlFlow::Continue(()))
    }

    /// Imports a file, UTF-8 or (the PGN standard's) ISO 8859-1, within `limits`. `between`
    /// runs after each game with the progress; [`ControlFlow::Break`] stops the import there.
    ///
    /// # Errors
    /// The file cannot be read (or is a link, or no regular file); I/O errors while storing
    /// (games stored before stay stored).
    pub fn import_file_within(
        &self,
        path: &Path,
        limits: &ImportLimits,
        between: impl FnMut(&ImportProgress) -> ControlFlow<()>,
    ) -> Result<ImportReport, ArchiveError> {
        let (mut bytes, file_bytes) =
            read_limited(path, limits.max_file_bytes).map_err(io_error(path))?;
        let cut = file_bytes > bytes.len() as u64;
        if cut {
            cut_at_last_game(&mut bytes);
        }
        let read_bytes = bytes.len() as u64;
        let mut report = self.import_text(&pgn::decode_text(bytes), limits, between)?;
        if cut {
            report.file_cut = Some(FileCut {
                read_bytes,
                file_bytes,
            });
        }
        Ok(report)
    }

    /// Stores the games of `text` one by one as they are read (see the module's notes).
    ///
    /// # Errors
    /// An I/O error while storing (games stored before it stay stored).
    pub fn import_text(
        &self,
        text: &str,
        limits: &ImportLimits,
        mut between: impl FnMut(&ImportProgress) -> ControlFlow<()>,
    ) -> Result<ImportReport, ArchiveError> {
        // One listing for the whole import: the newest file of each game, and the numbers.
        let mut newest: HashMap<u64, GameId> = HashMap::new();
        for id in self.entries()? {
            self.note_number(id.number());
            if let Some((_, game)) = parse_file_stem(id.as_str()) {
                let keep = newest.get(&game).is_some_and(|o| o.number() > id.number());
                if !keep {
                    newest.insert(game, id);
                }
            }
        }
        let mut report = ImportReport::default();
        let mut progress = ImportProgress {
            bytes_total: text.len() as u64,
            ..ImportProgress::default()
        };
        let mut reader = pgn::games(text);
        let result = loop {
            if progress.games_read >= limits.max_games {
                if reader.clone().next().is_some() {
                    report.stopped = Some(ImportStop::GameLimit(limits.max_games));
                }
                break Ok(());
            }
            let before = reader.offset();
            let Some(game) = reader.next() else {
                break Ok(());
            };
            progress.games_read += 1;
            progress.bytes_read = reader.offset() as u64;
            match game {
                // Found by fuzzing: moves played on after a dead position read, but a game
                // stored so could not be opened.
                Ok(game) if let Err(error) = Game::from_moves(game.start, &game.moves) => {
                    report.unplayable.push(Unplayable {
                        game: progress.games_read,
                        error,
                    });
                }
                Ok(game) => {
                    let raw = text.get(before..reader.offset());
                    match self.import_one(raw, &game, &mut newest, limits) {
                        Ok(Imported::Stored(id)) => report.imported.push(id),
                        Ok(Imported::Already(id)) => report.already_stored.push(id),
                        Ok(Imported::DiskNearlyFull(free_bytes)) => {
                            report.stopped = Some(ImportStop::DiskNearlyFull { free_bytes });
                            break Ok(());
                        }
                        Err(e) => break Err(e),
                    }
                }
                Err(e) => report.failed.push(e),
            }
            progress.stored = report.imported.len();
            if between(&progress).is_break() {
                report.stopped = Some(ImportStop::Cancelled);
                break Ok(());
            }
        };
        // The files were synced one by one; their names reach the disk here, once.
        if !report.imported.is_empty() {
            self.sync().map_err(io_error(self.dir()))?;
        }
        result.map(|()| report)
    }

    fn import_one(
        &self,
        raw: Option<&str>,
        game: &PgnGame,
        newest: &mut HashMap<u64, GameId>,
        limits: &ImportLimits,
    ) -> Result<Imported, ArchiveError> {
        let named = game
            .tag("ChessPIGameId")
            .filter(|t| t.len() == 16)
            .and_then(|t| u64::from_str_radix(t, 16).ok());
        let game_id = match named.and_then(|g| newest.get(&g).map(|id| (g, id.clone()))) {
            Some((_, stored_id)) if self.holds_same(&stored_id, game) => {
                return Ok(Imported::Already(stored_id));
            }
            // Another game under a stored game's id: it is a game of its own.
            Some(_) => new_game_id(),
            None => named.unwrap_or_else(new_game_id),
        };
        let text = stored_text(raw, game, game_id)?;
        let free = free_bytes(self.dir()).map_err(io_error(self.dir()))?;
        if free < limits.reserve_bytes.saturating_add(text.len() as u64) {
            return Ok(Imported::DiskNearlyFull(free));
        }
        let id = self.store_new(game_id, &text)?;
        newest.insert(game_id, id.clone());
        Ok(Imported::Stored(id))
    }

    /// Whether the stored game `id` has `game`'s start, moves and result.
    fn holds_same(&self, id: &GameId, game: &PgnGame) -> bool {
        self.load(id).is_ok_and(|stored| {
            stored.pgn.start == game.start
                && stored.pgn.moves == game.moves
                && stored.pgn.result == game.result
        })
    }
}

/// What became of one game read.
enum Imported {
    Stored(GameId),
    Already(GameId),
    DiskNearlyFull(u64),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_goes_after_the_tags_and_replaces_one_there() {
        let raw = "\n[Event \"x\"]\n[ChessPIGameId \"00000000000000aa\"]\n[White \"A\"]\n\n1. e4 { hi } *\n";
        assert_eq!(
            with_game_id(raw, 0xbb, GameResult::Unknown),
            "[Event \"x\"]\n[White \"A\"]\n[ChessPIGameId \"00000000000000bb\"]\n\n1. e4 { hi } *\n"
        );
        assert_eq!(
            with_game_id("1. e4 *", 1, GameResult::Unknown),
            "[ChessPIGameId \"0000000000000001\"]\n1. e4 *\n"
        );
    }

    /// Games one after the other, as an export writes them: a game with tags only, or no
    /// result, must not take the next one's tags.
    #[test]
    fn a_game_ends_in_its_result_and_its_id_follows_its_own_tags() {
        assert_eq!(
            with_game_id("[Event \"x\"]\n[Date \"?\"]", 2, GameResult::Unknown),
            "[Event \"x\"]\n[Date \"?\"]\n[ChessPIGameId \"0000000000000002\"]\n*\n"
        );
        assert_eq!(
            with_game_id("[Result \"1-0\"]\n\n1. e4 e5", 3, GameResult::WhiteWins),
            "[Result \"1-0\"]\n[ChessPIGameId \"0000000000000003\"]\n\n1. e4 e5\n1-0\n"
        );
    }

    #[test]
    fn a_network_link_from_a_file_is_dropped() {
        let raw = "[Event \"x\"]\n[ChessPILanGame \"secret\"]\n[ ChessPILanHost \"10.0.0.9\"]\n\
            [ChessPILanGameX \"kept\"]\n\n1. e4 *\n";
        assert_eq!(
            with_game_id(raw, 2, GameResult::Unknown),
            "[Event \"x\"]\n[ChessPILanGameX \"kept\"]\n[ChessPIGameId \"0000000000000002\"]\n\n1. e4 *\n"
        );
    }

    #[test]
    fn a_cut_text_ends_before_the_last_game_it_holds() {
        let mut bytes = b"[Event \"a\"]\n\n1. e4 *\n\n[Event \"b\"]\n\n1. d4 d5 2. c4".to_vec();
        cut_at_last_game(&mut bytes);
        assert_eq!(bytes, b"[Event \"a\"]\n\n1. e4 *\n\n");
        let mut crlf = b"1. e4 *\r\n\r\n[Event \"b\"]".to_vec();
        cut_at_last_game(&mut crlf);
        assert_eq!(crlf, b"1. e4 *\r\n\r\n");
        let mut none = b"1. e4 e5 2. Nf3".to_vec();
        cut_at_last_game(&mut none);
        assert!(none.is_empty());
    }
}
