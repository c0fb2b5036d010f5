//! The docs name files that exist: every path in backticks with a folder and a source or
//! config extension in the README and the docs is found in the repository (written from the
//! root, or from `src/`, `src/app/`, `src/app/screens/`, `engine/` or `engine/src/`, as the
//! docs shorten them). Paths on the device (`/etc/…`) and under `target/` are not the repo's.

use std::path::Path;

const DOCS: [&str; 6] = [
    "README.md",
    "docs/UI.md",
    "docs/ARCHITECTURE.md",
    "docs/BENCHMARKS.md",
    "docs/benchmarks/history.md",
    "docs/PROTOCOL.md",
];

const ROOTS: [&str; 6] = [
    "",
    "src/",
    "src/app/",
    "src/app/screens/",
    "engine/",
    "engine/src/",
];

const EXTENSIONS: [&str; 9] = [
    ".rs", ".slint", ".md", ".toml", ".py", ".po", ".tsv", ".rules", ".service",
];

/// The paths in backticks of `text` that look like the repository's files.
fn named_paths(text: &str) -> Vec<&str> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|t| {
            t.contains('/')
                && !t.starts_with('/')
                && !t.starts_with("target/")
                && t.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "._/-".contains(c))
                && EXTENSIONS.iter().any(|e| t.ends_with(e))
        })
        .collect()
}

#[test]
fn every_file_the_docs_name_exists() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missing = Vec::new();
    for doc in DOCS {
        let Ok(text) = std::fs::read_to_string(repo.join(doc)) else {
            continue;
        };
        for path in named_paths(&text) {
            if !ROOTS
                .iter()
                .any(|r| repo.join(format!("{r}{path}")).exists())
            {
                missing.push(format!("{doc}: {path}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the docs name files that do not exist:\n{}",
        missing.join("\n")
    );
}

#[test]
fn paths_are_read_from_backticks_only() {
    let text = "see `src/app/mod.rs` and `ui/app.slint`, not src/x.rs, nor `/etc/a.conf` or \
                `target/x.rs`, nor `cargo test --lib`";
    assert_eq!(named_paths(text), ["src/app/mod.rs", "ui/app.slint"]);
}
