//! The saver's part of players: each finished game rated for the players who played it, an
//! analysed game's puzzles given to the player who made the mistakes, the player at the
//! device changed, the players file kept.

use chesspi_engine::Color;
use chesspi_engine::analysis::GameAnalysis;

use super::super::{PlayerNews, RatingNews, Report, SavingError};
use super::SaverState;
use crate::storage::glicko::Rating;
use crate::storage::openings::OpeningCards;
use crate::storage::peer_rating::PeerRating;
use crate::storage::players::{PlayerFiles, PlayerId, Roster, Who, player_tag};
use crate::storage::puzzles::PuzzleBook;
use crate::storage::stats::{INITIAL_VOLATILITY, PlayerResult, Stats, player_moved};
use crate::storage::{GameId, GameMode, SavedGame};
use crate::tr;

/// `who`'s record, puzzles and opening cards, and what could not be read (in the user's
/// words); a guest has none.
pub(in crate::app::saving) fn load_player(
    files: &PlayerFiles,
    who: Who,
) -> (Stats, PuzzleBook, OpeningCards, Vec<String>) {
    let Some(id) = who.player() else {
        return (
            Stats::new(),
            PuzzleBook::default(),
            OpeningCards::new(),
            Vec::new(),
        );
    };
    let mut refused = Vec::new();
    let stats = files.load_stats(id);
    if let Some(r) = &stats.recovered {
        log::error!("player {id}'s record refused: {r}");
        refused.push(tr!(
            "Your game record could not be read and restarts: {}.",
            r
        ));
    }
    let puzzles = files.load_puzzles(id);
    if let Some(r) = &puzzles.recovered {
        log::error!("player {id}'s puzzles refused: {r}");
        refused.push(tr!(
            "Your puzzles could not be read and start again: {}.",
            r
        ));
    }
    let openings = files.load_openings(id);
    if let Some(r) = &openings.recovered {
        log::error!("player {id}'s opening cards refused: {r}");
        refused.push(tr!(
            "Your opening cards could not be read and start again: {}.",
            r
        ));
    }
    (stats.value, puzzles.value, openings.value, refused)
}

/// A finished game between two players of this device at one board, both rated: each
/// player's result, White's first. `None` unless both sides are distinct players (not
/// guests), the game is rated, started from the start position, finished, and each moved.
pub fn two_player_results(game: &SavedGame) -> Option<[(PlayerId, PlayerResult); 2]> {
    if game.mode != GameMode::TwoPlayers
        || !game.rated
        || game.game.initial_position().to_fen() != chesspi_engine::fen::STARTPOS
    {
        return None;
    }
    let white = game.seats.get(Color::White)?.who.player()?;
    let black = game.seats.get(Color::Black)?.who.player()?;
    if white == black
        || !player_moved(&game.game, Color::White)
        || !player_moved(&game.game, Color::Black)
    {
        return None;
    }
    let result = |color: Color| match game.game.outcome()?.winner {
        None => Some(PlayerResult::Draw),
        Some(c) if c == color => Some(PlayerResult::Win),
        Some(_) => Some(PlayerResult::Loss),
    };
    Some([
        (white, result(Color::White)?),
        (black, result(Color::Black)?),
    ])
}

/// A finished network game, rated: the player of this device who played it, the partner's
/// rating before the game, and the player's result. `None` unless the game is rated, started
/// from the start position, finished, each side moved, the local side is a player (not a
/// guest) and the partner's device sent its player's rating (not an older peer, nor a guest
/// there).
pub fn network_result(game: &SavedGame) -> Option<(PlayerId, PeerRating, PlayerResult)> {
    let GameMode::Lan {
        local,
        link: Some(link),
        ..
    } = &game.mode
    else {
        return None;
    };
    let opponent = link.peer_rating?;
    if !game.rated
        || game.game.initial_position().to_fen() != chesspi_engine::fen::STARTPOS
        || !player_moved(&game.game, Color::White)
        || !player_moved(&game.game, Color::Black)
    {
        return None;
    }
    let id = game.seats.get(*local)?.who.player()?;
    let result = match game.game.outcome()?.winner {
        None => PlayerResult::Draw,
        Some(c) if c == *local => PlayerResult::Win,
        Some(_) => PlayerResult::Loss,
    };
    Some((id, opponent, result))
}

impl SaverState {
    /// Rates a finished game for each player of this device who played it: against the
    /// computer the level's label is the opponent's rating; between two players each is
    /// rated against the other's rating before the game; over the network this device's
    /// player is rated against the partner's rating before the game (its device rates its
    /// own player).
    pub(super) fn rate(&mut self, game: &SavedGame) -> Vec<RatingNews> {
        let name_of = |color: Color| {
            game.seats
                .get(color)
                .map_or_else(String::new, |s| s.name.clone())
        };
        match &game.mode {
            GameMode::VsComputer { human, .. } => {
                let Some(id) = game.seats.who(*human).player() else {
                    return Vec::new();
                };
                let mut stats = self.stats_of(id);
                let Some(change) = stats.record_game(game) else {
                    return Vec::new();
                };
                self.put_stats(id, stats);
                vec![RatingNews {
                    name: name_of(*human),
                    change,
                }]
            }
            GameMode::TwoPlayers => {
                let Some([(white, w), (black, b)]) = two_player_results(game) else {
                    return Vec::new();
                };
                let (mut ws, mut bs) = (self.stats_of(white), self.stats_of(black));
                // Both remember the game, so a save after a restart counts it for neither.
                let (first_w, first_b) = (ws.first_count_of(game.id), bs.first_count_of(game.id));
                if !(first_w && first_b) {
                    return Vec::new();
                }
                let (before_w, before_b) = (ws.glicko(), bs.glicko());
                let news = vec![
                    RatingNews {
                        name: name_of(Color::White),
                        change: ws.record_against(before_b, w),
                    },
                    RatingNews {
                        name: name_of(Color::Black),
                        change: bs.record_against(before_w, b),
                    },
                ];
                self.put_stats(white, ws);
                self.put_stats(black, bs);
                news
            }
            GameMode::ComputerVsComputer { .. } => Vec::new(),
            GameMode::Lan { local, .. } => {
                let Some((id, opponent, result)) = network_result(game) else {
                    return Vec::new();
                };
                let mut stats = self.stats_of(id);
                if !stats.first_count_of(game.id) {
                    return Vec::new();
                }
                // `record_against` reads the opponent's rating and deviation only.
                let opponent = Rating {
                    rating: opponent.rating(),
                    deviation: opponent.deviation(),
                    volatility: INITIAL_VOLATILITY,
                };
                let change = stats.record_against(opponent, result);
                self.put_stats(id, stats);
                vec![RatingNews {
                    name: name_of(*local),
                    change,
                }]
            }
        }
    }

    /// Player `id`'s record: the current player's as kept, another's read.
    fn stats_of(&self, id: PlayerId) -> Stats {
        if self.stores.current == Who::Player(id) {
            return self.stores.stats.clone();
        }
        self.stores.players.load_stats(id).value
    }

    fn put_stats(&mut self, id: PlayerId, stats: Stats) {
        if let Err(e) = self.stores.players.save_stats(id, &stats) {
            log::error!("cannot save player {id}'s record: {e}");
        }
        if self.stores.current == Who::Player(id) {
            self.stores.stats = stats;
        }
    }

    /// The puzzles an analysed saved game gives: each side's mistakes and blunders to the
    /// player of this device who played it (a game from before players: player 1). A report
    /// when the current player's puzzles changed.
    pub(super) fn puzzles_from(&mut self, id: &GameId, analysis: &GameAnalysis) -> Option<Report> {
        let archived = self.archive().ok()?.load(id).ok()?;
        let header = archived.header;
        let sides: Vec<Color> = match (header.mode.as_deref(), header.local) {
            (Some("two-players"), _) => vec![Color::White, Color::Black],
            (Some("computer-vs-computer"), _) => Vec::new(),
            (_, Some(local)) => vec![local],
            (_, None) => Vec::new(),
        };
        let now = crate::storage::timestamp::unix_now();
        let mut report = None;
        for side in sides {
            let who = archived
                .pgn
                .tag(player_tag(side))
                .map_or(Some(Who::Player(PlayerId::FIRST)), Who::from_code);
            let Some(player) = who.and_then(Who::player) else {
                continue;
            };
            let mut book = if self.stores.current == Who::Player(player) {
                self.stores.puzzles.clone()
            } else {
                self.stores.players.load_puzzles(player).value
            };
            let added = book.add_from_analysis(analysis, &[side], id.as_str(), &header.date, now);
            log::info!("{added} puzzles for player {player} from saved game {id}");
            if added == 0 {
                continue;
            }
            let written = self
                .stores
                .players
                .save_puzzles(player, &book)
                .map_err(SavingError::Puzzles);
            if self.stores.current == Who::Player(player) {
                self.stores.puzzles = book;
                report = Some(Report::Puzzles(
                    Box::new(self.stores.puzzles.clone()),
                    written,
                ));
            }
        }
        report
    }

    /// Writes with `save` into the current player's folder; a guest's stays in memory only.
    pub(super) fn write_for_player(
        &self,
        save: impl FnOnce(&PlayerFiles, PlayerId) -> std::io::Result<()>,
        error: fn(std::io::Error) -> SavingError,
    ) -> Result<(), SavingError> {
        match self.stores.current.player() {
            Some(player) => save(&self.stores.players, player).map_err(error),
            None => Ok(()),
        }
    }

    /// A try at one of the current player's puzzles.
    pub(super) fn puzzle_tried(&mut self, id: &str, solved: bool, now: u64) -> Report {
        self.stores.puzzles.record(id, solved, now);
        let written = self.write_for_player(
            |files, player| files.save_puzzles(player, &self.stores.puzzles),
            SavingError::Puzzles,
        );
        Report::Puzzles(Box::new(self.stores.puzzles.clone()), written)
    }

    /// A try at one of the current player's opening lines: kept in memory, and written to
    /// the player's folder (a guest's only in memory).
    pub(super) fn opening_tried(
        &mut self,
        line: chesspi_engine::openings::lines::LineId,
        passed: bool,
        now: u64,
    ) -> Report {
        self.stores.openings.record(line, passed, now);
        let written = self.write_for_player(
            |files, player| files.save_openings(player, &self.stores.openings),
            SavingError::Openings,
        );
        Report::Openings(Box::new(self.stores.openings.clone()), written)
    }

    /// Another player (or a guest) comes to the device: their record and puzzles.
    pub(super) fn choose(&mut self, who: Who) -> Report {
        let (stats, puzzles, openings, mut refused) = load_player(&self.stores.players, who);
        let (endgames, endgames_refused) =
            super::endgames::load_endgames(&self.stores.players, who);
        refused.extend(endgames_refused);
        self.stores.current = who;
        self.stores.stats = stats;
        self.stores.puzzles = puzzles;
        self.stores.openings = openings;
        self.stores.endgames = endgames;
        Report::Player(Box::new(PlayerNews {
            who,
            stats: self.stores.stats.summary(),
            puzzles: self.stores.puzzles.clone(),
            openings: self.stores.openings.clone(),
            endgames: self.stores.endgames.clone(),
            refused,
        }))
    }

    /// Writes the players file; a removed player's record and puzzles go with them.
    pub(super) fn keep_roster(&mut self, roster: &Roster, removed: Option<PlayerId>) -> Report {
        let mut result = self
            .stores
            .players
            .roster_store()
            .save(roster)
            .map_err(SavingError::Players);
        if let (Ok(()), Some(id)) = (&result, removed) {
            result = self.stores.players.remove(id).map_err(SavingError::Players);
        }
        Report::PlayersSaved(result)
    }
}

#[cfg(test)]
mod tests {
    use super::super::save_loop;
    use super::*;
    use crate::app::saving::{Job, Stores};
    use crate::storage::Seat;
    use crate::storage::glicko;
    use crate::storage::players::Seats;
    use crate::storage::stats::{INITIAL_DEVIATION, INITIAL_RATING};
    use chesspi_engine::game::Game;
    use chesspi_engine::level::Level;
    use chesspi_engine::san::parse_san;

    const ANNA: Who = Who::Player(match PlayerId::new(2) {
        Some(id) => id,
        None => unreachable!(),
    });

    fn fools_mate() -> Game {
        let mut game = Game::new();
        for san in ["f3", "e5", "g4", "Qh4#"] {
            let mv = parse_san(game.position(), san).expect("san");
            game.play(mv).expect("legal");
        }
        game
    }

    fn seat(who: Who, name: &str) -> Seat {
        Seat {
            who,
            name: name.to_string(),
        }
    }

    /// Runs the saver over `jobs` in the state directory `dir`; its reports.
    fn run(dir: &std::path::Path, jobs: Vec<Job>) -> Vec<Report> {
        let (stores, notices) = Stores::open(dir);
        assert!(notices.is_empty(), "{notices:?}");
        let (tx, rx) = std::sync::mpsc::channel();
        for job in jobs {
            tx.send(job).expect("send");
        }
        tx.send(Job::Stop).expect("send");
        let reports = std::sync::Mutex::new(Vec::new());
        save_loop(stores, &rx, |r| reports.lock().expect("lock").push(r));
        reports.into_inner().expect("lock")
    }

    fn news_of(reports: &[Report]) -> Vec<RatingNews> {
        reports
            .iter()
            .flat_map(|r| match r {
                Report::Saved(s) => s.rating.clone(),
                _ => Vec::new(),
            })
            .collect()
    }

    /// Player 1 (White) loses to Anna at one board: both are rated, each against the
    /// other's rating before the game, as Glicko-2 says; saved again (a restart), it
    /// counts once.
    #[test]
    fn a_game_between_two_players_moves_both_ratings() {
        let dir = tempfile::tempdir().expect("dir");
        let mut saved = SavedGame::new(GameMode::TwoPlayers, fools_mate());
        saved.seats = Seats::none()
            .with(Color::White, seat(Who::Player(PlayerId::FIRST), "Player 1"))
            .with(Color::Black, seat(ANNA, "Anna"));
        let save = |seq| Job::Save {
            seq,
            game: Box::new(saved.clone()),
        };
        let reports = run(dir.path(), vec![save(1), save(2)]);
        let news = news_of(&reports);
        assert_eq!(news.len(), 2, "{news:?}");

        let new = Rating {
            rating: INITIAL_RATING,
            deviation: INITIAL_DEVIATION,
            volatility: INITIAL_VOLATILITY,
        };
        let game = |score| glicko::Game {
            opponent: new.rating,
            opponent_deviation: new.deviation,
            score,
        };
        let loser = new.after(&[game(0.0)], glicko::TAU);
        let winner = new.after(&[game(1.0)], glicko::TAU);
        let files = PlayerFiles::new(dir.path());
        let first = files.load_stats(PlayerId::FIRST).value;
        let anna = files.load_stats(ANNA.player().expect("id")).value;
        assert_eq!(first.glicko(), loser);
        assert_eq!(anna.glicko(), winner);
        assert_eq!(first.summary().people.losses, 1);
        assert_eq!(anna.summary().people.wins, 1);
        assert_eq!(anna.summary().rated_games, 1, "counted once");
        assert_eq!(news[0].name, "Player 1");
        assert_eq!(news[0].change.after, loser.rating.round() as i32);
        assert_eq!(news[1].change.after, winner.rating.round() as i32);
        assert!(winner.rating > 1000.0 && loser.rating < 1000.0);
    }

    /// A network game as this device saves it: `local` played by `who`, the partner's rating
    /// kept from the pairing.
    fn network_game(local: Color, who: Who, partner: Option<PeerRating>) -> SavedGame {
        let link = crate::storage::LanLink {
            game_id: "g".into(),
            host: None,
            peer_rating: partner,
        };
        let mode = GameMode::Lan {
            local,
            peer: "Ben".into(),
            link: Some(link),
        };
        let mut saved = SavedGame::new(mode, fools_mate());
        saved.seats = Seats::none().with(local, seat(who, "Anna"));
        saved
    }

    /// Anna (Black) mates the partner over the network: she alone is rated, against the
    /// partner's rating and deviation before the game, as Glicko-2 says; saved again (a
    /// restart), it counts once.
    #[test]
    fn a_network_game_rates_the_local_player_against_the_partner() {
        let dir = tempfile::tempdir().expect("dir");
        let partner = PeerRating::new(1400.0, 120.0).expect("in bounds");
        let saved = network_game(Color::Black, ANNA, Some(partner));
        let save = |seq| Job::Save {
            seq,
            game: Box::new(saved.clone()),
        };
        let news = news_of(&run(dir.path(), vec![save(1), save(2)]));
        assert_eq!(news.len(), 1, "{news:?}");
        let new = Stats::new().glicko();
        let expected = new.after(
            &[glicko::Game {
                opponent: 1400.0,
                opponent_deviation: 120.0,
                score: 1.0,
            }],
            glicko::TAU,
        );
        let anna = PlayerFiles::new(dir.path())
            .load_stats(ANNA.player().expect("id"))
            .value;
        assert_eq!(anna.glicko(), expected);
        assert_eq!(anna.summary().people.wins, 1);
        assert_eq!(anna.summary().rated_games, 1, "counted once");
        assert_eq!(news[0].name, "Anna");
        assert_eq!(news[0].change.after, expected.rating.round() as i32);
        // Beating a 1400 moves her further than beating a new player would.
        let vs_new = new.after(
            &[glicko::Game {
                opponent: INITIAL_RATING,
                opponent_deviation: INITIAL_DEVIATION,
                score: 1.0,
            }],
            glicko::TAU,
        );
        assert!(expected.rating > vs_new.rating);
    }

    /// Against an older peer or a guest there (no rating), as a guest here, from a set-up
    /// position, unfinished, or unrated: no rating moves.
    #[test]
    fn a_network_game_without_both_ratings_is_not_rated() {
        let partner = PeerRating::new(1400.0, 120.0);
        let win = network_game(Color::Black, ANNA, partner);
        assert!(network_result(&win).is_some());
        assert_eq!(
            network_result(&network_game(Color::Black, ANNA, None)),
            None
        );
        assert_eq!(
            network_result(&network_game(Color::Black, Who::Guest, partner)),
            None
        );
        let mut unrated = win.clone();
        unrated.rated = false;
        assert_eq!(network_result(&unrated), None);
        let mut unfinished = win.clone();
        unfinished.game.undo();
        assert_eq!(network_result(&unfinished), None);
        let mut set_up = win.clone();
        set_up.game = Game::from_position(
            chesspi_engine::Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").expect("fen"),
        );
        assert_eq!(network_result(&set_up), None);
        let mut no_link = win.clone();
        no_link.mode = GameMode::Lan {
            local: Color::Black,
            peer: "Ben".into(),
            link: None,
        };
        assert_eq!(network_result(&no_link), None);
        let dir = tempfile::tempdir().expect("dir");
        let older = network_game(Color::Black, ANNA, None);
        let news = news_of(&run(
            dir.path(),
            vec![Job::Save {
                seq: 1,
                game: Box::new(older),
            }],
        ));
        assert!(news.is_empty(), "{news:?}");
        let files = PlayerFiles::new(dir.path());
        assert_eq!(
            files.load_stats(ANNA.player().expect("id")).value,
            Stats::new()
        );
    }

    /// A player against a guest, or the same player at both sides, is no rated game.
    #[test]
    fn a_guest_or_one_player_alone_is_not_rated() {
        let mut saved = SavedGame::new(GameMode::TwoPlayers, fools_mate());
        saved.seats = Seats::none()
            .with(Color::White, seat(Who::Guest, "Guest"))
            .with(Color::Black, seat(ANNA, "Anna"));
        assert_eq!(two_player_results(&saved), None);
        saved.seats = Seats::none()
            .with(Color::White, seat(ANNA, "Anna"))
            .with(Color::Black, seat(ANNA, "Anna"));
        assert_eq!(two_player_results(&saved), None);
        saved.seats = Seats::none()
            .with(Color::White, seat(Who::Player(PlayerId::FIRST), "P"))
            .with(Color::Black, seat(ANNA, "Anna"));
        assert!(two_player_results(&saved).is_some());
        saved.rated = false;
        assert_eq!(two_player_results(&saved), None);
    }

    /// Anna's game against the computer counts for her alone, and its analysis gives her
    /// the puzzles; player 1, at the device, sees neither. A guest's game counts for no one.
    #[test]
    fn two_players_records_and_puzzles_stay_apart() {
        let dir = tempfile::tempdir().expect("dir");
        let vs_computer = |human| GameMode::VsComputer {
            human,
            level: Level::DEFAULT,
        };
        let mut hers = SavedGame::new(vs_computer(Color::White), fools_mate());
        hers.seats = Seats::none().with(Color::White, seat(ANNA, "Anna"));
        let mut guests = SavedGame::new(vs_computer(Color::White), fools_mate());
        guests.seats = Seats::none().with(Color::White, seat(Who::Guest, "Guest"));
        let analysis = crate::app::screens::analysis::quick_analysis(&hers.game);
        let reports = run(
            dir.path(),
            vec![
                Job::Save {
                    seq: 1,
                    game: Box::new(hers.clone()),
                },
                Job::Annotate {
                    game_id: hers.id,
                    analysis: Box::new(analysis),
                },
                Job::Save {
                    seq: 2,
                    game: Box::new(guests),
                },
            ],
        );
        let news = news_of(&reports);
        assert_eq!(news.len(), 1, "Anna's game only: {news:?}");
        assert_eq!(news[0].name, "Anna");
        assert!(
            !reports.iter().any(|r| matches!(r, Report::Puzzles(..))),
            "player 1's puzzles did not change"
        );
        let files = PlayerFiles::new(dir.path());
        let anna = ANNA.player().expect("id");
        assert_eq!(files.load_stats(anna).value.summary().total.losses, 1);
        assert_eq!(files.load_stats(PlayerId::FIRST).value, Stats::new());
        let her_puzzles = files.load_puzzles(anna).value;
        assert!(
            her_puzzles
                .puzzles()
                .iter()
                .any(|p| p.mistake.to_string() == "g2g4"),
            "2.g4?? is her puzzle"
        );
        assert!(
            files
                .load_puzzles(PlayerId::FIRST)
                .value
                .puzzles()
                .is_empty()
        );

        // Anna comes to the device: her record and puzzles with her.
        let reports = run(dir.path(), vec![Job::Choose(ANNA)]);
        let Some(Report::Player(news)) = reports.first() else {
            panic!("{reports:?}");
        };
        assert_eq!(news.who, ANNA);
        assert_eq!(news.stats.total.losses, 1);
        assert_eq!(news.puzzles, her_puzzles);
    }
}
