//! "Your record": the player's rating and results, in words.

use crate::storage::StatsSummary;
use crate::{tr, trn};

/// The puzzles' line of "Your record", once one was tried.
pub fn puzzle_record_text(r: &crate::storage::puzzles::PuzzleRecord) -> Option<String> {
    r.solved_percent().map(|percent| {
        tr!(
            "Puzzles: {} of {} solved ({} %), streak {} (best {})",
            r.solved,
            r.tries,
            percent,
            r.streak,
            r.best_streak
        )
    })
}

/// The player's record as the "Your record" dialog shows it.
pub fn record_text(s: &StatsSummary) -> String {
    if s.rated_games == 0 {
        return tr!(
            "No rated games yet. Your rating starts at 1000 and follows your results \
             against the computer and other players."
        );
    }
    let rating = if s.provisional {
        tr!("Rating {} (provisional)", s.rating)
    } else {
        tr!("Rating {}", s.rating)
    };
    let mut text = trn!(
        "{1} after {0} game: {2} won, {3} drawn, {4} lost.",
        "{1} after {0} games: {2} won, {3} drawn, {4} lost.",
        s.rated_games,
        rating,
        s.total.wins,
        s.total.draws,
        s.total.losses
    );
    if let Some(level) = s.fitting_level() {
        text.push('\n');
        text.push_str(&tr!(
            "The level that fits you: {} (≈{})",
            level.number(),
            level.elo()
        ));
    }
    if s.people.games() > 0 {
        text.push('\n');
        text.push_str(&tr!(
            "Against players: +{} ={} −{}",
            s.people.wins,
            s.people.draws,
            s.people.losses
        ));
    }
    for row in s.levels.iter().filter(|r| r.record.games() > 0) {
        text.push('\n');
        text.push_str(&tr!(
            "Level {} (≈{}): +{} ={} −{}",
            row.level.number(),
            row.level_elo,
            row.record.wins,
            row.record.draws,
            row.record.losses
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::puzzles::PuzzleRecord;

    /// As Train's line: 2 of 3 is 67 %, rounded to the nearest (it read 66 %).
    #[test]
    fn the_puzzles_line_rounds_to_the_nearest_per_cent() {
        let record = PuzzleRecord {
            tries: 3,
            solved: 2,
            ..PuzzleRecord::default()
        };
        let line = puzzle_record_text(&record).expect("a line");
        assert!(line.contains("(67 %)"), "{line}");
        assert_eq!(puzzle_record_text(&PuzzleRecord::default()), None);
    }
}
