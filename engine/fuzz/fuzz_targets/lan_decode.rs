//! Fuzz target: the LAN protocol decoder (`src/lan/codec.rs` of the app, compiled here on its
//! own so the fuzz build needs neither Slint nor the rest of the app).
//!
//! Checks: no panic; framing does not depend on how the bytes are split; no frame reaches
//! 4096 bytes; every decoded message encodes to a line that decodes to the same message.
#![no_main]

#[path = "../../../src/lan/codec.rs"]
#[allow(dead_code)]
mod codec;

use codec::{Frame, LineReader, MAX_LINE, decode, encode};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Some((&split, data)) = data.split_first() else {
        return;
    };
    let mut whole = Vec::new();
    LineReader::new().feed(data, &mut whole);
    let mut pieces = Vec::new();
    let mut reader = LineReader::new();
    for chunk in data.chunks(usize::from(split % 17) + 1) {
        reader.feed(chunk, &mut pieces);
    }
    assert_eq!(whole, pieces, "framing depends on the split");
    for frame in &whole {
        let Frame::Line(line) = frame else { continue };
        assert!(line.len() < MAX_LINE);
        let Ok(message) = decode(line) else { continue };
        if let Ok(encoded) = encode(&message) {
            let again = decode(&encoded[..encoded.len() - 1]).expect("own output decodes");
            assert_eq!(again, message, "round trip changed the message");
        }
    }
    // The decoder alone, on the raw bytes (no framing).
    let _ = decode(data);
});
