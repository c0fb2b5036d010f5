//! The endgame lessons as data: a start position, whose side the player takes, the goal, a
//! title and one sentence of what to learn. The player is always the side to move. The
//! computer answers at full strength; in K+Q v K, K+R v K and K+P v K the tables judge the
//! play exactly ([`Area::exact`]).

use crate::fen::FenError;
use crate::position::Position;
use crate::types::Color;

/// The kind of endgame a lesson teaches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Area {
    /// King and queen mate the lone king.
    QueenMate,
    /// King and rook mate the lone king.
    RookMate,
    /// King and two bishops mate the lone king.
    TwoBishops,
    /// King, bishop and knight mate the lone king.
    BishopKnight,
    /// King and pawn against king: opposition, the square, key squares.
    KingPawn,
    /// Rook and pawn against rook, winning with the Lucena position's bridge.
    Lucena,
    /// Rook and pawn against rook, drawing with Philidor's defence.
    Philidor,
    /// Queen against a pawn on its seventh rank.
    QueenVsPawn,
}

impl Area {
    /// Every area, in the order lessons are listed.
    pub const ALL: [Area; 8] = [
        Area::QueenMate,
        Area::RookMate,
        Area::TwoBishops,
        Area::BishopKnight,
        Area::KingPawn,
        Area::Lucena,
        Area::Philidor,
        Area::QueenVsPawn,
    ];

    /// Whether the endgame tables judge this area exactly ([`super::probe`]): the distance to
    /// mate in K+Q v K and K+R v K, won or drawn in K+P v K.
    pub fn exact(self) -> bool {
        matches!(self, Area::QueenMate | Area::RookMate | Area::KingPawn)
    }
}

/// What the player must achieve.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Goal {
    /// Checkmate the lone king.
    Mate,
    /// Win the game (promote and go on to mate).
    Win,
    /// Hold the draw.
    Draw,
}

/// One endgame lesson.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lesson {
    /// Stable identifier, e.g. `"kqk-1"`: kept across versions, for saved progress.
    pub id: &'static str,
    pub area: Area,
    /// The start position; the player is to move.
    pub fen: &'static str,
    /// The side the player takes (the side to move in `fen`).
    pub player: Color,
    pub goal: Goal,
    /// A short English title (at most 28 characters).
    pub title: &'static str,
    /// One English sentence of what the lesson teaches (at most 120 characters).
    pub summary: &'static str,
}

impl Lesson {
    /// The start position.
    ///
    /// # Errors
    /// A [`FenError`] if the FEN is not a legal position; the tests show every lesson's is.
    pub fn position(&self) -> Result<Position, FenError> {
        Position::from_fen(self.fen)
    }
}

/// The lesson with this id.
pub fn find(id: &str) -> Option<&'static Lesson> {
    LESSONS.iter().find(|l| l.id == id)
}

const fn lesson(
    id: &'static str,
    area: Area,
    fen: &'static str,
    player: Color,
    goal: Goal,
    title: &'static str,
    summary: &'static str,
) -> Lesson {
    Lesson {
        id,
        area,
        fen,
        player,
        goal,
        title,
        summary,
    }
}

use Area::*;
use Color::{Black, White};
use Goal::{Draw, Mate, Win};

/// Every lesson, easiest first within each area.
pub static LESSONS: [Lesson; 24] = [
    lesson(
        "kqk-1",
        QueenMate,
        "8/8/8/4k3/8/8/8/3QK3 w - - 0 1",
        White,
        Mate,
        "Queen mate: the box",
        "Shrink the king's box with the queen a knight's jump away, then bring your king to help.",
    ),
    lesson(
        "kqk-2",
        QueenMate,
        "8/8/8/8/3k4/8/8/K6Q w - - 0 1",
        White,
        Mate,
        "Queen mate from afar",
        "The queen alone drives the king to the edge; your king walks up and the queen mates.",
    ),
    lesson(
        "kqk-3",
        QueenMate,
        "k7/8/2K5/1Q6/8/8/8/8 w - - 0 1",
        White,
        Mate,
        "Mate, not stalemate",
        "Before each move, check the cornered king still has a move or is mated: Qb6 stalemates.",
    ),
    lesson(
        "krk-1",
        RookMate,
        "3k4/8/4K3/8/8/8/8/7R w - - 0 1",
        White,
        Mate,
        "Rook mate: the waiting move",
        "A quiet rook move makes the king step in front of yours, and the rook mates on the edge.",
    ),
    lesson(
        "krk-2",
        RookMate,
        "8/8/8/4k3/8/8/8/R3K3 w - - 0 1",
        White,
        Mate,
        "Rook mate: cut the king off",
        "Cut the king off along a rank or file, then push it back with your king in opposition.",
    ),
    lesson(
        "krk-3",
        RookMate,
        "8/8/8/3k4/8/8/8/K6R w - - 0 1",
        White,
        Mate,
        "Rook mate: king to the front",
        "A far king must come forward first: the rook cuts the board, the king takes the ground.",
    ),
    lesson(
        "kbbk-1",
        TwoBishops,
        "8/8/3k4/8/8/8/8/2B1KB2 w - - 0 1",
        White,
        Mate,
        "Two bishops: side by side",
        "Bishops on neighbouring diagonals make a wall the king cannot cross; your king pushes it.",
    ),
    lesson(
        "kbbk-2",
        TwoBishops,
        "8/8/8/8/4k3/8/8/2BBK3 w - - 0 1",
        White,
        Mate,
        "Two bishops: into the corner",
        "Drive the king to any corner; mate comes with both bishops near your king.",
    ),
    lesson(
        "kbnk-1",
        BishopKnight,
        "7k/8/5K2/4N3/8/8/8/5B2 w - - 0 1",
        White,
        Mate,
        "Bishop and knight: the W",
        "The king sits in the wrong corner: walk it along the edge to a corner of the bishop's colour.",
    ),
    lesson(
        "kbnk-2",
        BishopKnight,
        "8/8/8/4k3/8/8/8/1N2KB2 w - - 0 1",
        White,
        Mate,
        "Bishop and knight mate",
        "Drive the king to the edge, then to a corner of the bishop's colour; mate comes within 33 moves.",
    ),
    lesson(
        "kpk-1",
        KingPawn,
        "8/8/8/4k3/8/3K4/4P3/8 w - - 0 1",
        White,
        Win,
        "Take the opposition",
        "Face the king with one square between you and let it give way: only Ke3 wins.",
    ),
    lesson(
        "kpk-2",
        KingPawn,
        "4k3/8/8/4K3/4P3/8/8/8 b - - 0 1",
        Black,
        Draw,
        "Hold the opposition",
        "Step straight in front of the king, one square between, and keep it there: only Ke7 draws.",
    ),
    lesson(
        "kpk-3",
        KingPawn,
        "8/8/8/7k/2P5/8/8/7K w - - 0 1",
        White,
        Win,
        "The rule of the square",
        "A king outside the pawn's square cannot catch it: push at once, before it steps inside.",
    ),
    lesson(
        "kpk-4",
        KingPawn,
        "8/8/8/7k/2P5/8/8/7K b - - 0 1",
        Black,
        Draw,
        "Step into the square",
        "Draw the square from the pawn to its queening rank; step inside and you catch the pawn.",
    ),
    lesson(
        "kpk-5",
        KingPawn,
        "8/8/4k3/8/4K3/8/4P3/8 w - - 0 1",
        White,
        Win,
        "Key squares",
        "With your king two ranks ahead of the pawn, on a key square, the pawn queens whoever moves.",
    ),
    lesson(
        "kpk-6",
        KingPawn,
        "8/3k4/8/PK6/8/8/8/8 b - - 0 1",
        Black,
        Draw,
        "Rook pawn: the corner",
        "Reach the corner in front of a rook's pawn and no king can drive you out: it is a draw.",
    ),
    lesson(
        "kpk-7",
        KingPawn,
        "4k3/8/3KP3/8/8/8/8/8 b - - 0 1",
        Black,
        Draw,
        "The stalemate defence",
        "Answer Kd8: after e7+ Ke8 White must stalemate you or give up the pawn; Kf8 loses to Kd7.",
    ),
    lesson(
        "kpk-8",
        KingPawn,
        "4k3/8/3KP3/8/8/8/8/8 w - - 0 1",
        White,
        Win,
        "Push at the right moment",
        "Push now: after e7 Kf7, Kd7 guards the queening square; a king move first lets Black hold.",
    ),
    lesson(
        "lucena-1",
        Lucena,
        "1K6/1P1k4/8/8/8/8/r7/2R5 w - - 0 1",
        White,
        Win,
        "Lucena: build a bridge",
        "Push the king away with a check, put your rook on the fourth rank and block the checks.",
    ),
    lesson(
        "philidor-1",
        Philidor,
        "4k3/R7/8/3KP3/8/8/8/1r6 b - - 0 1",
        Black,
        Draw,
        "Philidor: the third rank",
        "Keep your rook on your third rank until the pawn advances, then check from behind.",
    ),
    lesson(
        "qp-1",
        QueenVsPawn,
        "K7/8/8/8/8/8/3pk3/6Q1 w - - 0 1",
        White,
        Win,
        "Queen v centre pawn",
        "Check and pin until the king must stand in front of its pawn, then bring your king a step.",
    ),
    lesson(
        "qp-2",
        QueenVsPawn,
        "8/K7/8/8/8/8/1pk5/7Q w - - 0 1",
        White,
        Win,
        "Queen v knight pawn",
        "A knight's pawn falls like a centre pawn: force the king in front of it, then come closer.",
    ),
    lesson(
        "qp-3",
        QueenVsPawn,
        "7K/8/8/8/8/1k6/p7/7Q b - - 0 1",
        Black,
        Draw,
        "Queen v rook pawn",
        "Keep your king by the pawn and hide in the corner: the queen cannot come close without stalemate.",
    ),
    lesson(
        "qp-4",
        QueenVsPawn,
        "7K/8/8/8/8/3k4/2p5/7Q b - - 0 1",
        Black,
        Draw,
        "Queen v bishop pawn",
        "Guard the pawn and, when checked, go to the corner: if the queen takes the pawn, it is stalemate.",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgame::{Outcome, Verdict, probe};
    use crate::types::Role;
    use std::collections::HashSet;

    #[test]
    fn lessons_are_well_formed() {
        assert!(LESSONS.len() >= 20);
        let mut ids = HashSet::new();
        for l in &LESSONS {
            assert!(ids.insert(l.id), "{} twice", l.id);
            assert_eq!(find(l.id), Some(l));
            assert!(l.title.chars().count() <= 28, "{}: title too long", l.id);
            assert!(
                l.summary.chars().count() <= 120,
                "{}: summary too long",
                l.id
            );
            assert!(l.summary.ends_with('.'), "{}", l.id);
            let pos = l.position().unwrap_or_else(|e| panic!("{}: {e}", l.id));
            assert_eq!(pos.turn(), l.player, "{}: the player moves first", l.id);
            assert!(pos.has_legal_moves() && !pos.is_check(), "{}", l.id);
        }
        for area in Area::ALL {
            assert!(LESSONS.iter().any(|l| l.area == area), "{area:?}");
        }
        assert_eq!(find("none"), None);
    }

    /// The roles White and Black have besides their kings, sorted.
    fn material(pos: &Position) -> (Vec<Role>, Vec<Role>) {
        let side = |c: Color| {
            let mut roles: Vec<Role> = pos
                .by_color(c)
                .filter_map(|sq| pos.role_at(sq))
                .filter(|&r| r != Role::King)
                .collect();
            roles.sort_by_key(|r| r.index());
            roles
        };
        (side(Color::White), side(Color::Black))
    }

    #[test]
    fn each_lesson_has_its_area_s_material() {
        use Role::*;
        for l in &LESSONS {
            let pos = l.position().expect("legal");
            let (white, black) = material(&pos);
            let expected: (&[Role], &[Role]) = match l.area {
                QueenMate => (&[Queen], &[]),
                RookMate => (&[Rook], &[]),
                TwoBishops => (&[Bishop, Bishop], &[]),
                BishopKnight => (&[Knight, Bishop], &[]),
                KingPawn => (&[Pawn], &[]),
                Lucena | Philidor => (&[Pawn, Rook], &[Rook]),
                QueenVsPawn => (&[Queen], &[Pawn]),
            };
            let mut expected = (expected.0.to_vec(), expected.1.to_vec());
            expected.0.sort_by_key(|r| r.index());
            assert_eq!((white, black), expected, "{}", l.id);
            if l.area == TwoBishops {
                let bishops = pos.pieces(Color::White, Bishop);
                assert_eq!(
                    bishops.filter(|sq| sq.is_light()).count(),
                    1,
                    "{}: bishops on both colours",
                    l.id
                );
            }
        }
    }

    #[test]
    fn goals_agree_with_the_tables() {
        for l in LESSONS.iter().filter(|l| l.area.exact()) {
            let pos = l.position().expect("legal");
            let verdict = probe(&pos).unwrap_or_else(|| panic!("{}: not covered", l.id));
            let expected = match l.goal {
                Goal::Mate | Goal::Win => Outcome::Win,
                Goal::Draw => Outcome::Draw,
            };
            assert_eq!(verdict.outcome(), expected, "{}", l.id);
            if l.goal == Goal::Mate {
                assert!(matches!(verdict, Verdict::WinIn(_)), "{}", l.id);
            }
        }
    }
}
