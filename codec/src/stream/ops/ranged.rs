//! Ranged integers and raw bit fields of every integer width, for code that
//! is generic over the field's type (the derive, and hand-written code that
//! wants one call for `u8` and `i64` alike).
//!
//! The wire form is the format's: a ranged value travels as its offset above
//! `min` in `bits_required(min, max)` bits, as 32-bit groups from the bottom
//! when wider than 32 bits. A type up to 32 bits wide goes through the same
//! offset code as [`Stream::serialize_int`], so an `i8 in [-10, 10]` and an
//! `i32 in [-10, 10]` write the same bits.

use crate::error::DecodeError;
use crate::stream::ops::wide;
use crate::stream::Stream;

/// An integer type that can travel as a ranged integer.
#[diagnostic::on_unimplemented(
    message = "`range = min..=max` declares an integer, and `{Self}` is not one",
    label = "`range` needs an integer field (i8 to i128, u8 to u128)",
    note = "strings and lists take `max_len = N`; floats take `compressed(min = .., max = .., res = ..)`"
)]
pub trait Ranged: Copy {
    /// `value` in `[min, max]`. A writer refuses a value outside the range
    /// and a reader an offset above `max - min`, both as
    /// [`DecodeError::OutOfRange`]; a refused read leaves `value` untouched.
    fn serialize_ranged<S: Stream + ?Sized>(
        stream: &mut S,
        value: &mut Self,
        min: Self,
        max: Self,
    ) -> Result<(), S::Error>;
}

/// An unsigned integer type that can travel as its low `bits` bits.
#[diagnostic::on_unimplemented(
    message = "`bits = N` declares an unsigned integer, and `{Self}` is not one",
    label = "`bits` needs a u8, u16, u32 or u64 field",
    note = "signed integers take `range = min..=max`"
)]
pub trait RawBits: Copy {
    /// The type's width: the most bits a declaration may give it.
    const WIDTH: u32;

    /// The low `bits` bits of `value` (`bits` in `1..=WIDTH`). A writer
    /// refuses a value with a set bit above them
    /// ([`DecodeError::OutOfRange`]): the reader could never return it.
    fn serialize_raw<S: Stream + ?Sized>(
        stream: &mut S,
        value: &mut Self,
        bits: u32,
    ) -> Result<(), S::Error>;
}

/// `value` converted to a carrier that holds `[min, max]`. On a writer, a
/// value the carrier cannot hold lies outside the range and is refused
/// here; one it holds is range-checked by the carrier's own operation, so
/// the check is made once. A reader's old value does not matter: it starts
/// from `min`.
#[inline]
fn carried<S: Stream + ?Sized, C: Copy, T: TryInto<C>>(
    stream: &mut S,
    value: T,
    min: C,
) -> Result<C, S::Error> {
    match value.try_into() {
        Ok(wide) => Ok(wide),
        Err(_) if S::IS_WRITING => {
            let at = stream.bit_offset();
            Err(stream.refuse(DecodeError::OutOfRange { at }))
        }
        Err(_) => Ok(min),
    }
}

/// Every type goes through the stream's own ranged operation for the
/// narrowest carrier that holds its range (`int` for ranges inside `i32`,
/// then `int64`, then `int128`), so streams that record what passes
/// through them (the harness's field maps) see a ranged field with its
/// bounds, and the carrier's operation is the one range check. The
/// reader's conversion back is exact, since the carrier refused anything
/// outside `[min, max]`.
macro_rules! ranged {
    ($($t:ty),*) => {$(
        impl Ranged for $t {
            // For the narrow types the conversion to a carrier cannot fail.
            // Always: with constant bounds two of the three ways fold away,
            // and a caller's inlining budget must not leave it out of line.
            #[allow(irrefutable_let_patterns)]
            #[inline(always)]
            fn serialize_ranged<S: Stream + ?Sized>(
                stream: &mut S,
                value: &mut Self,
                min: Self,
                max: Self,
            ) -> Result<(), S::Error> {
                debug_assert!(min <= max, "empty range");
                if let (Ok(lo), Ok(hi)) = (i32::try_from(min), i32::try_from(max)) {
                    let mut wide = carried(stream, *value, lo)?;
                    stream.serialize_int(&mut wide, lo, hi)?;
                    if S::IS_READING {
                        *value = <$t>::try_from(wide).unwrap_or(min);
                    }
                } else if let (Ok(lo), Ok(hi)) = (i64::try_from(min), i64::try_from(max)) {
                    let mut wide = carried(stream, *value, lo)?;
                    stream.serialize_int64(&mut wide, lo, hi)?;
                    if S::IS_READING {
                        *value = <$t>::try_from(wide).unwrap_or(min);
                    }
                } else {
                    serialize_wide(stream, value, min, max)?;
                }
                Ok(())
            }
        }
    )*};
}
ranged!(i8, i16, i32, u8, u16, u32, i64, u64, i128, u128);

/// Ranges beyond `i64`: through `int128` when they fit `i128`, else (a
/// `u128` range above `i128::MAX`) as an unsigned offset in the same
/// 32-bit groups.
#[inline]
fn serialize_wide<S: Stream + ?Sized, T>(
    stream: &mut S,
    value: &mut T,
    min: T,
    max: T,
) -> Result<(), S::Error>
where
    T: Copy + TryFrom<i128> + TryInto<i128> + TryInto<u128> + TryFrom<u128>,
{
    if let (Ok(lo), Ok(hi)) = (min.try_into(), max.try_into()) {
        let mut wide: i128 = carried(stream, *value, lo)?;
        stream.serialize_int128(&mut wide, lo, hi)?;
        if S::IS_READING {
            *value = T::try_from(wide).unwrap_or(min);
        }
        return Ok(());
    }
    let at = stream.bit_offset();
    let unsigned = |v: T| -> u128 { v.try_into().unwrap_or(0) };
    let (base, span) = (unsigned(min), unsigned(max).wrapping_sub(unsigned(min)));
    let mut offset = unsigned(*value).wrapping_sub(base);
    // Unsigned, a value below `min` wraps to an offset above `span`.
    if S::IS_WRITING && offset > span {
        return Err(stream.refuse(DecodeError::OutOfRange { at }));
    }
    wide::serialize_groups(stream, &mut offset, wide::bits_for_span128(span))?;
    if S::IS_READING {
        if offset > span {
            core::hint::cold_path();
            return Err(stream.refuse(DecodeError::OutOfRange { at }));
        }
        *value = T::try_from(base.wrapping_add(offset)).unwrap_or(min);
    }
    Ok(())
}

/// Refuses, on a writer, a value with a set bit at or above `bits`.
#[inline]
fn check_fits<S: Stream + ?Sized>(stream: &mut S, value: u64, bits: u32) -> Result<(), S::Error> {
    if S::IS_WRITING && value.checked_shr(bits).unwrap_or(0) != 0 {
        let at = stream.bit_offset();
        return Err(stream.refuse(DecodeError::OutOfRange { at }));
    }
    Ok(())
}

macro_rules! raw {
    ($($t:ty),*) => {$(
        impl RawBits for $t {
            const WIDTH: u32 = <$t>::BITS;

            #[inline]
            fn serialize_raw<S: Stream + ?Sized>(
                stream: &mut S,
                value: &mut Self,
                bits: u32,
            ) -> Result<(), S::Error> {
                debug_assert!((1..=Self::WIDTH).contains(&bits));
                check_fits(stream, u64::from(*value), bits)?;
                let mut wire = u32::from(*value);
                stream.serialize_bits(&mut wire, bits)?;
                if S::IS_READING {
                    // At most `bits <= WIDTH` bits were read.
                    *value = wire as $t;
                }
                Ok(())
            }
        }
    )*};
}
raw!(u8, u16, u32);

impl RawBits for u64 {
    const WIDTH: u32 = u64::BITS;

    #[inline]
    fn serialize_raw<S: Stream + ?Sized>(
        stream: &mut S,
        value: &mut Self,
        bits: u32,
    ) -> Result<(), S::Error> {
        check_fits(stream, *value, bits)?;
        wide::serialize_u64(stream, value, bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::ReadStream;

    /// A reader's old value does not matter, even one its range's carrier
    /// cannot hold: it reads the wire value.
    #[test]
    fn a_reader_ignores_an_old_value_the_carrier_cannot_hold() {
        // 0..=100 travels in 7 bits through the i32 carrier; 0x55 is 85.
        let mut value = u64::MAX;
        u64::serialize_ranged(&mut ReadStream::new(&[0x55]), &mut value, 0, 100).unwrap();
        assert_eq!(value, 85);
        // Through the i64 carrier: 0..=2^40, 41 bits, all zero here.
        let mut value = u64::MAX;
        u64::serialize_ranged(&mut ReadStream::new(&[0; 8]), &mut value, 0, 1 << 40).unwrap();
        assert_eq!(value, 0);
    }
}
