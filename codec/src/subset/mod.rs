//! Subsets of a fixed-size array, the strategies of *Serialization
//! Strategies*: which of `size` slots a packet carries, each followed by its
//! item's payload.
//!
//! | strategy | how the indices travel |
//! |---|---|
//! | [`bools`] | a bool for every slot (scene A) |
//! | [`counted`] | `count int[0, size]`, then each `index int[0, size - 1]` (scene B) |
//! | [`sentinel`] | each `index int[0, size]`, ended by the sentinel `size` (scene C) |
//! | [`relative`] | the article's relative-index ladder, ended by `size` (scene D) |
//! | [`golomb()`] | Golomb-coded gaps, one parameter per packet (the Golomb scene's code) |
//! | [`adaptive()`] | the count, then gaps or ranked blocks coded from what is left (scene E's code, near the bound that includes the count) |
//!
//! Items are kept by strictly increasing index below `size`. A writer
//! refuses items that break that rule ([`DecodeError::OutOfRange`],
//! [`DecodeError::NotIncreasing`]); a reader refuses indices out of range,
//! duplicate or decreasing, so its loops end within `size + 1` rounds.

pub mod adaptive;
mod code_length;
mod flat;
pub mod golomb;
mod relative;

pub use adaptive::adaptive;
pub use flat::{bools, counted, sentinel};
pub use golomb::{golomb, CodedSet, GOLOMB_PARAMETERS};
pub use relative::relative;

use crate::error::DecodeError;
use crate::stream::{Serialize, Stream};

/// An item of a subset: it knows its index, and serializes its payload.
pub trait Indexed {
    /// The item's slot, below the subset's size.
    fn index(&self) -> u32;
    /// An item at `index` for a reader to fill with [`Indexed::serialize_value`].
    fn at(index: u32) -> Self;
    /// The fewest bits any item's payload takes on the wire; 0 (the
    /// default) when unknown. A reader reserves room for as many items as
    /// the bits left could hold, so a subset is read with one allocation;
    /// a bound above the truth would over-reserve, never misread.
    const MIN_VALUE_BITS: u32 = 0;
    /// The item's payload, without its index.
    fn serialize_value<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error>;
}

/// A payload at its index: the ready-made [`Indexed`] item for any
/// `Serialize + Default` payload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Entry<T> {
    /// The slot, below the subset's size.
    pub index: u32,
    /// The payload.
    pub value: T,
}

impl<T: Serialize + Default> Indexed for Entry<T> {
    #[inline]
    fn index(&self) -> u32 {
        self.index
    }

    #[inline]
    fn at(index: u32) -> Self {
        Self {
            index,
            value: T::default(),
        }
    }

    #[inline]
    fn serialize_value<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        self.value.serialize(stream)
    }
}

/// The first rule `items` break, for a writer to refuse them with: an index
/// at or above `size`, or one not above the index before it.
pub fn broken_rule<T: Indexed>(items: &[T], size: u32, at: u64) -> Option<DecodeError> {
    let mut previous: Option<u32> = None;
    for item in items {
        let index = item.index();
        if index >= size {
            return Some(DecodeError::OutOfRange { at });
        }
        if previous.is_some_and(|p| index <= p) {
            return Some(DecodeError::NotIncreasing { at });
        }
        previous = Some(index);
    }
    None
}

/// Refuses, on a writer, items that break the subset's rules.
#[inline]
fn check_items<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &[T],
    size: u32,
) -> Result<(), S::Error> {
    if S::IS_WRITING {
        if let Some(why) = broken_rule(items, size, stream.bit_offset()) {
            return Err(stream.refuse(why));
        }
    }
    Ok(())
}

/// The vector a reader reads a subset of `size` slots into: with room for
/// as many items as the stream's bits left can hold, at
/// [`Indexed::MIN_VALUE_BITS`] each, and never more than `size`, so a
/// scene allocates once instead of growing. The room is bounded by the input's
/// length, so a short packet never makes a reader allocate much.
fn read_vec<S: Stream, T: Indexed>(stream: &S, size: u32) -> Vec<T> {
    let room = stream
        .bits_remaining()
        .checked_div(u64::from(T::MIN_VALUE_BITS))
        .unwrap_or(0);
    Vec::with_capacity(usize::try_from(room.min(u64::from(size))).unwrap_or(0))
}

/// Reads one item and appends it at `index`, in place: building it on the
/// stack and moving it in stalls on store forwarding. On a
/// refusal the item stays half read; every caller then drops the vector.
/// Always inlined, with [`payload`] and the item's `serialize_value`, so
/// that the reader's state stays in registers from item to item.
#[inline(always)]
fn read_item<S: Stream, T: Indexed>(
    stream: &mut S,
    items: &mut Vec<T>,
    index: u32,
) -> Result<(), S::Error> {
    items.push(T::at(index));
    match items.last_mut() {
        Some(item) => payload(stream, item),
        None => Ok(()),
    }
}

/// The name an item's payload starts under, so that a payload that names
/// no field of its own (a plain `u8`, say) is not taken for the index or
/// sentinel before it.
pub const PAYLOAD: &str = "value";

/// The part of the value an item is, for streams that show its shape: its
/// index (given by position, so assigned rather than read) and its payload.
pub const SLOT: &str = "slot";

/// An item's payload, named [`PAYLOAD`] with the role `Value` until it
/// names its own fields, inside the part [`SLOT`].
#[inline(always)]
fn payload<S: Stream, T: Indexed>(stream: &mut S, item: &mut T) -> Result<(), S::Error> {
    stream.enter(SLOT);
    // Only a reading stream shows values: no writer sets SHOWS_VALUES.
    if S::SHOWS_VALUES {
        stream.assigned("index", &mut item.index());
    }
    stream.field_name(PAYLOAD);
    item.serialize_value(stream)?;
    stream.leave();
    Ok(())
}
