//! The device's USB stick mounting (systemd/usb-stick, run by 80-chesspi-usb-stick.rules): the
//! script run with stand-ins for `systemd-mount`, `mountpoint` and `id` on its PATH, as udev
//! runs it (the stick's ID_FS_* in the environment). What it asks systemd-mount is checked;
//! the mount itself is checked on the emulated device (tests/device/boot_test.py, usb).
//! Then what the app lists from a stick (src/storage/export.rs): no symbolic links.

use std::path::Path;
use std::process::Command;

use chesspi::storage::export::{find_mounts, pgn_files_on};

/// Runs the script for /dev/`name` with `env`; `mounted` are the paths `mountpoint` confirms.
/// Returns the arguments systemd-mount was given, none when it was not run.
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
        .unwrap_or_default()
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
            "--type=vfat",
            "--options=rw,nosuid,nodev,noexec,noatime,sync,uid=990,gid=991,umask=0022",
            "/dev/sdb1",
            "/media/MY_GAMES_1",
        ]
    );
}

#[test]
fn no_label_and_a_taken_label() {
    let args = run("sdc", &[("ID_FS_TYPE", "vfat")], &[]);
    assert_eq!(args[5], "/media/sdc");
    let args = run(
        "sdd1",
        &[("ID_FS_LABEL", "STICK"), ("ID_FS_TYPE", "exfat")],
        &["/media/STICK"],
    );
    assert_eq!(args[2], "--type=exfat");
    assert_eq!(args[5], "/media/STICK-sdd1");
    // Nothing in a label can lead out of /media.
    let args = run(
        "sde1",
        &[("ID_FS_LABEL", "../../etc"), ("ID_FS_TYPE", "vfat")],
        &[],
    );
    assert_eq!(args[5], "/media/_.._.._etc");
    let args = run(
        "sde1",
        &[("ID_FS_LABEL", ".."), ("ID_FS_TYPE", "vfat")],
        &[],
    );
    assert_eq!(args[5], "/media/_..");
}

/// Only what sticks carry is mounted, with the type pinned: a stranger's stick with ext4,
/// btrfs, squashfs, an ISO or an unknown type feeds no other file system driver, and brings no
/// symlinks, owners or device files along.
#[test]
fn only_fat_exfat_and_ntfs_are_mounted() {
    let args = run("sdb1", &[("ID_FS_TYPE", "ntfs")], &[]);
    assert_eq!(args[2], "--type=ntfs3");
    assert_eq!(
        args[3],
        "--options=rw,nosuid,nodev,noexec,noatime,sync,uid=990,gid=991,umask=0022"
    );
    for fs in [
        "ext4", "ext2", "btrfs", "xfs", "squashfs", "iso9660", "hfsplus", "udf", "",
    ] {
        assert_eq!(
            run("sdb1", &[("ID_FS_TYPE", fs)], &[]),
            Vec::<String>::new(),
            "{fs} was mounted"
        );
    }
    // The rule does not even run the script for them.
    let rule = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("systemd/80-chesspi-usb-stick.rules"),
    )
    .expect("rule");
    let line = rule
        .lines()
        .find(|l| l.contains("RUN+="))
        .expect("the rule");
    assert!(
        line.contains("ENV{ID_FS_TYPE}==\"vfat|exfat|ntfs\""),
        "{line}"
    );
}

/// A stick with symbolic links (NTFS has them; a stick mounted by another way may be ext4):
/// the list of PGN files offers no link, neither a file nor a folder, so the import never reads
/// the app's own files or anything else on the device through one.
#[test]
fn pgn_files_behind_symbolic_links_are_not_listed() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().expect("tempdir");
    let media = dir.path().join("media");
    let stick = media.join("STICK");
    let secret = dir.path().join("secret");
    std::fs::create_dir_all(stick.join("games")).unwrap();
    std::fs::create_dir_all(&secret).unwrap();
    std::fs::write(secret.join("private.pgn"), "[Event \"x\"]\n\n1. e4 *\n").unwrap();
    std::fs::write(stick.join("mine.PGN"), "").unwrap();
    std::fs::write(stick.join("games/old.pgn"), "").unwrap();
    symlink(secret.join("private.pgn"), stick.join("link.pgn")).unwrap();
    symlink(secret.join("private.pgn"), stick.join("games/link.pgn")).unwrap();
    symlink(&secret, stick.join("folder")).unwrap();
    symlink(dir.path().join("nowhere"), stick.join("dangling.pgn")).unwrap();
    // A link at /media's level is no stick either.
    symlink(&secret, media.join("LINK")).unwrap();

    let sticks = find_mounts(&media, |_| true);
    assert_eq!(sticks, std::slice::from_ref(&stick));
    let files = pgn_files_on(&sticks);
    assert_eq!(
        files,
        [stick.join("games/old.pgn"), stick.join("mine.PGN")],
        "links listed"
    );
}
