//! The host's door: who may open a connection, and how fast one address may try codes.
//!
//! Strangers on the network can reach the host's port. They must not be able to keep the
//! partner out (by holding every connection) nor guess a fixed pairing code quickly. So:
//! at most [`UNPAIRED_PER_ADDRESS`] connections per address may wait for their handshake; a
//! new connection when all [`MAX_CONNECTIONS`] are taken pushes out the oldest stranger of
//! the address holding the most (never the partner's live connection), so a resuming partner
//! always gets in; and each wrong code locks its address out of trying codes for a time that
//! doubles with each wrong code from there.

use super::{ConnId, Phase, Role, Session};
use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Most connections a host keeps open at once (the partner plus guests in their handshake).
pub const MAX_CONNECTIONS: usize = 8;

/// Most connections from one address that have not finished their handshake.
pub const UNPAIRED_PER_ADDRESS: usize = 2;

/// The wait after a wrong code doubles up to this many times the first one.
const MAX_WAIT_FACTOR: u32 = 64;

/// An address without a wrong code for this long starts afresh.
const FORGET_AFTER: Duration = Duration::from_secs(600);

/// Most addresses whose wrong codes are remembered one by one; beyond, they share one count
/// (so many addresses cannot grow the table, nor try faster than one shared count allows).
const MAX_TRACKED: usize = 64;

/// Where a connection comes from, as the door counts it: IPv4 seen through an IPv6 socket is
/// the IPv4 address; `None` is unknown (a caller that gave none) and the overflow count.
pub(super) type Origin = Option<IpAddr>;

/// The origin of a peer address.
pub(super) fn origin(peer: Option<IpAddr>) -> Origin {
    peer.map(|ip| ip.to_canonical())
}

/// Wrong codes from one origin.
#[derive(Debug, Clone, Copy)]
struct Strikes {
    wrong: u32,
    /// No code from there is looked at before this.
    locked_until: Instant,
    last_wrong: Instant,
}

/// Wrong codes per origin.
#[derive(Debug, Default)]
pub(super) struct Strikebook {
    by_origin: HashMap<Origin, Strikes>,
}

impl Strikebook {
    /// How long `origin` must still wait before a code of its is looked at (`None`: now).
    pub(super) fn locked(&self, origin: Origin, now: Instant) -> Option<Duration> {
        let key = self.key(origin);
        let strikes = self.by_origin.get(&key)?;
        let left = strikes.locked_until.saturating_duration_since(now);
        (!left.is_zero()).then_some(left)
    }

    /// Notes a wrong code from `origin`: it waits `first_wait`, doubled for each wrong code
    /// before (up to [`MAX_WAIT_FACTOR`] times), before its next code is looked at.
    pub(super) fn strike(&mut self, origin: Origin, first_wait: Duration, now: Instant) {
        self.by_origin
            .retain(|_, s| now.saturating_duration_since(s.last_wrong) < FORGET_AFTER);
        let key = self.key(origin);
        let strikes = self.by_origin.entry(key).or_insert(Strikes {
            wrong: 0,
            locked_until: now,
            last_wrong: now,
        });
        strikes.wrong = strikes.wrong.saturating_add(1);
        let factor = 1u32
            .checked_shl(strikes.wrong - 1)
            .unwrap_or(u32::MAX)
            .min(MAX_WAIT_FACTOR);
        strikes.last_wrong = now;
        strikes.locked_until = now + first_wait * factor;
    }

    /// The entry that counts for `origin`: its own, or the shared one once the table is full.
    fn key(&self, origin: Origin) -> Origin {
        if self.by_origin.contains_key(&origin) || self.by_origin.len() < MAX_TRACKED {
            origin
        } else {
            None
        }
    }
}

impl Session {
    /// Host: the network layer accepted connection `id` from `peer`. False when the door
    /// turns it away unread (its address already has [`UNPAIRED_PER_ADDRESS`] connections
    /// waiting for their handshake): the caller closes it. When every place is taken, the
    /// oldest stranger of the address holding the most places is closed to make room.
    pub fn accepted(&mut self, id: ConnId, peer: IpAddr, now: Instant) -> bool {
        let from = origin(Some(peer));
        if self.role == Role::Host && !self.closed {
            if self.waiting_from(from) >= UNPAIRED_PER_ADDRESS {
                log::warn!("lan: {peer} already has {UNPAIRED_PER_ADDRESS} connections waiting");
                return false;
            }
            if self.conns.len() >= MAX_CONNECTIONS
                && let Some(stranger) = self.stranger_to_push_out()
            {
                log::warn!("lan: every place taken, closing {stranger:?} for a newcomer");
                self.close(stranger);
            }
        }
        self.open(id, from, now);
        true
    }

    /// Connections from `from` still in their handshake.
    fn waiting_from(&self, from: Origin) -> usize {
        self.conns
            .values()
            .filter(|c| c.phase == Phase::Handshake && c.origin == from)
            .count()
    }

    /// The stranger that gives way to a newcomer: one of the address with the most connections
    /// waiting, its oldest. The partner's connection (past its handshake) is never chosen, so
    /// strangers cannot push it out, and a resuming partner always finds a place.
    fn stranger_to_push_out(&self) -> Option<ConnId> {
        self.conns
            .iter()
            .filter(|(_, c)| c.phase == Phase::Handshake)
            .max_by_key(|(id, c)| {
                let held = self.waiting_from(c.origin);
                (held, std::cmp::Reverse((c.opened, **id)))
            })
            .map(|(id, _)| *id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u8) -> Origin {
        Some(IpAddr::from([192, 168, 1, n]))
    }

    #[test]
    fn waits_double_per_wrong_code_and_are_per_address() {
        let mut book = Strikebook::default();
        let t = Instant::now();
        let s = Duration::from_secs(1);
        assert_eq!(book.locked(ip(1), t), None);
        book.strike(ip(1), s, t);
        assert_eq!(book.locked(ip(1), t), Some(s));
        assert_eq!(book.locked(ip(2), t), None, "another address is not locked");
        book.strike(ip(1), s, t + s);
        assert_eq!(book.locked(ip(1), t + s), Some(2 * s));
        for _ in 0..20 {
            book.strike(ip(1), s, t + s);
        }
        assert_eq!(
            book.locked(ip(1), t + s),
            Some(64 * s),
            "the wait is capped"
        );
        // Forgotten after a quiet while.
        let later = t + FORGET_AFTER + 2 * s;
        book.strike(ip(2), s, later);
        book.strike(ip(1), s, later);
        assert_eq!(book.locked(ip(1), later), Some(s));
    }

    #[test]
    fn an_ipv4_address_counts_the_same_through_ipv6() {
        let v4: IpAddr = "192.168.1.7".parse().unwrap();
        let mapped: IpAddr = "::ffff:192.168.1.7".parse().unwrap();
        assert_eq!(origin(Some(mapped)), origin(Some(v4)));
    }

    #[test]
    fn many_addresses_share_one_count_beyond_the_table() {
        let mut book = Strikebook::default();
        let t = Instant::now();
        let s = Duration::from_secs(1);
        for n in 0..=u8::try_from(MAX_TRACKED).unwrap() {
            book.strike(ip(n), s, t);
        }
        assert_eq!(book.by_origin.len(), MAX_TRACKED + 1);
        // A new address now lands in the shared count, already struck.
        assert_eq!(book.locked(ip(200), t), Some(s));
        book.strike(ip(201), s, t);
        assert_eq!(book.locked(ip(202), t), Some(2 * s));
    }
}
