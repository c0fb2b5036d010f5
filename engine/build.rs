//! Finds magic multipliers for rook and bishop attacks and writes the lookup tables, so the
//! engine starts with them ready (no run-time initialisation, no checks on every lookup).
//! The search is seeded, so every build produces the same tables.

use std::fmt::Write as _;
use std::path::PathBuf;

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

/// Squares attacked from `sq` along `dirs`, stopping at (and including) the first blocker.
fn slide(sq: usize, occupied: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while on_board(f, r) {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
    }
    attacks
}

/// Relevant occupancy: the rays without their last square (a blocker there changes nothing).
fn relevant_mask(sq: usize, dirs: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while on_board(f + df, r + dr) {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
    }
    mask
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

fn find_magics(dirs: &[(i32, i32)], rng: &mut Rng, table: &mut Vec<u64>) -> Vec<Magic> {
    let mut magics = Vec::with_capacity(64);
    for sq in 0..64 {
        let mask = relevant_mask(sq, dirs);
        let bits = mask.count_ones();
        let size = 1usize << bits;
        // Every subset of the mask (carry-rippler enumeration) and its attack set.
        let mut occupancies = Vec::with_capacity(size);
        let mut subset = 0u64;
        loop {
            occupancies.push((subset, slide(sq, subset, dirs)));
            subset = subset.wrapping_sub(mask) & mask;
            if subset == 0 {
                break;
            }
        }
        let shift = 64 - bits;
        let mut slots = vec![0u64; size];
        let mut stamp = vec![0u32; size];
        let mut attempt = 0u32;
        let magic = loop {
            let candidate = rng.sparse();
            if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                continue;
            }
            attempt += 1;
            let ok = occupancies.iter().all(|&(occ, attacks)| {
                let i = (occ.wrapping_mul(candidate) >> shift) as usize;
                if stamp[i] != attempt {
                    stamp[i] = attempt;
                    slots[i] = attacks;
                    true
                } else {
                    slots[i] == attacks
                }
            });
            if ok {
                break candidate;
            }
        };
        let offset = table.len();
        table.resize(offset + size, 0);
        for &(occ, attacks) in &occupancies {
            table[offset + (occ.wrapping_mul(magic) >> shift) as usize] = attacks;
        }
        magics.push(Magic {
            mask,
            magic,
            shift,
            offset,
        });
    }
    magics
}

fn write_magics(out: &mut String, name: &str, magics: &[Magic]) {
    writeln!(out, "pub(crate) static {name}: [Magic; 64] = [").unwrap();
    for m in magics {
        writeln!(
            out,
            "    Magic {{ mask: {:#x}, magic: {:#x}, shift: {}, offset: {} }},",
            m.mask, m.magic, m.shift, m.offset
        )
        .unwrap();
    }
    writeln!(out, "];").unwrap();
}

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut table = Vec::new();
    let rook = find_magics(&ROOK_DIRS, &mut rng, &mut table);
    let bishop = find_magics(&BISHOP_DIRS, &mut rng, &mut table);

    let mut out = String::new();
    write_magics(&mut out, "ROOK_MAGICS", &rook);
    write_magics(&mut out, "BISHOP_MAGICS", &bishop);
    writeln!(
        out,
        "pub(crate) static SLIDER_ATTACKS: [u64; {}] = [",
        table.len()
    )
    .unwrap();
    for chunk in table.chunks(8) {
        let line: Vec<String> = chunk.iter().map(|a| format!("{a:#x}")).collect();
        writeln!(out, "    {},", line.join(", ")).unwrap();
    }
    writeln!(out, "];").unwrap();

    let path =
        PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("magics.rs");
    std::fs::write(path, out).expect("write magic tables");
}
