//! The screen's language: English (the messages as written in the code) or German.
//!
//! One catalogue serves both halves of the UI: `translations/<lang>/LC_MESSAGES/chesspi.po`.
//! Slint compiles it into the `.slint` files' `@tr(...)` at build time; the Rust side embeds the
//! same file and looks messages up with [`tr!`](crate::tr) and [`trn!`](crate::trn). Messages
//! carry no context, so one message means one thing everywhere. `tests/i18n_catalogue.rs`
//! fails when a message lacks its German.
//!
//! The language is process-wide (Slint's translations are too) and switches at once: the next
//! refresh of the screen asks for every text again.

pub mod po;

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

/// A language the screen can speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Language {
    #[default]
    English,
    German,
}

impl Language {
    pub const ALL: [Language; 2] = [Language::English, Language::German];

    /// The ISO 639-1 code, as in config files and in the catalogue's folder name.
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::German => "de",
        }
    }

    pub fn from_code(code: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.code() == code)
    }

    /// The language's own name, as a language menu shows it.
    pub fn native_name(self) -> &'static str {
        match self {
            Language::English => "English",
            Language::German => "Deutsch",
        }
    }

    /// The language a POSIX locale (`de_DE.UTF-8`, `en_GB`, `C`) asks for; English for any
    /// other.
    pub fn from_locale(locale: &str) -> Language {
        let lang = locale.split(['_', '.', '@']).next().unwrap_or("");
        Language::from_code(&lang.to_ascii_lowercase()).unwrap_or(Language::English)
    }

    /// The language of the environment: `LC_ALL`, then `LC_MESSAGES`, then `LANG`, as gettext
    /// reads them (the first one set and not empty decides).
    pub fn from_environment() -> Language {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .iter()
            .filter_map(|k| std::env::var(k).ok())
            .find(|v| !v.is_empty())
            .map(|v| Language::from_locale(&v))
            .unwrap_or_default()
    }

    fn catalogue(self) -> Option<&'static Catalogue> {
        match self {
            Language::English => None,
            Language::German => Some(GERMAN.get_or_init(|| {
                Catalogue::load(include_str!("../../translations/de/LC_MESSAGES/chesspi.po"))
            })),
        }
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.native_name())
    }
}

static CURRENT: AtomicU8 = AtomicU8::new(0);
static GERMAN: OnceLock<Catalogue> = OnceLock::new();

/// The language texts are made in now.
pub fn language() -> Language {
    match CURRENT.load(Ordering::Relaxed) {
        1 => Language::German,
        _ => Language::English,
    }
}

/// Switches the Rust side's texts. The UI's own texts switch with
/// `slint::select_bundled_translation`, which the app calls beside this.
pub fn set_language(language: Language) {
    CURRENT.store(
        match language {
            Language::English => 0,
            Language::German => 1,
        },
        Ordering::Relaxed,
    );
}

/// Messages of one language, by English text.
struct Catalogue {
    singular: HashMap<String, String>,
    /// Plural messages by their singular text: the two German forms (n == 1, otherwise).
    plural: HashMap<String, Vec<String>>,
}

impl Catalogue {
    fn load(text: &str) -> Catalogue {
        let entries = po::parse(text).unwrap_or_else(|e| {
            // The file is embedded and checked by the tests: this only shows in development.
            log::error!("translations: {e}; showing English");
            Vec::new()
        });
        let mut singular = HashMap::new();
        let mut plural = HashMap::new();
        for e in entries.into_iter().filter(|e| e.is_translated()) {
            if e.id_plural.is_some() {
                plural.insert(e.id, e.translations);
            } else if let Some(t) = e.translations.into_iter().next() {
                singular.insert(e.id, t);
            }
        }
        Catalogue { singular, plural }
    }
}

/// A message in the current language (the English text when it has no translation).
pub fn translate(message: &'static str) -> &'static str {
    translate_in(language(), message)
}

/// A message in `language`.
pub fn translate_in(language: Language, message: &'static str) -> &'static str {
    language
        .catalogue()
        .and_then(|c| c.singular.get(message))
        .map_or(message, String::as_str)
}

/// A message with a count: `singular` for 1, `plural` otherwise (English and German agree).
pub fn translate_plural(singular: &'static str, plural: &'static str, n: u64) -> &'static str {
    let forms = language().catalogue().and_then(|c| c.plural.get(singular));
    match forms {
        Some(forms) if forms.len() >= 2 => &forms[usize::from(n != 1)],
        _ if n == 1 => singular,
        _ => plural,
    }
}

/// Fills `{}` (in order) and `{0}`, `{1}`, … (by position) with `args`, as Slint's `@tr` does;
/// `{{` and `}}` are braces. A placeholder without its argument stays as written.
pub fn fill(template: &str, args: &[&dyn fmt::Display]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut next = 0;
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        let (text, tail) = rest.split_at(i);
        out.push_str(text);
        // `tail` starts with an ASCII brace: cuts after it are on character boundaries.
        let (brace, after) = tail.split_at(1);
        if let Some(after) = tail.strip_prefix("{{").or_else(|| tail.strip_prefix("}}")) {
            out.push_str(brace);
            rest = after;
            continue;
        }
        if let Some((inner, after_close)) = after.split_once('}').filter(|_| brace == "{") {
            let index = if inner.is_empty() {
                next += 1;
                Some(next - 1)
            } else {
                inner.parse::<usize>().ok()
            };
            if let Some(arg) = index.and_then(|i| args.get(i)) {
                out.push_str(&arg.to_string());
                rest = after_close;
                continue;
            }
        }
        out.push_str(brace);
        rest = after;
    }
    out.push_str(rest);
    out
}

/// A user-visible message in the current language: `tr!("Your move")`,
/// `tr!("{} wins on time", side)`. The literal is the English text and the catalogue's key.
#[macro_export]
macro_rules! tr {
    ($message:literal) => {
        $crate::i18n::translate($message).to_string()
    };
    ($message:literal, $($arg:expr),+ $(,)?) => {
        $crate::i18n::fill(
            $crate::i18n::translate($message),
            &[$(&$arg as &dyn ::std::fmt::Display),+],
        )
    };
}

/// A message with a count: `trn!("{} move", "{} moves", n)`; `n` is also the first argument.
#[macro_export]
macro_rules! trn {
    ($singular:literal, $plural:literal, $n:expr $(, $arg:expr)* $(,)?) => {{
        let n = $n;
        $crate::i18n::fill(
            $crate::i18n::translate_plural($singular, $plural, n as u64),
            &[&n as &dyn ::std::fmt::Display $(, &$arg as &dyn ::std::fmt::Display)*],
        )
    }};
}

/// A move in the notation of the current language: German names the pieces K, D, T, L, S
/// (König, Dame, Turm, Läufer, Springer). Stored and exported games stay in English SAN.
pub fn san(english: &str) -> String {
    san_in(language(), english)
}

fn san_in(language: Language, english: &str) -> String {
    match language {
        Language::English => english.to_string(),
        Language::German => chesspi_engine::san::to_german(english),
    }
}

/// A number with one decimal in the current language's way: "9.5" or "9,5".
pub fn decimal(tenths: i64) -> String {
    decimal_in(language(), tenths)
}

/// The decimal separator of `language`: '.' or ','.
pub fn decimal_separator(language: Language) -> char {
    match language {
        Language::English => '.',
        Language::German => ',',
    }
}

fn decimal_in(language: Language, tenths: i64) -> String {
    let sign = if tenths < 0 { "-" } else { "" };
    let separator = decimal_separator(language);
    let t = tenths.unsigned_abs();
    format!("{sign}{}{separator}{}", t / 10, t % 10)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_placeholders_like_slint() {
        assert_eq!(
            fill("{} wins on {}", &[&"White", &"time"]),
            "White wins on time"
        );
        assert_eq!(fill("{1} before {0}", &[&"a", &"b"]), "b before a");
        assert_eq!(fill("{{braces}} {}", &[&7]), "{braces} 7");
        assert_eq!(fill("{} and {}", &[&1]), "1 and {}");
        assert_eq!(fill("{x} {", &[&1]), "{x} {");
        assert_eq!(fill("ü{}ß", &[&"ä"]), "üäß");
    }

    #[test]
    fn locales_choose_a_language() {
        assert_eq!(Language::from_locale("de_DE.UTF-8"), Language::German);
        assert_eq!(Language::from_locale("de_AT"), Language::German);
        assert_eq!(Language::from_locale("de"), Language::German);
        assert_eq!(Language::from_locale("en_US.UTF-8"), Language::English);
        assert_eq!(Language::from_locale("C"), Language::English);
        assert_eq!(Language::from_locale("fr_FR"), Language::English);
        assert_eq!(Language::from_locale(""), Language::English);
    }

    #[test]
    fn german_names_the_pieces_its_own_way() {
        assert_eq!(san_in(Language::German, "Nxe5+"), "Sxe5+");
        assert_eq!(san_in(Language::German, "exd8=Q#"), "exd8=D#");
        assert_eq!(san_in(Language::German, "O-O-O"), "O-O-O");
        assert_eq!(san_in(Language::German, "Rae1"), "Tae1");
        assert_eq!(san_in(Language::German, "Bb5"), "Lb5");
        assert_eq!(san_in(Language::English, "Bb5"), "Bb5");
        assert_eq!(decimal_in(Language::German, 95), "9,5");
        assert_eq!(decimal_in(Language::English, -5), "-0.5");
    }

    #[test]
    fn german_texts_come_from_the_catalogue() {
        assert_eq!(translate_in(Language::German, "Menu"), "Menü");
        assert_eq!(translate_in(Language::English, "Menu"), "Menu");
        assert_eq!(
            translate_in(Language::German, "no such message"),
            "no such message"
        );
    }

    #[test]
    fn the_german_catalogue_reads() {
        let entries = po::parse(include_str!("../../translations/de/LC_MESSAGES/chesspi.po"));
        assert!(entries.is_ok(), "{entries:?}");
    }
}
