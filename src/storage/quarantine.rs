//! Keeping a bad file aside: renamed next to itself, never deleted, so a person can look at it.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

use super::atomic::sync_dir;
use super::timestamp::UtcDateTime;

/// A file that was refused at start-up and set aside: the app logs `reason` and shows it once.
#[derive(Debug)]
pub struct Recovery<E> {
    /// Why the file was refused.
    pub reason: E,
    /// Where the file now is, or why it could not be moved (it is then still in place and is
    /// replaced by the next save).
    pub quarantined_path: io::Result<PathBuf>,
}

impl<E> Recovery<E> {
    /// Sets `path` aside now and records why.
    pub fn set_aside(path: &Path, reason: E) -> Recovery<E> {
        Recovery {
            reason,
            quarantined_path: quarantine(path, UtcDateTime::now()),
        }
    }
}

impl<E: std::fmt::Display> std::fmt::Display for Recovery<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.quarantined_path {
            Ok(p) => write!(f, "{}; the file was kept as {}", self.reason, p.display()),
            Err(e) => write!(f, "{}; the file could not be set aside: {e}", self.reason),
        }
    }
}

/// Renames `path` to `<name>.bad-<YYYYMMDDTHHMMSSZ>` (with `-2`, `-3`… if that name is taken)
/// and returns the new path. The rename is made durable so the bad file does not come back
/// after a power cut.
///
/// # Errors
/// The file cannot be renamed (it is then left where it is).
pub fn quarantine(path: &Path, now: UtcDateTime) -> io::Result<PathBuf> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{} names no file", path.display()),
        )
    })?;
    let base = {
        let mut n = OsString::from(name);
        n.push(format!(".bad-{}", now.compact()));
        n
    };
    let mut target = path.with_file_name(&base);
    let mut k = 2u32;
    while target.exists() {
        let mut n = base.clone();
        n.push(format!("-{k}"));
        target = path.with_file_name(n);
        k += 1;
    }
    std::fs::rename(path, &target)?;
    if let Some(dir) = target.parent().filter(|d| !d.as_os_str().is_empty()) {
        sync_dir(dir)?;
    }
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_with_time_and_never_overwrites() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("autosave.toml");
        let now = UtcDateTime::from_unix_seconds(0);
        std::fs::write(&path, b"one").expect("write");
        let first = quarantine(&path, now).expect("quarantine");
        assert_eq!(
            first.file_name(),
            Some(std::ffi::OsStr::new("autosave.toml.bad-19700101T000000Z"))
        );
        std::fs::write(&path, b"two").expect("write");
        let second = quarantine(&path, now).expect("quarantine");
        assert_ne!(first, second);
        assert_eq!(std::fs::read(&first).expect("read"), b"one");
        assert_eq!(std::fs::read(&second).expect("read"), b"two");
        assert!(!path.exists());
    }
}
