//! The opening drill: the user plays one colour of an opening's named lines, the computer the
//! other, choosing among the lines; a user move off the lines is a miss.
//!
//! The drill follows positions, not move order, like the opening names do: a move is on the
//! lines when the position it makes is one a line passes through (every position before it
//! having been on the lines too), so a transposition between the chosen lines counts as
//! book. The moves offered from a position are the next moves of every line passing through
//! it, each in the data's own order. [`Progress::transposed`] tells when the game's move
//! order is no line's.

use super::lines::Line;
use super::{BookMove, mix};
use crate::moves::Move;
use crate::position::Position;
use crate::types::Color;
use std::collections::HashSet;
use std::fmt;

/// Why a drill cannot start or cannot take a move. Nothing changes when one is returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrillError {
    /// None of the lines has a move for the user's colour (a one-move line for Black).
    NoLines,
    /// No line goes on from here: the drill is over.
    Finished,
    /// The user moved while the computer is to move.
    NotUsersTurn,
    /// The computer was asked to move while the user is to move.
    NotComputersTurn,
    /// The move is not legal in the drill's position.
    Illegal(Move),
    /// The computer was asked to play a move that is none of the lines' moves here.
    NotOnLines(Move),
}

impl fmt::Display for DrillError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrillError::NoLines => f.write_str("no line has a move for this colour"),
            DrillError::Finished => f.write_str("the lines end here"),
            DrillError::NotUsersTurn => f.write_str("it is the computer's move"),
            DrillError::NotComputersTurn => f.write_str("it is the user's move"),
            DrillError::Illegal(mv) => write!(f, "{mv} is not legal here"),
            DrillError::NotOnLines(mv) => write!(f, "{mv} is none of the lines' moves here"),
        }
    }
}

impl std::error::Error for DrillError {}

/// A move played on the lines, and what it reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Progress {
    pub mv: Move,
    /// Lines whose last position this move reached: played to their end, so their cards are
    /// due for grading. Longer lines may still go on (see `finished`).
    pub completed: Vec<&'static Line>,
    /// The moves so far are in no line's order: the position was reached by transposition.
    pub transposed: bool,
    /// No line goes on from here: the drill is over.
    pub finished: bool,
}

/// What became of a user's move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// On the lines: played.
    Book(Progress),
    /// Off the lines: not played, the drill stays where it was (so the user may try again).
    /// `expected` are the lines' moves here, most played first; `lines` the lines that went
    /// on from here, the cards the miss counts against.
    Miss {
        expected: Vec<BookMove>,
        lines: Vec<&'static Line>,
    },
}

/// One drill: the chosen lines, the user's colour and the moves played so far.
#[derive(Debug, Clone)]
pub struct Drill {
    user: Color,
    lines: Vec<&'static Line>,
    /// `hashes[i][k]`: the hash of the position after the first `k` moves of `lines[i]`.
    hashes: Vec<Vec<u64>>,
    position: Position,
    played: Vec<Move>,
    /// The (line, ply) pairs whose position is the current one.
    here: Vec<(usize, usize)>,
}

impl Drill {
    /// A drill of `lines` (each once; lines without a move for `user` are left out: there
    /// is nothing in them to practise) with the user playing `user`. From the start position;
    /// when the user has Black, the computer moves first (see [`Drill::reply`]).
    ///
    /// # Errors
    /// [`DrillError::NoLines`] when no line is left.
    pub fn new(
        lines: impl IntoIterator<Item = &'static Line>,
        user: Color,
    ) -> Result<Drill, DrillError> {
        let first_user_ply = usize::from(user == Color::Black);
        let mut seen = HashSet::new();
        let chosen: Vec<&'static Line> = lines
            .into_iter()
            .filter(|line| line.moves().len() > first_user_ply && seen.insert(line.id()))
            .collect();
        if chosen.is_empty() {
            return Err(DrillError::NoLines);
        }
        let hashes = chosen
            .iter()
            .map(|line| {
                let mut pos = Position::startpos();
                let mut hashes = Vec::with_capacity(line.moves().len() + 1);
                hashes.push(pos.hash());
                for &mv in line.moves() {
                    pos.play_unchecked(mv);
                    hashes.push(pos.hash());
                }
                hashes
            })
            .collect();
        Ok(Drill {
            user,
            here: (0..chosen.len()).map(|i| (i, 0)).collect(),
            lines: chosen,
            hashes,
            position: Position::startpos(),
            played: Vec::new(),
        })
    }

    /// The user's colour.
    pub fn user(&self) -> Color {
        self.user
    }

    /// The lines drilled (those [`Drill::new`] kept), in the order given.
    pub fn lines(&self) -> &[&'static Line] {
        &self.lines
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played so far, from the start position.
    pub fn played(&self) -> &[Move] {
        &self.played
    }

    /// Whether the user is to move.
    pub fn users_turn(&self) -> bool {
        self.position.turn() == self.user
    }

    /// The lines passing through the position now (the cards still in play), each once.
    pub fn lines_here(&self) -> Vec<&'static Line> {
        let mut indices: Vec<usize> = self.here.iter().map(|&(i, _)| i).collect();
        indices.dedup();
        indices.into_iter().map(|i| self.lines[i]).collect()
    }

    /// The lines' moves for the side to move, each weighted by the number of lines that play
    /// it here, most played first (ties in a fixed order). Empty when the drill is over.
    pub fn book_moves(&self) -> Vec<BookMove> {
        let mut moves: Vec<BookMove> = Vec::new();
        for &(i, ply) in &self.here {
            let Some(&mv) = self.lines[i].moves().get(ply) else {
                continue;
            };
            // Hashes are 64 bits: a collision could put a move of another position here.
            if !self.position.is_legal(mv) {
                continue;
            }
            match moves.iter_mut().find(|b| b.mv == mv) {
                Some(b) => b.weight += 1,
                None => moves.push(BookMove { mv, weight: 1 }),
            }
        }
        moves.sort_by_key(|b| (std::cmp::Reverse(b.weight), b.mv.to_bits()));
        moves
    }

    /// Whether no line goes on from here.
    pub fn is_finished(&self) -> bool {
        self.book_moves().is_empty()
    }

    /// The computer's choice among the lines' moves, at random weighted by the number of
    /// lines that play each (so every line comes up about as often); the same `seed` gives the
    /// same choice. Nothing is played.
    ///
    /// # Errors
    /// [`DrillError::NotComputersTurn`] or [`DrillError::Finished`].
    pub fn computer_move(&self, seed: u64) -> Result<Move, DrillError> {
        if self.users_turn() {
            return Err(DrillError::NotComputersTurn);
        }
        let moves = self.book_moves();
        let total: u64 = moves.iter().map(|b| u64::from(b.weight)).sum();
        if total == 0 {
            return Err(DrillError::Finished);
        }
        let mut pick = mix(seed) % total;
        for b in &moves {
            let weight = u64::from(b.weight);
            if pick < weight {
                return Ok(b.mv);
            }
            pick -= weight;
        }
        Err(DrillError::Finished)
    }

    /// Plays the computer's move (see [`Drill::computer_move`]).
    ///
    /// # Errors
    /// As [`Drill::computer_move`].
    pub fn reply(&mut self, seed: u64) -> Result<Progress, DrillError> {
        let mv = self.computer_move(seed)?;
        let mut next = self.position;
        next.play_unchecked(mv);
        let here = self.on_lines(&next);
        Ok(self.advance(mv, next, here))
    }

    /// Plays `mv` for the computer, one of the lines' moves here chosen by the caller (the
    /// app follows the line whose card is due, rather than [`Drill::computer_move`]'s pick).
    ///
    /// # Errors
    /// [`DrillError::NotComputersTurn`], [`DrillError::Finished`] or
    /// [`DrillError::NotOnLines`]; nothing is played then.
    pub fn reply_move(&mut self, mv: Move) -> Result<Progress, DrillError> {
        if self.users_turn() {
            return Err(DrillError::NotComputersTurn);
        }
        let moves = self.book_moves();
        if moves.is_empty() {
            return Err(DrillError::Finished);
        }
        if !moves.iter().any(|b| b.mv == mv) {
            return Err(DrillError::NotOnLines(mv));
        }
        let mut next = self.position;
        next.play_unchecked(mv);
        let here = self.on_lines(&next);
        Ok(self.advance(mv, next, here))
    }

    /// The user's move: played if it stays on the lines, else a miss that shows the lines'
    /// moves.
    ///
    /// # Errors
    /// [`DrillError::NotUsersTurn`], [`DrillError::Finished`] or [`DrillError::Illegal`];
    /// a move off the lines is no error but a [`Verdict::Miss`].
    pub fn play(&mut self, mv: Move) -> Result<Verdict, DrillError> {
        if !self.users_turn() {
            return Err(DrillError::NotUsersTurn);
        }
        let expected = self.book_moves();
        if expected.is_empty() {
            return Err(DrillError::Finished);
        }
        let next = self
            .position
            .play(mv)
            .map_err(|_| DrillError::Illegal(mv))?;
        let here = self.on_lines(&next);
        if here.is_empty() {
            let mut lines: Vec<&'static Line> = Vec::new();
            for &(i, ply) in &self.here {
                let line = self.lines[i];
                if ply < line.moves().len() && !lines.iter().any(|l| l.id() == line.id()) {
                    lines.push(line);
                }
            }
            return Ok(Verdict::Miss { expected, lines });
        }
        Ok(Verdict::Book(self.advance(mv, next, here)))
    }

    /// The (line, ply) pairs whose position is `pos`.
    fn on_lines(&self, pos: &Position) -> Vec<(usize, usize)> {
        let hash = pos.hash();
        let mut here = Vec::new();
        for (i, hashes) in self.hashes.iter().enumerate() {
            for (ply, &h) in hashes.iter().enumerate() {
                if h == hash {
                    here.push((i, ply));
                }
            }
        }
        here
    }

    fn advance(&mut self, mv: Move, next: Position, here: Vec<(usize, usize)>) -> Progress {
        self.position = next;
        self.played.push(mv);
        self.here = here;
        let played = &self.played;
        let in_order = self.here.iter().any(|&(i, ply)| {
            ply == played.len() && self.lines[i].moves().get(..ply) == Some(&played[..])
        });
        let mut completed: Vec<&'static Line> = Vec::new();
        for &(i, ply) in &self.here {
            let line = self.lines[i];
            if ply == line.moves().len() && !completed.iter().any(|l| l.id() == line.id()) {
                completed.push(line);
            }
        }
        Progress {
            mv,
            completed,
            transposed: !in_order,
            finished: self.is_finished(),
        }
    }
}
