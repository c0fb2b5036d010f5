//! What the player hears: the shell compares what the screen showed before with what it
//! shows now and plays the matching sound — a move, a capture, a check, the result, the
//! partner coming or going, the last ten seconds on the player's clock — and speaks moves
//! as the Settings ask. Heard from the state, so every way a move arrives sounds the same.

use crate::app::model::mode::{GameSetup, Mode};
use crate::app::screens::{Controller, Viewing};
use crate::lan::session::LinkState;
use crate::sound::{Cue, Sound, SpeakMoves, spoken};
use chesspi_engine::game::Outcome;
use std::time::{Duration, Instant};

/// The player's clock ticks audibly below this.
const TICKING_BELOW: Duration = Duration::from_secs(10);

/// After a move's words, before the next move: a breath, and espeak-ng's start on a Pi 3.
const AFTER_WORDS: Duration = Duration::from_millis(400);

/// What the screen showed, as far as sound cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Shown {
    serial: u64,
    plies: usize,
    over: bool,
    /// The network partner: `Some(true)` while connected.
    partner: Option<bool>,
    /// A saved game is shown in place of the game (reviewed: it makes no sound).
    viewing: bool,
}

impl Shown {
    fn of(c: &Controller) -> Shown {
        Shown {
            serial: c.session().record().serial(),
            plies: c.session().game().moves().len(),
            over: c.session().game().is_over(),
            partner: c
                .session()
                .partner()
                .map(|p| p.link == LinkState::Connected),
            viewing: c.get::<Viewing>().is_viewing_saved(),
        }
    }
}

/// Sound's side of the shell.
pub(super) struct Hearing {
    sound: Sound,
    shown: Option<Shown>,
    /// The whole second last ticked on the player's clock.
    ticked: Option<u64>,
    /// How long the last move's words take and a breath (zero if it was not spoken): the
    /// Demo's next move waits for them.
    words: Duration,
}

impl Hearing {
    pub(super) fn new(sound: Sound) -> Hearing {
        Hearing {
            sound,
            shown: None,
            ticked: None,
            words: Duration::ZERO,
        }
    }

    /// How long a move after the last one should wait for that one's words to be said.
    pub(super) fn words_of_last_move(&self) -> Duration {
        self.words
    }

    pub(super) fn sound(&self) -> &Sound {
        &self.sound
    }

    /// Called whenever the screen is refreshed: sounds what changed since the last time.
    pub(super) fn heard(&mut self, c: &Controller, now: Instant) {
        let shown = Shown::of(c);
        let before = self.shown.replace(shown);
        self.tick(c, now);
        let Some(before) = before else {
            // The first screen after start: nothing happened yet.
            return;
        };
        let setup = c.session().setup();
        let same_game = shown.serial == before.serial && !shown.viewing && !before.viewing;
        if same_game && shown.plies == before.plies + 1 {
            self.moved(c, setup, shown.over && !before.over);
        } else if same_game && shown.over && !before.over {
            // Ended without a move: resigned, flag fallen, draw agreed, partner gone.
            if let Some(outcome) = c.session().game().outcome() {
                self.ended(setup, outcome, true);
            }
        }
        match (before.partner, shown.partner) {
            (Some(true), Some(false)) => self.sound.play(Cue::PartnerLeft),
            (None | Some(false), Some(true)) if !shown.over => self.sound.play(Cue::PartnerJoined),
            _ => {}
        }
    }

    /// The last move of the game on the board, just shown.
    fn moved(&mut self, c: &Controller, setup: GameSetup, ended: bool) {
        let game = c.session().game();
        let (Some(&mv), Some(before)) = (game.moves().last(), game.positions().iter().rev().nth(1))
        else {
            return;
        };
        let san = chesspi_engine::san::to_san(before, mv);
        let cue = if san.ends_with(['+', '#']) {
            Cue::Check
        } else if mv.is_castle() {
            Cue::Castle
        } else if before.is_capture(mv) {
            Cue::Capture
        } else {
            Cue::Move
        };
        self.sound.play(cue);
        let mover = before.turn();
        let speak = match self.sound.speak_moves() {
            SpeakMoves::Off => false,
            SpeakMoves::All => true,
            SpeakMoves::Opponent => !setup.is_human(mover),
        };
        let language = crate::i18n::language();
        let outcome = game.outcome().filter(|_| ended);
        self.words = Duration::ZERO;
        if speak {
            let mut text = spoken::san_words(&san, language);
            if let Some(o) = outcome {
                text.push_str(". ");
                text.push_str(&spoken::result_words(o, language));
            }
            self.words = spoken::duration(&text) + AFTER_WORDS;
            self.sound.say(text, language);
        }
        if let Some(o) = outcome {
            self.ended(setup, o, !speak);
        }
    }

    /// The game just ended: its sound, and its result said when moves are spoken.
    fn ended(&mut self, setup: GameSetup, outcome: Outcome, say: bool) {
        self.sound.play(result_cue(setup, outcome));
        if say && self.sound.speak_moves() != SpeakMoves::Off {
            let language = crate::i18n::language();
            self.sound
                .say(spoken::result_words(outcome, language), language);
        }
    }

    /// One tick for each of the last ten seconds on the clock of the player at the screen.
    fn tick(&mut self, c: &Controller, now: Instant) {
        let running = c
            .session()
            .clock()
            .and_then(|k| k.running().map(|side| (side, k.remaining(side, now))))
            .filter(|&(side, _)| {
                c.session().setup().is_human(side) && !c.session().game().is_over()
            });
        let second = match running {
            Some((_, left)) if left < TICKING_BELOW && !left.is_zero() => {
                Some(left.as_millis().div_ceil(1000) as u64)
            }
            _ => None,
        };
        if second.is_some() && second != self.ticked {
            self.sound.play(Cue::Tick);
        }
        self.ticked = second;
    }
}

/// Won or lost from the view of the person at the screen; a decided game between two people
/// at the screen (or the computer against itself) has a winner but no loser here.
fn result_cue(setup: GameSetup, outcome: Outcome) -> Cue {
    match outcome.winner {
        None => Cue::Drawn,
        Some(winner) => match setup.mode {
            Mode::Friend | Mode::Demo => Cue::Won,
            Mode::Computer { human } | Mode::Network { local: human } => {
                if winner == human {
                    Cue::Won
                } else {
                    Cue::Lost
                }
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::model::mode::Level;
    use crate::app::screens::network::partner::PartnerGame;
    use chesspi_engine::Color;
    use chesspi_engine::game::Termination;

    fn tap(c: &mut Controller, name: &str) {
        let sq = name.parse().expect("a square");
        c.play(|p, cx, gate| p.press(cx, gate, Some(sq)));
        c.play(|p, cx, _| p.release(cx, Some(sq), false));
    }

    fn friend() -> Controller {
        Controller::new(GameSetup {
            mode: Mode::Friend,
            level: Level::DEFAULT,
        })
    }

    #[test]
    fn each_move_sounds_as_what_it_is_and_is_spoken_as_asked() {
        let (sound, heard) = Sound::recorder();
        sound.set_speak_moves(SpeakMoves::All);
        let mut hearing = Hearing::new(sound);
        let mut c = friend();
        let now = Instant::now();
        hearing.heard(&c, now);
        assert!(heard.cues().is_empty(), "the first screen is silent");
        // 1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5+ 4. Be2 ... castling later.
        let moves = [
            ("e2", "e4", Cue::Move, "e4"),
            ("d7", "d5", Cue::Move, "d5"),
            ("e4", "d5", Cue::Capture, "e takes d5"),
            ("d8", "d5", Cue::Capture, "Queen takes d5"),
            ("g1", "f3", Cue::Move, "Knight f3"),
            ("d5", "e5", Cue::Check, "Queen e5, check"),
            ("f1", "e2", Cue::Move, "Bishop e2"),
            ("e5", "e4", Cue::Move, "Queen e4"),
            ("e1", "g1", Cue::Castle, "short castle"),
        ];
        for (from, to, cue, words) in moves {
            tap(&mut c, from);
            tap(&mut c, to);
            hearing.heard(&c, now);
            assert_eq!(heard.cues(), vec![cue], "{from}{to}");
            assert_eq!(heard.said(), vec![words.to_string()], "{from}{to}");
        }
        // A refresh with nothing new is silent.
        hearing.heard(&c, now);
        assert!(heard.cues().is_empty() && heard.said().is_empty());
        // Taking back is silent too.
        c.action(crate::app::screens::Action::Undo);
        hearing.heard(&c, now);
        assert!(heard.cues().is_empty());
    }

    #[test]
    fn a_demo_move_waits_for_the_words_of_the_last_one() {
        let demo = GameSetup {
            mode: Mode::Demo,
            level: Level::DEFAULT,
        };
        let (sound, heard) = Sound::recorder();
        let mut hearing = Hearing::new(sound.clone());
        let mut c = friend();
        let now = Instant::now();
        hearing.heard(&c, now);
        // Silent moves: the Demo's own pace.
        tap(&mut c, "g1");
        tap(&mut c, "f3");
        hearing.heard(&c, now);
        assert_eq!(
            super::super::pacing(&demo, hearing.words_of_last_move()),
            Duration::from_millis(900)
        );
        // Spoken: "Knight c6" takes over a second; the next move waits for it.
        sound.set_speak_moves(SpeakMoves::All);
        tap(&mut c, "b8");
        tap(&mut c, "c6");
        hearing.heard(&c, now);
        let said = heard.said().pop().expect("the move said");
        let words = spoken::duration(&said);
        assert!(words > Duration::from_millis(900), "{said}: {words:?}");
        assert_eq!(
            super::super::pacing(&demo, hearing.words_of_last_move()),
            words + AFTER_WORDS
        );
        // Only the Demo waits: a person's game keeps its pace.
        assert_eq!(
            super::super::pacing(&c.session().setup(), hearing.words_of_last_move()),
            Duration::from_millis(300)
        );
        // Speech off again: the Demo's pace again.
        sound.set_speak_moves(SpeakMoves::Off);
        tap(&mut c, "e2");
        tap(&mut c, "e4");
        hearing.heard(&c, now);
        assert_eq!(
            super::super::pacing(&demo, hearing.words_of_last_move()),
            Duration::from_millis(900)
        );
    }

    #[test]
    fn mate_sounds_the_check_and_the_result_and_says_the_result() {
        let (sound, heard) = Sound::recorder();
        sound.set_speak_moves(SpeakMoves::Opponent);
        let mut hearing = Hearing::new(sound.clone());
        let mut c = friend();
        let now = Instant::now();
        hearing.heard(&c, now);
        for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
            tap(&mut c, from);
            tap(&mut c, to);
            hearing.heard(&c, now);
        }
        // Two people at the screen: no move is the opponent's to speak; the result is said.
        assert_eq!(heard.said(), vec!["Black wins".to_string()]);
        let cues = heard.cues();
        assert_eq!(cues[cues.len() - 2..], [Cue::Check, Cue::Won], "{cues:?}");
        // All: the mate and the result in one sentence.
        sound.set_speak_moves(SpeakMoves::All);
        let mut c = friend();
        let mut hearing = Hearing::new(sound);
        hearing.heard(&c, now);
        for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4"), ("d8", "h4")] {
            tap(&mut c, from);
            tap(&mut c, to);
            hearing.heard(&c, now);
        }
        assert_eq!(
            heard.said().last().map(String::as_str),
            Some("Queen h4, checkmate. Black wins")
        );
    }

    #[test]
    fn a_refused_try_and_a_saved_game_opened() {
        let (sound, heard) = Sound::recorder();
        let mut hearing = Hearing::new(sound);
        let mut c = friend();
        let now = Instant::now();
        hearing.heard(&c, now);
        // A pawn picked, then a square it cannot reach: the controller asks for the soft note.
        tap(&mut c, "e2");
        tap(&mut c, "e5");
        let refused = c
            .take_effects()
            .into_iter()
            .any(|e| matches!(e, crate::app::screens::Effect::Sound(Cue::Illegal)));
        assert!(refused);
        // A saved game one move longer shown in place of the game: no move sound.
        let mut saved = chesspi_engine::game::Game::new();
        let e4 = saved.position().legal_moves().iter().copied().next();
        saved.play(e4.expect("a move")).expect("legal");
        c.part(|v: &mut Viewing, cx| v.view_saved(cx, saved, "You", "Level 2", None));
        hearing.heard(&c, now);
        assert!(heard.cues().is_empty(), "{:?}", heard.cues());
    }

    #[test]
    fn results_sound_from_the_players_side() {
        let computer = |human| GameSetup {
            mode: Mode::Computer { human },
            level: crate::app::model::mode::Level::DEFAULT,
        };
        let black_mates = Outcome::win(Color::Black, Termination::Checkmate);
        assert_eq!(result_cue(computer(Color::Black), black_mates), Cue::Won);
        assert_eq!(result_cue(computer(Color::White), black_mates), Cue::Lost);
        let friend = GameSetup {
            mode: Mode::Friend,
            ..computer(Color::White)
        };
        assert_eq!(result_cue(friend, black_mates), Cue::Won);
        assert_eq!(
            result_cue(friend, Outcome::draw(Termination::Stalemate)),
            Cue::Drawn
        );
    }

    /// Clocks with `white` and `black` left, `running`'s started at `t0`.
    fn clocks(
        white: Duration,
        black: Duration,
        running: Color,
        t0: Instant,
    ) -> crate::app::model::clock::GameClock {
        use crate::app::model::clock::{GameClock, TimeControl};
        let control = TimeControl::new(1, 0).expect("1+0");
        let mut clock = GameClock::restore(control, white, black, Vec::new());
        clock.run(running, t0);
        clock
    }

    fn computer(human: Color) -> Controller {
        Controller::new(GameSetup {
            mode: Mode::Computer { human },
            level: Level::DEFAULT,
        })
    }

    fn ticks(heard: &crate::sound::Recorder) -> usize {
        heard.cues().iter().filter(|&&c| c == Cue::Tick).count()
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_players_clock_ticks_once_a_second_in_its_last_ten_seconds() {
        let (sound, heard) = Sound::recorder();
        let mut hearing = Hearing::new(sound);
        let mut c = computer(Color::White);
        let t0 = Instant::now();
        c.session_mut()
            .set_clock(Some(clocks(ms(12_000), ms(60_000), Color::White, t0)));
        // 12 s, then exactly 10 s left: not yet.
        hearing.heard(&c, t0);
        hearing.heard(&c, t0 + ms(2_000));
        assert!(heard.cues().is_empty());
        // Just under 10 s: the first tick; refreshes within the same second stay silent.
        hearing.heard(&c, t0 + ms(2_001));
        assert_eq!(heard.cues(), vec![Cue::Tick]);
        for at in [2_500, 2_999] {
            hearing.heard(&c, t0 + ms(at));
            assert!(heard.cues().is_empty(), "{at} ms: the same second");
        }
        // 9 s left: the next second, ticked once however often the screen is refreshed.
        hearing.heard(&c, t0 + ms(3_000));
        assert_eq!(heard.cues(), vec![Cue::Tick]);
        hearing.heard(&c, t0 + ms(3_000));
        hearing.heard(&c, t0 + ms(3_500));
        assert!(heard.cues().is_empty());
        // Each further second down to the last one: one tick each.
        for second in 4..12 {
            hearing.heard(&c, t0 + ms(second * 1_000 + 500));
            assert_eq!(heard.cues(), vec![Cue::Tick], "{} s left", 12 - second);
            hearing.heard(&c, t0 + ms(second * 1_000 + 600));
            assert!(heard.cues().is_empty(), "{} s left, again", 12 - second);
        }
        // The flag falls: the result speaks now, not the clock.
        hearing.heard(&c, t0 + ms(12_000));
        hearing.heard(&c, t0 + ms(13_000));
        assert_eq!(ticks(&heard), 0);
    }

    #[test]
    fn the_computers_clock_is_silent_and_the_players_ticks_when_it_runs() {
        let (sound, heard) = Sound::recorder();
        let mut hearing = Hearing::new(sound);
        let mut c = computer(Color::White);
        let t0 = Instant::now();
        // The computer (Black) thinks with 5 s left.
        c.session_mut()
            .set_clock(Some(clocks(ms(5_000), ms(5_000), Color::Black, t0)));
        for at in [0, 500, 1_000, 1_500, 2_000, 3_000] {
            hearing.heard(&c, t0 + ms(at));
        }
        assert_eq!(
            ticks(&heard),
            0,
            "the computer's seconds are not the player's"
        );
        // It moves: the player's clock, with as little left, ticks.
        let t1 = t0 + ms(3_000);
        let mut k = c.session().clock().cloned().expect("clock");
        k.moved(Color::Black, t1);
        c.session_mut().set_clock(Some(k));
        hearing.heard(&c, t1);
        assert_eq!(heard.cues(), vec![Cue::Tick]);
    }

    #[test]
    fn the_partners_clock_is_silent() {
        let (sound, heard) = Sound::recorder();
        let mut hearing = Hearing::new(sound);
        let mut c = paired(Color::White);
        let t0 = Instant::now();
        hearing.heard(&c, t0);
        // The partner (Black) moves with 5 s left on its own screen, not this one.
        c.session_mut()
            .set_clock(Some(clocks(ms(5_000), ms(5_000), Color::Black, t0)));
        for at in [0, 1_000, 2_000, 3_000] {
            hearing.heard(&c, t0 + ms(at));
        }
        assert_eq!(ticks(&heard), 0);
        // Our own clock here ticks.
        c.session_mut()
            .set_clock(Some(clocks(ms(5_000), ms(5_000), Color::White, t0)));
        hearing.heard(&c, t0);
        assert_eq!(heard.cues(), vec![Cue::Tick]);
    }

    #[test]
    fn a_clock_left_running_after_the_end_is_silent() {
        let (sound, heard) = Sound::recorder();
        let mut hearing = Hearing::new(sound);
        let mut c = friend();
        let t0 = Instant::now();
        for (from, to) in [("f2", "f3"), ("e7", "e5"), ("g2", "g4")] {
            tap(&mut c, from);
            tap(&mut c, to);
        }
        // Black, a person at this screen, on move with 8.5 s left: ticks.
        c.session_mut()
            .set_clock(Some(clocks(ms(60_000), ms(8_500), Color::Black, t0)));
        hearing.heard(&c, t0);
        assert_eq!(heard.cues(), vec![Cue::Tick]);
        // Mate: the check and the result, but no tick though the clock still runs (the
        // shell pauses it a little later) and a new second began.
        tap(&mut c, "d8");
        tap(&mut c, "h4");
        assert!(c.session().game().is_over());
        hearing.heard(&c, t0 + ms(1_000));
        assert_eq!(heard.cues(), vec![Cue::Check, Cue::Won]);
        for at in [2_000, 3_000, 4_000] {
            hearing.heard(&c, t0 + ms(at));
        }
        assert!(heard.cues().is_empty());
    }

    /// A network game just paired with "Kitchen", this side playing `local`.
    fn paired(local: Color) -> Controller {
        let mut c = Controller::new(GameSetup {
            mode: Mode::Network { local },
            level: Level::DEFAULT,
        });
        c.part(|p: &mut PartnerGame, cx| {
            p.paired(
                cx,
                "Kitchen",
                local,
                chesspi_engine::game::Game::new(),
                link(),
                None,
            )
        });
        c
    }

    fn link() -> crate::storage::LanLink {
        crate::storage::LanLink {
            game_id: "g".into(),
            host: None,
            peer_rating: None,
        }
    }

    #[test]
    fn the_partner_is_heard_coming_and_going() {
        let (sound, heard) = Sound::recorder();
        let mut hearing = Hearing::new(sound);
        let mut c = Controller::new(GameSetup {
            mode: Mode::Network {
                local: Color::White,
            },
            level: Level::DEFAULT,
        });
        let now = Instant::now();
        hearing.heard(&c, now);
        // Paired: the partner is here.
        c.part(|p: &mut PartnerGame, cx| {
            p.paired(
                cx,
                "Kitchen",
                Color::White,
                chesspi_engine::game::Game::new(),
                link(),
                None,
            )
        });
        hearing.heard(&c, now);
        assert_eq!(heard.cues(), vec![Cue::PartnerJoined]);
        hearing.heard(&c, now);
        assert!(heard.cues().is_empty(), "still here: no second sound");
        // The link drops: gone, once; trying again is not a second going.
        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Lost));
        hearing.heard(&c, now);
        assert_eq!(heard.cues(), vec![Cue::PartnerLeft]);
        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Reconnecting));
        hearing.heard(&c, now);
        assert!(heard.cues().is_empty());
        // Back again, then gone for good.
        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Connected));
        hearing.heard(&c, now);
        assert_eq!(heard.cues(), vec![Cue::PartnerJoined]);
        c.part(|p: &mut PartnerGame, cx| p.left(cx));
        hearing.heard(&c, now);
        assert_eq!(heard.cues(), vec![Cue::PartnerLeft]);
    }

    #[test]
    fn a_partner_back_after_the_end_is_not_greeted() {
        let (sound, heard) = Sound::recorder();
        let mut hearing = Hearing::new(sound);
        let mut c = paired(Color::White);
        let now = Instant::now();
        hearing.heard(&c, now);
        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Lost));
        hearing.heard(&c, now);
        assert_eq!(heard.cues(), vec![Cue::PartnerLeft]);
        // The game ends while the partner is away (the host reports the partner resigned).
        c.part(|p: &mut PartnerGame, cx| {
            p.game_over(cx, Outcome::win(Color::White, Termination::Resignation))
        });
        hearing.heard(&c, now);
        assert_eq!(heard.cues(), vec![Cue::Won]);
        // The partner reconnects: the game is over, nothing to come back to.
        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Connected));
        hearing.heard(&c, now);
        assert!(heard.cues().is_empty(), "{:?}", heard.cues());
    }
}
