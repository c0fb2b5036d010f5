//! The player's opening cards: each named line drilled on the Openings screen is a card,
//! keyed by its [`LineId`] (a hash of its moves, so a card keeps its schedule when a newer
//! data set renames the line), brought back by the same Leitner schedule as Train's puzzles
//! ([`super::leitner`]): a line passed comes back days later, a line missed in minutes.
//!
//! Stored in `<state>/players/<id>/openings.toml` with a checksum line; a damaged file is set
//! aside and the cards restart (reported once), as the puzzles do. A guest's cards live in
//! the saver's memory only, until another player comes to the device.

use std::collections::BTreeMap;
use std::fmt;

use chesspi_engine::openings::lines::LineId;
use serde::{Deserialize, Serialize};

use super::leitner::{self, LAST_BOX};
use super::store::{Sealable, SealedStore, StoreError};

/// The opening cards file's name in a player's folder.
pub const OPENINGS_FILE: &str = "openings.toml";

/// At most this many cards are read from a file (the data has 3 807 lines; lines dropped by
/// a newer data set keep their cards, should they come back).
pub const MAX_CARDS: usize = 10_000;

/// One line's schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Card {
    /// Leitner box, `0..=LAST_BOX`.
    pub box_index: u8,
    /// When it is due again, seconds since the epoch.
    pub due_unix: u64,
    /// Tries at the line.
    pub tries: u32,
    /// Tries played to the line's end without a miss.
    pub passed: u32,
}

impl Card {
    /// Learnt: its last try passed (a miss puts it back in box 0).
    pub fn is_learnt(&self) -> bool {
        self.box_index > 0
    }

    /// Due at `now_unix`.
    pub fn is_due(&self, now_unix: u64) -> bool {
        self.due_unix <= now_unix
    }
}

/// How far a player has come with some lines (an opening's), as the chooser shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CardProgress {
    /// The lines.
    pub lines: usize,
    /// Lines tried at least once (they have a card).
    pub seen: usize,
    /// Lines whose last try passed.
    pub learnt: usize,
    /// Lines tried before and due again now.
    pub due: usize,
}

/// The player's opening cards.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OpeningCards {
    cards: BTreeMap<LineId, Card>,
}

impl OpeningCards {
    /// No cards.
    pub fn new() -> OpeningCards {
        OpeningCards::default()
    }

    /// The card of `line`, once it was tried.
    pub fn get(&self, line: LineId) -> Option<&Card> {
        self.cards.get(&line)
    }

    /// How many lines have a card.
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    /// No line tried yet.
    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// One try at `line` (its card made on the first): passed, it moves up a box and comes
    /// back days later; missed, back to box 0 and due again minutes later
    /// ([`leitner::after_try`]).
    pub fn record(&mut self, line: LineId, passed: bool, now_unix: u64) {
        let card = self.cards.entry(line).or_insert(Card {
            box_index: 0,
            due_unix: now_unix,
            tries: 0,
            passed: 0,
        });
        (card.box_index, card.due_unix) = leitner::after_try(card.box_index, passed, now_unix);
        card.tries = card.tries.saturating_add(1);
        if passed {
            card.passed = card.passed.saturating_add(1);
        }
    }

    /// The progress over `lines` at `now_unix`.
    pub fn progress(&self, lines: impl IntoIterator<Item = LineId>, now_unix: u64) -> CardProgress {
        let mut progress = CardProgress::default();
        for line in lines {
            progress.lines += 1;
            if let Some(card) = self.cards.get(&line) {
                progress.seen += 1;
                progress.learnt += usize::from(card.is_learnt());
                progress.due += usize::from(card.is_due(now_unix));
            }
        }
        progress
    }
}

/// A value in an opening cards file is impossible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadCards {
    /// The field, e.g. `"line"` or `"box"`.
    pub key: &'static str,
    /// What is wrong, naming the card.
    pub message: String,
}

impl fmt::Display for BadCards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the opening cards file has a bad {}: {}",
            self.key, self.message
        )
    }
}

/// Why an opening cards file was refused.
pub type OpeningsError = StoreError<OpeningCards>;

/// Reads and writes `openings.toml` in a player's folder.
pub type OpeningStore = SealedStore<OpeningCards>;

/// The TOML shape of `openings.toml`; opaque, public only as [`Sealable::Raw`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCards {
    format: String,
    version: u32,
    #[serde(default)]
    cards: Vec<RawCard>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCard {
    line: String,
    #[serde(rename = "box")]
    box_index: u8,
    due: u64,
    tries: u32,
    passed: u32,
}

impl Sealable for OpeningCards {
    const FILE: &'static str = OPENINGS_FILE;
    const FORMAT: &'static str = "chesspi-openings";
    const VERSION: u32 = 1;
    const HEADER: &'static str = "# ChessPI opening cards. Do not edit.";
    const NOUN: &'static str = "the opening cards";
    type Raw = RawCards;
    type Invalid = BadCards;

    fn to_raw(&self) -> RawCards {
        RawCards {
            format: Self::FORMAT.to_string(),
            version: Self::VERSION,
            cards: self
                .cards
                .iter()
                .map(|(line, c)| RawCard {
                    line: line.to_string(),
                    box_index: c.box_index,
                    // TOML integers are signed 64-bit; no real date comes near the limit.
                    due: c.due_unix.min(i64::MAX.unsigned_abs()),
                    tries: c.tries,
                    passed: c.passed,
                })
                .collect(),
        }
    }

    fn format_of(raw: &RawCards) -> (&str, u32) {
        (&raw.format, raw.version)
    }

    fn from_raw(raw: RawCards) -> Result<OpeningCards, BadCards> {
        let bad = |key, message| BadCards { key, message };
        if raw.cards.len() > MAX_CARDS {
            let n = raw.cards.len();
            return Err(bad("cards", format!("{n}, more than {MAX_CARDS}")));
        }
        let mut cards = BTreeMap::new();
        for (i, r) in raw.cards.into_iter().enumerate() {
            let n = i + 1;
            let line: LineId = r
                .line
                .parse()
                .map_err(|e| bad("line", format!("card {n}: {e}")))?;
            if r.box_index > LAST_BOX {
                let m = format!("card {n}: {}, beyond the last ({LAST_BOX})", r.box_index);
                return Err(bad("box", m));
            }
            if r.passed > r.tries {
                let m = format!("card {n}: {} of {} tries", r.passed, r.tries);
                return Err(bad("passed", m));
            }
            let card = Card {
                box_index: r.box_index,
                due_unix: r.due,
                tries: r.tries,
                passed: r.passed,
            };
            if cards.insert(line, card).is_some() {
                return Err(bad("line", format!("card {n}: {line} twice")));
            }
        }
        Ok(OpeningCards { cards })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::leitner::{INTERVAL_DAYS, RETRY_SECONDS};
    use crate::storage::sealed::seal;
    use crate::storage::store::{decode, encode};

    const NOW: u64 = 1_700_000_000;
    const DAY: u64 = 86_400;

    fn id(n: u64) -> LineId {
        format!("{n:016x}").parse().expect("an id")
    }

    #[test]
    fn a_miss_comes_back_sooner_than_a_pass() {
        let mut cards = OpeningCards::new();
        cards.record(id(1), true, NOW);
        cards.record(id(2), false, NOW);
        let (pass, miss) = (cards.get(id(1)).unwrap(), cards.get(id(2)).unwrap());
        assert_eq!((pass.box_index, pass.due_unix), (1, NOW + DAY));
        assert_eq!((miss.box_index, miss.due_unix), (0, NOW + RETRY_SECONDS));
        assert!(miss.due_unix < pass.due_unix);
        assert_eq!(
            (pass.tries, pass.passed, miss.tries, miss.passed),
            (1, 1, 1, 0)
        );
    }

    /// The boxes move as Train's puzzles do: up one per pass to the last, back to 0 on a miss.
    #[test]
    fn boxes_move_as_trains() {
        let mut cards = OpeningCards::new();
        let mut now = NOW;
        for (i, days) in INTERVAL_DAYS.iter().chain(&[90]).enumerate() {
            cards.record(id(7), true, now);
            let card = cards.get(id(7)).unwrap();
            assert_eq!(
                usize::from(card.box_index),
                (i + 1).min(INTERVAL_DAYS.len())
            );
            assert_eq!(card.due_unix, now + days * DAY);
            now = card.due_unix;
        }
        cards.record(id(7), false, now);
        let card = cards.get(id(7)).unwrap();
        assert_eq!((card.box_index, card.due_unix), (0, now + RETRY_SECONDS));
        assert_eq!((card.tries, card.passed), (8, 7));
    }

    #[test]
    fn progress_counts_seen_learnt_and_due() {
        let mut cards = OpeningCards::new();
        cards.record(id(1), true, NOW);
        cards.record(id(2), false, NOW);
        cards.record(id(9), true, NOW); // not among the lines asked about
        let lines = [id(1), id(2), id(3)];
        assert_eq!(
            cards.progress(lines, NOW),
            CardProgress {
                lines: 3,
                seen: 2,
                learnt: 1,
                due: 0
            }
        );
        assert_eq!(cards.progress(lines, NOW + RETRY_SECONDS).due, 1);
        assert_eq!(cards.progress(lines, NOW + DAY).due, 2);
    }

    #[test]
    fn round_trips_and_refuses_impossible_values() {
        let mut cards = OpeningCards::new();
        cards.record(id(1), true, NOW);
        cards.record(id(2), false, NOW);
        assert_eq!(
            decode::<OpeningCards>(encode(&cards).as_bytes()).unwrap(),
            cards
        );
        let dir = tempfile::tempdir().expect("tempdir");
        let store = OpeningStore::new(dir.path());
        assert_eq!(store.load().value, OpeningCards::new(), "no file: no cards");
        store.save(&cards).expect("save");
        let load = store.load();
        assert!(load.recovered.is_none());
        assert_eq!(load.value, cards);

        let file = |body: &str| {
            seal(&format!(
                "{}\nformat = \"chesspi-openings\"\nversion = 1\n{body}",
                OpeningCards::HEADER
            ))
        };
        let card = |line: &str, boxed: u8, tries: u32, passed: u32| {
            format!(
                "[[cards]]\nline = \"{line}\"\nbox = {boxed}\ndue = 1\ntries = {tries}\npassed = {passed}\n"
            )
        };
        let good = card("0000000000000001", 6, 2, 2);
        assert!(decode::<OpeningCards>(file(&good).as_bytes()).is_ok());
        for (body, key) in [
            (card("xyz", 1, 1, 1), "line"),
            (card("0000000000000001", 7, 1, 1), "box"),
            (card("0000000000000001", 1, 1, 2), "passed"),
            (format!("{good}{good}"), "line"),
        ] {
            match decode::<OpeningCards>(file(&body).as_bytes()) {
                Err(StoreError::Invalid(e)) => assert_eq!(e.key, key, "{body}"),
                other => panic!("{body}: {other:?}"),
            }
        }
        assert!(matches!(
            decode::<OpeningCards>(b"format = 1"),
            Err(StoreError::Damaged)
        ));
    }
}
