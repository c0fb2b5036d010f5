//! How a try at an endgame lesson stands: passed, failed or going on, from the lesson's goal,
//! the game played and what the endgame tables say of its positions.
//!
//! The goals as judged here:
//! - **Mate**: the player checkmates. Where the tables know the start (K+Q v K, K+R v K) the
//!   move count is set against the shortest mate.
//! - **Win**: the player checkmates, or leaves the defender a bare king against a queen or
//!   rook (a pawn queened, the defender's last piece won) that the tables, where they cover
//!   the position, say is won: from there on it is the queen or rook mate of the first lessons.
//! - **Draw**: a draw by rule (stalemate, too little material to mate, a threefold repetition,
//!   fifty moves), or [`HOLD_MOVES`] of the player's moves without losing.
//!
//! Where the tables cover both positions of a player's move (K+Q v K, K+R v K, K+P v K), a
//! move that turns a win into a draw or loss, or a draw into a loss, fails the try at once:
//! against the tables' defence or attack the result cannot come back. A game that ends in
//! another way than the goal fails it too (a stalemate in a mating lesson, the player mated).

use chesspi_engine::endgame::{Outcome as TableOutcome, Verdict, lessons::Goal, lessons::Lesson};
use chesspi_engine::game::{Game, Outcome, Termination};
use chesspi_engine::{Color, Position, Role};

/// The player's moves that hold a draw without a draw by rule.
pub const HOLD_MOVES: u32 = 20;

/// How a try stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    Playing,
    Passed(Pass),
    Failed(Fail),
}

impl Standing {
    /// Whether the try is over.
    pub fn is_over(self) -> bool {
        !matches!(self, Standing::Playing)
    }
}

/// A try that reached its goal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    /// The player's moves.
    pub moves: u32,
    pub how: PassKind,
}

/// How the goal was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PassKind {
    /// Checkmate; `shortest`: the fewest moves to mate from the start with best defence,
    /// where the tables know it.
    Mate { shortest: Option<u32> },
    /// The defender is left a bare king against the player's queen or rook, won.
    BareKing,
    /// A draw by rule.
    Drawn(Termination),
    /// [`HOLD_MOVES`] moves held.
    Held,
}

/// Why a try failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fail {
    /// The tables say the player's move at this ply turned a win into a draw (or a loss).
    ThrewWin(usize),
    /// The tables say the player's move at this ply turned a draw into a loss.
    LetDrawSlip(usize),
    /// The game ended, not as the goal asks: a stalemate, a draw by rule, the player mated.
    Ended(Outcome),
    /// The player is left a bare king against the computer's queen or rook.
    BareKing,
}

/// Where the try at `lesson` stands after `game` (from the lesson's start), given `values`:
/// what the tables say of the game's positions, in order (fewer than the positions while the
/// worker has not answered: those positions are not judged by the tables yet).
pub fn judge(lesson: &Lesson, game: &Game, values: &[Option<Verdict>]) -> Standing {
    let player = lesson.player;
    let positions = game.positions();
    // A game over is judged by how it ended (a stalemate says more than "a draw").
    let moves = player_moves(game, player);
    let ended = game
        .outcome()
        .or_else(|| game.claimable_draw().map(Outcome::draw));
    if let Some(outcome) = ended {
        return match outcome.winner {
            Some(winner) if winner == player => Standing::Passed(Pass {
                moves,
                how: PassKind::Mate {
                    shortest: shortest_mate(values.first().copied().flatten()),
                },
            }),
            None if lesson.goal == Goal::Draw => Standing::Passed(Pass {
                moves,
                how: PassKind::Drawn(outcome.termination),
            }),
            _ => Standing::Failed(Fail::Ended(outcome)),
        };
    }
    for (ply, before) in positions.iter().take(game.moves().len()).enumerate() {
        if before.turn() != player {
            continue;
        }
        let (Some(Some(before)), Some(Some(after))) = (values.get(ply), values.get(ply + 1)) else {
            continue;
        };
        // `after` is for the opponent, on move there.
        match (before.outcome(), after.outcome()) {
            (TableOutcome::Win, TableOutcome::Draw | TableOutcome::Win) => {
                return Standing::Failed(Fail::ThrewWin(ply));
            }
            (TableOutcome::Draw, TableOutcome::Win) => {
                return Standing::Failed(Fail::LetDrawSlip(ply));
            }
            _ => {}
        }
    }
    let pos = game.position();
    // Judged once the worker has answered for this position: the tables, where they cover
    // it, must agree (a queen left where the king takes it is no win).
    let answered = values.len() == positions.len();
    let table = |wanted: TableOutcome| {
        values.last().copied().flatten().is_none_or(|v| {
            let for_player = if pos.turn() == player {
                v.outcome()
            } else {
                flip(v.outcome())
            };
            for_player == wanted
        })
    };
    let won = lesson.goal == Goal::Win && bare_king_against_heavy(pos, !player);
    if answered && won && table(TableOutcome::Win) {
        return Standing::Passed(Pass {
            moves,
            how: PassKind::BareKing,
        });
    }
    if answered && bare_king_against_heavy(pos, player) && table(TableOutcome::Loss) {
        return Standing::Failed(Fail::BareKing);
    }
    if lesson.goal == Goal::Draw && moves >= HOLD_MOVES {
        return Standing::Passed(Pass {
            moves,
            how: PassKind::Held,
        });
    }
    Standing::Playing
}

/// The player's moves in `game`.
pub fn player_moves(game: &Game, player: Color) -> u32 {
    let positions = game.positions();
    let n = (0..game.moves().len())
        .filter(|&ply| positions[ply].turn() == player)
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The fewest moves to mate from a start the tables know as won for the side to move.
pub fn shortest_mate(start: Option<Verdict>) -> Option<u32> {
    match start {
        Some(Verdict::WinIn(n)) => Some(n),
        _ => None,
    }
}

fn flip(outcome: TableOutcome) -> TableOutcome {
    match outcome {
        TableOutcome::Win => TableOutcome::Loss,
        TableOutcome::Draw => TableOutcome::Draw,
        TableOutcome::Loss => TableOutcome::Win,
    }
}

/// Whether `side` has its king alone against a queen or rook of the other side.
fn bare_king_against_heavy(pos: &Position, side: Color) -> bool {
    let alone = pos.by_color(side).count() == 1;
    let heavy = [Role::Queen, Role::Rook]
        .into_iter()
        .any(|role| pos.pieces(!side, role).count() > 0);
    alone && heavy
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesspi_engine::endgame::{best_move, lessons, probe};

    fn lesson(id: &str) -> &'static Lesson {
        lessons::find(id).expect("a lesson")
    }

    fn game_of(lesson: &Lesson, moves: &[&str]) -> Game {
        let mut game = Game::from_position(lesson.position().expect("fen"));
        for uci in moves {
            let mv = game.position().parse_uci_move(uci).expect("legal");
            game.play(mv).expect("plays");
        }
        game
    }

    fn values(game: &Game) -> Vec<Option<Verdict>> {
        game.positions().iter().map(probe).collect()
    }

    /// Both sides play the tables' moves: the quickest mate, the count equal to the shortest.
    #[test]
    fn the_tables_mate_passes_with_the_shortest_count() {
        let l = lesson("krk-2");
        let mut game = game_of(l, &[]);
        let start = probe(game.position());
        let Some(Verdict::WinIn(shortest)) = start else {
            panic!("{start:?}");
        };
        while let Some(mv) = best_move(game.position()) {
            assert_eq!(
                judge(l, &game, &values(&game)),
                Standing::Playing,
                "{}",
                game.position().to_fen()
            );
            game.play(mv).expect("legal");
        }
        assert_eq!(
            judge(l, &game, &values(&game)),
            Standing::Passed(Pass {
                moves: shortest,
                how: PassKind::Mate {
                    shortest: Some(shortest)
                }
            })
        );
    }

    #[test]
    fn a_stalemate_fails_a_mating_lesson() {
        // "Mate, not stalemate": Qb6 stalemates.
        let l = lesson("kqk-3");
        let game = game_of(l, &["b5b6"]);
        assert_eq!(
            judge(l, &game, &values(&game)),
            Standing::Failed(Fail::Ended(Outcome::draw(Termination::Stalemate)))
        );
        let mate = game_of(l, &["b5b7"]);
        assert_eq!(
            judge(l, &mate, &values(&mate)),
            Standing::Passed(Pass {
                moves: 1,
                how: PassKind::Mate { shortest: Some(1) }
            })
        );
    }

    #[test]
    fn a_move_that_throws_the_win_away_fails_at_once() {
        // Only Ke3 wins; Kd4?? lets Black take the opposition... the tables say which.
        let l = lesson("kpk-1");
        let pos = l.position().expect("fen");
        let drawing = pos
            .legal_moves()
            .iter()
            .copied()
            .find(|&mv| {
                let after = pos.play(mv).expect("legal");
                probe(&after).map(Verdict::outcome) == Some(TableOutcome::Draw)
            })
            .expect("a move that draws");
        let mut game = game_of(l, &[]);
        game.play(drawing).expect("legal");
        assert_eq!(
            judge(l, &game, &values(&game)),
            Standing::Failed(Fail::ThrewWin(0))
        );
        // Not yet answered: nothing judged by the tables.
        assert_eq!(judge(l, &game, &values(&game)[..1]), Standing::Playing);
        // The winning move goes on.
        let winning = game_of(l, &["d3e3"]);
        assert_eq!(judge(l, &winning, &values(&winning)), Standing::Playing);
    }

    #[test]
    fn a_move_that_lets_the_draw_slip_fails_and_the_right_one_holds() {
        // Hold the opposition: only Ke7 draws.
        let l = lesson("kpk-2");
        let slip = game_of(l, &["e8d7"]);
        assert_eq!(
            judge(l, &slip, &values(&slip)),
            Standing::Failed(Fail::LetDrawSlip(0))
        );
        // Ke7 and the tables' play after it: held for HOLD_MOVES, or drawn by rule sooner.
        let mut game = game_of(l, &["e8e7"]);
        let standing = loop {
            let standing = judge(l, &game, &values(&game));
            if standing.is_over() {
                break standing;
            }
            let mv = best_move(game.position()).expect("a move");
            game.play(mv).expect("legal");
        };
        assert!(
            matches!(
                standing,
                Standing::Passed(Pass {
                    how: PassKind::Held | PassKind::Drawn(_),
                    ..
                })
            ),
            "{standing:?}"
        );
    }

    #[test]
    fn a_queened_pawn_wins_the_king_and_pawn_lesson() {
        // The square: c4 runs, c8=Q leaves Black a bare king.
        let l = lesson("kpk-3");
        let game = game_of(
            l,
            &["c4c5", "h5g6", "c5c6", "g6f7", "c6c7", "f7e7", "c7c8q"],
        );
        assert_eq!(
            judge(l, &game, &values(&game)),
            Standing::Passed(Pass {
                moves: 4,
                how: PassKind::BareKing
            })
        );
    }

    #[test]
    fn the_player_mated_or_stripped_fails_and_a_draw_by_rule_holds() {
        // Queen v rook pawn, the player Black: the pawn lost is a bare king against the queen.
        let l = lesson("qp-3");
        let pos = Position::from_fen("7K/8/8/8/8/1k6/8/Q7 b - - 0 1").expect("fen");
        let game = Game::from_position(pos);
        assert_eq!(
            judge(l, &game, &values(&game)),
            Standing::Failed(Fail::BareKing)
        );
        // Philidor: a threefold repetition is a draw by rule.
        let l = lesson("philidor-1");
        let game = game_of(
            l,
            &[
                "b1b6", "a7a8", "e8d7", "a8a7", "d7e8", "a7a8", "e8d7", "a8a7", "d7e8",
            ],
        );
        assert_eq!(
            judge(l, &game, &values(&game)),
            Standing::Passed(Pass {
                moves: 5,
                how: PassKind::Drawn(Termination::ThreefoldRepetition)
            })
        );
    }
}
