//! The `chesspi` binary's command line: help, version, errors, and `--screenshot`.

mod support;
use support::app_process::run_chesspi as chesspi;

#[test]
fn help_and_version() {
    let out = chesspi(&["--help"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("--screenshot"), "{text}");
    let out = chesspi(&["--version"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("chesspi {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn unknown_arguments_are_a_clear_error() {
    let out = chesspi(&["--frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown argument '--frobnicate'"), "{err}");
    assert!(err.contains("--help"), "{err}");
}

#[test]
fn screenshot_writes_an_800x480_png() {
    let dir = std::env::temp_dir().join(format!("chesspi-ui-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("shot.png");
    let out = chesspi(&[
        "--screenshot",
        path.to_str().expect("utf-8 path"),
        "--fen",
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
        "--tap",
        "f1",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(&path).expect("the PNG exists"),
    ));
    let reader = decoder.read_info().expect("a valid PNG");
    assert_eq!((reader.info().width, reader.info().height), (800, 480));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_fen_is_reported() {
    let out = chesspi(&["--screenshot", "/nonexistent/x.png", "--fen", "not a fen"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid FEN"), "{err}");
}

#[test]
fn a_bad_new_game_is_a_clear_error() {
    for (args, message) in [
        (
            &["--new", "chess960"][..],
            "--new takes computer, friend or demo, not 'chess960'",
        ),
        (
            &["--new", "computer", "--clock", "5+61"],
            "--clock takes minutes+seconds like 5+3 (1-180 minutes, 0-60 seconds), not '5+61'",
        ),
        (
            &["--new", "demo", "--level", "11"],
            "--level takes 1 to 10, not '11'",
        ),
        (&["--clock", "5+3"], "--level and --clock need --new"),
    ] {
        let out = chesspi(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let out = chesspi(&["--help"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("--new computer|friend|demo"), "{text}");
}
