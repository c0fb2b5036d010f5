//! Zobrist keys, generated at compile time from a fixed seed (splitmix64).

use crate::types::{Color, Role, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

struct Keys {
    pieces: [[[u64; 64]; 6]; 2],
    castling: [u64; 16],
    ep_file: [u64; 8],
    black_to_move: u64,
}

static KEYS: Keys = {
    let mut state = 0x0C4E_5591_2026_0001u64;
    let mut pieces = [[[0u64; 64]; 6]; 2];
    let mut c = 0;
    while c < 2 {
        let mut r = 0;
        while r < 6 {
            let mut s = 0;
            while s < 64 {
                let (next, key) = splitmix(state);
                state = next;
                pieces[c][r][s] = key;
                s += 1;
            }
            r += 1;
        }
        c += 1;
    }
    // Castling keys are XORs of four independent keys, so updating per right is linear.
    let mut right_keys = [0u64; 4];
    let mut i = 0;
    while i < 4 {
        let (next, key) = splitmix(state);
        state = next;
        right_keys[i] = key;
        i += 1;
    }
    let mut castling = [0u64; 16];
    let mut mask = 0;
    while mask < 16 {
        let mut bit = 0;
        while bit < 4 {
            if mask & (1 << bit) != 0 {
                castling[mask] ^= right_keys[bit];
            }
            bit += 1;
        }
        mask += 1;
    }
    let mut ep_file = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        let (next, key) = splitmix(state);
        state = next;
        ep_file[f] = key;
        f += 1;
    }
    let (_, black_to_move) = splitmix(state);
    Keys {
        pieces,
        castling,
        ep_file,
        black_to_move,
    }
};

#[inline]
pub(crate) fn piece(color: Color, role: Role, sq: Square) -> u64 {
    KEYS.pieces[color as usize][role as usize][sq as usize]
}

#[inline]
pub(crate) fn castling(rights: u8) -> u64 {
    KEYS.castling[(rights & 15) as usize]
}

#[inline]
pub(crate) fn ep_file(sq: Square) -> u64 {
    KEYS.ep_file[sq.file() as usize]
}

#[inline]
pub(crate) fn black_to_move() -> u64 {
    KEYS.black_to_move
}
