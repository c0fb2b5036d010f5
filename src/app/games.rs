//! The Saved games screen's words: a list row and the choices for each stored game.

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

/// "ChessPI level 4 (~1390)" reads as "Level 4 (≈1390)" in the narrow list.
fn short_name(name: &str) -> String {
    match name.strip_prefix("ChessPI level ") {
        Some(rest) => format!("Level {}", rest.replace('~', "≈")),
        None => name.to_string(),
    }
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

fn result_text(result: GameResult) -> &'static str {
    match result {
        GameResult::WhiteWins => "1–0",
        GameResult::BlackWins => "0–1",
        GameResult::Draw => "½–½",
        GameResult::Unknown => "unfinished",
    }
}

/// The list row of a stored game.
pub fn row(summary: &GameSummary) -> GameRow {
    match summary {
        GameSummary::Game(h) => {
            let moves = h.move_count();
            let mut detail = format!(
                "{} · {moves} move{}",
                date_text(&h.date),
                if moves == 1 { "" } else { "s" }
            );
            if let Some(t) = &h.termination {
                detail.push_str(" · ");
                detail.push_str(t);
            }
            GameRow {
                choice: SavedGameChoice {
                    id: h.id.as_str().to_string(),
                    title: format!("{} – {}", short_name(&h.white), short_name(&h.black)),
                    unfinished: h.is_unfinished(),
                    readable: true,
                },
                detail,
                result: result_text(h.result).to_string(),
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
        assert_eq!(short_name("ChessPI level 4 (~1390)"), "Level 4 (≈1390)");
        assert_eq!(short_name("You"), "You");
    }
}
