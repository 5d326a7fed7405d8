//! Serialize checks: a 32-bit hash of a label, aligned, that a reader
//! compares to catch a desynchronized stream at a named place.

pub use crate::check_hash::check_hash;
use crate::error::DecodeError;
use crate::stream::Stream;

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
