//! The format's relative integer: a ladder of one-bit flags, each asking
//! "does the difference fit this tier?", for sorted indices and ids.

use crate::error::DecodeError;
use crate::stream::Stream;

/// The bounded tiers after the one-bit tier (difference exactly 1): the
/// difference as `int(lo, hi)`. Past the last, `current` travels as 32 raw
/// bits.
const TIERS: [(i32, i32); 5] = [(2, 6), (7, 23), (24, 280), (281, 4377), (4378, 69914)];

/// The largest value the ladder carries: values live in `0..=i32::MAX`.
const DOMAIN_MAX: i64 = i32::MAX as i64;

/// `current` relative to `previous`. The reader rebuilds it in 64 bits, which
/// cannot wrap, and refuses a value outside `0..=i32::MAX`
/// ([`DecodeError::OutOfRange`]) or not above `previous`
/// ([`DecodeError::NotIncreasing`]); the writer refuses the same values.
pub fn serialize_int_relative<S: Stream + ?Sized>(
    stream: &mut S,
    previous: i32,
    current: &mut i32,
) -> Result<(), S::Error> {
    serialize_ladder(stream, previous, current, false)
}

/// As [`serialize_int_relative`], and a reader also refuses the absolute
/// tier for a difference that a shorter tier holds
/// ([`DecodeError::NonCanonical`]). Format 1.1 accepts such encodings (its
/// vectors mark them reader-only), so two byte strings can carry one value;
/// a protocol that promises one encoding per value reads with this.
pub fn serialize_int_relative_canonical<S: Stream + ?Sized>(
    stream: &mut S,
    previous: i32,
    current: &mut i32,
) -> Result<(), S::Error> {
    serialize_ladder(stream, previous, current, true)
}

/// The largest difference a bounded tier holds.
const LAST_BOUNDED: i64 = 69914;

fn serialize_ladder<S: Stream + ?Sized>(
    stream: &mut S,
    previous: i32,
    current: &mut i32,
    canonical: bool,
) -> Result<(), S::Error> {
    let at = stream.bit_offset();
    let previous = i64::from(previous);
    let verdict = |value: i64| {
        if !(0..=DOMAIN_MAX).contains(&value) {
            Err(DecodeError::OutOfRange { at })
        } else if value <= previous {
            Err(DecodeError::NotIncreasing { at })
        } else {
            Ok(())
        }
    };
    // Only the writer knows the difference; a reader learns it flag by flag.
    let difference = if S::IS_WRITING {
        if let Err(why) = verdict(i64::from(*current)) {
            return Err(stream.refuse(why));
        }
        i64::from(*current).wrapping_sub(previous)
    } else {
        0
    };

    let mut fits = u32::from(difference == 1);
    stream.serialize_bits(&mut fits, 1)?;
    let mut rebuilt = previous.wrapping_add(1);
    let mut absolute = false;
    if fits == 0 {
        (rebuilt, absolute) = serialize_beyond_one(stream, difference, previous, current)?;
    }
    if S::IS_READING {
        if let Err(why) = verdict(rebuilt) {
            return Err(stream.refuse(why));
        }
        if canonical && absolute && rebuilt.wrapping_sub(previous) <= LAST_BOUNDED {
            return Err(stream.refuse(DecodeError::NonCanonical { at }));
        }
        *current = rebuilt as i32;
    }
    Ok(())
}

/// The bounded tiers and the absolute tier; returns the rebuilt value and
/// whether it came in the absolute tier.
fn serialize_beyond_one<S: Stream + ?Sized>(
    stream: &mut S,
    difference: i64,
    previous: i64,
    current: &i32,
) -> Result<(i64, bool), S::Error> {
    for (lo, hi) in TIERS {
        let mut fits = u32::from((i64::from(lo)..=i64::from(hi)).contains(&difference));
        stream.serialize_bits(&mut fits, 1)?;
        if fits != 0 {
            let mut tier_value = if S::IS_WRITING { difference as i32 } else { lo };
            stream.serialize_int(&mut tier_value, lo, hi)?;
            return Ok((previous.wrapping_add(i64::from(tier_value)), false));
        }
    }
    let mut absolute = *current as u32;
    stream.serialize_bits(&mut absolute, 32)?;
    Ok((i64::from(absolute), true))
}
