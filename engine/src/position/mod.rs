//! The position: piece placement, side to move, castling rights, en passant, move counters —
//! with legal move generation and making moves.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveKind, MoveList};
use crate::types::{Color, File, Piece, Rank, Role, Square};
use crate::zobrist;
use std::fmt;

mod setup;
pub use setup::{PositionError, Setup};

/// Castling rights as four bits: White king side, White queen side, Black king side, Black
/// queen side. Only standard chess: rooks start on the a and h files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CastlingRights(u8);

/// One of the two castling directions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    King,
    Queen,
}

impl CastlingSide {
    pub const ALL: [CastlingSide; 2] = [CastlingSide::King, CastlingSide::Queen];

    /// The king's destination file.
    pub const fn king_to_file(self) -> File {
        match self {
            CastlingSide::King => File::G,
            CastlingSide::Queen => File::C,
        }
    }

    /// The rook's starting and destination files.
    pub const fn rook_files(self) -> (File, File) {
        match self {
            CastlingSide::King => (File::H, File::F),
            CastlingSide::Queen => (File::A, File::D),
        }
    }
}

impl CastlingRights {
    pub const NONE: CastlingRights = CastlingRights(0);
    pub const ALL: CastlingRights = CastlingRights(15);

    const fn bit(color: Color, side: CastlingSide) -> u8 {
        1 << (color as u8 * 2 + side as u8)
    }

    #[inline]
    pub const fn has(self, color: Color, side: CastlingSide) -> bool {
        self.0 & Self::bit(color, side) != 0
    }

    #[inline]
    pub fn set(&mut self, color: Color, side: CastlingSide) {
        self.0 |= Self::bit(color, side);
    }

    #[inline]
    pub fn clear_color(&mut self, color: Color) {
        self.0 &= !(3 << (color as u8 * 2));
    }

    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub(crate) const fn bits(self) -> u8 {
        self.0
    }
}

/// Rights kept when a piece moves from or to each square (rook and king home squares).
static CASTLING_KEEP: [u8; 64] = {
    let mut keep = [15u8; 64];
    keep[Square::A1 as usize] = 15 & !CastlingRights::bit(Color::White, CastlingSide::Queen);
    keep[Square::H1 as usize] = 15 & !CastlingRights::bit(Color::White, CastlingSide::King);
    keep[Square::E1 as usize] = 15 & !3;
    keep[Square::A8 as usize] = 15 & !CastlingRights::bit(Color::Black, CastlingSide::Queen);
    keep[Square::H8 as usize] = 15 & !CastlingRights::bit(Color::Black, CastlingSide::King);
    keep[Square::E8 as usize] = 15 & !12;
    keep
};

/// Every target square of one piece, as a set; expanded into moves or just counted.
#[derive(Debug, Clone, Copy)]
pub(crate) struct MoveSet {
    pub role: Role,
    pub from: Square,
    pub to: Bitboard,
}

const BACK_RANKS: Bitboard = Bitboard(0xFF00_0000_0000_00FF);

impl MoveSet {
    /// Number of moves in the set (a pawn reaching the last rank counts once per promotion).
    #[inline]
    pub fn len(&self) -> usize {
        let n = self.to.count() as usize;
        // A pawn's moves either all promote (from the seventh rank) or none do.
        if self.role == Role::Pawn && (self.to & BACK_RANKS).nonempty() {
            4 * n
        } else {
            n
        }
    }
}

/// A legal chess position. Built from the start position, from a [`Setup`] checked by
/// [`Position::from_setup`] (which FEN reading goes through), or by playing legal moves; it
/// cannot describe an impossible board. The constructors from notation (`startpos`,
/// `from_fen`), `to_fen`, `Debug` and `Default` live in [`crate::fen`]: notation is a layer
/// above the position, which knows nothing of it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    roles: [Bitboard; 6],
    colors: [Bitboard; 2],
    turn: Color,
    castling: CastlingRights,
    /// Set only when an en passant capture is legal, so equal positions compare and hash equal.
    ep_square: Option<Square>,
    halfmove_clock: u32,
    fullmove_number: u32,
    hash: u64,
    checkers: Bitboard,
}

/// Error for a move that is not legal in the position it is played in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMoveError {
    pub mv: Move,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {} in this position", self.mv)
    }
}

impl std::error::Error for IllegalMoveError {}

impl Position {
    #[inline]
    fn put(&mut self, color: Color, role: Role, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.roles[role as usize] ^= b;
        self.colors[color as usize] ^= b;
        self.hash ^= zobrist::piece(color, role, sq);
    }

    // ----- accessors -----

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    pub fn castling_rights(&self) -> CastlingRights {
        self.castling
    }

    /// The en passant square, present only when an en passant capture is legal.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move (the 50-move rule counter).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove_clock
    }

    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove_number
    }

    /// Zobrist hash of placement, side to move, castling rights and a legal en passant file.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors[0] | self.colors[1]
    }

    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.colors[color as usize]
    }

    #[inline]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.roles[role as usize]
    }

    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.colors[color as usize] & self.roles[role as usize]
    }

    #[inline]
    fn us(&self) -> Bitboard {
        self.colors[self.turn as usize]
    }

    #[inline]
    fn them(&self) -> Bitboard {
        self.colors[!self.turn as usize]
    }

    /// The role on a square, if any.
    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied().contains(sq) {
            return None;
        }
        Role::ALL
            .into_iter()
            .find(|&r| self.roles[r as usize].contains(sq))
    }

    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let role = self.role_at(sq)?;
        let color = if self.colors[0].contains(sq) {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, role })
    }

    /// The square of `color`'s king.
    #[inline]
    pub fn king_of(&self, color: Color) -> Square {
        self.pieces(color, Role::King).lsb_unchecked()
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.nonempty()
    }

    /// All pieces of both colours attacking `sq`, given an occupancy.
    #[inline]
    pub fn attackers_to(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let diag = self.roles[Role::Bishop as usize] | self.roles[Role::Queen as usize];
        let orth = self.roles[Role::Rook as usize] | self.roles[Role::Queen as usize];
        (pawn_attacks(Color::White, sq) & self.pieces(Color::Black, Role::Pawn))
            | (pawn_attacks(Color::Black, sq) & self.pieces(Color::White, Role::Pawn))
            | (knight_attacks(sq) & self.roles[Role::Knight as usize])
            | (king_attacks(sq) & self.roles[Role::King as usize])
            | (bishop_attacks(sq, occupied) & diag)
            | (rook_attacks(sq, occupied) & orth)
    }

    /// Whether `by` attacks `sq` with the given occupancy. Cheapest tests first, stopping at
    /// the first attacker found (this runs for every king move in move generation).
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let theirs = self.colors[by as usize];
        let queens = self.roles[Role::Queen as usize];
        ((knight_attacks(sq) & self.roles[Role::Knight as usize] & theirs).nonempty())
            || ((pawn_attacks(!by, sq) & self.roles[Role::Pawn as usize] & theirs).nonempty())
            || ((king_attacks(sq) & self.roles[Role::King as usize] & theirs).nonempty())
            || ((bishop_attacks(sq, occupied)
                & (self.roles[Role::Bishop as usize] | queens)
                & theirs)
                .nonempty())
            || ((rook_attacks(sq, occupied) & (self.roles[Role::Rook as usize] | queens) & theirs)
                .nonempty())
    }

    /// Pieces of `by` giving check to the other king (kings never give check).
    #[inline]
    fn checkers_by(&self, by: Color) -> Bitboard {
        let king = self.king_of(!by);
        let occ = self.occupied();
        let queens = self.roles[Role::Queen as usize];
        ((pawn_attacks(!by, king) & self.roles[Role::Pawn as usize])
            | (knight_attacks(king) & self.roles[Role::Knight as usize])
            | (bishop_attacks(king, occ) & (self.roles[Role::Bishop as usize] | queens))
            | (rook_attacks(king, occ) & (self.roles[Role::Rook as usize] | queens)))
            & self.colors[by as usize]
    }

    /// Pieces of the side to move pinned to their king.
    pub fn pinned(&self) -> Bitboard {
        let king = self.king_of(self.turn);
        let them = self.them();
        let snipers = ((rook_attacks(king, Bitboard::EMPTY)
            & (self.roles[Role::Rook as usize] | self.roles[Role::Queen as usize]))
            | (bishop_attacks(king, Bitboard::EMPTY)
                & (self.roles[Role::Bishop as usize] | self.roles[Role::Queen as usize])))
            & them;
        let occ = self.occupied();
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occ;
            if !blockers.more_than_one() {
                pinned |= blockers & self.us();
            }
        }
        pinned
    }

    // ----- move generation -----

    /// Calls `visit` with the targets of every piece of the side to move that has a legal
    /// move. Stops early, returning `true`, when `visit` returns `true`.
    #[inline]
    pub(crate) fn for_each_move_set(&self, mut visit: impl FnMut(MoveSet) -> bool) -> bool {
        let us = self.turn;
        let our = self.us();
        let their = self.them();
        let occ = self.occupied();
        let king = self.king_of(us);

        // King moves: never onto an attacked square (seen through the king itself).
        let occ_without_king = occ.without(king);
        let mut king_to = Bitboard::EMPTY;
        for to in king_attacks(king) & !our {
            if !self.is_attacked(to, !us, occ_without_king) {
                king_to = king_to.with(to);
            }
        }
        if king_to.nonempty()
            && visit(MoveSet {
                role: Role::King,
                from: king,
                to: king_to,
            })
        {
            return true;
        }

        let checkers = self.checkers;
        if checkers.more_than_one() {
            return false;
        }
        // Squares that resolve a single check: capture the checker or block its ray.
        let target = match checkers.first() {
            Some(checker) => between(king, checker).with(checker),
            None => Bitboard::FULL,
        };
        let pinned = self.pinned();
        let movable = !our & target;

        for from in self.pieces(us, Role::Knight) & !pinned {
            let to = knight_attacks(from) & movable;
            if to.nonempty()
                && visit(MoveSet {
                    role: Role::Knight,
                    from,
                    to,
                })
            {
                return true;
            }
        }
        let queens = self.roles[Role::Queen as usize];
        for from in (self.roles[Role::Bishop as usize] | queens) & our {
            let mut to = bishop_attacks(from, occ) & movable;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            if to.nonempty() {
                let role = if queens.contains(from) {
                    Role::Queen
                } else {
                    Role::Bishop
                };
                if visit(MoveSet { role, from, to }) {
                    return true;
                }
            }
        }
        for from in (self.roles[Role::Rook as usize] | queens) & our {
            let mut to = rook_attacks(from, occ) & movable;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            if to.nonempty() {
                let role = if queens.contains(from) {
                    Role::Queen
                } else {
                    Role::Rook
                };
                if visit(MoveSet { role, from, to }) {
                    return true;
                }
            }
        }

        let empty = !occ;
        let third_rank = Bitboard::rank(Rank::Third.relative_to(us));
        for from in self.pieces(us, Role::Pawn) {
            let from_bb = Bitboard::from_square(from);
            let (single, double) = match us {
                Color::White => {
                    let s = from_bb.shift_up() & empty;
                    (s, (s & third_rank).shift_up() & empty)
                }
                Color::Black => {
                    let s = from_bb.shift_down() & empty;
                    (s, (s & third_rank).shift_down() & empty)
                }
            };
            let mut to = ((single | double) | (pawn_attacks(us, from) & their)) & target;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            if let Some(ep) = self.ep_square
                && pawn_attacks(us, from).contains(ep)
                && self.ep_capture_is_legal(from, ep)
            {
                to = to.with(ep);
            }
            if to.nonempty()
                && visit(MoveSet {
                    role: Role::Pawn,
                    from,
                    to,
                })
            {
                return true;
            }
        }

        if checkers.is_empty() {
            for side in CastlingSide::ALL {
                if let Some(to) = self.castling_target(side, occ)
                    && visit(MoveSet {
                        role: Role::King,
                        from: king,
                        to: Bitboard::from_square(to),
                    })
                {
                    return true;
                }
            }
        }
        false
    }

    /// The king's destination if castling to `side` is legal now (not in check assumed).
    fn castling_target(&self, side: CastlingSide, occ: Bitboard) -> Option<Square> {
        let us = self.turn;
        if !self.castling.has(us, side) {
            return None;
        }
        let rank = us.back_rank();
        let king = Square::from_coords(File::E, rank);
        let rook = Square::from_coords(side.rook_files().0, rank);
        let to = Square::from_coords(side.king_to_file(), rank);
        if (between(king, rook) & occ).nonempty() {
            return None;
        }
        // The king may not pass through or land on an attacked square.
        let path = between(king, to).with(to);
        if path.into_iter().any(|sq| self.is_attacked(sq, !us, occ)) {
            return None;
        }
        Some(to)
    }

    /// Whether the pawn on `from` may capture en passant on `ep` without exposing its king
    /// (covers the pin along the rank, where two pawns leave it at once).
    fn ep_capture_is_legal(&self, from: Square, ep: Square) -> bool {
        let us = self.turn;
        let captured = Square::from_coords(ep.file(), from.rank());
        let occ = self.occupied().without(from).without(captured).with(ep);
        let king = self.king_of(us);
        let attackers =
            self.attackers_to(king, occ) & self.them() & !Bitboard::from_square(captured);
        attackers.is_empty()
    }

    /// Keeps `ep` as the en passant square if some pawn of the side to move can legally
    /// capture there; otherwise no en passant square. Updates the hash.
    fn set_ep_if_capturable(&mut self, ep: Square) {
        let capturers = pawn_attacks(!self.turn, ep) & self.pieces(self.turn, Role::Pawn);
        if capturers.is_empty() {
            return;
        }
        let legal = capturers
            .into_iter()
            .any(|from| self.ep_capture_is_legal(from, ep));
        if legal {
            self.ep_square = Some(ep);
            self.hash ^= zobrist::ep_file(ep);
        }
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_move_set(|set| {
            self.expand(set, &mut list);
            false
        });
        list
    }

    /// Turns a move set into moves, with promotions, castling and en passant marked.
    #[inline]
    fn expand(&self, set: MoveSet, list: &mut MoveList) {
        self.expand_into(set, &mut |mv| list.push(mv));
    }

    #[inline]
    fn expand_into(&self, set: MoveSet, emit: &mut impl FnMut(Move)) {
        match set.role {
            Role::Pawn => {
                if (set.to & BACK_RANKS).nonempty() {
                    for to in set.to {
                        for role in Role::PROMOTIONS {
                            emit(Move::new(set.from, to, MoveKind::Promotion(role)));
                        }
                    }
                    return;
                }
                for to in set.to {
                    if Some(to) == self.ep_square && set.from.file() != to.file() {
                        emit(Move::new(set.from, to, MoveKind::EnPassant));
                    } else {
                        emit(Move::normal(set.from, to));
                    }
                }
            }
            Role::King => {
                for to in set.to {
                    let distance = (to.file() as i32 - set.from.file() as i32).abs();
                    if distance == 2 {
                        emit(Move::new(set.from, to, MoveKind::Castle));
                    } else {
                        emit(Move::normal(set.from, to));
                    }
                }
            }
            _ => {
                for to in set.to {
                    emit(Move::normal(set.from, to));
                }
            }
        }
    }

    /// Calls `visit` with every legal move, without building a list.
    #[inline]
    pub fn for_each_legal_move(&self, mut visit: impl FnMut(Move)) {
        self.for_each_move_set(|set| {
            self.expand_into(set, &mut visit);
            false
        });
    }

    /// Number of legal moves, without listing them.
    pub fn count_legal_moves(&self) -> usize {
        let mut n = 0;
        self.for_each_move_set(|set| {
            n += set.len();
            false
        });
        n
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        self.for_each_move_set(|_| true)
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut found = false;
        self.for_each_move_set(|set| {
            if set.from == mv.from() && set.to.contains(mv.to()) {
                let mut list = MoveList::new();
                self.expand(
                    MoveSet {
                        to: Bitboard::from_square(mv.to()),
                        ..set
                    },
                    &mut list,
                );
                found = list.contains(mv);
                return true;
            }
            false
        });
        found
    }

    /// Legal moves that capture something (en passant included), or promote.
    pub fn is_capture(&self, mv: Move) -> bool {
        mv.is_en_passant() || (self.them().contains(mv.to()) && !mv.is_castle())
    }

    /// Checkmate: in check with no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Stalemate: not in check and no legal move.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// Neither side can ever checkmate: K v K, K+minor v K, or only bishops all on squares of
    /// one colour (besides kings).
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.roles[Role::Pawn as usize]
            | self.roles[Role::Rook as usize]
            | self.roles[Role::Queen as usize];
        if heavy.nonempty() {
            return false;
        }
        let knights = self.roles[Role::Knight as usize];
        let bishops = self.roles[Role::Bishop as usize];
        let minors = knights | bishops;
        if minors.count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty()
                || (bishops & Bitboard::DARK_SQUARES).is_empty())
    }

    // ----- making moves -----

    /// Plays a legal move, returning the new position.
    ///
    /// # Errors
    /// [`IllegalMoveError`] if `mv` is not legal here.
    pub fn play(&self, mv: Move) -> Result<Position, IllegalMoveError> {
        if !self.is_legal(mv) {
            return Err(IllegalMoveError { mv });
        }
        let mut next = *self;
        next.play_unchecked(mv);
        Ok(next)
    }

    /// Plays `mv`, which must be legal here (taken from [`Position::legal_moves`] of this
    /// position). An illegal move leaves the position in an unspecified, possibly impossible
    /// state; nothing unsafe happens.
    pub fn play_unchecked(&mut self, mv: Move) {
        let us = self.turn;
        let them = !us;
        let from = mv.from();
        let to = mv.to();
        let role = self.role_at(from).unwrap_or(Role::Pawn);

        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::ep_file(ep);
        }
        self.hash ^= zobrist::castling(self.castling.bits());
        self.halfmove_clock += 1;

        let mut double_push = None;
        match mv.kind() {
            MoveKind::Normal => {
                if let Some(captured) = self.role_at(to) {
                    self.put(them, captured, to);
                    self.halfmove_clock = 0;
                }
                self.put(us, role, from);
                self.put(us, role, to);
                if role == Role::Pawn {
                    self.halfmove_clock = 0;
                    if from.index().abs_diff(to.index()) == 16 {
                        double_push = Square::new((from.index() + to.index()) / 2);
                    }
                }
            }
            MoveKind::Promotion(promoted) => {
                if let Some(captured) = self.role_at(to) {
                    self.put(them, captured, to);
                }
                self.put(us, Role::Pawn, from);
                self.put(us, promoted, to);
                self.halfmove_clock = 0;
            }
            MoveKind::EnPassant => {
                let captured = Square::from_coords(to.file(), from.rank());
                self.put(them, Role::Pawn, captured);
                self.put(us, Role::Pawn, from);
                self.put(us, Role::Pawn, to);
                self.halfmove_clock = 0;
            }
            MoveKind::Castle => {
                let side = if to.file() == File::G {
                    CastlingSide::King
                } else {
                    CastlingSide::Queen
                };
                let (rook_from, rook_to) = side.rook_files();
                let rank = from.rank();
                self.put(us, Role::King, from);
                self.put(us, Role::King, to);
                self.put(us, Role::Rook, Square::from_coords(rook_from, rank));
                self.put(us, Role::Rook, Square::from_coords(rook_to, rank));
            }
        }

        self.castling = CastlingRights(
            self.castling.0 & CASTLING_KEEP[from as usize] & CASTLING_KEEP[to as usize],
        );
        self.hash ^= zobrist::castling(self.castling.bits());
        if us == Color::Black {
            self.fullmove_number += 1;
        }
        self.turn = them;
        self.hash ^= zobrist::black_to_move();
        self.checkers =
            self.attackers_to(self.king_of(them), self.occupied()) & self.colors[us as usize];
        if let Some(ep) = double_push {
            self.set_ep_if_capturable(ep);
        }
    }

    /// Passes the move to the other side (for null-move search). Not legal in check.
    pub fn play_null(&mut self) {
        if let Some(ep) = self.ep_square.take() {
            self.hash ^= zobrist::ep_file(ep);
        }
        self.halfmove_clock += 1;
        if self.turn == Color::Black {
            self.fullmove_number += 1;
        }
        self.turn = !self.turn;
        self.hash ^= zobrist::black_to_move();
        self.checkers = self.checkers_by(!self.turn);
    }

    /// Same placement, side to move, castling rights and en passant possibility — the FIDE
    /// sense of "the same position" for repetitions (move counters are ignored).
    pub fn is_same_position(&self, other: &Position) -> bool {
        self.roles == other.roles
            && self.colors == other.colors
            && self.turn == other.turn
            && self.castling == other.castling
            && self.ep_square == other.ep_square
    }

    /// Whether `color` can never checkmate, whatever both sides play (FIDE 6.9: the opponent's
    /// flag then falls to a draw). A lone king; a knight and king when the opponent has only
    /// its king and queens (nothing that could block its own king's flight); bishops alone
    /// when every bishop on the board stands on one colour and the opponent has no pawn or
    /// knight. The same test as python-chess's `has_insufficient_material`: a helpmate
    /// possible (king and bishop against king and knight) is a win on time.
    pub fn cannot_mate(&self, color: Color) -> bool {
        let own = self.colors[color as usize];
        let theirs = self.colors[!color as usize];
        let role = |r: Role| self.roles[r as usize];
        if (own & (role(Role::Pawn) | role(Role::Rook) | role(Role::Queen))).nonempty() {
            return false;
        }
        if (own & role(Role::Knight)).nonempty() {
            let blockers = theirs & !role(Role::King) & !role(Role::Queen);
            return own.count() <= 2 && blockers.is_empty();
        }
        let bishops = role(Role::Bishop);
        if (own & bishops).nonempty() {
            let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
            return one_colour && (role(Role::Pawn) | role(Role::Knight)).is_empty();
        }
        true
    }

    /// Recomputes the hash from scratch (tests check the incremental one against it).
    pub fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                hash ^= zobrist::piece(p.color, p.role, sq);
            }
        }
        hash ^= zobrist::castling(self.castling.bits());
        if let Some(ep) = self.ep_square {
            hash ^= zobrist::ep_file(ep);
        }
        if self.turn == Color::Black {
            hash ^= zobrist::black_to_move();
        }
        hash
    }
}
