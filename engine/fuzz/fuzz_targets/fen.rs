//! FEN: parsing never panics; a parsed position prints and re-parses to itself, and its
//! moves keep the incremental hash equal to a fresh one.
#![no_main]

use chesspi_engine::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    let fen = pos.to_fen();
    let again = Position::from_fen(&fen).expect("written FEN parses");
    assert_eq!(again, pos, "{text} -> {fen}");
    assert_eq!(again.to_fen(), fen);
    assert_eq!(pos.hash(), pos.compute_hash());

    let legal = pos.legal_moves();
    assert_eq!(pos.count_legal_moves(), legal.len());
    for &mv in legal.iter() {
        assert!(pos.is_legal(mv));
        let next = pos.play(mv).expect("legal move plays");
        assert_eq!(next.hash(), next.compute_hash(), "{fen} {mv}");
        // Every position reached by a legal move is one FEN can describe.
        let next_fen = next.to_fen();
        assert_eq!(Position::from_fen(&next_fen).as_ref(), Ok(&next), "{fen} {mv}");
    }
});
