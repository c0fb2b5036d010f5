//! Discovery finds a host on loopback. mDNS is multicast: so that nothing leaves this
//! machine, the test re-runs itself inside a network namespace of its own (`unshare --net`,
//! root needed), where `lo` is the only interface, and confines discovery to `lo` as well.

mod lan_support;

use chesspi::lan::discovery::{Discovery, HostColor};
use chesspi::lan::session::CodeChoice;
use chesspi_engine::Color;
use lan_support::{CODE, Endpoint};
use std::process::Command;
use std::time::{Duration, Instant};

const INSIDE: &str = "CHESSPI_TEST_PRIVATE_NETNS";

#[test]
fn discovery_finds_a_host_in_a_private_network_namespace() {
    let exe = std::env::current_exe().unwrap();
    let script =
        "ip link set lo up && exec \"$0\" --exact inside_private_netns --ignored --nocapture";
    let run = Command::new("unshare")
        .args(["--net", "--", "sh", "-c", script])
        .arg(&exe)
        .env(INSIDE, "1")
        .output();
    let output = match run {
        Ok(o) => o,
        Err(e) => {
            eprintln!(
                "SKIPPED: cannot run unshare ({e}); discovery is never tested outside a private namespace"
            );
            return;
        }
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    let stdout = String::from_utf8_lossy(&output.stdout);
    if !output.status.success() && stderr.contains("unshare failed") {
        eprintln!("SKIPPED: no permission for a network namespace (needs root): {stderr}");
        return;
    }
    assert!(
        output.status.success(),
        "inner test failed:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("1 passed"),
        "inner test did not run:\n{stdout}"
    );
}

/// Run only by the test above, inside its namespace.
#[test]
#[ignore = "runs inside the private network namespace made by discovery_finds_a_host_..."]
fn inside_private_netns() {
    assert_eq!(
        std::env::var(INSIDE).as_deref(),
        Ok("1"),
        "run through the outer test"
    );
    // Safety net: refuse to send multicast anywhere but a lone loopback interface.
    // (/proc/net/dev is per namespace; /sys/class/net shows the namespace sysfs was mounted in.)
    let dev = std::fs::read_to_string("/proc/net/dev").unwrap();
    let interfaces: Vec<&str> = dev
        .lines()
        .skip(2)
        .filter_map(|l| l.split(':').next())
        .map(str::trim)
        .collect();
    assert_eq!(interfaces, ["lo"], "not in a private namespace");

    let mut host = Endpoint::host(CodeChoice::Fixed(CODE.into()), Color::Black);
    let port = host.handle.local_addrs()[0].port();
    let lo = ["lo".to_string()];
    let advertiser = Discovery::start(&lo).unwrap();
    let instance = advertiser
        .advertise("Kitchen", HostColor::Black, port)
        .unwrap();

    let finder = Discovery::start(&lo).unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let browser = finder
        .browse(move || {
            let _ = tx.send(());
        })
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let found = loop {
        if let Some(h) = browser.hosts().into_iter().find(|h| h.name == "Kitchen") {
            break h;
        }
        assert!(
            Instant::now() < deadline,
            "nothing found: {:?}",
            browser.hosts()
        );
        let _ = rx.recv_timeout(Duration::from_millis(200));
    };
    assert_eq!(found.color, Some(HostColor::Black));
    assert_eq!(found.port, port);
    assert_eq!(found.instance, instance);
    let addr = found
        .socket_addrs()
        .into_iter()
        .find(|a| a.ip().is_loopback())
        .expect("a loopback address");

    // The address found is the way in: a guest joins through it.
    let mut guest = Endpoint::join(&addr.to_string(), CODE);
    guest.paired();
    host.paired();
    assert_eq!(guest.local, Color::White);

    // A withdrawn host leaves the list.
    advertiser.withdraw(&instance);
    let deadline = Instant::now() + Duration::from_secs(10);
    while browser.hosts().iter().any(|h| h.instance == instance) {
        assert!(Instant::now() < deadline, "withdrawn host still listed");
        let _ = rx.recv_timeout(Duration::from_millis(200));
    }
}
