//! The clocks of a timed network game. Each device runs both clocks itself; the host chose
//! the time control. A move carries the mover's time left (advice: it may only lower what we
//! measured, or raise it by the network's delay), a lost link stops both clocks, and only a
//! player's own device lets that player's flag fall: the partner's clock stops at 0:00 until
//! its `flag` arrives (or its move, when its own clock had time left).

use crate::app::model::clock::{GameClock, TimeControl};
use crate::app::model::mode::Mode;
use crate::app::screens::{Controller, LanRequest};
use crate::lan::session::{LanClock, LinkState};
use chesspi_engine::Color;
use std::time::{Duration, Instant};

/// The most a partner's clock may gain over what this device measured: the time its move
/// took to arrive, with room to spare on a slow Wi-Fi.
pub const MAX_CLOCK_ADVICE_GAIN: Duration = Duration::from_secs(1);

/// The clocks a network game starts or goes on with, if the partner's values make a time
/// control this app offers (1-180 minutes, 0-60 s increment); `None` plays untimed.
pub(in crate::app::screens) fn game_clock(
    lan: LanClock,
    after_moves: Vec<Duration>,
) -> Option<GameClock> {
    let whole_minutes = lan.base.as_secs().is_multiple_of(60) && lan.base.subsec_nanos() == 0;
    let control = TimeControl::new(lan.base.as_secs() / 60, lan.increment.as_secs())
        .filter(|c| whole_minutes && c.increment == lan.increment);
    let Some(control) = control else {
        log::warn!("network game: the clock {lan:?} is not one this device keeps; untimed");
        return None;
    };
    Some(GameClock::restore(
        control,
        lan.white,
        lan.black,
        after_moves,
    ))
}

/// The partner's time left after its move: its own word `reported`, unless that is more
/// than we `measured` plus [`MAX_CLOCK_ADVICE_GAIN`].
pub fn advised(measured: Duration, reported: Option<Duration>) -> Duration {
    match reported {
        Some(r) => r.min(measured + MAX_CLOCK_ADVICE_GAIN),
        None => measured,
    }
}

impl Controller {
    /// Gives a game played on from Saved games its clocks back (the computer, if on move,
    /// thinks again with its time).
    pub fn resume_clock(&mut self, clock: GameClock) {
        self.session.set_clock(Some(clock));
        if self.session.is_computer_thinking() {
            self.session.cancel_thinking();
            self.after_change();
        }
    }

    /// The host's clocks after a reconnect (`None`: untimed).
    pub fn network_clock(&mut self, clock: Option<LanClock>) {
        if self.session.partner().is_none() {
            return;
        }
        let history = self
            .session
            .clock()
            .map(|c| c.after_moves().to_vec())
            .unwrap_or_default();
        let clock = clock.and_then(|c| game_clock(c, history));
        self.session.set_clock(clock);
    }

    /// The partner's move pressed its clock at `now`; its own report is advice.
    pub(in crate::app::screens) fn partner_clock(
        &mut self,
        mover: Color,
        reported: Option<Duration>,
        now: Instant,
    ) {
        let Some(clock) = self.session.clocks.clock_mut() else {
            return;
        };
        clock.moved(mover, now);
        let measured = clock.remaining(mover, now);
        let left = advised(measured, reported);
        let (white, black) = match mover {
            Color::White => (left, clock.remaining(Color::Black, now)),
            Color::Black => (clock.remaining(Color::White, now), left),
        };
        let mut history = clock.after_moves().to_vec();
        if let Some(last) = history.last_mut() {
            *last = left;
        }
        let mut fixed = GameClock::restore(clock.control(), white, black, history);
        fixed.run(!mover, now);
        let ply = self.session.game.moves().len();
        self.session.clocks.replace(fixed, ply);
    }

    /// Whether the clocks of a network game may run: while the partner is connected and the
    /// game goes on; not the partner's clock once it shows 0:00 (its device decides its flag).
    /// Dialogs and a dark screen here do not stop them: the partner's device would not.
    pub(in crate::app::screens) fn network_clock_may_run(&self, now: Instant) -> Option<bool> {
        let Mode::Network { local } = self.session.setup.mode else {
            return None;
        };
        let connected = self
            .session
            .partner
            .as_ref()
            .is_some_and(|p| p.link == LinkState::Connected);
        let turn = self.session.game.position().turn();
        let partner_out = turn != local
            && self
                .session
                .clock()
                .is_some_and(|c| c.remaining(turn, now).is_zero());
        Some(connected && !self.session.game.is_over() && !partner_out)
    }

    /// A fallen flag in a network game: ours ends the game here and is told to the partner;
    /// the partner's only stops its clock (see [`Controller::network_clock_may_run`]).
    /// Returns `false` for other games.
    pub(in crate::app::screens) fn network_clock_tick(&mut self, now: Instant) -> bool {
        let Mode::Network { local } = self.session.setup.mode else {
            return false;
        };
        let Some(clock) = self.session.clocks.clock_mut() else {
            return true;
        };
        match clock.flagged(now) {
            Some(color) if color == local && !self.session.game.is_over() => {
                clock.pause(now);
                if self.session.game.flag(local).is_ok() {
                    self.lan(LanRequest::Flag);
                    self.after_change();
                }
            }
            Some(_) => clock.pause(now),
            None => {}
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    #[test]
    fn a_partners_clock_report_is_advice() {
        // Lower than measured: the partner's device counts its own thinking; taken.
        assert_eq!(advised(s(100), Some(s(90))), s(90));
        // A little more (the move's way over the network): taken.
        assert_eq!(
            advised(s(100), Some(Duration::from_millis(100_300))),
            Duration::from_millis(100_300)
        );
        // Far more: at most the measured time plus the allowance.
        assert_eq!(advised(s(100), Some(s(3600))), s(101));
        assert_eq!(advised(s(100), None), s(100));
    }

    #[test]
    fn only_offered_time_controls_are_kept() {
        let lan = LanClock::new(s(300), s(3));
        let c = game_clock(lan, Vec::new()).expect("5+3");
        assert_eq!(c.control(), TimeControl::new(5, 3).expect("5+3"));
        assert!(game_clock(LanClock::new(s(301), s(3)), Vec::new()).is_none());
        assert!(game_clock(LanClock::new(s(300), s(61)), Vec::new()).is_none());
        assert!(game_clock(LanClock::new(s(0), s(0)), Vec::new()).is_none());
        let ms = LanClock::new(s(300), Duration::from_millis(2500));
        assert!(game_clock(ms, Vec::new()).is_none());
    }
}

#[cfg(test)]
mod game_tests {
    use super::*;
    use crate::app::model::mode::GameSetup;
    use crate::app::screens::Effect;
    use crate::storage::LanLink;
    use chesspi_engine::game::{Game, Termination};
    use chesspi_engine::level::Level;

    fn s(secs: u64) -> Duration {
        Duration::from_secs(secs)
    }

    /// A 1+0 network game with this device playing White, connected.
    fn timed_game() -> Controller {
        let mut c = Controller::new(GameSetup {
            mode: Mode::Network {
                local: Color::White,
            },
            level: Level::DEFAULT,
        });
        let link = LanLink {
            game_id: "g".into(),
            host: None,
        };
        c.network_paired(
            "Peer",
            Color::White,
            Game::new(),
            link,
            Some(LanClock::new(s(60), s(0))),
        );
        c.take_effects();
        c
    }

    fn flagged(c: &mut Controller) -> bool {
        c.take_effects()
            .iter()
            .any(|e| matches!(e, Effect::Lan(LanRequest::Flag)))
    }

    #[test]
    fn our_flag_ends_the_game_and_is_sent() {
        let mut c = timed_game();
        let t0 = Instant::now();
        c.sync_clock(t0, false);
        assert_eq!(
            c.session().clock().and_then(GameClock::running),
            Some(Color::White)
        );
        c.clock_tick(t0 + s(59));
        assert!(!c.session().game().is_over());
        c.clock_tick(t0 + s(60));
        let outcome = c.session().game().outcome().expect("over on time");
        assert_eq!(outcome.termination, Termination::Time);
        assert_eq!(outcome.winner, Some(Color::Black));
        assert!(flagged(&mut c));
    }

    #[test]
    fn the_partners_flag_is_its_own_devices_to_declare() {
        let mut c = timed_game();
        let t0 = Instant::now();
        c.sync_clock(t0, false);
        let e4 = c
            .session()
            .game()
            .position()
            .parse_uci_move("e2e4")
            .expect("e2e4");
        c.play_human(e4);
        c.sync_clock(t0 + s(5), false);
        assert_eq!(
            c.session()
                .clocks
                .after_last_move(c.session().game().moves().len()),
            Some(s(55))
        );
        assert_eq!(
            c.session().clock().and_then(GameClock::running),
            Some(Color::Black)
        );
        // Black's time is up here, but only Black's device ends the game: its clock stops.
        c.clock_tick(t0 + s(66));
        c.sync_clock(t0 + s(66), false);
        assert!(!c.session().game().is_over());
        assert!(!flagged(&mut c));
        assert_eq!(c.session().clock().and_then(GameClock::running), None);
        // Its `flag` ends it (the session turns it into the outcome).
        c.network_game_over(chesspi_engine::game::Outcome::win(
            Color::White,
            Termination::Time,
        ));
        assert!(c.session().game().is_over());
    }

    #[test]
    fn a_partners_move_sets_its_clock_within_the_allowance() {
        let mut c = timed_game();
        let t0 = Instant::now();
        c.sync_clock(t0, false);
        let e4 = c
            .session()
            .game()
            .position()
            .parse_uci_move("e2e4")
            .expect("e2e4");
        c.play_human(e4);
        c.sync_clock(t0 + s(2), false);
        let e5 = c
            .session()
            .game()
            .position()
            .parse_uci_move("e7e5")
            .expect("e7e5");
        // Black claims a full hour after thinking ~10 s: it gets what we measured + 1 s.
        c.partner_moved(1, e5, Some(s(3600)));
        let now = Instant::now();
        let black = c
            .session()
            .clock()
            .expect("clock")
            .remaining(Color::Black, now);
        assert!(black <= s(61), "{black:?}");
        assert_eq!(
            c.session().clock().and_then(GameClock::running),
            Some(Color::White)
        );
    }

    #[test]
    fn a_lost_link_stops_both_clocks() {
        let mut c = timed_game();
        let t0 = Instant::now();
        c.sync_clock(t0, false);
        c.network_link(LinkState::Lost);
        c.sync_clock(t0 + s(1), false);
        assert_eq!(c.session().clock().and_then(GameClock::running), None);
        assert_eq!(
            c.session()
                .clock()
                .map(|k| k.remaining(Color::White, t0 + s(30))),
            Some(s(59))
        );
        c.network_link(LinkState::Connected);
        c.sync_clock(t0 + s(30), false);
        assert_eq!(
            c.session().clock().and_then(GameClock::running),
            Some(Color::White)
        );
    }
}
