//! The character set of a PGN file, guessed from its bytes.

/// The text of a PGN file: UTF-8 (what ChessPI and most tools write) when the bytes are
/// valid UTF-8, else ISO 8859-1, the PGN standard's own character set, in which every byte is
/// a character — so an old file's "Müller" stays "Müller", not "M\u{FFFD}ller".
pub fn decode_text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes)
        .unwrap_or_else(|e| e.into_bytes().into_iter().map(char::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_1_files_keep_their_letters() {
        assert_eq!(
            decode_text(b"[White \"M\xfcller, J\xfcrgen\"]".to_vec()),
            "[White \"Müller, Jürgen\"]"
        );
        assert_eq!(decode_text("Müller".as_bytes().to_vec()), "Müller");
    }
}
