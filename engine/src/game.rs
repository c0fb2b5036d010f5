//! A game: start position, moves, result and its reason, with takeback.
//!
//! Draws that the rules make automatic (stalemate, insufficient material, fivefold
//! repetition, 75 moves) end the game by themselves; claimable ones (threefold repetition,
//! 50 moves) are only offered through [`Game::claimable_draw`] until a player claims.

use crate::moves::Move;
use crate::position::{IllegalMoveError, Position};
use crate::types::Color;
use std::fmt;

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Termination {
    Checkmate,
    Stalemate,
    Resignation,
    Agreement,
    /// Claimed by a player: the position occurred three times.
    ThreefoldRepetition,
    /// Automatic: the position occurred five times.
    FivefoldRepetition,
    /// Claimed by a player: 50 moves by each side without capture or pawn move.
    FiftyMoves,
    /// Automatic: 75 moves by each side without capture or pawn move.
    SeventyFiveMoves,
    InsufficientMaterial,
    /// A player ran out of time.
    Time,
    /// A player left the game (e.g. the LAN opponent disconnected).
    Abandonment,
}

impl Termination {
    /// A short English description, for screens and PGN `Termination` tags.
    pub fn describe(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Resignation => "resignation",
            Termination::Agreement => "draw by agreement",
            Termination::ThreefoldRepetition => "draw by threefold repetition",
            Termination::FivefoldRepetition => "draw by fivefold repetition",
            Termination::FiftyMoves => "draw by the 50-move rule",
            Termination::SeventyFiveMoves => "draw by the 75-move rule",
            Termination::InsufficientMaterial => "draw by insufficient material",
            Termination::Time => "time forfeit",
            Termination::Abandonment => "abandonment",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// How a game ended: the winner (none for a draw) and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Color>,
    pub termination: Termination,
}

impl Outcome {
    pub const fn draw(termination: Termination) -> Outcome {
        Outcome {
            winner: None,
            termination,
        }
    }

    pub const fn win(winner: Color, termination: Termination) -> Outcome {
        Outcome {
            winner: Some(winner),
            termination,
        }
    }

    /// The PGN result token: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(Color::White) => write!(f, "White wins by {}", self.termination),
            Some(Color::Black) => write!(f, "Black wins by {}", self.termination),
            None => {
                let s = self.termination.describe();
                let s = s.strip_prefix("draw by ").unwrap_or(s);
                write!(f, "Draw by {s}")
            }
        }
    }
}

/// Why a game action was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameError {
    /// The game has already ended.
    GameOver(Outcome),
    /// The move is not legal in the current position.
    Illegal(IllegalMoveError),
    /// A draw was claimed but neither threefold repetition nor the 50-move rule applies.
    NoDrawToClaim,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver(outcome) => write!(f, "the game is over: {outcome}"),
            GameError::Illegal(e) => e.fmt(f),
            GameError::NoDrawToClaim => f.write_str("there is no draw to claim"),
        }
    }
}

impl std::error::Error for GameError {}

impl From<IllegalMoveError> for GameError {
    fn from(e: IllegalMoveError) -> GameError {
        GameError::Illegal(e)
    }
}

/// A game of chess from a start position.
#[derive(Debug, Clone)]
pub struct Game {
    moves: Vec<Move>,
    /// `positions[i]` is the position after `i` moves; `positions[0]` is the start.
    positions: Vec<Position>,
    hashes: Vec<u64>,
    outcome: Option<Outcome>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new()
    }
}

impl Game {
    /// A game from the standard start position.
    pub fn new() -> Game {
        Game::from_position(Position::startpos())
    }

    /// A game from any legal position (it may already be over, e.g. checkmate).
    pub fn from_position(start: Position) -> Game {
        let mut game = Game {
            moves: Vec::new(),
            positions: vec![start],
            hashes: vec![start.hash()],
            outcome: None,
        };
        game.outcome = game.automatic_outcome();
        game
    }

    /// Replays moves given in UCI or internal form from a start position.
    ///
    /// # Errors
    /// The first move that is illegal, or that comes after the game has ended.
    pub fn from_moves(start: Position, moves: &[Move]) -> Result<Game, GameError> {
        let mut game = Game::from_position(start);
        for &mv in moves {
            game.play(mv)?;
        }
        Ok(game)
    }

    pub fn initial_position(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions
            .last()
            .unwrap_or_else(|| unreachable!("a game always has its start position"))
    }

    /// Every position so far, the start first and the current one last.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves in SAN (`e4`, `Nf3`, `O-O`, `exd8=Q#`), for move lists and PGN.
    pub fn san_moves(&self) -> Vec<String> {
        crate::san::moves_to_san(self.initial_position(), &self.moves)
    }

    /// The Zobrist hash of every position so far, the current one last (for repetition
    /// detection in the search).
    pub fn history_hashes(&self) -> &[u64] {
        &self.hashes
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Plays a move.
    ///
    /// # Errors
    /// [`GameError::GameOver`] after the end, [`GameError::Illegal`] for an illegal move.
    pub fn play(&mut self, mv: Move) -> Result<(), GameError> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::GameOver(outcome));
        }
        let next = self.position().play(mv)?;
        self.moves.push(mv);
        self.positions.push(next);
        self.hashes.push(next.hash());
        self.outcome = self.automatic_outcome();
        Ok(())
    }

    /// Takes back the last move, reopening the game if it had ended. Returns the move, or
    /// `None` at the start position (an outcome without moves, such as a resignation, is
    /// cleared all the same).
    pub fn undo(&mut self) -> Option<Move> {
        let mv = self.moves.pop();
        if mv.is_some() {
            self.positions.pop();
            self.hashes.pop();
        }
        self.outcome = self.automatic_outcome();
        mv
    }

    /// Takes back a declared end — a resignation, a draw agreed or claimed — so the game goes
    /// on from the same position. Returns the outcome taken back; `None` (and no change) when
    /// the game is under way or ended by the position itself (mate, an automatic draw) or on
    /// time, which only taking back moves (or nothing) can change.
    pub fn reopen(&mut self) -> Option<Outcome> {
        let outcome = self.outcome?;
        let declared = matches!(
            outcome.termination,
            Termination::Resignation
                | Termination::Agreement
                | Termination::ThreefoldRepetition
                | Termination::FiftyMoves
        );
        if !declared || self.automatic_outcome().is_some() {
            return None;
        }
        self.outcome = None;
        Some(outcome)
    }

    /// How many times the current position has occurred in the game (1 = first time).
    pub fn repetition_count(&self) -> usize {
        let current = self.position();
        // Only positions since the last capture or pawn move can repeat.
        let window = (current.halfmove_clock() as usize).min(self.positions.len() - 1);
        let start = self.positions.len() - 1 - window;
        self.positions[start..]
            .iter()
            .filter(|p| p.hash() == current.hash() && p.is_same_position(current))
            .count()
    }

    /// The draw the side to move may claim now, if any.
    pub fn claimable_draw(&self) -> Option<Termination> {
        if self.outcome.is_some() {
            return None;
        }
        if self.repetition_count() >= 3 {
            Some(Termination::ThreefoldRepetition)
        } else if self.position().halfmove_clock() >= 100 {
            Some(Termination::FiftyMoves)
        } else {
            None
        }
    }

    /// Claims a draw by threefold repetition or the 50-move rule.
    ///
    /// # Errors
    /// [`GameError::NoDrawToClaim`] if neither applies; [`GameError::GameOver`] after the end.
    pub fn claim_draw(&mut self) -> Result<Outcome, GameError> {
        if let Some(outcome) = self.outcome {
            return Err(GameError::GameOver(outcome));
        }
        let termination = self.claimable_draw().ok_or(GameError::NoDrawToClaim)?;
        let outcome = Outcome::draw(termination);
        self.outcome = Some(outcome);
        Ok(outcome)
    }

    /// `color` resigns.
    ///
    /// # Errors
    /// [`GameError::GameOver`] after the end.
    pub fn resign(&mut self, color: Color) -> Result<Outcome, GameError> {
        self.end(Outcome::win(!color, Termination::Resignation))
    }

    /// Both players agree to a draw.
    ///
    /// # Errors
    /// [`GameError::GameOver`] after the end.
    pub fn agree_draw(&mut self) -> Result<Outcome, GameError> {
        self.end(Outcome::draw(Termination::Agreement))
    }

    /// `color` ran out of time: the opponent wins, unless the opponent cannot checkmate by
    /// any means, which is a draw.
    ///
    /// # Errors
    /// [`GameError::GameOver`] after the end.
    pub fn flag(&mut self, color: Color) -> Result<Outcome, GameError> {
        if self.position().cannot_mate(!color) {
            self.end(Outcome::draw(Termination::Time))
        } else {
            self.end(Outcome::win(!color, Termination::Time))
        }
    }

    /// `color` left the game: the opponent wins.
    ///
    /// # Errors
    /// [`GameError::GameOver`] after the end.
    pub fn abandon(&mut self, color: Color) -> Result<Outcome, GameError> {
        self.end(Outcome::win(!color, Termination::Abandonment))
    }

    /// Ends the game with a given outcome (for restoring saved games).
    ///
    /// # Errors
    /// [`GameError::GameOver`] after the end.
    pub fn set_outcome(&mut self, outcome: Outcome) -> Result<Outcome, GameError> {
        self.end(outcome)
    }

    fn end(&mut self, outcome: Outcome) -> Result<Outcome, GameError> {
        if let Some(existing) = self.outcome {
            return Err(GameError::GameOver(existing));
        }
        self.outcome = Some(outcome);
        Ok(outcome)
    }

    /// The outcome the rules impose on the current position by themselves.
    fn automatic_outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if !pos.has_legal_moves() {
            return Some(if pos.is_check() {
                Outcome::win(!pos.turn(), Termination::Checkmate)
            } else {
                Outcome::draw(Termination::Stalemate)
            });
        }
        if pos.is_insufficient_material() {
            return Some(Outcome::draw(Termination::InsufficientMaterial));
        }
        if self.repetition_count() >= 5 {
            return Some(Outcome::draw(Termination::FivefoldRepetition));
        }
        if pos.halfmove_clock() >= 150 {
            return Some(Outcome::draw(Termination::SeventyFiveMoves));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uci(game: &Game, text: &str) -> Move {
        *game
            .position()
            .legal_moves()
            .iter()
            .find(|m| m.to_string() == text)
            .unwrap_or_else(|| panic!("{text} is not legal"))
    }

    fn play_all(game: &mut Game, moves: &str) {
        for text in moves.split_whitespace() {
            let mv = uci(game, text);
            game.play(mv).unwrap();
        }
    }

    #[test]
    fn fools_mate_ends_the_game() {
        let mut game = Game::new();
        play_all(&mut game, "f2f3 e7e5 g2g4 d8h4");
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Color::Black, Termination::Checkmate))
        );
        assert_eq!(game.outcome().unwrap().result_str(), "0-1");
        assert_eq!(game.san_moves(), ["f3", "e5", "g4", "Qh4#"]);
        assert!(matches!(
            game.play(Move::new(
                crate::Square::E2,
                crate::Square::E4,
                crate::MoveKind::Normal
            )),
            Err(GameError::GameOver(_))
        ));
        assert!(game.undo().is_some());
        assert_eq!(game.outcome(), None);
        assert_eq!(game.moves().len(), 3);
    }

    #[test]
    fn reopen_takes_back_a_declared_end_only() {
        let mut game = Game::new();
        play_all(&mut game, "e2e4 e7e5");
        game.resign(Color::White).unwrap();
        assert_eq!(
            game.reopen(),
            Some(Outcome::win(Color::Black, Termination::Resignation))
        );
        assert!(!game.is_over());
        assert_eq!(game.moves().len(), 2, "no move taken back");
        assert_eq!(game.reopen(), None, "nothing left to take back");
        game.agree_draw().unwrap();
        assert!(game.reopen().is_some());
        game.flag(Color::White).unwrap();
        assert_eq!(game.reopen(), None, "time that ran out stays");
        let mut mated = Game::new();
        play_all(&mut mated, "f2f3 e7e5 g2g4 d8h4");
        assert_eq!(mated.reopen(), None, "mate is the position's own end");
        assert!(mated.is_over());
    }

    #[test]
    fn threefold_is_claimable_and_fivefold_automatic() {
        let mut game = Game::new();
        let shuffle = "g1f3 g8f6 f3g1 f6g8";
        play_all(&mut game, shuffle);
        assert_eq!(game.repetition_count(), 2);
        assert_eq!(game.claimable_draw(), None);
        play_all(&mut game, shuffle);
        assert_eq!(game.repetition_count(), 3);
        assert_eq!(
            game.claimable_draw(),
            Some(Termination::ThreefoldRepetition)
        );
        assert_eq!(game.outcome(), None);
        play_all(&mut game, shuffle);
        play_all(&mut game, shuffle);
        assert_eq!(
            game.outcome(),
            Some(Outcome::draw(Termination::FivefoldRepetition))
        );
        game.undo();
        assert_eq!(game.outcome(), None);
        assert_eq!(
            game.claim_draw().map(|o| o.termination),
            Ok(Termination::ThreefoldRepetition)
        );
    }

    #[test]
    fn move_rules() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").unwrap();
        let mut game = Game::from_position(pos);
        assert_eq!(game.claimable_draw(), None);
        let mv = uci(&game, "a1a2");
        game.play(mv).unwrap();
        assert_eq!(game.claimable_draw(), Some(Termination::FiftyMoves));
        let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 149 120").unwrap();
        let mut game = Game::from_position(pos);
        let mv = uci(&game, "a1a2");
        game.play(mv).unwrap();
        assert_eq!(
            game.outcome(),
            Some(Outcome::draw(Termination::SeventyFiveMoves))
        );
        // Checkmate on the 150th half-move still wins.
        let pos = Position::from_fen("6k1/5ppp/8/8/8/8/8/R3K3 w - - 149 120").unwrap();
        let mut game = Game::from_position(pos);
        let mv = uci(&game, "a1a8");
        game.play(mv).unwrap();
        assert_eq!(
            game.outcome(),
            Some(Outcome::win(Color::White, Termination::Checkmate))
        );
    }

    #[test]
    fn insufficient_material_and_flags() {
        let pos = Position::from_fen("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1").unwrap();
        let mut game = Game::from_position(pos);
        let mv = uci(&game, "e1d2");
        game.play(mv).unwrap();
        assert_eq!(
            game.outcome(),
            Some(Outcome::draw(Termination::InsufficientMaterial))
        );
        // Flag with a lone king opposite: draw.
        let pos = Position::from_fen("4k3/8/8/8/8/8/3P4/4K3 w - - 0 1").unwrap();
        let mut game = Game::from_position(pos);
        assert_eq!(
            game.flag(Color::White),
            Ok(Outcome::draw(Termination::Time))
        );
        let mut game = Game::from_position(pos);
        assert_eq!(
            game.flag(Color::Black),
            Ok(Outcome::win(Color::White, Termination::Time))
        );
        assert!(game.resign(Color::White).is_err());
        // FIDE 6.9: a win on time needs only a possible mate, helped by the loser's own
        // pieces (python-chess's has_insufficient_material agrees on each).
        for (fen, flagged, draw) in [
            // Knight against a bishop that could block its own king: a win.
            ("K7/8/8/6N1/6k1/8/8/4b3 b - - 0 1", Color::Black, false),
            // Knight against a queen, which could always take the mating knight: a draw.
            ("K7/8/8/6N1/6k1/8/8/4q3 b - - 0 1", Color::Black, true),
            // Bishop against a bishop on the other colour: a win; against a bishop on the
            // same colour and a rook: a draw (no check on the other colour).
            ("K7/8/8/6B1/6k1/8/8/5b2 b - - 0 1", Color::Black, false),
            ("K7/8/8/6B1/6k1/8/8/4b2r b - - 0 1", Color::Black, true),
            // Bishop against a pawn: a win.
            ("K7/8/8/6B1/6k1/8/7p/8 b - - 0 1", Color::Black, false),
        ] {
            let mut game = Game::from_position(Position::from_fen(fen).unwrap());
            let outcome = game.flag(flagged).unwrap();
            let expected = if draw {
                Outcome::draw(Termination::Time)
            } else {
                Outcome::win(!flagged, Termination::Time)
            };
            assert_eq!(outcome, expected, "{fen}");
        }
    }
}
