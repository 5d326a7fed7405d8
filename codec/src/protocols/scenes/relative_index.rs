//! Scene D: the article's relative object index, a ladder of flags from
//! `previous = -1`, ended by the sentinel 1024. This ladder differs from
//! the format's `int_relative`; the two are deliberately not shared.

use super::{read_slot, Slot, SENTINEL};
use crate::error::DecodeError;
use crate::stream::{Serialize, Stream};

/// After the one-bit tier (`1` means +1), each tier's flag then
/// `int(lo, hi)` of the difference; the last tier has no flag of its own:
/// six zero flags lead to `int(126, 1025)`.
const TIERS: [(i32, i32); 5] = [(2, 5), (6, 13), (14, 29), (30, 61), (62, 125)];

/// The last tier: up to the sentinel from `previous = -1`.
const LAST_TIER: (i32, i32) = (126, SENTINEL as i32 + 1);

/// The difference `current - previous` (at least 1) on the ladder.
fn serialize_difference<S: Stream>(stream: &mut S, difference: &mut i32) -> Result<(), S::Error> {
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
            return stream.serialize_int(difference, lo, hi);
        }
    }
    stream.serialize_int(difference, LAST_TIER.0, LAST_TIER.1)
}

/// Scene D. A reader refuses an index above the sentinel
/// ([`DecodeError::OutOfRange`]); the ladder cannot express a duplicate or a
/// decrease, and the loop ends within 1025 rounds since every step adds at
/// least one.
pub(super) fn serialize_scene_d<S: Stream>(
    stream: &mut S,
    slots: &mut Vec<Slot>,
) -> Result<(), S::Error> {
    if S::IS_WRITING {
        let mut previous = -1;
        for slot in slots.iter_mut() {
            let index = i32::from(slot.index);
            stream.field_name("relative_index");
            serialize_difference(stream, &mut index.wrapping_sub(previous))?;
            slot.object.serialize(stream)?;
            previous = index;
        }
        stream.field_name("sentinel");
        return serialize_difference(stream, &mut (SENTINEL as i32).wrapping_sub(previous));
    }
    let mut read = Vec::new();
    let mut previous: i32 = -1;
    loop {
        stream.field_name("relative_index");
        let at = stream.bit_offset();
        let mut difference = 0;
        serialize_difference(stream, &mut difference)?;
        // Both are small: previous < 1024 and difference <= 1025.
        let index = previous.wrapping_add(difference);
        if index > SENTINEL as i32 {
            return Err(stream.refuse(DecodeError::OutOfRange { at }));
        }
        if index == SENTINEL as i32 {
            break;
        }
        read_slot(stream, &mut read, index as u32)?;
        previous = index;
    }
    *slots = read;
    Ok(())
}
