//! The PGN encoding of a saved game: the tags ChessPI writes (players, mode, levels,
//! clocks, termination) and how they are read back. The files themselves are the archive's
//! (`super`).

use chesspi_engine::game::Termination;
use chesspi_engine::level::Level;
use chesspi_engine::pgn::{self, GameResult, PgnGame};
use chesspi_engine::{Color, IllegalMoveError};

use crate::storage::autosave::{Clocks, GameMode, LanLink, SavedGame, TERMINATIONS, color_name};
use crate::storage::peer_rating::PeerRating;
use crate::storage::seats::{MAX_NAME_CHARS, Seat, Seats, Who, player_tag};
use crate::storage::timestamp::UtcDateTime;

use super::{GameHeader, GameId, UNTERMINATED};

/// The name the archive gives the computer at a level, e.g. `ChessPI level 4 (~1400)`.
pub fn computer_name(level: Level) -> String {
    format!("ChessPI level {} (~{})", level.number(), level.elo())
}

/// The local player's name in PGN files.
pub const LOCAL_PLAYER: &str = "You";

/// White's and Black's names for a mode; a person of this device by their name in `seats`
/// (a game saved before players: "You", or "White" and "Black" between two).
pub fn player_names(mode: &GameMode, seats: &Seats) -> (String, String) {
    let person = |color: Color, before_players: &str| {
        seats
            .get(color)
            .map_or_else(|| before_players.to_string(), |s| s.name.clone())
    };
    match mode {
        GameMode::VsComputer { human, level } => match human {
            Color::White => (person(Color::White, LOCAL_PLAYER), computer_name(*level)),
            Color::Black => (computer_name(*level), person(Color::Black, LOCAL_PLAYER)),
        },
        GameMode::TwoPlayers => (person(Color::White, "White"), person(Color::Black, "Black")),
        GameMode::ComputerVsComputer { white, black } => {
            (computer_name(*white), computer_name(*black))
        }
        GameMode::Lan { local, peer, .. } => match local {
            Color::White => (person(Color::White, LOCAL_PLAYER), peer.clone()),
            Color::Black => (peer.clone(), person(Color::Black, LOCAL_PLAYER)),
        },
    }
}

/// The persons of this device at a stored game's sides: each side's `ChessPIWhitePlayer` /
/// `ChessPIBlackPlayer` with its `White` / `Black` name.
pub fn seats_from_tags(game: &PgnGame) -> Seats {
    let mut seats = Seats::none();
    for color in [Color::White, Color::Black] {
        let who = game.tag(player_tag(color)).and_then(Who::from_code);
        let name = game.tag(match color {
            Color::White => "White",
            Color::Black => "Black",
        });
        if let (Some(who), Some(name)) = (who, name) {
            let name = crate::text::shown(name, MAX_NAME_CHARS);
            seats.set(color, Some(Seat { who, name }));
        }
    }
    seats
}

/// The PGN tags of a saved game (the `Result` tag follows from the moves and outcome).
pub fn pgn_tags(game: &SavedGame) -> Vec<(String, String)> {
    let (white, black) = player_names(&game.mode, &game.seats);
    let started = UtcDateTime::from_unix_seconds(game.started_unix);
    // The standard's values in `Termination` (what other programs read); why exactly it
    // ended, for this app's list, in `ChessPITermination`.
    let outcome = game.game.outcome();
    let termination = outcome.map_or(UNTERMINATED, |o| match o.termination {
        Termination::Time => "time forfeit",
        Termination::Abandonment => "abandoned",
        _ => "normal",
    });
    let mut tags: Vec<(String, String)> = vec![
        ("Event".into(), "ChessPI game".into()),
        ("Site".into(), "ChessPI".into()),
        ("Date".into(), started.pgn_date()),
        ("Round".into(), "-".into()),
        ("White".into(), white),
        ("Black".into(), black),
        ("UTCDate".into(), started.pgn_date()),
        ("UTCTime".into(), started.pgn_time()),
        ("Termination".into(), termination.into()),
        ("PlyCount".into(), game.game.moves().len().to_string()),
        ("ChessPIGameId".into(), format!("{:016x}", game.id)),
    ];
    if let Some(o) = outcome {
        tags.push(("ChessPITermination".into(), o.termination.describe().into()));
    }
    if let Some(opening) = chesspi_engine::openings::classify(&game.game) {
        tags.push(("ECO".into(), opening.eco.into()));
        tags.push(("Opening".into(), opening.name.into()));
    }
    if let Some(c) = &game.clocks {
        // The PGN standard's form: seconds + increment.
        tags.push((
            "TimeControl".into(),
            format!("{}+{}", c.base.as_secs(), c.increment.as_secs()),
        ));
        if game.game.outcome().is_none() {
            // To play on with the clocks where they stood (e.g. an adjourned network game).
            tags.push(("ChessPIClocks".into(), clocks_tag(c)));
        }
    }
    for color in [Color::White, Color::Black] {
        if let Some(seat) = game.seats.get(color) {
            tags.push((player_tag(color).into(), seat.who.code()));
        }
    }
    let mut push = |name: &str, value: String| tags.push((name.to_string(), value));
    match &game.mode {
        GameMode::VsComputer { human, level } => {
            push("ChessPIMode", "vs-computer".into());
            push("ChessPILevel", level.number().to_string());
            push("ChessPIHuman", color_name(Some(*human)).into());
        }
        GameMode::TwoPlayers => push("ChessPIMode", "two-players".into()),
        GameMode::ComputerVsComputer { white, black } => {
            push("ChessPIMode", "computer-vs-computer".into());
            push("ChessPIWhiteLevel", white.number().to_string());
            push("ChessPIBlackLevel", black.number().to_string());
        }
        GameMode::Lan { local, peer, link } => {
            push("ChessPIMode", "lan".into());
            push("ChessPILocal", color_name(Some(*local)).into());
            push("ChessPIPeer", peer.clone());
            // What playing on needs to find the same partner (an adjourned game).
            if let Some(link) = link {
                push("ChessPILanGame", link.game_id.clone());
                if let Some(host) = &link.host {
                    push("ChessPILanHost", host.clone());
                }
                if let Some(rating) = link.peer_rating {
                    push("ChessPILanRating", rating.to_string());
                }
            }
        }
    }
    tags
}

/// The game as one PGN text.
///
/// # Errors
/// A move is not legal where it is played (impossible for a [`Game`] built by playing moves).
pub fn to_pgn(game: &SavedGame) -> Result<String, IllegalMoveError> {
    let result = game
        .game
        .outcome()
        .map_or(GameResult::Unknown, |o| GameResult::from_winner(o.winner));
    let Some(clocks) = &game.clocks else {
        return pgn::write_game(
            &pgn_tags(game),
            game.game.initial_position(),
            game.game.moves(),
            result,
        );
    };
    // Timed games: the mover's clock after each move, the lichess way (`{ [%clk 0:04:57] }`).
    let notes: Vec<pgn::MoveAnnotation> = clocks
        .after_moves
        .iter()
        .map(|&left| pgn::MoveAnnotation {
            comment: format!("[%clk {}]", clk_text(left)),
            ..pgn::MoveAnnotation::default()
        })
        .collect();
    pgn::write_annotated_game(
        &pgn_tags(game),
        game.game.initial_position(),
        game.game.moves(),
        &notes,
        result,
    )
}

/// `H:MM:SS` of a `%clk` comment (tenths dropped).
pub(super) fn clk_text(left: std::time::Duration) -> String {
    let secs = left.as_secs();
    format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
}

/// The most characters of a tag the list shows (a row holds far fewer).
const SHOWN_CHARS: usize = 80;

pub(super) fn header_of(id: GameId, game: &PgnGame) -> GameHeader {
    // Shown on screen: a name from a stick may hold line breaks, bidi overrides or pages of
    // text.
    let tag = |name: &str| crate::text::shown(game.tag(name).unwrap_or("?"), SHOWN_CHARS);
    let level = match game.tag("ChessPIMode") {
        Some("vs-computer") => game.tag("ChessPILevel").and_then(|l| l.parse().ok()),
        _ => None,
    };
    GameHeader {
        id,
        white: tag("White"),
        black: tag("Black"),
        date: crate::text::shown(game.tag("Date").unwrap_or("????.??.??"), SHOWN_CHARS),
        result: game.result,
        // This app's own reason first; files from before it, and other programs', have
        // only `Termination`.
        termination: game
            .tag("ChessPITermination")
            .or_else(|| game.tag("Termination"))
            .map(|t| crate::text::shown(t, SHOWN_CHARS)),
        plies: game.moves.len(),
        level,
        mode: game.tag("ChessPIMode").map(str::to_string),
        local: game
            .tag("ChessPIHuman")
            .or_else(|| game.tag("ChessPILocal"))
            .and_then(|c| match c {
                "white" => Some(Color::White),
                "black" => Some(Color::Black),
                _ => None,
            }),
        time: game.tag("UTCTime").and_then(hours_minutes),
    }
}

/// `HH:MM` of a `UTCTime` value such as `14:05:09`: two digits, a colon, two digits, by
/// characters (a tag from a stick may hold any text; a cut by byte index could split one).
fn hours_minutes(time: &str) -> Option<String> {
    let head: Vec<char> = time.chars().take(5).collect();
    match head[..] {
        [h1, h2, ':', m1, m2] if [h1, h2, m1, m2].iter().all(char::is_ascii_digit) => {
            Some(head.iter().collect())
        }
        _ => None,
    }
}

pub(super) fn tag_color(game: &PgnGame, name: &str) -> Result<Color, String> {
    match game.tag(name) {
        Some("white") => Ok(Color::White),
        Some("black") => Ok(Color::Black),
        Some(other) => Err(format!("{name} is \"{other}\", expected white or black")),
        None => Err(format!("no {name} tag")),
    }
}

pub(super) fn tag_level(game: &PgnGame, name: &str) -> Result<Level, String> {
    let text = game.tag(name).ok_or_else(|| format!("no {name} tag"))?;
    text.parse()
        .ok()
        .and_then(Level::new)
        .ok_or_else(|| format!("{name} is \"{text}\", expected 1..10"))
}

/// The mode recorded in ChessPI's tags; a game from elsewhere (no `ChessPIMode`) continues as a
/// two-player game.
pub(super) fn mode_from_tags(game: &PgnGame) -> Result<GameMode, String> {
    Ok(match game.tag("ChessPIMode") {
        Some("vs-computer") => GameMode::VsComputer {
            human: tag_color(game, "ChessPIHuman")?,
            level: tag_level(game, "ChessPILevel")?,
        },
        Some("two-players") | None => GameMode::TwoPlayers,
        Some("computer-vs-computer") => GameMode::ComputerVsComputer {
            white: tag_level(game, "ChessPIWhiteLevel")?,
            black: tag_level(game, "ChessPIBlackLevel")?,
        },
        Some("lan") => GameMode::Lan {
            local: tag_color(game, "ChessPILocal")?,
            peer: game.tag("ChessPIPeer").unwrap_or("?").to_string(),
            // Written for a game left unfinished (adjourned): played on with the same partner.
            link: game.tag("ChessPILanGame").map(|id| LanLink {
                game_id: id.to_string(),
                host: game.tag("ChessPILanHost").map(str::to_string),
                // One that does not read leaves the game unrated.
                peer_rating: game.tag("ChessPILanRating").and_then(PeerRating::parse),
            }),
        },
        Some(other) => return Err(format!("unknown ChessPIMode \"{other}\"")),
    })
}

/// `ChessPIClocks`: White's and Black's time left, then the mover's after each move, in ms.
pub(super) fn clocks_tag(c: &Clocks) -> String {
    let ms = |d: &std::time::Duration| d.as_millis().to_string();
    [c.white, c.black]
        .iter()
        .chain(&c.after_moves)
        .map(ms)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The clocks of an unfinished timed game from its `TimeControl` and `ChessPIClocks` tags;
/// `None` when either is missing or does not fit the game's `plies`.
pub(super) fn clocks_from_tags(game: &PgnGame, plies: usize) -> Option<Clocks> {
    let (base, increment) = game.tag("TimeControl")?.split_once('+')?;
    let secs = |t: &str| t.parse::<u64>().ok().map(std::time::Duration::from_secs);
    let values = game
        .tag("ChessPIClocks")?
        .split_whitespace()
        .map(|v| v.parse::<u64>().ok().map(std::time::Duration::from_millis))
        .collect::<Option<Vec<_>>>()?;
    let (&[white, black], after_moves) = values.split_first_chunk::<2>()?;
    if after_moves.len() != plies {
        return None;
    }
    Some(Clocks {
        white,
        black,
        increment: secs(increment)?,
        base: secs(base)?,
        after_moves: after_moves.to_vec(),
    })
}

/// Seconds since the epoch of the `UTCDate`/`UTCTime` tags (days from the civil date).
pub(super) fn started_unix(game: &PgnGame) -> Option<u64> {
    let date = game.tag("UTCDate")?;
    let time = game.tag("UTCTime").unwrap_or("00:00:00");
    let mut d = date.split('.').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.split(':').map(|p| p.parse::<u64>().ok());
    let (hh, mm, ss) = (t.next()??, t.next()??, t.next()??);
    if !(1..=12).contains(&m) || !(1..=31).contains(&day) || hh > 23 || mm > 59 || ss > 59 {
        return None;
    }
    // Howard Hinnant's days_from_civil.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let days = u64::try_from(days).ok()?;
    Some(days * 86_400 + hh * 3600 + mm * 60 + ss)
}

/// The termination written in a `Termination` tag by this module, if it is one of the engine's.
pub fn termination_from_tag(text: &str) -> Option<Termination> {
    TERMINATIONS.into_iter().find(|t| t.describe() == text)
}
