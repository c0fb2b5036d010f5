//! Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2012), as lichess rates
//! its players: a rating, its deviation (how sure it is: 500 knows nothing, 50 is well
//! established) and a volatility (how much the player's strength itself varies). A result
//! against a well-known opponent moves an uncertain rating a lot and a sure one a little, so a
//! new player finds their level in a few games, and the deviation says when the rating can be
//! trusted.
//!
//! Each game is one rating period here: the app rates a game as soon as it is over.

use std::f64::consts::PI;

/// Glicko-2's internal scale: its ratings are `(r - 1500) / SCALE`.
const SCALE: f64 = 173.7178;

/// The volatility's step: how far a run of surprising results may change it. Glickman
/// suggests 0.3–1.2; 0.75 is lichess's.
pub const TAU: f64 = 0.75;

/// How closely the volatility is solved for.
const EPSILON: f64 = 1e-6;

/// A player's (or an opponent's) rating and how sure it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    pub rating: f64,
    /// The rating deviation, in rating points.
    pub deviation: f64,
    pub volatility: f64,
}

/// One game of a rating period: the opponent's rating and deviation, and the score (1, ½, 0).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Game {
    pub opponent: f64,
    pub opponent_deviation: f64,
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// The rating after `games` (Glickman's steps 2–8). With no games the deviation grows by
    /// the volatility, as after a period without play.
    pub fn after(self, games: &[Game], tau: f64) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            return Rating {
                deviation: (phi * phi + sigma * sigma).sqrt() * SCALE,
                ..self
            };
        }
        // Step 3 and 4: the estimated variance from the games, and the improvement they show.
        let (mut inv_v, mut sum) = (0.0, 0.0);
        for game in games {
            let mu_j = (game.opponent - 1500.0) / SCALE;
            let phi_j = game.opponent_deviation / SCALE;
            let e = expected(mu, mu_j, phi_j);
            inv_v += g(phi_j).powi(2) * e * (1.0 - e);
            sum += g(phi_j) * (game.score - e);
        }
        let v = 1.0 / inv_v;
        let delta = v * sum;
        // Step 5: the new volatility (the Illinois algorithm).
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
                - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        // The root is bracketed; the loop ends in a few dozen steps at most.
        for _ in 0..100 {
            if (big_b - big_a).abs() <= EPSILON {
                break;
            }
            let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = c;
            f_b = f_c;
        }
        let sigma = (big_a / 2.0).exp();
        // Steps 6–8: the deviation grows by the volatility, then shrinks by the games.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu = mu + phi * phi * sum;
        Rating {
            rating: mu * SCALE + 1500.0,
            deviation: phi * SCALE,
            volatility: sigma,
        }
    }
}

/// The deviation `games` rated games against opponents of about the player's own strength
/// leave, from `start` (Glicko's step 7 with `E = ½` and a sure opponent, volatility left
/// out): how sure a rating kept from before Glicko-2 is, from the games it rests on.
pub fn deviation_after(start: f64, games: u32) -> f64 {
    let q = 10f64.ln() / 400.0;
    1.0 / (1.0 / (start * start) + f64::from(games) * q * q / 4.0).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glickmans_example_gives_his_figures() {
        // Glickman (2012), section "Example": 1500, 200, 0.06, τ = 0.5 against three players.
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let games = [
            (1400.0, 30.0, 1.0),
            (1550.0, 100.0, 0.0),
            (1700.0, 300.0, 0.0),
        ]
        .map(|(opponent, opponent_deviation, score)| Game {
            opponent,
            opponent_deviation,
            score,
        });
        let after = player.after(&games, 0.5);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn without_games_only_the_deviation_grows() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let after = player.after(&[], TAU);
        assert_eq!(after.rating, 1500.0);
        assert!((after.deviation - 200.0_f64.hypot(0.06 * SCALE)).abs() < 1e-9);
    }

    #[test]
    fn a_rating_kept_from_before_is_as_sure_as_its_games_make_it() {
        assert_eq!(deviation_after(350.0, 0), 350.0);
        // About 105 after ten games, 62 after thirty.
        assert!((deviation_after(350.0, 10) - 104.8).abs() < 0.5);
        assert!((deviation_after(350.0, 30) - 62.4).abs() < 0.5);
    }
}
