//! What the screens' tests share: squares by name, a tap, a game between two players, the
//! computer's requests.

use super::{Controller, Effect, Purpose, Reply};
use crate::app::model::mode::{GameSetup, Mode};
use chesspi_engine::Square;
use chesspi_engine::level::Level;

pub(super) fn sq(name: &str) -> Square {
    name.parse().expect("a square name")
}

pub(super) fn tap(c: &mut Controller, name: &str) {
    c.play(|p, cx, gate| p.press(cx, gate, Some(sq(name))));
    c.play(|p, cx, _| p.release(cx, Some(sq(name)), false));
}

pub(super) fn friend() -> GameSetup {
    GameSetup {
        mode: Mode::Friend,
        level: Level::DEFAULT,
    }
}

pub(super) fn think_ids(effects: &[Effect]) -> Vec<(u64, Purpose)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Think(r) => Some((r.id, r.purpose)),
            _ => None,
        })
        .collect()
}

/// Plays e4 and the computer's first legal reply.
pub(super) fn e4_and_a_reply(c: &mut Controller) {
    c.take_effects();
    tap(c, "e2");
    tap(c, "e4");
    let (id, _) = think_ids(&c.take_effects())[0];
    let reply = c.session().game().position().legal_moves()[0];
    c.computer_answered(id, Reply::Move(Some(reply)));
}
