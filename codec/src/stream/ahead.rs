//! The reader that reads ahead: a copy of a [`ReadStream`]'s position that
//! a loop keeps in registers.
//!
//! A subset's read loop calls the stream's operations once per item, and a
//! [`ReadStream`] it was handed by reference keeps its position in memory:
//! every gap and record loads it, and stores it back, because the loop also
//! holds the calls of the field-by-field paths, which take the stream's
//! address. Scene E's reader spent most of an object's time on that chain
//! (docs/BENCHMARKS.md, section 1). [`ReadAhead`] is a value of its own,
//! whose every operation is inlined and never calls out, so the compiler
//! can keep it in registers; what it cannot read on a fast path it does
//! not read at all. It refuses with [`Behind`], and the caller goes back to
//! where the item began and reads it again from the stream itself, which
//! reads or refuses it exactly as it always would. What it does read, it
//! reads through the same window functions as the stream, so the two
//! accept exactly the same values.

use super::read::{golomb_from_table, golomb_from_window, record_from_window};
use super::Stream;
use crate::bits::BitReader;
use crate::error::DecodeError;
use crate::ops::compressed_float::CompressedFloat;
use crate::ops::golomb::GolombTable;
use crate::ops::int::bits_for_span;

/// Reads ahead of a [`ReadStream`](super::ReadStream) by its fast paths
/// alone: records ([`Stream::read_record`], runs of codes and of raw
/// fields) and Golomb codes that one window holds. Every other operation,
/// and every value those paths do not take, is refused with [`Behind`].
/// Made by [`Stream::read_ahead`]; what it read is taken over with
/// [`Stream::catch_up`].
#[derive(Clone, Debug)]
pub struct ReadAhead<'a> {
    reader: BitReader<'a>,
}

/// What a [`ReadAhead`] refuses with: not a verdict on the input, only
/// "this was not read here; read it from the stream".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Behind;

/// A position a [`ReadAhead`] reached: where it read up to, to hand to
/// [`Stream::catch_up`], or where an item began, to go back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark(u64);

impl Mark {
    /// The bit position.
    #[inline(always)]
    pub(crate) const fn bits(self) -> u64 {
        self.0
    }
}

/// What code whose record a [`Stream::READS_AHEAD`] stream did not take
/// returns, in place of reading the fields one by one: that stream's
/// [`Behind`]. (On any other stream it would be a refusal past the end.)
#[inline(always)]
pub fn left_behind<S: Stream>(stream: &mut S) -> S::Error {
    let at = stream.bit_offset();
    stream.refuse(DecodeError::PastEnd { at })
}

impl<'a> ReadAhead<'a> {
    /// Reads ahead from where `reader` stands.
    #[inline(always)]
    pub(crate) const fn new(reader: BitReader<'a>) -> Self {
        Self { reader }
    }

    /// Where it stands now.
    #[inline(always)]
    #[must_use]
    pub fn mark(&self) -> Mark {
        Mark(self.reader.bits_read())
    }

    /// Goes back to `mark`, one this reader reached before.
    #[inline(always)]
    pub fn rewind(&mut self, mark: Mark) {
        debug_assert!(mark.0 <= self.reader.bits_read());
        self.reader.seek_back(mark.0);
    }
}

impl Stream for ReadAhead<'_> {
    const IS_READING: bool = true;
    type Error = Behind;

    #[inline(always)]
    fn bit_offset(&self) -> u64 {
        self.reader.bits_read()
    }

    #[inline(always)]
    fn bits_remaining(&self) -> u64 {
        self.reader.bits_remaining()
    }

    #[inline(always)]
    fn refuse(&mut self, _why: DecodeError) -> Behind {
        Behind
    }

    #[inline(always)]
    fn serialize_bits(&mut self, _value: &mut u32, _bits: u32) -> Result<(), Behind> {
        Err(Behind)
    }

    #[inline(always)]
    fn serialize_align(&mut self) -> Result<(), Behind> {
        Err(Behind)
    }

    #[inline(always)]
    fn serialize_bytes(&mut self, _bytes: &mut [u8]) -> Result<(), Behind> {
        Err(Behind)
    }

    #[inline(always)]
    fn serialize_str_payload(&mut self, _value: &mut String, _len: usize) -> Result<(), Behind> {
        Err(Behind)
    }

    #[inline(always)]
    fn serialize_golomb(&mut self, gap: &mut u32, m: u32, room: u32) -> Result<(), Behind> {
        *gap = golomb_from_window(&mut self.reader, m, room).ok_or(Behind)?;
        Ok(())
    }

    #[inline(always)]
    fn serialize_golomb_table(
        &mut self,
        gap: &mut u32,
        table: &GolombTable,
        room: u32,
    ) -> Result<(), Behind> {
        *gap = golomb_from_table(&mut self.reader, table, room).ok_or(Behind)?;
        Ok(())
    }

    #[inline(always)]
    fn serialize_compressed_codes<const N: usize>(
        &mut self,
        codes: &mut [u32; N],
        format: &CompressedFloat,
    ) -> Result<(), Behind> {
        let max = format.max_integer_value();
        *codes = self
            .read_record([bits_for_span(max); N], [max; N], |_| true)
            .ok_or(Behind)?;
        Ok(())
    }

    #[inline(always)]
    fn serialize_bits_run<const N: usize>(
        &mut self,
        values: &mut [u32; N],
        widths: [u32; N],
    ) -> Result<(), Behind> {
        *values = self
            .read_record(widths, [u32::MAX; N], |_| true)
            .ok_or(Behind)?;
        Ok(())
    }

    #[inline(always)]
    fn read_record<const N: usize>(
        &mut self,
        widths: [u32; N],
        maxes: [u32; N],
        accept: impl FnOnce(&[u32; N]) -> bool,
    ) -> Option<[u32; N]> {
        record_from_window(&mut self.reader, widths, maxes, accept)
    }

    /// Tells its callers that what a record's fast path does not take is
    /// not read here at all.
    const READS_AHEAD: bool = true;
}
