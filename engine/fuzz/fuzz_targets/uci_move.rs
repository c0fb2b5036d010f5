//! UCI moves: reading never panics, and a move that is read prints as the same text.
#![no_main]

mod common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((pos, text)) = common::position_and_text(data) else {
        return;
    };
    if let Ok(mv) = pos.parse_uci_move(text) {
        assert!(pos.is_legal(mv));
        assert_eq!(mv.to_string(), text);
    }
});
