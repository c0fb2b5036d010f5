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

use crate::fen::FenError;
use crate::game::{Game, GameError, Outcome, Termination};
use crate::moves::Move;
use crate::position::{IllegalMoveError, Position};
use crate::san::{self, SanError};
use crate::types::Color;
use std::fmt;
use std::str::FromStr;

mod annotated;
pub use annotated::{MoveAnnotation, write_annotated_game};

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
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

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
fn push_tags<N: AsRef<str>, V: AsRef<str>>(
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
fn push_movetext<T: AsRef<str>>(out: &mut String, tokens: impl IntoIterator<Item = T>) {
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

fn is_tag_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// What went wrong in one game of a PGN file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based number of the game in the file.
    pub game: usize,
    /// 1-based line where the problem was found.
    pub line: usize,
    pub kind: PgnErrorKind,
}

/// The kinds of [`PgnError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A `[` that does not start a well-formed `[Name "value"]` tag pair.
    MalformedTag { text: String },
    /// The `FEN` tag does not hold a valid position.
    BadFen(FenError),
    /// `SetUp "1"` without a `FEN` tag.
    MissingFen,
    /// A `Variant` tag naming something other than standard chess.
    UnsupportedVariant(String),
    /// A main-line move that is not SAN, or not legal, or ambiguous where it is played.
    Move {
        /// Full-move number of the move.
        number: u32,
        /// Which side played it.
        turn: Color,
        /// The move as written.
        san: String,
        error: SanError,
    },
    /// A `{` comment that runs to the end of the text.
    UnterminatedComment,
    /// A `(` variation still open where the game ends.
    UnclosedVariation,
    /// A character that cannot appear where it was found (a stray `}`, `]` or `"`).
    UnexpectedChar(char),
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, ", self.game)?;
        match &self.kind {
            PgnErrorKind::Move {
                number,
                turn,
                san,
                error,
            } => {
                let dots = if *turn == Color::White { "." } else { "..." };
                write!(
                    f,
                    "move {number}{dots} {} (line {}): ",
                    Shown(san),
                    self.line
                )?;
                match error {
                    SanError::Syntax(e) => write!(f, "not SAN: {}", e.reason),
                    SanError::Illegal { .. } => f.write_str("illegal"),
                    SanError::Ambiguous { .. } => f.write_str("ambiguous"),
                }
            }
            kind => {
                write!(f, "line {}: ", self.line)?;
                match kind {
                    PgnErrorKind::MalformedTag { text } => {
                        write!(f, "malformed tag pair '{}'", Shown(text))
                    }
                    PgnErrorKind::BadFen(e) => write!(f, "FEN tag: {e}"),
                    PgnErrorKind::MissingFen => f.write_str("SetUp \"1\" without a FEN tag"),
                    PgnErrorKind::UnsupportedVariant(v) => {
                        write!(f, "unsupported variant '{}'", Shown(v))
                    }
                    PgnErrorKind::UnterminatedComment => {
                        f.write_str("comment '{' not closed before the end of the text")
                    }
                    PgnErrorKind::UnclosedVariation => {
                        f.write_str("variation '(' not closed before the end of the game")
                    }
                    PgnErrorKind::UnexpectedChar(c) => {
                        write!(f, "unexpected '{}'", c.escape_default())
                    }
                    PgnErrorKind::Move { .. } => Ok(()),
                }
            }
        }
    }
}

/// Text from the file as a message shows it: escaped (no control bytes reach a terminal) and
/// cut after 40 characters (a 10 MB line stays out of the message).
struct Shown<'a>(&'a str);

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MAX: usize = 40;
        for c in self.0.chars().take(MAX) {
            write!(f, "{}", c.escape_debug())?;
        }
        if self.0.chars().nth(MAX).is_some() {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl std::error::Error for PgnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            PgnErrorKind::BadFen(e) => Some(e),
            PgnErrorKind::Move { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// The text of a PGN file: UTF-8 (what ChessPI and most tools write) when the bytes are
/// valid UTF-8, else ISO 8859-1, the PGN standard's own character set, in which every byte is
/// a character — so an old file's "Müller" stays "Müller", not "M\u{FFFD}ller".
pub fn decode_text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes)
        .unwrap_or_else(|e| e.into_bytes().into_iter().map(char::from).collect())
}

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
}

impl<'a> PgnReader<'a> {
    /// A reader at the start of `text` (a leading byte-order mark is skipped).
    pub fn new(text: &'a str) -> PgnReader<'a> {
        PgnReader {
            lexer: Lexer::new(text.strip_prefix('\u{feff}').unwrap_or(text)),
            games_started: 0,
        }
    }
}

impl Iterator for PgnReader<'_> {
    type Item = Result<PgnGame, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        read_one(&mut self.lexer, &mut self.games_started).map(|(game, _)| game)
    }
}

/// [`read_games`], each game with the `[%clk H:MM:SS]` command of every main-line move (as
/// lichess and ChessPI write a timed game's clocks), or none when some move has none: what an
/// annotated copy of the game keeps beside its own comments.
pub fn read_games_with_clocks(text: &str) -> Vec<(Result<PgnGame, PgnError>, Vec<String>)> {
    let mut reader = PgnReader::new(text);
    std::iter::from_fn(|| read_one(&mut reader.lexer, &mut reader.games_started)).collect()
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token<'a> {
    Tag {
        name: String,
        value: String,
    },
    MalformedTag(String),
    /// A move, move number, result or annotation glyph.
    Symbol(&'a str),
    Nag,
    /// A `{…}` comment's text.
    Comment(&'a str),
    UnterminatedComment,
    Open,
    Close,
    Unexpected(char),
}

#[derive(Debug, Clone, Copy)]
struct Lexer<'a> {
    text: &'a str,
    at: usize,
    line: usize,
}

/// Characters that end a symbol token.
fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace() || b"{}()[];\"$".contains(&b)
}

impl<'a> Lexer<'a> {
    fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            at: 0,
            line: 1,
        }
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// Moves to `to`, counting the line breaks passed.
    fn advance_to(&mut self, to: usize) {
        let to = to.min(self.text.len());
        self.line += self.bytes()[self.at..to]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.at = to;
    }

    /// Index of the next `byte` from `at`, or the end of the text.
    fn find(&self, byte: u8) -> usize {
        self.bytes()[self.at..]
            .iter()
            .position(|&b| b == byte)
            .map_or(self.text.len(), |i| self.at + i)
    }

    /// The next token and the line it starts on; `None` at the end of the text.
    fn next_token(&mut self) -> Option<(Token<'a>, usize)> {
        loop {
            let &b = self.bytes().get(self.at)?;
            if b.is_ascii_whitespace() {
                self.advance_to(self.at + 1);
                continue;
            }
            let line = self.line;
            // An escape line: '%' in the first column.
            if b == b'%' && (self.at == 0 || self.bytes()[self.at - 1] == b'\n') {
                let end = self.find(b'\n');
                self.advance_to(end);
                continue;
            }
            let token = match b {
                b';' => {
                    let end = self.find(b'\n');
                    self.advance_to(end);
                    continue;
                }
                b'{' => {
                    let end = self.find(b'}');
                    if end == self.text.len() {
                        self.advance_to(end);
                        Token::UnterminatedComment
                    } else {
                        let inner = &self.text[self.at + 1..end];
                        self.advance_to(end + 1);
                        Token::Comment(inner)
                    }
                }
                b'[' => self.tag(),
                b'(' => {
                    self.advance_to(self.at + 1);
                    Token::Open
                }
                b')' => {
                    self.advance_to(self.at + 1);
                    Token::Close
                }
                b'$' => {
                    let digits = self.bytes()[self.at + 1..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    self.advance_to(self.at + 1 + digits);
                    if digits == 0 {
                        Token::Unexpected('$')
                    } else {
                        Token::Nag
                    }
                }
                b'}' | b']' | b'"' => {
                    self.advance_to(self.at + 1);
                    Token::Unexpected(char::from(b))
                }
                _ => {
                    let start = self.at;
                    let len = self.bytes()[start..]
                        .iter()
                        .take_while(|&&b| !is_delimiter(b))
                        .count();
                    self.advance_to(start + len);
                    // Delimiters are ASCII, so both ends are on character boundaries.
                    Token::Symbol(&self.text[start..start + len])
                }
            };
            return Some((token, line));
        }
    }

    /// Reads a tag pair starting at `[`. Values may escape `"` and `\` with a backslash;
    /// as many files leave inner quotes unescaped, a line of the form `[Name "…"]` is also
    /// accepted with everything between the first and the last quote as the value.
    fn tag(&mut self) -> Token<'a> {
        match parse_tag_strict(&self.text[self.at..]) {
            Some((name, value, used)) => {
                self.advance_to(self.at + used);
                Token::Tag { name, value }
            }
            None => {
                let line_end = self.find(b'\n');
                let line = &self.text[self.at..line_end];
                self.advance_to(line_end);
                match parse_tag_lenient(line) {
                    Some((name, value)) => Token::Tag { name, value },
                    None => Token::MalformedTag(line.trim_end().to_string()),
                }
            }
        }
    }
}

/// Parses `[Name "value"]` at the start of `line`, which must all be on one line; returns
/// the name, the unescaped value and the number of bytes used.
fn parse_tag_strict(line: &str) -> Option<(String, String, usize)> {
    let bytes = line.as_bytes();
    let mut i = 1; // past '['
    let skip_blanks = |i: &mut usize| {
        while bytes.get(*i).is_some_and(|b| *b == b' ' || *b == b'\t') {
            *i += 1;
        }
    };
    skip_blanks(&mut i);
    let name_start = i;
    while bytes
        .get(i)
        .is_some_and(|&b| is_tag_name_char(char::from(b)))
    {
        i += 1;
    }
    if i == name_start {
        return None;
    }
    let name = &line[name_start..i];
    skip_blanks(&mut i);
    if bytes.get(i) != Some(&b'"') {
        return None;
    }
    i += 1;
    let mut value = String::new();
    let mut run_start = i;
    loop {
        match *bytes.get(i)? {
            b'"' => break,
            b'\n' => return None,
            b'\\' if matches!(bytes.get(i + 1), Some(b'"' | b'\\')) => {
                value.push_str(&line[run_start..i]);
                value.push(char::from(bytes[i + 1]));
                i += 2;
                run_start = i;
            }
            _ => i += 1,
        }
    }
    value.push_str(&line[run_start..i]);
    i += 1;
    skip_blanks(&mut i);
    if bytes.get(i) != Some(&b']') {
        return None;
    }
    Some((name.to_string(), value, i + 1))
}

/// Parses a whole line `[Name "any text"]`, taking the value between the first and the last
/// quote as it is.
fn parse_tag_lenient(line: &str) -> Option<(String, String)> {
    let inner = line.trim_end().strip_prefix('[')?.strip_suffix(']')?;
    let inner = inner.trim_end().strip_suffix('"')?;
    let (name, value) = inner.split_once('"')?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(is_tag_name_char) {
        return None;
    }
    Some((name.to_string(), value.to_string()))
}

/// Strips a move number (`12.`, `12...`, or bare digits) from the front of a symbol.
fn strip_move_number(symbol: &str) -> &str {
    let digits = symbol.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &symbol[digits..];
    let dots = rest.bytes().take_while(|&b| b == b'.').count();
    if dots > 0 || rest.is_empty() {
        &rest[dots..]
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

/// Reads the next game and its clocks (see [`read_games_with_clocks`]), or returns `None`
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
                    && let Some(at) = text.find("[%clk ")
                    && let Some(end) = text[at..].find(']')
                {
                    *last = Some(text[at..at + end + 1].to_string());
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
    fn latin_1_files_keep_their_letters() {
        assert_eq!(
            decode_text(b"[White \"M\xfcller, J\xfcrgen\"]".to_vec()),
            "[White \"Müller, Jürgen\"]"
        );
        assert_eq!(decode_text("Müller".as_bytes().to_vec()), "Müller");
    }

    #[test]
    fn move_numbers_are_stripped() {
        assert_eq!(strip_move_number("12."), "");
        assert_eq!(strip_move_number("12...Nf6"), "Nf6");
        assert_eq!(strip_move_number("1.e4"), "e4");
        assert_eq!(strip_move_number("7"), "");
        assert_eq!(strip_move_number("0-0"), "0-0");
        assert_eq!(strip_move_number("e4"), "e4");
    }

    #[test]
    fn tags_with_escapes_and_stray_quotes() {
        assert_eq!(
            parse_tag_strict(r#"[Event "A \"quoted\" \\ name"] rest"#),
            Some(("Event".to_string(), r#"A "quoted" \ name"#.to_string(), 30))
        );
        assert_eq!(parse_tag_strict(r#"[Event "The "Big" Open"]"#), None);
        assert_eq!(
            parse_tag_lenient(r#"[Event "The "Big" Open"]  "#),
            Some(("Event".to_string(), r#"The "Big" Open"#.to_string()))
        );
        assert_eq!(parse_tag_lenient("[Event]"), None);
    }
}
