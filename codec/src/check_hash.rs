//! The hash a serialize check sends: a leaf, so that the check and the
//! error that reports a mismatch both name it without importing each other.

/// The check value of `label`: for each byte, upper-cased when it is `a-z`,
/// `h += c; h += h << 10; h ^= h >> 6` in wrapping `u32` arithmetic, with no
/// final mix. `check_hash("end of packet") == 0x9908ACE2`.
#[must_use]
#[inline]
pub const fn check_hash(label: &str) -> u32 {
    let mut rest = label.as_bytes();
    let mut hash = 0u32;
    while let [byte, tail @ ..] = rest {
        hash = hash.wrapping_add(byte.to_ascii_uppercase() as u32);
        hash = hash.wrapping_add(hash.wrapping_shl(10));
        hash ^= hash >> 6;
        rest = tail;
    }
    hash
}
