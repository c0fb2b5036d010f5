//! The two secrets of LAN play and how they are compared: the pairing code (a stranger must
//! not pair) and the resume secret (only the partner may resume; the game id alone, which a
//! PGN or a log may show, is not enough).

use super::random;

/// Characters of a resume secret this side accepts from a host (ChessPI makes 32 hex digits).
const SECRET_CHARS: std::ops::RangeInclusive<usize> = 16..=64;

/// Whether two secrets are equal, in a time that depends only on their lengths (public: a
/// code has 4 digits, a secret 32), never on where they first differ: an attacker timing the
/// answers learns nothing about the right digits.
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let diff = a
        .iter()
        .zip(b)
        .fold(0u8, |acc, (x, y)| acc | std::hint::black_box(x ^ y));
    std::hint::black_box(diff) == 0
}

/// A new resume secret: 128 random bits as 32 hex digits.
pub fn new_secret() -> String {
    format!("{:016x}{:016x}", random::random_u64(), random::random_u64())
}

/// Whether a host's `secret` is one we keep: 16 to 64 ASCII letters and digits (anything else
/// is ignored, and the game resumes as an older host allows: by its id).
pub fn acceptable(secret: &str) -> bool {
    SECRET_CHARS.contains(&secret.len()) && secret.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// What a device saves to resume a network game: the game id, and the resume secret when the
/// host gave one. Written as one string, `ID#SECRET` (`ID#` without a secret; a plain `ID`,
/// as older versions saved it, also has none), so it fits the save's one field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResumeKey {
    /// The protocol's `game`: not secret.
    pub game_id: String,
    /// The protocol's `secret`: only the two devices know it.
    pub secret: Option<String>,
}

impl ResumeKey {
    /// Reads a saved key (see [`ResumeKey`] for the form).
    pub fn parse(saved: &str) -> ResumeKey {
        match saved.rsplit_once('#') {
            Some((id, secret)) => ResumeKey {
                game_id: id.to_string(),
                secret: (!secret.is_empty()).then(|| secret.to_string()),
            },
            None => ResumeKey {
                game_id: saved.to_string(),
                secret: None,
            },
        }
    }
}

impl std::fmt::Display for ResumeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}#{}",
            self.game_id,
            self.secret.as_deref().unwrap_or_default()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_compares_whole_strings() {
        assert!(same("1234", "1234"));
        assert!(same("", ""));
        assert!(!same("1234", "1235"));
        assert!(!same("1234", "0234"));
        assert!(!same("1234", "123"));
        assert!(!same("123", "1234"));
    }

    #[test]
    fn secrets_are_new_and_acceptable() {
        let s = new_secret();
        assert_eq!(s.len(), 32);
        assert!(acceptable(&s));
        assert_ne!(s, new_secret());
        assert!(!acceptable("short"));
        assert!(!acceptable(&"a".repeat(65)));
        assert!(!acceptable("0123456789abcdef#"));
    }

    #[test]
    fn keys_read_back_as_written() {
        for key in [
            ResumeKey {
                game_id: "9f1c".into(),
                secret: Some("0123456789abcdef".into()),
            },
            ResumeKey {
                game_id: "9f1c".into(),
                secret: None,
            },
            // Another host's id may hold a `#`.
            ResumeKey {
                game_id: "a#b".into(),
                secret: Some("0123456789abcdef".into()),
            },
        ] {
            assert_eq!(ResumeKey::parse(&key.to_string()), key);
        }
        // As older versions saved it: the id alone.
        let old = ResumeKey::parse("9f1c0a7e");
        assert_eq!(old.game_id, "9f1c0a7e");
        assert_eq!(old.secret, None);
    }
}
