//! Streams that run ahead of a [`ReadStream`](super::ReadStream) or a
//! [`WriteStream`](super::WriteStream) in registers, by their fast paths
//! alone.
//!
//! A subset's loop calls the stream's operations once per item, and a
//! stream it was handed by reference keeps its state in memory: every gap
//! and record loads the position (or the writer's pending bits) and stores
//! it back, because the loop also holds the calls of the field-by-field
//! paths, which take the stream's address. Scene E spent most of an
//! object's time on that chain (docs/BENCHMARKS.md, section 1).
//! [`ReadAhead`] and [`WriteAhead`] are values of their own, whose every
//! operation is inlined and never calls out, so the compiler can keep them
//! in registers. What their fast paths (records, runs, Golomb codes from
//! one window or table) do not take, they do not do at all: they refuse
//! with [`Behind`], and the loop goes back to where the item began
//! ([`ReadAhead::rewind`], [`WriteAhead::rewind`]), hands the stream what
//! was done before it ([`Stream::catch_up_read`],
//! [`Stream::catch_up_write`]) and goes on from there with the stream
//! itself, which reads, writes or refuses the item exactly as it always
//! would. The fast paths are the stream's own functions, so the two take
//! exactly the same values.

mod read;
mod write;

pub use read::{ReadAhead, ReadMark};
pub use write::{WriteAhead, WriteMark};

use super::Stream;
use crate::error::DecodeError;

/// What a [`ReadAhead`] or a [`WriteAhead`] refuses with: not a verdict on
/// the input, only "this was not done here; do it on the stream".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Behind;

/// What code whose record a [`Stream::FAST_PATHS_ONLY`] stream did not
/// take returns, in place of going field by field: that stream's
/// [`Behind`]. (On any other stream it would be a refusal past the end.)
#[inline(always)]
pub fn left_behind<S: Stream>(stream: &mut S) -> S::Error {
    let at = stream.bit_offset();
    stream.refuse(DecodeError::PastEnd { at })
}
