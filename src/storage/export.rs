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
    let mut found = Vec::new();
    for dir in subdirectories(media_root) {
        if is_mount(&dir) {
            found.push(dir);
        } else {
            // One level more for /media/<user>/<label>.
            found.extend(subdirectories(&dir).into_iter().filter(|d| is_mount(d)));
        }
    }
    found.retain(|d| is_writable(d));
    found.sort();
    found
}

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

fn is_mount_point(dir: &Path) -> bool {
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
