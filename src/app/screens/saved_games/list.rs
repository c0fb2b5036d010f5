//! The Saved games screen's words: a list row and the choices for each stored game.

use chesspi_engine::Color;
use chesspi_engine::pgn::GameResult;

use crate::app::screens::words::{date_text, level_of};
use crate::app::screens::{ResultCard, ResultTone, SavedGameChoice, termination_reason};
use crate::storage::archive::termination_from_tag;
use crate::storage::{GameHeader, GameSummary};
use crate::{tr, trn};
use chesspi_engine::game::Termination;

/// One row of the list as the screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    pub choice: SavedGameChoice,
    pub detail: String,
    pub result: String,
}

/// The result from this device's player's side ("You won"), or by colour when two people
/// shared the screen or the computer played itself.
fn result_text(h: &GameHeader) -> String {
    let winner = match h.result {
        GameResult::WhiteWins => Color::White,
        GameResult::BlackWins => Color::Black,
        GameResult::Draw => return tr!("Draw"),
        // A network game is stored unfinished only when it was adjourned; its title names the
        // partner.
        GameResult::Unknown if h.mode.as_deref() == Some("lan") => return tr!("Adjourned"),
        GameResult::Unknown => return tr!("Unfinished"),
    };
    match h.local {
        Some(me) if me == winner => tr!("You won"),
        Some(_) => tr!("You lost"),
        None if winner == Color::White => tr!("White won"),
        None => tr!("Black won"),
    }
}

/// The players as the game screen names them: "You vs Computer, level 4 (≈1390)",
/// "White vs Black", "You vs Kitchen table".
fn players_title(h: &GameHeader) -> String {
    let name = |n: &str| match level_of(n) {
        Some(level) => tr!("Computer, level {}", level),
        None => n.to_string(),
    };
    match (h.local, h.mode.as_deref()) {
        (Some(Color::White), _) => tr!("You vs {}", name(&h.black)),
        (Some(Color::Black), _) => tr!("You vs {}", name(&h.white)),
        (None, Some("two-players")) => tr!("Two players"),
        (None, _) => tr!("{} vs {}", name(&h.white), name(&h.black)),
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
            let mut detail = format!("{when} · {}", trn!("{} move", "{} moves", moves));
            if let Some(t) = &h.termination {
                detail.push_str(" · ");
                detail.push_str(&termination_words(t));
            }
            GameRow {
                choice: SavedGameChoice {
                    id: h.id.as_str().to_string(),
                    title: players_title(h),
                    unfinished: h.is_unfinished(),
                    readable: true,
                },
                detail,
                result: result_text(h),
            }
        }
        GameSummary::Damaged { id, reason } => GameRow {
            choice: SavedGameChoice {
                id: id.as_str().to_string(),
                title: tr!("Damaged file"),
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
        GameResult::WhiteWins => tr!("White wins"),
        GameResult::BlackWins => tr!("Black wins"),
        GameResult::Draw => tr!("Draw"),
        GameResult::Unknown => return None,
    };
    Some(ResultCard {
        title,
        tone: ResultTone::Neutral,
        reason: h.termination.as_ref().map_or_else(String::new, |t| {
            match termination_from_tag(t) {
                Some(t) => termination_reason(t),
                None => t.clone(),
            }
        }),
    })
}

/// A stored `Termination` tag in the list's words: this app's own tags translated, others
/// as written.
fn termination_words(tag: &str) -> String {
    match termination_from_tag(tag) {
        Some(Termination::Checkmate) => tr!("checkmate"),
        Some(Termination::Stalemate) => tr!("stalemate"),
        Some(Termination::Resignation) => tr!("resignation"),
        Some(Termination::Agreement) => tr!("draw by agreement"),
        Some(Termination::ThreefoldRepetition) => tr!("draw by threefold repetition"),
        Some(Termination::FivefoldRepetition) => tr!("draw by fivefold repetition"),
        Some(Termination::FiftyMoves) => tr!("draw by the 50-move rule"),
        Some(Termination::SeventyFiveMoves) => tr!("draw by the 75-move rule"),
        Some(Termination::InsufficientMaterial) => tr!("draw by insufficient material"),
        Some(Termination::Time) => tr!("time forfeit"),
        Some(Termination::Abandonment) => tr!("abandonment"),
        None if tag == "unterminated" => tr!("unfinished"),
        None => tag.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::screens::words::{date_text_in, review_name};
    use crate::i18n::Language;

    #[test]
    fn dates_and_names_read_naturally() {
        assert_eq!(date_text_in(Language::English, "2026.11.23"), "23 Nov 2026");
        assert_eq!(date_text_in(Language::English, "2026.11.??"), "Nov 2026");
        assert_eq!(date_text_in(Language::English, "2026.??.??"), "2026");
        assert_eq!(
            date_text_in(Language::English, "????.??.??"),
            "date unknown"
        );
        assert_eq!(date_text_in(Language::English, "2026.13.01"), "2026");
        assert_eq!(date_text_in(Language::German, "2026.11.03"), "3.11.2026");
        assert_eq!(date_text_in(Language::German, "2026.11.??"), "11/2026");
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
        let mut adjourned = header(GameResult::Unknown, Some(Color::Black), "lan");
        adjourned.white = "Kitchen table".into();
        let r = row(&GameSummary::Game(adjourned));
        assert_eq!(
            (r.choice.title.as_str(), r.result.as_str()),
            ("You vs Kitchen table", "Adjourned")
        );
        let draw = header(GameResult::Draw, None, "computer-vs-computer");
        assert_eq!(row(&GameSummary::Game(draw)).result, "Draw");
    }
}
