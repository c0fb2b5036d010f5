//! Games and levels written short: a level by number, moves by their UCI text.

use chesspi_engine::game::Game;
use chesspi_engine::level::Level;

/// Level `n` (1 to 10).
pub fn level(n: u8) -> Level {
    Level::new(n).expect("level")
}

/// Plays `moves`, UCI moves apart by spaces ("e2e4 e7e5"), on `game`.
pub fn play(game: &mut Game, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = game.position().parse_uci_move(text).expect("legal move");
        game.play(mv).expect("play");
    }
}

/// The game of `moves` (as for [`play`]) from the start.
pub fn game_with(moves: &str) -> Game {
    let mut game = Game::new();
    play(&mut game, moves);
    game
}
