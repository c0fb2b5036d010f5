//! Static evaluation: a small neural network ([`network`]) trained on Stockfish's
//! evaluations, the one evaluation the engine plays, hints and analyses with; plus the piece
//! values that move ordering and exchange evaluation use.
//!
//! Scores are centipawns from the side to move's point of view, on the engine's scale
//! (lichess's divided by [`crate::analysis::ENGINE_CP_SCALE`]).
//!
//! The hand-written evaluation that came before (tapered piece-square tables, pawn structure,
//! mobility, king safety, tuned by Texel's method) was removed when the network took over
//! play: measured at the same time control the network is about 400 Elo stronger
//! (docs/benchmarks/history.md, "The network plays").

use crate::position::Position;
use crate::types::Role;

pub mod network;

pub use network::evaluate;

/// Single piece values for move ordering and exchange evaluation.
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// Whether the side to move has pieces other than pawns and king (null move is unsafe in
/// pawn endings because of zugzwang).
pub fn has_non_pawn_material(pos: &Position) -> bool {
    let us = pos.turn();
    (pos.by_color(us) & !pos.by_role(Role::Pawn) & !pos.by_role(Role::King)).nonempty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval_fen(fen: &str) -> i32 {
        evaluate(&Position::from_fen(fen).expect("valid FEN"))
    }

    #[test]
    fn start_position_is_about_level() {
        assert!(eval_fen(crate::fen::STARTPOS).abs() < 60);
    }

    #[test]
    fn material_counts_for_either_side() {
        // A knight up, whoever has it and whoever is to move.
        assert!(eval_fen("4k3/8/8/8/8/8/3PPP2/2N1K3 w - - 0 1") > 200);
        assert!(eval_fen("4k3/8/8/8/8/8/3PPP2/2N1K3 b - - 0 1") < -200);
        assert!(eval_fen("2n1k3/3ppp2/8/8/8/8/8/4K3 b - - 0 1") > 200);
    }

    #[test]
    fn a_far_advanced_passed_pawn_counts() {
        // On the seventh, out of the black king's reach: nearly a queen.
        let passed = eval_fen("7k/1P6/8/8/8/8/8/4K3 w - - 0 1");
        let home = eval_fen("7k/8/8/8/8/8/1P6/4K3 w - - 0 1");
        assert!(passed > home + 150, "{passed} vs {home}");
    }

    #[test]
    fn null_move_needs_pieces() {
        let fen = |f: &str| Position::from_fen(f).expect("valid FEN");
        assert!(!has_non_pawn_material(&fen(
            "4k3/8/8/8/8/8/3PPP2/4K3 w - - 0 1"
        )));
        assert!(has_non_pawn_material(&fen(
            "4k3/8/8/8/8/8/3PPP2/2N1K3 w - - 0 1"
        )));
        assert!(!has_non_pawn_material(&fen(
            "4k3/8/8/8/8/8/3PPP2/2N1K3 b - - 0 1"
        )));
    }
}
