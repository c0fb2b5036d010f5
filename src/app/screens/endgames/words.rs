//! The lessons in the user's language: each area's name, each lesson's title and sentence of
//! what to learn (the engine holds them in English; each is written here once more inside
//! `tr!`, so the catalogue test finds it, and a test holds the two the same).

use crate::tr;
use chesspi_engine::endgame::lessons::{Area, Lesson};

/// An area's name, as the list's headings show it.
pub fn area_name(area: Area) -> String {
    match area {
        Area::QueenMate => tr!("Queen mate"),
        Area::RookMate => tr!("Rook mate"),
        Area::TwoBishops => tr!("Two bishops"),
        Area::BishopKnight => tr!("Bishop and knight"),
        Area::KingPawn => tr!("King and pawn"),
        Area::Lucena => tr!("Lucena"),
        Area::Philidor => tr!("Philidor"),
        Area::QueenVsPawn => tr!("Queen against pawn"),
    }
}

/// A lesson's title in the user's language (its English one for a lesson not listed here).
pub fn title(lesson: &Lesson) -> String {
    match lesson.id {
        "kqk-1" => tr!("Queen mate: the box"),
        "kqk-2" => tr!("Queen mate from afar"),
        "kqk-3" => tr!("Mate, not stalemate"),
        "krk-1" => tr!("Rook mate: the waiting move"),
        "krk-2" => tr!("Rook mate: cut the king off"),
        "krk-3" => tr!("Rook mate: king to the front"),
        "kbbk-1" => tr!("Two bishops: side by side"),
        "kbbk-2" => tr!("Two bishops: into the corner"),
        "kbnk-1" => tr!("Bishop and knight: the W"),
        "kbnk-2" => tr!("Bishop and knight mate"),
        "kpk-1" => tr!("Take the opposition"),
        "kpk-2" => tr!("Hold the opposition"),
        "kpk-3" => tr!("The rule of the square"),
        "kpk-4" => tr!("Step into the square"),
        "kpk-5" => tr!("Key squares"),
        "kpk-6" => tr!("Rook pawn: the corner"),
        "kpk-7" => tr!("The stalemate defence"),
        "kpk-8" => tr!("Push at the right moment"),
        "lucena-1" => tr!("Lucena: build a bridge"),
        "philidor-1" => tr!("Philidor: the third rank"),
        "qp-1" => tr!("Queen v centre pawn"),
        "qp-2" => tr!("Queen v knight pawn"),
        "qp-3" => tr!("Queen v rook pawn"),
        "qp-4" => tr!("Queen v bishop pawn"),
        _ => crate::i18n::translate(lesson.title).to_string(),
    }
}

/// A lesson's sentence of what to learn, in the user's language.
pub fn summary(lesson: &Lesson) -> String {
    match lesson.id {
        "kqk-1" => tr!(
            "Shrink the king's box with the queen a knight's jump away, then bring your king to \
             help."
        ),
        "kqk-2" => tr!(
            "The queen alone drives the king to the edge; your king walks up and the queen mates."
        ),
        "kqk-3" => tr!(
            "Before each move, check the cornered king still has a move or is mated: Qb6 \
             stalemates."
        ),
        "krk-1" => tr!(
            "A quiet rook move makes the king step in front of yours, and the rook mates on the \
             edge."
        ),
        "krk-2" => tr!(
            "Cut the king off along a rank or file, then push it back with your king in \
             opposition."
        ),
        "krk-3" => tr!(
            "A far king must come forward first: the rook cuts the board, the king takes the \
             ground."
        ),
        "kbbk-1" => tr!(
            "Bishops on neighbouring diagonals make a wall the king cannot cross; your king \
             pushes it."
        ),
        "kbbk-2" => {
            tr!("Drive the king to any corner; mate comes with both bishops near your king.")
        }
        "kbnk-1" => tr!(
            "The king sits in the wrong corner: walk it along the edge to a corner of the \
             bishop's colour."
        ),
        "kbnk-2" => tr!(
            "Drive the king to the edge, then to a corner of the bishop's colour; mate comes \
             within 33 moves."
        ),
        "kpk-1" => {
            tr!("Face the king with one square between you and let it give way: only Ke3 wins.")
        }
        "kpk-2" => tr!(
            "Step straight in front of the king, one square between, and keep it there: only \
             Ke7 draws."
        ),
        "kpk-3" => tr!(
            "A king outside the pawn's square cannot catch it: push at once, before it steps \
             inside."
        ),
        "kpk-4" => tr!(
            "Draw the square from the pawn to its queening rank; step inside and you catch the \
             pawn."
        ),
        "kpk-5" => tr!(
            "With your king two ranks ahead of the pawn, on a key square, the pawn queens \
             whoever moves."
        ),
        "kpk-6" => tr!(
            "Reach the corner in front of a rook's pawn and no king can drive you out: it is a \
             draw."
        ),
        "kpk-7" => tr!(
            "Answer Kd8: after e7+ Ke8 White must stalemate you or give up the pawn; Kf8 loses \
             to Kd7."
        ),
        "kpk-8" => tr!(
            "Push now: after e7 Kf7, Kd7 guards the queening square; a king move first lets \
             Black hold."
        ),
        "lucena-1" => tr!(
            "Push the king away with a check, put your rook on the fourth rank and block the \
             checks."
        ),
        "philidor-1" => tr!(
            "Keep your rook on your third rank until the pawn advances, then check from behind."
        ),
        "qp-1" => tr!(
            "Check and pin until the king must stand in front of its pawn, then bring your king \
             a step."
        ),
        "qp-2" => tr!(
            "A knight's pawn falls like a centre pawn: force the king in front of it, then come \
             closer."
        ),
        "qp-3" => tr!(
            "Keep your king by the pawn and hide in the corner: the queen cannot come close \
             without stalemate."
        ),
        "qp-4" => tr!(
            "Guard the pawn and, when checked, go to the corner: if the queen takes the pawn, it \
             is stalemate."
        ),
        _ => crate::i18n::translate(lesson.summary).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chesspi_engine::endgame::lessons::LESSONS;

    /// Each lesson's words here are the engine's, whatever the language: in English both are
    /// the English text; in German both are the catalogue's entry for that text.
    #[test]
    fn the_words_are_the_engine_s() {
        for lesson in &LESSONS {
            assert_eq!(
                title(lesson),
                crate::i18n::translate(lesson.title),
                "{}",
                lesson.id
            );
            assert_eq!(
                summary(lesson),
                crate::i18n::translate(lesson.summary),
                "{}",
                lesson.id
            );
        }
    }
}
