//! The reader that reads ahead: a copy of a [`ReadStream`](crate::ReadStream)'s
//! position, in registers.

use super::Behind;
use crate::bits::BitReader;
use crate::error::DecodeError;
use crate::ops::compressed_float::CompressedFloat;
use crate::ops::golomb::GolombTable;
use crate::ops::int::bits_for_span;
use crate::stream::read::{golomb_from_table, golomb_from_window, record_from_window};
use crate::stream::Stream;

/// Reads ahead of a [`ReadStream`](crate::ReadStream) by its fast paths
/// alone: records ([`Stream::read_record`], runs of codes and of raw
/// fields) and Golomb codes that one window holds. Every other operation,
/// and every value those paths do not take, is refused with [`Behind`].
/// Made by [`Stream::read_ahead`]; what it read is taken over with
/// [`Stream::catch_up_read`].
#[derive(Clone, Debug)]
pub struct ReadAhead<'a> {
    reader: BitReader<'a>,
}

/// A position a [`ReadAhead`] reached: where it read up to, to hand to
/// [`Stream::catch_up_read`], or where an item began, to go back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadMark(u64);

impl ReadMark {
    /// The bit position.
    #[inline(always)]
    pub(crate) const fn bits(self) -> u64 {
        self.0
    }
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
    pub fn mark(&self) -> ReadMark {
        ReadMark(self.reader.bits_read())
    }

    /// Goes back to `mark`, one this reader reached before.
    #[inline(always)]
    pub fn rewind(&mut self, mark: ReadMark) {
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

    const FAST_PATHS_ONLY: bool = true;
}
