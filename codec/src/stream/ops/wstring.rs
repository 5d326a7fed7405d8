//! Wide strings: a ranged length, then one 32-bit group per UTF-16 code
//! unit, with no alignment anywhere.

use crate::error::DecodeError;
use crate::stream::Stream;

const GROUP_BITS: u64 = 32;

/// Whether `unit` is a high (leading) surrogate.
const fn is_high_surrogate(unit: u16) -> bool {
    matches!(unit, 0xD800..=0xDBFF)
}

/// Whether `unit` is a low (trailing) surrogate.
const fn is_low_surrogate(unit: u16) -> bool {
    matches!(unit, 0xDC00..=0xDFFF)
}

/// The refusal owed by the first unit that breaks UTF-16 or is NUL, with
/// `unit_at` giving each unit's bit offset. A broken pair is blamed on its
/// high surrogate.
fn first_bad_unit(units: &[u16], unit_at: impl Fn(usize) -> u64) -> Option<DecodeError> {
    let mut high_pending = false;
    for (index, &unit) in units.iter().enumerate() {
        if high_pending && !is_low_surrogate(unit) {
            let at = unit_at(index.saturating_sub(1));
            return Some(DecodeError::InvalidUtf16 { at });
        }
        if is_low_surrogate(unit) && !high_pending {
            return Some(DecodeError::InvalidUtf16 { at: unit_at(index) });
        }
        if unit == 0 {
            return Some(DecodeError::InteriorNul { at: unit_at(index) });
        }
        high_pending = is_high_surrogate(unit);
    }
    high_pending.then(|| DecodeError::InvalidUtf16 {
        at: unit_at(units.len().saturating_sub(1)),
    })
}

/// `units` as `int(len, 0, buffer_size - 1)` then a 32-bit group per unit.
pub fn serialize_wstring<S: Stream + ?Sized>(
    stream: &mut S,
    units: &mut Vec<u16>,
    buffer_size: u32,
) -> Result<(), S::Error> {
    let max_len = buffer_size.saturating_sub(1);
    let groups_at = stream
        .bit_offset()
        .saturating_add(u64::from(super::int::bits_for_span(max_len)));
    let unit_at =
        |index: usize| groups_at.saturating_add((index as u64).saturating_mul(GROUP_BITS));

    if S::IS_WRITING {
        // Everything is checked before the first bit is written.
        if let Some(why) = first_bad_unit(units, unit_at) {
            return Err(stream.refuse(why));
        }
        let mut len = u32::try_from(units.len()).unwrap_or(u32::MAX);
        super::int::serialize_offset(stream, &mut len, max_len)?;
        for unit in units.iter() {
            stream.serialize_bits(&mut u32::from(*unit), 32)?;
        }
        return Ok(());
    }

    let mut len = 0u32;
    super::int::serialize_offset(stream, &mut len, max_len)?;
    // Nothing is allocated for groups the input cannot hold.
    if u64::from(len).saturating_mul(GROUP_BITS) > stream.bits_remaining() {
        let at = groups_at.saturating_add(stream.bits_remaining() & !(GROUP_BITS - 1));
        return Err(stream.refuse(DecodeError::PastEnd { at }));
    }
    let mut read = Vec::new();
    for index in 0..len as usize {
        let mut group = 0u32;
        stream.serialize_bits(&mut group, 32)?;
        let Ok(unit) = u16::try_from(group) else {
            return Err(stream.refuse(DecodeError::InvalidUtf16 { at: unit_at(index) }));
        };
        read.push(unit);
    }
    if let Some(why) = first_bad_unit(&read, unit_at) {
        return Err(stream.refuse(why));
    }
    *units = read;
    Ok(())
}
