//! `chesspi-engine explain` as another program uses it: one JSON line with the verdict, the
//! loss, the better move, the reason's kind and squares and the sentences; bad input a
//! message on stderr and exit status 2.

use std::process::{Command, Output};

fn explain(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chesspi-engine"))
        .arg("explain")
        .args(args)
        .output()
        .expect("the engine runs")
}

/// The value of `"key": ` in a one-line JSON object (strings without their quotes).
fn field<'a>(json: &'a str, key: &str) -> &'a str {
    let start = json
        .find(&format!("\"{key}\": "))
        .unwrap_or_else(|| panic!("no {key} in {json}"))
        + key.len()
        + 4;
    let rest = &json[start..];
    let rest = rest.strip_prefix('"').unwrap_or(rest);
    let end = rest.find(['"', ',', '}']).unwrap_or(rest.len());
    &rest[..end]
}

#[test]
fn a_hanging_queen_as_json() {
    let out = explain(&[
        "--fen",
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
        "--move",
        "d8g5",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert_eq!(field(&text, "verdict"), "blunder");
    assert_eq!(field(&text, "kind"), "hangs");
    assert!(text.contains("\"squares\": [\"g5\", \"f3\"]"), "{text}");
    assert_eq!(
        field(&text, "en"),
        "This leaves your queen on g5 hanging: the knight on f3 takes it."
    );
    assert!(field(&text, "de").starts_with("Damit hängt deine Dame auf g5"));
    let loss: f64 = field(&text, "loss").parse().expect("a number");
    assert!((15.0..=100.0).contains(&loss), "{loss}");
    assert_ne!(field(&text, "best"), "d8g5");
}

#[test]
fn a_good_move_is_good() {
    let out = explain(&[
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "--move",
        "e2e4",
        "--nodes",
        "20000",
    ]);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(matches!(field(&text, "verdict"), "best" | "good"), "{text}");
    assert_eq!(field(&text, "kind"), "none");
}

#[test]
fn bad_input_exits_with_2() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    for args in [
        vec!["--fen", "not a fen", "--move", "e2e4"],
        vec!["--fen", start, "--move", "e2e5"],
        vec!["--fen", start, "--move", "zz"],
        vec!["--fen", start],
        vec!["--move", "e2e4"],
        vec!["--fen", start, "--move", "e2e4", "--nodes", "0"],
        vec!["--fen", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "--move", "h8g8"],
    ] {
        let out = explain(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}");
    }
}
