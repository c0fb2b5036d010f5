//! Writing games: the tag section in export order and the movetext in lines under 80
//! characters.

use super::lexer::is_tag_name_char;
use super::{GameResult, ROSTER};
use crate::game::{Game, Termination};
use crate::moves::Move;
use crate::position::{IllegalMoveError, Position};
use crate::san;
use crate::types::Color;

/// Export format keeps movetext lines under 80 characters.
const MAX_LINE: usize = 79;

/// Writes one game as PGN, ending with a newline; separate several games in a file with an
/// empty line.
///
/// Tags: the seven-tag roster comes first, taking values from `tags` where given (`?` or
/// `????.??.??` otherwise; `Result` is always `result`), then `SetUp "1"` and `FEN` when
/// `start` is not the standard position, then the remaining `tags` in order. `SetUp`/`FEN`
/// entries in `tags` are ignored (they are derived from `start`). Characters not allowed in a
/// tag name are dropped; quotes and backslashes in values are escaped and line breaks become
/// spaces.
///
/// # Errors
/// [`IllegalMoveError`] for the first move that is not legal where it is played.
pub fn write_game<N: AsRef<str>, V: AsRef<str>>(
    tags: &[(N, V)],
    start: &Position,
    moves: &[Move],
    result: GameResult,
) -> Result<String, IllegalMoveError> {
    let sans = san::moves_to_san(start, moves);
    if let Some(&mv) = moves.get(sans.len()) {
        return Err(IllegalMoveError { mv });
    }
    Ok(format_game(tags, start, sans, result))
}

/// The PGN text of a game whose moves are already in SAN.
fn format_game<N: AsRef<str>, V: AsRef<str>>(
    tags: &[(N, V)],
    start: &Position,
    sans: Vec<String>,
    result: GameResult,
) -> String {
    let mut out = String::new();
    push_tags(&mut out, tags, start, result);
    let mut tokens = Vec::with_capacity(sans.len() * 3 / 2 + 1);
    let mut number = start.fullmove_number();
    let mut turn = start.turn();
    for (i, san) in sans.into_iter().enumerate() {
        match turn {
            Color::White => tokens.push(format!("{number}.")),
            Color::Black if i == 0 => tokens.push(format!("{number}...")),
            Color::Black => {}
        }
        tokens.push(san);
        if turn == Color::Black {
            number += 1;
        }
        turn = !turn;
    }
    tokens.push(result.as_str().to_string());
    push_movetext(&mut out, tokens);
    out
}

/// The tag section and the empty line after it (see [`write_game`] for the order).
pub(super) fn push_tags<N: AsRef<str>, V: AsRef<str>>(
    out: &mut String,
    tags: &[(N, V)],
    start: &Position,
    result: GameResult,
) {
    let given = |name: &str| {
        tags.iter()
            .find(|(n, _)| n.as_ref() == name)
            .map(|(_, v)| v.as_ref())
    };
    for (name, default) in ROSTER {
        let value = if name == "Result" {
            result.as_str()
        } else {
            given(name).unwrap_or(default)
        };
        push_tag(out, name, value);
    }
    if *start != Position::startpos() {
        push_tag(out, "SetUp", "1");
        push_tag(out, "FEN", &start.to_fen());
    }
    for (name, value) in tags {
        let name = name.as_ref();
        if !ROSTER.iter().any(|(r, _)| *r == name) && name != "SetUp" && name != "FEN" {
            push_tag(out, name, value.as_ref());
        }
    }
    out.push('\n');
}

/// Movetext tokens joined by spaces in lines of at most [`MAX_LINE`] characters (a longer
/// token stands alone on its line), ending with a newline.
pub(super) fn push_movetext<T: AsRef<str>>(out: &mut String, tokens: impl IntoIterator<Item = T>) {
    let mut line_len = 0;
    for token in tokens {
        let token = token.as_ref();
        if line_len > 0 && line_len + 1 + token.len() > MAX_LINE {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(token);
        line_len += token.len();
    }
    out.push('\n');
}

/// Writes a [`Game`] as PGN with [`write_game`], its result taken from the game's outcome.
/// Unless `tags` has one, a `Termination` tag is added to a finished game: `time forfeit`,
/// `abandoned` or `normal`, the values the PGN standard defines.
pub fn write_game_record<N: AsRef<str>, V: AsRef<str>>(game: &Game, tags: &[(N, V)]) -> String {
    let mut all: Vec<(&str, &str)> = tags.iter().map(|(n, v)| (n.as_ref(), v.as_ref())).collect();
    if let Some(outcome) = game.outcome()
        && !all.iter().any(|(n, _)| *n == "Termination")
    {
        let value = match outcome.termination {
            Termination::Time => "time forfeit",
            Termination::Abandonment => "abandoned",
            _ => "normal",
        };
        all.push(("Termination", value));
    }
    let sans = san::moves_to_san(game.initial_position(), game.moves());
    format_game(&all, game.initial_position(), sans, game.outcome().into())
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    let name: String = name.chars().filter(|&c| is_tag_name_char(c)).collect();
    if name.is_empty() {
        return;
    }
    out.push('[');
    out.push_str(&name);
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}
