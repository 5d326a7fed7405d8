//! Serialize checks: a 32-bit hash of a label, aligned, that a reader
//! compares to catch a desynchronized stream at a named place.

use crate::error::DecodeError;
use crate::stream::Stream;

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

/// Aligns, then the 32-bit hash of `label`. The reader refuses a mismatch
/// with [`DecodeError::CheckMismatch`], naming the label and what it read.
/// Inlined so that a constant label's hash is folded at compile time: the
/// hash loop was a third of a small packet's encode and decode (perf, the
/// peers benchmark's packet A).
#[inline]
pub fn serialize_check<S: Stream + ?Sized>(
    stream: &mut S,
    label: &'static str,
) -> Result<(), S::Error> {
    stream.serialize_align()?;
    let at = stream.bit_offset();
    let expected = check_hash(label);
    let mut found = expected;
    stream.serialize_bits(&mut found, 32)?;
    if S::IS_READING && found != expected {
        core::hint::cold_path();
        return Err(stream.refuse(DecodeError::CheckMismatch { at, label, found }));
    }
    Ok(())
}
