//! One game, one place: random sequences of moves, New game, Play on, Review and Delete run
//! against the real saver in a child process that is killed with SIGKILL at a random moment.
//! After every kill, every move ever shown must still exist in the game on the board or in
//! exactly one saved game (unless the player deleted that game), and the game on the board is
//! never listed as a saved game.

use chesspi::app::saving::{self, Opened, Report, Saver};
use chesspi::storage::{Archive, GameSummary};
use chesspi_engine::Move;
use chesspi_engine::game::Game;
use std::collections::HashMap;
use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

mod support;
use support::child::{child_test, from_env, spawn_reporting};
use support::rng::Rng;
use support::ui::FRIEND;

const STATE_ENV: &str = "CHESSPI_IDENTITY_STATE";
const SEED_ENV: &str = "CHESSPI_IDENTITY_SEED";

fn uci(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_uci()).collect()
}

/// The saver with its reports, as the app drives it: one request at a time.
struct Session {
    saver: Saver,
    reports: Receiver<Report>,
    serial: u64,
    game: Game,
}

impl Session {
    /// Opens the state directory as the app does at start and saves the game on the board.
    fn open(dir: &Path) -> Session {
        let (restored, stores, _) = saving::open(dir, (Game::new(), FRIEND));
        let (tx, reports) = mpsc::channel();
        let saver = Saver::start(stores, restored.identity, move |r| {
            let _ = tx.send(r);
        })
        .expect("saver");
        let mut s = Session {
            saver,
            reports,
            serial: 0,
            game: restored.game,
        };
        s.save();
        s
    }

    fn next_report(&self) -> Report {
        self.reports
            .recv_timeout(Duration::from_secs(20))
            .expect("a report from the saver")
    }

    /// Saves the game on the board and waits until it is on disk (the screen shows it then).
    fn save(&mut self) {
        let seq = self
            .saver
            .submit(self.serial, &FRIEND, &self.game)
            .expect("saver running");
        match self.next_report() {
            Report::Saved(r) => {
                assert_eq!(r.seq, seq);
                assert!(r.error.is_none(), "{:?}", r.error);
            }
            other => panic!("expected a save report, got {other:?}"),
        }
    }

    fn list(&self) -> Vec<GameSummary> {
        self.saver.list_games();
        match self.next_report() {
            Report::Games { games, .. } => games.expect("the list"),
            other => panic!("expected the list, got {other:?}"),
        }
    }

    fn open_saved(&self, id: &str, resume: bool) -> Opened {
        self.saver.open(id.to_string(), resume);
        match self.next_report() {
            Report::Opened(r) => r.expect("the game opens"),
            other => panic!("expected an opened game, got {other:?}"),
        }
    }
}

/// Writes one report line to the parent in a single write, flushed.
fn report(line: &str) {
    let mut out = std::io::stdout().lock();
    out.write_all(format!("{line}\n").as_bytes())
        .expect("stdout");
    out.flush().expect("stdout");
}

fn shown(s: &Session) {
    let id = s.saver.identity().id;
    report(&format!(
        "SHOWN {id:016x} {}",
        uci(s.game.moves()).join(" ")
    ));
}

/// The child: plays, starts, resumes, reviews and deletes games until it is killed.
#[test]
#[ignore = "run by every_shown_move_has_exactly_one_home as a child process"]
fn identity_child() {
    let Some(dir) = std::env::var_os(STATE_ENV) else {
        return;
    };
    let seed: u64 = from_env(SEED_ENV).unwrap_or(1);
    let mut rng = Rng::new(seed);
    let mut s = Session::open(Path::new(&dir));
    shown(&s);
    loop {
        let roll = rng.below(20);
        if roll < 12 && !s.game.is_over() {
            let moves: Vec<Move> = s.game.position().legal_moves().iter().copied().collect();
            s.game.play(moves[rng.below(moves.len())]).expect("legal");
            s.save();
        } else if roll < 14 || s.game.is_over() {
            s.serial += 1;
            s.game = Game::new();
            s.save();
        } else {
            let list = s.list();
            let on_board = s.saver.identity().id;
            for g in &list {
                assert!(
                    s.game.is_over() || g.id().game() != on_board,
                    "the game on the board is listed: {list:?}"
                );
            }
            let Some(pick) = (!list.is_empty()).then(|| &list[rng.below(list.len())]) else {
                continue;
            };
            let id = pick.id().as_str().to_string();
            match (roll, pick) {
                (14..=16, GameSummary::Game(h)) if h.is_unfinished() => {
                    let Opened::Resume(saved) = s.open_saved(&id, true) else {
                        panic!("asked to play on, got a review");
                    };
                    s.saver.adopt(&saved);
                    s.serial += 1;
                    s.game = saved.game;
                }
                (17, GameSummary::Game(_)) => {
                    let Opened::Review { .. } = s.open_saved(&id, false) else {
                        panic!("asked to review, got a game to play on");
                    };
                    continue;
                }
                (18.., _) => {
                    report(&format!("DELETING {:016x}", pick.id().game()));
                    s.saver.delete(id);
                    match s.next_report() {
                        Report::Deleted(r) => r.expect("deleted"),
                        other => panic!("expected a deletion, got {other:?}"),
                    }
                    continue;
                }
                _ => continue,
            }
            s.save();
        }
        shown(&s);
    }
}

/// What the parent learned from one child: the latest moves shown of each game not deleted.
fn read_reports(lines: &[String], latest: &mut HashMap<u64, Vec<String>>) {
    for line in lines {
        let mut words = line.split_whitespace();
        let kind = words.next();
        let id = words.next().and_then(|w| u64::from_str_radix(w, 16).ok());
        match (kind, id) {
            (Some("SHOWN"), Some(id)) => {
                latest.insert(id, words.map(str::to_string).collect());
            }
            (Some("DELETING"), Some(id)) => {
                latest.remove(&id);
            }
            _ => {}
        }
    }
}

/// Checks the state directory as the app shows it after a restart.
fn check_homes(dir: &Path, latest: &HashMap<u64, Vec<String>>, context: &str) {
    let s = Session::open(dir);
    let board_id = s.saver.identity().id;
    let archive = Archive::open(dir).expect("archive");
    let mut homes: HashMap<u64, Vec<Vec<String>>> = HashMap::new();
    if !s.game.is_over() {
        homes.entry(board_id).or_default().push(uci(s.game.moves()));
    }
    for entry in s.list() {
        let GameSummary::Game(header) = &entry else {
            panic!("{context}: a damaged file: {entry:?}");
        };
        let game = archive
            .load(&header.id)
            .expect("a listed game reads back")
            .replay()
            .expect("a listed game replays");
        homes
            .entry(entry.id().game())
            .or_default()
            .push(uci(game.moves()));
    }
    for (id, shown) in latest.iter().filter(|(_, m)| !m.is_empty()) {
        let places = homes.get(id).map_or(&[][..], Vec::as_slice);
        assert_eq!(
            places.len(),
            1,
            "{context}: game {id:016x} (shown with {shown:?}) is in {} places: {places:?}",
            places.len()
        );
        let kept = &places[0];
        assert!(
            kept.starts_with(shown) && kept.len() <= shown.len() + 1,
            "{context}: game {id:016x} was shown as {shown:?} but kept as {kept:?}"
        );
    }
}

#[test]
fn every_shown_move_has_exactly_one_home() {
    let runs: u64 = from_env("CHESSPI_IDENTITY_RUNS").unwrap_or(60);
    let dir = tempfile::tempdir().expect("tempdir");
    let mut latest: HashMap<u64, Vec<String>> = HashMap::new();
    let mut total = 0usize;
    for run in 0..runs {
        let seed = 0x1d_0000 + run;
        let (mut child, rx, reader) = spawn_reporting(
            child_test("identity_child")
                .env(STATE_ENV, dir.path())
                .env(SEED_ENV, seed.to_string()),
        );
        let mut rng = Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let changes_before_kill = 1 + rng.below(40);
        let extra_delay = Duration::from_micros(rng.below(5000) as u64);
        let mut lines = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(60);
        while lines.len() < changes_before_kill {
            match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(line) => lines.push(line),
                Err(_) => break,
            }
        }
        std::thread::sleep(extra_delay);
        let _ = child.kill();
        let status = child.wait().expect("child reaped");
        reader.join().expect("reader");
        lines.extend(rx.try_iter());
        assert_eq!(
            status.signal(),
            Some(9),
            "run {run} (seed {seed}): the child stopped by itself ({status}): {lines:?}"
        );
        assert!(
            !lines.is_empty(),
            "run {run} (seed {seed}): the child reported nothing"
        );
        total += lines.len();
        read_reports(&lines, &mut latest);
        check_homes(dir.path(), &latest, &format!("run {run} (seed {seed})"));
    }
    eprintln!("{runs} runs, {total} changes shown, {} games", latest.len());
}
