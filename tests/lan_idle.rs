//! A connected, idle game costs next to no CPU: the session threads sleep until the next
//! heartbeat. (Alone in its test binary so that no other test's threads are counted.)

mod lan_support;

use chesspi::lan::session::CodeChoice;
use chesspi_engine::Color;
use lan_support::{CODE, Endpoint};
use std::time::Duration;

/// CPU ticks (1/100 s) used so far by this process's threads named `name`.
fn thread_ticks(name: &str) -> u64 {
    let mut total = 0;
    for task in std::fs::read_dir("/proc/self/task").unwrap().flatten() {
        let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
        if comm.trim() != name {
            continue;
        }
        let stat = std::fs::read_to_string(task.path().join("stat")).unwrap_or_default();
        let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
        let fields: Vec<u64> = rest
            .split_whitespace()
            .map(|f| f.parse().unwrap_or(0))
            .collect();
        total += fields.get(11).unwrap_or(&0) + fields.get(12).unwrap_or(&0);
    }
    total
}

#[test]
fn an_idle_connected_game_sleeps() {
    let mut host = Endpoint::host(CodeChoice::Fixed(CODE.into()), Color::White);
    let mut guest = Endpoint::join(&host.addr(), CODE);
    host.paired();
    guest.paired();
    let before = thread_ticks("lan-session");
    std::thread::sleep(Duration::from_secs(2));
    let used = thread_ticks("lan-session") - before;
    // Heartbeats every 250 ms cost microseconds; a busy loop would use ~400 ticks here.
    assert!(used <= 10, "the session threads used {used} ticks in 2 s");
}
