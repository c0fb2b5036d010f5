//! Random but repeatable choices for the tests that explore many runs.

/// A small deterministic generator (xorshift), so a failing run can be repeated from its seed.
pub struct Rng(u64);

impl Rng {
    /// The generator started from `seed` (made odd: xorshift must not start at zero).
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}
