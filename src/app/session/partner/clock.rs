//! The clocks of a timed network game. Each device runs both clocks itself; the host chose
//! the time control. A move carries the mover's time left (advice: it may only lower what we
//! measured, or raise it by the network's delay), a lost link stops both clocks, and only a
//! player's own device lets that player's flag fall: the partner's clock stops at 0:00 until
//! its `flag` arrives (or its move, when its own clock had time left).

use super::LanRequest;
use crate::app::model::clock::{GameClock, TimeControl};
use crate::app::model::mode::Mode;
use crate::app::session::effect::Effect;
use crate::app::session::game::GameSession;
use crate::lan::session::{LanClock, LinkState};
use chesspi_engine::Color;
use std::time::{Duration, Instant};

/// The most a partner's clock may gain over what this device measured: the time its move
/// took to arrive, with room to spare on a slow Wi-Fi.
pub const MAX_CLOCK_ADVICE_GAIN: Duration = Duration::from_secs(1);

/// The clocks a network game starts or goes on with, if the partner's values make a time
/// control this app offers (1-180 minutes, 0-60 s increment); `None` plays untimed.
pub fn game_clock(lan: LanClock, after_moves: Vec<Duration>) -> Option<GameClock> {
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

/// The host's clocks, at the start or after a reconnect (`None`: untimed); nothing without
/// a partner.
pub fn host_clock(session: &mut GameSession, clock: Option<LanClock>) {
    if session.partner().is_none() {
        return;
    }
    let history = session
        .clock()
        .map(|c| c.after_moves().to_vec())
        .unwrap_or_default();
    let clock = clock.and_then(|c| game_clock(c, history));
    session.set_clock(clock);
}

/// The partner's move (by `mover`) pressed its clock at `now`; its own report is advice.
pub fn partner_moved(
    session: &mut GameSession,
    mover: Color,
    reported: Option<Duration>,
    now: Instant,
) {
    let Some(clock) = session.clocks.clock_mut() else {
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
    let ply = session.game.moves().len();
    session.clocks.replace(fixed, ply);
}

/// Whether the clocks of a network game may run: while the partner is connected and the
/// game goes on; not the partner's clock once it shows 0:00 (its device decides its flag).
/// Dialogs and a dark screen here do not stop them: the partner's device would not. `None`
/// for other games.
pub fn may_run(session: &GameSession, now: Instant) -> Option<bool> {
    let Mode::Network { local } = session.setup.mode else {
        return None;
    };
    let connected = session
        .partner
        .as_ref()
        .is_some_and(|p| p.link == LinkState::Connected);
    let turn = session.game.position().turn();
    let partner_out = turn != local
        && session
            .clock()
            .is_some_and(|c| c.remaining(turn, now).is_zero());
    Some(connected && !session.game.is_over() && !partner_out)
}

/// A fallen flag in a network game: ours ends the game here and is told to the partner;
/// the partner's only stops its clock (see [`may_run`]). `None` for other games, else
/// whether the game ended (the controller goes on as after any change).
pub fn tick(session: &mut GameSession, now: Instant) -> Option<bool> {
    let Mode::Network { local } = session.setup.mode else {
        return None;
    };
    let Some(clock) = session.clocks.clock_mut() else {
        return Some(false);
    };
    match clock.flagged(now) {
        Some(color) if color == local && !session.game.is_over() => {
            clock.pause(now);
            if session.game.flag(local).is_ok() {
                session.effect(Effect::Lan(LanRequest::Flag));
                return Some(true);
            }
        }
        Some(_) => clock.pause(now),
        None => {}
    }
    Some(false)
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
