//! Text that came from outside (a PGN file's tags, a LAN peer's name or error, a scanned SSID)
//! made safe to show: one sanitiser for every such string, and cuts that never split a
//! character.

/// Unicode format characters that change how text around them shows without showing
/// themselves: bidirectional marks, overrides and isolates (a name could reverse the words
/// after it), zero-width characters, the byte-order mark, interlinear annotation and tag
/// characters.
pub fn is_invisible_format(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}'
        | '\u{E0000}'..='\u{E007F}')
}

/// `text` made safe to show on one line: line breaks (U+2028 and U+2029 too), tabs and other
/// white space become one space, other control and invisible format characters go, runs of white space shrink to one, the ends are trimmed, and
/// at most `max_chars` characters are kept (the last one `…` when cut).
pub fn shown(text: &str, max_chars: usize) -> String {
    // One character past the limit is enough to know the text was cut.
    let mut chars: Vec<char> = Vec::new();
    let mut space = false;
    for c in text.chars() {
        if chars.len() > max_chars {
            break;
        }
        if c.is_whitespace() {
            space = !chars.is_empty();
            continue;
        }
        if is_invisible_format(c) || c.is_control() {
            continue;
        }
        if space {
            chars.push(' ');
            space = false;
        }
        chars.push(c);
    }
    if chars.len() > max_chars {
        chars.truncate(max_chars.saturating_sub(1));
        while chars.last() == Some(&' ') {
            chars.pop();
        }
        if max_chars > 0 {
            chars.push('…');
        }
    }
    chars.into_iter().collect()
}

/// The first `max_chars` characters of `text` (all of it when shorter): a cut by characters,
/// never inside one as a byte index could be.
pub fn first_chars(text: &str, max_chars: usize) -> &str {
    match text.char_indices().nth(max_chars) {
        Some((end, _)) => text.get(..end).unwrap_or(text),
        None => text,
    }
}

/// The longest start of `text` that fits in `max_bytes` bytes and ends on a character boundary.
pub fn within_bytes(text: &str, max_bytes: usize) -> &str {
    if text.len() <= max_bytes {
        return text;
    }
    let mut end = max_bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(..end).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_and_bidi_go() {
        assert_eq!(shown(" a\u{7}b\n c ", 20), "ab c");
        assert_eq!(shown("Eve\u{202E}reffo\u{200B}\u{2066}x", 20), "Evereffox");
        assert_eq!(shown("one\u{2028}two\u{2029}three", 20), "one two three");
        assert_eq!(shown("a\r\n\r\n\tb", 20), "a b");
        assert_eq!(shown("\u{FEFF}", 20), "");
    }

    #[test]
    fn long_text_is_cut_with_an_ellipsis() {
        assert_eq!(shown("abcdef", 4), "abc…");
        assert_eq!(shown("ab cdef", 4), "ab…");
        assert_eq!(shown("abcd", 4), "abcd");
        assert_eq!(shown("éééééé", 3), "éé…");
        assert_eq!(shown(&"x".repeat(10_000), 80).chars().count(), 80);
        assert_eq!(shown("abc", 0), "");
    }

    #[test]
    fn cuts_never_split_a_character() {
        assert_eq!(first_chars("12:3é", 5), "12:3é");
        assert_eq!(first_chars("12:3éx", 5), "12:3é");
        assert_eq!(first_chars("ab", 5), "ab");
        assert_eq!(within_bytes("12:3é", 5), "12:3");
        assert_eq!(within_bytes("abc", 5), "abc");
        assert_eq!(within_bytes("ééé", 1), "");
    }
}
