//! One round of the drill: the computer follows one line (its card is the one graded), the
//! user plays the other side, judged against all the opening's lines by the engine's
//! [`Drill`]. A round grades one card once: missed at the user's first move off the lines,
//! passed when the line is played to its end without a miss.

use crate::storage::openings::OpeningCards;
use chesspi_engine::openings::drill::{Drill, DrillError, Progress, Verdict};
use chesspi_engine::openings::lines::{Line, LineId};
use chesspi_engine::{Color, Move};

/// A card's try, to be recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grade {
    pub line: LineId,
    pub passed: bool,
}

/// The user's move that left the lines, and the lines' moves there (most played first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Miss {
    pub tried: Move,
    pub expected: Vec<Move>,
}

/// One round.
#[derive(Debug, Clone)]
pub struct Run {
    drill: Drill,
    /// The line the computer follows, while the moves played are in its order (`None` after
    /// a transposition that no line's order has).
    target: Option<&'static Line>,
    /// The last move that left the lines, shown until the next move.
    miss: Option<Miss>,
    /// A move was missed this round: its card is graded already.
    missed: bool,
    /// The round is over: the line played to its end (the one completed), or none when the
    /// lines end without one the round followed.
    complete: Option<Option<&'static Line>>,
}

impl Run {
    /// A round over `lines` with the user playing `user`; the computer follows the line
    /// [`choose`] picks for `cards` at `now`.
    ///
    /// # Errors
    /// [`DrillError::NoLines`] when no line has a move for `user`.
    pub fn start(
        lines: Vec<&'static Line>,
        user: Color,
        cards: &OpeningCards,
        now: u64,
        seed: u64,
    ) -> Result<Run, DrillError> {
        let drill = Drill::new(lines, user)?;
        let mut run = Run {
            drill,
            target: None,
            miss: None,
            missed: false,
            complete: None,
        };
        run.retarget(cards, now, seed);
        Ok(run)
    }

    /// The drill (its position, moves played, the lines' moves here).
    pub fn drill(&self) -> &Drill {
        &self.drill
    }

    /// The line the computer follows.
    pub fn target(&self) -> Option<&'static Line> {
        self.target
    }

    /// The last move off the lines, while it is shown.
    pub fn miss(&self) -> Option<&Miss> {
        self.miss.as_ref()
    }

    /// A move was missed this round.
    pub fn missed(&self) -> bool {
        self.missed
    }

    /// The round is over: `Some(line)` with the line played to its end, if one.
    pub fn complete(&self) -> Option<Option<&'static Line>> {
        self.complete
    }

    /// The computer is to move.
    pub fn computer_to_move(&self) -> bool {
        self.complete.is_none() && !self.drill.users_turn() && !self.drill.is_finished()
    }

    /// The user may move.
    pub fn user_to_move(&self) -> bool {
        self.complete.is_none() && self.drill.users_turn()
    }

    /// The computer's move: the followed line's next move, else (after a transposition) the
    /// drill's own weighted choice.
    pub fn computer_move(&mut self, cards: &OpeningCards, now: u64, seed: u64) -> Option<Grade> {
        if !self.computer_to_move() {
            return None;
        }
        if !self.target.is_some_and(|t| self.continues(t)) {
            self.retarget(cards, now, seed);
        }
        let ply = self.drill.played().len();
        let next = self.target.and_then(|t| t.moves().get(ply).copied());
        let progress = match next {
            Some(mv) => self.drill.reply_move(mv),
            None => self.drill.reply(seed),
        };
        match progress {
            Ok(p) => self.after(&p, cards, now, seed),
            Err(e) => {
                log::warn!("the drill's move: {e}");
                None
            }
        }
    }

    /// The user's move: on the lines it is played; off them it is a miss (the first of the
    /// round grades the followed line's card as missed) and the lines' moves are shown.
    pub fn user_move(
        &mut self,
        mv: Move,
        cards: &OpeningCards,
        now: u64,
        seed: u64,
    ) -> Option<Grade> {
        if !self.user_to_move() {
            return None;
        }
        match self.drill.play(mv) {
            Ok(Verdict::Book(p)) => {
                self.miss = None;
                self.after(&p, cards, now, seed)
            }
            Ok(Verdict::Miss { expected, lines }) => {
                self.miss = Some(Miss {
                    tried: mv,
                    expected: expected.iter().map(|b| b.mv).collect(),
                });
                if self.missed {
                    return None;
                }
                self.missed = true;
                let line = self
                    .target
                    .filter(|t| lines.iter().any(|l| l.id() == t.id()))
                    .or(lines.first().copied())?;
                Some(Grade {
                    line: line.id(),
                    passed: false,
                })
            }
            Err(e) => {
                log::warn!("the user's move in the drill: {e}");
                None
            }
        }
    }

    /// After a move on the lines: the round ends when the followed line is played to its end
    /// (or no line goes on), passing its card unless a move was missed; a user move that left
    /// the followed line's order makes the computer follow another.
    fn after(&mut self, p: &Progress, cards: &OpeningCards, now: u64, seed: u64) -> Option<Grade> {
        let done = match self.target {
            Some(t) if p.completed.iter().any(|l| l.id() == t.id()) => Some(t),
            _ if p.finished => p.completed.first().copied(),
            _ => {
                if !self.target.is_some_and(|t| self.continues(t)) {
                    self.retarget(cards, now, seed);
                }
                return None;
            }
        };
        self.complete = Some(done);
        let line = done.filter(|_| !self.missed)?;
        Some(Grade {
            line: line.id(),
            passed: true,
        })
    }

    /// Whether `line` goes on from here with the moves played in its order.
    fn continues(&self, line: &Line) -> bool {
        let played = self.drill.played();
        line.moves().len() > played.len() && line.moves().starts_with(played)
    }

    /// Follows the line [`choose`] picks among those going on from here in the order played.
    fn retarget(&mut self, cards: &OpeningCards, now: u64, seed: u64) {
        let candidates: Vec<&'static Line> = self
            .drill
            .lines()
            .iter()
            .copied()
            .filter(|l| self.continues(l))
            .collect();
        self.target = choose(&candidates, cards, now, seed);
    }
}

/// The line to drill among `lines`: the longest overdue card first; else a line never tried
/// (picked by `seed`); else the card due soonest.
pub fn choose(
    lines: &[&'static Line],
    cards: &OpeningCards,
    now: u64,
    seed: u64,
) -> Option<&'static Line> {
    let due = lines
        .iter()
        .filter_map(|l| cards.get(l.id()).map(|c| (c.due_unix, *l)))
        .filter(|(due, _)| *due <= now)
        .min_by_key(|(due, _)| *due);
    if let Some((_, line)) = due {
        return Some(line);
    }
    let unseen: Vec<&'static Line> = lines
        .iter()
        .copied()
        .filter(|l| cards.get(l.id()).is_none())
        .collect();
    if !unseen.is_empty() {
        let i = usize::try_from(seed % unseen.len() as u64).unwrap_or(0);
        return unseen.get(i).copied();
    }
    lines
        .iter()
        .copied()
        .min_by_key(|l| cards.get(l.id()).map_or(0, |c| c.due_unix))
}
