//! Protocol v1 messages and their wire form: one JSON object per line (see docs/PROTOCOL.md).
//! No I/O here: [`LineReader`] cuts bytes into lines, [`decode`] and [`encode`] convert them.
//! Nothing in this file panics on any input (it is the fuzz target's entry point).

use chesspi_engine::Color;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The protocol version this code speaks.
pub const PROTOCOL_VERSION: u64 = 1;
/// Longest line on the wire, the `\n` included.
pub const MAX_LINE: usize = 4096;

/// A colour as written on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    White,
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// What an `offer` asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OfferKind {
    Draw,
    Takeback,
}

/// The `resume` field of `hello`: the game the guest has and how many half-moves of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resume {
    pub game: String,
    pub ply: u32,
    /// Added to v1: the guest claimed the win by forfeit while the host was away
    /// (docs/PROTOCOL.md §6). Older hosts ignore it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub forfeit: bool,
    /// Added to v1: the resume secret the host's `welcome` gave (docs/PROTOCOL.md §4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

/// The `code` of an `error` message. Codes this side does not know are kept as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum ErrorCode {
    /// `hello` with a protocol other than 1.
    Version,
    /// Wrong pairing code.
    BadCode,
    /// The host plays with someone else.
    Busy,
    /// `hello` resumes a game the host does not have.
    UnknownGame,
    /// A move whose ply is not the receiver's count.
    BadPly,
    /// A move by the side not on move.
    NotYourTurn,
    /// A move that is not legal.
    IllegalMove,
    /// Not JSON, no `type`, or a field of the wrong type.
    BadMessage,
    /// A `type` the receiver does not know.
    UnknownType,
    /// A line over [`MAX_LINE`] bytes (the connection is closed).
    TooLong,
    /// More than the allowed messages per second (the connection is closed). Added to v1.
    Flood,
    /// A message that needs the handshake came before it (the connection is closed). Added to v1.
    HelloFirst,
    /// The host takes no guest any more: its partner left the game with `bye` (the
    /// connection is closed). Added to v1.
    Closed,
    /// Too many wrong codes from the guest's address: its codes are not looked at for a
    /// while (the connection is closed). Added to v1.
    Wait,
    /// Any other code.
    Other(String),
}

impl ErrorCode {
    pub fn as_str(&self) -> &str {
        match self {
            ErrorCode::Version => "version",
            ErrorCode::BadCode => "bad_code",
            ErrorCode::Busy => "busy",
            ErrorCode::UnknownGame => "unknown_game",
            ErrorCode::BadPly => "bad_ply",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::BadMessage => "bad_message",
            ErrorCode::UnknownType => "unknown_type",
            ErrorCode::TooLong => "too_long",
            ErrorCode::Flood => "flood",
            ErrorCode::HelloFirst => "hello_first",
            ErrorCode::Closed => "closed",
            ErrorCode::Wait => "wait",
            ErrorCode::Other(s) => s,
        }
    }
}

impl From<String> for ErrorCode {
    fn from(s: String) -> ErrorCode {
        match s.as_str() {
            "version" => ErrorCode::Version,
            "bad_code" => ErrorCode::BadCode,
            "busy" => ErrorCode::Busy,
            "unknown_game" => ErrorCode::UnknownGame,
            "bad_ply" => ErrorCode::BadPly,
            "not_your_turn" => ErrorCode::NotYourTurn,
            "illegal_move" => ErrorCode::IllegalMove,
            "bad_message" => ErrorCode::BadMessage,
            "unknown_type" => ErrorCode::UnknownType,
            "too_long" => ErrorCode::TooLong,
            "flood" => ErrorCode::Flood,
            "hello_first" => ErrorCode::HelloFirst,
            "closed" => ErrorCode::Closed,
            "wait" => ErrorCode::Wait,
            _ => ErrorCode::Other(s),
        }
    }
}

impl From<ErrorCode> for String {
    fn from(c: ErrorCode) -> String {
        c.as_str().to_string()
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The lowest and highest rating a `player` may carry (Glicko-2 points).
pub const RATING_BOUNDS: (f64, f64) = (0.0, 4000.0);
/// The lowest and highest rating deviation a `player` may carry (Glicko-2 points).
pub const DEVIATION_BOUNDS: (f64, f64) = (1.0, 500.0);

/// A player's Glicko-2 rating and its deviation as the wire carries them: finite and within
/// [`RATING_BOUNDS`] and [`DEVIATION_BOUNDS`] (made only by [`PlayerRating::new`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayerRating {
    rating: f64,
    deviation: f64,
}

// Never NaN: `new` keeps only values within the bounds.
impl Eq for PlayerRating {}

impl PlayerRating {
    /// The rating, or `None` when either value is outside its bounds (or not a number).
    pub fn new(rating: f64, deviation: f64) -> Option<PlayerRating> {
        let within = |v: f64, (low, high): (f64, f64)| (low..=high).contains(&v);
        (within(rating, RATING_BOUNDS) && within(deviation, DEVIATION_BOUNDS))
            .then_some(PlayerRating { rating, deviation })
    }

    pub fn rating(self) -> f64 {
        self.rating
    }

    pub fn deviation(self) -> f64 {
        self.deviation
    }
}

/// Added to v1: the person playing at the sending device, in `hello` and `welcome`
/// (docs/PROTOCOL.md §4): their name, and their rating unless they play unrated. A guest of
/// the device sends none. Decoding is lenient, like a move's `clock`: a `player` that is no
/// object or has no string `name` is absent, and a rating out of bounds or not a number is
/// absent (the game is then unrated), so a number that only rates the game never stops it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerCard {
    /// As sent; the session cleans it before showing it.
    pub name: String,
    pub rating: Option<PlayerRating>,
}

/// The wire form of [`PlayerCard`]: `rating` and `deviation` are both there or neither.
#[derive(Serialize)]
struct RawCard<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    deviation: Option<f64>,
}

impl Serialize for PlayerCard {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        RawCard {
            name: &self.name,
            rating: self.rating.map(PlayerRating::rating),
            deviation: self.rating.map(PlayerRating::deviation),
        }
        .serialize(s)
    }
}

impl PlayerCard {
    /// The card in `value`, if it is one; see [`PlayerCard`] for what is dropped.
    fn from_value(value: &serde_json::Value) -> Option<PlayerCard> {
        let object = value.as_object()?;
        let name = object.get("name")?.as_str()?.to_string();
        let number = |key| object.get(key).and_then(serde_json::Value::as_f64);
        let rating = match (number("rating"), number("deviation")) {
            (Some(r), Some(d)) => PlayerRating::new(r, d),
            _ => None,
        };
        Some(PlayerCard { name, rating })
    }
}

/// Reads an optional `player` field: anything that is not a card is no card (never an error).
fn lenient_card<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<PlayerCard>, D::Error> {
    let value = serde_json::Value::deserialize(d)?;
    Ok(PlayerCard::from_value(&value))
}

/// The guest's first message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub protocol: u64,
    /// The device's name.
    pub name: String,
    pub code: String,
    #[serde(default)]
    pub resume: Option<Resume>,
    /// Added to v1: the guest's player (absent from older guests and for a guest player).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient_card"
    )]
    pub player: Option<PlayerCard>,
}

/// The `clock` of `welcome`: the game's time control and both clocks now, in milliseconds.
/// Absent in an untimed game (and from peers that do not know clocks).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockMsg {
    pub base: u64,
    pub increment: u64,
    pub white: u64,
    pub black: u64,
}

/// The host's answer to an accepted `hello`: the whole game so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Welcome {
    pub protocol: u64,
    /// The device's name.
    pub name: String,
    pub game: String,
    pub you: Side,
    pub start: String,
    pub moves: Vec<String>,
    #[serde(default)]
    pub result: Option<String>,
    /// Added to v1: the clocks of a timed game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockMsg>,
    /// Added to v1: `"time"` when `result` came from a fallen flag, `"abandoned"` when the
    /// host won by forfeit (the guest was away too long).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub termination: Option<String>,
    /// Added to v1: what the guest must show to resume this game (only the guest learns it;
    /// the game id alone is not enough).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
    /// Added to v1: the host's player (absent from older hosts and for a guest player).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "lenient_card"
    )]
    pub player: Option<PlayerCard>,
}

/// An `error` message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorMsg {
    pub code: ErrorCode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub text: String,
}

/// Every message of protocol v1.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Message {
    Hello(Hello),
    Welcome(Welcome),
    Error(ErrorMsg),
    Move {
        ply: u32,
        uci: String,
        /// Added to v1: the mover's time left after this move (ms, increment included).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<u64>,
    },
    Ack {
        ply: u32,
    },
    Ping {
        seq: u64,
    },
    Pong {
        seq: u64,
    },
    Offer {
        what: OfferKind,
    },
    Reply {
        what: OfferKind,
        accept: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ply: Option<u32>,
    },
    Resign,
    Bye,
    /// Added to v1: the sender's time ran out with `ply` half-moves played.
    Flag {
        ply: u32,
    },
}

/// The `type` values of [`Message`]; anything else is `unknown_type`.
const KNOWN_TYPES: [&str; 12] = [
    "hello", "welcome", "error", "move", "ack", "ping", "pong", "offer", "reply", "resign", "bye",
    "flag",
];

impl Message {
    /// An `error` message without ply.
    pub fn error(code: ErrorCode, text: impl Into<String>) -> Message {
        Message::Error(ErrorMsg {
            code,
            ply: None,
            text: text.into(),
        })
    }

    /// The `type` field, for logs.
    pub fn type_name(&self) -> &'static str {
        match self {
            Message::Hello(_) => "hello",
            Message::Welcome(_) => "welcome",
            Message::Error(_) => "error",
            Message::Move { .. } => "move",
            Message::Ack { .. } => "ack",
            Message::Ping { .. } => "ping",
            Message::Pong { .. } => "pong",
            Message::Offer { .. } => "offer",
            Message::Reply { .. } => "reply",
            Message::Resign => "resign",
            Message::Bye => "bye",
            Message::Flag { .. } => "flag",
        }
    }
}

/// Why a line was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Not JSON, not an object, no string `type`, or a field missing or of the wrong type.
    BadMessage(String),
    /// A well-formed object whose `type` is not a v1 message.
    UnknownType(String),
    /// A line over [`MAX_LINE`] bytes.
    TooLong,
    /// A `hello` for another protocol version (its other fields may differ, so they are not read).
    Version(serde_json::Value),
}

impl DecodeError {
    /// The error code to answer with.
    pub fn code(&self) -> ErrorCode {
        match self {
            DecodeError::BadMessage(_) => ErrorCode::BadMessage,
            DecodeError::UnknownType(_) => ErrorCode::UnknownType,
            DecodeError::TooLong => ErrorCode::TooLong,
            DecodeError::Version(_) => ErrorCode::Version,
        }
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::BadMessage(why) => write!(f, "bad message: {why}"),
            DecodeError::UnknownType(t) => write!(f, "unknown message type `{}`", t.escape_debug()),
            DecodeError::TooLong => write!(f, "line longer than {MAX_LINE} bytes"),
            DecodeError::Version(v) => write!(f, "protocol version {v} is not supported"),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Decodes one line (without its `\n`; a trailing `\r` is tolerated as JSON whitespace).
///
/// # Errors
/// See [`DecodeError`].
pub fn decode(line: &[u8]) -> Result<Message, DecodeError> {
    if line.len() >= MAX_LINE {
        return Err(DecodeError::TooLong);
    }
    let mut value: serde_json::Value =
        serde_json::from_slice(line).map_err(|e| DecodeError::BadMessage(e.to_string()))?;
    let Some(object) = value.as_object_mut() else {
        return Err(DecodeError::BadMessage("not a JSON object".into()));
    };
    let Some(kind) = object.get("type").and_then(serde_json::Value::as_str) else {
        return Err(DecodeError::BadMessage("no string field `type`".into()));
    };
    if !KNOWN_TYPES.contains(&kind) {
        return Err(DecodeError::UnknownType(kind.to_string()));
    }
    // A missing `protocol` is not version 1 either: the guest gets the clear answer.
    if kind == "hello" {
        let protocol = object
            .get("protocol")
            .cloned()
            .unwrap_or(serde_json::Value::Null);
        if protocol.as_u64() != Some(PROTOCOL_VERSION) {
            return Err(DecodeError::Version(protocol));
        }
    }
    // A move's `clock` is advice: one that is not a millisecond count is dropped, and the
    // move is still judged on its own (docs/PROTOCOL.md, Clocks).
    if kind == "move" && object.get("clock").is_some_and(|c| c.as_u64().is_none()) {
        object.remove("clock");
    }
    serde_json::from_value(value).map_err(|e| DecodeError::BadMessage(e.to_string()))
}

/// Why a message could not be written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncodeError {
    /// The line would exceed [`MAX_LINE`] (e.g. a welcome for a game of ~550 half-moves).
    TooLong(usize),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::TooLong(n) => write!(f, "message of {n} bytes exceeds {MAX_LINE}"),
        }
    }
}

impl std::error::Error for EncodeError {}

/// Encodes a message as one line, `\n` included.
///
/// # Errors
/// [`EncodeError::TooLong`] when the line would exceed [`MAX_LINE`].
pub fn encode(message: &Message) -> Result<Vec<u8>, EncodeError> {
    // Serializing these plain types cannot fail; an empty object would still be answered
    // by the peer, so the fallback is harmless.
    let mut line = serde_json::to_vec(message).unwrap_or_else(|_| b"{}".to_vec());
    line.push(b'\n');
    if line.len() > MAX_LINE {
        return Err(EncodeError::TooLong(line.len()));
    }
    Ok(line)
}

/// One framed input line, or the end of framing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Frame {
    /// A line without its `\n`.
    Line(Vec<u8>),
    /// The peer sent more than [`MAX_LINE`] bytes without a `\n`; nothing follows.
    TooLong,
}

/// Cuts a byte stream into lines of at most [`MAX_LINE`] bytes, whatever the read sizes.
#[derive(Debug, Default)]
pub struct LineReader {
    buf: Vec<u8>,
    overflowed: bool,
}

impl LineReader {
    pub fn new() -> LineReader {
        LineReader::default()
    }

    /// Feeds received bytes and appends the complete frames to `out`. After a
    /// [`Frame::TooLong`] the reader ignores everything: the connection is to be closed.
    pub fn feed(&mut self, mut bytes: &[u8], out: &mut Vec<Frame>) {
        while !self.overflowed && !bytes.is_empty() {
            match bytes.iter().position(|&b| b == b'\n') {
                Some(i) if self.buf.len() + i < MAX_LINE => {
                    self.buf.extend_from_slice(&bytes[..i]);
                    let line = std::mem::take(&mut self.buf);
                    // Blank lines (e.g. a typed Enter) are not messages.
                    if !line.iter().all(u8::is_ascii_whitespace) {
                        out.push(Frame::Line(line));
                    }
                    bytes = &bytes[i + 1..];
                }
                None if self.buf.len() + bytes.len() < MAX_LINE => {
                    self.buf.extend_from_slice(bytes);
                    bytes = &[];
                }
                _ => {
                    self.overflowed = true;
                    self.buf = Vec::new();
                    out.push(Frame::TooLong);
                }
            }
        }
    }

    /// Bytes held of an unfinished line.
    pub fn pending(&self) -> usize {
        self.buf.len()
    }
}

#[cfg(test)]
mod tests;
