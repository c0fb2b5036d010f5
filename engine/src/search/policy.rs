//! Which move the kiosk plays: the device's time cap, hints at a strong but quick setting, and
//! the weak levels' deliberate imprecision (a near-best root move chosen at random instead of
//! the best). The search itself only finds and scores moves; the levels' limits are chosen in
//! [`crate::level`].

use super::{INFINITY, RootMove, SearchLimits, SearchResult, Searcher, Threads};
use crate::game::Game;
use crate::moves::Move;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

const HINT_NODES: u64 = 400_000;
const HINT_TIME: Duration = Duration::from_millis(1500);

pub(super) fn seed_from_clock() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0x9E37_79B9, |d| d.as_nanos() as u64);
    nanos | 1
}

impl Searcher {
    /// Caps the thinking time of [`Searcher::choose_move`] and [`Searcher::hint`] (a slow
    /// device must not think longer than its owner allows). `None` leaves the limits' own times.
    pub fn set_time_cap(&mut self, cap: Option<Duration>) {
        self.time_cap = cap;
    }

    /// Threads for the searches where the player waits for the best answer: the clock games
    /// of the strong levels ([`Searcher::game_move`] with neither a node budget nor a
    /// weakness), Hint and level 10 (their node budgets spent by each thread:
    /// [`SearchLimits::on_threads`]). Levels 1–9 stay on one thread, as they were measured.
    /// One by default; explicit `SearchLimits::threads` elsewhere.
    pub fn set_threads(&mut self, threads: Threads) {
        self.kiosk_threads = threads;
    }

    /// `limits` on every thread [`Searcher::set_threads`] gave, each spending the budget.
    pub(crate) fn on_all_threads(&self, limits: SearchLimits) -> SearchLimits {
        limits.on_threads(self.kiosk_threads)
    }

    fn capped(&self, mut limits: SearchLimits) -> SearchLimits {
        if let Some(cap) = self.time_cap {
            limits.movetime = Some(limits.movetime.map_or(cap, |t| t.min(cap)));
        }
        if limits.nodes.is_none() && limits.weakness.is_none() {
            limits.threads = limits.threads.max(self.kiosk_threads);
        }
        limits
    }

    /// Seeds the random choices of the weak levels (for reproducible tests).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = seed | 1;
    }

    /// A suggestion for the player to move, at a strong but quick setting.
    pub fn hint(&mut self, game: &Game, stop: &AtomicBool) -> Option<Move> {
        if game.is_over() {
            return None;
        }
        self.game_move(game, self.hint_limits(), stop)
    }

    /// Hint's budget, on every thread given, each spending it.
    fn hint_limits(&self) -> SearchLimits {
        self.on_all_threads(SearchLimits {
            nodes: Some(HINT_NODES),
            movetime: Some(HINT_TIME),
            ..SearchLimits::default()
        })
    }

    /// The best move for the side to move in `game` within `limits`, shortened by the time
    /// cap, or `None` when there is no legal move. Blocks until done or `stop` is set; a
    /// stopped search still returns the best move found so far. (The levels' computer player,
    /// [`Searcher::choose_move`], is built on this in [`crate::level`].)
    pub fn game_move(
        &mut self,
        game: &Game,
        limits: SearchLimits,
        stop: &AtomicBool,
    ) -> Option<Move> {
        let limits = self.capped(limits);
        self.search(
            game.position(),
            game.history_hashes(),
            &limits,
            stop,
            &mut |_| {},
        )
        .best_move
    }

    /// The next seed for a weak level's imprecise choice.
    pub fn next_seed(&mut self) -> u64 {
        // xorshift64
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        self.rng
    }
}

/// Deliberate imprecision: instead of the best root move, pick among the near-best with
/// probability falling off with the loss (a softmax), never beyond `max_loss`. Weak levels
/// thus play plausible second-best moves and occasional mistakes rather than random moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weakness {
    /// Softmax temperature in centipawns: a move this much worse is e times less likely.
    pub temperature: i32,
    /// Moves losing more than this against the best are never chosen.
    pub max_loss: i32,
    pub seed: u64,
}

impl Weakness {
    /// Picks a move from scored root moves `(move, score)` (scores from the last complete
    /// iteration; unscored moves carry `i32::MIN`). The list must not be empty.
    fn choose_from(&self, scored: &[(Move, i32)]) -> Option<Move> {
        let best = scored.iter().map(|&(_, s)| s).max()?;
        let first_best = scored.iter().find(|&&(_, s)| s == best).map(|&(m, _)| m);
        if best == i32::MIN {
            return first_best;
        }
        let temperature = self.temperature.max(1) as f64;
        let weights: Vec<(Move, f64)> = scored
            .iter()
            .filter(|&&(_, s)| s != i32::MIN && best - s <= self.max_loss)
            .map(|&(m, s)| (m, (-(best - s) as f64 / temperature).exp()))
            .collect();
        let total: f64 = weights.iter().map(|&(_, w)| w).sum();
        // A uniform number in [0, total) from the seed (splitmix64 finaliser).
        let mut z = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        let mut point = (z >> 11) as f64 / (1u64 << 53) as f64 * total;
        for &(m, w) in &weights {
            if point < w {
                return Some(m);
            }
            point -= w;
        }
        first_best
    }

    /// Overrules the search's choice at the end of a search with imprecision: a move chosen
    /// from the root moves' scores of the last complete iteration (a stopped one is partial).
    pub(super) fn overrule(&self, root_moves: &[RootMove], result: &mut SearchResult) {
        let scored: Vec<(Move, i32)> = root_moves
            .iter()
            .map(|r| {
                (
                    r.mv,
                    if r.previous == -INFINITY {
                        i32::MIN
                    } else {
                        r.previous
                    },
                )
            })
            .collect();
        if let Some(mv) = self.choose_from(&scored)
            && result.best_move != Some(mv)
        {
            // The line and the expected reply were the best move's, not this one's.
            result.best_move = Some(mv);
            result.ponder = None;
            result.pv = vec![mv];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Square;

    #[test]
    fn the_time_cap_shortens_but_never_lengthens() {
        let mut searcher = Searcher::new(1);
        let limits = SearchLimits {
            nodes: Some(400_000),
            movetime: Some(Duration::from_secs(3)),
            ..SearchLimits::default()
        };
        let own = limits.movetime;
        assert_eq!(searcher.capped(limits.clone()).movetime, own);
        searcher.set_time_cap(Some(Duration::from_millis(50)));
        assert_eq!(
            searcher.capped(limits.clone()).movetime,
            Some(Duration::from_millis(50))
        );
        searcher.set_time_cap(Some(Duration::from_secs(600)));
        assert_eq!(searcher.capped(limits).movetime, own);
        let none = SearchLimits::default();
        assert_eq!(
            searcher.capped(none).movetime,
            Some(Duration::from_secs(600))
        );
    }

    #[test]
    fn kiosk_threads_only_for_unbudgeted_full_strength() {
        let mut searcher = Searcher::new(1);
        let four = Threads::new(4).expect("4 threads");
        let clock = SearchLimits {
            soft_time: Some(Duration::from_secs(1)),
            hard_time: Some(Duration::from_secs(3)),
            ..SearchLimits::default()
        };
        assert_eq!(searcher.capped(clock.clone()).threads, Threads::ONE);
        searcher.set_threads(four);
        assert_eq!(searcher.capped(clock.clone()).threads, four);
        let budget = SearchLimits {
            nodes: Some(400_000),
            ..clock.clone()
        };
        assert_eq!(searcher.capped(budget).threads, Threads::ONE);
        let weak = SearchLimits {
            weakness: Some(Weakness {
                temperature: 40,
                max_loss: 100,
                seed: 1,
            }),
            ..clock
        };
        assert_eq!(searcher.capped(weak).threads, Threads::ONE);
        // The game plays on with four threads: a move, and a legal one.
        let game = Game::new();
        let stop = AtomicBool::new(false);
        let limits = SearchLimits {
            depth: Some(6),
            ..SearchLimits::default()
        };
        let mv = searcher.game_move(&game, limits, &stop).expect("a move");
        assert!(game.position().is_legal(mv));
    }

    #[test]
    fn hint_thinks_on_the_threads_given_each_spending_its_budget() {
        let mut searcher = Searcher::new(1);
        assert_eq!(searcher.hint_limits().threads, Threads::ONE);
        assert_eq!(searcher.hint_limits().nodes, Some(HINT_NODES));
        let four = Threads::new(4).expect("4 threads");
        searcher.set_threads(four);
        let limits = searcher.hint_limits();
        assert_eq!(limits.threads, four);
        assert_eq!(limits.nodes, Some(4 * HINT_NODES));
        assert_eq!(limits.movetime, Some(HINT_TIME));
    }

    #[test]
    fn weakness_stays_within_max_loss() {
        let a = Move::new(Square::E2, Square::E4, crate::MoveKind::Normal);
        let b = Move::new(Square::D2, Square::D4, crate::MoveKind::Normal);
        let c = Move::new(Square::G2, Square::G4, crate::MoveKind::Normal);
        let scored = [(a, 50), (b, 30), (c, -400), (c, i32::MIN)];
        let mut seen_b = false;
        for seed in 0..200 {
            let w = Weakness {
                temperature: 40,
                max_loss: 100,
                seed,
            };
            let mv = w.choose_from(&scored).unwrap();
            assert!(mv == a || mv == b);
            seen_b |= mv == b;
        }
        assert!(seen_b);
    }
}
