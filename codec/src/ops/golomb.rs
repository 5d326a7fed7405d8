//! A Golomb code of a positive gap with parameter `m` (scene E's index
//! gaps): `gap - 1` as a unary quotient, then its remainder in truncated
//! binary. `crate::subset::golomb` documents the code.

use super::int::bits_for_span;
use crate::error::DecodeError;
use crate::stream::Stream;

/// The truncated binary of a remainder below `m` (at least 2): `b` with
/// `2^(b-1) < m <= 2^b`; remainders below `short` take `b - 1` bits, the
/// others `b`.
#[inline(always)]
#[must_use]
pub fn truncated_binary(m: u32) -> (u32, u32) {
    let b = bits_for_span(m.wrapping_sub(1));
    (b, (1u32 << (b & 31)).wrapping_sub(m))
}

/// `gap` (in `1..=room`) as the Golomb code of `gap - 1` with parameter
/// `m` (0 counts as 1). Both sides refuse a gap outside `1..=room`
/// ([`DecodeError::OutOfRange`], at the code's first bit): the reader as
/// soon as the quotient alone passes `room`, then once the remainder does.
/// A refused read leaves `gap` untouched.
#[inline]
pub fn serialize_golomb<S: Stream + ?Sized>(
    stream: &mut S,
    gap: &mut u32,
    m: u32,
    room: u32,
) -> Result<(), S::Error> {
    let at = stream.bit_offset();
    let m = m.max(1);
    if S::IS_WRITING && !(1..=room).contains(gap) {
        return Err(stream.refuse(DecodeError::OutOfRange { at }));
    }
    // A reader has no gap to divide yet.
    let (mut quotient, mut remainder) = if S::IS_WRITING {
        let v = gap.saturating_sub(1);
        (v.checked_div(m).unwrap_or(0), v.checked_rem(m).unwrap_or(0))
    } else {
        (0, 0)
    };
    stream.serialize_unary(&mut quotient, m, room)?;
    if m > 1 {
        let (b, short) = truncated_binary(m);
        let mut high = if remainder < short {
            remainder
        } else {
            remainder.wrapping_add(short) >> 1
        };
        stream.serialize_bits(&mut high, b.wrapping_sub(1))?;
        if high >= short {
            let mut low = remainder.wrapping_add(short) & 1;
            stream.serialize_bits(&mut low, 1)?;
            remainder = ((high << 1) | low).wrapping_sub(short);
        } else {
            remainder = high;
        }
    }
    if S::IS_READING {
        let read = quotient
            .saturating_mul(m)
            .saturating_add(remainder)
            .saturating_add(1);
        if read > room {
            core::hint::cold_path();
            return Err(stream.refuse(DecodeError::OutOfRange { at }));
        }
        *gap = read;
    }
    Ok(())
}
