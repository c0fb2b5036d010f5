//! The players at the two devices: the one this side announces in its `hello` or `welcome`,
//! and the partner's, whose name is shown and whose rating rates the game (docs/PROTOCOL.md
//! §4). A peer without a `player` (an older one, or a guest of its device) is shown by its
//! device's name and plays unrated.

use super::Session;
use crate::lan::codec::{PlayerCard, PlayerRating};

/// Longest partner name kept (characters); longer ones are cut.
pub const MAX_NAME_CHARS: usize = 32;

impl Session {
    /// The session announcing `player` (`None`: a guest of this device, who plays unrated).
    #[must_use]
    pub fn with_player(mut self, player: Option<PlayerCard>) -> Session {
        self.player = player;
        self
    }

    /// The partner's rating as its device sent it in the latest handshake (the pairing's is
    /// the one before the game: [`super::Event::Paired`]); `None` from an older peer or a
    /// guest of its device.
    pub fn partner_rating(&self) -> Option<PlayerRating> {
        self.partner_rating
    }
}

/// The name to show for a peer: its player's, when it sent one that is not blank after
/// cleaning, else its device's.
pub(super) fn shown_name(device: &str, player: Option<&PlayerCard>) -> String {
    player
        .map(|p| clean_name(&p.name))
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| clean_name(device))
}

/// A peer-supplied name made safe to show ([`crate::text::shown`]): one line, no control or
/// invisible format characters, at most [`MAX_NAME_CHARS`] characters.
pub fn clean_name(name: &str) -> String {
    crate::text::shown(name, MAX_NAME_CHARS)
}
