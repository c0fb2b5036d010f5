//! Portable Game Notation: writing games and reading the main line of real-world files.
//!
//! Writing follows the PGN export format: the seven-tag roster first, `SetUp`/`FEN` when the
//! game does not start from the standard position, then SAN movetext in lines of fewer than
//! 80 characters, ending with the result.
//!
//! Reading is lenient about what real files contain (comments, NAGs, variations, annotation
//! glyphs, move numbers glued to moves, missing result tokens) and strict about the moves
//! themselves: every main-line move is replayed and must be legal and unambiguous. A broken
//! game yields an error naming the game and the move, and reading goes on with the next one.
//!
//! One concern per file: this one holds the types (result, game) and re-exports the rest;
//! `write.rs` writes games, `annotated.rs` writes them with comments and variations,
//! `lexer.rs` cuts the text into tokens, `read.rs` reads games from them, `error.rs` says what
//! went wrong, `clock.rs` keeps the `[%clk …]` comments and `encoding.rs` guesses a file's
//! character set.

use crate::game::{Game, GameError, Outcome, Termination};
use crate::moves::Move;
use crate::position::{IllegalMoveError, Position};
use crate::types::Color;
use std::fmt;
use std::str::FromStr;

mod annotated;
mod clock;
mod encoding;
mod error;
mod lexer;
mod read;
mod write;

pub use annotated::{MoveAnnotation, write_annotated_game, write_annotated_game_with_start};
pub use clock::read_games_with_clocks;
pub use encoding::decode_text;
pub use error::{PgnError, PgnErrorKind};
pub use read::{PgnReader, games, read_games};
pub use write::{write_game, write_game_record};

/// The result of a game as PGN writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: unfinished, or the result is not known.
    #[default]
    Unknown,
}

impl GameResult {
    /// The PGN token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    /// The result for a game won by `winner`, or drawn (`None`).
    pub const fn from_winner(winner: Option<Color>) -> GameResult {
        match winner {
            Some(Color::White) => GameResult::WhiteWins,
            Some(Color::Black) => GameResult::BlackWins,
            None => GameResult::Draw,
        }
    }
}

impl From<Option<Outcome>> for GameResult {
    /// The result of a game that ended with this outcome, or `*` while it goes on.
    fn from(outcome: Option<Outcome>) -> GameResult {
        match outcome {
            Some(outcome) => GameResult::from_winner(outcome.winner),
            None => GameResult::Unknown,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error for a string that is not a PGN result token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseGameResultError;

impl fmt::Display for ParseGameResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a PGN result (expected 1-0, 0-1, 1/2-1/2 or *)")
    }
}

impl std::error::Error for ParseGameResultError {}

impl FromStr for GameResult {
    type Err = ParseGameResultError;
    /// Reads `1-0`, `0-1`, `1/2-1/2` (or `½-½`) and `*`.
    fn from_str(s: &str) -> Result<GameResult, ParseGameResultError> {
        match s {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" | "½-½" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Unknown),
            _ => Err(ParseGameResultError),
        }
    }
}

/// One game read from PGN (or to be written): its tags in file order, the position it starts
/// from, its main line and its result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnGame {
    /// Every tag pair as read, `SetUp` and `FEN` included.
    pub tags: Vec<(String, String)>,
    /// The standard position, or the one given by the `FEN` tag.
    pub start: Position,
    /// The main line, each move legal in the position it is played in.
    pub moves: Vec<Move>,
    /// The result token at the end of the movetext, or else the `Result` tag.
    pub result: GameResult,
}

impl PgnGame {
    /// The value of the first tag with this name.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The position after the last move.
    pub fn end_position(&self) -> Position {
        let mut pos = self.start;
        for &mv in &self.moves {
            pos.play_unchecked(mv);
        }
        pos
    }

    /// Replays the game as a [`Game`]. When the moves do not end the game by themselves but
    /// the PGN gives a result, the game is ended with it: a win by time forfeit or
    /// abandonment if the `Termination` tag says so and by resignation otherwise; a draw by
    /// the claimable draw if there is one and by agreement otherwise.
    ///
    /// # Errors
    /// [`GameError::GameOver`] if the moves go on after the rules ended the game (fivefold
    /// repetition, 75-move rule, insufficient material).
    pub fn to_game(&self) -> Result<Game, GameError> {
        let mut game = Game::from_moves(self.start, &self.moves)?;
        if game.is_over() {
            return Ok(game);
        }
        let termination = self.tag("Termination").map(str::to_ascii_lowercase);
        let winner = match self.result {
            GameResult::Unknown => return Ok(game),
            GameResult::WhiteWins => Some(Color::White),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw => None,
        };
        let outcome = match (winner, termination.as_deref()) {
            (Some(w), Some("time forfeit")) => Outcome::win(w, Termination::Time),
            (Some(w), Some("abandoned")) => Outcome::win(w, Termination::Abandonment),
            (Some(w), _) => Outcome::win(w, Termination::Resignation),
            (None, Some("time forfeit")) => Outcome::draw(Termination::Time),
            (None, _) => Outcome::draw(game.claimable_draw().unwrap_or(Termination::Agreement)),
        };
        game.set_outcome(outcome)?;
        Ok(game)
    }

    /// The game as PGN (see [`write_game`]).
    ///
    /// # Errors
    /// [`IllegalMoveError`] if a move is not legal where it is played (a game read by this
    /// module never has one).
    pub fn to_pgn(&self) -> Result<String, IllegalMoveError> {
        write_game(&self.tags, &self.start, &self.moves, self.result)
    }
}

/// The seven-tag roster, in export order, with the value written when a tag is not given.
pub(super) const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];
