//! A player's name: typed on the device's keyboard or read back from the players file, kept
//! only in a form that shows safely and compares fairly.

use std::fmt;

use unicode_normalization::UnicodeNormalization;

pub use crate::storage::seats::MAX_NAME_CHARS;
/// A player's name: NFC-normalised, on one line, without control, bidirectional or other
/// invisible characters (U+2028 and U+2029 included), trimmed, 1 to [`MAX_NAME_CHARS`]
/// characters. Two names are the same player's when they are equal ignoring case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerName(String);

/// Why a typed name is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameError {
    /// Nothing left once cleaned.
    Empty,
    /// Longer than [`MAX_NAME_CHARS`] characters once cleaned.
    TooLong { chars: usize },
    /// Another player has this name (ignoring case).
    Taken,
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Empty => write!(f, "the name is empty"),
            NameError::TooLong { chars } => write!(
                f,
                "the name has {chars} characters, at most {MAX_NAME_CHARS} fit"
            ),
            NameError::Taken => write!(f, "another player has this name"),
        }
    }
}

impl std::error::Error for NameError {}

impl PlayerName {
    /// `text` cleaned (see the type) as a name.
    ///
    /// # Errors
    /// Nothing is left, or more than [`MAX_NAME_CHARS`] characters are.
    pub fn new(text: &str) -> Result<PlayerName, NameError> {
        let normalised: String = text.nfc().collect();
        // One past the limit tells a name that is too long from one that fits; the count
        // itself is for the message.
        let chars = crate::text::shown(&normalised, usize::MAX).chars().count();
        if chars == 0 {
            return Err(NameError::Empty);
        }
        if chars > MAX_NAME_CHARS {
            return Err(NameError::TooLong { chars });
        }
        Ok(PlayerName(crate::text::shown(&normalised, MAX_NAME_CHARS)))
    }

    /// The name as shown and written.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether two names would be confused: equal ignoring case (both are NFC already; the
    /// lower case of NFC text is compared in NFC again, as `ẞ` → `ß` may need).
    pub fn same_as(&self, other: &PlayerName) -> bool {
        self.folded() == other.folded()
    }

    fn folded(&self) -> String {
        self.0.to_lowercase().nfc().collect()
    }
}

impl fmt::Display for PlayerName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cleaned_to_one_safe_line() {
        let name = |t: &str| PlayerName::new(t).map(|n| n.as_str().to_string());
        assert_eq!(name("  Anna  "), Ok("Anna".into()));
        assert_eq!(name("An\u{2028}na"), Ok("An na".into()), "line separator");
        assert_eq!(name("Li\u{2029}\u{2029}sa"), Ok("Li sa".into()));
        assert_eq!(
            name("Bob\u{202E}evil"),
            Ok("Bobevil".into()),
            "bidi override"
        );
        assert_eq!(name("Ca\u{0000}rl\u{0007}"), Ok("Carl".into()), "controls");
        assert_eq!(name("Tab\tbed"), Ok("Tab bed".into()));
        // Decomposed e + combining acute becomes the one character é.
        assert_eq!(name("Rene\u{0301}"), Ok("René".into()));
        assert_eq!(name("\u{200B} \u{2028}"), Err(NameError::Empty));
        assert_eq!(name(""), Err(NameError::Empty));
    }

    #[test]
    fn a_name_holds_at_most_twenty_four_characters() {
        let fits = "ä".repeat(MAX_NAME_CHARS);
        assert_eq!(
            PlayerName::new(&fits).map(|n| n.as_str().chars().count()),
            Ok(24)
        );
        assert_eq!(
            PlayerName::new(&format!("{fits}x")),
            Err(NameError::TooLong { chars: 25 })
        );
        // Counted after normalising: 24 decomposed ä are 48 code points but 24 characters.
        let decomposed = "a\u{0308}".repeat(MAX_NAME_CHARS);
        assert!(PlayerName::new(&decomposed).is_ok());
    }

    #[test]
    fn names_equal_ignoring_case_after_normalising_are_the_same() {
        let n = |t: &str| PlayerName::new(t).expect("name");
        assert!(n("anna").same_as(&n("ANNA")));
        assert!(n("Ölaf").same_as(&n("o\u{0308}LAF")), "NFC and case");
        assert!(n("STRAẞE").same_as(&n("straße")));
        assert!(!n("Anna").same_as(&n("Anne")));
    }
}
