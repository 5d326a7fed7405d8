//! Serialize checks: a 32-bit hash of a label, aligned, that a reader
//! compares to catch a desynchronized stream at a named place.

pub use crate::check_hash::check_hash;
use crate::error::DecodeError;
use crate::stream::Stream;

/// Aligns, then the 32-bit hash of `label`. The reader refuses a mismatch
/// with [`DecodeError::CheckMismatch`], naming the label and what it read.
/// Always inlined so that a constant label's hash folds at compile time:
/// left to itself the optimizer kept it out of line, hashing on every packet.
#[inline(always)]
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
