//! The command line: `chesspi [--new MODE ...] [--screenshot OUT.png [--fen FEN]] [--help]
//! [--version]`.
//!
//! Parsing is separate from running: [`parse`] turns the arguments into a [`Command`], and
//! `main` dispatches. A new option is one more match arm and, if it is a mode of its own, one
//! more `Command` variant.

use crate::app::model::clock::TimeControl;
use crate::app::model::mode::{ColourChoice, ModeChoice};
use chesspi_engine::Square;
use chesspi_engine::level::Level;
use std::fmt;
use std::path::PathBuf;

/// What the user asked the program to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// Open the window (or the fullscreen KMS display) and play.
    Run(RunOptions),
    /// Render the main screen headless to an 800x480 PNG and exit.
    Screenshot {
        out: PathBuf,
        /// The position to show (FEN); the start position when absent.
        fen: Option<String>,
        /// Squares tapped before the picture is taken (to show a selection, a picker, ...).
        taps: Vec<Square>,
    },
    /// Validate a config file and exit.
    CheckConfig(PathBuf),
    Help,
    Version,
}

pub use crate::app::boot::options::{LanStart, NewGame, RunOptions};

/// A command line that cannot be understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CliError {
    UnknownArgument(String),
    MissingValue(&'static str),
    /// `--tap` with something that is not a square.
    BadSquare(String),
    /// An option that only makes sense with another one.
    Conflict(&'static str),
    /// `--new` with something that is not a mode.
    BadMode(String),
    /// `--level` outside 1-10.
    BadLevel(String),
    /// `--clock` that is not `M+S` with 1-180 minutes and 0-60 seconds.
    BadClock(String),
    /// `--color` that is not white, black or random.
    BadColor(String),
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::UnknownArgument(arg) => write!(f, "unknown argument '{arg}'"),
            CliError::MissingValue(option) => write!(f, "{option} needs a value"),
            CliError::BadSquare(text) => write!(f, "'{text}' is not a square (like e2)"),
            CliError::Conflict(text) => f.write_str(text),
            CliError::BadMode(text) => {
                write!(f, "--new takes computer, friend or demo, not '{text}'")
            }
            CliError::BadLevel(text) => write!(f, "--level takes 1 to 10, not '{text}'"),
            CliError::BadClock(text) => write!(
                f,
                "--clock takes minutes+seconds like 5+3 (1-180 minutes, 0-60 seconds), \
                 not '{text}'"
            ),
            CliError::BadColor(text) => {
                write!(f, "--color takes white, black or random, not '{text}'")
            }
        }
    }
}

impl std::error::Error for CliError {}

/// The text of `--help`.
pub const HELP: &str = "\
ChessPI: a pocket chess computer.

Usage:
  chesspi [--config PATH] [--fen FEN]       play (a window on a desktop, fullscreen on the device)
  chesspi --new computer|friend|demo [--color white|black|random] [--level N] [--clock M+S]
          [--fen FEN]                       start that game at once (the game in progress is
                                            kept in Saved games first, as New game does)
  chesspi --screenshot OUT.png [--fen FEN] [--tap SQUARE]...
                                            render the main screen to an 800x480 PNG and exit
  chesspi --lan-host [--color white|black|random]
                                            open straight into hosting a network game
  chesspi --lan-join HOST[:PORT] [--lan-code NNNN]
                                            join the network game hosted at HOST (port 7531)
  chesspi --check-config PATH               check a config file, print what is wrong, exit
  chesspi --help                            show this help
  chesspi --version                         show the version

Options:
  --config PATH        read this config file (default /etc/chesspi/chesspi.toml, or
                       $CONFIGURATION_DIRECTORY/chesspi.toml under systemd)
  --fen FEN            start from this position (Forsyth-Edwards Notation, quoted)
  --new MODE           a new game: computer (you against ChessPI), friend (two players on
                       this screen) or demo (the computer plays itself)
  --color COLOR        with --new computer or --lan-host: your colour (default white)
  --level N            with --new computer or demo: the computer's level, 1-10
  --clock M+S          with --new: a clock of M minutes (1-180) plus S seconds per move (0-60)
  --screenshot PATH    write a PNG of the screen instead of opening a window
  --tap SQUARE         with --screenshot: tap this square first (repeat for more taps)

Unknown arguments are an error. Exit status: 0 on success, 2 for a bad command line,
1 when the app cannot run or --check-config finds an error. A bad config file does not stop
the app: it starts on the defaults and shows the error.
";

/// Parses the arguments after the program name.
///
/// # Errors
/// [`CliError`] for an unknown argument, an option without its value, or a combination that
/// makes no sense.
pub fn parse<I, S>(args: I) -> Result<Command, CliError>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let mut args = args.into_iter().map(Into::into);
    let mut screenshot: Option<PathBuf> = None;
    let mut fen: Option<String> = None;
    let mut config: Option<PathBuf> = None;
    let mut check_config: Option<PathBuf> = None;
    let mut taps: Vec<Square> = Vec::new();
    let mut lan_host = false;
    let mut color: Option<Option<chesspi_engine::Color>> = None;
    let mut lan_join: Option<String> = None;
    let mut lan_code: Option<String> = None;
    let mut new_mode: Option<ModeChoice> = None;
    let mut level: Option<Level> = None;
    let mut clock: Option<TimeControl> = None;
    let mut help = false;
    let mut version = false;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-h" | "--help" => help = true,
            "-V" | "--version" => version = true,
            "--screenshot" => {
                let value = args.next().ok_or(CliError::MissingValue("--screenshot"))?;
                screenshot = Some(PathBuf::from(value));
            }
            "--fen" => fen = Some(args.next().ok_or(CliError::MissingValue("--fen"))?),
            "--config" => {
                let value = args.next().ok_or(CliError::MissingValue("--config"))?;
                config = Some(PathBuf::from(value));
            }
            "--check-config" => {
                let value = args
                    .next()
                    .ok_or(CliError::MissingValue("--check-config"))?;
                check_config = Some(PathBuf::from(value));
            }
            "--tap" => {
                let value = args.next().ok_or(CliError::MissingValue("--tap"))?;
                taps.push(parse_square(&value)?);
            }
            "--lan-host" => lan_host = true,
            "--new" => {
                let value = args.next().ok_or(CliError::MissingValue("--new"))?;
                new_mode = Some(parse_mode(&value)?);
            }
            "--level" => {
                let value = args.next().ok_or(CliError::MissingValue("--level"))?;
                level = Some(parse_level(&value)?);
            }
            "--clock" => {
                let value = args.next().ok_or(CliError::MissingValue("--clock"))?;
                clock = Some(parse_clock(&value)?);
            }
            "--color" => {
                let value = args.next().ok_or(CliError::MissingValue("--color"))?;
                color = Some(parse_color(&value)?);
            }
            "--lan-join" => {
                lan_join = Some(args.next().ok_or(CliError::MissingValue("--lan-join"))?);
            }
            "--lan-code" => {
                let value = args.next().ok_or(CliError::MissingValue("--lan-code"))?;
                if value.len() != 4 || !value.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(CliError::Conflict("--lan-code takes 4 digits"));
                }
                lan_code = Some(value);
            }
            _ => {
                // `--option=value` is accepted for the options that take a value.
                if let Some((name, value)) = arg.split_once('=') {
                    match name {
                        "--screenshot" => {
                            screenshot = Some(PathBuf::from(value));
                            continue;
                        }
                        "--fen" => {
                            fen = Some(value.to_string());
                            continue;
                        }
                        "--config" => {
                            config = Some(PathBuf::from(value));
                            continue;
                        }
                        "--check-config" => {
                            check_config = Some(PathBuf::from(value));
                            continue;
                        }
                        "--tap" => {
                            taps.push(parse_square(value)?);
                            continue;
                        }
                        "--new" => {
                            new_mode = Some(parse_mode(value)?);
                            continue;
                        }
                        "--level" => {
                            level = Some(parse_level(value)?);
                            continue;
                        }
                        "--clock" => {
                            clock = Some(parse_clock(value)?);
                            continue;
                        }
                        "--color" => {
                            color = Some(parse_color(value)?);
                            continue;
                        }
                        _ => {}
                    }
                }
                return Err(CliError::UnknownArgument(arg));
            }
        }
    }
    if help {
        return Ok(Command::Help);
    }
    if version {
        return Ok(Command::Version);
    }
    let new_game = new_game(new_mode, &mut color, level, clock)?;
    if new_game.is_some() && (screenshot.is_some() || check_config.is_some()) {
        return Err(CliError::Conflict(
            "--new does not apply to --screenshot or --check-config",
        ));
    }
    if new_game.is_some() && (lan_host || lan_join.is_some()) {
        return Err(CliError::Conflict(
            "--new and --lan-host/--lan-join exclude each other",
        ));
    }
    if let Some(path) = check_config {
        if screenshot.is_some() || fen.is_some() || config.is_some() || !taps.is_empty() {
            return Err(CliError::Conflict("--check-config takes no other options"));
        }
        return Ok(Command::CheckConfig(path));
    }
    match screenshot {
        Some(_) if config.is_some() => Err(CliError::Conflict(
            "--config does not apply to --screenshot",
        )),
        Some(out) => Ok(Command::Screenshot { out, fen, taps }),
        None if !taps.is_empty() => Err(CliError::Conflict("--tap only works with --screenshot")),
        None => {
            let lan = match (lan_host, lan_join) {
                (true, Some(_)) => {
                    return Err(CliError::Conflict(
                        "--lan-host and --lan-join exclude each other",
                    ));
                }
                (true, None) if lan_code.is_some() => {
                    return Err(CliError::Conflict("--lan-code only works with --lan-join"));
                }
                (true, None) => Some(LanStart::Host {
                    color: color.unwrap_or(Some(chesspi_engine::Color::White)),
                }),
                (false, Some(target)) if color.is_none() => Some(LanStart::Join {
                    target,
                    code: lan_code,
                }),
                (false, Some(_)) => {
                    return Err(CliError::Conflict("--color only works with --lan-host"));
                }
                (false, None) if color.is_some() || lan_code.is_some() => {
                    return Err(CliError::Conflict(
                        "--color and --lan-code need --lan-host or --lan-join",
                    ));
                }
                (false, None) => None,
            };
            if lan.is_some() && fen.is_some() {
                return Err(CliError::Conflict("--fen does not apply to network games"));
            }
            Ok(Command::Run(RunOptions {
                fen,
                config,
                lan,
                new_game,
            }))
        }
    }
}

/// The `--new` game from its options; `--color` is taken here when it belongs to it.
fn new_game(
    mode: Option<ModeChoice>,
    color: &mut Option<Option<chesspi_engine::Color>>,
    level: Option<Level>,
    clock: Option<TimeControl>,
) -> Result<Option<NewGame>, CliError> {
    let Some(mode) = mode else {
        return match (level, clock) {
            (None, None) => Ok(None),
            _ => Err(CliError::Conflict("--level and --clock need --new")),
        };
    };
    if level.is_some() && mode == ModeChoice::Friend {
        return Err(CliError::Conflict(
            "--level needs a computer player (--new computer or demo)",
        ));
    }
    let colour = match color.take() {
        None => ColourChoice::White,
        Some(_) if mode != ModeChoice::Computer => {
            return Err(CliError::Conflict("--color only works with --new computer"));
        }
        Some(Some(c)) => ColourChoice::of(c),
        Some(None) => ColourChoice::Random,
    };
    Ok(Some(NewGame {
        mode,
        colour,
        level,
        clock,
    }))
}

/// `computer`, `friend` or `demo`.
fn parse_mode(text: &str) -> Result<ModeChoice, CliError> {
    match text {
        "computer" => Ok(ModeChoice::Computer),
        "friend" => Ok(ModeChoice::Friend),
        "demo" => Ok(ModeChoice::Demo),
        _ => Err(CliError::BadMode(text.to_string())),
    }
}

/// A level number, 1-10.
fn parse_level(text: &str) -> Result<Level, CliError> {
    text.parse()
        .ok()
        .and_then(Level::new)
        .ok_or_else(|| CliError::BadLevel(text.to_string()))
}

/// `M+S`, within the custom control's ranges.
fn parse_clock(text: &str) -> Result<TimeControl, CliError> {
    let bad = || CliError::BadClock(text.to_string());
    let (minutes, seconds) = text.split_once('+').ok_or_else(bad)?;
    let number = |t: &str| {
        // Digits only: "+5" or " 5" are not numbers here.
        (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<u64>().ok())
            .flatten()
    };
    let (minutes, seconds) = (
        number(minutes).ok_or_else(bad)?,
        number(seconds).ok_or_else(bad)?,
    );
    TimeControl::new(minutes, seconds).ok_or_else(bad)
}

/// `white`, `black`, or `random` (`None`).
fn parse_color(text: &str) -> Result<Option<chesspi_engine::Color>, CliError> {
    match text {
        "white" => Ok(Some(chesspi_engine::Color::White)),
        "black" => Ok(Some(chesspi_engine::Color::Black)),
        "random" => Ok(None),
        _ => Err(CliError::BadColor(text.to_string())),
    }
}

fn parse_square(text: &str) -> Result<Square, CliError> {
    text.parse()
        .map_err(|_| CliError::BadSquare(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_arguments_runs_the_app() {
        assert_eq!(
            parse(Vec::<String>::new()),
            Ok(Command::Run(RunOptions::default()))
        );
    }

    #[test]
    fn screenshot_with_fen() {
        assert_eq!(
            parse([
                "--screenshot",
                "out.png",
                "--fen",
                "8/8/8/8/8/8/8/K6k w - - 0 1"
            ]),
            Ok(Command::Screenshot {
                out: PathBuf::from("out.png"),
                fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".to_string()),
                taps: Vec::new(),
            })
        );
        assert_eq!(
            parse(["--screenshot=a.png"]),
            Ok(Command::Screenshot {
                out: PathBuf::from("a.png"),
                fen: None,
                taps: Vec::new(),
            })
        );
    }

    #[test]
    fn taps_are_squares_for_screenshots() {
        assert_eq!(
            parse(["--screenshot", "a.png", "--tap", "e2", "--tap=e4"]),
            Ok(Command::Screenshot {
                out: PathBuf::from("a.png"),
                fen: None,
                taps: vec![Square::E2, Square::E4],
            })
        );
        assert_eq!(
            parse(["--screenshot", "a.png", "--tap", "z9"]),
            Err(CliError::BadSquare("z9".to_string()))
        );
        assert!(matches!(parse(["--tap", "e2"]), Err(CliError::Conflict(_))));
    }

    #[test]
    fn config_options() {
        assert_eq!(
            parse(["--config", "/tmp/c.toml"]),
            Ok(Command::Run(RunOptions {
                fen: None,
                config: Some(PathBuf::from("/tmp/c.toml")),
                lan: None,
                new_game: None,
            }))
        );
        assert_eq!(
            parse(["--check-config=/etc/x.toml"]),
            Ok(Command::CheckConfig(PathBuf::from("/etc/x.toml")))
        );
        assert_eq!(
            parse(["--check-config"]),
            Err(CliError::MissingValue("--check-config"))
        );
        assert!(matches!(
            parse(["--check-config", "a.toml", "--fen", "x"]),
            Err(CliError::Conflict(_))
        ));
    }

    #[test]
    fn help_and_version_win_over_everything_else() {
        assert_eq!(
            parse(["--screenshot", "x.png", "--help"]),
            Ok(Command::Help)
        );
        assert_eq!(parse(["--version"]), Ok(Command::Version));
        assert_eq!(parse(["-h"]), Ok(Command::Help));
    }

    #[test]
    fn errors_name_the_argument() {
        assert_eq!(
            parse(["--frobnicate"]),
            Err(CliError::UnknownArgument("--frobnicate".to_string()))
        );
        assert_eq!(
            parse(["--screenshot"]),
            Err(CliError::MissingValue("--screenshot"))
        );
        assert_eq!(
            parse(["--fen"]).map_err(|e| e.to_string()),
            Err("--fen needs a value".to_string())
        );
        assert_eq!(
            parse(["--bogus=1"]),
            Err(CliError::UnknownArgument("--bogus=1".to_string()))
        );
    }

    #[test]
    fn lan_options() {
        let run = |args: &[&str]| match parse(args.iter().copied()) {
            Ok(Command::Run(o)) => Ok(o.lan),
            other => Err(format!("{other:?}")),
        };
        assert_eq!(
            run(&["--lan-host"]),
            Ok(Some(LanStart::Host {
                color: Some(chesspi_engine::Color::White)
            }))
        );
        assert_eq!(
            run(&["--lan-host", "--color", "random"]),
            Ok(Some(LanStart::Host { color: None }))
        );
        assert_eq!(
            run(&["--lan-join", "10.0.0.2:9000", "--lan-code", "0420"]),
            Ok(Some(LanStart::Join {
                target: "10.0.0.2:9000".into(),
                code: Some("0420".into())
            }))
        );
        for bad in [
            &["--lan-host", "--lan-join", "x"][..],
            &["--lan-join", "x", "--color", "white"],
            &["--lan-join", "x", "--lan-code", "12345"],
            &["--lan-host", "--lan-code", "1234"],
            &["--color", "white"],
            &["--lan-host", "--color", "green"],
            &["--lan-host", "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"],
        ] {
            assert!(run(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn new_games() {
        let new = |args: &[&str]| match parse(args.iter().copied()) {
            Ok(Command::Run(o)) => Ok((o.new_game, o.fen)),
            Ok(other) => panic!("{other:?}"),
            Err(e) => Err(e),
        };
        assert_eq!(
            new(&["--new", "computer"]),
            Ok((
                Some(NewGame {
                    mode: ModeChoice::Computer,
                    colour: ColourChoice::White,
                    level: None,
                    clock: None,
                }),
                None
            ))
        );
        let fen = "8/8/8/8/8/8/8/K6k w - - 0 1";
        assert_eq!(
            new(&[
                "--new=computer",
                "--color",
                "black",
                "--level=7",
                "--clock",
                "3+2",
                "--fen",
                fen
            ]),
            Ok((
                Some(NewGame {
                    mode: ModeChoice::Computer,
                    colour: ColourChoice::Black,
                    level: Level::new(7),
                    clock: TimeControl::new(3, 2),
                }),
                Some(fen.to_string())
            ))
        );
        assert_eq!(
            new(&["--new", "computer", "--color=random"]).map(|(n, _)| n.map(|n| n.colour)),
            Ok(Some(ColourChoice::Random))
        );
        assert_eq!(
            new(&["--new", "friend", "--clock", "180+60"]).map(|(n, _)| n.and_then(|n| n.clock)),
            Ok(TimeControl::new(180, 60))
        );
        assert_eq!(
            new(&["--new", "demo", "--level", "10"]).map(|(n, _)| n.map(|n| n.mode)),
            Ok(Some(ModeChoice::Demo))
        );
    }

    #[test]
    fn bad_new_games_say_what_is_wrong() {
        let err = |args: &[&str]| parse(args.iter().copied()).expect_err("an error");
        assert_eq!(
            err(&["--new", "network"]),
            CliError::BadMode("network".into())
        );
        assert_eq!(err(&["--new"]), CliError::MissingValue("--new"));
        for bad in ["0", "11", "x", "-1", ""] {
            assert_eq!(
                err(&["--new", "computer", "--level", bad]),
                CliError::BadLevel(bad.into())
            );
        }
        for bad in [
            "0+0", "181+0", "5+61", "5", "5+", "+3", "a+b", "5+-1", "5++3", " 5+3",
        ] {
            assert_eq!(
                err(&["--new", "friend", "--clock", bad]),
                CliError::BadClock(bad.into()),
                "{bad}"
            );
        }
        assert_eq!(
            err(&["--new", "computer", "--color", "green"]),
            CliError::BadColor("green".into())
        );
        for conflict in [
            &["--level", "3"][..],
            &["--clock", "5+0"],
            &["--new", "friend", "--level", "3"],
            &["--new", "friend", "--color", "black"],
            &["--new", "demo", "--color", "white"],
            &["--new", "computer", "--lan-host"],
            &["--new", "computer", "--lan-join", "x"],
            &["--new", "computer", "--screenshot", "a.png"],
        ] {
            assert!(
                matches!(err(conflict), CliError::Conflict(_)),
                "{conflict:?}"
            );
        }
        assert_eq!(
            err(&["--new", "friend", "--clock", "5+61"]).to_string(),
            "--clock takes minutes+seconds like 5+3 (1-180 minutes, 0-60 seconds), not '5+61'"
        );
    }
}
