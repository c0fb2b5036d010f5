//! Unpredictable numbers for pairing codes and game ids, without a crate: the kernel's
//! generator, or std's randomly keyed hasher where `/dev/urandom` cannot be read.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::io::Read;

/// 64 random bits.
pub fn random_u64() -> u64 {
    let mut bytes = [0u8; 8];
    if std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_ok()
    {
        return u64::from_le_bytes(bytes);
    }
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or_default(),
    );
    hasher.finish()
}

/// A 4-digit pairing code, `0000` to `9999`.
pub fn pairing_code() -> String {
    format!("{:04}", random_u64() % 10_000)
}

/// A game id: 32 hex digits, unguessable (it lets the partner resume without the code).
pub fn game_id() -> String {
    format!("{:016x}{:016x}", random_u64(), random_u64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_four_digits_and_ids_differ() {
        for _ in 0..100 {
            let c = pairing_code();
            assert_eq!(c.len(), 4);
            assert!(c.bytes().all(|b| b.is_ascii_digit()));
        }
        let a = game_id();
        assert_eq!(a.len(), 32);
        assert_ne!(a, game_id());
    }
}
