//! Valid values from `arbitrary` bytes (feature `arbitrary`).
//!
//! `#[derive(Serialize)]` and `#[derive(Packet)]` also implement
//! [`Arbitrary`] when this feature is on, honouring every declaration: a
//! ranged field takes a value in its range, a list a length up to its
//! maximum, a subset strictly increasing indices below its size, a
//! versioned save its latest version. Values lean toward the edges, where
//! readers break: range ends one time in four, empty and full lists, every
//! subset density. The harness builds its samples from them; a test or a
//! fuzz target can too:
//!
//! ```
//! use codec::arbitrary::{Arbitrary, Unstructured};
//! use codec::Serialize;
//!
//! #[derive(Debug, Serialize)]
//! struct Input {
//!     #[serialize(range = -100..=100)]
//!     steer: i8,
//!     #[serialize(max_len = 8, range = 0..=3)]
//!     buttons: Vec<u8>,
//! }
//!
//! let mut u = Unstructured::new(&[7, 1, 200, 3, 9, 4, 4, 0, 1, 2]);
//! let mut input = Input::arbitrary(&mut u)?;
//! assert!((-100..=100).contains(&input.steer));
//! assert!(input.buttons.len() <= 8 && input.buttons.iter().all(|b| *b <= 3));
//! codec::to_vec(&mut input)?; // every generated value is writable
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The functions below are what the generated code calls, one per
//! declaration; hand-written types can call them too.

use ::arbitrary::unstructured::Int;
pub use ::arbitrary::{Arbitrary, Error, Result, Unstructured};

use crate::protocols::scenes::SmallestThree;
use crate::stream::ops::compressed_float::CompressedFloat;
use crate::stream::ops::fixed::Fixed;
use crate::stream::ops::ranged::RawBits;
use crate::subset::{Entry, Indexed};

/// The longest list, string or subset generated, whatever its declared
/// maximum: a sample stays small enough to write and to attack.
pub const MAX_GENERATED_LEN: u32 = 4096;

std::thread_local! {
    /// This thread's cap on generated lengths: [`MAX_GENERATED_LEN`]
    /// unless [`with_length_cap`] lowers it.
    static LENGTH_CAP: core::cell::Cell<u32> = const { core::cell::Cell::new(MAX_GENERATED_LEN) };
}

/// Runs `generate` with every list, string and subset it generates on this
/// thread holding at most `cap` items (a subset's items still spread over
/// all of its indices). A fuzz target that judges one case per execution
/// calls it so that a sample costs little to build: a scene of a thousand
/// objects costs a thousand times one of a single object, and most paths
/// through a reader need only a few.
pub fn with_length_cap<T>(cap: u32, generate: impl FnOnce() -> T) -> T {
    let before = LENGTH_CAP.with(|c| c.replace(cap.min(MAX_GENERATED_LEN)));
    let generated = generate();
    LENGTH_CAP.with(|c| c.set(before));
    generated
}

/// The longest list, string or subset generated now.
fn length_cap() -> u32 {
    LENGTH_CAP.with(core::cell::Cell::get)
}

/// A value in `[min, max]`: `min` one time in eight, `max` one time in
/// eight, otherwise uniform.
pub fn ranged<T: Int>(u: &mut Unstructured<'_>, min: T, max: T) -> Result<T> {
    if min > max {
        return Err(Error::IncorrectFormat);
    }
    Ok(match u.int_in_range(0..=7u8)? {
        0 => min,
        1 => max,
        _ => u.int_in_range(min..=max)?,
    })
}

/// A value of at most `bits` bits (`bits` in `1..=64`), leaning toward 0
/// and all ones.
pub fn raw_bits<T: RawBits + TryFrom<u64>>(u: &mut Unstructured<'_>, bits: u32) -> Result<T> {
    let top = u64::MAX
        .checked_shr(64u32.saturating_sub(bits))
        .unwrap_or(0);
    let value = ranged(u, 0, top)?;
    T::try_from(value).map_err(|_| Error::IncorrectFormat)
}

/// A raw fixed-point integer inside `format`'s bounds.
pub fn fixed(u: &mut Unstructured<'_>, format: &Fixed) -> Result<i128> {
    ranged(u, format.raw_min(), format.raw_max())
}

/// A compressed float's field: an `f32` in `[min, max]` (the ends, a code
/// exactly, or anything between) or a `u32` code up to the format's
/// maximum.
pub trait ArbitraryCompressed: Sized {
    /// A value the writer accepts for `format`, declared over `[min, max]`.
    fn arbitrary_compressed(
        u: &mut Unstructured<'_>,
        format: &CompressedFloat,
        min: f32,
        max: f32,
    ) -> Result<Self>;
}

impl ArbitraryCompressed for f32 {
    fn arbitrary_compressed(
        u: &mut Unstructured<'_>,
        format: &CompressedFloat,
        min: f32,
        max: f32,
    ) -> Result<Self> {
        let code = ranged(u, 0, format.max_integer_value())?;
        Ok(match u.int_in_range(0..=3u8)? {
            // Between codes: the writer rounds.
            0 => {
                let t = f32::from(u.int_in_range(0..=u16::MAX)?) / f32::from(u16::MAX);
                (min + (max - min) * t).clamp(min, max)
            }
            _ => format.dequantize(code).clamp(min, max),
        })
    }
}

impl ArbitraryCompressed for u32 {
    fn arbitrary_compressed(
        u: &mut Unstructured<'_>,
        format: &CompressedFloat,
        _min: f32,
        _max: f32,
    ) -> Result<Self> {
        ranged(u, 0, format.max_integer_value())
    }
}

/// A length in `[0, max]` (at most [`MAX_GENERATED_LEN`]): empty one time
/// in eight, full one time in eight.
fn length(u: &mut Unstructured<'_>, max: u32) -> Result<usize> {
    let max = max.min(length_cap());
    Ok(ranged(u, 0, max)? as usize)
}

/// A list of at most `max` elements, each from `element`.
pub fn list<'a, T>(
    u: &mut Unstructured<'a>,
    max: u32,
    mut element: impl FnMut(&mut Unstructured<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    let len = length(u, max)?;
    (0..len).map(|_| element(u)).collect()
}

/// An array, each element from `element`.
pub fn array<'a, T, const N: usize>(
    u: &mut Unstructured<'a>,
    mut element: impl FnMut(&mut Unstructured<'a>) -> Result<T>,
) -> Result<[T; N]> {
    let items: Vec<T> = (0..N).map(|_| element(u)).collect::<Result<_>>()?;
    items.try_into().map_err(|_| Error::IncorrectFormat)
}

/// `None` or a value from `element`, half and half.
pub fn option<'a, T>(
    u: &mut Unstructured<'a>,
    element: impl FnOnce(&mut Unstructured<'a>) -> Result<T>,
) -> Result<Option<T>> {
    Ok(if u.arbitrary::<bool>()? {
        Some(element(u)?)
    } else {
        None
    })
}

/// A character a string field accepts: any but NUL.
fn character(u: &mut Unstructured<'_>) -> Result<char> {
    Ok(match u.int_in_range(0..=3u8)? {
        // Mostly ASCII, where protocols live; otherwise any scalar value.
        0 => u.arbitrary::<char>()?,
        _ => char::from(u.int_in_range(1..=0x7Fu8)?),
    })
    .map(|c| if c == '\0' { '0' } else { c })
}

/// A string of at most `max` bytes of UTF-8 (`cost` counts a character's
/// size), without NUL.
fn text(u: &mut Unstructured<'_>, max: u32, cost: fn(char) -> usize) -> Result<String> {
    let budget = length(u, max)?;
    let mut text = String::new();
    let mut used = 0usize;
    while used < budget {
        let c = character(u)?;
        let size = cost(c);
        if used.saturating_add(size) > budget {
            // Fill what is left with ASCII, so a full string is full.
            text.extend(std::iter::repeat_n('a', budget.saturating_sub(used)));
            break;
        }
        text.push(c);
        used = used.saturating_add(size);
    }
    Ok(text)
}

/// A string of at most `max` bytes, without NUL.
pub fn string(u: &mut Unstructured<'_>, max: u32) -> Result<String> {
    text(u, max, char::len_utf8)
}

/// A string of at most `max` UTF-16 units, without NUL.
pub fn wide_string(u: &mut Unstructured<'_>, max: u32) -> Result<String> {
    text(u, max, char::len_utf16)
}

/// The UTF-16 units of a string of at most `max` units, without NUL.
pub fn wide_units(u: &mut Unstructured<'_>, max: u32) -> Result<Vec<u16>> {
    Ok(wide_string(u, max)?.encode_utf16().collect())
}

/// A rotation: four components in `[-1, 1]`, quantized.
pub fn quaternion(u: &mut Unstructured<'_>) -> Result<SmallestThree> {
    let mut q = [0f32; 4];
    for c in &mut q {
        *c = f32::from(u.int_in_range(-1000i16..=1000)?) / 1000.0;
    }
    Ok(SmallestThree::from_quaternion(q))
}

/// An item of a subset made at a given index.
pub trait ArbitraryIndexed<'a>: Indexed + Sized {
    /// An item at `index` with an arbitrary payload.
    fn arbitrary_at(u: &mut Unstructured<'a>, index: u32) -> Result<Self>;
}

impl<'a, T: Arbitrary<'a> + crate::Serialize + Default> ArbitraryIndexed<'a> for Entry<T> {
    fn arbitrary_at(u: &mut Unstructured<'a>, index: u32) -> Result<Self> {
        Ok(Self {
            index,
            value: T::arbitrary(u)?,
        })
    }
}

/// A subset of `[0, size)` at a density drawn from the edges as often as
/// from the middle: empty, one item, every item, or a random share. Each
/// index is decided from a seed, not from a byte of input each, so a
/// subset of a thousand slots costs a few bytes.
pub fn subset<'a, T: ArbitraryIndexed<'a>>(u: &mut Unstructured<'a>, size: u32) -> Result<Vec<T>> {
    let size = size.min(MAX_GENERATED_LEN);
    let cap = length_cap();
    let share: u32 = match u.int_in_range(0..=5u8)? {
        0 => 0,
        1 => 1,
        2 => size,
        _ => u.int_in_range(0..=size)?,
    };
    // Under a cap, a share above it becomes a spread of about `cap` items
    // over every index, and the list stops at `cap`.
    let share = share.min(cap);
    let lone = u.int_in_range(0..=size.saturating_sub(1))?;
    let mut seed: u64 = u.arbitrary::<u64>()? | 1;
    let mut items = Vec::new();
    for index in 0..size {
        // xorshift64: the membership of each index.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let present = match share {
            0 => false,
            1 => index == lone,
            s if s == size => true,
            s => seed.checked_rem(u64::from(size)).unwrap_or(0) < u64::from(s),
        };
        if present && items.len() < cap as usize {
            items.push(T::arbitrary_at(u, index)?);
        }
    }
    Ok(items)
}

/// What the derive's generated `Arbitrary` implementations expand inside:
/// they exist only when this feature is on.
#[doc(hidden)]
#[macro_export]
macro_rules! __when_arbitrary {
    ($($item:tt)*) => { $($item)* };
}
