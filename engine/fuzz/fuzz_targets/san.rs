//! SAN: reading never panics; what is read writes back to SAN that reads as the same move;
//! every legal move of the position round-trips and has a SAN of its own.
#![no_main]

mod common;

use chesspi_engine::san::{parse_san, to_san};
use libfuzzer_sys::fuzz_target;
use std::collections::HashSet;

fuzz_target!(|data: &[u8]| {
    let Some((pos, text)) = common::position_and_text(data) else {
        return;
    };
    if let Ok(mv) = parse_san(&pos, text) {
        assert!(pos.is_legal(mv));
        let san = to_san(&pos, mv);
        assert_eq!(parse_san(&pos, &san), Ok(mv), "{text} -> {san}");
    }
    let mut seen = HashSet::new();
    for &mv in pos.legal_moves().iter() {
        let san = to_san(&pos, mv);
        assert_eq!(parse_san(&pos, &san), Ok(mv), "{san} in {pos:?}");
        assert!(seen.insert(san), "{pos:?}");
    }
});
