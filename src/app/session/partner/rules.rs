//! What the network game on the board allows now, and the partner's name as texts show it:
//! asked by the game screen's panel and words, the menu and the network screen alike.

use crate::app::model::mode::Mode;
use crate::app::session::game::GameSession;
use crate::lan::session::LinkState;
use crate::tr;

/// The partner's name as texts show it: up to 32 characters may come over the network, a
/// status line has room for about 14 beside its words.
pub fn partner_name(session: &GameSession) -> String {
    const SHOWN: usize = 14;
    let Some(p) = session.partner.as_ref() else {
        return tr!("Partner");
    };
    if p.name.chars().count() <= SHOWN {
        return p.name.clone();
    }
    let mut short: String = p.name.chars().take(SHOWN - 1).collect();
    short.push('…');
    short
}

/// Whether the game on the board may be adjourned, or its win claimed, now: the partner
/// not connected, for long enough, and the game still on.
pub fn can_adjourn(session: &GameSession) -> bool {
    session
        .partner()
        .is_some_and(|p| p.link != LinkState::Connected && p.away.is_some_and(|a| a.long_enough))
        && !session.game.is_over()
}

/// Whether "Ask for takeback" can be sent now: connected, no offer waiting, and a move of
/// ours on the board.
pub fn can_ask_takeback(session: &GameSession) -> bool {
    let Mode::Network { local } = session.setup.mode else {
        return false;
    };
    let ready = session
        .partner
        .as_ref()
        .is_some_and(|p| p.link == LinkState::Connected && p.our_offer.is_none());
    let positions = session.game.positions();
    let ours = (0..session.game.moves().len()).any(|i| positions[i].turn() == local);
    ready && ours && !session.game.is_over()
}
