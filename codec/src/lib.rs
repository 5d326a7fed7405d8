//! Bitpacked game packet serialization, wire-compatible with the reference
//! C++ `serialize` library (format 1.1) and the "Building a Game Network
//! Protocol" articles.
//!
//! A type describes its layout once, in a [`Serialize::serialize`] function
//! generic over a [`Stream`]; that one function writes it, reads it and
//! measures it. The articles' rigid body, with its at-rest optimization:
//!
//! ```
//! use codec::{CompressedFloat, Serialize, Stream};
//!
//! #[derive(Debug, Default, PartialEq)]
//! struct RigidBody {
//!     position: [f32; 3],
//!     at_rest: bool,
//!     velocity: [f32; 3],
//! }
//!
//! impl Serialize for RigidBody {
//!     // Mark it: unmarked, a packet read or written from more than one
//!     // place stays out of line (reads 5x slower in the reference bench).
//!     #[inline(always)]
//!     fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
//!         let position = CompressedFloat::new(-1000.0, 1000.0, 0.001);
//!         let velocity = CompressedFloat::new(-10.0, 10.0, 0.01);
//!         for axis in &mut self.position {
//!             stream.serialize_compressed_float(axis, &position)?;
//!         }
//!         stream.serialize_bool(&mut self.at_rest)?;
//!         if !self.at_rest {
//!             for axis in &mut self.velocity {
//!                 stream.serialize_compressed_float(axis, &velocity)?;
//!             }
//!         } else if S::IS_READING {
//!             self.velocity = [0.0; 3];
//!         }
//!         Ok(())
//!     }
//! }
//!
//! let mut body = RigidBody { position: [1.5, -2.0, 300.25], at_rest: true, velocity: [0.0; 3] };
//! let bytes = codec::to_vec(&mut body)?;
//! assert_eq!(bytes.len(), 8); // 3 x 21 bits of position + 1 bit: no velocity at rest
//! let read: RigidBody = codec::from_slice(&bytes)?;
//! assert!(read.at_rest);
//! for (got, sent) in read.position.iter().zip(body.position) {
//!     assert!((got - sent).abs() <= 0.001); // quantized to the declared resolution
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Trust model
//!
//! **Readers** ([`ReadStream`], [`from_slice`]) accept any `&[u8]` of any
//! length, from anyone. For every input a read either returns a value or a
//! [`DecodeError`] naming the cause and the bit offset. It never panics,
//! never reads outside its slice, never loops on a count it has not checked,
//! and allocates only for strings whose length it has checked against the
//! bits left in the input, so its memory is bounded by a small constant
//! times the input length. Failure is sticky: after the first refusal every
//! later operation on the stream refuses too, and a refused operation leaves
//! its destination untouched.
//!
//! **Writers** ([`WriteStream`], [`to_vec`]) trust their caller's values no
//! further than the reader would: a value that a reader would refuse (out of
//! range, malformed string, non-increasing relative integer) is refused with
//! [`EncodeError::Invalid`], so a writer never produces bytes its own reader
//! rejects. A buffer too small for the next field gives
//! [`EncodeError::BufferFull`].
//!
//! **Callers** choose declarations (ranges, resolutions, buffer sizes) that
//! make sense (`min <= max`, widths 1 to 64): those are checked with
//! `debug_assert!` only, since they are code, not input. Callers who need the
//! whole input consumed check it themselves, or use the packet layer, which
//! refuses trailing bytes.
//!
//! # Layout
//!
//! [`bits`] is the only code that touches bytes, and its reader
//! (`bits/read.rs`) is the only code that reads the wire; [`stream`] holds
//! the [`Stream`] trait and the three streams; [`ops`] holds each operation
//! of the format, written once against [`Stream`]. A generic `serialize` is
//! the specification. A protocol may add a hot path beside it: reached
//! through `Stream::concrete` (sealed: only the codec calls it), it runs
//! only on [`ReadStream`] and [`WriteStream`] and hands back to the
//! generic code where it stops; scene
//! E's is `protocols/scenes/hot.rs`, and `codec/tests/hot_paths.rs` holds
//! every hot path equal to the generic code on any input.

#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    deny(
        clippy::indexing_slicing,
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::arithmetic_side_effects
    )
)]
#![warn(missing_docs)]

// The derive's generated code names this crate `::codec`, in user crates
// and in this one alike.
extern crate self as codec;

#[cfg(feature = "arbitrary")]
pub mod arbitrary;
pub mod attributes;
pub mod bits;
mod check_hash;
mod divide;
mod error;
pub mod max_bits;
pub mod packet;
pub mod program;
pub mod protocols;
pub mod role;
pub mod stream;
pub use stream::ops;
pub mod subset;
pub mod versioned;

pub use codec_derive::{Packet, Serialize};

/// Without the feature `arbitrary`, the derive's `Arbitrary` implementations
/// expand to nothing.
#[cfg(not(feature = "arbitrary"))]
#[doc(hidden)]
#[macro_export]
macro_rules! __when_arbitrary {
    ($($item:tt)*) => {};
}
pub use check_hash::check_hash;
pub use error::{DecodeError, EncodeError};
pub use ops::compressed_float::CompressedFloat;
pub use ops::fixed::Fixed;
pub use ops::int::{bits_for_span, bits_required};
pub use ops::wide::bits_for_span128;
pub use packet::Packet;
pub use role::Role;
pub use stream::{MeasureStream, ReadStream, Serialize, Stream, WriteStream};

/// Bits a ranged `int64(min, max)` costs.
#[must_use]
pub const fn bits_required64(min: i64, max: i64) -> u32 {
    bits_for_span128((max as u64).wrapping_sub(min as u64) as u128)
}

/// Bits a ranged `int128(min, max)` costs.
#[must_use]
pub const fn bits_required128(min: i128, max: i128) -> u32 {
    bits_for_span128((max as u128).wrapping_sub(min as u128))
}

/// Writes `value` into `buf` and returns the length of the stream in bytes.
/// Bytes of `buf` past that length, up to a multiple of eight, may be
/// overwritten with zeros. Inlined, so that a packet's `serialize` is
/// inlined into it where the caller writes, and each field's position is a
/// constant; with [`Serialize::MAX_BITS`] declared, so is each field's
/// room.
#[inline]
pub fn write_to<T: Serialize>(value: &mut T, buf: &mut [u8]) -> Result<usize, EncodeError> {
    // Whole words: the last one is stored at once, zeros past the value.
    let words = T::MAX_BITS.and_then(|bits| usize::try_from(bits.div_ceil(64)).ok());
    if let Some(bytes) = words.and_then(|words| words.checked_mul(8)) {
        // A constant length: each field's room check folds away.
        if let Some(head) = buf.get_mut(..bytes) {
            let mut stream = WriteStream::new(head);
            match value.serialize(&mut stream) {
                Ok(()) => return Ok(stream.finish()),
                // Declared too small: the whole buffer decides.
                Err(EncodeError::BufferFull { .. }) => {}
                Err(other) => return Err(other),
            }
        }
    }
    write_to_any(value, buf)
}

/// [`write_to`] where the room is checked field by field.
#[inline]
fn write_to_any<T: Serialize>(value: &mut T, buf: &mut [u8]) -> Result<usize, EncodeError> {
    let mut stream = WriteStream::new(buf);
    value.serialize(&mut stream)?;
    Ok(stream.finish())
}

/// An upper bound of the bits `value` writes.
pub fn measure<T: Serialize>(value: &mut T) -> Result<u64, EncodeError> {
    let mut stream = MeasureStream::new();
    value.serialize(&mut stream)?;
    Ok(stream.bits())
}

/// Writes `value` into a new vector sized by its measure.
pub fn to_vec<T: Serialize>(value: &mut T) -> Result<Vec<u8>, EncodeError> {
    let bound = usize::try_from(measure(value)?.div_ceil(8)).unwrap_or(usize::MAX);
    let mut buf = vec![0u8; bound];
    let len = write_to(value, &mut buf)?;
    buf.truncate(len);
    Ok(buf)
}

/// Reads a `T` from the start of `bytes`. Bits after the value are not
/// looked at.
pub fn from_slice<T: Serialize + Default>(bytes: &[u8]) -> Result<T, DecodeError> {
    let mut value = T::default();
    value.serialize(&mut ReadStream::new(bytes))?;
    Ok(value)
}
