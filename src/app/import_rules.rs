//! docs/ARCHITECTURE.md's rules on imports, checked against the source: every path a file
//! names (its `use` lines, and paths written out in code) is resolved through the `pub use`
//! re-exports to the file that defines it, and three rules are held against that:
//! - **layers**: `boot → shell → workers → saving → screens → session → model`, and `notices`
//!   under the screens (`saving` reads only `screens/mod.rs`); nothing outside `app/` uses `app/` (but
//!   `cli.rs`, which parses into `app::boot::options`);
//! - **screens**: a screen's folder uses its parent (`screens/mod.rs` and `screens/go.rs`), the shared
//!   `board_view.rs`, `board_input.rs`, `words.rs`, `dialog.rs` and `keyboard.rs`, never another screen's
//!   files;
//! - **circles**: no two files of one folder use each other, directly or round a loop.
//!
//! Test code (files named `tests.rs`, and what follows `#[cfg(test)]`) is not held to them: a
//! test may drive the whole app.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module: its path from the crate root (`["app", "screens", "play", "board"]`).
type ModPath = Vec<String>;

/// A source file of the crate: where it is, and what it says.
struct Source {
    module: ModPath,
    /// `mod.rs` (or `lib.rs`): the module is the folder.
    is_folder: bool,
    /// The code, without comments and without test code.
    code: String,
}

/// Reads every `.rs` file under `src/`.
fn sources(root: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && let Some(source) = source(root, &path)
            {
                out.push(source);
            }
        }
    }
    out
}

fn source(root: &Path, path: &PathBuf) -> Option<Source> {
    let rel = path.strip_prefix(root).ok()?;
    let mut module: ModPath = rel
        .iter()
        .map(|part| part.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    let last = module.pop()?;
    if last == "tests" || last == "main" || last == "build" {
        return None;
    }
    let is_folder = last == "mod" || last == "lib";
    if !is_folder {
        module.push(last);
    }
    let text = std::fs::read_to_string(path).ok()?;
    Some(Source {
        module,
        is_folder,
        code: without_tests(&without_comments(&text)),
    })
}

fn without_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => line.get(..at).unwrap_or(line),
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Drops test code: a `#[cfg(test)] mod x { … }` block (tests sit at the end of a file, so
/// the rest of the file goes) and the item after any other `#[cfg(test)]`.
fn without_tests(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(rest.get(..at).unwrap_or(""));
        let after = rest.get(at + "#[cfg(test)]".len()..).unwrap_or("");
        let item_end = after.find([';', '{']).unwrap_or(after.len());
        if after.get(item_end..).is_some_and(|s| s.starts_with('{')) {
            return out;
        }
        rest = after.get(item_end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// Expands a use tree (`a::{b, c::{d, e as f}, self}`) into its paths.
fn expand(tree: &str) -> Vec<String> {
    let tree = without_renames(tree);
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let mut out = Vec::new();
    expand_into("", &tree, &mut out);
    out
}

fn expand_into(prefix: &str, tree: &str, out: &mut Vec<String>) {
    match tree.find('{') {
        None => {
            let path = if tree == "self" {
                prefix.trim_end_matches("::").to_string()
            } else {
                format!("{prefix}{tree}")
            };
            if !path.is_empty() {
                out.push(path);
            }
        }
        Some(open) => {
            let head = tree.get(..open).unwrap_or("");
            let inner = tree
                .get(open + 1..tree.len().saturating_sub(1))
                .unwrap_or("");
            for part in split_top(inner) {
                expand_into(&format!("{prefix}{head}"), part, out);
            }
        }
    }
}

/// Drops the `as name` of renamed imports: what is imported is the original.
fn without_renames(tree: &str) -> String {
    let mut out = String::new();
    let mut words = tree.split_whitespace().peekable();
    while let Some(word) = words.next() {
        if word == "as" {
            // The new name, and what ends it (`,` or `}`), which is kept.
            if let Some(name) = words.next() {
                out.extend(name.chars().filter(|c| matches!(c, ',' | '}')));
            }
        } else {
            out.push_str(word);
            out.push(' ');
        }
    }
    out
}

/// Splits at the commas outside braces.
fn split_top(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.extend(s.get(start..i).filter(|p| !p.is_empty()));
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.extend(s.get(start..).filter(|p| !p.is_empty()));
    parts
}

/// The use statements of a file: (re-exported with `pub`, path).
fn uses(code: &str) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = find_word(rest, "use ") {
        let before = rest.get(..at).unwrap_or("");
        let public = before.trim_end().ends_with("pub")
            || before.trim_end().ends_with("pub(crate)")
            || before.trim_end().ends_with("pub(super)");
        let after = rest.get(at + 4..).unwrap_or("");
        let end = after.find(';').unwrap_or(after.len());
        for path in expand(after.get(..end).unwrap_or("")) {
            out.push((public, path));
        }
        rest = after.get(end..).unwrap_or("");
    }
    out
}

/// `word` where it starts a token.
fn find_word(s: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = s.get(from..)?.find(word) {
        let at = from + i;
        let prev = s.get(..at)?.chars().next_back();
        if prev.is_none_or(|c| !(c.is_alphanumeric() || c == '_')) {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// Paths written out in code (`crate::app::screens::coach::view::coach_language()`).
fn inline_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = code.get(from..).and_then(|s| find_word(s, start)) {
            let at = from + at;
            let path: String = code
                .get(at..)
                .unwrap_or("")
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            from = at + path.len().max(1);
            out.push(path.trim_end_matches(':').to_string());
        }
    }
    out
}

/// All modules, and the re-exports of each: (module, name) → the path it stands for.
struct Crate {
    modules: BTreeMap<ModPath, bool>,
    reexports: BTreeMap<(ModPath, String), ModPath>,
}

impl Crate {
    /// A path as written in `module` → absolute segments, or `None` for another crate.
    fn absolute(&self, module: &ModPath, is_folder: bool, path: &str) -> Option<ModPath> {
        let segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        let (first, rest) = segments.split_first()?;
        let mut base: ModPath = match *first {
            "crate" => Vec::new(),
            "self" => module.clone(),
            "super" => {
                let mut m = module.clone();
                m.pop();
                m
            }
            child => {
                let mut m = module.clone();
                m.push(child.to_string());
                if !is_folder || !self.modules.contains_key(&m) {
                    return None;
                }
                m.pop();
                m.push(child.to_string());
                return Some(
                    m.into_iter()
                        .chain(rest.iter().map(|s| s.to_string()))
                        .collect(),
                );
            }
        };
        let mut rest = rest;
        while let Some((&"super", more)) = rest.split_first() {
            base.pop();
            rest = more;
        }
        base.extend(rest.iter().map(|s| s.to_string()));
        Some(base)
    }

    /// The module (file) that defines what `path` names, following re-exports.
    fn defining(&self, path: &ModPath) -> Option<ModPath> {
        let mut path = path.clone();
        for _ in 0..8 {
            let module = (0..=path.len())
                .rev()
                .map(|n| path.get(..n).unwrap_or(&[]).to_vec())
                .find(|m| self.modules.contains_key(m))?;
            let Some(item) = path.get(module.len()) else {
                return Some(module);
            };
            match self.reexports.get(&(module.clone(), item.clone())) {
                Some(target) => {
                    let mut next = target.clone();
                    next.extend(path.get(module.len() + 1..).unwrap_or(&[]).iter().cloned());
                    path = next;
                }
                None => return Some(module),
            }
        }
        None
    }
}

/// Every file → the files it uses (by module path).
fn dependencies(sources: &[Source]) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
    let mut krate = Crate {
        modules: sources
            .iter()
            .map(|s| (s.module.clone(), s.is_folder))
            .collect(),
        reexports: BTreeMap::new(),
    };
    for s in sources {
        for (public, path) in uses(&s.code) {
            let name = path.rsplit("::").next().unwrap_or("").to_string();
            if !public || name == "*" {
                continue;
            }
            if let Some(target) = krate.absolute(&s.module, s.is_folder, &path) {
                krate.reexports.insert((s.module.clone(), name), target);
            }
        }
    }
    let mut deps: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
    for s in sources {
        let mut used = BTreeSet::new();
        let paths = uses(&s.code)
            .into_iter()
            .map(|(_, p)| p)
            .chain(inline_paths(&s.code));
        let from = part_of(&s.module);
        for path in paths {
            let Some(abs) = krate.absolute(&s.module, s.is_folder, &path) else {
                continue;
            };
            if let Some(file) = krate.defining(&abs).map(|f| part_of(&f))
                && file != from
                && !from.starts_with(&file)
            {
                used.insert(file);
            }
        }
        deps.entry(from).or_default().extend(used);
    }
    deps
}

/// Files that are part of their folder's `mod.rs`, split off for length: the controller's
/// navigation (`screens/go.rs`) is the screens' parent as much as `screens/mod.rs` is.
const PARENT_FILES: [&[&str]; 1] = [&["app", "screens", "go"]];

/// The module a file counts as: its folder for the [`PARENT_FILES`], else itself.
fn part_of(module: &ModPath) -> ModPath {
    if PARENT_FILES.iter().any(|p| module == p) {
        module[..module.len() - 1].to_vec()
    } else {
        module.clone()
    }
}

/// The layer a module of the app is in, by its folder.
fn layer(module: &ModPath) -> Option<&str> {
    match module.as_slice() {
        [app, layer, ..] if app == "app" => Some(layer.as_str()),
        _ => None,
    }
}

fn may_use(from: &str, to: &str) -> bool {
    let below: &[&str] = match from {
        "boot" => &[
            "shell", "workers", "saving", "screens", "session", "notices", "model",
        ],
        "shell" => &[
            "workers", "saving", "screens", "session", "notices", "model",
        ],
        "workers" => &["screens", "session", "notices", "model"],
        "saving" => &["screens", "session", "notices", "model"],
        "screens" => &["session", "notices", "model"],
        "session" => &["model"],
        _ => &[],
    };
    from == to || below.contains(&to)
}

/// The screen folder a module of `screens/` belongs to (none for the parent and the shared
/// files).
fn screen_folder(module: &ModPath) -> Option<&str> {
    match module.as_slice() {
        [app, screens, folder, _, ..] if app == "app" && screens == "screens" => {
            Some(folder.as_str())
        }
        [app, screens, folder] if app == "app" && screens == "screens" => match folder.as_str() {
            "board_view" | "board_input" | "words" | "dialog" | "keyboard" => None,
            f => Some(f),
        },
        _ => None,
    }
}

fn name(module: &ModPath) -> String {
    module.join("/")
}

/// What breaks the rules, one line each.
fn violations(deps: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (from, used) in deps {
        for to in used {
            let line = format!("{} -> {}", name(from), name(to));
            match (layer(from), layer(to)) {
                (Some(a), Some(b)) if !may_use(a, b) => {
                    out.insert(format!("layer: {line}"));
                }
                // The saver reads the controller, not a screen's inside.
                (Some("saving"), Some("screens")) if name(to) != "app/screens" => {
                    out.insert(format!("layer: {line}"));
                }
                (None, Some(_)) if name(from) != "cli" && name(from) != "app" => {
                    out.insert(format!("layer: {line}"));
                }
                _ => {}
            }
            if let (Some(a), Some(b)) = (screen_folder(from), screen_folder(to))
                && a != b
            {
                out.insert(format!("screens: {line}"));
            }
        }
    }
    for circle in circles(deps) {
        out.insert(format!("circle: {}", circle.join(" <-> ")));
    }
    out
}

/// Loops among the files of one folder (a folder's `mod.rs` and its files are parent and
/// children, not siblings).
fn circles(deps: &BTreeMap<ModPath, BTreeSet<ModPath>>) -> Vec<Vec<String>> {
    let folder_of = |m: &ModPath| m.get(..m.len().saturating_sub(1)).map(<[String]>::to_vec);
    let siblings = |m: &ModPath| -> Vec<&ModPath> {
        deps.get(m)
            .into_iter()
            .flatten()
            .filter(|t| folder_of(t) == folder_of(m) && deps.contains_key(*t))
            .collect()
    };
    let mut found = BTreeSet::new();
    for start in deps.keys() {
        // Files reachable from `start` through siblings; a loop is a way back to it.
        let mut seen = BTreeSet::new();
        let mut stack = siblings(start);
        while let Some(m) = stack.pop() {
            if m == start {
                let mut members: Vec<String> = seen.iter().map(|m: &&ModPath| name(m)).collect();
                members.push(name(start));
                members.sort();
                members.dedup();
                found.insert(members);
                break;
            }
            if seen.insert(m) {
                stack.extend(siblings(m));
            }
        }
    }
    found.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app_violations() -> BTreeSet<String> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        violations(&dependencies(&sources(&root)))
    }

    #[test]
    fn use_trees_expand_to_their_paths() {
        assert_eq!(
            expand("crate::app::{screens::{Dialog, play::board::{self, Press}}, model}"),
            [
                "crate::app::screens::Dialog",
                "crate::app::screens::play::board",
                "crate::app::screens::play::board::Press",
                "crate::app::model"
            ]
        );
        assert_eq!(expand("super::Tool as T"), ["super::Tool"]);
    }

    #[test]
    fn a_re_export_is_followed_to_the_file_that_defines_it() {
        let code = |s: &str| s.to_string();
        let sources = vec![
            Source {
                module: vec!["app".into(), "screens".into()],
                is_folder: true,
                code: code("pub mod dialogs; pub mod play; pub use dialogs::Dialog;"),
            },
            Source {
                module: vec!["app".into(), "screens".into(), "dialogs".into()],
                is_folder: true,
                code: code("pub enum Dialog {}"),
            },
            Source {
                module: vec!["app".into(), "screens".into(), "play".into()],
                is_folder: true,
                code: code("use crate::app::screens::Dialog;"),
            },
        ];
        let found = violations(&dependencies(&sources));
        assert_eq!(
            found.into_iter().collect::<Vec<_>>(),
            ["screens: app/screens/play -> app/screens/dialogs"]
        );
    }

    #[test]
    fn a_loop_between_two_files_of_a_folder_is_a_circle() {
        let m = |s: &str| -> ModPath { s.split('/').map(String::from).collect() };
        let deps = BTreeMap::from([
            (
                m("app/screens/network/lobby"),
                BTreeSet::from([m("app/screens/network/hotspot")]),
            ),
            (
                m("app/screens/network/hotspot"),
                BTreeSet::from([m("app/screens/network/lobby")]),
            ),
            (
                m("app/screens/network/clock"),
                BTreeSet::from([m("app/screens/network/lobby")]),
            ),
        ]);
        assert_eq!(
            circles(&deps),
            [vec![
                "app/screens/network/hotspot",
                "app/screens/network/lobby"
            ]]
        );
    }

    #[test]
    fn the_app_keeps_the_import_rules() {
        let found = app_violations();
        assert!(
            found.is_empty(),
            "{} import(s) break docs/ARCHITECTURE.md's rules:\n{}",
            found.len(),
            found.into_iter().collect::<Vec<_>>().join("\n")
        );
    }
}
