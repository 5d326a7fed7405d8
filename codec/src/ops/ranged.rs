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
use crate::ops::{int, wide};
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

/// Types up to 32 bits: the offset above `min` as a `u32`, through the same
/// code as `serialize_int`. Every conversion is exact: the value is in
/// `[min, max]` by the writer's check or the reader's.
macro_rules! narrow {
    ($($t:ty),*) => {$(
        impl Ranged for $t {
            #[inline]
            fn serialize_ranged<S: Stream + ?Sized>(
                stream: &mut S,
                value: &mut Self,
                min: Self,
                max: Self,
            ) -> Result<(), S::Error> {
                debug_assert!(min <= max, "empty range");
                let at = stream.bit_offset();
                if S::IS_WRITING && !(min..=max).contains(value) {
                    return Err(stream.refuse(DecodeError::OutOfRange { at }));
                }
                // Sign-extended to 32 bits, then read as unsigned: the
                // difference of two such values is the offset, mod 2^32.
                let base = min as i64 as u32;
                let mut offset = (*value as i64 as u32).wrapping_sub(base);
                int::serialize_offset(stream, &mut offset, (max as i64 as u32).wrapping_sub(base))?;
                if S::IS_READING {
                    *value = (base.wrapping_add(offset)) as i64 as $t;
                }
                Ok(())
            }
        }
    )*};
}
narrow!(i8, i16, i32, u8, u16, u32);

/// Types of 64 bits and `i128`: through the format's 128-bit groups.
macro_rules! wide {
    ($($t:ty),*) => {$(
        impl Ranged for $t {
            #[inline]
            fn serialize_ranged<S: Stream + ?Sized>(
                stream: &mut S,
                value: &mut Self,
                min: Self,
                max: Self,
            ) -> Result<(), S::Error> {
                let mut wide = *value as i128;
                wide::serialize_ranged(stream, &mut wide, min as i128, max as i128)?;
                if S::IS_READING {
                    *value = wide as $t;
                }
                Ok(())
            }
        }
    )*};
}
wide!(i64, u64, i128);

impl Ranged for u128 {
    /// A `u128` range may span more than `i128` holds: the offset is
    /// computed unsigned, in the same groups as every wide value.
    #[inline]
    fn serialize_ranged<S: Stream + ?Sized>(
        stream: &mut S,
        value: &mut Self,
        min: Self,
        max: Self,
    ) -> Result<(), S::Error> {
        debug_assert!(min <= max, "empty range");
        let at = stream.bit_offset();
        if S::IS_WRITING && !(min..=max).contains(value) {
            return Err(stream.refuse(DecodeError::OutOfRange { at }));
        }
        let span = max.wrapping_sub(min);
        let mut offset = value.wrapping_sub(min);
        wide::serialize_groups(stream, &mut offset, wide::bits_for_span128(span))?;
        if S::IS_READING {
            if offset > span {
                return Err(stream.refuse(DecodeError::OutOfRange { at }));
            }
            *value = min.wrapping_add(offset);
        }
        Ok(())
    }
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
