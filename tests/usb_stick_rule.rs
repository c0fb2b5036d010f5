//! The device's USB stick mounting (systemd/usb-stick, run by 80-chesspi-usb-stick.rules): the
//! script run with stand-ins for `systemd-mount`, `mountpoint` and `id` on its PATH, as udev
//! runs it (the stick's ID_FS_* in the environment). What it asks systemd-mount is checked;
//! the mount itself is checked on the emulated device (tests/device/boot_test.py, usb).

use std::path::Path;
use std::process::Command;

/// Runs the script for /dev/`name` with `env`; `mounted` are the paths `mountpoint` confirms.
/// Returns the arguments systemd-mount was given.
fn run(name: &str, env: &[(&str, &str)], mounted: &[&str]) -> Vec<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    let bin = dir.path();
    let log = bin.join("systemd-mount.args");
    let stub = |file: &str, body: &str| {
        let path = bin.join(file);
        std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("stub");
        Command::new("chmod")
            .arg("755")
            .arg(&path)
            .status()
            .expect("chmod");
    };
    stub(
        "systemd-mount",
        &format!("for a in \"$@\"; do echo \"$a\"; done > {}", log.display()),
    );
    stub(
        "mountpoint",
        &format!(
            "case \"$2\" in {}) exit 0;; esac; exit 1",
            if mounted.is_empty() {
                "__none__".to_string()
            } else {
                mounted.join("|")
            }
        ),
    );
    stub("id", "case \"$1\" in -u) echo 990;; -g) echo 991;; esac");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("systemd/usb-stick");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let status = Command::new("sh")
        .arg(script)
        .arg(name)
        .env_clear()
        .env("PATH", path)
        .envs(env.iter().copied())
        .status()
        .expect("run the script");
    assert!(status.success());
    std::fs::read_to_string(&log)
        .expect("systemd-mount was run")
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_fat_stick_is_mounted_under_its_label_for_the_app() {
    let args = run(
        "sdb1",
        &[("ID_FS_LABEL", "MY GAMES/1"), ("ID_FS_TYPE", "vfat")],
        &[],
    );
    assert_eq!(
        args,
        [
            "--no-block",
            "--collect",
            "--options=rw,nosuid,nodev,noexec,noatime,sync,uid=990,gid=991,umask=0022",
            "/dev/sdb1",
            "/media/MY_GAMES_1",
        ]
    );
}

#[test]
fn no_label_a_taken_label_and_an_ext4_stick() {
    let args = run("sdc", &[("ID_FS_TYPE", "ext4")], &[]);
    assert_eq!(args[2], "--options=rw,nosuid,nodev,noexec,noatime,sync");
    assert_eq!(args[4], "/media/sdc");
    let args = run(
        "sdd1",
        &[("ID_FS_LABEL", "STICK"), ("ID_FS_TYPE", "exfat")],
        &["/media/STICK"],
    );
    assert_eq!(args[4], "/media/STICK-sdd1");
    // Nothing in a label can lead out of /media.
    let args = run("sde1", &[("ID_FS_LABEL", "../../etc")], &[]);
    assert_eq!(args[4], "/media/_.._.._etc");
    let args = run("sde1", &[("ID_FS_LABEL", "..")], &[]);
    assert_eq!(args[4], "/media/_..");
}
