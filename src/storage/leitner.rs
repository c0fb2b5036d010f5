//! The spaced-repetition schedule shared by Train's puzzles and the opening cards: a Leitner
//! system. A new item is in box 0 and due at once. Passed, it moves up a box (at most to the
//! last, [`LAST_BOX`]) and comes back after [`INTERVAL_DAYS`] of its new box; missed, it goes
//! back to box 0 and comes back [`RETRY_SECONDS`] later, in the same sitting, so the right
//! move is practised while the lesson is fresh.

/// Days until an item passed into box i + 1 (after moving up) comes back.
pub const INTERVAL_DAYS: [u64; 6] = [1, 3, 7, 16, 35, 90];

/// The highest box.
pub const LAST_BOX: u8 = INTERVAL_DAYS.len() as u8;

/// A missed item comes back this soon (seconds): in the same sitting, later.
pub const RETRY_SECONDS: u64 = 600;

const SECONDS_PER_DAY: u64 = 86_400;

/// Where an item in box `box_index` goes after a try at `now_unix`: its new box and when it
/// is due again (seconds since the epoch). A box beyond the last counts as the last.
pub fn after_try(box_index: u8, passed: bool, now_unix: u64) -> (u8, u64) {
    if !passed {
        return (0, now_unix.saturating_add(RETRY_SECONDS));
    }
    let next = box_index.saturating_add(1).min(LAST_BOX);
    let days = INTERVAL_DAYS[usize::from(next) - 1];
    (
        next,
        now_unix.saturating_add(days.saturating_mul(SECONDS_PER_DAY)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_moves_up_a_box_and_a_miss_starts_again_soon() {
        let now = 1_700_000_000;
        let mut box_index = 0;
        for (i, days) in INTERVAL_DAYS.iter().chain(&[90, 90]).enumerate() {
            let (next, due) = after_try(box_index, true, now);
            assert_eq!(usize::from(next), (i + 1).min(INTERVAL_DAYS.len()));
            assert_eq!(due, now + days * SECONDS_PER_DAY);
            box_index = next;
        }
        assert_eq!(after_try(LAST_BOX, false, now), (0, now + RETRY_SECONDS));
        assert_eq!(after_try(u8::MAX, true, now).0, LAST_BOX);
        assert_eq!(after_try(0, true, u64::MAX), (1, u64::MAX), "no overflow");
    }
}
