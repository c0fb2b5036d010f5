//! The session without sockets: two sessions wired through the real codec, and raw peers.
//! Handshake and play here; heartbeat, flood and reconnection in `link`.

mod clock;
mod door;
mod forfeit;
mod link;
mod player;
mod robust;

use super::*;
use crate::lan::codec::{self, ErrorMsg, Hello, Resume};
use chesspi_engine::game::{Outcome, Termination};

const HC: ConnId = ConnId(1);
const GC: ConnId = ConnId(2);

fn timing() -> Timing {
    Timing::default()
}

/// Host (White) and guest wired together; outputs to other connections are collected.
struct Pair {
    host: Session,
    guest: Session,
    now: Instant,
    host_events: Vec<Event>,
    guest_events: Vec<Event>,
    /// Messages the host sent to connections other than the guest's.
    raw: Vec<(ConnId, Message)>,
    closed: Vec<ConnId>,
    link_up: bool,
}

impl Pair {
    fn new(code: CodeChoice) -> Pair {
        Pair {
            host: Session::host("Hosty", code, Color::White, Game::new(), timing()),
            guest: Session::guest("Guesty", "", timing()),
            now: Instant::now(),
            host_events: Vec::new(),
            guest_events: Vec::new(),
            raw: Vec::new(),
            closed: Vec::new(),
            link_up: false,
        }
    }

    /// Paired and connected.
    fn paired() -> Pair {
        let mut p = Pair::new(CodeChoice::Random);
        p.guest.pairing.code = p.host.code().to_string();
        p.connect();
        assert_eq!(p.host.link(), LinkState::Connected);
        assert_eq!(p.guest.link(), LinkState::Connected);
        p.host_events.clear();
        p.guest_events.clear();
        p
    }

    fn connect(&mut self) {
        self.link_up = true;
        self.host.connection_opened(HC, self.now);
        self.guest.connection_opened(GC, self.now);
        self.pump();
    }

    /// The wire breaks silently: nothing more is delivered, neither side is told.
    fn cut(&mut self) {
        self.link_up = false;
    }

    /// Both sides notice the broken wire.
    fn drop_link(&mut self) {
        self.link_up = false;
        self.host.connection_closed(HC);
        self.guest.connection_closed(GC);
        self.pump();
    }

    fn pump(&mut self) {
        loop {
            let mut moved = false;
            while let Some(out) = self.host.poll() {
                moved = true;
                match out {
                    Output::Send(HC, m) if self.link_up => {
                        let line = codec::encode(&m).unwrap();
                        let decoded = codec::decode(&line[..line.len() - 1]);
                        self.guest.received(GC, decoded, self.now);
                    }
                    Output::Send(HC, _) => {}
                    Output::Send(id, m) => self.raw.push((id, m)),
                    Output::Close(HC) => {
                        if self.link_up {
                            self.link_up = false;
                            self.guest.connection_closed(GC);
                        }
                    }
                    Output::Close(id) => self.closed.push(id),
                    Output::Event(e) => self.host_events.push(e),
                }
            }
            while let Some(out) = self.guest.poll() {
                moved = true;
                match out {
                    Output::Send(_, m) if self.link_up => {
                        let line = codec::encode(&m).unwrap();
                        let decoded = codec::decode(&line[..line.len() - 1]);
                        self.host.received(HC, decoded, self.now);
                    }
                    Output::Send(..) => {}
                    Output::Close(_) => {
                        if self.link_up {
                            self.link_up = false;
                            self.host.connection_closed(HC);
                        }
                    }
                    Output::Event(e) => self.guest_events.push(e),
                }
            }
            if !moved {
                break;
            }
        }
    }

    fn host_plays(&mut self, uci: &str) {
        let mv = self.host.game().position().parse_uci_move(uci).unwrap();
        self.host.play(mv).unwrap();
        self.pump();
    }

    fn guest_plays(&mut self, uci: &str) {
        let mv = self.guest.game().position().parse_uci_move(uci).unwrap();
        self.guest.play(mv).unwrap();
        self.pump();
    }

    fn assert_same_game(&self) {
        assert_eq!(self.host.game().moves(), self.guest.game().moves());
        assert_eq!(self.host.game().outcome(), self.guest.game().outcome());
    }

    /// A raw peer's line into the host on `id`.
    fn raw_line(&mut self, id: ConnId, line: &[u8]) {
        self.host.received(id, codec::decode(line), self.now);
        self.pump();
    }

    fn raw_replies(&mut self, id: ConnId) -> Vec<Message> {
        let (mine, rest) = self.raw.drain(..).partition(|(c, _)| *c == id);
        self.raw = rest;
        mine.into_iter().map(|(_, m)| m).collect()
    }
}

fn error_code(m: &Message) -> Option<&ErrorCode> {
    match m {
        Message::Error(ErrorMsg { code, .. }) => Some(code),
        _ => None,
    }
}

fn hello(code: &str, resume: Option<Resume>) -> Vec<u8> {
    let line = codec::encode(&Message::Hello(Hello {
        protocol: 1,
        name: "Raw".into(),
        code: code.into(),
        resume,
        player: None,
    }))
    .unwrap();
    line[..line.len() - 1].to_vec()
}

#[test]
fn pairs_with_the_right_code() {
    let mut p = Pair::new(CodeChoice::Random);
    p.guest.pairing.code = p.host.code().to_string();
    p.connect();
    assert!(p.host_events.iter().any(
        |e| matches!(e, Event::Paired { partner, local: Color::White, .. } if partner == "Guesty")
    ));
    assert!(p.guest_events.iter().any(
        |e| matches!(e, Event::Paired { partner, local: Color::Black, .. } if partner == "Hosty")
    ));
    assert_eq!(p.guest.game_id(), p.host.game_id());
    assert_eq!(p.guest.local_color(), Color::Black);
}

#[test]
fn wrong_codes_are_refused_and_five_make_a_new_code() {
    let mut p = Pair::new(CodeChoice::Random);
    let first = p.host.code().to_string();
    let wrong = if first == "0000" { "0001" } else { "0000" };
    // From five addresses: each is locked out after its wrong code, but they count together.
    for attempt in 1..=5u8 {
        let id = ConnId(100 + u64::from(attempt));
        assert!(p.host.accepted(id, [10, 0, 0, attempt].into(), p.now));
        p.raw_line(id, &hello(wrong, None));
        let replies = p.raw_replies(id);
        assert_eq!(error_code(&replies[0]), Some(&ErrorCode::BadCode));
        assert!(p.closed.contains(&id));
    }
    assert!(!p.host.is_paired());
    let new = p.host.code().to_string();
    assert_ne!(new, first);
    assert!(
        p.host_events
            .iter()
            .any(|e| matches!(e, Event::CodeChanged(c) if *c == new))
    );
    // The old code no longer works; the new one does.
    p.host.accepted(ConnId(200), [10, 0, 0, 6].into(), p.now);
    p.raw_line(ConnId(200), &hello(&first, None));
    assert_eq!(
        error_code(&p.raw_replies(ConnId(200))[0]),
        Some(&ErrorCode::BadCode)
    );
    p.host.accepted(ConnId(201), [10, 0, 0, 7].into(), p.now);
    p.raw_line(ConnId(201), &hello(&new, None));
    assert!(matches!(p.raw_replies(ConnId(201))[0], Message::Welcome(_)));
    assert!(p.host.is_paired());
}

#[test]
fn a_fixed_code_is_kept() {
    let mut p = Pair::new(CodeChoice::Fixed("4321".into()));
    for attempt in 0..6u8 {
        let id = ConnId(100 + u64::from(attempt));
        p.host.accepted(id, [10, 0, 0, attempt].into(), p.now);
        p.raw_line(id, &hello("1111", None));
        assert_eq!(error_code(&p.raw_replies(id)[0]), Some(&ErrorCode::BadCode));
    }
    assert_eq!(p.host.code(), "4321");
    p.guest.pairing.code = "4321".into();
    p.connect();
    assert!(p.host.is_paired());
}

#[test]
fn other_protocol_versions_are_refused() {
    let mut p = Pair::new(CodeChoice::Random);
    p.host.connection_opened(ConnId(9), p.now);
    p.raw_line(ConnId(9), br#"{"type":"hello","protocol":2,"name":"x"}"#);
    let replies = p.raw_replies(ConnId(9));
    assert_eq!(error_code(&replies[0]), Some(&ErrorCode::Version));
    assert!(p.closed.contains(&ConnId(9)));
}

#[test]
fn a_second_guest_is_busy_and_a_strange_game_unknown() {
    let mut p = Pair::paired();
    let code = p.host.code().to_string();
    p.host.connection_opened(ConnId(9), p.now);
    p.raw_line(ConnId(9), &hello(&code, None));
    assert_eq!(
        error_code(&p.raw_replies(ConnId(9))[0]),
        Some(&ErrorCode::Busy)
    );
    let resume = Resume {
        game: "nope".into(),
        ply: 0,
        forfeit: false,
        secret: p.host.secret.clone(),
    };
    p.host.connection_opened(ConnId(10), p.now);
    p.raw_line(ConnId(10), &hello(&code, Some(resume)));
    assert_eq!(
        error_code(&p.raw_replies(ConnId(10))[0]),
        Some(&ErrorCode::UnknownGame)
    );
    // The real partner is still connected.
    assert_eq!(p.host.link(), LinkState::Connected);
    p.host_plays("e2e4");
    assert_eq!(p.guest.game().moves().len(), 1);
}

#[test]
fn the_guest_is_told_of_a_refusal_and_stops() {
    let mut p = Pair::new(CodeChoice::Fixed("1234".into()));
    p.guest.pairing.code = "9999".into();
    p.connect();
    assert!(p.guest_events.iter().any(|e| matches!(
        e,
        Event::Refused {
            code: ErrorCode::BadCode,
            ..
        }
    )));
    assert!(p.guest.is_closed());
    assert_eq!(p.guest.link(), LinkState::Closed);
}

/// A host's refusal is shown to the guest's player: its text arrives as one short line, with
/// no bidi override, however the host wrote it.
#[test]
fn a_hosts_error_text_is_made_safe_to_show() {
    let mut guest = Session::guest("Guesty", "1234", timing());
    let now = Instant::now();
    guest.connection_opened(GC, now);
    let text = format!("no\r\nway\u{202E}\u{2028}{}", "x".repeat(4000));
    let error = Message::Error(codec::ErrorMsg {
        code: ErrorCode::BadMessage,
        ply: None,
        text,
    });
    guest.received(GC, Ok(error), now);
    let shown = std::iter::from_fn(|| guest.poll())
        .find_map(|o| match o {
            Output::Event(Event::Refused { text, .. }) => Some(text),
            _ => None,
        })
        .expect("refused");
    assert!(shown.starts_with("no way xxx"), "{shown}");
    assert!(shown.chars().count() <= 160, "{}", shown.len());
    assert!(!shown.chars().any(|c| c.is_control() || c == '\u{202E}'));
}

#[test]
fn moves_are_applied_and_acknowledged() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    assert!(
        p.guest_events
            .iter()
            .any(|e| matches!(e, Event::PartnerMoved { ply: 0, .. }))
    );
    assert!(
        p.host_events
            .iter()
            .any(|e| matches!(e, Event::Acked { ply: 0 }))
    );
    assert_eq!(p.host.unacked(), None);
    p.guest_plays("e7e5");
    p.host_plays("d1h5");
    p.guest_plays("b8c6");
    p.host_plays("f1c4");
    p.guest_plays("g8f6");
    p.host_plays("h5f7");
    p.assert_same_game();
    let outcome = p.guest.game().outcome().unwrap();
    assert_eq!(outcome.termination, Termination::Checkmate);
    assert!(
        p.guest_events
            .iter()
            .any(|e| matches!(e, Event::GameOver(_)))
    );
    let any = Game::new().position().parse_uci_move("e2e4").unwrap();
    assert_eq!(p.host.play(any), Err(LocalError::GameOver));
}

#[test]
fn local_moves_out_of_turn_or_illegal_are_refused() {
    let mut p = Pair::paired();
    let e7e5 = Game::new().position().parse_uci_move("e2e4").unwrap();
    assert_eq!(p.guest.play(e7e5), Err(LocalError::NotYourTurn));
    let mut lone = Session::host("h", CodeChoice::Random, Color::White, Game::new(), timing());
    assert_eq!(lone.play(e7e5), Err(LocalError::NotPaired));
}

#[test]
fn bad_moves_from_the_partner_change_nothing() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    let cases: [(&[u8], ErrorCode); 5] = [
        (
            br#"{"type":"move","ply":5,"uci":"e7e5"}"#,
            ErrorCode::BadPly,
        ),
        (
            br#"{"type":"move","ply":0,"uci":"e7e5"}"#,
            ErrorCode::BadPly,
        ),
        (
            br#"{"type":"move","ply":1,"uci":"e7e4"}"#,
            ErrorCode::IllegalMove,
        ),
        (
            br#"{"type":"move","ply":1,"uci":"zz"}"#,
            ErrorCode::IllegalMove,
        ),
        (
            br#"{"type":"move","ply":1,"uci":"e1e2"}"#,
            ErrorCode::IllegalMove,
        ),
    ];
    for (line, want) in cases {
        // Straight into the host on the partner's connection.
        p.host.received(HC, codec::decode(line), p.now);
        let outs = p.host.drain();
        let sent: Vec<&Message> = outs
            .iter()
            .filter_map(|o| match o {
                Output::Send(HC, m) => Some(m),
                _ => None,
            })
            .collect();
        assert_eq!(sent.len(), 1, "{}", String::from_utf8_lossy(line));
        assert_eq!(
            error_code(sent[0]),
            Some(&want),
            "{}",
            String::from_utf8_lossy(line)
        );
        assert!(!outs.iter().any(|o| matches!(o, Output::Close(_))));
        assert_eq!(p.host.game().moves().len(), 1);
    }
    // Out of turn: the guest's move at the right ply while the host is on move.
    p.guest_plays("e7e5");
    p.host.received(
        HC,
        codec::decode(br#"{"type":"move","ply":2,"uci":"d7d5"}"#),
        p.now,
    );
    let outs = p.host.drain();
    assert!(outs.iter().any(
        |o| matches!(o, Output::Send(_, m) if error_code(m) == Some(&ErrorCode::NotYourTurn))
    ));
    assert_eq!(p.host.game().moves().len(), 2);
    p.assert_same_game();
}

#[test]
fn a_duplicate_move_is_acknowledged_again_not_applied_twice() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    p.guest_plays("e7e5");
    p.host.received(
        HC,
        codec::decode(br#"{"type":"move","ply":1,"uci":"e7e5"}"#),
        p.now,
    );
    let outs = p.host.drain();
    assert!(
        outs.iter()
            .any(|o| matches!(o, Output::Send(HC, Message::Ack { ply: 1 })))
    );
    assert_eq!(p.host.game().moves().len(), 2);
    assert!(!outs.iter().any(|o| matches!(o, Output::Event(_))));
}

#[test]
fn the_partner_refusing_our_move_takes_it_back() {
    let mut p = Pair::paired();
    let mv = p.host.game().position().parse_uci_move("e2e4").unwrap();
    p.host.play(mv).unwrap();
    p.host.drain();
    p.host.received(
        HC,
        codec::decode(br#"{"type":"error","code":"bad_ply","ply":0}"#),
        p.now,
    );
    assert!(p.host.game().moves().is_empty());
    assert!(p.host.drain().iter().any(|o| matches!(
        o,
        Output::Event(Event::MoveRejected {
            ply: 0,
            code: ErrorCode::BadPly,
            ..
        })
    )));
}

#[test]
fn draw_offers_accepted_and_declined() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    p.host.offer(OfferKind::Draw).unwrap();
    assert_eq!(p.host.offer(OfferKind::Draw), Err(LocalError::OfferPending));
    p.pump();
    assert!(
        p.guest_events
            .iter()
            .any(|e| matches!(e, Event::OfferReceived(OfferKind::Draw)))
    );
    p.guest.answer(false).unwrap();
    p.pump();
    assert!(p.host_events.iter().any(|e| matches!(
        e,
        Event::OfferAnswered {
            what: OfferKind::Draw,
            accept: false
        }
    )));
    assert!(!p.host.game().is_over());
    p.guest.offer(OfferKind::Draw).unwrap();
    p.pump();
    p.host.answer(true).unwrap();
    p.pump();
    p.assert_same_game();
    let outcome = p.guest.game().outcome().unwrap();
    assert_eq!(outcome.termination, Termination::Agreement);
    assert_eq!(p.guest.answer(true), Err(LocalError::NoOffer));
}

#[test]
fn takebacks_accepted_and_declined() {
    let mut p = Pair::paired();
    assert_eq!(
        p.host.offer(OfferKind::Takeback),
        Err(LocalError::NothingToTakeBack)
    );
    p.host_plays("e2e4");
    p.guest_plays("e7e5");
    p.host_plays("g1f3");
    // The guest asks after the host answered its move: two plies go.
    p.guest.offer(OfferKind::Takeback).unwrap();
    p.pump();
    p.host.answer(false).unwrap();
    p.pump();
    assert_eq!(p.guest.game().moves().len(), 3);
    p.guest.offer(OfferKind::Takeback).unwrap();
    p.pump();
    p.host.answer(true).unwrap();
    p.pump();
    p.assert_same_game();
    assert_eq!(p.host.game().moves().len(), 1);
    assert!(
        p.guest_events
            .iter()
            .any(|e| matches!(e, Event::TakenBack { ply: 1 }))
    );
    // The host takes back its own last move: one ply goes.
    p.guest_plays("c7c5");
    p.host_plays("d2d4");
    p.host.offer(OfferKind::Takeback).unwrap();
    p.pump();
    p.guest.answer(true).unwrap();
    p.pump();
    p.assert_same_game();
    assert_eq!(p.host.game().moves().len(), 2);
    assert_eq!(p.host.game().position().turn(), Color::White);
}

#[test]
fn unasked_replies_and_bad_takeback_plies_change_nothing() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    p.guest_plays("e7e5");
    let unasked = br#"{"type":"reply","what":"takeback","accept":true,"ply":0}"#;
    p.host.received(HC, codec::decode(unasked), p.now);
    assert_eq!(p.host.game().moves().len(), 2);
    p.host.drain();
    p.host.offer(OfferKind::Takeback).unwrap();
    p.host.drain();
    // Ply 0 would also take back a move of the guest's before ours: refused.
    let deep = br#"{"type":"reply","what":"takeback","accept":true,"ply":1}"#;
    p.host.received(HC, codec::decode(deep), p.now);
    assert_eq!(p.host.game().moves().len(), 2);
    let unasked_draw = br#"{"type":"reply","what":"draw","accept":true}"#;
    p.host.received(HC, codec::decode(unasked_draw), p.now);
    assert!(!p.host.game().is_over());
}

#[test]
fn resignation_ends_the_game_on_both_sides() {
    let mut p = Pair::paired();
    p.host_plays("e2e4");
    p.guest.resign().unwrap();
    p.pump();
    p.assert_same_game();
    let outcome = p.host.game().outcome().unwrap();
    assert_eq!(outcome.winner, Some(Color::White));
    assert_eq!(outcome.termination, Termination::Resignation);
    assert!(
        p.host_events
            .iter()
            .any(|e| matches!(e, Event::GameOver(_)))
    );
    assert_eq!(p.guest.resign(), Err(LocalError::GameOver));
}
