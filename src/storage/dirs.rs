//! Where the app keeps its state: the config's override, else systemd's `StateDirectory=`
//! (`$STATE_DIRECTORY`, `/var/lib/chesspi` on the device), else the XDG data directory.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The directory name under the XDG data directory.
const APP_DIR: &str = "chesspi";

/// Why no state directory could be found or created.
#[derive(Debug)]
pub enum StateDirError {
    /// Neither `$STATE_DIRECTORY`, `$XDG_DATA_HOME` nor `$HOME` is set.
    NoCandidate,
    /// The chosen directory could not be created.
    Create {
        /// The directory.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
}

impl fmt::Display for StateDirError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NoCandidate => write!(
                f,
                "no state directory: set storage.state_dir in the config, or STATE_DIRECTORY, \
                 XDG_DATA_HOME or HOME"
            ),
            Self::Create { path, source } => {
                write!(
                    f,
                    "cannot create state directory {}: {source}",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for StateDirError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::NoCandidate => None,
            Self::Create { source, .. } => Some(source),
        }
    }
}

/// Picks the state directory from the config override and environment values, without touching
/// the file system. `env` answers for `STATE_DIRECTORY`, `XDG_DATA_HOME` and `HOME`.
///
/// systemd may pass several colon-separated directories in `$STATE_DIRECTORY`; the first one is
/// the unit's first `StateDirectory=`. Empty and relative XDG values are ignored, as the XDG
/// specification requires.
pub fn resolve_state_dir(
    config_override: Option<&Path>,
    env: impl Fn(&str) -> Option<String>,
) -> Option<PathBuf> {
    if let Some(p) = config_override {
        return Some(p.to_path_buf());
    }
    if let Some(dirs) = env("STATE_DIRECTORY")
        && let Some(first) = dirs.split(':').find(|d| !d.is_empty())
    {
        return Some(PathBuf::from(first));
    }
    if let Some(xdg) = env("XDG_DATA_HOME") {
        let xdg = PathBuf::from(xdg);
        if xdg.is_absolute() {
            return Some(xdg.join(APP_DIR));
        }
    }
    let home = env("HOME").filter(|h| !h.is_empty())?;
    Some(PathBuf::from(home).join(".local/share").join(APP_DIR))
}

/// The state directory for this process (see [`resolve_state_dir`]), created if missing.
///
/// # Errors
/// No candidate directory, or it cannot be created.
pub fn state_dir(config_override: Option<&Path>) -> Result<PathBuf, StateDirError> {
    let dir = resolve_state_dir(config_override, |k| std::env::var(k).ok())
        .ok_or(StateDirError::NoCandidate)?;
    std::fs::create_dir_all(&dir).map_err(|source| StateDirError::Create {
        path: dir.clone(),
        source,
    })?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            vars.iter()
                .find(|(name, _)| *name == k)
                .map(|(_, v)| (*v).to_string())
        }
    }

    #[test]
    fn precedence_is_override_then_systemd_then_xdg_then_home() {
        let all = [
            ("STATE_DIRECTORY", "/var/lib/chesspi"),
            ("XDG_DATA_HOME", "/x"),
            ("HOME", "/home/u"),
        ];
        assert_eq!(
            resolve_state_dir(Some(Path::new("/o")), env(&all)),
            Some(PathBuf::from("/o"))
        );
        assert_eq!(
            resolve_state_dir(None, env(&all)),
            Some(PathBuf::from("/var/lib/chesspi"))
        );
        assert_eq!(
            resolve_state_dir(None, env(&all[1..])),
            Some(PathBuf::from("/x/chesspi"))
        );
        assert_eq!(
            resolve_state_dir(None, env(&all[2..])),
            Some(PathBuf::from("/home/u/.local/share/chesspi"))
        );
        assert_eq!(resolve_state_dir(None, env(&[])), None);
    }

    #[test]
    fn systemd_list_takes_first_and_relative_xdg_is_ignored() {
        let vars = [("STATE_DIRECTORY", "/a:/b")];
        assert_eq!(
            resolve_state_dir(None, env(&vars)),
            Some(PathBuf::from("/a"))
        );
        let vars = [("XDG_DATA_HOME", "rel"), ("HOME", "/h")];
        assert_eq!(
            resolve_state_dir(None, env(&vars)),
            Some(PathBuf::from("/h/.local/share/chesspi"))
        );
    }

    #[test]
    fn creates_the_override_directory() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("a/b");
        assert_eq!(state_dir(Some(&target)).expect("state dir"), target);
        assert!(target.is_dir());
    }
}
