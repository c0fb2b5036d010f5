//! Writing games with annotations: NAGs, comments and variations after main-line moves, in
//! the form lichess exports and python-chess reads:
//!
//! ```text
//! 1. e4 { [%eval 0.17] } 1... e5 $6 { [%eval 0.90] } ( 1... c5 2. Nf3 ) 2. Nf3
//! ```
//!
//! After a comment or a variation, Black's next move gets its number again (`2...`).

use super::GameResult;
use super::write::{push_movetext, push_tags};
use crate::moves::Move;
use crate::position::{IllegalMoveError, Position};
use crate::san;
use crate::types::Color;

/// What is written after one main-line move, in this order: NAGs, the comment, variations.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MoveAnnotation {
    /// Numeric annotation glyphs (`$2` is written for 2).
    pub nags: Vec<u8>,
    /// Comment text without braces; empty for none. A `}` in it becomes `)` (PGN comments
    /// cannot contain their closing brace).
    pub comment: String,
    /// Alternatives to the move: each line starts in the position before the move.
    pub variations: Vec<Vec<Move>>,
}

/// Writes one game as PGN like [`super::write_game`], with `annotations[i]` after move `i`
/// (missing entries: nothing). Ends with a newline.
///
/// # Errors
/// [`IllegalMoveError`] for the first main-line or variation move that is not legal where
/// it is played.
pub fn write_annotated_game<N: AsRef<str>, V: AsRef<str>>(
    tags: &[(N, V)],
    start: &Position,
    moves: &[Move],
    annotations: &[MoveAnnotation],
    result: GameResult,
) -> Result<String, IllegalMoveError> {
    write_annotated_game_with_start(tags, start, "", moves, annotations, result)
}

/// [`write_annotated_game`] with `start_comment` (if not empty) before the first move: what
/// is said about the start position (readers such as python-chess give it as the game's
/// comment).
///
/// # Errors
/// As [`write_annotated_game`].
pub fn write_annotated_game_with_start<N: AsRef<str>, V: AsRef<str>>(
    tags: &[(N, V)],
    start: &Position,
    start_comment: &str,
    moves: &[Move],
    annotations: &[MoveAnnotation],
    result: GameResult,
) -> Result<String, IllegalMoveError> {
    let mut tokens: Vec<String> = Vec::with_capacity(moves.len() * 3 + 1);
    if !start_comment.is_empty() {
        tokens.push(format!("{{ {} }}", start_comment.replace('}', ")")));
    }
    let mut pos = *start;
    // Whether the next Black move needs its number (at the start, after comments/variations).
    let mut needs_number = true;
    for (i, &mv) in moves.iter().enumerate() {
        let before = pos;
        push_move(&mut tokens, &mut pos, mv, needs_number)?;
        needs_number = false;
        let Some(note) = annotations.get(i) else {
            continue;
        };
        tokens.extend(note.nags.iter().map(|nag| format!("${nag}")));
        if !note.comment.is_empty() {
            tokens.push(format!("{{ {} }}", note.comment.replace('}', ")")));
            needs_number = true;
        }
        for line in note.variations.iter().filter(|line| !line.is_empty()) {
            let first = tokens.len();
            let mut var_pos = before;
            for (j, &var_mv) in line.iter().enumerate() {
                push_move(&mut tokens, &mut var_pos, var_mv, j == 0)?;
            }
            // Parentheses are glued to the first and last tokens of the line.
            if let Some(token) = tokens.get_mut(first) {
                token.insert(0, '(');
            }
            if let Some(last) = tokens.last_mut() {
                last.push(')');
            }
            needs_number = true;
        }
    }
    tokens.push(result.as_str().to_string());
    let mut out = String::new();
    push_tags(&mut out, tags, start, result);
    push_movetext(&mut out, &tokens);
    Ok(out)
}

/// Pushes the number (when due) and the SAN of `mv`, then plays it.
fn push_move(
    tokens: &mut Vec<String>,
    pos: &mut Position,
    mv: Move,
    force_number: bool,
) -> Result<(), IllegalMoveError> {
    if !pos.is_legal(mv) {
        return Err(IllegalMoveError { mv });
    }
    let number = pos.fullmove_number();
    match pos.turn() {
        Color::White => tokens.push(format!("{number}.")),
        Color::Black if force_number => tokens.push(format!("{number}...")),
        Color::Black => {}
    }
    tokens.push(san::to_san(pos, mv));
    pos.play_unchecked(mv);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::san::parse_san;

    fn moves(start: &Position, sans: &[&str]) -> Vec<Move> {
        let mut pos = *start;
        sans.iter()
            .map(|s| {
                let mv = parse_san(&pos, s).unwrap();
                pos.play_unchecked(mv);
                mv
            })
            .collect()
    }

    #[test]
    fn comments_nags_and_variations() {
        let start = Position::startpos();
        let main = moves(&start, &["e4", "e5", "Nf3"]);
        let after_e4 = start.play(main[0]).unwrap();
        let notes = vec![
            MoveAnnotation {
                comment: "[%eval 0.17]".into(),
                ..MoveAnnotation::default()
            },
            MoveAnnotation {
                nags: vec![6],
                comment: "a } brace".into(),
                variations: vec![moves(&after_e4, &["c5", "Nf3"])],
            },
        ];
        let pgn =
            write_annotated_game::<&str, &str>(&[], &start, &main, &notes, GameResult::Unknown)
                .unwrap();
        let movetext = pgn.lines().last().unwrap();
        assert_eq!(
            movetext,
            "1. e4 { [%eval 0.17] } 1... e5 $6 { a ) brace } (1... c5 2. Nf3) 2. Nf3 *"
        );
    }

    #[test]
    fn a_comment_on_the_start_position_comes_first() {
        let start = Position::startpos();
        let main = moves(&start, &["e4"]);
        let pgn = write_annotated_game_with_start::<&str, &str>(
            &[],
            &start,
            "[%eval 0.20]",
            &main,
            &[],
            GameResult::Unknown,
        )
        .unwrap();
        assert_eq!(pgn.lines().last().unwrap(), "{ [%eval 0.20] } 1. e4 *");
    }

    #[test]
    fn illegal_variation_is_an_error() {
        let start = Position::startpos();
        let main = moves(&start, &["e4"]);
        // A Black move as White's alternative.
        let black_move = moves(&start.play(main[0]).unwrap(), &["e5"]);
        let notes = vec![MoveAnnotation {
            variations: vec![black_move.clone()],
            ..MoveAnnotation::default()
        }];
        let err =
            write_annotated_game::<&str, &str>(&[], &start, &main, &notes, GameResult::Unknown)
                .unwrap_err();
        assert_eq!(err.mv, black_move[0]);
    }
}
