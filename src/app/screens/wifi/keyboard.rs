//! The on-screen keyboard for Wi-Fi passwords: letters in both cases, digits, every printable
//! ASCII symbol (what WPA2 passwords may hold), space, delete. Its state and layout live here;
//! ui/wifi.slint draws the keys it is given and reports which was tapped.

use crate::tr;

/// Which keys the letter rows show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layer {
    #[default]
    Lower,
    /// Capitals for one letter (shift), then back to lower case.
    Upper,
    /// Capitals until shift is tapped again.
    CapsLock,
    Symbols,
}

/// A key as the screen shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Key {
    /// What the key shows.
    pub label: String,
    /// What a tap means: `c:X` types X; otherwise `shift`, `symbols`, `letters`, `space`,
    /// `delete`.
    pub id: String,
    /// Width in key units (a letter is 2).
    pub width: u8,
    /// Shown pressed (shift on).
    pub lit: bool,
}

/// The text typed so far and the layer shown.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Keyboard {
    text: String,
    layer: Layer,
}

/// The longest text the keyboard takes (a WPA2 key: 64 hexadecimal digits).
pub const MAX_LEN: usize = 64;

const DIGITS: &str = "1234567890";
const LETTERS: [&str; 3] = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];
/// All 32 printable ASCII symbols across the symbol layer's rows (the last row's are with
/// space).
const SYMBOLS: [&str; 4] = ["!@#$%^&*()", "-_=+[]{};:", "'\",/\\|~`", "<>?."];

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

impl Keyboard {
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn layer(&self) -> Layer {
        self.layer
    }

    /// A key was tapped (`id` as [`Key::id`]); unknown ids do nothing.
    pub fn tap(&mut self, id: &str) {
        if let Some(c) = id.strip_prefix("c:").and_then(|s| {
            let mut chars = s.chars();
            let c = chars.next()?;
            chars.next().is_none().then_some(c)
        }) {
            self.type_char(c);
            return;
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
            "symbols" => self.layer = Layer::Symbols,
            "letters" => self.layer = Layer::Lower,
            _ => {}
        }
    }

    fn type_char(&mut self, c: char) {
        // Only what a Wi-Fi password may hold, and not more than it may be long.
        if !(' '..='~').contains(&c) || self.text.len() >= MAX_LEN {
            return;
        }
        self.text.push(c);
        if self.layer == Layer::Upper {
            self.layer = Layer::Lower;
        }
    }

    /// The keys, row by row.
    pub fn rows(&self) -> Vec<Vec<Key>> {
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
                text: String::new(),
                layer,
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

    #[test]
    fn rows_fit_the_screen_with_keys_at_least_a_finger_wide() {
        // As ui/wifi.slint sizes them: 776 px of keys, 5 px apart, 20 units a row.
        let (row_width, gap) = (776.0_f32, 5.0_f32);
        let unit = (row_width - 9.0 * gap) / 20.0;
        for layer in [Layer::Lower, Layer::CapsLock, Layer::Symbols] {
            let k = Keyboard {
                text: String::new(),
                layer,
            };
            for row in k.rows() {
                let widths: Vec<f32> = row
                    .iter()
                    .map(|k| unit * f32::from(k.width) + (f32::from(k.width) / 2.0 - 1.0) * gap)
                    .collect();
                let total = widths.iter().sum::<f32>() + gap * (widths.len() - 1) as f32;
                assert!(total <= row_width + 0.5, "{layer:?}: {total} px");
                for (key, w) in row.iter().zip(&widths) {
                    assert!(*w >= 48.0, "{layer:?} {}: {w} px", key.label);
                }
            }
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
}
