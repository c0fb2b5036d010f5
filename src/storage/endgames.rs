//! A player's progress in the endgame lessons (Menu → Endgames): per lesson, whether it was
//! ever passed, the fewest moves it was passed in, and the tries. Kept in
//! `<state>/players/<id>/endgames.toml` with a checksum line; a damaged file is set aside and
//! the progress restarts (reported once), as the puzzles do.
//!
//! Lessons are named by their stable id (`chesspi_engine::endgame::lessons`); a record of an
//! id this build does not know (a lesson of a newer version) is kept as it is, unused.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::store::{Sealable, SealedStore, StoreError};

/// The file's name in a player's folder.
pub const ENDGAMES_FILE: &str = "endgames.toml";

/// At most this many lessons are kept (the app has 24): a file with more is refused.
pub const MAX_LESSONS: usize = 256;

/// The longest lesson id kept (characters).
const MAX_ID_CHARS: usize = 32;

/// One lesson's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LessonRecord {
    /// Passed at least once.
    pub passed: bool,
    /// The fewest of the player's moves a pass took (`None` before the first pass).
    pub best_moves: Option<u32>,
    /// Tries that ended, passed or failed.
    pub tries: u32,
}

/// The player's progress, lesson by lesson.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct EndgameProgress {
    lessons: BTreeMap<String, LessonRecord>,
}

impl EndgameProgress {
    /// The record of lesson `id` (the default before its first try).
    pub fn get(&self, id: &str) -> LessonRecord {
        self.lessons.get(id).copied().unwrap_or_default()
    }

    /// A try at lesson `id` ended: counted, and when `passed` the lesson is passed and its
    /// fewest moves kept. False (and no change) for an id no file could keep (empty, longer
    /// than 32 characters), or a new one when [`MAX_LESSONS`] are kept.
    pub fn record(&mut self, id: &str, passed: bool, moves: u32) -> bool {
        let fits = !id.is_empty() && id.chars().count() <= MAX_ID_CHARS;
        if !fits || (!self.lessons.contains_key(id) && self.lessons.len() >= MAX_LESSONS) {
            return false;
        }
        let record = self.lessons.entry(id.to_string()).or_default();
        record.tries = record.tries.saturating_add(1);
        if passed {
            record.passed = true;
            // A pass takes at least one move.
            let moves = moves.max(1);
            record.best_moves = Some(record.best_moves.map_or(moves, |b| b.min(moves)));
        }
        true
    }

    /// How many of `ids` are passed.
    pub fn passed_of<'a>(&self, ids: impl IntoIterator<Item = &'a str>) -> usize {
        ids.into_iter().filter(|id| self.get(id).passed).count()
    }
}

/// A value in an endgames file is impossible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadEndgames {
    /// What is wrong, naming the lesson.
    pub message: String,
}

impl fmt::Display for BadEndgames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the endgames file has {}", self.message)
    }
}

/// Why an endgames file was refused.
pub type EndgamesError = StoreError<EndgameProgress>;

/// Reads and writes `endgames.toml` in a player's folder.
pub type EndgamesStore = SealedStore<EndgameProgress>;

/// The TOML shape of `endgames.toml`; opaque, public only as [`Sealable::Raw`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawProgress {
    format: String,
    version: u32,
    #[serde(default)]
    lessons: Vec<RawLesson>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLesson {
    id: String,
    passed: bool,
    /// 0: not passed yet.
    best_moves: u32,
    tries: u32,
}

impl Sealable for EndgameProgress {
    const FILE: &'static str = ENDGAMES_FILE;
    const FORMAT: &'static str = "chesspi-endgames";
    const VERSION: u32 = 1;
    const HEADER: &'static str = "# ChessPI endgame lessons. Do not edit.";
    const NOUN: &'static str = "the endgame lessons";
    type Raw = RawProgress;
    type Invalid = BadEndgames;

    fn to_raw(&self) -> RawProgress {
        RawProgress {
            format: Self::FORMAT.to_string(),
            version: Self::VERSION,
            lessons: self
                .lessons
                .iter()
                .map(|(id, r)| RawLesson {
                    id: id.clone(),
                    passed: r.passed,
                    best_moves: r.best_moves.unwrap_or(0),
                    tries: r.tries,
                })
                .collect(),
        }
    }

    fn format_of(raw: &RawProgress) -> (&str, u32) {
        (&raw.format, raw.version)
    }

    fn from_raw(raw: RawProgress) -> Result<EndgameProgress, BadEndgames> {
        let bad = |message: String| BadEndgames { message };
        if raw.lessons.len() > MAX_LESSONS {
            let n = raw.lessons.len();
            return Err(bad(format!("{n} lessons, more than {MAX_LESSONS}")));
        }
        let mut lessons = BTreeMap::new();
        for r in raw.lessons {
            let id = r.id;
            if id.is_empty() || id.chars().count() > MAX_ID_CHARS {
                return Err(bad(format!("a bad lesson id {id:?}")));
            }
            // A pass is a try, and has its move count; no count without a pass.
            if r.passed && (r.tries == 0 || r.best_moves == 0) {
                return Err(bad(format!("lesson {id} passed without a try or a count")));
            }
            if !r.passed && r.best_moves != 0 {
                return Err(bad(format!("lesson {id} has a count but no pass")));
            }
            let record = LessonRecord {
                passed: r.passed,
                best_moves: (r.best_moves > 0).then_some(r.best_moves),
                tries: r.tries,
            };
            if lessons.insert(id.clone(), record).is_some() {
                return Err(bad(format!("lesson {id} twice")));
            }
        }
        Ok(EndgameProgress { lessons })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::sealed::{seal, unseal};
    use crate::storage::store::{decode, encode};

    fn progress() -> EndgameProgress {
        let mut p = EndgameProgress::default();
        assert!(p.record("krk-1", false, 0));
        assert!(p.record("krk-1", true, 12));
        assert!(p.record("krk-1", true, 10));
        assert!(p.record("krk-1", true, 14));
        assert!(p.record("kpk-2", false, 3));
        p
    }

    #[test]
    fn tries_passes_and_the_fewest_moves_are_kept() {
        let p = progress();
        assert_eq!(
            p.get("krk-1"),
            LessonRecord {
                passed: true,
                best_moves: Some(10),
                tries: 4
            }
        );
        assert_eq!(
            p.get("kpk-2"),
            LessonRecord {
                passed: false,
                best_moves: None,
                tries: 1
            }
        );
        assert_eq!(p.get("qp-1"), LessonRecord::default());
        assert_eq!(p.passed_of(["krk-1", "kpk-2", "qp-1"]), 1);
        let mut p = p;
        assert!(!p.record("", true, 1));
        assert!(!p.record(&"x".repeat(33), true, 1));
    }

    #[test]
    fn round_trips_through_the_store() {
        let p = progress();
        assert_eq!(
            decode::<EndgameProgress>(encode(&p).as_bytes()).expect("decode"),
            p
        );
        let dir = tempfile::tempdir().expect("dir");
        let store = EndgamesStore::new(dir.path());
        let empty = store.load();
        assert!(empty.recovered.is_none());
        assert_eq!(empty.value, EndgameProgress::default());
        store.save(&p).expect("save");
        let loaded = store.load();
        assert!(loaded.recovered.is_none());
        assert_eq!(loaded.value, p);
        assert!(dir.path().join(ENDGAMES_FILE).exists());
    }

    #[test]
    fn impossible_values_are_refused() {
        let sealed = encode(&progress());
        let body = unseal(&sealed).expect("sealed");
        let edit = |from: &str, to: &str| seal(&body.replace(from, to));
        for (text, why) in [
            (edit("best_moves = 10", "best_moves = 0"), "passed without"),
            (edit("tries = 1", "tries = 1\nextra = 2"), "unknown field"),
            (edit("\"kpk-2\"", "\"krk-1\""), "twice"),
            (edit("\"kpk-2\"", "\"\""), "bad lesson id"),
            (edit("version = 1", "version = 9"), "version 9"),
        ] {
            let err = decode::<EndgameProgress>(text.as_bytes()).expect_err(why);
            assert!(err.to_string().contains(why), "{why}: {err}");
        }
    }
}
