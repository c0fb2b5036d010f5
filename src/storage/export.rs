//! Export of the archive to a USB stick: all games in one PGN file, written atomically.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use super::archive::{Archive, ArchiveError, GameId};
use super::atomic::write_atomic;
use super::timestamp::UtcDateTime;

/// Where desktop automounters (udisks2) and usbmount mount removable media.
pub const DEFAULT_MEDIA_ROOT: &str = "/media";

/// What [`export_all`] wrote.
#[derive(Debug)]
pub struct ExportReport {
    /// The PGN file written.
    pub path: PathBuf,
    /// Number of games in it.
    pub games: usize,
    /// Damaged archive files left out.
    pub skipped_damaged: Vec<GameId>,
}

/// Why an export failed.
#[derive(Debug)]
pub enum ExportError {
    /// The archive could not be read.
    Archive(ArchiveError),
    /// There is no game to export.
    NoGames,
    /// The file could not be written (stick full, removed, read-only).
    Write {
        /// The target file.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Archive(e) => write!(f, "cannot read the saved games: {e}"),
            Self::NoGames => write!(f, "there are no saved games to export"),
            Self::Write { path, source } => {
                write!(f, "cannot write {}: {source}", path.display())
            }
        }
    }
}

impl std::error::Error for ExportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Archive(e) => Some(e),
            Self::NoGames => None,
            Self::Write { source, .. } => Some(source),
        }
    }
}

/// Writes every readable game of `archive`, oldest first, to
/// `<target_dir>/chesspi-games-<YYYYMMDDTHHMMSSZ>.pgn` (atomically: a stick pulled out during
/// the export holds no half-written file under that name).
///
/// # Errors
/// [`ExportError::NoGames`] for an empty archive; archive and write errors.
pub fn export_all(archive: &Archive, target_dir: &Path) -> Result<ExportReport, ExportError> {
    let (text, games, skipped_damaged) = archive.all_pgn().map_err(ExportError::Archive)?;
    if games == 0 {
        return Err(ExportError::NoGames);
    }
    let path = target_dir.join(format!(
        "chesspi-games-{}.pgn",
        UtcDateTime::now().compact()
    ));
    write_atomic(&path, text.as_bytes()).map_err(|source| ExportError::Write {
        path: path.clone(),
        source,
    })?;
    Ok(ExportReport {
        path,
        games,
        skipped_damaged,
    })
}

/// Mounted, writable file systems under `media_root` (`/media/<label>` for usbmount,
/// `/media/<user>/<label>` for udisks2), sorted by path. A directory counts as mounted when it
/// is on another device than its parent.
pub fn find_usb_mounts(media_root: &Path) -> Vec<PathBuf> {
    find_writable_mounts(media_root, is_mount_point)
}

/// [`find_usb_mounts`] with the mount test given (so it can be tested without mounting).
pub fn find_writable_mounts(media_root: &Path, is_mount: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut found = find_mounts(media_root, is_mount);
    found.retain(|d| is_writable(d));
    found
}

/// Mounted file systems under `media_root`, read-only ones too, sorted by path; `is_mount`
/// says what counts as mounted.
pub fn find_mounts(media_root: &Path, is_mount: impl Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in subdirectories(media_root) {
        if is_mount(&dir) {
            found.push(dir);
        } else {
            // One level more for /media/<user>/<label>.
            found.extend(subdirectories(&dir).into_iter().filter(|d| is_mount(d)));
        }
    }
    found.sort();
    found
}

/// The most PGN files listed from the sticks: the dialog shows them as buttons.
pub const MAX_PGN_FILES: usize = 12;

/// The PGN files (`*.pgn`, any case) on the USB sticks mounted under `media_root`, read-only
/// sticks too: at the top of each stick and one folder down, sorted by path, at most
/// [`MAX_PGN_FILES`].
pub fn find_usb_pgn_files(media_root: &Path) -> Vec<PathBuf> {
    pgn_files_on(&find_mounts(media_root, is_mount_point))
}

/// The PGN files at the top of each of `sticks` and one folder down (see
/// [`find_usb_pgn_files`]). Plain files only: a symbolic link (NTFS has them, and a stick
/// mounted some other way may be ext4) is not followed, neither to a file nor to a folder, so
/// the list never offers a file elsewhere on the device, such as the app's own.
pub fn pgn_files_on(sticks: &[PathBuf]) -> Vec<PathBuf> {
    let files_in = |dir: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    // The entry's own type (lstat), not its target's.
                    .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("pgn")))
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut found: Vec<PathBuf> = sticks
        .iter()
        .flat_map(|stick| {
            let mut files = files_in(stick);
            for dir in subdirectories(stick) {
                files.extend(files_in(&dir));
            }
            files
        })
        .collect();
    found.sort();
    found.truncate(MAX_PGN_FILES);
    found
}

/// A PGN file found on a USB stick, and how a person is shown it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsbFile {
    pub path: PathBuf,
    /// The stick's name and the file's path on it, one form for every file
    /// ("STICK/games.pgn", "STICK/games/club.pgn").
    pub label: String,
}

/// `files` (from [`pgn_files_on`]) named by the stick among `sticks` they are on.
pub fn labelled(files: Vec<PathBuf>, sticks: &[PathBuf]) -> Vec<UsbFile> {
    files
        .into_iter()
        .map(|path| {
            let label = sticks
                .iter()
                .find_map(|stick| {
                    let on = path.strip_prefix(stick).ok()?;
                    let name = stick.file_name()?.to_string_lossy();
                    Some(format!("{name}/{}", on.to_string_lossy()))
                })
                .unwrap_or_else(|| path.to_string_lossy().into_owned());
            UsbFile { path, label }
        })
        .collect()
}

/// The folders in `dir`; symbolic links to folders are not followed.
fn subdirectories(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .map(|e| e.path())
        .collect()
}

pub fn is_mount_point(dir: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Some(parent) = dir.parent() else {
        return false;
    };
    match (std::fs::metadata(dir), std::fs::metadata(parent)) {
        (Ok(d), Ok(p)) => d.dev() != p.dev(),
        _ => false,
    }
}

/// Whether a file can be created in `dir`. Tried for real: permission bits say nothing about a
/// file system mounted read-only or a stick with a write-protect switch.
fn is_writable(dir: &Path) -> bool {
    let probe = dir.join(format!(".chesspi-write-probe-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => std::fs::remove_file(&probe).is_ok(),
        Err(_) => false,
    }
}
