//! The players at the two devices: each side's name and rating in the handshake, the
//! partner's shown by its player's name, and an older peer (no player) still paired, unrated.

use super::*;
use crate::lan::codec::{PlayerCard, PlayerRating};

fn card(name: &str, rating: Option<(f64, f64)>) -> Option<PlayerCard> {
    Some(PlayerCard {
        name: name.into(),
        rating: rating.map(|(r, d)| PlayerRating::new(r, d).expect("in bounds")),
    })
}

/// `session` announcing `player`.
fn announce(session: &mut Session, player: Option<PlayerCard>) {
    let old = std::mem::replace(session, Session::guest("", "", timing()));
    *session = old.with_player(player);
}

fn paired_rating(events: &[Event]) -> Option<(String, Option<PlayerRating>)> {
    events.iter().find_map(|e| match e {
        Event::Paired {
            partner,
            partner_rating,
            ..
        } => Some((partner.clone(), *partner_rating)),
        _ => None,
    })
}

#[test]
fn each_side_learns_the_others_player_and_rating() {
    let mut p = Pair::new(CodeChoice::Random);
    announce(&mut p.host, card("Anna", Some((1523.5, 80.0))));
    announce(&mut p.guest, card("Ben\u{202E}", Some((1000.0, 500.0))));
    p.guest.pairing.code = p.host.code().to_string();
    p.connect();
    let ben = PlayerRating::new(1000.0, 500.0);
    let anna = PlayerRating::new(1523.5, 80.0);
    // The name is cleaned like a device's.
    assert_eq!(paired_rating(&p.host_events), Some(("Ben".into(), ben)));
    assert_eq!(paired_rating(&p.guest_events), Some(("Anna".into(), anna)));
    assert_eq!(p.host.partner(), Some("Ben"));
    assert_eq!(p.guest.partner_rating(), anna);
    p.host_plays("e2e4");
    p.guest_plays("e7e5");
    p.assert_same_game();
    assert_eq!(p.host.game().moves().len(), 2);
}

#[test]
fn a_guest_of_a_device_is_shown_by_the_device_name_and_unrated() {
    let mut p = Pair::new(CodeChoice::Random);
    // Host: a player without a rating (unrated); guest device: a guest player (no card).
    announce(&mut p.host, card("Anna", None));
    p.guest.pairing.code = p.host.code().to_string();
    p.connect();
    assert_eq!(paired_rating(&p.host_events), Some(("Guesty".into(), None)));
    assert_eq!(paired_rating(&p.guest_events), Some(("Anna".into(), None)));
}

/// The `hello` of an older guest, byte for byte: paired, shown by its device's name,
/// unrated, and the game goes on; the host's `welcome` carries its player all the same.
#[test]
fn an_older_guest_still_plays_unrated() {
    let mut p = Pair::new(CodeChoice::Fixed("1234".into()));
    announce(&mut p.host, card("Anna", Some((1600.0, 60.0))));
    let id = ConnId(7);
    p.host.connection_opened(id, p.now);
    p.raw_line(
        id,
        br#"{"type":"hello","protocol":1,"name":"Old","code":"1234","resume":null}"#,
    );
    let replies = p.raw_replies(id);
    let Some(Message::Welcome(w)) = replies.first() else {
        panic!("{replies:?}")
    };
    assert_eq!(w.player, card("Anna", Some((1600.0, 60.0))));
    assert_eq!(paired_rating(&p.host_events), Some(("Old".into(), None)));
    assert_eq!(p.host.partner_rating(), None);
    let e2e4 = p.host.game().position().parse_uci_move("e2e4").unwrap();
    p.host.play(e2e4).unwrap();
    p.raw_line(id, br#"{"type":"ack","ply":0}"#);
    p.raw_line(id, br#"{"type":"move","ply":1,"uci":"e7e5"}"#);
    assert_eq!(p.host.game().moves().len(), 2);
}

/// A host's `welcome` with a rating out of bounds: the guest pairs all the same, unrated.
#[test]
fn a_rating_out_of_bounds_pairs_unrated() {
    let mut guest = Session::guest("G", "1234", timing());
    guest.connection_opened(GC, Instant::now());
    let line = br#"{"type":"welcome","protocol":1,"name":"Hall","game":"g","you":"black","start":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1","moves":[],"result":null,"player":{"name":"Zed","rating":9000,"deviation":30}}"#;
    guest.received(GC, codec::decode(line), Instant::now());
    let events: Vec<Event> = guest
        .drain()
        .into_iter()
        .filter_map(|o| match o {
            Output::Event(e) => Some(e),
            _ => None,
        })
        .collect();
    assert_eq!(paired_rating(&events), Some(("Zed".into(), None)));
    assert_eq!(guest.link(), LinkState::Connected);
}
