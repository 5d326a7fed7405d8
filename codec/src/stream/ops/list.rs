//! Containers with a declared bound: counted lists, optional values, counted
//! byte runs and wide strings held as `String`.
//!
//! A count is sent as `int(0, max)` and checked against `max` before a
//! single element is read. Memory follows the rules of the trust model: a
//! list grows as its elements are read (each element costs at least one bit,
//! or the read fails first), and a byte run's count is checked against the
//! bits left before its buffer is allocated.

use crate::error::DecodeError;
use crate::stream::ops::ranged::Ranged;
use crate::stream::Stream;

/// The name every count carries in field maps, with the role
/// [`Role::Count`](crate::role::Role::Count).
pub const COUNT: &str = "count";

/// Bytes a reader may reserve at once for a non-empty list whose maximum is
/// small: one allocation instead of a doubling series, at a cost bounded by
/// this constant (never by a number read off the wire).
const RESERVE_BYTES: usize = 1024;

/// The count of a list of at most `max` elements, named [`COUNT`].
#[inline]
fn serialize_count<S: Stream + ?Sized>(
    stream: &mut S,
    len: usize,
    max: u32,
) -> Result<u32, S::Error> {
    let mut count = u32::try_from(len).unwrap_or(u32::MAX);
    stream.field_name(COUNT);
    stream.field_role(crate::role::Role::Count);
    Ranged::serialize_ranged(stream, &mut count, 0, max)?;
    Ok(count)
}

/// A list of at most `max` elements: the count as `int(0, max)`, then each
/// element through `element`, named `name`. A writer refuses more than `max`
/// elements; a reader refuses a count above `max` before it reads an
/// element, and replaces `items` only when every element was read.
#[inline]
pub fn serialize_list<S: Stream + ?Sized, T: Default>(
    stream: &mut S,
    items: &mut Vec<T>,
    max: u32,
    name: &'static str,
    mut element: impl FnMut(&mut S, &mut T) -> Result<(), S::Error>,
) -> Result<(), S::Error> {
    let count = serialize_count(stream, items.len(), max)?;
    stream.field_name(name);
    // Each element is a part of the value named `name`, for the streams
    // that show its shape; named again for each, so that what an element
    // reads before naming a field of its own (an enum's tag) goes by the
    // list's name, not by the previous element's last field.
    let mut one = |stream: &mut S, item: &mut T| {
        stream.field_name(name);
        stream.enter(name);
        element(stream, item)?;
        stream.leave();
        Ok(())
    };
    if S::IS_WRITING {
        return items.iter_mut().try_for_each(|item| one(stream, item));
    }
    let small = (max as usize).saturating_mul(size_of::<T>()) <= RESERVE_BYTES;
    let mut read = Vec::with_capacity(if count > 0 && small { max as usize } else { 0 });
    for _ in 0..count {
        let mut item = T::default();
        one(stream, &mut item)?;
        read.push(item);
    }
    *items = read;
    Ok(())
}

/// An optional value: a presence bit, then the value when present. A reader
/// starts a present value from `T::default()`.
#[inline]
pub fn serialize_option<S: Stream + ?Sized, T: Default>(
    stream: &mut S,
    value: &mut Option<T>,
    element: impl FnOnce(&mut S, &mut T) -> Result<(), S::Error>,
) -> Result<(), S::Error> {
    let mut present = value.is_some();
    stream.field_role(crate::role::Role::Optional);
    stream.serialize_bool(&mut present)?;
    if S::IS_READING {
        *value = if present { Some(T::default()) } else { None };
    }
    match value {
        Some(inner) => element(stream, inner),
        None => Ok(()),
    }
}

/// A run of at most `max` raw bytes: the count as `int(0, max)`, then the
/// bytes, aligned. A reader refuses a count above `max`, and one that
/// promises more bytes than are left ([`DecodeError::PastEnd`], at the
/// payload), before it allocates.
#[inline]
pub fn serialize_byte_vec<S: Stream + ?Sized>(
    stream: &mut S,
    bytes: &mut Vec<u8>,
    max: u32,
    name: &'static str,
) -> Result<(), S::Error> {
    let count = serialize_count(stream, bytes.len(), max)?;
    stream.field_name(name);
    if S::IS_WRITING {
        return stream.serialize_bytes(bytes);
    }
    // The payload starts at the next byte boundary: the padding is read
    // (and refused when it is not zero) first, so that a run the input
    // cannot hold is refused where its payload starts.
    stream.serialize_align()?;
    let needed = u64::from(count).saturating_mul(8);
    if stream.bits_remaining() < needed {
        let at = stream.bit_offset();
        return Err(stream.refuse(DecodeError::PastEnd { at }));
    }
    let mut read = vec![0u8; count as usize];
    stream.serialize_bytes(&mut read)?;
    *bytes = read;
    Ok(())
}

/// A wide string held as a `String`: its UTF-16 units through
/// [`Stream::serialize_wstring`], at most `max_units` of them. The reader
/// has refused unpaired surrogates, so every accepted unit sequence is a
/// string, and converting back gives the same units.
#[inline]
pub fn serialize_wide_string<S: Stream + ?Sized>(
    stream: &mut S,
    value: &mut String,
    max_units: u32,
) -> Result<(), S::Error> {
    let mut units: Vec<u16> = if S::IS_WRITING {
        value.encode_utf16().collect()
    } else {
        Vec::new()
    };
    stream.serialize_wstring(&mut units, max_units.saturating_add(1))?;
    if S::IS_READING {
        match String::from_utf16(&units) {
            Ok(text) => *value = text,
            Err(_) => {
                let at = stream.bit_offset();
                return Err(stream.refuse(DecodeError::InvalidUtf16 { at }));
            }
        }
    }
    Ok(())
}

/// The format's buffer size for a string of at most `max_len` units: one
/// more, for the terminating NUL the reference library stores.
#[inline]
#[must_use]
pub const fn buffer_size(max_len: u32) -> u32 {
    max_len.saturating_add(1)
}
