//! The Saved games screen's words: a list row and the choices for each stored game.

use chesspi_engine::Color;
use chesspi_engine::pgn::GameResult;

use super::controller::{ResultCard, SavedGameChoice};
use crate::storage::{GameHeader, GameSummary};

/// One row of the list as the screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub choice: SavedGameChoice,
    pub detail: String,
    pub result: String,
}

/// "2026.11.23" as "23 Nov 2026"; unknown parts are left out.
fn date_text(pgn_date: &str) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let mut parts = pgn_date.split('.');
    let (year, month, day) = (parts.next(), parts.next(), parts.next());
    let year = year.filter(|y| y.chars().all(|c| c.is_ascii_digit()) && !y.is_empty());
    let month = month
        .and_then(|m| m.parse::<usize>().ok())
        .and_then(|m| MONTHS.get(m.wrapping_sub(1)));
    let day = day.and_then(|d| d.parse::<u32>().ok());
    match (day, month, year) {
        (Some(d), Some(m), Some(y)) => format!("{d} {m} {y}"),
        (None, Some(m), Some(y)) => format!("{m} {y}"),
        (_, _, Some(y)) => y.to_string(),
        _ => "date unknown".to_string(),
    }
}

/// The result from this device's player's side ("You won"), or by colour when two people
/// shared the screen or the computer played itself.
fn result_text(h: &GameHeader) -> &'static str {
    let winner = match h.result {
        GameResult::WhiteWins => Color::White,
        GameResult::BlackWins => Color::Black,
        GameResult::Draw => return "Draw",
        GameResult::Unknown => return "Unfinished",
    };
    match h.local {
        Some(me) if me == winner => "You won",
        Some(_) => "You lost",
        None if winner == Color::White => "White won",
        None => "Black won",
    }
}

/// "Level 4 (≈1390)" from the archive's computer name, if it is one.
fn level_of(name: &str) -> Option<String> {
    name.strip_prefix("ChessPI level ")
        .map(|rest| rest.replace('~', "≈"))
}

/// The players as the game screen names them: "You vs Computer, level 4 (≈1390)",
/// "White vs Black", "You vs Kitchen table".
fn players_title(h: &GameHeader) -> String {
    let name = |n: &str| match level_of(n) {
        Some(level) => format!("Computer, level {level}"),
        None => n.to_string(),
    };
    match (h.local, h.mode.as_deref()) {
        (Some(Color::White), _) => format!("You vs {}", name(&h.black)),
        (Some(Color::Black), _) => format!("You vs {}", name(&h.white)),
        (None, Some("two-players")) => "Two players".to_string(),
        (None, _) => format!("{} vs {}", name(&h.white), name(&h.black)),
    }
}

/// A player as the review's player line shows them: "Computer" with "Level 4 (≈1390)" as
/// the detail, or the stored name alone.
pub fn review_name(stored: &str) -> (String, String) {
    match level_of(stored) {
        Some(level) => ("Computer".to_string(), format!("Level {level}")),
        None => (stored.to_string(), String::new()),
    }
}

/// The list row of a stored game.
pub fn row(summary: &GameSummary) -> GameRow {
    match summary {
        GameSummary::Game(h) => {
            let moves = h.move_count();
            let when = match &h.time {
                Some(time) => format!("{}, {time}", date_text(&h.date)),
                None => date_text(&h.date),
            };
            let mut detail = format!("{when} · {moves} move{}", if moves == 1 { "" } else { "s" });
            if let Some(t) = &h.termination {
                detail.push_str(" · ");
                detail.push_str(t);
            }
            GameRow {
                choice: SavedGameChoice {
                    id: h.id.as_str().to_string(),
                    title: players_title(h),
                    unfinished: h.is_unfinished(),
                    readable: true,
                },
                detail,
                result: result_text(h).to_string(),
            }
        }
        GameSummary::Damaged { id, reason } => GameRow {
            choice: SavedGameChoice {
                id: id.as_str().to_string(),
                title: "Damaged file".to_string(),
                unfinished: false,
                readable: false,
            },
            detail: reason.clone(),
            result: "?".to_string(),
        },
    }
}

/// The result card of a stored game under review: its recorded result, which may be a
/// resignation or an agreement that replaying the moves cannot know.
pub fn result_card(h: &GameHeader) -> Option<ResultCard> {
    let title = match h.result {
        // By colour: the players' names are on the board's edges already.
        GameResult::WhiteWins => "White wins".to_string(),
        GameResult::BlackWins => "Black wins".to_string(),
        GameResult::Draw => "Draw".to_string(),
        GameResult::Unknown => return None,
    };
    Some(ResultCard {
        title,
        reason: h
            .termination
            .as_ref()
            .map_or_else(String::new, |t| format!("by {t}")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_names_read_naturally() {
        assert_eq!(date_text("2026.11.23"), "23 Nov 2026");
        assert_eq!(date_text("2026.11.??"), "Nov 2026");
        assert_eq!(date_text("2026.??.??"), "2026");
        assert_eq!(date_text("????.??.??"), "date unknown");
        assert_eq!(date_text("2026.13.01"), "2026");
        assert_eq!(
            review_name("ChessPI level 4 (~1390)"),
            ("Computer".to_string(), "Level 4 (≈1390)".to_string())
        );
        assert_eq!(review_name("You"), ("You".to_string(), String::new()));
    }

    fn header(result: GameResult, local: Option<Color>, mode: &str) -> GameHeader {
        GameHeader {
            id: crate::storage::GameId::parse("000001-00000000000000aa").expect("id"),
            white: "You".into(),
            black: "ChessPI level 4 (~1390)".into(),
            date: "2026.11.24".into(),
            result,
            termination: Some("checkmate".into()),
            plies: 21,
            level: Some(4),
            mode: Some(mode.into()),
            local,
            time: Some("14:05".into()),
        }
    }

    #[test]
    fn rows_say_who_played_when_and_who_won_from_the_player_side() {
        let h = header(GameResult::BlackWins, Some(Color::White), "vs-computer");
        let r = row(&GameSummary::Game(h));
        assert_eq!(r.choice.title, "You vs Computer, level 4 (≈1390)");
        assert_eq!(r.detail, "24 Nov 2026, 14:05 · 11 moves · checkmate");
        assert_eq!(r.result, "You lost");
        let won = header(GameResult::WhiteWins, Some(Color::White), "vs-computer");
        assert_eq!(row(&GameSummary::Game(won)).result, "You won");
        let mut two = header(GameResult::WhiteWins, None, "two-players");
        two.black = "Black".into();
        two.white = "White".into();
        let r = row(&GameSummary::Game(two));
        assert_eq!(
            (r.choice.title.as_str(), r.result.as_str()),
            ("Two players", "White won")
        );
        let open = header(GameResult::Unknown, Some(Color::White), "vs-computer");
        assert_eq!(row(&GameSummary::Game(open)).result, "Unfinished");
        let draw = header(GameResult::Draw, None, "computer-vs-computer");
        assert_eq!(row(&GameSummary::Game(draw)).result, "Draw");
    }
}
