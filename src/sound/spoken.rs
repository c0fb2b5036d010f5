//! What is said aloud, as a chess player says it: "Knight takes e5", "Springer f3, Schach",
//! "short castle", "Dame b8, Matt". Made from the move's SAN, in the screen's language.

use crate::i18n::Language;
use chesspi_engine::Color;
use chesspi_engine::game::Outcome;
use std::time::Duration;

fn piece(letter: char, language: Language) -> Option<&'static str> {
    let (en, de) = match letter {
        'K' => ("King", "König"),
        'Q' => ("Queen", "Dame"),
        'R' => ("Rook", "Turm"),
        'B' => ("Bishop", "Läufer"),
        'N' => ("Knight", "Springer"),
        _ => return None,
    };
    Some(match language {
        Language::English => en,
        Language::German => de,
    })
}

/// A lone file letter as a word: espeak-ng's English reads a bare "a" as the article.
fn file(letter: char, language: Language) -> String {
    match (letter, language) {
        ('a', Language::English) => "[['eI]]".into(),
        _ => letter.to_string(),
    }
}

/// The words for a move given in SAN (as the game's move list has it). Text that is not SAN
/// is said as it stands, never refused.
pub fn san_words(san: &str, language: Language) -> String {
    let de = language == Language::German;
    let s = san.trim_end_matches(['!', '?']);
    let (body, suffix) = if let Some(body) = s.strip_suffix('#') {
        (body, Some(if de { "Matt" } else { "checkmate" }))
    } else if let Some(body) = s.strip_suffix('+') {
        (body, Some(if de { "Schach" } else { "check" }))
    } else {
        (s, None)
    };
    let mut words: Vec<String> = Vec::new();
    match body {
        "O-O" | "0-0" => words.push(if de { "Rochade kurz" } else { "short castle" }.into()),
        "O-O-O" | "0-0-0" => words.push(if de { "Rochade lang" } else { "long castle" }.into()),
        _ => {
            let (main, promotion) = match body.split_once('=') {
                Some((m, p)) => (m, p.chars().next()),
                None => (body, None),
            };
            let mut chars = main.chars().peekable();
            if let Some(name) = chars.peek().and_then(|&c| piece(c, language)) {
                words.push(name.into());
                chars.next();
            }
            let rest: String = chars.collect();
            // The target square is the last two characters; before it, a capture mark and
            // the disambiguation (a file, a rank, or both).
            let split = rest.len().saturating_sub(2);
            let (before, target) = if rest.is_char_boundary(split) {
                rest.split_at(split)
            } else {
                (rest.as_str(), "")
            };
            let capture = before.contains('x');
            let from: String = before.chars().filter(|&c| c != 'x').collect();
            match from.chars().count() {
                0 => {}
                1 => words.push(file(from.chars().next().unwrap_or(' '), language)),
                _ => words.push(from),
            }
            if capture {
                words.push(if de { "schlägt" } else { "takes" }.into());
            }
            if !target.is_empty() {
                words.push(target.into());
            }
            if let Some(name) = promotion.and_then(|p| piece(p, language)) {
                words.push(if de {
                    format!("wird {name}")
                } else {
                    format!("becomes a {}", name.to_lowercase())
                });
            }
        }
    }
    let mut text = words.join(" ");
    if let Some(s) = suffix {
        text.push_str(", ");
        text.push_str(s);
    }
    text
}

/// The result, said when a game ends.
pub fn result_words(outcome: Outcome, language: Language) -> String {
    let de = language == Language::German;
    match outcome.winner {
        Some(Color::White) => if de { "Weiß gewinnt" } else { "White wins" }.into(),
        Some(Color::Black) => if de { "Schwarz gewinnt" } else { "Black wins" }.into(),
        None => if de { "Remis" } else { "Draw" }.into(),
    }
}

/// The critical-battery warning, said once.
pub fn battery_critical_words(language: Language) -> String {
    match language {
        Language::English => "Battery empty. The game is saved. ChessPI switches off.".into(),
        Language::German => {
            "Akku leer. Die Partie ist gespeichert. ChessPI schaltet sich aus.".into()
        }
    }
}

/// About how long espeak-ng (at ChessPI's 160 words a minute, either language) takes to say
/// `text`: by letters, not words, as squares are said letter by letter; within about half a
/// second of the clip (see the test against espeak-ng).
pub fn duration(text: &str) -> Duration {
    let sounds = text.chars().filter(|c| c.is_alphanumeric() || *c == ' ');
    let pauses = text.chars().filter(|c| matches!(c, ',' | '.'));
    Duration::from_millis(300 + 80 * sounds.count() as u64 + 150 * pauses.count() as u64)
}
