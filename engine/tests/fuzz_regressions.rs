//! Fuzz inputs re-checked on every `cargo test`: the properties of `engine/fuzz/checks.rs`
//! (the same code the fuzz targets run) over each target's saved inputs — a minimized corpus
//! from the fuzzing runs, with any input that once crashed kept in it.

#[path = "../fuzz/checks.rs"]
mod checks;

/// One input per line, hex-encoded (inputs may hold any bytes, newlines included).
fn saved_inputs(hex_lines: &str) -> Vec<Vec<u8>> {
    hex_lines
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            assert!(line.len() % 2 == 0, "odd hex line {line}");
            (0..line.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&line[i..i + 2], 16).expect("hex"))
                .collect()
        })
        .collect()
}

fn replay(hex_lines: &str, check: fn(&[u8])) {
    let inputs = saved_inputs(hex_lines);
    assert!(!inputs.is_empty());
    for input in inputs {
        check(&input);
    }
}

#[test]
fn fen() {
    replay(include_str!("../fuzz/saved/fen.hex"), checks::fen);
}

#[test]
fn san() {
    replay(include_str!("../fuzz/saved/san.hex"), checks::san);
}

#[test]
fn uci_move() {
    replay(include_str!("../fuzz/saved/uci_move.hex"), checks::uci_move);
}

#[test]
fn pgn() {
    replay(include_str!("../fuzz/saved/pgn.hex"), checks::pgn);
}
