//! A test that runs part of itself in a child process it can kill (SIGKILL, as a power cut):
//! this test binary started again for one ignored test, that child's report lines, and the
//! run count or seed from the environment.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::str::FromStr;
use std::sync::mpsc::{self, Receiver};
use std::thread::JoinHandle;

/// This test binary, to run only the ignored test `name` with its output shown: the child's
/// environment, pipes and further arguments are the caller's to add.
pub fn child_test(name: &str) -> Command {
    let mut command = Command::new(std::env::current_exe().expect("test binary"));
    command.args(["--ignored", "--exact", name, "--nocapture"]);
    command
}

/// `command` started with its stdout piped (stderr dropped): the child, the lines it writes on
/// a channel, and the thread that reads them, which ends with the pipe. A line the kill cut
/// short (no newline) was never fully reported: it is dropped.
pub fn spawn_reporting(command: &mut Command) -> (Child, Receiver<String>, JoinHandle<()>) {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("child starts");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut stdout = BufReader::new(stdout);
        let mut bytes = Vec::new();
        loop {
            bytes.clear();
            match stdout.read_until(b'\n', &mut bytes) {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
            if bytes.last() != Some(&b'\n') {
                break;
            }
            let line = String::from_utf8_lossy(&bytes).trim_end().to_string();
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx, reader)
}

/// The value of the environment variable `name`, when it is set and parses: a run count or
/// seed the person running the test chose.
pub fn from_env<T: FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|s| s.parse().ok())
}
