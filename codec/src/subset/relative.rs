//! The article's relative index: a ladder of flags from `previous = -1`,
//! ended by the sentinel `size`. This ladder differs from the format's
//! `int_relative`; the two are deliberately not shared.

use super::{check_items, payload, read_item, read_vec, Indexed};
use crate::error::DecodeError;
use crate::role::Role;
use crate::stream::Stream;

/// After the one-bit tier (`1` means +1), each tier's flag then
/// `int(lo, hi)` of the difference; six zero flags lead to the last tier.
const TIERS: [(i64, i64); 5] = [(2, 5), (6, 13), (14, 29), (30, 61), (62, 125)];

/// The last tier's lower end.
const LAST_TIER_MIN: i64 = 126;

/// The difference `current - previous` (at least 1) on the ladder; the last
/// tier reaches `int(126, last)`.
#[inline]
fn serialize_difference<S: Stream>(
    stream: &mut S,
    difference: &mut i64,
    last: i64,
) -> Result<(), S::Error> {
    let mut plus_one = *difference == 1;
    stream.serialize_bool(&mut plus_one)?;
    if plus_one {
        *difference = 1;
        return Ok(());
    }
    for (lo, hi) in TIERS {
        let mut fits = (lo..=hi).contains(difference);
        stream.serialize_bool(&mut fits)?;
        if fits {
            return crate::stream::ops::ranged::Ranged::serialize_ranged(
                stream, difference, lo, hi,
            );
        }
    }
    crate::stream::ops::ranged::Ranged::serialize_ranged(stream, difference, LAST_TIER_MIN, last)
}

/// Relative indices ended by the sentinel `size`: from `previous = -1`, the
/// last tier reaches `size + 1` (at least 126: the ladder's shape does not
/// depend on the size). A reader refuses an index above the sentinel
/// ([`DecodeError::OutOfRange`]); the ladder cannot express a duplicate or a
/// decrease, and the loop ends within `size + 1` rounds since every step
/// adds at least one.
pub fn relative<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut Vec<T>,
    size: u32,
) -> Result<(), S::Error> {
    let sentinel = i64::from(size);
    let last = sentinel.saturating_add(1).max(LAST_TIER_MIN);
    if S::IS_WRITING {
        check_items(stream, items, size)?;
        let mut previous = -1;
        for item in items.iter_mut() {
            let index = i64::from(item.index());
            stream.field_name("relative_index");
            stream.field_role(Role::RelativeIndex);
            serialize_difference(stream, &mut index.saturating_sub(previous), last)?;
            payload(stream, item)?;
            previous = index;
        }
        stream.field_name("sentinel");
        stream.field_role(Role::Sentinel);
        return serialize_difference(stream, &mut sentinel.saturating_sub(previous), last);
    }
    let mut read = read_vec(stream, size);
    let mut previous: i64 = -1;
    loop {
        stream.field_name("relative_index");
        stream.field_role(Role::RelativeIndex);
        let at = stream.bit_offset();
        let mut difference = 0;
        serialize_difference(stream, &mut difference, last)?;
        let index = previous.saturating_add(difference);
        if index > sentinel {
            return Err(stream.refuse(DecodeError::OutOfRange { at }));
        }
        if index == sentinel {
            break;
        }
        // Below the sentinel, a u32.
        read_item(stream, &mut read, index as u32)?;
        previous = index;
    }
    *items = read;
    Ok(())
}
