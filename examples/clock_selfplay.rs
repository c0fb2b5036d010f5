//! The computer against itself on the app's real clock: measures its time use per move.
//!
//! `cargo run --release --example clock_selfplay -- --tc 3+2 --level 10 [--games N]
//! [--max-moves N] [--max-think SECONDS]`
//!
//! Each side is the app's own computer player ([`ComputerPlayer`], its worker thread and timed
//! move) with its own hash table; the clocks are the app's [`GameClock`], pressed when an
//! answer arrives, as the app does. Prints every game and, per control, the average and longest
//! thinking time of the moves searched (book moves cost nothing and are counted apart), the
//! least time left at the end of a game, and any flag fall. `--max-moves` ends a game after that
//! many moves of each side (to measure long controls in part). `--max-think` is the config's
//! `engine.max_think_seconds`, the cap on any move (default: the app's default config; 0: none).

use chesspi::app::model::clock::{GameClock, TimeControl, clock_text};
use chesspi::app::screens::{Purpose, Reply, ThinkRequest};
use chesspi::app::workers::computer::{Answer, ComputerPlayer, EngineSettings};
use chesspi_engine::Color;
use chesspi_engine::game::Game;
use chesspi_engine::level::Level;
use chesspi_engine::search::Clock;
use std::sync::mpsc;
use std::time::{Duration, Instant};

struct Options {
    control: TimeControl,
    level: Level,
    games: u32,
    max_moves: Option<usize>,
    max_think: Option<Duration>,
}

fn parse() -> Result<Options, String> {
    let mut control = None;
    let mut level = Level::MAX;
    let mut games = 1;
    let mut max_moves = None;
    let mut max_think = Some(chesspi::config::Config::default().engine.max_think_time);
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--tc" => {
                let v = value()?;
                let (m, s) = v.split_once('+').ok_or("--tc is M+S, like 3+2")?;
                let m = m.parse().map_err(|_| "--tc minutes: a number")?;
                let s = s.parse().map_err(|_| "--tc increment: a number")?;
                control = Some(TimeControl::new(m, s).ok_or("--tc: 1-180 minutes, 0-60 s")?);
            }
            "--level" => {
                let v = value()?;
                level = v
                    .parse()
                    .ok()
                    .and_then(Level::new)
                    .ok_or("--level is 1-10")?;
            }
            "--games" => games = value()?.parse().map_err(|_| "--games: a number")?,
            "--max-moves" => {
                max_moves = Some(value()?.parse().map_err(|_| "--max-moves: a number")?);
            }
            "--max-think" => {
                let secs: f64 = value()?.parse().map_err(|_| "--max-think: seconds")?;
                max_think = (secs > 0.0).then(|| Duration::from_secs_f64(secs));
            }
            _ => return Err(format!("unknown argument '{arg}'")),
        }
    }
    let control = control.ok_or("--tc M+S is required")?;
    Ok(Options {
        control,
        level,
        games,
        max_moves,
        max_think,
    })
}

/// What one side did in one game.
#[derive(Default)]
struct Use {
    searched: Vec<Duration>,
    book: usize,
}

fn main() {
    let options = match parse() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("clock_selfplay: {e}");
            std::process::exit(2);
        }
    };
    let mut all: Vec<Duration> = Vec::new();
    let mut least_left = Duration::MAX;
    let mut flags = 0;
    let mut book_moves = 0;
    for number in 1..=options.games {
        let (searched, left, flagged, book) = play(&options, number);
        all.extend(searched);
        least_left = least_left.min(left);
        flags += u32::from(flagged);
        book_moves += book;
    }
    let avg = all.iter().sum::<Duration>() / all.len().max(1) as u32;
    let longest = all.iter().max().copied().unwrap_or_default();
    println!(
        "SUMMARY tc {} level {} cap {:?} games {} searched moves {} (book moves {}): average \
         {:.2} s, longest {:.2} s, least time left at the end {}, flag falls {}",
        options.control.label(),
        options.level.number(),
        options.max_think,
        options.games,
        all.len(),
        book_moves,
        avg.as_secs_f64(),
        longest.as_secs_f64(),
        clock_text(least_left),
        flags
    );
}

/// Plays one game; returns the searched moves' times, the least time left of the two sides at
/// the end, whether a flag fell, and the book moves played.
fn play(options: &Options, number: u32) -> (Vec<Duration>, Duration, bool, usize) {
    let (tx, answers) = mpsc::channel::<Answer>();
    let start = |tx: mpsc::Sender<Answer>| {
        let settings = EngineSettings {
            max_think_time: options.max_think,
            ..EngineSettings::default()
        };
        ComputerPlayer::start(settings, move |a| {
            let _ = tx.send(a);
        })
        .expect("the computer's thread starts")
    };
    let mut players = [start(tx.clone()), start(tx)];
    let mut game = Game::new();
    let mut clock = GameClock::new(options.control);
    let mut uses = [Use::default(), Use::default()];
    let mut flagged = false;
    clock.run(Color::White, Instant::now());
    let mut id = 0;
    let mut end = String::from("move limit");
    loop {
        if let Some(outcome) = game.outcome() {
            end = format!("{outcome:?}");
            break;
        }
        if let Some(t) = game.claimable_draw() {
            end = format!("{t:?}");
            break;
        }
        if options
            .max_moves
            .is_some_and(|m| game.moves().len() >= 2 * m)
        {
            break;
        }
        let turn = game.position().turn();
        id += 1;
        let asked = Instant::now();
        players[turn.index()].think(ThinkRequest {
            id,
            purpose: Purpose::Move,
            game: game.clone(),
            level: options.level,
            clock: Some(Clock {
                remaining: clock.remaining(turn, asked),
                increment: options.control.increment,
                moves_to_go: None,
            }),
            book: true,
        });
        let answer = answers.recv().expect("an answer");
        let now = Instant::now();
        if clock.flagged(now).is_some() {
            flagged = true;
            end = format!("{turn:?} lost on time");
            break;
        }
        let Reply::Move(Some(mv)) = answer.reply else {
            end = "no move".to_string();
            break;
        };
        let used = now - asked;
        // The computer plays from its book while the position is in it (no search).
        if chesspi_engine::openings::book_move(game.position(), 0).is_some() {
            uses[turn.index()].book += 1;
        } else {
            uses[turn.index()].searched.push(used);
        }
        clock.moved(turn, now);
        game.play(mv).expect("the computer's move is legal");
    }
    let now = Instant::now();
    let left = [Color::White, Color::Black].map(|c| clock.remaining(c, now));
    println!(
        "game {number}: {} plies, {end}; time left White {} Black {}",
        game.moves().len(),
        clock_text(left[0]),
        clock_text(left[1])
    );
    for (color, u) in [Color::White, Color::Black].iter().zip(&uses) {
        let avg = u.searched.iter().sum::<Duration>() / u.searched.len().max(1) as u32;
        let longest = u.searched.iter().max().copied().unwrap_or_default();
        println!(
            "  {color:?}: {} searched moves, average {:.2} s, longest {:.2} s, {} book moves",
            u.searched.len(),
            avg.as_secs_f64(),
            longest.as_secs_f64(),
            u.book
        );
    }
    let book = uses.iter().map(|u| u.book).sum();
    let searched = uses.into_iter().flat_map(|u| u.searched).collect();
    (searched, left[0].min(left[1]), flagged, book)
}
