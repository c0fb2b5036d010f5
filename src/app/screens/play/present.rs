//! What the screen shows, as plain data: the cells, the player lines, the move rows, the
//! status line and the result card — the one place the screen's words are made.

use super::board::Gate;
use crate::app::model::mode::Mode;
use crate::app::screens::Purpose;
use crate::app::screens::board_input::BoardInput;
use crate::app::screens::board_view::{
    BoardMarks, CellView, board_cells, display_cell, display_square,
};
use crate::app::screens::words::{ResultCard, ResultTone};
use crate::app::screens::words::{
    capitalized, captured_by, color_name, material, rating_short, reason_text, review_name,
    the_piece,
};
use crate::app::session::game::GameSession;
use crate::app::session::partner::rules::partner_name;
use crate::lan::session::LinkState;
use crate::tr;
use chesspi_engine::analysis::MoveClass;
use chesspi_engine::game::{Outcome, Termination};
use chesspi_engine::san::to_san;
use chesspi_engine::{Color, Move, Piece, Square};

/// The game screen as it is shown: the game session and the board's touches, with what the
/// analysis and a saved game add to it (the coach and the partner are read from the session).
/// Read-only; made by [`crate::app::screens::Controller::game_view`] for each refresh (and
/// each test that looks).
pub struct GameView<'a> {
    pub(super) session: &'a GameSession,
    pub(super) input: &'a BoardInput,
    /// A saved game looked through in place of the game.
    pub(super) saved: Option<Saved<'a>>,
    pub(super) analysis: AnalysisShown,
    /// Browsing the moves of the game being played (not a saved game, not a finished one).
    pub(super) browsing: bool,
}

/// A saved game looked through: its players as stored, and its result.
pub struct Saved<'a> {
    pub white: &'a str,
    pub black: &'a str,
    pub result: Option<&'a ResultCard>,
}

/// What the analysis adds to the side panel.
pub struct AnalysisShown {
    /// An analysis (running or done) belongs to the game on the board.
    pub analysed: bool,
    /// The game is one to analyse: finished or a saved one, with moves.
    pub analysable: bool,
    /// An analysis can start now (none yet for this game).
    pub can_analyse: bool,
    /// The analysis found a mistake or a blunder.
    pub has_mistakes: bool,
    /// The class of the move that led to each position (by ply), once analysed.
    pub classes: Vec<Option<MoveClass>>,
}

/// A player's line in the side panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerInfo {
    pub color: Color,
    pub name: String,
    pub detail: String,
    pub to_move: bool,
    /// The opponent's pieces this player has taken, pawns first.
    pub captured: Vec<Piece>,
    /// Material ahead, in pawns (0 when level or behind).
    pub advantage: u32,
    /// The player's clock ("4:57"), in a timed game.
    pub clock: Option<String>,
    /// That clock is running.
    pub clock_running: bool,
    /// Under [`crate::app::model::clock::LOW_TIME`] left: drawn in red.
    pub clock_low: bool,
}

/// The status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub text: String,
    /// Shown in red (check).
    pub alert: bool,
    pub thinking: bool,
}

/// One line of the move list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveListRow {
    pub number: u32,
    pub white: Option<String>,
    pub black: Option<String>,
    /// Which of the two moves is the one shown on the board.
    pub white_current: bool,
    pub black_current: bool,
    /// The analysis's verdict on each move, once analysed.
    pub white_class: Option<chesspi_engine::analysis::MoveClass>,
    pub black_class: Option<chesspi_engine::analysis::MoveClass>,
}

/// The most characters of an opening's name the side panel shows: two lines of its small
/// text.
const OPENING_CHARS: usize = 76;

/// An opening's name that fits two lines: a long one keeps its family and its most specific
/// part ("B12 Caro-Kann Defense: …, Bronstein Variation"), not a cut-off middle.
pub fn shorten_opening(name: &str) -> String {
    if name.chars().count() <= OPENING_CHARS {
        return name.to_string();
    }
    if let Some((family, variation)) = name.split_once(": ")
        && let Some((_, last)) = variation.rsplit_once(", ")
    {
        let short = format!("{family}: …, {last}");
        if short.chars().count() <= OPENING_CHARS {
            return short;
        }
    }
    let mut cut: String = name.chars().take(OPENING_CHARS - 1).collect();
    cut.push('…');
    cut
}

impl GameView<'_> {
    /// The game session shown.
    pub fn session(&self) -> &GameSession {
        self.session
    }

    /// The selected piece's square.
    pub fn selected(&self) -> Option<Square> {
        self.input.selected()
    }

    /// The squares a promotion waits for (the picker is open).
    pub fn pending_promotion(&self) -> Option<(Square, Square)> {
        self.input.pending_promotion()
    }

    /// What the board's touches need to know of the rest of the screen.
    pub fn gate(&self) -> Gate {
        Gate {
            viewing: self.saved.is_some(),
            browsing: self.browsing,
        }
    }

    /// The class of the move that led to position `ply`, once analysed.
    fn class_at(&self, ply: usize) -> Option<MoveClass> {
        self.analysis.classes.get(ply).copied().flatten()
    }

    /// The board square at a cell of the screen's board, as the board is turned.
    pub fn square_at(&self, col: usize, row: usize) -> Option<Square> {
        display_square(self.session.flipped, col, row)
    }

    /// The screen's cell showing `sq`, as the board is turned.
    pub fn cell_of(&self, sq: Square) -> usize {
        display_cell(self.session.flipped, sq)
    }

    /// The 64 cells in display order (row-major from the top-left).
    pub fn cells(&self) -> [CellView; 64] {
        let pos = self.session.shown_position();
        let last = self.session.shown_last_move();
        let targets: Vec<Move> = match (self.input.selected(), self.session.review) {
            (Some(from), None) => {
                crate::app::screens::board_input::moves_from(self.session.game.position(), from)
            }
            _ => Vec::new(),
        };
        let selected = self
            .input
            .selected()
            .filter(|_| self.session.review.is_none());
        let marks = BoardMarks {
            selected,
            targets: &targets,
            last,
            hint: self.session.thinking.hint(),
            warned: &self.session.coach().marks(self.session.shown_threat()),
            assist: &self.session.assist_grades(selected),
        };
        board_cells(pos, &marks, |col, row| self.square_at(col, row))
    }

    /// The players' lines: (top of the board, bottom of the board).
    pub fn players(&self) -> (PlayerInfo, PlayerInfo) {
        let bottom = if self.session.flipped {
            Color::Black
        } else {
            Color::White
        };
        (self.player(!bottom), self.player(bottom))
    }

    fn player(&self, color: Color) -> PlayerInfo {
        let pos = self.session.shown_position();
        let level = self.session.setup.level;
        // Beside a clock's digits only the level fits ("Level 1…" for level 10 misled).
        let computer = if self.session.clock().is_some() {
            tr!("Level {}", level.number())
        } else {
            tr!("Level {} · Elo {}", level.number(), level.elo())
        };
        let (name, detail) = match (&self.saved, self.session.setup.mode) {
            (Some(v), _) => {
                let stored = if color == Color::White {
                    v.white
                } else {
                    v.black
                };
                // "Computer" + "Level 4 (≈1390)": the stored name whole did not fit.
                let (name, detail) = review_name(stored);
                let detail = if detail.is_empty() {
                    tr!("Saved game")
                } else {
                    detail
                };
                (name, detail)
            }
            (None, mode) => self.player_names(mode, color, computer),
        };
        let shown_ply = self
            .session
            .review
            .unwrap_or(self.session.game.moves().len());
        let captured = captured_by(&self.session.game, shown_ply, color);
        let balance = material(pos, color) - material(pos, !color);
        let left = self
            .session
            .clock()
            .filter(|_| self.saved.is_none())
            .map(|c| c.remaining(color, std::time::Instant::now()));
        PlayerInfo {
            color,
            name,
            detail,
            to_move: !self.session.game.is_over()
                && self.session.review.is_none()
                && pos.turn() == color,
            captured,
            advantage: balance.max(0) as u32,
            // A saved game under review is not the game on the clock.
            clock: left.map(crate::app::model::clock::clock_text),
            clock_low: left.is_some_and(|l| l < crate::app::model::clock::LOW_TIME),
            clock_running: self.saved.is_none()
                && self.session.clock().and_then(|c| c.running()) == Some(color),
        }
    }

    fn player_names(&self, mode: Mode, color: Color, computer: String) -> (String, String) {
        match mode {
            // Whether the game counts, and why not, where the player looks during the game.
            Mode::Computer { human } if human == color => {
                (tr!("You"), rating_short(self.session.record().unrated()))
            }
            Mode::Computer { .. } => (tr!("Computer"), computer),
            Mode::Friend => (color_name(color).to_string(), String::new()),
            // The colour is the name: "Computer (White)" left no room for the level.
            Mode::Demo => (color_name(color).to_string(), computer),
            Mode::Network { local } if local == color => (tr!("You"), String::new()),
            // Beside a clock the partner's name needs the room ("Network" is in the status bar).
            Mode::Network { .. } if self.session.clock().is_some() => {
                (partner_name(self.session), String::new())
            }
            Mode::Network { .. } => (partner_name(self.session), tr!("Network")),
        }
    }

    /// The move list in SAN, with the move shown on the board marked.
    pub fn move_rows(&self) -> Vec<MoveListRow> {
        let shown_ply = self
            .session
            .review
            .unwrap_or(self.session.game.moves().len());
        let mut rows: Vec<MoveListRow> = Vec::new();
        let positions = self.session.game.positions();
        for (i, &mv) in self.session.game.moves().iter().enumerate() {
            let pos = &positions[i];
            // In the player's language (K D T L S in German); PGN stays English.
            let san = crate::i18n::san(&to_san(pos, mv));
            let current = i + 1 == shown_ply;
            if pos.turn() == Color::White || rows.is_empty() {
                rows.push(MoveListRow {
                    number: pos.fullmove_number(),
                    white: None,
                    black: None,
                    white_current: false,
                    black_current: false,
                    white_class: None,
                    black_class: None,
                });
            }
            if let Some(row) = rows.last_mut() {
                match pos.turn() {
                    Color::White => {
                        row.white = Some(san);
                        row.white_current = current;
                        row.white_class = self.class_at(i + 1);
                    }
                    Color::Black => {
                        row.black = Some(san);
                        row.black_current = current;
                        row.black_class = self.class_at(i + 1);
                    }
                }
            }
        }
        rows
    }

    /// The move list row of the move shown on the board (to keep it in view).
    pub fn focus_row(&self) -> Option<usize> {
        self.move_rows()
            .iter()
            .position(|r| r.white_current || r.black_current)
    }

    /// The result card once the game is over.
    pub fn result(&self) -> Option<ResultCard> {
        if let Some(v) = &self.saved {
            return v.result.cloned();
        }
        let outcome = self.session.game.outcome()?;
        if self.session.setup.is_aborted(&self.session.game) {
            return Some(ResultCard {
                title: tr!("Game aborted"),
                reason: tr!("Not rated: you made no move"),
                tone: ResultTone::Neutral,
            });
        }
        Some(ResultCard {
            title: self.result_title(outcome),
            reason: self.result_reason(outcome),
            tone: self.result_tone(outcome),
        })
    }

    /// Why the game ended; a network game won by forfeit says who was away.
    fn result_reason(&self, outcome: Outcome) -> String {
        match (outcome.termination, self.session.setup.mode) {
            (Termination::Abandonment, Mode::Network { local })
                if outcome.winner == Some(local) =>
            {
                tr!("your partner left")
            }
            (Termination::Abandonment, Mode::Network { .. }) => tr!("you were away too long"),
            _ => reason_text(outcome),
        }
    }

    fn result_tone(&self, outcome: Outcome) -> ResultTone {
        let mine = match self.session.setup.mode {
            Mode::Computer { human } => human,
            Mode::Network { local } => local,
            Mode::Friend | Mode::Demo => return ResultTone::Neutral,
        };
        match outcome.winner {
            None => ResultTone::Drawn,
            Some(w) if w == mine => ResultTone::Won,
            Some(_) => ResultTone::Lost,
        }
    }

    fn result_title(&self, outcome: Outcome) -> String {
        match (outcome.winner, self.session.setup.mode) {
            (None, _) => tr!("Draw"),
            (Some(w), Mode::Computer { human }) if w == human => tr!("You win!"),
            (Some(_), Mode::Computer { .. }) => tr!("The computer wins"),
            (Some(w), Mode::Network { local }) if w == local => tr!("You win!"),
            (Some(_), Mode::Network { .. }) => tr!("{} wins", partner_name(self.session)),
            (Some(w), _) => tr!("{} wins", color_name(w)),
        }
    }

    /// The opening's name ("C50 Italian Game") for the position shown: the last named
    /// position the game reached while in book territory.
    pub fn opening(&self) -> Option<String> {
        let opening = match self.session.review {
            Some(ply) => chesspi_engine::openings::opening_at(&self.session.game, ply),
            None => chesspi_engine::openings::classify(&self.session.game),
        };
        // German names where German has them; PGN headers keep the data set's English.
        opening.map(|o| {
            shorten_opening(&match crate::i18n::language() {
                crate::i18n::Language::German => o.to_german_string(),
                _ => o.to_string(),
            })
        })
    }

    /// The status line while the network partner is to move: the connection decides.
    fn partner_status(&self) -> Status {
        let name = partner_name(self.session);
        let link = self.session.partner.as_ref().map(|p| p.link);
        let (text, thinking) = match link {
            Some(LinkState::Connected) => (tr!("{} is thinking…", name), true),
            Some(LinkState::Reconnecting) => (tr!("Reconnecting to {}…", name), true),
            Some(LinkState::Closed) => (tr!("{} left the game", name), false),
            _ => (tr!("Connection lost — waiting for {}", name), true),
        };
        Status {
            text,
            alert: false,
            thinking,
        }
    }

    /// "Reviewing: after 12… Nf6" for the position after `ply` half-moves.
    fn review_status(&self, ply: usize) -> String {
        match ply.checked_sub(1) {
            None => tr!("Reviewing: the start position"),
            Some(i) => {
                let before = &self.session.game.positions()[i];
                let dots = match before.turn() {
                    Color::White => ".",
                    Color::Black => "…",
                };
                let mv = format!(
                    "{}{dots} {}",
                    before.fullmove_number(),
                    crate::i18n::san(&to_san(before, self.session.game.moves()[i]))
                );
                tr!("Reviewing: after {}", mv)
            }
        }
    }

    /// The status line: what to do next, in plain words.
    pub fn status(&self) -> Status {
        let plain = |text: &str| Status {
            text: text.to_string(),
            alert: false,
            thinking: false,
        };
        if self.input.pending_promotion().is_some() {
            return plain(&tr!("Choose a piece for promotion"));
        }
        if let Some(ply) = self.session.review {
            // A note from the last step (e.g. "back to the first mistake") comes first.
            return plain(
                self.session
                    .note
                    .as_deref()
                    .unwrap_or(&self.review_status(ply)),
            );
        }
        if let Some(advice) = self.session.coach().advice() {
            return Status {
                text: if advice.judgement.verdict >= MoveClass::Blunder {
                    tr!("Coach: a blunder — take it back?")
                } else {
                    tr!("Coach: a mistake — take it back?")
                },
                alert: true,
                thinking: false,
            };
        }
        if let Some(result) = self.result() {
            return plain(&format!("{} — {}", result.title, result.reason));
        }
        if let Some(note) = &self.session.note {
            return plain(note);
        }
        if self.session.clock_is_held() {
            return plain(&tr!("Clock paused — touch the board to go on"));
        }
        let pos = self.session.game.position();
        let turn = pos.turn();
        if self.session.setup.is_computer(turn) {
            let text = match self.session.setup.mode {
                Mode::Demo => tr!("{} is thinking…", color_name(turn)),
                _ if self.session.thinking.purpose() == Some(Purpose::Judge) => {
                    tr!("The coach looks at your move…")
                }
                _ => tr!("Computer is thinking…"),
            };
            return Status {
                text,
                alert: false,
                thinking: true,
            };
        }
        if self.session.setup.is_partner(turn) {
            return self.partner_status();
        }
        // Our move, but the partner is away: both sides say so (a move made now goes when the
        // link is back). A piece in hand gets its hints instead.
        if self.input.selected().is_none()
            && self.session.thinking.hint().is_none()
            && self
                .session
                .partner()
                .is_some_and(|p| !matches!(p.link, LinkState::Connected | LinkState::Closed))
        {
            return self.partner_status();
        }
        match self.session.thinking.purpose() {
            Some(Purpose::Hint) => {
                return Status {
                    text: tr!("Looking for a good move…"),
                    alert: false,
                    thinking: true,
                };
            }
            Some(Purpose::Threat) if self.session.coach().asked_threat() => {
                return Status {
                    text: tr!("Looking for the threat…"),
                    alert: false,
                    thinking: true,
                };
            }
            Some(Purpose::DrawOffer) => {
                return Status {
                    text: tr!("The computer considers your draw offer…"),
                    alert: false,
                    thinking: true,
                };
            }
            _ => {}
        }
        let who = match self.session.setup.mode {
            Mode::Friend => tr!("{} to move", color_name(turn)),
            _ => tr!("Your move"),
        };
        if let (Some(threat), None) = (self.session.shown_threat(), self.input.selected()) {
            return Status {
                text: threat.sentence(crate::app::screens::words::coach_language()),
                alert: true,
                thinking: false,
            };
        }
        if let Some(hint) = self.session.thinking.hint() {
            return plain(&tr!(
                "Hint: {} — the blue squares",
                crate::i18n::san(&to_san(pos, hint))
            ));
        }
        if let Some(sq) = self.input.selected() {
            let name = pos
                .piece_at(sq)
                .map_or_else(|| tr!("the piece"), |p| the_piece(p.role));
            let stuck =
                crate::app::screens::board_input::moves_from(self.session.game.position(), sq)
                    .is_empty();
            // In check the alert stays, and says why a piece cannot move.
            if pos.is_check() {
                let in_check = match self.session.setup.mode {
                    Mode::Friend => tr!("{} is in check", color_name(turn)),
                    _ => tr!("You are in check"),
                };
                let text = if stuck {
                    tr!("{} — {} cannot help; tap another piece", in_check, name)
                } else {
                    tr!("{} — tap where {} should go", in_check, name)
                };
                return Status {
                    text,
                    alert: true,
                    thinking: false,
                };
            }
            if stuck {
                return plain(&capitalized(&tr!(
                    "{} cannot move — tap another piece",
                    name
                )));
            }
            return plain(&tr!("Tap where {} should go", name));
        }
        if pos.is_check() {
            return Status {
                text: tr!("Check! {} — save your king", who),
                alert: true,
                thinking: false,
            };
        }
        plain(&tr!("{} — tap a piece", who))
    }
}
