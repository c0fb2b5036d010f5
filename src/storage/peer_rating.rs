//! The rating a network partner's device gave for its player before the game: what this
//! device's player is rated against when the game ends (Glicko-2, [`super::glicko`]). Kept
//! with the game (autosave, the PGN's `ChessPILanRating` tag) so a restart keeps it.

use std::fmt;

/// The lowest and highest rating kept (Glicko-2 points).
pub const RATING_BOUNDS: (f64, f64) = (0.0, 4000.0);
/// The lowest and highest deviation kept (Glicko-2 points; a new player has 500).
pub const DEVIATION_BOUNDS: (f64, f64) = (1.0, 500.0);

/// A partner's rating and deviation, finite and within [`RATING_BOUNDS`] and
/// [`DEVIATION_BOUNDS`] (made only by [`PeerRating::new`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PeerRating {
    rating: f64,
    deviation: f64,
}

// Never NaN: `new` keeps only values within the bounds.
impl Eq for PeerRating {}

impl PeerRating {
    /// The rating, or `None` when either value is outside its bounds (or not a number).
    pub fn new(rating: f64, deviation: f64) -> Option<PeerRating> {
        let within = |v: f64, (low, high): (f64, f64)| (low..=high).contains(&v);
        (within(rating, RATING_BOUNDS) && within(deviation, DEVIATION_BOUNDS))
            .then_some(PeerRating { rating, deviation })
    }

    pub fn rating(self) -> f64 {
        self.rating
    }

    pub fn deviation(self) -> f64 {
        self.deviation
    }

    /// Reads [`PeerRating`]'s text form, `RATING DEVIATION` (e.g. `1523.4 87.25`).
    pub fn parse(text: &str) -> Option<PeerRating> {
        let mut parts = text.split_whitespace().map(str::parse::<f64>);
        let (Some(Ok(rating)), Some(Ok(deviation)), None) =
            (parts.next(), parts.next(), parts.next())
        else {
            return None;
        };
        PeerRating::new(rating, deviation)
    }
}

/// `RATING DEVIATION`, each as the shortest text that reads back the same number.
impl fmt::Display for PeerRating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.rating, self.deviation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_only_ratings_within_bounds() {
        assert!(PeerRating::new(1500.0, 350.0).is_some());
        assert!(PeerRating::new(0.0, 1.0).is_some());
        assert!(PeerRating::new(4000.0, 500.0).is_some());
        for (r, d) in [
            (-0.5, 100.0),
            (4000.5, 100.0),
            (1500.0, 0.5),
            (1500.0, 501.0),
            (f64::NAN, 100.0),
            (1500.0, f64::NAN),
            (f64::INFINITY, 100.0),
        ] {
            assert_eq!(PeerRating::new(r, d), None, "{r} {d}");
        }
    }

    #[test]
    fn its_text_reads_back_the_same() {
        let r = PeerRating::new(1_523.437_129_8, 87.25).expect("in bounds");
        assert_eq!(PeerRating::parse(&r.to_string()), Some(r));
        assert_eq!(
            PeerRating::parse(" 1500  350 "),
            PeerRating::new(1500.0, 350.0)
        );
        for bad in [
            "",
            "1500",
            "1500 350 1",
            "NaN 350",
            "1500 inf",
            "x y",
            "9999 50",
        ] {
            assert_eq!(PeerRating::parse(bad), None, "{bad:?}");
        }
    }
}
