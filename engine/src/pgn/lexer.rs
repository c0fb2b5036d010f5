//! The PGN lexer: tags, symbols (moves, move numbers, results, glyphs), NAGs, comments and
//! variation brackets, each with the line it starts on. Escape lines and `;` comments are
//! skipped.

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Token<'a> {
    Tag {
        name: String,
        value: String,
    },
    MalformedTag(String),
    /// A move, move number, result or annotation glyph.
    Symbol(&'a str),
    Nag,
    /// A `{…}` comment's text.
    Comment(&'a str),
    UnterminatedComment,
    Open,
    Close,
    Unexpected(char),
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Lexer<'a> {
    text: &'a str,
    at: usize,
    /// The line `at` is on, from 1.
    pub(super) line: usize,
}

/// Characters that end a symbol token.
fn is_delimiter(b: u8) -> bool {
    b.is_ascii_whitespace() || b"{}()[];\"$".contains(&b)
}

// Every cut below is at a position found by an ASCII byte (a delimiter, a quote, a bracket, a
// line break) or at the text's end: always a character boundary.
#[expect(clippy::string_slice, reason = "cuts at ASCII delimiters only")]
impl<'a> Lexer<'a> {
    pub(super) fn new(text: &'a str) -> Lexer<'a> {
        Lexer {
            text,
            at: 0,
            line: 1,
        }
    }

    /// The byte offset of the next token (or of what is skipped before it).
    pub(super) fn at(&self) -> usize {
        self.at
    }

    fn bytes(&self) -> &'a [u8] {
        self.text.as_bytes()
    }

    /// Moves to `to`, counting the line breaks passed.
    fn advance_to(&mut self, to: usize) {
        let to = to.min(self.text.len());
        self.line += self.bytes()[self.at..to]
            .iter()
            .filter(|&&b| b == b'\n')
            .count();
        self.at = to;
    }

    /// Index of the next `byte` from `at`, or the end of the text.
    fn find(&self, byte: u8) -> usize {
        self.bytes()[self.at..]
            .iter()
            .position(|&b| b == byte)
            .map_or(self.text.len(), |i| self.at + i)
    }

    /// The next token and the line it starts on; `None` at the end of the text.
    pub(super) fn next_token(&mut self) -> Option<(Token<'a>, usize)> {
        loop {
            let &b = self.bytes().get(self.at)?;
            if b.is_ascii_whitespace() {
                self.advance_to(self.at + 1);
                continue;
            }
            let line = self.line;
            // An escape line: '%' in the first column.
            if b == b'%' && (self.at == 0 || self.bytes()[self.at - 1] == b'\n') {
                let end = self.find(b'\n');
                self.advance_to(end);
                continue;
            }
            let token = match b {
                b';' => {
                    let end = self.find(b'\n');
                    self.advance_to(end);
                    continue;
                }
                b'{' => {
                    let end = self.find(b'}');
                    if end == self.text.len() {
                        self.advance_to(end);
                        Token::UnterminatedComment
                    } else {
                        let inner = &self.text[self.at + 1..end];
                        self.advance_to(end + 1);
                        Token::Comment(inner)
                    }
                }
                b'[' => self.tag(),
                b'(' => {
                    self.advance_to(self.at + 1);
                    Token::Open
                }
                b')' => {
                    self.advance_to(self.at + 1);
                    Token::Close
                }
                b'$' => {
                    let digits = self.bytes()[self.at + 1..]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    self.advance_to(self.at + 1 + digits);
                    if digits == 0 {
                        Token::Unexpected('$')
                    } else {
                        Token::Nag
                    }
                }
                b'}' | b']' | b'"' => {
                    self.advance_to(self.at + 1);
                    Token::Unexpected(char::from(b))
                }
                _ => {
                    let start = self.at;
                    let len = self.bytes()[start..]
                        .iter()
                        .take_while(|&&b| !is_delimiter(b))
                        .count();
                    self.advance_to(start + len);
                    // Delimiters are ASCII, so both ends are on character boundaries.
                    Token::Symbol(&self.text[start..start + len])
                }
            };
            return Some((token, line));
        }
    }

    /// Reads a tag pair starting at `[`. Values may escape `"` and `\` with a backslash;
    /// as many files leave inner quotes unescaped, a line of the form `[Name "…"]` is also
    /// accepted with everything between the first and the last quote as the value.
    fn tag(&mut self) -> Token<'a> {
        match parse_tag_strict(&self.text[self.at..]) {
            Some((name, value, used)) => {
                self.advance_to(self.at + used);
                Token::Tag { name, value }
            }
            None => {
                let line_end = self.find(b'\n');
                let line = &self.text[self.at..line_end];
                self.advance_to(line_end);
                match parse_tag_lenient(line) {
                    Some((name, value)) => Token::Tag { name, value },
                    None => Token::MalformedTag(line.trim_end().to_string()),
                }
            }
        }
    }
}

#[expect(clippy::string_slice, reason = "cuts at ASCII bytes found by the scan")]
/// Parses `[Name "value"]` at the start of `line`, which must all be on one line; returns
/// the name, the unescaped value and the number of bytes used.
fn parse_tag_strict(line: &str) -> Option<(String, String, usize)> {
    let bytes = line.as_bytes();
    let mut i = 1; // past '['
    let skip_blanks = |i: &mut usize| {
        while bytes.get(*i).is_some_and(|b| *b == b' ' || *b == b'\t') {
            *i += 1;
        }
    };
    skip_blanks(&mut i);
    let name_start = i;
    while bytes
        .get(i)
        .is_some_and(|&b| is_tag_name_char(char::from(b)))
    {
        i += 1;
    }
    if i == name_start {
        return None;
    }
    let name = &line[name_start..i];
    skip_blanks(&mut i);
    if bytes.get(i) != Some(&b'"') {
        return None;
    }
    i += 1;
    let mut value = String::new();
    let mut run_start = i;
    loop {
        match *bytes.get(i)? {
            b'"' => break,
            b'\n' => return None,
            b'\\' if matches!(bytes.get(i + 1), Some(b'"' | b'\\')) => {
                value.push_str(&line[run_start..i]);
                value.push(char::from(bytes[i + 1]));
                i += 2;
                run_start = i;
            }
            _ => i += 1,
        }
    }
    value.push_str(&line[run_start..i]);
    i += 1;
    skip_blanks(&mut i);
    if bytes.get(i) != Some(&b']') {
        return None;
    }
    Some((name.to_string(), value, i + 1))
}

/// Parses a whole line `[Name "any text"]`, taking the value between the first and the last
/// quote as it is.
fn parse_tag_lenient(line: &str) -> Option<(String, String)> {
    let inner = line.trim_end().strip_prefix('[')?.strip_suffix(']')?;
    let inner = inner.trim_end().strip_suffix('"')?;
    let (name, value) = inner.split_once('"')?;
    let name = name.trim();
    if name.is_empty() || !name.chars().all(is_tag_name_char) {
        return None;
    }
    Some((name.to_string(), value.to_string()))
}

pub(super) fn is_tag_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_with_escapes_and_stray_quotes() {
        assert_eq!(
            parse_tag_strict(r#"[Event "A \"quoted\" \\ name"] rest"#),
            Some(("Event".to_string(), r#"A "quoted" \ name"#.to_string(), 30))
        );
        assert_eq!(parse_tag_strict(r#"[Event "The "Big" Open"]"#), None);
        assert_eq!(
            parse_tag_lenient(r#"[Event "The "Big" Open"]  "#),
            Some(("Event".to_string(), r#"The "Big" Open"#.to_string()))
        );
        assert_eq!(parse_tag_lenient("[Event]"), None);
    }
}
