//! Assist in the game on the board: the pieces the player touched this turn (up to the
//! setting's limit), the one search of the position they ask for, and its grades as they come.
//! The search runs on the Assist worker (`workers/assist.rs`), which the shell keeps in step
//! with [`GameSession::assist_request`]; its grades come back through
//! [`GameSession::assist_graded`]. The state itself is `assisting.rs`.

use super::assisting::{AssistRequest, Assisting};
use super::game::{GameSession, Unrated};
use crate::app::model::mode::Mode;
use chesspi_engine::coach::{AssistLimit, Grade, Grades};
use chesspi_engine::{Move, Square};

/// Whether Assist takes part in this kind of game: a person against the computer.
fn applies(mode: Mode) -> bool {
    matches!(mode, Mode::Computer { .. })
}

impl GameSession {
    /// Assist in this game.
    pub fn assist(&self) -> &Assisting {
        &self.assist
    }

    /// Sets Assist's limit (the device setting). On, the game against the computer is no
    /// longer rated; off before it coloured a square, the game is rated again.
    pub fn set_assist(&mut self, limit: AssistLimit) {
        self.assist.limit = limit;
        if limit.is_on() && applies(self.setup.mode) {
            self.set_unrated(Unrated::Assist);
        } else if !limit.is_on() {
            if !self.assist.helped {
                self.record.withdraw(Unrated::Assist);
            }
            self.assist.touched.clear();
            self.assist.grades = None;
        }
    }

    /// A new game: nothing touched, nothing helped yet.
    pub(super) fn forget_assist(&mut self) {
        let limit = self.assist.limit;
        self.assist = Assisting {
            generation: self.assist.generation + 1,
            ..Assisting::default()
        };
        self.set_assist(limit);
    }

    /// The player selected the piece on `square`: it counts as a touch when Assist is on, it
    /// is the player's turn against the computer and the limit allows another piece.
    pub fn assist_touch(&mut self, square: Square) {
        if !self.assist.limit.is_on() || !applies(self.setup.mode) || !self.human_to_move() {
            return;
        }
        self.assist.move_to(self.assist_key());
        if self.assist.touched.contains(&square) {
            return;
        }
        if self.assist.touched.len() < usize::from(self.assist.limit.touches()) {
            self.assist.touched.push(square);
            self.assist.refused = false;
        } else {
            self.assist.refused = true;
        }
    }

    /// Which position the board shows for Assist: its ply and hash.
    fn assist_key(&self) -> (usize, u64) {
        (self.game.moves().len(), self.game.position().hash())
    }

    /// The search Assist needs now: the position on the board once a piece was touched on the
    /// player's turn; `None` stops any search (a move was made, Assist is off).
    pub fn assist_request(&self) -> Option<AssistRequest> {
        let wanted = self.assist.limit.is_on()
            && applies(self.setup.mode)
            && self.human_to_move()
            && self.assist.at == self.assist_key()
            && !self.assist.touched.is_empty();
        wanted.then(|| AssistRequest {
            generation: self.assist.generation,
            position: *self.game.position(),
            history: self.game.history_hashes().to_vec(),
            touched: self.assist.touched.clone(),
        })
    }

    /// Grades from the Assist worker for the search `generation`; older ones are dropped.
    pub fn assist_graded(&mut self, generation: u64, grades: Grades) {
        if generation == self.assist.generation && self.assist_request().is_some() {
            self.assist.grades = Some(grades);
            self.assist.helped = true;
        }
    }

    /// The grades of `selected`'s moves to colour, if it is a piece touched this turn within
    /// the limit and its grades have come.
    pub fn assist_grades(&self, selected: Option<Square>) -> Vec<(Move, Grade)> {
        let Some(from) = selected else {
            return Vec::new();
        };
        if self.assist_request().is_none() || !self.assist.touched.contains(&from) {
            return Vec::new();
        }
        self.assist
            .grades
            .as_ref()
            .map(|g| g.from_square(from).map(|m| (m.mv, m.grade())).collect())
            .unwrap_or_default()
    }
}
