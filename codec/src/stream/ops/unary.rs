//! A unary count: `count` one-bits, then a zero-bit (the quotient of a
//! Golomb code).

use crate::error::DecodeError;
use crate::stream::Stream;

/// Whether a count of `count` steps of `unit` stays below `room`: the
/// bound a unary count must keep.
#[inline(always)]
#[must_use]
pub fn below(count: u32, unit: u32, room: u32) -> bool {
    u64::from(count).saturating_mul(u64::from(unit)) < u64::from(room)
}

/// `count` one-bits, then a zero-bit, where `count * unit` must stay below
/// `room`. The writer refuses a count that does not
/// ([`DecodeError::OutOfRange`], at the count's first bit); the reader
/// refuses as soon as the one-bit that breaks the bound is read, so a run
/// of ones is never read further than the bound allows, and leaves `count`
/// untouched when it refuses.
#[inline]
pub fn serialize_unary<S: Stream + ?Sized>(
    stream: &mut S,
    count: &mut u32,
    unit: u32,
    room: u32,
) -> Result<(), S::Error> {
    let at = stream.bit_offset();
    if S::IS_WRITING && !below(*count, unit, room) {
        return Err(stream.refuse(DecodeError::OutOfRange { at }));
    }
    let mut read = 0u32;
    loop {
        let mut one = read < *count;
        stream.serialize_bool(&mut one)?;
        if !one {
            break;
        }
        read = read.saturating_add(1);
        if S::IS_READING && !below(read, unit, room) {
            core::hint::cold_path();
            return Err(stream.refuse(DecodeError::OutOfRange { at }));
        }
    }
    *count = read;
    Ok(())
}
