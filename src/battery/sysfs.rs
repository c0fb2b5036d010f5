//! The `sysfs` source: a Linux `power_supply` device (`capacity`, `status`), as UPS boards with a
//! fuel gauge provide.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::{
    BatteryFault, BatteryLevel, BatteryReading, BatterySource, BatteryStatus, PercentThresholds,
    SourceError, percent_level,
};
use crate::config::SysfsBatteryConfig;

const POWER_SUPPLY_CLASS: &str = "/sys/class/power_supply";

/// A `power_supply` directory.
pub struct SysfsSource {
    dir: PathBuf,
    thresholds: PercentThresholds,
    previous: BatteryLevel,
}

fn read_trimmed(path: &Path) -> io::Result<String> {
    Ok(fs::read_to_string(path)?.trim().to_string())
}

/// The first `type = Battery` device under `class_dir`.
fn find_battery(class_dir: &Path) -> Option<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(class_dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    dirs.sort();
    dirs.into_iter()
        .find(|d| read_trimmed(&d.join("type")).is_ok_and(|t| t == "Battery"))
}

impl SysfsSource {
    /// Opens the configured device, or finds the first battery.
    ///
    /// # Errors
    /// No battery device, or its `capacity` cannot be read.
    pub fn open(config: &SysfsBatteryConfig) -> Result<Self, SourceError> {
        let dir = match &config.path {
            Some(p) => p.clone(),
            None => find_battery(Path::new(POWER_SUPPLY_CLASS)).ok_or_else(|| {
                SourceError::new(
                    "sysfs",
                    format!("no battery under {POWER_SUPPLY_CLASS} (set battery.sysfs.path)"),
                )
            })?,
        };
        let mut source = Self {
            dir,
            thresholds: PercentThresholds::from(config),
            previous: BatteryLevel::Unknown,
        };
        source.read()?;
        Ok(source)
    }
}

impl BatterySource for SysfsSource {
    fn name(&self) -> &'static str {
        "sysfs"
    }

    fn read(&mut self) -> Result<BatteryStatus, SourceError> {
        let capacity_path = self.dir.join("capacity");
        let text = read_trimmed(&capacity_path)
            .map_err(|e| SourceError::new("sysfs", format!("{}: {e}", capacity_path.display())))?;
        let percent: u8 = text.parse().map_err(|_| {
            SourceError::new(
                "sysfs",
                format!("{}: not a percentage: {text:?}", capacity_path.display()),
            )
        })?;
        // Optional files: a gauge without them still gives a level.
        let status = read_trimmed(&self.dir.join("status")).unwrap_or_default();
        let health = read_trimmed(&self.dir.join("health")).unwrap_or_default();
        if matches!(
            health.as_str(),
            "Dead" | "Over voltage" | "Unspecified failure" | "Overheat"
        ) {
            return Ok(BatteryStatus::Fault(BatteryFault::Reported(format!(
                "health: {health}"
            ))));
        }
        let charging = match status.as_str() {
            // "Full" with the charger still connected counts as on external power.
            "Charging" | "Full" => Some(true),
            "Discharging" | "Not charging" => Some(false),
            _ => None,
        };
        let level = if status == "Full" {
            BatteryLevel::Full
        } else {
            percent_level(percent, self.previous, self.thresholds)
        };
        self.previous = level;
        Ok(BatteryStatus::Level(BatteryReading { level, charging }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_battery_by_type() {
        let dir = tempfile::tempdir().expect("tempdir");
        for (name, kind) in [("AC", "Mains"), ("BAT1", "Battery"), ("BAT0", "Battery")] {
            let d = dir.path().join(name);
            fs::create_dir(&d).expect("mkdir");
            fs::write(d.join("type"), format!("{kind}\n")).expect("write");
        }
        assert_eq!(find_battery(dir.path()), Some(dir.path().join("BAT0")));
        assert_eq!(find_battery(&dir.path().join("none")), None);
    }
}
