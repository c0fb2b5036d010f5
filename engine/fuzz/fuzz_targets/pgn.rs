//! PGN: reading never panics; every game read writes back to PGN that reads as the same
//! game, and writing that again gives the same text.
#![no_main]

use chesspi_engine::pgn::read_games;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for game in read_games(text).into_iter().flatten() {
        let written = game.to_pgn().expect("a game read has legal moves");
        let mut again = read_games(&written);
        assert_eq!(again.len(), 1, "{written}");
        let again = again.remove(0).expect("written PGN reads");
        assert_eq!(again.start, game.start, "{written}");
        assert_eq!(again.moves, game.moves, "{written}");
        assert_eq!(again.result, game.result, "{written}");
        for (name, value) in &game.tags {
            if name != "SetUp" && name != "FEN" && name != "Result" && !name.is_empty() {
                assert_eq!(again.tag(name).is_some(), true, "{name} {value:?} {written}");
            }
        }
        assert_eq!(again.to_pgn().expect("legal"), written);
    }
});
