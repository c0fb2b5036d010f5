//! The `cross` path to the device binary (scripts/cross-image, scripts/cross-build, cross/,
//! cross.toml) without building anything: the scripts are valid shell, cross.toml names the image
//! the scripts build, and cross/rustup-guard — what keeps cross 0.2.5 from upgrading the host's
//! Rust toolchain — lists toolchains the way cross can read and refuses every change.
//! The real build is `cross/test-cross-build` (minutes; see docs/DEPLOY.md).

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    fs::read_to_string(repo().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The value of `NAME=value` in cross/engine.sh.
fn engine_sh_value(name: &str) -> String {
    let text = read("cross/engine.sh");
    let prefix = format!("{name}=");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .unwrap_or_else(|| panic!("cross/engine.sh sets no {name}"))
        .trim()
        .to_string()
}

#[test]
fn the_scripts_are_valid_shell() {
    for (shell, script) in [
        ("bash", "scripts/cross-image"),
        ("bash", "scripts/cross-build"),
        ("bash", "cross/engine.sh"),
        ("bash", "cross/test-cross-build"),
        ("sh", "cross/rustup-guard"),
    ] {
        let out = Command::new(shell)
            .arg("-n")
            .arg(repo().join(script))
            .output()
            .expect("run the shell");
        assert!(
            out.status.success(),
            "{script}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        if script.starts_with("scripts/") || script.ends_with("rustup-guard") {
            let mode = fs::metadata(repo().join(script))
                .unwrap()
                .permissions()
                .mode();
            assert!(mode & 0o111 != 0, "{script} is not executable");
        }
    }
}

/// shellcheck (installed by scripts/setup, as scripts/test needs it for the device scripts).
#[test]
fn the_scripts_pass_shellcheck() {
    let out = Command::new("shellcheck")
        .arg("-x")
        .args([
            "scripts/cross-image",
            "scripts/cross-build",
            "cross/engine.sh",
            "cross/test-cross-build",
            "cross/rustup-guard",
        ])
        .current_dir(repo())
        .output()
        .expect("shellcheck (scripts/setup installs it)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn cross_toml_names_the_image_cross_image_builds_from_the_local_base() {
    let cross: toml::Table = toml::from_str(&read("cross.toml")).expect("cross.toml parses");
    let target = cross["target"]["aarch64-unknown-linux-gnu"]
        .as_table()
        .expect("[target.aarch64-unknown-linux-gnu]");
    let image = target["image"].as_str().expect("image is a string");
    assert_eq!(image, engine_sh_value("CHESSPI_CROSS_IMAGE"));
    assert!(
        !target.contains_key("dockerfile"),
        "cross would build its own image from a registry base"
    );
    let passthrough: Vec<&str> = cross["build"]["env"]["passthrough"]
        .as_array()
        .expect("passthrough list")
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(passthrough.contains(&"CHESSPI_BOOK_UNCHECKED"));

    // The Dockerfile starts from the debootstrapped base, never from a registry image.
    let dockerfile = read("cross/aarch64-bookworm.Dockerfile");
    let base = engine_sh_value("CHESSPI_BASE_IMAGE");
    assert!(
        dockerfile.contains(&format!("ARG BASE={base}\n")),
        "{dockerfile}"
    );
    let froms: Vec<&str> = dockerfile
        .lines()
        .filter(|l| l.starts_with("FROM "))
        .collect();
    assert_eq!(froms, ["FROM ${BASE}"]);
    for lib in [
        "libinput-dev:arm64",
        "libudev-dev:arm64",
        "libxkbcommon-dev:arm64",
    ] {
        assert!(dockerfile.contains(lib), "the image lacks {lib}");
    }
    assert!(dockerfile.contains("qemu-user"));
    assert!(dockerfile.contains("gcc-aarch64-linux-gnu"));
}

/// A stand-in for the real rustup: prints rustup 1.28's labelled list, logs every call.
struct FakeRustup {
    dir: tempfile::TempDir,
}

impl FakeRustup {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let fake = dir.path().join("rustup");
        fs::write(
            &fake,
            format!(
                "#!/bin/sh\necho \"$*\" >> {log}\n\
                 if [ \"$1 $2\" = 'toolchain list' ]; then\n\
                 echo 'stable-x86_64-unknown-linux-gnu (active, default)'\n\
                 echo 'nightly-x86_64-unknown-linux-gnu'\n\
                 echo '1.95.0-x86_64-unknown-linux-gnu (override)'\nfi\n\
                 [ \"$1\" = fail ] && exit 3\nexit 0\n",
                log = dir.path().join("log").display()
            ),
        )
        .unwrap();
        fs::set_permissions(&fake, fs::Permissions::from_mode(0o755)).unwrap();
        FakeRustup { dir }
    }

    fn run(&self, args: &[&str]) -> Output {
        Command::new(repo().join("cross/rustup-guard"))
            .args(args)
            .env("CHESSPI_REAL_RUSTUP", self.dir.path().join("rustup"))
            .output()
            .unwrap()
    }

    fn calls(&self) -> Vec<String> {
        fs::read_to_string(self.dir.path().join("log"))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

#[test]
fn rustup_guard_lists_toolchains_without_labels() {
    let fake = FakeRustup::new();
    let out = fake.run(&["toolchain", "list"]);
    assert!(out.status.success());
    // What cross 0.2.5 compares with the sysroot's directory name, line by line.
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "stable-x86_64-unknown-linux-gnu\nnightly-x86_64-unknown-linux-gnu\n\
         1.95.0-x86_64-unknown-linux-gnu\n"
    );
    assert_eq!(fake.calls(), ["toolchain list"]);
}

#[test]
fn rustup_guard_refuses_every_change_to_the_toolchains() {
    let fake = FakeRustup::new();
    for args in [
        // What cross 0.2.5 runs when it misreads the list, and when rust-src or the target is
        // missing.
        &[
            "toolchain",
            "add",
            "stable-x86_64-unknown-linux-gnu",
            "--profile",
            "minimal",
        ][..],
        &["toolchain", "install", "stable"],
        &["toolchain", "uninstall", "stable"],
        &[
            "component",
            "add",
            "rust-src",
            "--toolchain",
            "stable-x86_64-unknown-linux-gnu",
        ],
        &[
            "target",
            "add",
            "aarch64-unknown-linux-gnu",
            "--toolchain",
            "stable",
        ],
        &["target", "remove", "aarch64-unknown-linux-gnu"],
        &["update"],
        &["update", "stable", "--force-non-host"],
        &["default", "nightly"],
        &["install", "stable"],
        &["self", "update"],
        &["override", "set", "nightly"],
    ] {
        let out = fake.run(args);
        assert!(!out.status.success(), "rustup {args:?} was let through");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("refused"), "rustup {args:?}: {stderr}");
    }
    assert!(
        fake.calls().is_empty(),
        "the real rustup was called: {:?}",
        fake.calls()
    );
}

#[test]
fn rustup_guard_passes_queries_through_with_their_status() {
    let fake = FakeRustup::new();
    assert!(
        fake.run(&["target", "list", "--toolchain", "stable"])
            .status
            .success()
    );
    assert!(
        fake.run(&["component", "list", "--toolchain", "stable"])
            .status
            .success()
    );
    assert!(fake.run(&["which", "rustc"]).status.success());
    assert_eq!(fake.run(&["fail"]).status.code(), Some(3));
    assert_eq!(
        fake.calls(),
        [
            "target list --toolchain stable",
            "component list --toolchain stable",
            "which rustc",
            "fail"
        ]
    );

    // Without the real rustup named, nothing runs.
    let out = Command::new(repo().join("cross/rustup-guard"))
        .args(["toolchain", "list"])
        .env_remove("CHESSPI_REAL_RUSTUP")
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(Path::new(&repo().join("cross/rustup-guard")).exists());
}
