//! Clock comments: the `[%clk H:MM:SS]` command lichess and ChessPI write after each move of
//! a timed game, kept when a game is read so that an annotated copy can write them again.

use super::{PgnError, PgnGame, PgnReader};

/// [`read_games`](super::read_games), each game with the `[%clk H:MM:SS]` command of every
/// main-line move (as lichess and ChessPI write a timed game's clocks), or none when some move
/// has none: what an annotated copy of the game keeps beside its own comments.
pub fn read_games_with_clocks(text: &str) -> Vec<(Result<PgnGame, PgnError>, Vec<String>)> {
    let mut reader = PgnReader::new(text);
    std::iter::from_fn(|| reader.next_with_clocks()).collect()
}

/// The `[%clk …]` command in a comment's text, brackets included.
pub(super) fn clock_command(comment: &str) -> Option<&str> {
    let (_, from) = comment.split_once("[%clk ")?;
    let (value, _) = from.split_once(']')?;
    let start = comment.len() - from.len() - "[%clk ".len();
    comment.get(start..start + "[%clk ".len() + value.len() + 1)
}
