//! Ranged integers up to 32 bits, and the width rule they share.

use crate::error::DecodeError;
use crate::stream::Stream;

/// Bits needed for offsets up to `span`: 0 for a span of 0, else the bit
/// length of `span`.
#[inline]
#[must_use]
pub const fn bits_for_span(span: u32) -> u32 {
    u32::BITS.wrapping_sub(span.leading_zeros())
}

/// Bits a ranged `int(min, max)` costs: 0 when `min == max`, else the bit
/// length of `max - min` taken unsigned (the full `i32` range costs 32 bits,
/// `[0, 7]` costs 3, `[0, 8]` costs 4). Usable in constants, so a protocol can
/// size its fields at compile time.
#[inline]
#[must_use]
pub const fn bits_required(min: i32, max: i32) -> u32 {
    bits_for_span((max as u32).wrapping_sub(min as u32))
}

/// An offset in `[0, max_offset]` in `bits_for_span(max_offset)` bits. The
/// writer refuses an offset above `max_offset`, and so does the reader,
/// which leaves `offset` untouched when it refuses.
#[inline(always)]
pub fn serialize_offset<S: Stream + ?Sized>(
    stream: &mut S,
    offset: &mut u32,
    max_offset: u32,
) -> Result<(), S::Error> {
    let at = stream.bit_offset();
    if S::IS_WRITING && *offset > max_offset {
        return Err(stream.refuse(DecodeError::OutOfRange { at }));
    }
    let mut wire = *offset;
    stream.serialize_bits(&mut wire, bits_for_span(max_offset))?;
    if S::IS_READING {
        if wire > max_offset {
            // Laid out of the way: an accepted field then falls through to
            // the next instead of taking a branch around its refusal.
            core::hint::cold_path();
            return Err(stream.refuse(DecodeError::OutOfRange { at }));
        }
        *offset = wire;
    }
    Ok(())
}

/// `value` in `[min, max]` as the offset `value - min`.
#[inline(always)]
pub fn serialize_int<S: Stream + ?Sized>(
    stream: &mut S,
    value: &mut i32,
    min: i32,
    max: i32,
) -> Result<(), S::Error> {
    debug_assert!(min <= max, "empty range");
    let at = stream.bit_offset();
    if S::IS_WRITING && !(min..=max).contains(value) {
        return Err(stream.refuse(DecodeError::OutOfRange { at }));
    }
    let base = min as u32;
    let mut offset = (*value as u32).wrapping_sub(base);
    serialize_offset(stream, &mut offset, (max as u32).wrapping_sub(base))?;
    if S::IS_READING {
        *value = base.wrapping_add(offset) as i32;
    }
    Ok(())
}
