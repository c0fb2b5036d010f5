//! The 7" DSI screen's device-tree overlay (device/overlays/chesspi-7inch.dts), without a Pi:
//! it compiles with `dtc -@`, applies with `fdtoverlay` to a skeleton of the Pi 3's upstream
//! device tree (the nodes it targets, as in Debian's bcm2837-rpi-3-b.dtb, built without -@ so
//! with no `__symbols__`), and scripts/check-dsi-overlay passes on it with a modules directory
//! holding the drivers' aliases (and fails when one is missing). When the image's cached
//! Debian dtbs are there (target/device/cache/base-*/), it also applies to them.
//! Needs dtc, fdtoverlay and fdtget (device-tree-compiler, installed by scripts/setup); without
//! them the tests say so and skip.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const OVERLAY: &str = "device/overlays/chesspi-7inch.dts";

fn have_tools() -> bool {
    let ok = ["dtc", "fdtoverlay", "fdtget"].iter().all(|t| {
        Command::new(t)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if !ok {
        eprintln!(
            "SKIPPED: dtc/fdtoverlay/fdtget not found (install device-tree-compiler, see scripts/setup)"
        );
    }
    ok
}

fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn fdtget(dtb: &Path, node: &str, prop: &str, kind: &str) -> String {
    let out = run(Command::new("fdtget")
        .args(["-t", kind])
        .arg(dtb)
        .args([node, prop]));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The nodes of bcm2837-rpi-3-b.dtb (Debian 6.1) that the overlay targets or relies on.
const SKELETON: &str = r#"/dts-v1/;
/ {
	compatible = "raspberrypi,3-model-b", "brcm,bcm2837";
	#address-cells = <1>;
	#size-cells = <1>;
	soc {
		compatible = "simple-bus";
		#address-cells = <1>;
		#size-cells = <1>;
		ranges = <0x7e000000 0x3f000000 0x1000000>;
		gpio@7e200000 {
			compatible = "brcm,bcm2835-gpio";
			reg = <0x7e200000 0xb4>;
			gpio-controller;
			#gpio-cells = <2>;
			phandle = <0x06>;
			i2c0_gpio0 {
				brcm,pins = <0 1>;
				brcm,function = <4>;
				phandle = <0x0d>;
			};
			i2c0_gpio44 {
				brcm,pins = <44 45>;
				brcm,function = <5>;
			};
		};
		i2c@7e205000 {
			compatible = "brcm,bcm2835-i2c";
			reg = <0x7e205000 0x200>;
			#address-cells = <1>;
			#size-cells = <0>;
			status = "okay";
			pinctrl-names = "default";
			pinctrl-0 = <0x0d>;
			clock-frequency = <100000>;
		};
		dsi@7e700000 {
			compatible = "brcm,bcm2835-dsi1";
			reg = <0x7e700000 0x8c>;
			#address-cells = <1>;
			#size-cells = <0>;
			#clock-cells = <1>;
			status = "disabled";
			phandle = <0x05>;
		};
		gpu {
			compatible = "brcm,bcm2835-vc4";
		};
		firmware {
			compatible = "raspberrypi,bcm2835-firmware", "simple-mfd";
			#address-cells = <1>;
			#size-cells = <1>;
			phandle = <0x1b>;
		};
	};
};
"#;

struct Fixture {
    _dir: tempfile::TempDir,
    dtbo: PathBuf,
    dtbs: PathBuf,
    modules: PathBuf,
}

/// The overlay compiled, the skeleton as dtbs/bcm2837-rpi-3-b.dtb, and a modules directory with
/// the aliases Debian's 6.1 has for the overlay's compatibles (vc4's DSI part has none: its
/// string is in vc4.ko, as in the real one).
fn fixture(aliases: &[(&str, &str)]) -> Fixture {
    let dir = tempfile::tempdir().expect("tempdir");
    let dtbo = dir.path().join("chesspi-7inch.dtbo");
    run(Command::new("dtc")
        .args(["-@", "-q", "-I", "dts", "-O", "dtb", "-o"])
        .arg(&dtbo)
        .arg(repo().join(OVERLAY)));
    let dtbs = dir.path().join("broadcom");
    fs::create_dir(&dtbs).unwrap();
    let dts = dir.path().join("skeleton.dts");
    fs::write(&dts, SKELETON).unwrap();
    run(Command::new("dtc")
        .args(["-q", "-I", "dts", "-O", "dtb", "-o"])
        .arg(dtbs.join("bcm2837-rpi-3-b.dtb"))
        .arg(&dts));
    let modules = dir.path().join("modules");
    let vc4 = modules.join("kernel/drivers/gpu/drm/vc4");
    fs::create_dir_all(&vc4).unwrap();
    fs::write(
        vc4.join("vc4.ko"),
        b"\x7fELF\0brcm,bcm2835-dsi0\0brcm,bcm2835-dsi1\0",
    )
    .unwrap();
    let alias: String = aliases
        .iter()
        .map(|(c, m)| format!("alias of:N*T*C{c}C* {m}\nalias of:N*T*C{c} {m}\n"))
        .collect();
    fs::write(modules.join("modules.alias"), alias).unwrap();
    Fixture {
        _dir: dir,
        dtbo,
        dtbs,
        modules,
    }
}

const DEBIAN_ALIASES: &[(&str, &str)] = &[
    ("brcm,bcm2835-i2c", "i2c_bcm2835"),
    (
        "raspberrypi,7inch-touchscreen-panel",
        "panel_raspberrypi_touchscreen",
    ),
    ("raspberrypi,firmware-ts", "raspberrypi_ts"),
    ("brcm,bcm2835-vc4", "vc4"),
];

fn check(f: &Fixture) -> Output {
    Command::new(repo().join("scripts/check-dsi-overlay"))
        .arg(&f.dtbo)
        .arg(&f.dtbs)
        .arg(&f.modules)
        .output()
        .expect("scripts/check-dsi-overlay")
}

#[test]
fn the_overlay_applies_to_a_base_without_symbols() {
    if !have_tools() {
        return;
    }
    let f = fixture(DEBIAN_ALIASES);
    let base = f.dtbs.join("bcm2837-rpi-3-b.dtb");
    let none = Command::new("fdtget")
        .arg("-p")
        .arg(&base)
        .arg("/__symbols__")
        .output()
        .unwrap();
    assert!(
        !none.status.success(),
        "the skeleton must have no __symbols__, like Debian's dtbs"
    );
    let fixups = Command::new("fdtget")
        .arg("-p")
        .arg(&f.dtbo)
        .arg("/__fixups__")
        .output()
        .unwrap();
    assert!(
        !fixups.status.success(),
        "the overlay must not refer to labels of the base"
    );

    let merged = f.dtbs.parent().unwrap().join("merged.dtb");
    run(Command::new("fdtoverlay")
        .arg("-i")
        .arg(&base)
        .arg("-o")
        .arg(&merged)
        .arg(&f.dtbo));
    assert_eq!(fdtget(&merged, "/soc/dsi@7e700000", "status", "s"), "okay");
    let panel = "/soc/i2c@7e205000/panel@45";
    assert_eq!(
        fdtget(&merged, panel, "compatible", "s"),
        "raspberrypi,7inch-touchscreen-panel"
    );
    assert_eq!(fdtget(&merged, panel, "reg", "x"), "45");
    assert_eq!(
        fdtget(&merged, "/soc/firmware/touchscreen", "compatible", "s"),
        "raspberrypi,firmware-ts"
    );
    // The DSI output and the panel point at each other.
    let dsi_ep = "/soc/dsi@7e700000/port/endpoint";
    let panel_ep = "/soc/i2c@7e205000/panel@45/port/endpoint";
    assert_eq!(
        fdtget(&merged, dsi_ep, "remote-endpoint", "u"),
        fdtget(&merged, panel_ep, "phandle", "u")
    );
    assert_eq!(
        fdtget(&merged, panel_ep, "remote-endpoint", "u"),
        fdtget(&merged, dsi_ep, "phandle", "u")
    );
    // I2C0 moves to the display connector's pins, GPIO 44/45 on ALT1.
    let pins = fdtget(&merged, "/soc/i2c@7e205000", "pinctrl-0", "u");
    let group = "/soc/gpio@7e200000/chesspi-i2c0-gpio44";
    assert_eq!(fdtget(&merged, group, "phandle", "u"), pins);
    assert_eq!(fdtget(&merged, group, "brcm,pins", "u"), "44 45");
    assert_eq!(fdtget(&merged, group, "brcm,function", "u"), "5");
    // The base's own phandles are untouched.
    assert_eq!(fdtget(&merged, "/soc/gpio@7e200000", "phandle", "u"), "6");
    assert_eq!(fdtget(&merged, "/soc/dsi@7e700000", "phandle", "u"), "5");
}

#[test]
fn the_check_script_passes_and_names_the_modules() {
    if !have_tools() {
        return;
    }
    let f = fixture(DEBIAN_ALIASES);
    let out = check(&f);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "check-dsi-overlay failed:\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for want in [
        "raspberrypi,7inch-touchscreen-panel -> panel_raspberrypi_touchscreen",
        "raspberrypi,firmware-ts -> raspberrypi_ts",
        "brcm,bcm2835-dsi1 -> vc4 (no alias",
        "brcm,bcm2835-i2c -> i2c_bcm2835",
        "pins 44 45 function 5",
        "all checks passed",
    ] {
        assert!(text.contains(want), "no {want:?} in:\n{text}");
    }
}

#[test]
fn the_check_script_fails_without_the_panel_driver() {
    if !have_tools() {
        return;
    }
    let aliases: Vec<_> = DEBIAN_ALIASES
        .iter()
        .copied()
        .filter(|(_, m)| *m != "panel_raspberrypi_touchscreen")
        .collect();
    let f = fixture(&aliases);
    let out = check(&f);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains(
            "FAIL  /soc/i2c@7e205000/panel@45: raspberrypi,7inch-touchscreen-panel has no driver"
        ),
        "{text}"
    );
}

#[test]
fn the_overlay_applies_to_the_cached_debian_dtbs() {
    if !have_tools() {
        return;
    }
    let cache = repo().join("target/device/cache");
    let dtbs: Vec<PathBuf> = fs::read_dir(&cache)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|base| fs::read_dir(base.path().join("usr/lib")).ok())
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("linux-image-"))
        .filter_map(|e| fs::read_dir(e.path().join("broadcom")).ok())
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("bcm2837-rpi-3-")
        })
        .collect();
    if dtbs.is_empty() {
        eprintln!(
            "SKIPPED: no cached Debian dtbs under {} (scripts/device-image makes them)",
            cache.display()
        );
        return;
    }
    let f = fixture(DEBIAN_ALIASES);
    for dtb in &dtbs {
        let merged = f.dtbs.parent().unwrap().join("merged.dtb");
        run(Command::new("fdtoverlay")
            .arg("-i")
            .arg(dtb)
            .arg("-o")
            .arg(&merged)
            .arg(&f.dtbo));
        assert_eq!(
            fdtget(&merged, "/soc/dsi@7e700000", "status", "s"),
            "okay",
            "{}",
            dtb.display()
        );
        assert_eq!(
            fdtget(&merged, "/soc/i2c@7e205000/panel@45", "compatible", "s"),
            "raspberrypi,7inch-touchscreen-panel",
            "{}",
            dtb.display()
        );
        // The evidence for the bus: the dtb names GPIO 44/45 SDA0/SCL0.
        let names = run(Command::new("fdtget")
            .args(["-t", "s"])
            .arg(dtb)
            .args(["/soc/gpio@7e200000", "gpio-line-names"]));
        let names = String::from_utf8_lossy(&names.stdout);
        assert!(names.contains("SDA0 SCL0"), "{}: {names}", dtb.display());
    }
    eprintln!("applied to {} cached Debian dtbs", dtbs.len());
}
