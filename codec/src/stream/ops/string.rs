//! Narrow strings: a ranged length, then the bytes, aligned.

use crate::error::DecodeError;
use crate::stream::Stream;

/// The payload as text, or the refusal it deserves: a NUL among the bytes
/// (the payload would have two lengths), or malformed UTF-8. `at` is the
/// payload's bit offset.
pub fn checked_str(payload: &[u8], at: u64) -> Result<&str, DecodeError> {
    if payload.contains(&0) {
        return Err(DecodeError::InteriorNul { at });
    }
    core::str::from_utf8(payload).map_err(|_| DecodeError::InvalidUtf8 { at })
}

/// `value` as `int(len, 0, buffer_size - 1)` then its bytes.
pub fn serialize_string<S: Stream + ?Sized>(
    stream: &mut S,
    value: &mut String,
    buffer_size: u32,
) -> Result<(), S::Error> {
    let max_len = buffer_size.saturating_sub(1);
    let at = stream.bit_offset();
    let mut len = 0u32;
    if S::IS_WRITING {
        if let Err(why) = checked_str(value.as_bytes(), at) {
            return Err(stream.refuse(why));
        }
        len = u32::try_from(value.len()).unwrap_or(u32::MAX);
    }
    // Refuses a length above the buffer, on either side.
    super::int::serialize_offset(stream, &mut len, max_len)?;
    // The payload read checks the bits left before it allocates.
    stream.serialize_str_payload(value, len as usize)
}
