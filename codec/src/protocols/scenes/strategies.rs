//! Scenes A, B and C: a bool per index, a counted list of absolute indices,
//! and a sentinel-terminated list of absolute indices.

use super::{read_slot, Slot, MAX_OBJECTS, SENTINEL};
use crate::error::DecodeError;
use crate::stream::{Serialize, Stream};

/// The highest index an object can have.
const LAST_INDEX: u32 = MAX_OBJECTS - 1;

/// Scene A: for every index a `send` bool, then the object when set.
pub(super) fn serialize_scene_a<S: Stream>(
    stream: &mut S,
    slots: &mut Vec<Slot>,
) -> Result<(), S::Error> {
    if S::IS_WRITING {
        let mut pending = slots.iter_mut().peekable();
        for index in 0..MAX_OBJECTS {
            let mut send = pending.peek().is_some_and(|s| u32::from(s.index) == index);
            stream.field_name("send");
            stream.serialize_bool(&mut send)?;
            if let Some(slot) = pending.next_if(|_| send) {
                slot.object.serialize(stream)?;
            }
        }
        return Ok(());
    }
    let mut read = Vec::new();
    for index in 0..MAX_OBJECTS {
        let mut send = false;
        stream.field_name("send");
        stream.serialize_bool(&mut send)?;
        if send {
            read_slot(stream, &mut read, index)?;
        }
    }
    *slots = read;
    Ok(())
}

/// Reads an absolute index in `[0, max]` and refuses it unless it is above
/// `previous`.
fn read_index<S: Stream>(stream: &mut S, previous: Option<u32>, max: u32) -> Result<u32, S::Error> {
    stream.field_name("index");
    let at = stream.bit_offset();
    let mut index = 0;
    stream.serialize_int(&mut index, 0, max as i32)?;
    let index = index as u32;
    if previous.is_some_and(|p| index <= p) {
        return Err(stream.refuse(DecodeError::NotIncreasing { at }));
    }
    Ok(index)
}

/// Scene B: `count int[0,1024]`, then `count` times `index int[0,1023]`
/// and the object. The count is range-checked before any object is read.
/// It is not also checked against the bits left: a count promising more than
/// follows is refused by whatever rule its stray bits break first, as the
/// spec requires, and the loop is bounded by the range check.
pub(super) fn serialize_scene_b<S: Stream>(
    stream: &mut S,
    slots: &mut Vec<Slot>,
) -> Result<(), S::Error> {
    let mut count = slots.len() as i32;
    stream.field_name("count");
    stream.serialize_int(&mut count, 0, MAX_OBJECTS as i32)?;
    if S::IS_WRITING {
        for slot in slots.iter_mut() {
            stream.field_name("index");
            stream.serialize_int(&mut i32::from(slot.index), 0, LAST_INDEX as i32)?;
            slot.object.serialize(stream)?;
        }
        return Ok(());
    }
    let mut read = Vec::new();
    let mut previous = None;
    for _ in 0..count {
        let index = read_index(stream, previous, LAST_INDEX)?;
        read_slot(stream, &mut read, index)?;
        previous = Some(index);
    }
    *slots = read;
    Ok(())
}

/// Scene C: each `index int[0,1024]` and its object, ended by the sentinel
/// 1024. Indices strictly increase, so the loop ends within 1025 rounds.
pub(super) fn serialize_scene_c<S: Stream>(
    stream: &mut S,
    slots: &mut Vec<Slot>,
) -> Result<(), S::Error> {
    if S::IS_WRITING {
        for slot in slots.iter_mut() {
            stream.field_name("index");
            stream.serialize_int(&mut i32::from(slot.index), 0, SENTINEL as i32)?;
            slot.object.serialize(stream)?;
        }
        stream.field_name("sentinel");
        return stream.serialize_int(&mut (SENTINEL as i32), 0, SENTINEL as i32);
    }
    let mut read = Vec::new();
    let mut previous = None;
    loop {
        let index = read_index(stream, previous, SENTINEL)?;
        if index == SENTINEL {
            break;
        }
        read_slot(stream, &mut read, index)?;
        previous = Some(index);
    }
    *slots = read;
    Ok(())
}
