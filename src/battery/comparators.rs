//! The original hardware: one comparator per reference voltage.

use super::{BatteryFault, BatteryLevel, BatteryReading, BatteryStatus};

/// Reference voltages in millivolts, highest first, in the order of `comparator_status`'s input.
const REFERENCES_MV: [u32; 4] = [4100, 3700, 3300, 3000];

/// Maps comparator outputs (true = battery above that reference) to a status.
///
/// `above` is ordered like the references: 4.1 V (full), 3.7 V (two thirds), 3.3 V (one third),
/// 3.0 V (cut-off). A battery above a higher reference is above every lower one; any other
/// pattern is a fault, never a level.
pub fn comparator_status(above: [bool; 4], charging: Option<bool>) -> BatteryStatus {
    // The first "not above" from the top; everything below it must be "not above" too.
    for high in 0..4 {
        if !above[high] {
            continue;
        }
        if let Some(low) = (high + 1..4).find(|&low| !above[low]) {
            return BatteryStatus::Fault(BatteryFault::InconsistentComparators {
                above_mv: REFERENCES_MV[high],
                not_above_mv: REFERENCES_MV[low],
            });
        }
        break;
    }
    let level = match above.iter().filter(|&&a| a).count() {
        4 => BatteryLevel::Full,
        3 => BatteryLevel::High,
        2 => BatteryLevel::Medium,
        1 => BatteryLevel::Low,
        _ => BatteryLevel::Critical,
    };
    BatteryStatus::Level(BatteryReading { level, charging })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(above: [bool; 4]) -> BatteryLevel {
        match comparator_status(above, None) {
            BatteryStatus::Level(r) => r.level,
            BatteryStatus::Fault(f) => panic!("unexpected fault {f}"),
        }
    }

    #[test]
    fn consistent_patterns_map_to_levels() {
        assert_eq!(level([true; 4]), BatteryLevel::Full);
        assert_eq!(level([false, true, true, true]), BatteryLevel::High);
        assert_eq!(level([false, false, true, true]), BatteryLevel::Medium);
        assert_eq!(level([false, false, false, true]), BatteryLevel::Low);
        assert_eq!(level([false; 4]), BatteryLevel::Critical);
    }

    #[test]
    fn every_inconsistent_pattern_is_a_fault() {
        let mut faults = 0;
        for bits in 0u8..16 {
            let above = [bits & 8 != 0, bits & 4 != 0, bits & 2 != 0, bits & 1 != 0];
            let monotone = above.windows(2).all(|w| !w[0] || w[1]);
            let fault = matches!(comparator_status(above, None), BatteryStatus::Fault(_));
            assert_eq!(fault, !monotone, "{above:?}");
            faults += usize::from(fault);
        }
        assert_eq!(faults, 11);
    }

    #[test]
    fn fault_names_the_contradiction() {
        let status = comparator_status([false, true, false, true], Some(false));
        let BatteryStatus::Fault(fault) = status else {
            panic!("expected a fault")
        };
        assert_eq!(
            fault.to_string(),
            "battery comparators disagree: above 3.7 V but not above 3.3 V"
        );
    }
}
