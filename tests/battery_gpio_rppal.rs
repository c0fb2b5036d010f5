//! The `gpio` battery source through the real rppal code against emulated BCM2837 registers.
//!
//! Root only (skipped with a message otherwise; a failure when `CI` is set):
//! `gpio_source_reads_emulated_bcm2837` starts this test binary again in a private mount namespace
//! (`unshare --mount --propagation private`) where `/proc/cpuinfo` says Raspberry Pi 3 B, `/dev`
//! is a tmpfs, `/dev/gpiomem` is a 4096-byte file of registers and `bcm2837_emulator/shim.c`
//! (preloaded) answers the GPIO chip's info ioctl and latches the pull resistors (see
//! PLATFORM-NOTES, "rppal without a Pi"). Nothing on the host changes. Inside, `inside_namespace`
//! opens the source with the shipped config and with pulls and a charging pin, drives every
//! comparator pattern and checks what the source reads.

use std::fs::{self, File};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use chesspi::battery::{
    BatteryEvent, BatteryFault, BatteryLevel, BatteryReading, BatterySource, BatteryStatus,
    GpioSource, open_source,
};
use chesspi::config::{BatterySourceKind, Config, GpioBatteryConfig};

/// Set in the namespace's environment: the directory with the emulator's files.
const DIR_ENV: &str = "CHESSPI_BCM2837_EMULATOR";
/// The setup script's exit code when the namespace or its mounts cannot be made.
const SETUP_FAILED: i32 = 77;

// Register offsets in bytes, and the emulator's own state (same offsets as in shim.c).
const GPFSEL0: u64 = 0x00;
const GPLEV0: u64 = 0x34;
const GPPUD: u64 = 0x94;
const GPPUDCLK0: u64 = 0x98;
const PAD_PULL: u64 = 0x800;
const DRIVEN_MASK: u64 = 0x900;
const DRIVEN_LEVEL: u64 = 0x904;
const LATCHES: u64 = 0x908;
const PINS: usize = 28;

const PULL_OFF: u8 = 0;
const PULL_DOWN: u8 = 1;
const PULL_UP: u8 = 2;

/// Mounts the emulator's files in the new namespace, then runs the test binary.
const SETUP: &str = r#"
fail() { echo "setup: $*" >&2; exit 77; }
d=$1; shift
mkdir "$d/hostdev" || fail "mkdir"
mount --bind /dev "$d/hostdev" || fail "bind /dev"
mount -t tmpfs -o mode=755 chesspi-test-dev /dev || fail "tmpfs on /dev"
for n in null zero full random urandom; do
  touch "/dev/$n" && mount --bind "$d/hostdev/$n" "/dev/$n" || fail "/dev/$n"
done
touch /dev/gpiomem /dev/gpiochip0 || fail "touch"
mount --bind "$d/gpiomem" /dev/gpiomem || fail "bind gpiomem"
mount --bind "$d/gpiochip0" /dev/gpiochip0 || fail "bind gpiochip0"
mount --bind "$d/cpuinfo" /proc/cpuinfo || fail "bind /proc/cpuinfo"
exec env LD_PRELOAD="$d/shim.so" "$@"
"#;

/// A skip, with its reason. In CI (`CI` set: root on Debian, where this runs) it is a failure,
/// as the only check of rppal's path would otherwise vanish unnoticed.
fn skip(why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "battery_gpio_rppal cannot run in CI: {why}"
    );
    eprintln!("skipped: battery_gpio_rppal: {why}");
}

fn is_root() -> bool {
    // The effective uid, from the kernel, without a libc dependency.
    fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|ids| ids.split_whitespace().nth(1))
            == Some("0")
    })
}

/// BCM2837 pull state after reset (datasheet 6.2): GPIO 0..=8 up, 9..=27 down.
fn reset_pulls() -> [u8; PINS] {
    std::array::from_fn(|pin| if pin <= 8 { PULL_UP } else { PULL_DOWN })
}

/// Writes the emulator's files: registers as after reset (the config's pins left as outputs,
/// so the source must make them inputs), the board, the chip and the compiled shim.
fn prepare(dir: &Path) -> Result<(), String> {
    let mut page = vec![0u8; 4096];
    // GPFSEL0..2: every pin 0..=29 an output (001).
    for reg in 0..3 {
        let outputs: u32 = (0..10).map(|i| 1u32 << (3 * i)).sum();
        page[reg * 4..reg * 4 + 4].copy_from_slice(&outputs.to_le_bytes());
    }
    page[PAD_PULL as usize..PAD_PULL as usize + PINS].copy_from_slice(&reset_pulls());
    fs::write(dir.join("gpiomem"), &page).map_err(|e| e.to_string())?;
    fs::write(dir.join("gpiochip0"), b"").map_err(|e| e.to_string())?;
    fs::write(
        dir.join("cpuinfo"),
        "processor\t: 0\nHardware\t: BCM2835\nRevision\t: a02082\nModel\t\t: Raspberry Pi 3 Model B Rev 1.2\n",
    )
    .map_err(|e| e.to_string())?;
    let source = dir.join("shim.c");
    fs::write(&source, include_str!("bcm2837_emulator/shim.c")).map_err(|e| e.to_string())?;
    let out = Command::new("cc")
        .args(["-shared", "-fPIC", "-O1", "-Wall", "-o"])
        .arg(dir.join("shim.so"))
        .arg(&source)
        .arg("-ldl")
        .output()
        .map_err(|e| format!("no C compiler (cc): {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cc failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(())
}

#[test]
fn gpio_source_reads_emulated_bcm2837() {
    if !cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        // The pull latch steps over register writes with the x86 trap flag. Not a failure
        // under `scripts/build-aarch64 --app-tests`, which runs the battery tests on aarch64.
        eprintln!("skipped: battery_gpio_rppal: the BCM2837 emulator's pull latch needs x86_64");
        return;
    }
    if !is_root() {
        return skip("needs root (a private mount namespace with bind mounts); run as root");
    }
    let started = Instant::now();
    let dir = tempfile::tempdir().expect("tempdir");
    if let Err(why) = prepare(dir.path()) {
        return skip(&why);
    }
    let exe = std::env::current_exe().expect("test binary");
    let out = match Command::new("unshare")
        .args([
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            SETUP,
            "setup",
        ])
        .arg(dir.path())
        .arg(&exe)
        .args([
            "--exact",
            "inside_namespace",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(DIR_ENV, dir.path())
        .output()
    {
        Ok(out) => out,
        Err(e) => return skip(&format!("cannot run unshare (util-linux): {e}")),
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.code() == Some(SETUP_FAILED) {
        return skip(&format!(
            "the kernel refused the private mount namespace or its mounts: {}",
            stderr.trim()
        ));
    }
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "inside the namespace: {}\n--- stdout\n{stdout}\n--- stderr\n{stderr}",
        out.status
    );
    println!("{stdout}");
    println!("battery_gpio_rppal: {:.2?} in all", started.elapsed());
}

/// The emulated register file as the "hardware" sees it: a second handle on /dev/gpiomem's file.
struct Board {
    regs: File,
}

impl Board {
    fn word(&self, offset: u64) -> u32 {
        let mut b = [0u8; 4];
        self.regs
            .read_exact_at(&mut b, offset)
            .expect("read register");
        u32::from_le_bytes(b)
    }

    fn set_word(&self, offset: u64, value: u32) {
        self.regs
            .write_all_at(&value.to_le_bytes(), offset)
            .expect("write register");
    }

    fn pulls(&self) -> [u8; PINS] {
        let mut p = [0u8; PINS];
        self.regs.read_exact_at(&mut p, PAD_PULL).expect("pads");
        p
    }

    /// Function select of a pin (0 = input).
    fn function(&self, pin: u8) -> u32 {
        let reg = self.word(GPFSEL0 + 4 * u64::from(pin / 10));
        (reg >> (3 * u32::from(pin % 10))) & 0b111
    }

    /// Drives the given pins to the given levels; every other pin floats to its pull.
    fn drive(&self, pins: &[(u8, bool)]) {
        let mask = pins.iter().fold(0u32, |m, &(p, _)| m | 1 << p);
        let level = pins
            .iter()
            .fold(0u32, |l, &(p, high)| l | u32::from(high) << p);
        let pulled_up = self
            .pulls()
            .iter()
            .enumerate()
            .fold(0u32, |u, (p, &pull)| u | u32::from(pull == PULL_UP) << p);
        self.set_word(DRIVEN_MASK, mask);
        self.set_word(DRIVEN_LEVEL, level);
        self.set_word(GPLEV0, (level & mask) | (pulled_up & !mask));
    }
}

fn level(level: BatteryLevel, charging: Option<bool>) -> BatteryStatus {
    BatteryStatus::Level(BatteryReading { level, charging })
}

fn fault(above_mv: u32, not_above_mv: u32) -> BatteryStatus {
    BatteryStatus::Fault(BatteryFault::InconsistentComparators {
        above_mv,
        not_above_mv,
    })
}

/// Every comparator pattern [above 4.1 V, 3.7 V, 3.3 V, 3.0 V] and what it must read as.
fn patterns(charging: Option<bool>) -> [([bool; 4], BatteryStatus); 16] {
    use BatteryLevel::{Critical, Full, High, Low, Medium};
    let (t, f) = (true, false);
    [
        ([f, f, f, f], level(Critical, charging)),
        ([f, f, f, t], level(Low, charging)),
        ([f, f, t, f], fault(3300, 3000)),
        ([f, f, t, t], level(Medium, charging)),
        ([f, t, f, f], fault(3700, 3300)),
        ([f, t, f, t], fault(3700, 3300)),
        ([f, t, t, f], fault(3700, 3000)),
        ([f, t, t, t], level(High, charging)),
        ([t, f, f, f], fault(4100, 3700)),
        ([t, f, f, t], fault(4100, 3700)),
        ([t, f, t, f], fault(4100, 3700)),
        ([t, f, t, t], fault(4100, 3700)),
        ([t, t, f, f], fault(4100, 3300)),
        ([t, t, f, t], fault(4100, 3300)),
        ([t, t, t, f], fault(4100, 3000)),
        ([t, t, t, t], level(Full, charging)),
    ]
}

/// The pin levels that mean `above` for the config's comparators (honouring active low).
fn comparator_levels(config: &GpioBatteryConfig, above: [bool; 4]) -> Vec<(u8, bool)> {
    let pins = [
        config.full,
        config.above_two_thirds,
        config.above_one_third,
        config.above_cutoff,
    ];
    pins.iter()
        .zip(above)
        .map(|(p, a)| {
            let active_high = p.active == chesspi::config::ActiveLevel::High;
            (p.pin, a == active_high)
        })
        .collect()
}

fn parse(text: &str) -> GpioBatteryConfig {
    Config::parse(text, Path::new("test.toml"))
        .expect("config parses")
        .battery
        .gpio
}

/// Checks that opening `config` made its pins inputs with the given pulls and left every other
/// pin's pull as it was.
fn assert_pins(board: &Board, before: [u8; PINS], expected: &[(u8, u8)]) {
    let pulls = board.pulls();
    for pin in 0..PINS as u8 {
        let want = expected
            .iter()
            .find(|(p, _)| *p == pin)
            .map_or(before[usize::from(pin)], |&(_, pull)| pull);
        assert_eq!(
            pulls[usize::from(pin)],
            want,
            "pull of GPIO {pin} (0 off, 1 down, 2 up)"
        );
    }
    for &(pin, _) in expected {
        assert_eq!(board.function(pin), 0, "GPIO {pin} is an input");
    }
    // The pull sequence ends with the control signal and the clock removed.
    assert_eq!(board.word(GPPUD) & 3, 0, "GPPUD released");
    assert_eq!(board.word(GPPUDCLK0), 0, "GPPUDCLK0 released");
}

#[test]
#[ignore = "run by gpio_source_reads_emulated_bcm2837 inside its mount namespace"]
fn inside_namespace() {
    let Some(dir) = std::env::var_os(DIR_ENV).map(PathBuf::from) else {
        panic!("run through gpio_source_reads_emulated_bcm2837, not on its own");
    };
    let board = Board {
        regs: File::options()
            .read(true)
            .write(true)
            .open(dir.join("gpiomem"))
            .expect("register file"),
    };

    // The shipped config, opened as the app opens it: four comparators driven push-pull,
    // active high, pulls off.
    let path = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/config/chesspi.toml"));
    let config = Config::load(path).expect("config/chesspi.toml");
    assert_eq!(config.battery.source, BatterySourceKind::Gpio);
    let shipped = config.battery.gpio;
    assert!(
        shipped.charging.is_none(),
        "the shipped config has no charging pin"
    );
    // A bare Pi: nothing drives the pins, they float. No board, no source — and no monitor
    // that could shut the Pi down.
    board.drive(&[]);
    let before = board.pulls();
    let err = open_source(&config.battery)
        .err()
        .expect("floating pins are no battery board");
    assert!(err.no_board, "{err}");
    // The probe's pulls are gone: the configured ones (off) are back, the rest untouched.
    let configured_off: Vec<(u8, u8)> = [
        shipped.full,
        shipped.above_two_thirds,
        shipped.above_one_third,
        shipped.above_cutoff,
    ]
    .iter()
    .map(|p| (p.pin, PULL_OFF))
    .collect();
    assert_pins(&board, before, &configured_off);
    let (tx, rx) = std::sync::mpsc::channel();
    let monitor = chesspi::battery::start_monitor(
        &config.battery,
        chesspi::power::ShutdownCommand::new(chesspi::config::CommandLine {
            program: "false".into(),
            args: Vec::new(),
        }),
        move |event| {
            let _ = tx.send(event);
        },
    );
    assert!(monitor.is_none(), "no monitor on a bare Pi");
    assert!(matches!(rx.try_recv(), Ok(BatteryEvent::NoBoard)));

    // The board drives the comparators (all low: a flat battery, which must still be seen).
    board.drive(&comparator_levels(&shipped, [false; 4]));
    let before = board.pulls();
    let mut source = open_source(&config.battery)
        .expect("gpio source opens on the emulator")
        .expect("a source");
    assert_eq!(
        source.read(),
        Ok(level(BatteryLevel::Critical, None)),
        "a flat battery reads critical"
    );
    assert_eq!(source.name(), "gpio");
    assert!(
        board.word(LATCHES) >= 4,
        "rppal clocked a pull into each pin"
    );
    let pins = [
        shipped.full,
        shipped.above_two_thirds,
        shipped.above_one_third,
        shipped.above_cutoff,
    ];
    let off: Vec<(u8, u8)> = pins.iter().map(|p| (p.pin, PULL_OFF)).collect();
    assert_pins(&board, before, &off);
    for (above, want) in patterns(None) {
        board.drive(&comparator_levels(&shipped, above));
        assert_eq!(source.read(), Ok(want), "shipped config, above {above:?}");
    }
    drop(source);

    // Open-drain comparators with mixed active levels and pulls, and a charger's open-drain
    // "charging" output (low while charging) on a pull-up, as config/chesspi.toml suggests.
    let wired = parse(
        r#"
        [battery.gpio]
        full = { pin = 5, active = "low", pull = "up" }
        above_two_thirds = { pin = 6, active = "high", pull = "down" }
        above_one_third = { pin = 13, active = "low", pull = "up" }
        above_cutoff = { pin = 19, active = "high", pull = "off" }
        charging = { pin = 26, active = "low", pull = "up" }
        "#,
    );
    let before = board.pulls();
    let mut source = GpioSource::open(&wired).expect("gpio source opens again");
    assert_pins(
        &board,
        before,
        &[
            (5, PULL_UP),
            (6, PULL_DOWN),
            (13, PULL_UP),
            (19, PULL_OFF),
            (26, PULL_UP),
        ],
    );
    // The charger: driven low = charging; released = the pull-up says not charging (GPIO 26
    // resets to pull-down, so this reads "charging" unless the source set the pull-up).
    for (charger, charging) in [(Some(false), true), (None, false), (Some(true), false)] {
        for (above, want) in patterns(Some(charging)) {
            let mut levels = comparator_levels(&wired, above);
            levels.extend(charger.map(|high| (26, high)));
            board.drive(&levels);
            assert_eq!(
                source.read(),
                Ok(want),
                "wired config, above {above:?}, charger {charger:?}"
            );
        }
    }
    println!(
        "emulated BCM2837: 16 comparator patterns with the shipped config, 48 with pulls and \
         the charging pin; {} pull latches",
        board.word(LATCHES)
    );
}
