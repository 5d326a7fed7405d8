//! Values wider than 32 bits: 32-bit groups from the least significant end,
//! the remainder last. Ranged 64 and 128-bit integers and fixed point use it.

use crate::error::DecodeError;
use crate::stream::Stream;

/// The width of one group on the wire.
const GROUP_BITS: u32 = 32;

/// Bits needed for offsets up to a 128-bit `span`.
#[inline]
#[must_use]
pub const fn bits_for_span128(span: u128) -> u32 {
    u128::BITS.wrapping_sub(span.leading_zeros())
}

/// The low `bits` bits of `value` (`bits` in `0..=128`) as 32-bit groups,
/// lowest first. A reader assigns `value` only when every group was read.
///
/// Zero bits is one zero-bit group: the stream is consulted whatever the
/// width, so a failed reader refuses a zero-width field too.
pub fn serialize_groups<S: Stream + ?Sized>(
    stream: &mut S,
    value: &mut u128,
    bits: u32,
) -> Result<(), S::Error> {
    debug_assert!(bits <= u128::BITS);
    let bits = bits.min(u128::BITS);
    let mut assembled = 0u128;
    let mut shift = 0u32;
    // At most four groups, and one for zero bits.
    for _ in 0..bits.div_ceil(GROUP_BITS).max(1) {
        let width = bits.saturating_sub(shift).min(GROUP_BITS);
        let mask = u32::MAX
            .checked_shr(GROUP_BITS.saturating_sub(width))
            .unwrap_or(0);
        let mut group = (value.checked_shr(shift).unwrap_or(0) as u32) & mask;
        stream.serialize_bits(&mut group, width)?;
        assembled |= u128::from(group).checked_shl(shift).unwrap_or(0);
        shift = shift.saturating_add(width);
    }
    if S::IS_READING {
        *value = assembled;
    }
    Ok(())
}

/// The low `bits` bits of a `u64` (`bits` in `1..=64`).
#[inline(always)]
pub fn serialize_u64<S: Stream + ?Sized>(
    stream: &mut S,
    value: &mut u64,
    bits: u32,
) -> Result<(), S::Error> {
    debug_assert!((1..=64).contains(&bits));
    // The groups of `serialize_groups`, low then high, without its loop.
    let bits = bits.min(64);
    let low_bits = bits.min(GROUP_BITS);
    let high_bits = bits.saturating_sub(GROUP_BITS);
    let mask = |width: u32| {
        u32::MAX
            .checked_shr(GROUP_BITS.saturating_sub(width))
            .unwrap_or(0)
    };
    let mut low = (*value as u32) & mask(low_bits);
    let mut high = ((*value >> GROUP_BITS) as u32) & mask(high_bits);
    stream.serialize_bits(&mut low, low_bits)?;
    if high_bits > 0 {
        stream.serialize_bits(&mut high, high_bits)?;
    }
    if S::IS_READING {
        *value = u64::from(low) | u64::from(high).checked_shl(GROUP_BITS).unwrap_or(0);
    }
    Ok(())
}

/// `value` in `[min, max]` as the offset `value - min`, computed unsigned so
/// that no span can overflow, in `bits_for_span128(max - min)` bits.
pub fn serialize_ranged<S: Stream + ?Sized>(
    stream: &mut S,
    value: &mut i128,
    min: i128,
    max: i128,
) -> Result<(), S::Error> {
    debug_assert!(min <= max, "empty range");
    let at = stream.bit_offset();
    if S::IS_WRITING && !(min..=max).contains(value) {
        return Err(stream.refuse(DecodeError::OutOfRange { at }));
    }
    let base = min as u128;
    let span = (max as u128).wrapping_sub(base);
    let mut offset = (*value as u128).wrapping_sub(base);
    serialize_groups(stream, &mut offset, bits_for_span128(span))?;
    if S::IS_READING {
        if offset > span {
            core::hint::cold_path();
            return Err(stream.refuse(DecodeError::OutOfRange { at }));
        }
        *value = base.wrapping_add(offset) as i128;
    }
    Ok(())
}
