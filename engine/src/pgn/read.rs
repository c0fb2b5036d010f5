//! Reading games: tags, then the main line replayed move by move (variations, comments and
//! glyphs skipped), each game read or failed on its own.

use super::clock::clock_command;
use super::lexer::{Lexer, Token};
use super::{GameResult, PgnError, PgnErrorKind, PgnGame, ROSTER};
use crate::moves::Move;
use crate::position::Position;
use crate::san;

/// Reads every game of a PGN text. Each game is read or fails on its own.
pub fn read_games(text: &str) -> Vec<Result<PgnGame, PgnError>> {
    games(text).collect()
}

/// An iterator over the games of a PGN text, reading one game per step.
pub fn games(text: &str) -> PgnReader<'_> {
    PgnReader::new(text)
}

/// Reads games one at a time from a PGN text; see [`games`].
#[derive(Debug, Clone)]
pub struct PgnReader<'a> {
    lexer: Lexer<'a>,
    games_started: usize,
    /// Bytes skipped before the lexer's text (a byte-order mark).
    skipped: usize,
}

impl<'a> PgnReader<'a> {
    /// A reader at the start of `text` (a leading byte-order mark is skipped).
    pub fn new(text: &'a str) -> PgnReader<'a> {
        let body = text.strip_prefix('\u{feff}').unwrap_or(text);
        PgnReader {
            lexer: Lexer::new(body),
            games_started: 0,
            skipped: text.len() - body.len(),
        }
    }

    /// How far into the text given to [`PgnReader::new`] the reader is, in bytes: taken
    /// before and after [`Iterator::next`], the span of the game just read, exactly as
    /// written (comments included). Always on a character boundary.
    pub fn offset(&self) -> usize {
        self.skipped + self.lexer.at()
    }

    /// The next game and its clocks (see [`super::read_games_with_clocks`]).
    pub(super) fn next_with_clocks(&mut self) -> Option<(Result<PgnGame, PgnError>, Vec<String>)> {
        read_one(&mut self.lexer, &mut self.games_started)
    }
}

impl Iterator for PgnReader<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_with_clocks().map(|(game, _)| game)
    }
}

/// Strips a move number (`12.`, `12...`, or bare digits) from the front of a symbol.
fn strip_move_number(symbol: &str) -> &str {
    let rest = symbol.trim_start_matches(|c: char| c.is_ascii_digit());
    let after_dots = rest.trim_start_matches('.');
    if after_dots.len() < rest.len() || rest.is_empty() {
        after_dots
    } else {
        symbol
    }
}

/// Symbols that carry no move: annotation glyphs written apart from the move (`!?`, `+-`,
/// `=`), ellipses, and `e.p.` notes.
fn is_annotation(symbol: &str) -> bool {
    symbol == "e.p."
        || symbol == "…"
        || (symbol != "--" && !symbol.is_empty() && symbol.bytes().all(|b| b"!?+-=/".contains(&b)))
}

/// Reads the next game and its clocks (see [`super::read_games_with_clocks`]), or returns `None`
/// once only whitespace and comments are left.
fn read_one(
    lexer: &mut Lexer<'_>,
    games_started: &mut usize,
) -> Option<(Result<PgnGame, PgnError>, Vec<String>)> {
    let mut game = GameBuilder::default();
    loop {
        let before = *lexer;
        let Some((token, line)) = lexer.next_token() else {
            break;
        };
        if !game.started && !matches!(token, Token::Comment(_)) {
            game.started = true;
            *games_started += 1;
            game.number = *games_started;
        }
        match token {
            Token::Tag { name, value } => {
                // The next game's tags: this game had no result token, or (a roster tag
                // named twice) no movetext at all, like a download cut short after its tags.
                let again = ROSTER.iter().any(|(r, _)| *r == name) && game.tag(&name).is_some();
                if game.in_movetext || again {
                    *lexer = before;
                    break;
                }
                game.tags.push((name, value));
            }
            // A line starting with `[` that is no tag pair belongs to this game, in the tags
            // or in the movetext: a stray `[` must not take the next game's tags with it.
            Token::MalformedTag(text) => game.fail(line, PgnErrorKind::MalformedTag { text }),
            Token::Symbol(symbol) => {
                game.enter_movetext(line);
                if game.depth > 0 {
                    continue;
                }
                // A result may follow a move number directly (`23.1-0`).
                let san = strip_move_number(symbol);
                if let Ok(result) = symbol.parse::<GameResult>().or_else(|_| san.parse()) {
                    game.result = Some(result);
                    break;
                }
                if san.is_empty() || san.bytes().all(|b| b == b'.') || is_annotation(san) {
                    continue;
                }
                game.play(san, line);
            }
            Token::Nag => game.enter_movetext(line),
            Token::Comment(text) => {
                if game.depth == 0
                    && let Some(last) = game.clocks.last_mut()
                    && let Some(clock) = clock_command(text)
                {
                    *last = Some(clock.to_string());
                }
            }
            Token::UnterminatedComment => game.fail(line, PgnErrorKind::UnterminatedComment),
            Token::Open => {
                game.enter_movetext(line);
                game.depth += 1;
            }
            Token::Close => {
                game.enter_movetext(line);
                if game.depth == 0 {
                    game.fail(line, PgnErrorKind::UnexpectedChar(')'));
                } else {
                    game.depth -= 1;
                }
            }
            Token::Unexpected(c) => game.fail(line, PgnErrorKind::UnexpectedChar(c)),
        }
    }
    if !game.started {
        return None;
    }
    let clocks: Option<Vec<String>> = game.clocks.iter().cloned().collect();
    let clocks = clocks.unwrap_or_default();
    Some((game.finish(lexer.line), clocks))
}

/// A game being read.
#[derive(Debug, Default)]
struct GameBuilder {
    started: bool,
    number: usize,
    tags: Vec<(String, String)>,
    /// Set on entering the movetext, from the tags.
    position: Option<Position>,
    start: Option<Position>,
    moves: Vec<Move>,
    in_movetext: bool,
    depth: usize,
    result: Option<GameResult>,
    error: Option<PgnError>,
    /// The `[%clk …]` after each main-line move, if any.
    clocks: Vec<Option<String>>,
}

impl GameBuilder {
    /// Keeps the first error: later ones are usually its consequences.
    fn fail(&mut self, line: usize, kind: PgnErrorKind) {
        if self.error.is_none() {
            self.error = Some(PgnError {
                game: self.number,
                line,
                kind,
            });
        }
    }

    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets up the start position from the tags when the movetext begins.
    fn enter_movetext(&mut self, line: usize) {
        if self.in_movetext {
            return;
        }
        self.in_movetext = true;
        if let Some(variant) = self.tag("Variant") {
            let known = [
                "standard",
                "chess",
                "normal",
                "from position",
                "fromposition",
            ];
            if !known.contains(&variant.trim().to_ascii_lowercase().as_str()) {
                let kind = PgnErrorKind::UnsupportedVariant(variant.to_string());
                self.fail(line, kind);
            }
        }
        let start = match (self.tag("FEN"), self.tag("SetUp")) {
            (Some(fen), _) => Position::from_fen(fen).map_err(PgnErrorKind::BadFen),
            (None, Some("1")) => Err(PgnErrorKind::MissingFen),
            (None, _) => Ok(Position::startpos()),
        };
        match start {
            Ok(pos) => {
                self.start = Some(pos);
                self.position = Some(pos);
            }
            Err(kind) => self.fail(line, kind),
        }
    }

    fn play(&mut self, text: &str, line: usize) {
        if self.error.is_some() {
            return;
        }
        let Some(pos) = self.position.as_mut() else {
            return;
        };
        match san::parse_san(pos, text) {
            Ok(mv) => {
                pos.play_unchecked(mv);
                self.moves.push(mv);
                self.clocks.push(None);
            }
            Err(error) => {
                let kind = PgnErrorKind::Move {
                    number: pos.fullmove_number(),
                    turn: pos.turn(),
                    san: text.to_string(),
                    error,
                };
                self.fail(line, kind);
            }
        }
    }

    fn finish(mut self, line: usize) -> Result<PgnGame, PgnError> {
        // A game of tags only still has a start position to check.
        self.enter_movetext(line);
        if self.depth > 0 {
            self.fail(line, PgnErrorKind::UnclosedVariation);
        }
        if let Some(error) = self.error {
            return Err(error);
        }
        let result = self
            .result
            .or_else(|| self.tag("Result").and_then(|r| r.parse().ok()))
            .unwrap_or_default();
        Ok(PgnGame {
            start: self.start.unwrap_or_default(),
            tags: self.tags,
            moves: self.moves,
            result,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_stripped() {
        assert_eq!(strip_move_number("12."), "");
        assert_eq!(strip_move_number("12...Nf6"), "Nf6");
        assert_eq!(strip_move_number("1.e4"), "e4");
        assert_eq!(strip_move_number("7"), "");
        assert_eq!(strip_move_number("0-0"), "0-0");
        assert_eq!(strip_move_number("e4"), "e4");
    }
}
