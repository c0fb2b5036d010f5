//! Clocks brought back for a game played on, and the tests of a timed network game. The
//! network game's clocks themselves are the session's
//! ([`crate::app::session::partner::clock`]): the game screen's clocks ask them too.

use crate::app::model::clock::GameClock;
use crate::app::screens::Controller;

impl Controller {
    /// Gives a game played on from Saved games its clocks back (the computer, if on move,
    /// thinks again with its time).
    // Not the network's: it stays here until the game's clocks have an owner of their own.
    pub fn resume_clock(&mut self, clock: GameClock) {
        self.session.set_clock(Some(clock));
        if self.session.is_computer_thinking() {
            self.session.cancel_thinking();
            self.after_change();
        }
    }
}

#[cfg(test)]
mod game_tests {
    use super::*;
    use crate::app::model::mode::GameSetup;
    use crate::app::model::mode::Mode;
    use crate::app::screens::Effect;
    use crate::app::screens::network::partner::PartnerGame;
    use crate::app::session::partner::LanRequest;
    use crate::lan::session::{LanClock, LinkState};
    use crate::storage::LanLink;
    use chesspi_engine::Color;
    use chesspi_engine::game::{Game, Termination};
    use chesspi_engine::level::Level;
    use std::time::{Duration, Instant};

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
            peer_rating: None,
        };
        c.part(|p: &mut PartnerGame, cx| {
            p.paired(
                cx,
                "Peer",
                Color::White,
                Game::new(),
                link,
                Some(LanClock::new(s(60), s(0))),
            )
        });
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
        c.play(|p, cx, _| p.play(cx, e4));
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
        c.part(|p: &mut PartnerGame, cx| {
            p.game_over(
                cx,
                chesspi_engine::game::Outcome::win(Color::White, Termination::Time),
            )
        });
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
        c.play(|p, cx, _| p.play(cx, e4));
        c.sync_clock(t0 + s(2), false);
        let e5 = c
            .session()
            .game()
            .position()
            .parse_uci_move("e7e5")
            .expect("e7e5");
        // Black claims a full hour after thinking ~10 s: it gets what we measured + 1 s.
        c.part(|p: &mut PartnerGame, cx| p.moved(cx, 1, e5, Some(s(3600))));
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
        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Lost));
        c.sync_clock(t0 + s(1), false);
        assert_eq!(c.session().clock().and_then(GameClock::running), None);
        assert_eq!(
            c.session()
                .clock()
                .map(|k| k.remaining(Color::White, t0 + s(30))),
            Some(s(59))
        );
        c.part(|p: &mut PartnerGame, cx| p.link(cx, LinkState::Connected));
        c.sync_clock(t0 + s(30), false);
        assert_eq!(
            c.session().clock().and_then(GameClock::running),
            Some(Color::White)
        );
    }
}
