//! A checksum line at the end of a text file written by the app, so a file cut short or damaged
//! (a failing SD card, a stray edit) is recognised instead of being half-believed.
//!
//! The last line is `# fnv1a64 <16 lower-case hex digits>\n`: FNV-1a over every byte before it.
//! Being a comment, it leaves a TOML file valid TOML.

/// Starts the checksum line.
const CHECKSUM_PREFIX: &str = "# fnv1a64 ";

/// `body` (which must be empty or end with a newline) followed by its checksum line.
pub fn seal(body: &str) -> String {
    let mut text = String::with_capacity(body.len() + 28);
    text.push_str(body);
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    let sum = fnv1a64(text.as_bytes());
    text.push_str(&format!("{CHECKSUM_PREFIX}{sum:016x}\n"));
    text
}

/// The text before the checksum line, if `text` ends with a correct one.
pub fn unseal(text: &str) -> Option<&str> {
    let without_newline = text.strip_suffix('\n')?;
    let line_start = without_newline.rfind('\n').map_or(0, |i| i + 1);
    let (body, last_line) = text.split_at(line_start);
    let hex = last_line
        .strip_prefix(CHECKSUM_PREFIX)?
        .strip_suffix('\n')?;
    // Compared as text: exactly the digits the writer produces.
    (hex == format!("{:016x}", fnv1a64(body.as_bytes()))).then_some(body)
}

/// FNV-1a, 64 bits: detects accidental damage, which is all that is needed here.
pub(super) fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_every_cut_is_refused() {
        let text = seal("a = 1\nb = \"x\"\n");
        assert_eq!(unseal(&text), Some("a = 1\nb = \"x\"\n"));
        for len in 0..text.len() {
            assert_eq!(unseal(&text[..len]), None, "cut at {len}");
        }
        assert_eq!(unseal(&text.replace("a = 1", "a = 2")), None);
        assert_eq!(unseal(&text.to_uppercase()), None);
    }
}
