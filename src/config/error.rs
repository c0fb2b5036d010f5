//! Config errors that point at the offending key, line and column.

use std::fmt;
use std::io;
use std::ops::Range;
use std::path::PathBuf;

use toml::de::{DeTable, DeValue};

/// Why a config file was rejected.
#[derive(Debug)]
pub enum ConfigError {
    /// The file exists (or was asked for) but cannot be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        source: io::Error,
    },
    /// The file is not valid TOML, has an unknown key or a wrong type, or a value out of range.
    Invalid {
        /// The file.
        path: PathBuf,
        /// Dotted key path (`battery.gpio.full.pin`), when it could be found.
        key: Option<String>,
        /// 1-based line and column (in characters) of the offending text, when known.
        position: Option<(usize, usize)>,
        /// What is wrong and, where useful, what is allowed.
        message: String,
    },
}

impl ConfigError {
    /// The dotted key the error is about, if known.
    pub fn key(&self) -> Option<&str> {
        match self {
            Self::Invalid { key, .. } => key.as_deref(),
            Self::Read { .. } => None,
        }
    }

    /// 1-based line and column of the error, if known.
    pub fn position(&self) -> Option<(usize, usize)> {
        match self {
            Self::Invalid { position, .. } => *position,
            Self::Read { .. } => None,
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Read { path, source } => write!(f, "{}: cannot read: {source}", path.display()),
            Self::Invalid {
                path,
                key,
                position,
                message,
            } => {
                write!(f, "{}", path.display())?;
                if let Some((line, column)) = position {
                    write!(f, ":{line}:{column}")?;
                }
                if let Some(key) = key {
                    write!(f, ": key `{key}`")?;
                }
                write!(f, ": {message}")
            }
        }
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Read { source, .. } => Some(source),
            Self::Invalid { .. } => None,
        }
    }
}

/// 1-based line and column (counted in characters) of a byte offset in `source`.
pub(super) fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = source.get(..offset).unwrap_or(source);
    let line = before.matches('\n').count() + 1;
    let last_line = before.rsplit('\n').next().unwrap_or(before);
    let column = last_line.chars().count() + 1;
    (line, column)
}

/// The dotted key whose key or value text contains byte `offset`, found by walking the parsed
/// document. `None` if the document does not parse or the offset is outside every entry.
pub(super) fn key_at(source: &str, offset: usize) -> Option<String> {
    let doc = DeTable::parse(source).ok()?;
    let mut path = Vec::new();
    if find_in_table(doc.get_ref(), offset, &mut path) {
        Some(path.join("."))
    } else {
        None
    }
}

fn find_in_table(table: &DeTable<'_>, offset: usize, path: &mut Vec<String>) -> bool {
    for (key, value) in table {
        if contains(&key.span(), offset) {
            path.push(key.get_ref().to_string());
            return true;
        }
        path.push(key.get_ref().to_string());
        if let DeValue::Table(inner) = value.get_ref()
            && find_in_table(inner, offset, path)
        {
            return true;
        }
        if contains(&value.span(), offset) {
            return true;
        }
        path.pop();
    }
    false
}

/// The byte span of the value at a dotted key path, if the key is present in the document.
pub(super) fn span_of(source: &str, key: &str) -> Option<Range<usize>> {
    let doc = DeTable::parse(source).ok()?;
    let mut table = doc.get_ref();
    let mut parts = key.split('.').peekable();
    while let Some(part) = parts.next() {
        let value = table.get(part)?;
        if parts.peek().is_none() {
            return Some(value.span());
        }
        match value.get_ref() {
            DeValue::Table(inner) => table = inner,
            _ => return Some(value.span()),
        }
    }
    None
}

fn contains(span: &Range<usize>, offset: usize) -> bool {
    span.start <= offset && offset < span.end.max(span.start + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_are_one_based_and_count_characters() {
        let s = "a = 1\nbé = 2\n";
        assert_eq!(line_column(s, 0), (1, 1));
        assert_eq!(line_column(s, 6), (2, 1));
        assert_eq!(line_column(s, 10), (2, 4));
        assert_eq!(line_column(s, 999), (3, 1));
    }

    #[test]
    fn finds_keys_in_nested_tables() {
        let s = "[battery]\nsource = \"gpio\"\n[battery.gpio]\nfull = { pin = 5 }\n";
        let at = s.find("5").expect("5");
        assert_eq!(key_at(s, at).as_deref(), Some("battery.gpio.full.pin"));
        let span = span_of(s, "battery.source").expect("span");
        assert_eq!(&s[span], "\"gpio\"");
        assert_eq!(span_of(s, "battery.nothing"), None);
    }
}
