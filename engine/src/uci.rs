//! The UCI protocol: parsing one input line into a typed [`UciCommand`]; the binary
//! dispatches them. Parsing never panics; bad input becomes a [`UciError`] that the binary
//! reports as `info string …` before reading on.

use crate::fen::FenError;
use crate::moves::Move;
use crate::position::Position;
use std::fmt;
use std::time::Duration;

/// One command from the GUI.
#[derive(Debug, Clone, PartialEq)]
pub enum UciCommand {
    /// `uci`: identify and list options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`.
    IsReady,
    /// `setoption name <name> [value <value>]`; the name keeps its spaces (`Move Overhead`).
    SetOption { name: String, value: Option<String> },
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen <fen> [moves …]`, with every move checked legal in turn.
    Position { start: Position, moves: Vec<Move> },
    /// `go …` with search limits.
    Go(GoParams),
    /// `go perft <depth>`: count leaf nodes below each root move.
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
}

/// The arguments of `go`. Every field is optional; no limit at all means "search until stop".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GoParams {
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<Duration>,
    pub infinite: bool,
    pub ponder: bool,
    /// Root moves to restrict the search to, as given (resolved against the position later).
    pub searchmoves: Vec<String>,
}

/// Why a line could not be understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UciError {
    /// An empty line (GUIs may send them; the binary ignores it).
    Empty,
    /// The first word is not a UCI command.
    UnknownCommand(String),
    /// A keyword needs a value that is missing (`go depth`, `setoption` without `name`).
    MissingValue(&'static str),
    /// A value that is not a number in range.
    BadNumber { field: &'static str, value: String },
    /// `position` without `startpos` or `fen`, or with unexpected words.
    BadPosition(String),
    /// `position fen …` with an invalid FEN.
    BadFen(FenError),
    /// A move in `moves` that is not UCI notation or not legal in its position.
    BadMove {
        index: usize,
        text: String,
        reason: UciMoveError,
    },
    /// `debug` with something other than `on` or `off`.
    BadDebug(String),
    /// An unknown keyword after `go`.
    UnknownGoArgument(String),
}

impl fmt::Display for UciError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UciError::Empty => f.write_str("empty command"),
            UciError::UnknownCommand(word) => write!(f, "unknown command '{word}'"),
            UciError::MissingValue(what) => write!(f, "missing value for '{what}'"),
            UciError::BadNumber { field, value } => {
                write!(f, "'{value}' is not a valid number for '{field}'")
            }
            UciError::BadPosition(why) => write!(f, "bad position command: {why}"),
            UciError::BadFen(e) => write!(f, "bad FEN: {e}"),
            UciError::BadMove {
                index,
                text,
                reason,
            } => write!(f, "move {} '{text}' rejected: {reason}", index + 1),
            UciError::BadDebug(word) => write!(f, "debug expects on or off, not '{word}'"),
            UciError::UnknownGoArgument(word) => write!(f, "unknown go argument '{word}'"),
        }
    }
}

impl std::error::Error for UciError {}

/// Why a UCI move text (`e2e4`, `e7e8q`) was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UciMoveError {
    /// Not of the form square, square, optional promotion letter.
    Syntax,
    /// Well formed but not a legal move in the position.
    Illegal,
}

impl fmt::Display for UciMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            UciMoveError::Syntax => "not UCI move notation (such as e2e4 or e7e8q)",
            UciMoveError::Illegal => "not a legal move in this position",
        })
    }
}

impl std::error::Error for UciMoveError {}

/// Finds the legal move written in UCI notation. Castling is the king's two-square move.
///
/// # Errors
/// [`UciMoveError::Syntax`] for malformed text, [`UciMoveError::Illegal`] otherwise.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, UciMoveError> {
    let well_formed = matches!(text.len(), 4 | 5)
        && text.is_ascii()
        && text
            .get(0..2)
            .is_some_and(|s| s.parse::<crate::Square>().is_ok())
        && text
            .get(2..4)
            .is_some_and(|s| s.parse::<crate::Square>().is_ok())
        && text
            .get(4..)
            .is_some_and(|p| p.is_empty() || matches!(p, "q" | "r" | "b" | "n"));
    if !well_formed {
        return Err(UciMoveError::Syntax);
    }
    pos.legal_moves()
        .iter()
        .copied()
        .find(|mv| mv.to_string() == text)
        .ok_or(UciMoveError::Illegal)
}

impl UciCommand {
    /// Parses one line of GUI input.
    ///
    /// # Errors
    /// A [`UciError`] describing the first problem found.
    pub fn parse(line: &str) -> Result<UciCommand, UciError> {
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            return Err(UciError::Empty);
        };
        let rest: Vec<&str> = words.collect();
        match first {
            "uci" => Ok(UciCommand::Uci),
            "isready" => Ok(UciCommand::IsReady),
            "ucinewgame" => Ok(UciCommand::UciNewGame),
            "stop" => Ok(UciCommand::Stop),
            "ponderhit" => Ok(UciCommand::PonderHit),
            "quit" => Ok(UciCommand::Quit),
            "debug" => match rest.first() {
                Some(&"on") => Ok(UciCommand::Debug(true)),
                Some(&"off") => Ok(UciCommand::Debug(false)),
                Some(other) => Err(UciError::BadDebug((*other).to_string())),
                None => Err(UciError::MissingValue("debug")),
            },
            "setoption" => parse_setoption(&rest),
            "position" => parse_position(&rest),
            "go" => parse_go(&rest),
            other => Err(UciError::UnknownCommand(other.to_string())),
        }
    }
}

fn parse_setoption(words: &[&str]) -> Result<UciCommand, UciError> {
    if words.first() != Some(&"name") {
        return Err(UciError::MissingValue("name"));
    }
    let words = &words[1..];
    let value_at = words.iter().position(|w| *w == "value");
    let (name_words, value) = match value_at {
        Some(i) => (&words[..i], Some(words[i + 1..].join(" "))),
        None => (words, None),
    };
    if name_words.is_empty() {
        return Err(UciError::MissingValue("name"));
    }
    Ok(UciCommand::SetOption {
        name: name_words.join(" "),
        value,
    })
}

fn parse_position(words: &[&str]) -> Result<UciCommand, UciError> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let (setup, move_words) = match moves_at {
        Some(i) => (&words[..i], &words[i + 1..]),
        None => (words, &[][..]),
    };
    let start = match setup.first() {
        Some(&"startpos") if setup.len() == 1 => Position::startpos(),
        Some(&"startpos") => {
            return Err(UciError::BadPosition(format!(
                "unexpected '{}' after startpos",
                setup[1]
            )));
        }
        Some(&"fen") => Position::from_fen(&setup[1..].join(" ")).map_err(UciError::BadFen)?,
        Some(other) => {
            return Err(UciError::BadPosition(format!(
                "expected startpos or fen, not '{other}'"
            )));
        }
        None => return Err(UciError::BadPosition("expected startpos or fen".into())),
    };
    let mut pos = start;
    let mut moves = Vec::with_capacity(move_words.len());
    for (index, text) in move_words.iter().enumerate() {
        let mv = parse_move(&pos, text).map_err(|reason| UciError::BadMove {
            index,
            text: (*text).to_string(),
            reason,
        })?;
        pos.play_unchecked(mv);
        moves.push(mv);
    }
    Ok(UciCommand::Position { start, moves })
}

fn number<T: std::str::FromStr>(field: &'static str, value: Option<&&str>) -> Result<T, UciError> {
    let value = value.ok_or(UciError::MissingValue(field))?;
    value.parse().map_err(|_| UciError::BadNumber {
        field,
        value: (*value).to_string(),
    })
}

/// Clock values may be negative when a GUI's clock has run out; they count as zero.
fn millis(field: &'static str, value: Option<&&str>) -> Result<Duration, UciError> {
    let ms: i64 = number(field, value)?;
    Ok(Duration::from_millis(ms.max(0) as u64))
}

fn parse_go(words: &[&str]) -> Result<UciCommand, UciError> {
    if words.first() == Some(&"perft") {
        let depth = number("perft", words.get(1))?;
        return Ok(UciCommand::Perft(depth));
    }
    let mut go = GoParams::default();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        let value = words.get(i + 1);
        i += 2;
        match word {
            "wtime" => go.wtime = Some(millis(word_name(word), value)?),
            "btime" => go.btime = Some(millis(word_name(word), value)?),
            "winc" => go.winc = Some(millis(word_name(word), value)?),
            "binc" => go.binc = Some(millis(word_name(word), value)?),
            "movetime" => go.movetime = Some(millis(word_name(word), value)?),
            "movestogo" => go.movestogo = Some(number("movestogo", value)?),
            "depth" => go.depth = Some(number("depth", value)?),
            "nodes" => go.nodes = Some(number("nodes", value)?),
            "mate" => go.mate = Some(number("mate", value)?),
            "infinite" => {
                go.infinite = true;
                i -= 1;
            }
            "ponder" => {
                go.ponder = true;
                i -= 1;
            }
            "searchmoves" => {
                // Every following word that is not a keyword is a move.
                i -= 1;
                while i < words.len() && !GO_KEYWORDS.contains(&words[i]) {
                    go.searchmoves.push(words[i].to_string());
                    i += 1;
                }
            }
            other => return Err(UciError::UnknownGoArgument(other.to_string())),
        }
    }
    Ok(UciCommand::Go(go))
}

const GO_KEYWORDS: [&str; 12] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movetime",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "infinite",
    "ponder",
    "searchmoves",
];

/// The keyword as a `'static` name for error messages.
fn word_name(word: &str) -> &'static str {
    GO_KEYWORDS
        .iter()
        .copied()
        .find(|k| *k == word)
        .unwrap_or("go")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_position_with_moves() {
        let cmd = UciCommand::parse("position startpos moves e2e4 e7e5 g1f3").unwrap();
        let UciCommand::Position { start, moves } = cmd else {
            panic!("not a position command");
        };
        assert_eq!(start, Position::startpos());
        assert_eq!(
            moves.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            ["e2e4", "e7e5", "g1f3"]
        );
    }

    #[test]
    fn parses_fen_position() {
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let cmd = UciCommand::parse(&format!("position fen {fen} moves e1g1")).unwrap();
        let UciCommand::Position { start, moves } = cmd else {
            panic!("not a position command");
        };
        assert_eq!(start.to_fen(), fen);
        assert_eq!(moves.len(), 1);
        assert!(moves[0].is_castle());
    }

    #[test]
    fn rejects_illegal_and_malformed_moves() {
        assert!(matches!(
            UciCommand::parse("position startpos moves e2e5"),
            Err(UciError::BadMove {
                index: 0,
                reason: UciMoveError::Illegal,
                ..
            })
        ));
        assert!(matches!(
            UciCommand::parse("position startpos moves e2e4 e7e5q"),
            Err(UciError::BadMove {
                index: 1,
                reason: UciMoveError::Illegal,
                ..
            })
        ));
        assert!(matches!(
            UciCommand::parse("position startpos moves zz"),
            Err(UciError::BadMove {
                reason: UciMoveError::Syntax,
                ..
            })
        ));
        assert!(matches!(
            UciCommand::parse("position fen 8/8/8 w - - 0 1"),
            Err(UciError::BadFen(_))
        ));
        assert!(UciCommand::parse("position").is_err());
        assert!(UciCommand::parse("position startpos extra").is_err());
    }

    #[test]
    fn parses_go_limits() {
        let cmd = UciCommand::parse(
            "go wtime 1000 btime -5 winc 10 binc 10 movestogo 20 depth 7 nodes 5000 searchmoves e2e4 d2d4 movetime 50",
        )
        .unwrap();
        let UciCommand::Go(go) = cmd else {
            panic!("not go");
        };
        assert_eq!(go.wtime, Some(Duration::from_millis(1000)));
        assert_eq!(go.btime, Some(Duration::ZERO));
        assert_eq!(go.movestogo, Some(20));
        assert_eq!(go.depth, Some(7));
        assert_eq!(go.nodes, Some(5000));
        assert_eq!(go.searchmoves, ["e2e4", "d2d4"]);
        assert_eq!(go.movetime, Some(Duration::from_millis(50)));
        assert!(
            UciCommand::parse("go infinite").unwrap()
                == UciCommand::Go(GoParams {
                    infinite: true,
                    ..GoParams::default()
                })
        );
        assert_eq!(UciCommand::parse("go perft 3"), Ok(UciCommand::Perft(3)));
        assert!(UciCommand::parse("go depth").is_err());
        assert!(UciCommand::parse("go depth x").is_err());
        assert!(UciCommand::parse("go sideways").is_err());
    }

    #[test]
    fn parses_setoption_with_spaces() {
        assert_eq!(
            UciCommand::parse("setoption name Move Overhead value 30"),
            Ok(UciCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            })
        );
        assert_eq!(
            UciCommand::parse("setoption name Clear Hash"),
            Ok(UciCommand::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert!(UciCommand::parse("setoption value 3").is_err());
    }

    #[test]
    fn unknown_and_empty() {
        assert_eq!(UciCommand::parse("   "), Err(UciError::Empty));
        assert!(matches!(
            UciCommand::parse("fly"),
            Err(UciError::UnknownCommand(_))
        ));
    }
}
