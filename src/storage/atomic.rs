//! Atomic file replacement: a reader (or the next boot after a power cut) sees either the old
//! content or the new one, never a mix or a truncated file.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Replaces `path` with `contents` atomically and durably.
///
/// Writes a temporary file in the same directory, fsyncs it, renames it over `path`, then fsyncs
/// the directory so the rename itself survives a power cut. The temporary file is removed if any
/// step fails.
///
/// # Errors
/// Any I/O error from creating, writing, syncing or renaming; `path` is then unchanged.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let dir = parent_dir(path);
    let tmp = temp_path(path)?;
    let result = write_and_sync(&tmp, contents).and_then(|()| fs::rename(&tmp, path));
    if let Err(e) = result {
        // Best effort: a leftover temp file is harmless but untidy.
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    sync_dir(dir)
}

/// [`write_atomic`] without the directory's fsync: the file is complete on disk under its name
/// once the caller syncs the directory ([`sync_dir`]), which many files can share (an import).
///
/// # Errors
/// Any I/O error from creating, writing, syncing or renaming; `path` is then unchanged.
pub fn write_atomic_unsynced_dir(path: &Path, contents: &[u8]) -> io::Result<()> {
    let tmp = temp_path(path)?;
    let result = write_and_sync(&tmp, contents).and_then(|()| fs::rename(&tmp, path));
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Replaces `path` atomically but with no fsync at all: only for files on tmpfs, which no
/// power cut leaves behind (a fuzzing harness).
///
/// # Errors
/// Any I/O error from creating, writing or renaming; `path` is then unchanged.
pub fn write_atomic_unsynced(path: &Path, contents: &[u8]) -> io::Result<()> {
    let tmp = temp_path(path)?;
    let result = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| f.write_all(contents))
        .and_then(|()| fs::rename(&tmp, path));
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// [`write_atomic`] that keeps the versions it replaces: `backups[0]` gets the content `path`
/// had, `backups[1]` the one before, and so on; the oldest is dropped.
///
/// Only renames happen between the new file's fsync and the directory's, so a power cut leaves
/// `path` new or old, or (cut between two renames) missing with `backups[0]` holding the old
/// content: a reader that falls back to the backups always finds the newest complete version.
///
/// # Errors
/// Any I/O error; the files are then as a power cut at that moment would leave them.
pub fn write_atomic_keeping(path: &Path, contents: &[u8], backups: &[PathBuf]) -> io::Result<()> {
    let dir = parent_dir(path);
    let tmp = temp_path(path)?;
    if let Err(e) = write_and_sync(&tmp, contents) {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    let shift = |from: &Path, to: &Path| match fs::rename(from, to) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    };
    let mut result = Ok(());
    for pair in backups.windows(2).rev() {
        result = result.and_then(|()| shift(&pair[0], &pair[1]));
    }
    if let Some(first) = backups.first() {
        result = result.and_then(|()| shift(path, first));
    }
    let result = result.and_then(|()| fs::rename(&tmp, path));
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    sync_dir(dir)
}

fn write_and_sync(tmp: &Path, contents: &[u8]) -> io::Result<()> {
    let mut file = OpenOptions::new().write(true).create_new(true).open(tmp)?;
    file.write_all(contents)?;
    file.sync_all()
}

/// Fsyncs a directory so that entries created or renamed in it are on disk.
///
/// # Errors
/// The directory cannot be opened or synced.
pub fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

fn parent_dir(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A temp name unique within this process and across processes (pid), hidden by a leading dot,
/// in the target's own directory so the rename never crosses file systems.
fn temp_path(path: &Path) -> io::Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} names no file", path.display()),
        )
    })?;
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".tmp-{}-{n}", std::process::id()));
    Ok(parent_dir(path).join(tmp_name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_content_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("game.json");
        write_atomic(&path, b"first").expect("write");
        write_atomic(&path, b"second").expect("write");
        assert_eq!(fs::read(&path).expect("read"), b"second");
        let names: Vec<_> = fs::read_dir(dir.path())
            .expect("list")
            .map(|e| e.expect("entry").file_name())
            .collect();
        assert_eq!(names, vec![std::ffi::OsString::from("game.json")]);
    }

    #[test]
    fn failure_keeps_old_content() {
        let dir = tempfile::tempdir().expect("tempdir");
        // Renaming a file over a non-empty directory fails: the old "file" must survive.
        let target = dir.path().join("occupied");
        fs::create_dir(&target).expect("mkdir");
        fs::write(target.join("keep"), b"x").expect("write");
        assert!(write_atomic(&target, b"new").is_err());
        assert!(target.join("keep").exists());
        assert_eq!(fs::read_dir(dir.path()).expect("list").count(), 1);
    }

    #[test]
    fn path_without_file_name_is_an_error() {
        assert!(write_atomic(Path::new("/"), b"x").is_err());
    }
}
