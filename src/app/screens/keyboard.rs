//! The on-screen keyboard, shared by the screens that take typed text: Wi-Fi passwords
//! (letters in both cases, digits, every printable ASCII symbol — what WPA2 passwords may
//! hold —, space, delete) and players' names (letters with the German and common accented
//! ones, digits, space, hyphen, apostrophe, full stop, and Done). Its state and layout live
//! here, and the keys as Slint models; ui/keyboard.slint draws the keys it is given and
//! reports which was tapped.

use crate::app::ui::{KeyRowView, KeyView};
use crate::storage::players::MAX_NAME_CHARS;
use crate::tr;
use slint::{Model, ModelRc, VecModel};

/// Which keys the letter rows show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layer {
    #[default]
    Lower,
    /// Capitals for one letter (shift), then back to lower case.
    Upper,
    /// Capitals until shift is tapped again.
    CapsLock,
    /// Passwords: the ASCII symbols.
    Symbols,
}

/// What the keyboard types: it decides the keys and what may be typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Purpose {
    /// A Wi-Fi password: printable ASCII, at most [`MAX_LEN`] characters.
    #[default]
    Password,
    /// A player's name: letters (accented ones too), digits, space, `-`, `'` and `.`, at most
    /// [`MAX_NAME_CHARS`] characters; a Done key.
    Name,
}

/// A key as the screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// What the key shows.
    pub label: String,
    /// What a tap means: `c:X` types X; otherwise `shift`, `symbols`, `accents`, `letters`,
    /// `space`, `delete`, `done`.
    pub id: String,
    /// Width in key units (a letter is 2; a row has [`Keyboard::units`]).
    pub width: u8,
    /// Shown pressed (shift on).
    pub lit: bool,
}

/// The text typed so far, the layer shown and what is typed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Keyboard {
    text: String,
    layer: Layer,
    /// Names: the accented letters in place of the plain ones, for one letter (in the
    /// layer's case).
    accents: bool,
    purpose: Purpose,
}

/// What a tap did, for the screen to act on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tapped {
    /// The text or the layer changed (or nothing did).
    Typed,
    /// Done: the screen takes the text.
    Done,
}

/// The longest text the keyboard takes (a WPA2 key: 64 hexadecimal digits).
pub const MAX_LEN: usize = 64;

const DIGITS: &str = "1234567890";
const LETTERS: [&str; 3] = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
/// All 32 printable ASCII symbols across the symbol layer's rows (the last row's are with
/// space).
const SYMBOLS: [&str; 4] = ["!@#$%^&*()", "-_=+[]{};:", "'\",/\\|~`", "<>?."];
/// Names: the letters' rows with the German ones where a German keyboard has them (ß after
/// the digits, ü after p, ö and ä after l), eleven keys to a row.
const NAME_ROWS: [&str; 4] = ["1234567890ß", "qwertyuiopü", "asdfghjklöä", "zxcvbnm"];
/// Names: the accented letters of the languages around (and ChessPI's), instead of the
/// three letter rows.
const ACCENTS: [&str; 3] = ["àáâãåæçèéêë", "ìíîïñòóôõøœ", "ùúûýčšž"];
/// What a name may hold besides letters and digits.
const NAME_MARKS: &str = " -'.";

fn char_key(c: char) -> Key {
    Key {
        label: c.to_string(),
        id: format!("c:{c}"),
        width: 2,
        lit: false,
    }
}

fn key(label: &str, id: &str, width: u8, lit: bool) -> Key {
    Key {
        label: label.to_string(),
        id: id.to_string(),
        width,
        lit,
    }
}

/// `c`'s capital, where it is one character (ß's is ẞ, not "SS").
fn capital(c: char) -> char {
    if c == 'ß' {
        return 'ẞ';
    }
    let mut upper = c.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(u), None) => u,
        _ => c,
    }
}

impl Keyboard {
    /// A keyboard for a player's name, starting with `text` (a name being changed).
    pub fn for_name(text: &str) -> Keyboard {
        Keyboard {
            text: text.chars().take(MAX_NAME_CHARS).collect(),
            layer: Layer::Lower,
            accents: false,
            purpose: Purpose::Name,
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn layer(&self) -> Layer {
        self.layer
    }

    /// How many key units a row has (rows are centred; a letter is 2 units).
    pub fn units(&self) -> u8 {
        match self.purpose {
            Purpose::Password => 20,
            Purpose::Name => 22,
        }
    }

    /// A key was tapped (`id` as [`Key::id`]); unknown ids do nothing.
    pub fn tap(&mut self, id: &str) -> Tapped {
        if let Some(c) = id.strip_prefix("c:").and_then(|s| {
            let mut chars = s.chars();
            let c = chars.next()?;
            chars.next().is_none().then_some(c)
        }) {
            self.type_char(c);
            return Tapped::Typed;
        }
        match id {
            "space" => self.type_char(' '),
            "delete" => {
                self.text.pop();
            }
            "shift" => {
                self.layer = match self.layer {
                    Layer::Lower => Layer::Upper,
                    Layer::Upper => Layer::CapsLock,
                    Layer::CapsLock | Layer::Symbols => Layer::Lower,
                }
            }
            "symbols" if self.purpose == Purpose::Password => self.layer = Layer::Symbols,
            "accents" if self.purpose == Purpose::Name => self.accents = true,
            "letters" => {
                self.layer = Layer::Lower;
                self.accents = false;
            }
            "done" if self.purpose == Purpose::Name => return Tapped::Done,
            _ => {}
        }
        Tapped::Typed
    }

    fn type_char(&mut self, c: char) {
        let fits = match self.purpose {
            // Only what a Wi-Fi password may hold, and not more than it may be long.
            Purpose::Password => (' '..='~').contains(&c) && self.text.len() < MAX_LEN,
            Purpose::Name => {
                (c.is_alphanumeric() || NAME_MARKS.contains(c))
                    && self.text.chars().count() < MAX_NAME_CHARS
            }
        };
        if !fits {
            return;
        }
        self.text.push(c);
        if self.layer == Layer::Upper {
            self.layer = Layer::Lower;
        }
        self.accents = false;
    }

    /// The keys, row by row.
    pub fn rows(&self) -> Vec<Vec<Key>> {
        match self.purpose {
            Purpose::Password => self.password_rows(),
            Purpose::Name => self.name_rows(),
        }
    }

    fn password_rows(&self) -> Vec<Vec<Key>> {
        let mut rows = vec![DIGITS.chars().map(char_key).collect::<Vec<_>>()];
        match self.layer {
            Layer::Symbols => {
                rows.push(SYMBOLS[0].chars().map(char_key).collect());
                rows.push(SYMBOLS[1].chars().map(char_key).collect());
                let mut fourth = vec![key("ABC", "letters", 2, false)];
                fourth.extend(SYMBOLS[2].chars().map(char_key));
                fourth.push(key("⌫", "delete", 2, false));
                rows.push(fourth);
                let mut last: Vec<Key> = SYMBOLS[3].chars().take(2).map(char_key).collect();
                last.push(key(&tr!("space"), "space", 10, false));
                last.extend(SYMBOLS[3].chars().skip(2).map(char_key));
                rows.push(last);
            }
            layer => {
                let upper = layer != Layer::Lower;
                let letters = |s: &str| -> Vec<Key> {
                    s.chars()
                        .map(|c| char_key(if upper { c.to_ascii_uppercase() } else { c }))
                        .collect()
                };
                rows.push(letters(LETTERS[0]));
                rows.push(letters(LETTERS[1]));
                let shift = if layer == Layer::CapsLock {
                    "⇪"
                } else {
                    "⇧"
                };
                let mut fourth = vec![key(shift, "shift", 3, upper)];
                fourth.extend(letters(LETTERS[2]));
                fourth.push(key("⌫", "delete", 3, false));
                rows.push(fourth);
                rows.push(vec![
                    key("?123", "symbols", 4, false),
                    char_key(','),
                    key(&tr!("space"), "space", 10, false),
                    char_key('.'),
                    char_key('-'),
                ]);
            }
        }
        rows
    }

    fn name_rows(&self) -> Vec<Vec<Key>> {
        let upper = matches!(self.layer, Layer::Upper | Layer::CapsLock);
        let letters = |s: &str| -> Vec<Key> {
            s.chars()
                .map(|c| char_key(if upper { capital(c) } else { c }))
                .collect()
        };
        let shift = if self.layer == Layer::CapsLock {
            "⇪"
        } else {
            "⇧"
        };
        let mut rows = vec![letters(NAME_ROWS[0])];
        let (first, second, third) = if self.accents {
            (ACCENTS[0], ACCENTS[1], ACCENTS[2])
        } else {
            (NAME_ROWS[1], NAME_ROWS[2], NAME_ROWS[3])
        };
        rows.push(letters(first));
        rows.push(letters(second));
        let mut fourth = vec![key(shift, "shift", 4, upper)];
        fourth.extend(letters(third));
        fourth.push(key("⌫", "delete", 4, false));
        rows.push(fourth);
        let (switch, id) = if self.accents {
            ("abc", "letters")
        } else {
            ("àäé", "accents")
        };
        rows.push(vec![
            key(switch, id, 4, self.accents),
            char_key('-'),
            char_key('\''),
            key(&tr!("space"), "space", 8, false),
            char_key('.'),
            key(&tr!("Done"), "done", 4, false),
        ]);
        rows
    }
}

/// The keys as the window's model, when they differ from `shown`: the keys change only
/// with the layer (shift, symbols, accents), so they are not rebuilt on each letter.
pub fn key_models(shown: &ModelRc<KeyRowView>, keys: &[Vec<Key>]) -> Option<ModelRc<KeyRowView>> {
    let wanted: Vec<String> = keys
        .iter()
        .flatten()
        .map(|k| format!("{}{}{}", k.id, k.lit, k.label))
        .collect();
    let now: Vec<String> = shown
        .iter()
        .flat_map(|row| {
            row.keys
                .iter()
                .map(|k| format!("{}{}{}", k.id, k.lit, k.label))
                .collect::<Vec<_>>()
        })
        .collect();
    if wanted == now {
        return None;
    }
    let rows: Vec<KeyRowView> = keys
        .iter()
        .map(|row| {
            let keys: Vec<KeyView> = row
                .iter()
                .map(|k| KeyView {
                    label: k.label.as_str().into(),
                    id: k.id.as_str().into(),
                    width: i32::from(k.width),
                    lit: k.lit,
                })
                .collect();
            KeyRowView {
                keys: ModelRc::new(VecModel::from(keys)),
            }
        })
        .collect();
    Some(ModelRc::new(VecModel::from(rows)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(taps: &[&str]) -> Keyboard {
        let mut k = Keyboard::default();
        for t in taps {
            k.tap(t);
        }
        k
    }

    #[test]
    fn every_printable_ascii_character_has_a_key() {
        let mut found = std::collections::BTreeSet::new();
        for layer in [Layer::Lower, Layer::Upper, Layer::Symbols] {
            let k = Keyboard {
                layer,
                ..Keyboard::default()
            };
            for key in k.rows().into_iter().flatten() {
                if let Some(c) = key.id.strip_prefix("c:") {
                    found.insert(c.chars().next().unwrap());
                }
                if key.id == "space" {
                    found.insert(' ');
                }
            }
        }
        let all: std::collections::BTreeSet<char> = (' '..='~').collect();
        assert_eq!(found, all);
    }

    /// Each row of `k` fits 776 px of keys, 5 px apart (as ui/keyboard.slint sizes them),
    /// with every key at least a finger wide.
    fn assert_fits(k: &Keyboard) {
        let (row_width, gap) = (776.0_f32, 5.0_f32);
        let units = f32::from(k.units());
        let unit = (row_width - (units / 2.0 - 1.0) * gap) / units;
        for row in k.rows() {
            let widths: Vec<f32> = row
                .iter()
                .map(|k| unit * f32::from(k.width) + (f32::from(k.width) / 2.0 - 1.0) * gap)
                .collect();
            let total = widths.iter().sum::<f32>() + gap * (widths.len() - 1) as f32;
            assert!(total <= row_width + 0.5, "{k:?}: {total} px");
            for (key, w) in row.iter().zip(&widths) {
                assert!(*w >= 48.0, "{k:?} {}: {w} px", key.label);
            }
        }
    }

    #[test]
    fn rows_fit_the_screen_with_keys_at_least_a_finger_wide() {
        for layer in [Layer::Lower, Layer::CapsLock, Layer::Symbols] {
            assert_fits(&Keyboard {
                layer,
                ..Keyboard::default()
            });
        }
        for taps in [
            &[][..],
            &["shift", "shift"],
            &["accents"],
            &["shift", "accents"],
        ] {
            let mut k = Keyboard::for_name("");
            for t in taps {
                k.tap(t);
            }
            assert_fits(&k);
        }
    }

    #[test]
    fn shift_types_one_capital_and_twice_locks() {
        let k = typed(&["shift", "c:A", "c:b"]);
        assert_eq!(k.text(), "Ab");
        assert_eq!(k.layer(), Layer::Lower);
        let k = typed(&["shift", "shift", "c:A", "c:B", "shift", "c:c"]);
        assert_eq!(k.text(), "ABc");
    }

    #[test]
    fn symbols_space_and_delete() {
        let k = typed(&[
            "symbols", "c:#", "letters", "c:x", "space", "c:1", "delete", "delete", "c:?",
        ]);
        assert_eq!(k.text(), "#x?");
    }

    #[test]
    fn only_wifi_characters_and_at_most_64() {
        let mut k = typed(&["c:é", "c:ab", "c:", "nonsense"]);
        assert_eq!(k.text(), "");
        for _ in 0..70 {
            k.tap("c:f");
        }
        assert_eq!(k.text().len(), MAX_LEN);
    }

    fn name_typed(taps: &[&str]) -> Keyboard {
        let mut k = Keyboard::for_name("");
        for t in taps {
            assert_eq!(k.tap(t), Tapped::Typed, "{t}");
        }
        k
    }

    /// The characters the keys of a name keyboard type, in every layer.
    fn name_characters() -> std::collections::BTreeSet<char> {
        let mut found = std::collections::BTreeSet::new();
        for taps in [&[][..], &["shift"], &["accents"], &["shift", "accents"]] {
            for key in name_typed(taps).rows().into_iter().flatten() {
                if let Some(c) = key.id.strip_prefix("c:") {
                    found.extend(c.chars());
                }
            }
        }
        found
    }

    #[test]
    fn names_have_the_german_and_common_accented_letters_in_both_cases() {
        let found = name_characters();
        for c in "äöüßÄÖÜẞéèàçñÉÈÀÇÑøØåÅ-'.0123456789".chars() {
            assert!(found.contains(&c), "{c}");
        }
        for c in 'a'..='z' {
            assert!(
                found.contains(&c) && found.contains(&c.to_ascii_uppercase()),
                "{c}"
            );
        }
        // Every key types one character a name keeps as it is (NFC, nothing cleaned).
        for c in found {
            let name = crate::storage::players::PlayerName::new(&format!("A{c}")).unwrap();
            assert_eq!(name.as_str(), format!("A{c}"), "{c}");
        }
    }

    #[test]
    fn a_name_is_typed_with_umlauts_and_accents() {
        let k = name_typed(&[
            "shift", "c:J", "c:ü", "c:r", "c:g", "c:e", "c:n", "space", "accents", "c:é", "c:t",
            "c:ß",
        ]);
        assert_eq!(k.text(), "Jürgen étß");
        assert_eq!(k.layer(), Layer::Lower);
        // The accents are for one letter, in the case shift says.
        let k = name_typed(&["shift", "accents", "c:É", "c:x"]);
        assert_eq!(k.text(), "Éx");
        let k = name_typed(&["shift", "accents"]);
        assert!(!k.rows().into_iter().flatten().any(|k| k.id == "c:é"));
    }

    #[test]
    fn a_name_takes_no_symbols_and_at_most_24_characters() {
        let mut k = name_typed(&["c:#", "c:@", "symbols", "c:a"]);
        assert_eq!(k.text(), "a");
        for _ in 0..30 {
            k.tap("c:ö");
        }
        assert_eq!(k.text().chars().count(), MAX_NAME_CHARS);
        assert_eq!(k.tap("done"), Tapped::Done);
        let k = Keyboard::for_name("Anna");
        assert_eq!(k.text(), "Anna");
    }

    #[test]
    fn a_password_keyboard_has_no_done_and_no_accents() {
        let mut k = Keyboard::default();
        assert_eq!(k.tap("done"), Tapped::Typed);
        k.tap("accents");
        assert!(k.rows().into_iter().flatten().all(|k| k.id != "c:é"));
        assert_eq!(k.units(), 20);
    }
}
