//! One sealed TOML file in the state directory (settings, the player's record, the puzzles):
//! read, checked and written the same way, whatever it holds.
//!
//! A kind ([`Sealable`]) says only what differs: its file name, its TOML shape and how it
//! becomes the value (with its own checks). The rest is here: the checksum line
//! ([`super::sealed`]), the `format` and `version` keys, atomic writes, and a refused file set
//! aside ([`Recovery`]) while the kind's default is used.

use std::fmt;
use std::io;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::atomic::write_atomic;
use super::quarantine::Recovery;
use super::sealed::{seal, unseal};

/// What a kind of sealed file supplies. Its default is what a missing or refused file gives.
pub trait Sealable: Default {
    /// The file's name in the state directory.
    const FILE: &'static str;
    /// The `format` key's value.
    const FORMAT: &'static str;
    /// The `version` this build reads and writes.
    const VERSION: u32;
    /// The comment that opens the file (no newline at the end).
    const HEADER: &'static str;
    /// How messages name what the file holds, e.g. "the statistics".
    const NOUN: &'static str;
    /// The file's TOML shape, `format` and `version` included.
    type Raw: Serialize + DeserializeOwned;
    /// Why a well-formed file's values are refused.
    type Invalid: fmt::Display + fmt::Debug;

    /// The TOML shape of `self`, with [`Self::FORMAT`] and [`Self::VERSION`].
    fn to_raw(&self) -> Self::Raw;
    /// The `format` and `version` a file gave.
    fn format_of(raw: &Self::Raw) -> (&str, u32);
    /// The value a file of the current format gives, checked.
    ///
    /// # Errors
    /// An impossible value.
    fn from_raw(raw: Self::Raw) -> Result<Self, Self::Invalid>;
}

/// Why a sealed file was refused or could not be written.
#[derive(Debug)]
pub enum StoreError<T: Sealable> {
    /// The file exists but could not be read.
    Unreadable(io::Error),
    /// The file could not be written.
    Write(io::Error),
    /// Empty, not text, cut short or damaged (checksum mismatch).
    Damaged,
    /// Not TOML of the expected shape.
    Syntax(String),
    /// A format or version this build does not read.
    UnsupportedVersion(String),
    /// A value the kind refuses.
    Invalid(T::Invalid),
}

impl<T: Sealable> fmt::Display for StoreError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let noun = T::NOUN;
        match self {
            Self::Unreadable(e) => write!(f, "cannot read {noun}: {e}"),
            Self::Write(e) => write!(f, "cannot save {noun}: {e}"),
            Self::Damaged => write!(f, "{noun} file is incomplete or damaged"),
            Self::Syntax(m) => write!(f, "{noun} file is malformed: {m}"),
            Self::UnsupportedVersion(v) => {
                write!(f, "{noun} file has an unsupported format ({v})")
            }
            Self::Invalid(e) => e.fmt(f),
        }
    }
}

impl<T: Sealable + fmt::Debug> std::error::Error for StoreError<T> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Unreadable(e) | Self::Write(e) => Some(e),
            _ => None,
        }
    }
}

/// What [`SealedStore::load`] found.
#[derive(Debug)]
pub struct Load<T: Sealable> {
    /// The value to use (the default if there was no file or it was refused).
    pub value: T,
    /// Set when the file was refused and set aside.
    pub recovered: Option<Recovery<StoreError<T>>>,
}

/// Reads and writes `<state>/<T::FILE>`.
pub struct SealedStore<T> {
    path: PathBuf,
    // `fn() -> T`: the store holds no `T`, so it is `Send` and `Clone` whatever `T` is.
    kind: PhantomData<fn() -> T>,
}

impl<T> fmt::Debug for SealedStore<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SealedStore")
            .field("path", &self.path)
            .finish()
    }
}

impl<T> Clone for SealedStore<T> {
    fn clone(&self) -> Self {
        SealedStore {
            path: self.path.clone(),
            kind: PhantomData,
        }
    }
}

impl<T: Sealable> SealedStore<T> {
    /// A store in `state_dir`.
    pub fn new(state_dir: &Path) -> SealedStore<T> {
        SealedStore {
            path: state_dir.join(T::FILE),
            kind: PhantomData,
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Reads the file; never fails (see [`Load`]). No file is the default, not an error.
    pub fn load(&self) -> Load<T> {
        let read = match std::fs::read(&self.path) {
            Ok(bytes) => decode(&bytes),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(T::default()),
            Err(e) => Err(StoreError::Unreadable(e)),
        };
        match read {
            Ok(value) => Load {
                value,
                recovered: None,
            },
            Err(reason) => Load {
                value: T::default(),
                recovered: Some(Recovery::set_aside(&self.path, reason)),
            },
        }
    }

    /// Writes `value` atomically.
    ///
    /// # Errors
    /// Any I/O error; the previous file is then unchanged.
    pub fn save(&self, value: &T) -> io::Result<()> {
        write_atomic(&self.path, encode(value).as_bytes())
    }
}

/// The file's text for `value`: the header, the TOML and the checksum line.
pub fn encode<T: Sealable>(value: &T) -> String {
    // Plain numbers and strings always serialize; an empty body would load as malformed.
    let body = toml::to_string(&value.to_raw()).unwrap_or_default();
    seal(&format!("{}\n{body}", T::HEADER))
}

/// The value in a file's bytes.
///
/// # Errors
/// Why the file is refused.
pub fn decode<T: Sealable>(bytes: &[u8]) -> Result<T, StoreError<T>> {
    let text = std::str::from_utf8(bytes).map_err(|_| StoreError::Damaged)?;
    let body = unseal(text).ok_or(StoreError::Damaged)?;
    let raw: T::Raw =
        toml::from_str(body).map_err(|e| StoreError::Syntax(e.message().trim_end().to_string()))?;
    let (format, version) = T::format_of(&raw);
    if format != T::FORMAT || version != T::VERSION {
        return Err(StoreError::UnsupportedVersion(format!(
            "{format} version {version}"
        )));
    }
    T::from_raw(raw).map_err(StoreError::Invalid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::puzzles::PuzzleBook;
    use crate::storage::{DeviceSettings, Stats};

    /// The messages users see in notices: each kind's words, as before the store was shared.
    #[test]
    fn each_kind_names_its_file_in_messages() {
        fn damaged<T: Sealable>() -> String {
            StoreError::<T>::Damaged.to_string()
        }
        assert_eq!(
            damaged::<DeviceSettings>(),
            "the device settings file is incomplete or damaged"
        );
        assert_eq!(
            damaged::<Stats>(),
            "the statistics file is incomplete or damaged"
        );
        assert_eq!(
            damaged::<PuzzleBook>(),
            "the puzzles file is incomplete or damaged"
        );
        let write = StoreError::<DeviceSettings>::Write(io::Error::other("disk full"));
        assert_eq!(
            write.to_string(),
            "cannot save the device settings: disk full"
        );
    }
}
