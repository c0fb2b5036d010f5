//! The player's puzzles: "find the better move" in the positions where the player made a
//! mistake or a blunder in an analysed game, brought back on a spaced-repetition schedule.
//!
//! Schedule: the Leitner system of [`super::leitner`], shared with the opening cards. Solved,
//! a puzzle moves up a box and comes back after [`INTERVAL_DAYS`] of its new box; failed, it
//! goes back to box 0 and comes back [`RETRY_SECONDS`] later, in the same sitting.
//!
//! Stored in `<state>/puzzles.toml` with a checksum line; a damaged file is set aside and the
//! puzzles restart (reported once), as the statistics do.

use std::collections::HashSet;
use std::fmt;

use chesspi_engine::analysis::{GameAnalysis, MoveClass};
use chesspi_engine::{Color, Move, Position};
use serde::{Deserialize, Serialize};

use super::sealed::fnv1a64;
use super::store::{Sealable, SealedStore, StoreError};

/// The puzzles file's name in the state directory.
pub const PUZZLES_FILE: &str = "puzzles.toml";

pub use super::leitner::{INTERVAL_DAYS, RETRY_SECONDS};

/// At most this many puzzles are kept; the oldest solved-most ones go first when full.
pub const MAX_PUZZLES: usize = 500;

/// The longest game id and date kept (characters): archive ids are far shorter, a PGN date
/// is `YYYY.MM.DD`. Free text from other files is cut, so one odd game cannot bloat the file.
const MAX_GAME_CHARS: usize = 64;
const MAX_DATE_CHARS: usize = 10;

/// One position to solve: the player's move there was a mistake, the analysis knew better.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// 16 hex digits: FNV-1a 64 of the FEN, a space and the mistake in UCI, so the same
    /// mistake in the same position is one puzzle however often it is found.
    pub id: String,
    /// The position before the mistake.
    pub position: Position,
    /// The move the player played.
    pub mistake: Move,
    /// The analysis's best move there.
    pub best: Move,
    /// A blunder (else a mistake).
    pub blunder: bool,
    /// The archive id of the game it came from.
    pub game: String,
    /// The game's PGN date, `YYYY.MM.DD`.
    pub date: String,
    /// Leitner box, `0..=INTERVAL_DAYS.len()`.
    pub box_index: u8,
    /// When it is due again, seconds since the epoch.
    pub due_unix: u64,
    /// Tries at it.
    pub tries: u32,
    /// Tries that solved it.
    pub solved: u32,
}

impl Puzzle {
    /// A new puzzle, due at once (box 0, `due_unix = now`). `None` when `mistake` or `best`
    /// is not legal in `position`, or they are the same move (nothing to find). `game` and
    /// `date` are cut to 64 and 10 characters.
    pub fn new(
        position: Position,
        mistake: Move,
        best: Move,
        blunder: bool,
        game: &str,
        date: &str,
        now_unix: u64,
    ) -> Option<Puzzle> {
        if mistake == best || !position.is_legal(mistake) || !position.is_legal(best) {
            return None;
        }
        Some(Puzzle {
            id: puzzle_id(&position, mistake),
            position,
            mistake,
            best,
            blunder,
            game: game.chars().take(MAX_GAME_CHARS).collect(),
            date: date.chars().take(MAX_DATE_CHARS).collect(),
            box_index: 0,
            due_unix: now_unix,
            tries: 0,
            solved: 0,
        })
    }
}

/// The id of the puzzle made from `mistake` in `position`.
fn puzzle_id(position: &Position, mistake: Move) -> String {
    format!(
        "{:016x}",
        fnv1a64(format!("{} {mistake}", position.to_fen()).as_bytes())
    )
}

/// What the Puzzles screen shows about the player's record.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PuzzleRecord {
    /// Puzzles kept.
    pub puzzles: usize,
    /// Puzzles due now.
    pub due: usize,
    /// Tries, all puzzles together (also at puzzles since dropped).
    pub tries: u32,
    /// Tries that solved the puzzle.
    pub solved: u32,
    /// Solved tries in a row, up to now.
    pub streak: u32,
    /// The longest such run.
    pub best_streak: u32,
}

impl PuzzleRecord {
    /// The share of tries that solved, in per cent rounded to the nearest (2 of 3 is 67);
    /// `None` before the first try.
    pub fn solved_percent(&self) -> Option<u64> {
        let tries = u64::from(self.tries);
        (tries > 0).then(|| (u64::from(self.solved) * 100 + tries / 2) / tries)
    }
}

/// The player's puzzles and their record.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PuzzleBook {
    puzzles: Vec<Puzzle>,
    streak: u32,
    best_streak: u32,
    tries: u32,
    solved: u32,
}

impl PuzzleBook {
    /// No puzzles, no tries.
    pub fn new() -> PuzzleBook {
        PuzzleBook::default()
    }

    /// Adds `puzzle` unless one with its id is kept already; true when added. When full
    /// ([`MAX_PUZZLES`]), first drops the puzzle in the highest box with the latest due date:
    /// the one the player knows best and would see last.
    pub fn add(&mut self, puzzle: Puzzle) -> bool {
        if self.get(&puzzle.id).is_some() {
            return false;
        }
        let by_knowledge = |&i: &usize| (self.puzzles[i].box_index, self.puzzles[i].due_unix);
        if self.puzzles.len() >= MAX_PUZZLES
            && let Some(i) = (0..self.puzzles.len()).max_by_key(by_knowledge)
        {
            self.puzzles.remove(i);
        }
        self.puzzles.push(puzzle);
        true
    }

    /// All puzzles, oldest first.
    pub fn puzzles(&self) -> &[Puzzle] {
        &self.puzzles
    }

    /// The puzzles due at `now_unix`, the longest overdue first.
    pub fn due(&self, now_unix: u64) -> Vec<&Puzzle> {
        let mut due: Vec<&Puzzle> = self
            .puzzles
            .iter()
            .filter(|p| p.due_unix <= now_unix)
            .collect();
        // Stable: puzzles due at the same time keep the order they were found in.
        due.sort_by_key(|p| p.due_unix);
        due
    }

    /// How many puzzles are due at `now_unix`.
    pub fn due_count(&self, now_unix: u64) -> usize {
        self.due(now_unix).len()
    }

    /// The puzzle with this id.
    pub fn get(&self, id: &str) -> Option<&Puzzle> {
        self.puzzles.iter().find(|p| p.id == id)
    }

    /// One try at puzzle `id`, scheduled by [`super::leitner::after_try`]: solved, up a box;
    /// failed, back to box 0 and due again [`RETRY_SECONDS`] later. Counts the try, the solve, the streak (solved tries in a row;
    /// a failure ends it) and the best streak. False (and no change) for an unknown id.
    pub fn record(&mut self, id: &str, solved: bool, now_unix: u64) -> bool {
        let Some(puzzle) = self.puzzles.iter_mut().find(|p| p.id == id) else {
            return false;
        };
        puzzle.tries = puzzle.tries.saturating_add(1);
        self.tries = self.tries.saturating_add(1);
        (puzzle.box_index, puzzle.due_unix) =
            super::leitner::after_try(puzzle.box_index, solved, now_unix);
        if solved {
            puzzle.solved = puzzle.solved.saturating_add(1);
            self.solved = self.solved.saturating_add(1);
            self.streak = self.streak.saturating_add(1);
            self.best_streak = self.best_streak.max(self.streak);
        } else {
            self.streak = 0;
        }
        true
    }

    /// The record shown on the Puzzles screen at `now_unix`.
    pub fn summary(&self, now_unix: u64) -> PuzzleRecord {
        PuzzleRecord {
            puzzles: self.puzzles.len(),
            due: self.due_count(now_unix),
            tries: self.tries,
            solved: self.solved,
            streak: self.streak,
            best_streak: self.best_streak,
        }
    }

    /// Adds the puzzles made from the analysis of one game: each move by one of `players`
    /// (the colours a person at this device played) classed mistake or blunder, with the
    /// analysis's better move. The positions are replayed from the analysis's start, stopping
    /// at a move that is not legal (a damaged analysis gives what it can). Returns how many
    /// were added; a game analysed twice adds nothing the second time.
    pub fn add_from_analysis(
        &mut self,
        analysis: &GameAnalysis,
        players: &[Color],
        game: &str,
        date: &str,
        now_unix: u64,
    ) -> usize {
        let mut position = analysis.start;
        let mut added = 0;
        for m in &analysis.moves {
            let bad = matches!(m.class, MoveClass::Mistake | MoveClass::Blunder);
            let best = m.better.as_ref().and_then(|line| line.first().copied());
            if let (true, true, Some(best)) = (bad, players.contains(&m.mover), best) {
                let blunder = m.class == MoveClass::Blunder;
                if let Some(p) = Puzzle::new(position, m.mv, best, blunder, game, date, now_unix) {
                    added += usize::from(self.add(p));
                }
            }
            match position.play(m.mv) {
                Ok(next) => position = next,
                Err(_) => break,
            }
        }
        added
    }
}

/// A value in a puzzles file is impossible.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadPuzzles {
    /// The field, e.g. `"fen"` or `"box"`.
    pub key: &'static str,
    /// What is wrong, naming the puzzle.
    pub message: String,
}

impl fmt::Display for BadPuzzles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the puzzles file has a bad {}: {}",
            self.key, self.message
        )
    }
}

/// Why a puzzles file was refused.
pub type PuzzlesError = StoreError<PuzzleBook>;

/// Reads and writes `<state>/puzzles.toml`.
pub type PuzzleStore = SealedStore<PuzzleBook>;

/// The TOML shape of `puzzles.toml`; opaque, public only as [`Sealable::Raw`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawBook {
    format: String,
    version: u32,
    tries: u32,
    solved: u32,
    streak: u32,
    best_streak: u32,
    #[serde(default)]
    puzzles: Vec<RawPuzzle>,
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPuzzle {
    id: String,
    fen: String,
    mistake: String,
    best: String,
    blunder: bool,
    game: String,
    date: String,
    #[serde(rename = "box")]
    box_index: u8,
    due: u64,
    tries: u32,
    solved: u32,
}

impl Sealable for PuzzleBook {
    const FILE: &'static str = PUZZLES_FILE;
    const FORMAT: &'static str = "chesspi-puzzles";
    const VERSION: u32 = 1;
    const HEADER: &'static str = "# ChessPI puzzles. Do not edit.";
    const NOUN: &'static str = "the puzzles";
    type Raw = RawBook;
    type Invalid = BadPuzzles;

    fn to_raw(&self) -> RawBook {
        RawBook {
            format: Self::FORMAT.to_string(),
            version: Self::VERSION,
            tries: self.tries,
            solved: self.solved,
            streak: self.streak,
            best_streak: self.best_streak,
            puzzles: self.puzzles.iter().map(encode_puzzle).collect(),
        }
    }

    fn format_of(raw: &RawBook) -> (&str, u32) {
        (&raw.format, raw.version)
    }

    fn from_raw(raw: RawBook) -> Result<PuzzleBook, BadPuzzles> {
        if raw.puzzles.len() > MAX_PUZZLES {
            let n = raw.puzzles.len();
            return Err(invalid("puzzles", format!("{n}, more than {MAX_PUZZLES}")));
        }
        // A streak counts solved tries: none can exceed the solves, nor the solves the tries.
        let (tries, solved, streak, best) = (raw.tries, raw.solved, raw.streak, raw.best_streak);
        if streak > best || best > solved || solved > tries {
            let m = format!("streak {streak}, best {best}, solved {solved}, tries {tries}");
            return Err(invalid("record", m));
        }
        let mut seen = HashSet::new();
        let mut puzzles = Vec::with_capacity(raw.puzzles.len());
        for (i, r) in raw.puzzles.into_iter().enumerate() {
            let p = decode_puzzle(r)
                .map_err(|(key, m)| invalid(key, format!("puzzle {}: {m}", i + 1)))?;
            if !seen.insert(p.id.clone()) {
                return Err(invalid("id", format!("puzzle {}: {} twice", i + 1, p.id)));
            }
            puzzles.push(p);
        }
        Ok(PuzzleBook {
            puzzles,
            streak: raw.streak,
            best_streak: raw.best_streak,
            tries: raw.tries,
            solved: raw.solved,
        })
    }
}

fn invalid(key: &'static str, message: String) -> BadPuzzles {
    BadPuzzles { key, message }
}

fn encode_puzzle(p: &Puzzle) -> RawPuzzle {
    RawPuzzle {
        id: p.id.clone(),
        fen: p.position.to_fen(),
        mistake: p.mistake.to_string(),
        best: p.best.to_string(),
        blunder: p.blunder,
        game: p.game.clone(),
        date: p.date.clone(),
        box_index: p.box_index,
        // TOML integers are signed 64-bit; no real date comes near the limit.
        due: p.due_unix.min(i64::MAX.unsigned_abs()),
        tries: p.tries,
        solved: p.solved,
    }
}

/// One stored puzzle, checked: on error, the field and what is wrong with it.
fn decode_puzzle(r: RawPuzzle) -> Result<Puzzle, (&'static str, String)> {
    let position = Position::from_fen(&r.fen).map_err(|e| ("fen", format!("{}: {e}", r.fen)))?;
    let mistake = position
        .parse_uci_move(&r.mistake)
        .map_err(|e| ("mistake", e.to_string()))?;
    let best = position
        .parse_uci_move(&r.best)
        .map_err(|e| ("best", e.to_string()))?;
    if mistake == best {
        return Err(("best", format!("{best} is the mistake itself")));
    }
    // The id is derived; one that does not match was edited or belongs elsewhere.
    let id = puzzle_id(&position, mistake);
    if r.id != id {
        return Err(("id", format!("{} where {id} was expected", r.id)));
    }
    if r.game.chars().count() > MAX_GAME_CHARS {
        return Err(("game", format!("longer than {MAX_GAME_CHARS} characters")));
    }
    if r.date.chars().count() > MAX_DATE_CHARS {
        return Err(("date", format!("longer than {MAX_DATE_CHARS} characters")));
    }
    if usize::from(r.box_index) > INTERVAL_DAYS.len() {
        let last = INTERVAL_DAYS.len();
        return Err(("box", format!("{}, beyond the last ({last})", r.box_index)));
    }
    if r.solved > r.tries {
        return Err(("solved", format!("{} of {} tries", r.solved, r.tries)));
    }
    Ok(Puzzle {
        id,
        position,
        mistake,
        best,
        blunder: r.blunder,
        game: r.game,
        date: r.date,
        box_index: r.box_index,
        due_unix: r.due,
        tries: r.tries,
        solved: r.solved,
    })
}

#[cfg(test)]
mod tests;
