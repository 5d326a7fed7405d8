//! Subsets with absolute indices: a bool per slot, a counted list, and a
//! sentinel-terminated list.

use super::{check_items, payload, read_item, read_vec, Indexed};
use crate::error::DecodeError;
use crate::role::Role;
use crate::stream::Stream;

/// A bool for every slot `0..size`, then the item when set.
pub fn bools<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut Vec<T>,
    size: u32,
) -> Result<(), S::Error> {
    if S::IS_WRITING {
        check_items(stream, items, size)?;
        let mut pending = items.iter_mut().peekable();
        for index in 0..size {
            let mut send = pending.peek().is_some_and(|s| s.index() == index);
            stream.field_name("send");
            stream.field_role(Role::Presence);
            stream.serialize_bool(&mut send)?;
            if let Some(item) = pending.next_if(|_| send) {
                payload(stream, item)?;
            }
        }
        return Ok(());
    }
    let mut read = read_vec(stream, size);
    for index in 0..size {
        let mut send = false;
        stream.field_name("send");
        stream.field_role(Role::Presence);
        stream.serialize_bool(&mut send)?;
        if send {
            read_item(stream, &mut read, index)?;
        }
    }
    *items = read;
    Ok(())
}

/// Reads an absolute index in `[0, max]` and refuses it unless it is above
/// `previous`.
#[inline]
fn read_index<S: Stream>(stream: &mut S, previous: Option<u32>, max: u32) -> Result<u32, S::Error> {
    stream.field_name("index");
    stream.field_role(Role::Index);
    let at = stream.bit_offset();
    let mut index = 0u32;
    crate::stream::ops::ranged::Ranged::serialize_ranged(stream, &mut index, 0, max)?;
    if previous.is_some_and(|p| index <= p) {
        return Err(stream.refuse(DecodeError::NotIncreasing { at }));
    }
    Ok(index)
}

/// `count int[0, size]`, then `count` times `index int[0, size - 1]` and the
/// item. The count is range-checked before any item is read. It is not also
/// checked against the bits left: a count promising more than follows is
/// refused by whatever rule its stray bits break first, and the loop is
/// bounded by the range check.
pub fn counted<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut Vec<T>,
    size: u32,
) -> Result<(), S::Error> {
    check_items(stream, items, size)?;
    let last = size.saturating_sub(1);
    let mut count = u32::try_from(items.len()).unwrap_or(u32::MAX);
    stream.field_name("count");
    stream.field_role(Role::Count);
    crate::stream::ops::ranged::Ranged::serialize_ranged(stream, &mut count, 0, size)?;
    if S::IS_WRITING {
        for item in items.iter_mut() {
            stream.field_name("index");
            stream.field_role(Role::Index);
            crate::stream::ops::ranged::Ranged::serialize_ranged(
                stream,
                &mut item.index(),
                0,
                last,
            )?;
            payload(stream, item)?;
        }
        return Ok(());
    }
    let mut read = read_vec(stream, count);
    let mut previous = None;
    for _ in 0..count {
        let index = read_index(stream, previous, last)?;
        read_item(stream, &mut read, index)?;
        previous = Some(index);
    }
    *items = read;
    Ok(())
}

/// Each `index int[0, size]` and its item, ended by the sentinel `size`.
/// Indices strictly increase, so the loop ends within `size + 1` rounds.
pub fn sentinel<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut Vec<T>,
    size: u32,
) -> Result<(), S::Error> {
    if S::IS_WRITING {
        check_items(stream, items, size)?;
        for item in items.iter_mut() {
            stream.field_name("index");
            stream.field_role(Role::Index);
            crate::stream::ops::ranged::Ranged::serialize_ranged(
                stream,
                &mut item.index(),
                0,
                size,
            )?;
            payload(stream, item)?;
        }
        stream.field_name("sentinel");
        stream.field_role(Role::Sentinel);
        return crate::stream::ops::ranged::Ranged::serialize_ranged(
            stream,
            &mut size.clone(),
            0,
            size,
        );
    }
    let mut read = read_vec(stream, size);
    let mut previous = None;
    loop {
        let index = read_index(stream, previous, size)?;
        if index == size {
            break;
        }
        read_item(stream, &mut read, index)?;
        previous = Some(index);
    }
    *items = read;
    Ok(())
}
