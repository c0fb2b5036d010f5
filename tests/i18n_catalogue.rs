//! Every message a user can see has its German: the messages are collected from the sources
//! (`tr!`/`trn!` in Rust, `@tr` in Slint) and looked up in the German catalogue, which must have
//! each of them translated, with the same placeholders, and nothing no source uses.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use chesspi::i18n::po;

const CATALOGUE: &str = "translations/de/LC_MESSAGES/chesspi.po";

/// A message found in a source file.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Message {
    id: String,
    plural: Option<String>,
}

fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("source folder") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

/// Reads a string literal at the start of `s` (after spaces): its value and the rest.
/// Handles the escapes both Rust and Slint use in messages, and Rust's `\` line continuation.
fn literal(s: &str) -> Option<(String, &str)> {
    let s = s.trim_start();
    let body = s.strip_prefix('"')?;
    let mut out = String::new();
    let mut chars = body.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Some((out, &body[i + 1..])),
            '\\' => match chars.next()?.1 {
                'n' => out.push('\n'),
                '"' => out.push('"'),
                '\\' => out.push('\\'),
                '\n' => {
                    // Rust: a backslash at the end of a line drops the next line's indent.
                    let rest = &body[i + 2..];
                    let skip = rest.len() - rest.trim_start().len();
                    for _ in 0..rest[..skip].chars().count() {
                        chars.next();
                    }
                }
                other => panic!("unexpected escape \\{other} in a message: {s:.60}"),
            },
            c => out.push(c),
        }
    }
    None
}

/// The messages of one source text: `tr!(` / `trn!(` in Rust, `@tr(` in Slint.
fn messages_in(text: &str, slint: bool, file: &Path, out: &mut BTreeMap<Message, String>) {
    let markers: &[&str] = if slint { &["@tr("] } else { &["tr!(", "trn!("] };
    for marker in markers {
        for (at, _) in text.match_indices(marker) {
            // Another macro whose name ends in `tr` (`attr!(`) is not ours.
            if at > 0 && text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let line = text[..at].matches('\n').count() + 1;
            let place = format!("{}:{line}", file.display());
            let after = &text[at + marker.len()..];
            let (id, rest) = literal(after)
                .unwrap_or_else(|| panic!("{place}: {marker} must start with a string literal"));
            let plural = if *marker == "trn!(" {
                let rest = rest
                    .trim_start()
                    .strip_prefix(',')
                    .expect("trn!(singular, plural, n)");
                Some(
                    literal(rest)
                        .unwrap_or_else(|| panic!("{place}: trn! needs two literals"))
                        .0,
                )
            } else if slint {
                let rest = rest.trim_start();
                assert!(
                    !rest.starts_with("=>"),
                    "{place}: the catalogue has no contexts: write @tr(\"message\") only"
                );
                rest.strip_prefix('|').map(|r| {
                    literal(r)
                        .unwrap_or_else(|| panic!("{place}: @tr plural needs a literal"))
                        .0
                })
            } else {
                None
            };
            out.entry(Message { id, plural }).or_insert(place);
        }
    }
}

/// The placeholders of a message, as a sorted list (`{}` counted, `{0}` by name).
fn placeholders(s: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = s.replace("{{", "").replace("}}", "");
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        found.push(rest[open..open + close + 1].to_string());
        rest = rest[open + close + 1..].to_string();
    }
    found.sort();
    found
}

fn source_messages() -> BTreeMap<Message, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = BTreeMap::new();
    let mut rust = Vec::new();
    files(&root.join("src"), "rs", &mut rust);
    for file in rust {
        // The macros' own definitions and docs are not messages.
        if file.ends_with("i18n/mod.rs") {
            continue;
        }
        let text = fs::read_to_string(&file).expect("read source");
        messages_in(&text, false, &file, &mut out);
    }
    let mut slint = Vec::new();
    files(&root.join("ui"), "slint", &mut slint);
    for file in slint {
        let text = fs::read_to_string(&file).expect("read source");
        messages_in(&text, true, &file, &mut out);
    }
    out
}

#[test]
fn every_message_has_its_german() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = fs::read_to_string(root.join(CATALOGUE)).expect("the German catalogue");
    let entries = po::parse(&text).unwrap_or_else(|e| panic!("{CATALOGUE}: {e}"));
    let messages = source_messages();
    assert!(
        messages.len() > 100,
        "found only {} messages",
        messages.len()
    );

    let mut problems = Vec::new();
    for (message, place) in &messages {
        let Some(entry) = entries.iter().find(|e| e.id == message.id) else {
            problems.push(format!("{place}: {:?} is not in {CATALOGUE}", message.id));
            continue;
        };
        if entry.context.is_some() {
            problems.push(format!("{CATALOGUE}:{}: no msgctxt, please", entry.line));
        }
        if entry.id_plural != message.plural {
            problems.push(format!(
                "{CATALOGUE}:{}: {:?} plural form differs from {place}",
                entry.line, message.id
            ));
            continue;
        }
        if !entry.is_translated() {
            problems.push(format!(
                "{CATALOGUE}:{}: {:?} has no German",
                entry.line, message.id
            ));
            continue;
        }
        let expected = placeholders(&message.id);
        for t in &entry.translations {
            if placeholders(t) != expected {
                problems.push(format!(
                    "{CATALOGUE}:{}: {t:?} must use the placeholders {expected:?}",
                    entry.line
                ));
            }
        }
    }
    let used: BTreeSet<&str> = messages.keys().map(|m| m.id.as_str()).collect();
    for entry in &entries {
        if !used.contains(entry.id.as_str()) {
            problems.push(format!(
                "{CATALOGUE}:{}: {:?} is used nowhere: remove it",
                entry.line, entry.id
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

#[test]
fn the_collector_finds_what_it_should() {
    let mut out = BTreeMap::new();
    let rust = "let a = tr!(\"Your move\"); let b = trn!(\"{} move\", \"{} moves\", n);\n\
                let c = tr!(\n  \"Long \\\n   text {}\", x); let d = attr!(\"no\");";
    messages_in(rust, false, Path::new("x.rs"), &mut out);
    let slint = "text: @tr(\"New game\"); t: @tr(\"{n} game\" | \"{n} games\" % n);";
    messages_in(slint, true, Path::new("x.slint"), &mut out);
    let ids: Vec<(&str, Option<&str>)> = out
        .keys()
        .map(|m| (m.id.as_str(), m.plural.as_deref()))
        .collect();
    assert_eq!(
        ids,
        [
            ("Long text {}", None),
            ("New game", None),
            ("Your move", None),
            ("{n} game", Some("{n} games")),
            ("{} move", Some("{} moves")),
        ]
    );
    assert_eq!(placeholders("{} of {1} {{x}}"), ["{1}", "{}"]);
}
