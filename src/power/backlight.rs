//! The display backlight through `/sys/class/backlight/<name>/`.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The Linux backlight class directory.
pub const BACKLIGHT_CLASS: &str = "/sys/class/backlight";

/// `bl_power` values (`FB_BLANK_UNBLANK`, `FB_BLANK_POWERDOWN`).
const BL_POWER_ON: &str = "0";
const BL_POWER_OFF: &str = "4";

/// Something whose brightness can be set.
pub trait Backlight: Send {
    /// Sets the brightness in percent of the maximum; 0 switches the light off.
    ///
    /// # Errors
    /// The device cannot be written.
    fn set_percent(&mut self, percent: u8) -> io::Result<()>;
}

/// A sysfs backlight directory with `brightness`, `max_brightness` and optionally `bl_power`.
#[derive(Debug)]
pub struct SysfsBacklight {
    dir: PathBuf,
    max: u32,
}

impl SysfsBacklight {
    /// Opens a backlight directory.
    ///
    /// # Errors
    /// `max_brightness` is missing or not a positive number.
    pub fn open(dir: &Path) -> io::Result<Self> {
        let text = fs::read_to_string(dir.join("max_brightness"))?;
        let max = text
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&m| m > 0)
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("{}: bad max_brightness {:?}", dir.display(), text.trim()),
                )
            })?;
        Ok(Self {
            dir: dir.to_path_buf(),
            max,
        })
    }

    /// The first backlight under `class_dir` (sorted by name).
    ///
    /// # Errors
    /// No backlight there, or it cannot be opened.
    pub fn find(class_dir: &Path) -> io::Result<Self> {
        let mut dirs: Vec<PathBuf> = fs::read_dir(class_dir)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        dirs.sort();
        let dir = dirs.into_iter().next().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!("no backlight under {}", class_dir.display()),
            )
        })?;
        Self::open(&dir)
    }

    /// The backlight's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The raw value for a percentage: never 0 for a non-zero percentage, so "dim" stays lit.
    pub fn raw_value(&self, percent: u8) -> u32 {
        let percent = u64::from(percent.min(100));
        let raw = (u64::from(self.max) * percent).div_ceil(100);
        u32::try_from(raw).unwrap_or(self.max)
    }

    fn write(&self, file: &str, value: &str) -> io::Result<()> {
        fs::write(self.dir.join(file), value).map_err(|e| {
            io::Error::new(e.kind(), format!("{}: {e}", self.dir.join(file).display()))
        })
    }
}

impl Backlight for SysfsBacklight {
    fn set_percent(&mut self, percent: u8) -> io::Result<()> {
        let has_power = self.dir.join("bl_power").exists();
        if percent == 0 {
            self.write("brightness", "0")?;
            if has_power {
                self.write("bl_power", BL_POWER_OFF)?;
            }
            return Ok(());
        }
        if has_power {
            self.write("bl_power", BL_POWER_ON)?;
        }
        self.write("brightness", &self.raw_value(percent).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake(max: &str, with_power: bool) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        let bl = dir.path().join("rpi_backlight");
        fs::create_dir(&bl).expect("mkdir");
        fs::write(bl.join("max_brightness"), max).expect("max");
        fs::write(bl.join("brightness"), "255\n").expect("brightness");
        if with_power {
            fs::write(bl.join("bl_power"), "0\n").expect("bl_power");
        }
        dir
    }

    fn read(dir: &Path, file: &str) -> String {
        fs::read_to_string(dir.join(file)).expect("read")
    }

    #[test]
    fn sets_percentages_and_blanks_with_bl_power() {
        let root = fake("255\n", true);
        let mut bl = SysfsBacklight::find(root.path()).expect("found");
        let dir = bl.dir().to_path_buf();
        bl.set_percent(20).expect("dim");
        assert_eq!(read(&dir, "brightness"), "51");
        bl.set_percent(0).expect("off");
        assert_eq!(
            (
                read(&dir, "brightness").as_str(),
                read(&dir, "bl_power").as_str()
            ),
            ("0", "4")
        );
        bl.set_percent(100).expect("on");
        assert_eq!(
            (
                read(&dir, "brightness").as_str(),
                read(&dir, "bl_power").as_str()
            ),
            ("255", "0")
        );
    }

    #[test]
    fn small_percentages_stay_lit() {
        let root = fake("7", false);
        let bl = SysfsBacklight::find(root.path()).expect("found");
        assert_eq!(bl.raw_value(1), 1);
        assert_eq!(bl.raw_value(0), 0);
        assert_eq!(bl.raw_value(100), 7);
    }

    #[test]
    fn bad_or_missing_backlights_are_errors() {
        let empty = tempfile::tempdir().expect("tempdir");
        assert!(SysfsBacklight::find(empty.path()).is_err());
        assert!(SysfsBacklight::find(&empty.path().join("absent")).is_err());
        let zero = fake("0", false);
        assert!(SysfsBacklight::find(zero.path()).is_err());
    }
}
