//! Drives the `chesspi-engine` binary through stdin like a GUI would.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs the engine with the given input and returns everything it printed.
fn run(input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesspi-engine"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write input");
    let output = child.wait_with_output().expect("engine exits");
    assert!(output.status.success(), "engine exit status");
    String::from_utf8(output.stdout).expect("utf-8 output")
}

#[test]
fn handshake() {
    let out = run("uci\nisready\nquit\n");
    assert!(out.contains("id name ChessPI"), "{out}");
    assert!(out.contains("id author"), "{out}");
    let uciok = out.find("uciok").expect("uciok");
    let readyok = out.find("readyok").expect("readyok");
    assert!(uciok < readyok);
}

#[test]
fn perft_of_start_position() {
    let out = run("position startpos\ngo perft 3\nquit\n");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 22, "{out}");
    assert!(lines.contains(&"e2e4: 600"), "{out}");
    assert!(lines.contains(&"g1f3: 440"), "{out}");
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 8902");
}

#[test]
fn perft_after_moves_and_fen() {
    let out = run(
        "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n\
         go perft 2\n\
         position startpos moves e2e4 e7e5\n\
         go perft 1\nquit\n",
    );
    assert!(out.contains("Nodes searched: 2039"), "{out}");
    assert!(out.contains("Nodes searched: 29"), "{out}");
}

#[test]
fn bad_input_is_reported_and_survived() {
    let out = run("fly away\n\
         position fen 8/8/8/8 w - - 0 1\n\
         position startpos moves e2e4 e2e4\n\
         go perft x\n\
         isready\n\
         position startpos moves e2e4\n\
         go perft 1\nquit\n");
    let errors = out.lines().filter(|l| l.starts_with("info string")).count();
    assert_eq!(errors, 4, "{out}");
    assert!(out.contains("readyok"), "{out}");
    // The failed position commands left the engine usable; the last one took effect.
    assert!(out.contains("Nodes searched: 20"), "{out}");
}

fn bestmove(out: &str) -> Vec<&str> {
    out.lines()
        .filter_map(|l| l.strip_prefix("bestmove "))
        .map(|l| l.split_whitespace().next().unwrap_or(""))
        .collect()
}

#[test]
fn go_with_limits_answers_bestmove() {
    let out = run("uci\n\
         setoption name Hash value 4\n\
         setoption name Move Overhead value 5\n\
         ucinewgame\n\
         position startpos moves e2e4\n\
         go depth 4\n\
         isready\n\
         position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\n\
         go nodes 20000\n\
         isready\n\
         go movetime 50\n\
         isready\n\
         go wtime 1000 btime 1000 winc 10 binc 10\n\
         isready\n\
         setoption name Level value 1\n\
         go wtime 1000 btime 1000\n\
         isready\n\
         setoption name Nonsense value 1\n\
         quit\n");
    let moves = bestmove(&out);
    assert_eq!(moves.len(), 5, "{out}");
    assert!(moves[1..4].iter().all(|m| *m == "a1a8"), "{out}");
    assert!(out.contains("score mate 1"), "{out}");
    assert!(out.contains("info string unknown option"), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("info depth 4 seldepth")),
        "{out}"
    );
}

#[test]
fn infinite_search_waits_for_stop() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesspi-engine"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"position startpos\ngo infinite\n")
        .expect("write");
    stdin.flush().expect("flush");
    std::thread::sleep(std::time::Duration::from_millis(300));
    stdin.write_all(b"isready\nstop\nquit\n").expect("write");
    drop(stdin);
    let output = child.wait_with_output().expect("engine exits");
    let out = String::from_utf8(output.stdout).expect("utf-8");
    let ready = out.find("readyok").expect("readyok during search");
    let best = out.find("bestmove").expect("bestmove after stop");
    assert!(ready < best, "{out}");
    assert_eq!(bestmove(&out).len(), 1, "{out}");
}

#[test]
fn bench_prints_signature() {
    let output = Command::new(env!("CARGO_BIN_EXE_chesspi-engine"))
        .args(["bench", "4"])
        .output()
        .expect("bench runs");
    assert!(output.status.success());
    let out = String::from_utf8(output.stdout).expect("utf-8");
    let last = out.lines().last().expect("a line");
    let words: Vec<&str> = last.split_whitespace().collect();
    assert_eq!(words.len(), 4, "{last}");
    assert_eq!(words[1], "nodes");
    assert_eq!(words[3], "nps");
    assert!(words[0].parse::<u64>().unwrap() > 1000);
}

/// `bench`'s node count at its default depth: the search's signature, with the network as its
/// evaluation. It changes whenever search behaviour or the network does; a commit that changes
/// it on purpose says the new one in a `Bench:` line.
const BENCH_SIGNATURE: u64 = 893_424;

#[test]
fn bench_signature_is_the_network_search() {
    let output = Command::new(env!("CARGO_BIN_EXE_chesspi-engine"))
        .arg("bench")
        .output()
        .expect("bench runs");
    assert!(output.status.success());
    let out = String::from_utf8(output.stdout).expect("utf-8");
    let last = out.lines().last().expect("a line");
    let nodes = last
        .split_whitespace()
        .next()
        .and_then(|n| n.parse::<u64>().ok());
    assert_eq!(nodes, Some(BENCH_SIGNATURE), "{last}");
}

#[test]
fn threads_option_is_bounded_and_searches() {
    let out = run("uci\n\
         setoption name Threads value 0\n\
         setoption name Threads value 65\n\
         setoption name Threads value abc\n\
         setoption name Threads value 4\n\
         position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1\n\
         go depth 6\n\
         isready\n\
         position startpos\n\
         go movetime 200\n\
         isready\n\
         setoption name Threads value 2\n\
         go nodes 50000\n\
         quit\n");
    assert!(
        out.contains("option name Threads type spin default 1 min 1 max 64"),
        "{out}"
    );
    let refusals = out
        .lines()
        .filter(|l| l.starts_with("info string Threads"))
        .count();
    assert_eq!(refusals, 3, "{out}");
    let moves = bestmove(&out);
    assert_eq!(moves.len(), 3, "{out}");
    assert_eq!(moves[0], "a1a8", "{out}");
}

#[test]
fn several_threads_stop_on_stop() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chesspi-engine"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"setoption name Threads value 4\nposition startpos\ngo infinite\n")
        .expect("write");
    stdin.flush().expect("flush");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let stopped = std::time::Instant::now();
    stdin.write_all(b"stop\nquit\n").expect("write");
    drop(stdin);
    let output = child.wait_with_output().expect("engine exits");
    // The engine exited (every thread joined) soon after stop.
    assert!(stopped.elapsed() < std::time::Duration::from_secs(2));
    let out = String::from_utf8(output.stdout).expect("utf-8");
    assert_eq!(bestmove(&out).len(), 1, "{out}");
}
