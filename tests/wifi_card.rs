//! Wi-Fi from the SD card (device/chesspi-wifi-card): the script run without root on a fake
//! system. `CHESSPI_WIFI_CARD_ROOT` (the script's one test hook) puts its paths — the boot
//! partition, its state, /etc/modprobe.d, /run, /sys/module/cfg80211 — under a temporary
//! directory, and stand-ins on PATH play `nmcli` (a list of connections in a file; every call
//! recorded), `iw`, `mountpoint`, `udevadm` and `systemctl`.
//!
//! A table of hostile files must each be refused with a reason in the journal's error
//! priority and nothing changed: no NetworkManager call that changes anything, no country, no
//! remembered hash. A refusal by NetworkManager itself must leave the old connection and the
//! country as they were. The device test (tests/device/boot_test.py, wifi-card) runs the
//! script on the booted image with a real NetworkManager.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SCRIPT: &str = "device/chesspi-wifi-card";
/// NetworkManager's connections before the script runs: "uuid:name" lines.
const OLD_CARD: &str = "11111111-1111-1111-1111-111111111111:chesspi-card";
const OTHER: &str = "22222222-2222-2222-2222-222222222222:Neighbours";

/// The fake `nmcli`: the connections are "uuid:name" lines in $FAKE/nm; `connection add`
/// fails when $FAKE/nm.refuse exists, printing its content; every call is one line in
/// $FAKE/nmcli.calls (the arguments joined by "|").
const NMCLI: &str = r#"#!/bin/sh
fake=$(dirname "$0")
state=$fake/nm
touch "$state"
( IFS='|'; printf '%s\n' "$*" ) >> "$fake/nmcli.calls"
case "$*" in
  "-t -f UUID,NAME connection show") cat "$state"; exit 0 ;;
  "-t -f NAME connection show") cut -d: -f2- "$state"; exit 0 ;;
esac
[ "$1" = connection ] || { echo "fake nmcli: unexpected $*" >&2; exit 2; }
case "$2" in
  add)
    if [ -e "$fake/nm.refuse" ]; then cat "$fake/nm.refuse" >&2; exit 2; fi
    name="" uuid=""
    while [ $# -gt 0 ]; do
      case "$1" in
        con-name) name=$2; shift ;;
        connection.uuid) uuid=$2; shift ;;
      esac
      shift
    done
    [ -n "$uuid" ] || uuid=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    echo "$uuid:$name" >> "$state"
    echo "Connection '$name' ($uuid) successfully added."
    ;;
  delete)
    case "$3" in
      id) awk -F: -v v="$4" '{ n = $0; sub(/^[^:]*:/, "", n) } n != v' "$state" > "$state.new" ;;
      uuid) awk -F: -v v="$4" '$1 != v' "$state" > "$state.new" ;;
      *) echo "fake nmcli: unexpected $*" >&2; exit 2 ;;
    esac
    cmp -s "$state" "$state.new" && { echo "Error: unknown connection '$4'." >&2; exit 10; }
    mv "$state.new" "$state"
    ;;
  modify)
    [ "$3" = uuid ] && [ "$5" = connection.id ] || { echo "fake nmcli: unexpected $*" >&2; exit 2; }
    grep -q "^$4:" "$state" || { echo "Error: unknown connection '$4'." >&2; exit 10; }
    awk -F: -v u="$4" -v n="$6" '$1 == u { print u ":" n; next } { print }' "$state" > "$state.new"
    mv "$state.new" "$state"
    ;;
  *) echo "fake nmcli: unexpected $*" >&2; exit 2 ;;
esac
"#;

struct Fake {
    dir: tempfile::TempDir,
}

struct Outcome {
    success: bool,
    out: String,
    /// The nmcli calls, each as its arguments joined by "|".
    calls: Vec<String>,
    /// NetworkManager's connections afterwards, "uuid:name".
    connections: Vec<String>,
    /// /etc/modprobe.d/chesspi-wifi-country.conf, if written.
    regdom: Option<String>,
    iw: Vec<String>,
    applied: bool,
    took: Duration,
}

impl Outcome {
    /// The nmcli calls that change something.
    fn changes(&self) -> Vec<&String> {
        self.calls
            .iter()
            .filter(|c| !c.starts_with("-t|-f|"))
            .collect()
    }

    fn connection_names(&self) -> Vec<&str> {
        self.connections
            .iter()
            .map(|c| c.split_once(':').expect("uuid:name").1)
            .collect()
    }
}

impl Fake {
    fn new() -> Fake {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        for d in [
            "boot/firmware",
            "run",
            "etc/modprobe.d",
            "sys/module/cfg80211",
            "bin",
        ] {
            fs::create_dir_all(root.join(d)).expect("mkdir");
        }
        let fake = Fake { dir };
        fake.stub("nmcli", NMCLI);
        fake.stub(
            "iw",
            "#!/bin/sh\necho \"$*\" >> \"$(dirname \"$0\")/iw.calls\"\n",
        );
        fake.stub("mountpoint", "#!/bin/sh\nexit 0\n");
        fake.stub("udevadm", "#!/bin/sh\nexit 0\n");
        fake.stub("systemctl", "#!/bin/sh\nexit 0\n");
        fs::write(fake.bin().join("nm"), format!("{OLD_CARD}\n{OTHER}\n")).expect("nm");
        fake
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn bin(&self) -> PathBuf {
        self.root().join("bin")
    }

    fn stub(&self, name: &str, body: &str) {
        let path = self.bin().join(name);
        fs::write(&path, body).expect("stub");
        Command::new("chmod")
            .arg("755")
            .arg(&path)
            .status()
            .expect("chmod");
    }

    fn card(&self) -> PathBuf {
        self.root().join("boot/firmware/chesspi.txt")
    }

    fn regdom(&self) -> PathBuf {
        self.root().join("etc/modprobe.d/chesspi-wifi-country.conf")
    }

    /// Runs the script on `file` as chesspi.txt; kills it after `limit`.
    fn run_with_limit(&self, file: &[u8], limit: Duration) -> Outcome {
        fs::write(self.card(), file).expect("chesspi.txt");
        self.run_as_is(limit)
    }

    fn run(&self, file: &[u8]) -> Outcome {
        self.run_with_limit(file, Duration::from_secs(60))
    }

    fn run_as_is(&self, limit: Duration) -> Outcome {
        let _ = fs::remove_file(self.bin().join("nmcli.calls"));
        let _ = fs::remove_file(self.bin().join("iw.calls"));
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join(SCRIPT);
        let path = format!(
            "{}:{}",
            self.bin().display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let out_file = self.root().join("out");
        let started = Instant::now();
        let mut child = Command::new("bash")
            .arg(script)
            .env_clear()
            .env("PATH", path)
            .env("CHESSPI_WIFI_CARD_ROOT", self.root())
            .stdin(Stdio::null())
            .stdout(fs::File::create(&out_file).expect("out"))
            .stderr(Stdio::from(
                fs::File::options()
                    .append(true)
                    .open(&out_file)
                    .expect("out"),
            ))
            .spawn()
            .expect("run the script");
        let status = loop {
            if let Some(status) = child.try_wait().expect("wait") {
                break status;
            }
            if started.elapsed() > limit {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "the script still ran after {limit:?}; its output: {}",
                    fs::read_to_string(&out_file).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let took = started.elapsed();
        let lines = |file: &str| -> Vec<String> {
            fs::read_to_string(self.bin().join(file))
                .unwrap_or_default()
                .lines()
                .map(str::to_string)
                .collect()
        };
        Outcome {
            success: status.success(),
            out: String::from_utf8_lossy(&fs::read(&out_file).expect("out")).into_owned(),
            calls: lines("nmcli.calls"),
            connections: lines("nm"),
            regdom: fs::read_to_string(self.regdom()).ok(),
            iw: lines("iw.calls"),
            applied: self
                .root()
                .join("var/lib/chesspi-wifi/applied-sha256")
                .exists(),
            took,
        }
    }
}

/// What is wrong, if anything, with `o` as a refusal of the file `name` saying `reason`: the
/// script must fail, say why (journal priority "error") and change nothing.
fn refusal_problem(fake: &Fake, o: &Outcome, name: &str, reason: &str) -> Option<String> {
    let problem = if o.success {
        format!("the file was accepted: {}", o.out)
    } else if !(o.out.contains("<3>chesspi-wifi-card: ") && o.out.contains(reason)) {
        format!("expected a refusal saying \"{reason}\", got: {}", o.out)
    } else if !o.changes().is_empty() {
        format!("NetworkManager was changed: {:?}", o.calls)
    } else if o.connections != [OLD_CARD, OTHER] {
        format!("the connections changed: {:?}", o.connections)
    } else if o.regdom.is_some() {
        "the country was written".to_string()
    } else if !o.iw.is_empty() {
        format!("iw was run: {:?}", o.iw)
    } else if o.applied {
        "the file was remembered as applied".to_string()
    } else if fake.root().join("run").read_dir().unwrap().next().is_some() {
        "a copy of the file was left in /run".to_string()
    } else if o.out.contains("secret") {
        format!("the password is in the journal: {}", o.out)
    } else {
        return None;
    };
    Some(format!("{name}: {problem}"))
}

fn assert_refused(fake: &Fake, o: &Outcome, name: &str, reason: &str) {
    if let Some(problem) = refusal_problem(fake, o, name, reason) {
        panic!("{problem}");
    }
}

#[test]
fn hostile_files_are_refused_with_a_reason_and_change_nothing() {
    let long_comment = format!(
        "# {}\ncountry=DE\nssid=Home\npassword=secret123\n",
        "x".repeat(4096)
    );
    let table: &[(&str, &[u8], &str)] = &[
        (
            "a NUL byte in the SSID (bash dropped it: another network)",
            b"country=DE\nssid=Home\0Evil\npassword=secret123\n",
            "NUL",
        ),
        (
            "a NUL byte in a comment",
            b"# \0\ncountry=DE\nssid=Home\npassword=secret123\n",
            "NUL",
        ),
        (
            "an escape sequence in the SSID",
            b"country=DE\nssid=Home\x1b[2J\npassword=secret123\n",
            "control character",
        ),
        (
            "a carriage return inside the SSID",
            b"country=DE\nssid=Ho\rme\npassword=secret123\n",
            "control character",
        ),
        (
            "a tab inside the SSID",
            b"country=DE\nssid=Home\tNet\npassword=secret123\n",
            "control character",
        ),
        (
            "DEL in the password",
            b"country=DE\nssid=Home\npassword=secret\x7f123\n",
            "control character",
        ),
        (
            "a control character in a key",
            b"country=DE\nss\x01id=Home\npassword=secret123\n",
            "control character",
        ),
        (
            "a control character in a comment",
            b"# \x07\ncountry=DE\nssid=Home\npassword=secret123\n",
            "control character",
        ),
        (
            "Latin-1, not UTF-8 (the SSID's bytes would be another name)",
            b"country=DE\nssid=Caf\xe9\npassword=secret123\n",
            "UTF-8",
        ),
        (
            "over 4 KiB (a long comment)",
            long_comment.as_bytes(),
            "4096 bytes",
        ),
        (
            "an unknown key",
            b"country=DE\nssid=Home\npassword=secret123\nproxy=x\n",
            "unknown key",
        ),
        (
            "a key given twice",
            b"country=DE\nssid=Home\nssid=Other\npassword=secret123\n",
            "given twice",
        ),
        (
            "no country",
            b"ssid=Home\npassword=secret123\n",
            "country= is missing",
        ),
        (
            "a country that is not two letters",
            b"country=D;E\nssid=Home\npassword=secret123\n",
            "two letters",
        ),
        (
            "a 33-byte SSID",
            b"country=DE\nssid=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\npassword=secret123\n",
            "at most 32",
        ),
        (
            "an empty SSID",
            b"country=DE\nssid=\"\"\npassword=secret123\n",
            "ssid is empty",
        ),
        (
            "a 7-character password",
            b"country=DE\nssid=Home\npassword=secret1\n",
            "8 to 63",
        ),
        (
            "a password with non-ASCII characters",
            "country=DE\nssid=Home\npassword=geheimes-Paßwort\n".as_bytes(),
            "printable ASCII",
        ),
        (
            "a line without =",
            b"country=DE\nssid=Home\npassword=secret123\nrm -rf /\n",
            "expected key=value",
        ),
    ];
    let problems: Vec<String> = table
        .iter()
        .filter_map(|(name, file, reason)| {
            let fake = Fake::new();
            let o = fake.run(file);
            refusal_problem(&fake, &o, name, reason)
        })
        .collect();
    assert!(
        problems.is_empty(),
        "{} of {} hostile files:\n{}",
        problems.len(),
        table.len(),
        problems.join("\n")
    );
}

#[test]
fn a_directory_in_place_of_the_file_is_refused() {
    let fake = Fake::new();
    fs::create_dir(fake.card()).expect("mkdir");
    let o = fake.run_as_is(Duration::from_secs(60));
    assert_refused(&fake, &o, "a directory", "not a plain file");
}

/// A 5 MB line took minutes against the unit's 180 s start timeout: the size is refused
/// before the file is read.
#[test]
fn a_huge_file_is_refused_at_once() {
    let mut file = b"country=DE\nssid=Home\npassword=secret123\n# ".to_vec();
    file.extend(std::iter::repeat_n(b'x', 5 << 20));
    let fake = Fake::new();
    let o = fake.run_with_limit(&file, Duration::from_secs(20));
    assert_refused(&fake, &o, "a 5 MB file", "4096 bytes");
    assert!(o.took < Duration::from_secs(5), "took {:?}", o.took);
}

#[test]
fn good_files_are_applied() {
    let table: &[(&str, &[u8], &str, &str)] = &[
        (
            "plain",
            b"country=de\nssid=Home\npassword=secret123\n",
            "Home",
            "WPA2",
        ),
        (
            "Windows line ends, a byte order mark, a comment, spaces and quotes",
            b"\xef\xbb\xbf# my network\r\n  country = DE \r\nssid=\"  Home Net  \"\r\npassword = secret 123\r\n",
            "  Home Net  ",
            "WPA2",
        ),
        (
            "an open network, no line end at the end",
            b"country=GB\nssid=Cafe\npassword=",
            "Cafe",
            "open, no password",
        ),
        (
            "a UTF-8 SSID and a 64-hex-digit key",
            "country=FR\nssid=Café ♞\npassword=0123456789abcdef0123456789abcdef0123456789ABCDEF0123456789abcdef\n"
                .as_bytes(),
            "Café ♞",
            "WPA2",
        ),
        (
            "the example file: every line commented",
            include_bytes!("../device/chesspi.txt.example"),
            "",
            "",
        ),
    ];
    for (name, file, ssid, security) in table {
        let fake = Fake::new();
        let o = fake.run(file);
        assert!(o.success, "{name}: refused: {}", o.out);
        if ssid.is_empty() {
            assert!(o.out.contains("sets nothing"), "{name}: {}", o.out);
            assert!(o.changes().is_empty() && o.regdom.is_none() && !o.applied);
            continue;
        }
        assert!(
            o.out.contains(&format!("network \"{ssid}\" ({security})")),
            "{name}: {}",
            o.out
        );
        let add = o
            .calls
            .iter()
            .find(|c| c.starts_with("connection|add|"))
            .unwrap_or_else(|| panic!("{name}: no connection add: {:?}", o.calls));
        assert!(
            add.contains(&format!("|ssid|{ssid}|")),
            "{name}: the SSID given to NetworkManager: {add}"
        );
        assert_eq!(
            o.connection_names(),
            ["Neighbours", "chesspi-card"],
            "{name}: {:?}",
            o.calls
        );
        assert!(o.regdom.is_some() && o.applied, "{name}");
        assert!(!o.out.contains("secret"), "{name}: {}", o.out);
        // The same file again: nothing to do.
        let again = fake.run_as_is(Duration::from_secs(60));
        assert!(again.success && again.out.contains("already applied"));
        assert!(again.calls.is_empty());
    }
}

/// NetworkManager refuses the network (the files check what the script can; NetworkManager
/// may still say no): the card's old network and the country stay as they were.
#[test]
fn a_network_that_network_manager_refuses_leaves_the_old_one_and_the_country() {
    let fake = Fake::new();
    fs::write(fake.regdom(), "options cfg80211 ieee80211_regdom=GB\n").expect("regdom");
    fs::write(
        fake.bin().join("nm.refuse"),
        "Error: failed to modify 802-11-wireless-security.psk: property is invalid; the password is secret123.\n",
    )
    .expect("refuse");
    let o = fake.run(b"country=DE\nssid=Home\npassword=secret123\n");
    assert!(!o.success, "{}", o.out);
    assert!(
        o.out
            .contains("<3>chesspi-wifi-card: NetworkManager refused the network \"Home\""),
        "{}",
        o.out
    );
    assert!(
        !o.out.contains("secret123"),
        "the password was logged: {}",
        o.out
    );
    assert_eq!(o.connections, [OLD_CARD, OTHER], "calls: {:?}", o.calls);
    assert_eq!(
        fs::read_to_string(fake.regdom()).unwrap(),
        "options cfg80211 ieee80211_regdom=GB\n",
        "the country was changed"
    );
    assert!(o.iw.is_empty(), "{:?}", o.iw);
    assert!(!o.applied);
    // NetworkManager accepts it at the next boot: applied then.
    fs::remove_file(fake.bin().join("nm.refuse")).unwrap();
    let o = fake.run_as_is(Duration::from_secs(60));
    assert!(o.success, "{}", o.out);
    assert_eq!(o.connection_names(), ["Neighbours", "chesspi-card"]);
    assert!(o.regdom.unwrap().contains("ieee80211_regdom=DE"));
    assert_eq!(o.iw, ["reg set DE"]);
}

/// The new network is added first (under a temporary name), then the old one is deleted and
/// the new one renamed, then the country: every step after one that failed is skipped, and a
/// run interrupted between them is finished at the next boot.
#[test]
fn the_new_connection_is_added_before_the_old_is_deleted_and_the_country_comes_last() {
    let fake = Fake::new();
    // A temporary connection left by a run a power cut interrupted.
    let mut nm = fs::read_to_string(fake.bin().join("nm")).unwrap();
    nm.push_str("33333333-3333-3333-3333-333333333333:chesspi-card-new\n");
    fs::write(fake.bin().join("nm"), nm).unwrap();
    let o = fake.run(b"country=DE\nssid=Home\npassword=secret123\n");
    assert!(o.success, "{}", o.out);
    let changes = o.changes();
    let step = |prefix: &str| {
        changes
            .iter()
            .position(|c| c.starts_with(prefix))
            .unwrap_or_else(|| panic!("no `{prefix}` in {changes:?}"))
    };
    let add = step("connection|add|");
    assert!(
        changes[add].contains("|con-name|chesspi-card-new|"),
        "{}",
        changes[add]
    );
    let new_uuid = changes[add]
        .split("|connection.uuid|")
        .nth(1)
        .and_then(|s| s.split('|').next())
        .expect("the new connection's uuid is given");
    assert!(
        step("connection|delete|uuid|33333333-") < add,
        "the leftover goes first"
    );
    assert!(
        add < step("connection|delete|uuid|11111111-"),
        "{changes:?}"
    );
    assert!(
        step("connection|delete|uuid|11111111-")
            < step(&format!(
                "connection|modify|uuid|{new_uuid}|connection.id|chesspi-card"
            ))
    );
    assert_eq!(
        o.connections,
        [OTHER.to_string(), format!("{new_uuid}:chesspi-card")]
    );
    assert_eq!(o.iw, ["reg set DE"]);
    assert!(o.applied);
}
