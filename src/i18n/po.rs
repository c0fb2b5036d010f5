//! A reader for gettext `.po` files: the subset translators and `msgmerge` write (comments,
//! flags, `msgctxt`, `msgid`, `msgid_plural`, `msgstr`, `msgstr[N]`, strings continued over
//! several lines, C escapes). Slint compiles the same file into the UI at build time; this reader
//! gives the Rust side the same catalogue. Bad input is an error with its line, never a panic.

use std::fmt;

/// One message of a catalogue.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Entry {
    pub context: Option<String>,
    pub id: String,
    pub id_plural: Option<String>,
    /// `msgstr`, or `msgstr[0]`, `msgstr[1]`, … for a plural message.
    pub translations: Vec<String>,
    /// Marked `#, fuzzy`: a guess that a translator has not confirmed.
    pub fuzzy: bool,
    /// The line of its `msgid`.
    pub line: usize,
}

impl Entry {
    /// Translated: every form present and not empty, and not fuzzy.
    pub fn is_translated(&self) -> bool {
        !self.fuzzy
            && !self.translations.is_empty()
            && self.translations.iter().all(|t| !t.is_empty())
    }
}

/// Why a `.po` text could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoError {
    pub line: usize,
    pub kind: PoErrorKind,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PoErrorKind {
    /// A line that is none of the known keywords, a comment or a string.
    UnknownLine,
    /// A string without its closing quote, or with text after it.
    BadString,
    /// An escape other than \n \t \r \\ \" .
    BadEscape(char),
    /// A keyword out of order (e.g. `msgstr` before `msgid`).
    Unexpected(&'static str),
    /// `msgstr[N]` with N not the next index.
    BadPluralIndex,
    /// An entry without `msgstr`.
    MissingTranslation,
    /// The same context and id twice.
    Duplicate(String),
}

impl fmt::Display for PoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            PoErrorKind::UnknownLine => write!(f, "not a keyword, comment or string"),
            PoErrorKind::BadString => write!(f, "a string must be one \"quoted\" text"),
            PoErrorKind::BadEscape(c) => write!(f, "unknown escape \\{c}"),
            PoErrorKind::Unexpected(what) => write!(f, "{what} is out of place"),
            PoErrorKind::BadPluralIndex => write!(f, "msgstr[N] out of order"),
            PoErrorKind::MissingTranslation => write!(f, "the entry has no msgstr"),
            PoErrorKind::Duplicate(id) => write!(f, "message {id:?} appears twice"),
        }
    }
}

impl std::error::Error for PoError {}

/// Which string a continuation line adds to.
#[derive(Clone, Copy, PartialEq)]
enum Field {
    Context,
    Id,
    IdPlural,
    Str(usize),
}

/// Parses a whole `.po` text. The header (the entry with an empty `msgid`) is left out.
pub fn parse(text: &str) -> Result<Vec<Entry>, PoError> {
    let mut entries = Vec::new();
    let mut current: Option<Entry> = None;
    let mut field: Option<Field> = None;
    let mut fuzzy_next = false;

    for (index, raw) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = raw.trim();
        let err = |kind| PoError {
            line: line_no,
            kind,
        };
        if line.is_empty() {
            continue;
        }
        if let Some(comment) = line.strip_prefix('#') {
            // `#~` marks obsolete entries: gettext keeps them, nobody uses them.
            if let Some(flags) = comment.strip_prefix(',') {
                fuzzy_next |= flags.split(',').any(|f| f.trim() == "fuzzy");
            }
            continue;
        }
        if line.starts_with('"') {
            let s = unquote(line).map_err(&err)?;
            let entry = current
                .as_mut()
                .ok_or(err(PoErrorKind::Unexpected("a string")))?;
            match field {
                Some(Field::Context) => entry.context.get_or_insert_with(String::new).push_str(&s),
                Some(Field::Id) => entry.id.push_str(&s),
                Some(Field::IdPlural) => {
                    entry.id_plural.get_or_insert_with(String::new).push_str(&s)
                }
                Some(Field::Str(i)) => entry.translations[i].push_str(&s),
                None => return Err(err(PoErrorKind::Unexpected("a string"))),
            }
            continue;
        }
        let (keyword, rest) = line
            .split_once(|c: char| c.is_whitespace())
            .ok_or(err(PoErrorKind::UnknownLine))?;
        let value = unquote(rest.trim()).map_err(&err)?;
        match keyword {
            "msgctxt" | "msgid" => {
                // A new entry begins unless this msgid follows its own msgctxt.
                let continues = keyword == "msgid"
                    && field == Some(Field::Context)
                    && current.as_ref().is_some_and(|e| e.id.is_empty());
                if !continues {
                    if let Some(done) = current.take() {
                        push_entry(&mut entries, done)?;
                    }
                    current = Some(Entry {
                        fuzzy: std::mem::take(&mut fuzzy_next),
                        ..Entry::default()
                    });
                }
                let entry = current.as_mut().ok_or(err(PoErrorKind::UnknownLine))?;
                entry.line = line_no;
                if keyword == "msgctxt" {
                    entry.context = Some(value);
                    field = Some(Field::Context);
                } else {
                    entry.id = value;
                    field = Some(Field::Id);
                }
            }
            "msgid_plural" => {
                let entry = current
                    .as_mut()
                    .filter(|_| field == Some(Field::Id))
                    .ok_or(err(PoErrorKind::Unexpected("msgid_plural")))?;
                entry.id_plural = Some(value);
                field = Some(Field::IdPlural);
            }
            "msgstr" => {
                let entry = current
                    .as_mut()
                    .filter(|e| {
                        e.id_plural.is_none()
                            && e.translations.is_empty()
                            && field == Some(Field::Id)
                    })
                    .ok_or(err(PoErrorKind::Unexpected("msgstr")))?;
                entry.translations.push(value);
                field = Some(Field::Str(0));
            }
            k if k.starts_with("msgstr[") && k.ends_with(']') => {
                let index: usize = k
                    .strip_prefix("msgstr[")
                    .and_then(|k| k.strip_suffix(']'))
                    .unwrap_or_default()
                    .parse()
                    .map_err(|_| err(PoErrorKind::BadPluralIndex))?;
                let entry = current
                    .as_mut()
                    .filter(|e| e.id_plural.is_some())
                    .ok_or(err(PoErrorKind::Unexpected("msgstr[N]")))?;
                if index != entry.translations.len() {
                    return Err(err(PoErrorKind::BadPluralIndex));
                }
                entry.translations.push(value);
                field = Some(Field::Str(index));
            }
            _ => return Err(err(PoErrorKind::UnknownLine)),
        }
    }
    if let Some(done) = current.take() {
        push_entry(&mut entries, done)?;
    }
    Ok(entries)
}

fn push_entry(entries: &mut Vec<Entry>, entry: Entry) -> Result<(), PoError> {
    if entry.translations.is_empty() {
        return Err(PoError {
            line: entry.line,
            kind: PoErrorKind::MissingTranslation,
        });
    }
    if entry.id.is_empty() {
        return Ok(()); // the header
    }
    if entries
        .iter()
        .any(|e: &Entry| e.id == entry.id && e.context == entry.context)
    {
        return Err(PoError {
            line: entry.line,
            kind: PoErrorKind::Duplicate(entry.id),
        });
    }
    entries.push(entry);
    Ok(())
}

/// `"text"` → text, with C escapes resolved.
fn unquote(s: &str) -> Result<String, PoErrorKind> {
    let inner = s
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .filter(|_| s.len() >= 2)
        .ok_or(PoErrorKind::BadString)?;
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('\\') => out.push('\\'),
                Some('"') => out.push('"'),
                Some(other) => return Err(PoErrorKind::BadEscape(other)),
                None => return Err(PoErrorKind::BadString),
            },
            // An unescaped quote inside means two strings on one line.
            '"' => return Err(PoErrorKind::BadString),
            c => out.push(c),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = r#"
# A translator's comment
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "Your move"
msgstr "Du bist am Zug"

#, fuzzy
msgid "Hint"
msgstr "Tipp"

msgctxt "menu"
msgid "Close"
msgstr "Schließen"

msgid ""
"A long "
"message"
msgstr "Eine lange "
"Nachricht"

msgid "{} move"
msgid_plural "{} moves"
msgstr[0] "{} Zug"
msgstr[1] "{} Züge"

msgid "Quote \" and \\"
msgstr "Zitat \" und \\"
"#;

    #[test]
    fn reads_every_kind_of_entry() {
        let entries = parse(SAMPLE).unwrap();
        assert_eq!(entries.len(), 6);
        assert_eq!(entries[0].id, "Your move");
        assert_eq!(entries[0].translations, ["Du bist am Zug"]);
        assert!(entries[0].is_translated());
        assert!(entries[1].fuzzy && !entries[1].is_translated());
        assert!(!entries[2].fuzzy);
        assert_eq!(entries[2].context.as_deref(), Some("menu"));
        assert_eq!(entries[3].id, "A long message");
        assert_eq!(entries[3].translations, ["Eine lange Nachricht"]);
        assert_eq!(entries[4].id_plural.as_deref(), Some("{} moves"));
        assert_eq!(entries[4].translations, ["{} Zug", "{} Züge"]);
        assert_eq!(entries[5].id, "Quote \" and \\");
    }

    #[test]
    fn untranslated_entries_are_read_but_not_translated() {
        let entries = parse("msgid \"Menu\"\nmsgstr \"\"\n").unwrap();
        assert!(!entries[0].is_translated());
    }

    #[test]
    fn bad_input_is_an_error_with_its_line() {
        let cases: &[(&str, usize, PoErrorKind)] = &[
            ("msgid \"a\"\nmsgstr \"b\nfoo", 2, PoErrorKind::BadString),
            ("msgid \"a\"\nnonsense \"b\"\n", 2, PoErrorKind::UnknownLine),
            ("msgstr \"b\"\n", 1, PoErrorKind::Unexpected("msgstr")),
            ("\"stray\"\n", 1, PoErrorKind::Unexpected("a string")),
            (
                "msgid \"a\"\nmsgstr \"\\q\"\n",
                2,
                PoErrorKind::BadEscape('q'),
            ),
            (
                "msgid \"a\"\n\nmsgid \"b\"\nmsgstr \"c\"\n",
                1,
                PoErrorKind::MissingTranslation,
            ),
            (
                "msgid \"a\"\nmsgstr \"x\"\nmsgid \"a\"\nmsgstr \"y\"\n",
                3,
                PoErrorKind::Duplicate("a".into()),
            ),
            (
                "msgid \"a\"\nmsgid_plural \"b\"\nmsgstr[1] \"c\"\n",
                3,
                PoErrorKind::BadPluralIndex,
            ),
            (
                "msgid \"a\"\nmsgstr[0] \"c\"\n",
                2,
                PoErrorKind::Unexpected("msgstr[N]"),
            ),
            (
                "msgid \"a\" \"b\"\nmsgstr \"c\"\n",
                1,
                PoErrorKind::BadString,
            ),
            ("msgid \"\\\"\nmsgstr \"c\"\n", 1, PoErrorKind::BadString),
            ("msgid\n", 1, PoErrorKind::UnknownLine),
        ];
        for (text, line, kind) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!((e.line, &e.kind), (*line, kind), "{text:?}");
            assert!(!e.to_string().is_empty());
        }
    }

    #[test]
    fn never_panics_on_cut_or_mangled_input() {
        // Every prefix and every one-byte deletion of a valid file.
        for end in (0..SAMPLE.len()).filter(|&i| SAMPLE.is_char_boundary(i)) {
            let _ = parse(&SAMPLE[..end]);
            let mut cut = SAMPLE.to_string();
            if end < cut.len() && cut.is_char_boundary(end + 1) {
                cut.remove(end);
                let _ = parse(&cut);
            }
        }
    }
}
