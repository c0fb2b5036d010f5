//! Why a move is bad, read from the lines the coach's searches found.
//!
//! Every reason is a claim about the board that can be checked: a hanging piece is the
//! mover's and the named piece takes it; a fork's, pin's or skewer's line wins at least two
//! pawns of material; a mate is the search's forced mate. Material along a line is counted
//! conservatively: of the line's last two positions, the one less favourable to the side
//! that gains, so a line that stops between a capture and its recapture claims nothing.
//! When no pattern fits, the reason only names the better move.

use crate::analysis::Eval;
use crate::attacks::{attacks, line};
use crate::moves::Move;
use crate::position::Position;
use crate::san::to_san;
use crate::search::see_ge;
use crate::types::{Color, Role, Square};

/// Material a pattern must win along its line, in pawns, before the coach names it.
pub(super) const PATTERN_GAIN: i32 = 2;

/// The longest mate the coach names: a longer one found by a short search may rest on a
/// defence the search pruned.
pub(super) const MAX_NAMED_MATE: i64 = 5;

/// A piece and where it stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placed {
    pub role: Role,
    pub square: Square,
}

/// Which drawing rule a move gives the opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawKind {
    /// The same position for the third time (or the opponent can make it so at once).
    Repetition,
    /// Fifty moves by each side without a capture or a pawn move.
    FiftyMoves,
    /// Neither side has material left to mate.
    Material,
}

/// The kind of a [`Reason`], as `chesspi-engine explain` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReasonKind {
    Hangs,
    Mate,
    Fork,
    Pin,
    Skewer,
    Exchange,
    MissedMate,
    MissedWin,
    Stalemate,
    Draw,
    None,
}

impl ReasonKind {
    pub const fn code(self) -> &'static str {
        match self {
            ReasonKind::Hangs => "hangs",
            ReasonKind::Mate => "mate",
            ReasonKind::Fork => "fork",
            ReasonKind::Pin => "pin",
            ReasonKind::Skewer => "skewer",
            ReasonKind::Exchange => "exchange",
            ReasonKind::MissedMate => "missed_mate",
            ReasonKind::MissedWin => "missed_win",
            ReasonKind::Stalemate => "stalemate",
            ReasonKind::Draw => "draw",
            ReasonKind::None => "none",
        }
    }
}

/// What is wrong with a move. Moves are given with their SAN (English letters) in the
/// position they are played in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The move leaves `piece` where the opponent's `taker` wins it outright.
    Hangs { piece: Placed, taker: Placed },
    /// The opponent mates in `moves`, starting with `first`.
    Mate {
        moves: u32,
        first: Move,
        san: String,
    },
    /// The opponent's `first` move puts `forker` where it attacks both `targets`.
    Fork {
        first: Move,
        san: String,
        forker: Placed,
        targets: [Placed; 2],
    },
    /// The opponent's `first` move brings `pinner` onto the line of `front`, which cannot
    /// leave it without giving up the more valuable `back`.
    Pin {
        first: Move,
        san: String,
        pinner: Placed,
        front: Placed,
        back: Placed,
    },
    /// As a pin, but `front` is the more valuable piece (or the king): when it steps aside,
    /// `back` is taken.
    Skewer {
        first: Move,
        san: String,
        pinner: Placed,
        front: Placed,
        back: Placed,
    },
    /// The exchange that starts on `at` leaves the mover `net` pawns of material down.
    Exchange { at: Square, net: u32 },
    /// The mover had mate in `moves`, starting with `best`.
    MissedMate { moves: u32, best: Move, san: String },
    /// `best` would have won `wins` (its line keeps at least two pawns of material).
    MissedWin {
        best: Move,
        san: String,
        wins: Placed,
    },
    /// The move stalemates the opponent in a position the mover was winning.
    Stalemate,
    /// The move lets the game end in a draw by `DrawKind` although the mover was winning.
    Draw(DrawKind),
    /// Nothing that can be named: `best` was better.
    BetterMove { best: Move, san: String },
    /// Nothing is wrong with the move.
    None,
}

impl Reason {
    pub fn kind(&self) -> ReasonKind {
        match self {
            Reason::Hangs { .. } => ReasonKind::Hangs,
            Reason::Mate { .. } => ReasonKind::Mate,
            Reason::Fork { .. } => ReasonKind::Fork,
            Reason::Pin { .. } => ReasonKind::Pin,
            Reason::Skewer { .. } => ReasonKind::Skewer,
            Reason::Exchange { .. } => ReasonKind::Exchange,
            Reason::MissedMate { .. } => ReasonKind::MissedMate,
            Reason::MissedWin { .. } => ReasonKind::MissedWin,
            Reason::Stalemate => ReasonKind::Stalemate,
            Reason::Draw(_) => ReasonKind::Draw,
            Reason::BetterMove { .. } | Reason::None => ReasonKind::None,
        }
    }

    /// The squares to mark on the board, in the order `chesspi-engine explain` documents:
    /// the hanging piece then its taker; a move's from and to (mate, missed mate, better
    /// move); the forking piece's square then its targets; the pinning or skewering piece's
    /// square, the front piece, the back piece; the square an exchange starts on; a missed
    /// win's move then the piece it wins.
    pub fn squares(&self) -> Vec<Square> {
        match self {
            Reason::Hangs { piece, taker } => vec![piece.square, taker.square],
            Reason::Mate { first: mv, .. }
            | Reason::MissedMate { best: mv, .. }
            | Reason::BetterMove { best: mv, .. } => vec![mv.from(), mv.to()],
            Reason::Fork {
                forker, targets, ..
            } => vec![forker.square, targets[0].square, targets[1].square],
            Reason::Pin {
                pinner,
                front,
                back,
                ..
            }
            | Reason::Skewer {
                pinner,
                front,
                back,
                ..
            } => vec![pinner.square, front.square, back.square],
            Reason::Exchange { at, .. } => vec![*at],
            Reason::MissedWin { best, wins, .. } => vec![best.from(), best.to(), wins.square],
            Reason::Stalemate | Reason::Draw(_) | Reason::None => Vec::new(),
        }
    }

    /// The reason why `played` from `position` (reaching `after`, whose game history is
    /// `after_history`, the hashes up to and including `after`) is worse than the best move,
    /// from the two searches' evaluations and lines.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn find(
        position: &Position,
        played: Move,
        after: &Position,
        after_history: &[u64],
        before: Eval,
        after_eval: Eval,
        refutation: &[Move],
        best_line: &[Move],
    ) -> Reason {
        let mover = position.turn();
        let better = || {
            best_line
                .first()
                .map_or(Reason::None, |&best| Reason::BetterMove {
                    best,
                    san: to_san(position, best),
                })
        };
        let was_winning = before.win_percent(mover) >= 60.0;
        if after.is_stalemate() {
            return if was_winning {
                Reason::Stalemate
            } else {
                better()
            };
        }
        if was_winning && let Some(kind) = draw_by_rule(after, after_history, refutation) {
            return Reason::Draw(kind);
        }
        let already_mated = before.mate_for(mover).is_some_and(|n| n < 0);
        if let (Some(n), Some(&first)) = (after_eval.mate_for(mover), refutation.first())
            && n < 0
            && -n <= MAX_NAMED_MATE
            && !already_mated
        {
            return Reason::Mate {
                moves: n.unsigned_abs() as u32,
                first,
                san: to_san(after, first),
            };
        }
        if let (Some(n), Some(&best)) = (before.mate_for(mover), best_line.first())
            && n > 0
            && n <= MAX_NAMED_MATE
        {
            return Reason::MissedMate {
                moves: n as u32,
                best,
                san: to_san(position, best),
            };
        }
        if let Some(tactic) = tactic(position, played, after, refutation) {
            return tactic;
        }
        missed_win(position, best_line).unwrap_or_else(better)
    }
}

/// The drawing rule the position after the move, or the opponent's first reply, fulfils.
fn draw_by_rule(after: &Position, after_history: &[u64], refutation: &[Move]) -> Option<DrawKind> {
    let rule = |pos: &Position, history: &[u64]| {
        if pos.is_insufficient_material() {
            Some(DrawKind::Material)
        } else if pos.halfmove_clock() >= 100 && pos.has_legal_moves() {
            Some(DrawKind::FiftyMoves)
        } else if history.iter().filter(|&&h| h == pos.hash()).count() >= 3 {
            Some(DrawKind::Repetition)
        } else {
            None
        }
    };
    if let Some(kind) = rule(after, after_history) {
        return Some(kind);
    }
    let &reply = refutation.first()?;
    let next = after.play(reply).ok()?;
    let mut history = after_history.to_vec();
    history.push(next.hash());
    rule(&next, &history)
}

/// A piece's worth in pawns (the king none: it is never won).
pub fn material_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

/// Rank for comparing pieces, the king above all.
fn worth(role: Role) -> i32 {
    if role == Role::King {
        100
    } else {
        material_value(role)
    }
}

/// The material `side` has on the board, in pawns.
pub fn material(pos: &Position, side: Color) -> i32 {
    Role::ALL
        .iter()
        .map(|&role| material_value(role) * pos.pieces(side, role).count() as i32)
        .sum()
}

fn balance(pos: &Position, side: Color) -> i32 {
    material(pos, side) - material(pos, !side)
}

/// How many of a line's last positions its material is counted over (the least favourable
/// one counts), and the shortest line that counts at all: a short line says too little about
/// where the material ends.
const LINE_TAIL: usize = 2;
const MIN_LINE: usize = 4;

/// Material `side` gains along `moves` from `start`, in pawns: the least favourable of the
/// line's last [`LINE_TAIL`] positions, against the start; nothing for a line shorter than
/// [`MIN_LINE`]. A line that stops after a capture its opponent would answer claims nothing
/// for it.
pub(super) fn line_gain(start: &Position, moves: &[Move], side: Color) -> i32 {
    let initial = balance(start, side);
    let mut balances = vec![initial];
    let mut pos = *start;
    for &mv in moves {
        if !pos.is_legal(mv) {
            break;
        }
        pos.play_unchecked(mv);
        balances.push(balance(&pos, side));
    }
    if balances.len() <= MIN_LINE {
        return 0;
    }
    let tail = &balances[balances.len() - LINE_TAIL..];
    tail.iter().copied().min().unwrap_or(initial) - initial
}

/// Material the mover loses, in pawns, in the captures that start with `played` or with the
/// opponent's reply and go on while every move captures: at the first quiet move, the
/// exchange is over; a line that ends while still capturing is counted at the better of
/// its last two positions for the mover.
fn exchange_loss(position: &Position, played: Move, refutation: &[Move]) -> i32 {
    let mover = position.turn();
    let initial = balance(position, mover);
    let (mut previous, mut last) = (initial, initial);
    let mut pos = *position;
    for (ply, &mv) in std::iter::once(&played).chain(refutation).enumerate() {
        if !pos.is_legal(mv) {
            break;
        }
        if ply >= 1 && captured(&pos, mv).is_none() {
            return initial - last;
        }
        pos.play_unchecked(mv);
        previous = last;
        last = balance(&pos, mover);
    }
    initial - previous.max(last)
}

/// The role a move captures, if any (a pawn for en passant).
fn captured(pos: &Position, mv: Move) -> Option<Role> {
    if mv.is_en_passant() {
        Some(Role::Pawn)
    } else if mv.is_castle() {
        None
    } else {
        pos.role_at(mv.to())
    }
}

/// A hanging piece, a fork, a pin or skewer, or a losing exchange in the opponent's line.
fn tactic(
    position: &Position,
    played: Move,
    after: &Position,
    refutation: &[Move],
) -> Option<Reason> {
    let mover = position.turn();
    let opponent = !mover;
    let &first = refutation.first()?;
    if !after.is_legal(first) {
        return None;
    }
    let net = exchange_loss(position, played, refutation);
    let gain = line_gain(after, refutation, opponent);
    let san = to_san(after, first);
    let mut next = *after;
    next.play_unchecked(first);
    let moved = next.role_at(first.to()).unwrap_or(Role::Pawn);
    let forker = Placed {
        role: moved,
        square: first.to(),
    };
    let hangs = captured(after, first).and_then(|victim| {
        let recapture = captured(position, played).is_some() && played.to() == first.to();
        let free = see_ge(after, first, crate::eval::SEE_VALUE[victim.index()]);
        // The piece stays lost in the whole line, not only in the exchange.
        let lost = material_value(victim).min(PATTERN_GAIN);
        (free && !recapture && gain >= lost && net >= lost).then(|| Reason::Hangs {
            piece: Placed {
                role: victim,
                square: first.to(),
            },
            taker: Placed {
                role: after.role_at(first.from()).unwrap_or(Role::Pawn),
                square: first.from(),
            },
        })
    });
    let pattern = if gain >= PATTERN_GAIN {
        line_pattern(&next, forker, opponent, first, san)
    } else {
        None
    };
    // The reason names the largest loss the line shows: a capture that forks, pins or
    // skewers on its way and wins more than the piece it takes is named by its pattern.
    let taken = captured(after, first).map_or(0, material_value);
    match (hangs, pattern) {
        (Some(_), Some(pattern)) if gain > taken => return Some(pattern),
        (Some(hangs), _) => return Some(hangs),
        (None, Some(pattern)) => return Some(pattern),
        (None, None) => {}
    }
    if captured(after, first).is_some() && net >= 1 && gain >= 1 {
        return Some(Reason::Exchange {
            at: first.to(),
            net: net as u32,
        });
    }
    None
}

/// A fork, or a pin or skewer, made by `first` (which put `forker` on its square in `next`).
fn line_pattern(
    next: &Position,
    forker: Placed,
    side: Color,
    first: Move,
    san: String,
) -> Option<Reason> {
    if let Some(targets) = fork_targets(next, forker, side) {
        return Some(Reason::Fork {
            first,
            san,
            forker,
            targets,
        });
    }
    let (front, back) = pinned_line(next, forker, side)?;
    let skewer = front.role == Role::King || worth(front.role) > worth(back.role);
    Some(if skewer {
        Reason::Skewer {
            first,
            san,
            pinner: forker,
            front,
            back,
        }
    } else {
        Reason::Pin {
            first,
            san,
            pinner: forker,
            front,
            back,
        }
    })
}

/// Two of the victim's pieces (not pawns) that `forker` attacks in `pos` and that it could
/// win: the king, a piece worth more than the forker, or one nobody defends. The two most
/// valuable, the more valuable first.
fn fork_targets(pos: &Position, forker: Placed, side: Color) -> Option<[Placed; 2]> {
    let victim = !side;
    let reach = attacks(forker.role, side, forker.square, pos.occupied());
    let mut targets: Vec<Placed> = (reach & pos.by_color(victim))
        .filter_map(|square| {
            let role = pos.role_at(square)?;
            let defended = pos.is_attacked(square, victim, pos.occupied().without(square));
            let winnable = role == Role::King
                || worth(role) > worth(forker.role)
                || (!defended && role != Role::Pawn);
            (winnable && role != Role::Pawn).then_some(Placed { role, square })
        })
        .collect();
    if targets.len() < 2 {
        return None;
    }
    targets.sort_by_key(|t| -worth(t.role));
    Some([targets[0], targets[1]])
}

/// A piece of the victim's that the slider `pinner` attacks in `pos` with another of its
/// pieces (not a pawn) straight behind it on the same line: (front, back).
fn pinned_line(pos: &Position, pinner: Placed, side: Color) -> Option<(Placed, Placed)> {
    if !matches!(pinner.role, Role::Bishop | Role::Rook | Role::Queen) {
        return None;
    }
    let victim = !side;
    let occupied = pos.occupied();
    let reach = attacks(pinner.role, side, pinner.square, occupied);
    let mut best: Option<(Placed, Placed)> = None;
    for square in reach & pos.by_color(victim) {
        let Some(role) = pos.role_at(square) else {
            continue;
        };
        if role == Role::Pawn {
            continue;
        }
        let through = attacks(pinner.role, side, pinner.square, occupied.without(square));
        let beyond = through & !reach & line(pinner.square, square) & occupied;
        let Some(back_square) = beyond.first() else {
            continue;
        };
        let Some(back_role) = pos.role_at(back_square) else {
            continue;
        };
        if !pos.by_color(victim).contains(back_square)
            || back_role == Role::Pawn
            || worth(role) == worth(back_role)
        {
            continue;
        }
        let found = (
            Placed { role, square },
            Placed {
                role: back_role,
                square: back_square,
            },
        );
        let value = worth(role).max(worth(back_role));
        if best.is_none_or(|(f, b)| worth(f.role).max(worth(b.role)) < value) {
            best = Some(found);
        }
    }
    best
}

/// The best move's line winning at least two pawns of material: the most valuable piece
/// it takes.
fn missed_win(position: &Position, best_line: &[Move]) -> Option<Reason> {
    let mover = position.turn();
    let &best = best_line.first()?;
    if line_gain(position, best_line, mover) < PATTERN_GAIN {
        return None;
    }
    Some(Reason::MissedWin {
        best,
        san: to_san(position, best),
        wins: won_piece(position, best_line)?,
    })
}

/// The piece the side to move in `start` wins along `line`: taken by it, not taken back on
/// the same square at once (that is a trade), and standing on its square from the start (not
/// one that moved there in the line); the most valuable such piece.
pub(super) fn won_piece(start: &Position, line: &[Move]) -> Option<Placed> {
    let mut positions = vec![*start];
    for &mv in line {
        let mut pos = *positions.last().unwrap_or(start);
        if !pos.is_legal(mv) {
            break;
        }
        pos.play_unchecked(mv);
        positions.push(pos);
    }
    let mut wins: Option<Placed> = None;
    for ply in (0..positions.len() - 1).step_by(2) {
        let (pos, mv) = (&positions[ply], line[ply]);
        let Some(role) = captured(pos, mv) else {
            continue;
        };
        let square = if mv.is_en_passant() {
            Square::from_coords(mv.to().file(), mv.from().rank())
        } else {
            mv.to()
        };
        let traded = line.get(ply + 1).is_some_and(|reply| {
            reply.to() == mv.to() && captured(&positions[ply + 1], *reply).is_some()
        });
        let moved_there = line[..ply]
            .iter()
            .skip(1)
            .step_by(2)
            .any(|m| m.to() == square);
        if !traded
            && !moved_there
            && wins.is_none_or(|w| material_value(w.role) < material_value(role))
        {
            wins = Some(Placed { role, square });
        }
    }
    wins
}
