//! The writer that writes ahead: a copy of a
//! [`WriteStream`](crate::WriteStream)'s state, in registers, over the same
//! buffer.

use super::Behind;
use crate::bits::{StoringState, StoringWriter};
use crate::error::DecodeError;
use crate::ops::compressed_float::CompressedFloat;
use crate::ops::golomb::GolombTable;
use crate::stream::write::{
    codes_to_writer, golomb_table_to_writer, golomb_to_writer, record_to_writer, run_to_writer,
};
use crate::stream::Stream;

/// Writes ahead of a [`WriteStream`](crate::WriteStream) by its fast paths
/// alone: records ([`Stream::write_record`], runs of codes and of raw
/// fields) and Golomb codes of one write. Every other operation, and every
/// value or room those paths do not take, is refused with [`Behind`],
/// having written nothing. Made by [`Stream::write_ahead`]; what it wrote
/// is taken over with [`Stream::catch_up_write`].
#[derive(Debug)]
pub struct WriteAhead<'a> {
    writer: StoringWriter<'a>,
    /// Whether [`Stream::write_record_when`] takes no branch on its flag.
    selects: bool,
}

/// Where a [`WriteAhead`] stood: where it wrote up to, to hand to
/// [`Stream::catch_up_write`], or where an item began, to go back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteMark(StoringState);

impl WriteMark {
    /// The writer's state.
    #[inline(always)]
    pub(crate) const fn state(self) -> StoringState {
        self.0
    }
}

impl<'a> WriteAhead<'a> {
    /// Writes ahead from where `writer` (a stream's writer's
    /// [`BitWriter::storing`](crate::bits::BitWriter::storing)) stands.
    #[inline(always)]
    pub(crate) const fn new(writer: StoringWriter<'a>) -> Self {
        Self {
            writer,
            selects: true,
        }
    }

    /// This writer, taking a branch on the flag of
    /// [`Stream::write_record_when`] where it would select: for items
    /// written one after another with nothing between them (a scene at
    /// full density), where every item storing twice cost more than the
    /// branch's mispredictions (peers bench, scene E's encode at 100 %:
    /// 168 us an iteration with the branch, 194 without).
    #[inline(always)]
    #[must_use]
    pub const fn branching(self) -> Self {
        Self {
            selects: false,
            ..self
        }
    }

    /// Where it stands now.
    #[inline(always)]
    #[must_use]
    pub fn mark(&self) -> WriteMark {
        WriteMark(self.writer.state())
    }

    /// Goes back to `mark`, one this writer stood at before; what it wrote
    /// since is overwritten by what the stream writes next.
    #[inline(always)]
    pub fn rewind(&mut self, mark: WriteMark) {
        self.writer.rewind(mark.0);
    }
}

impl Stream for WriteAhead<'_> {
    const IS_READING: bool = false;
    const FAST_PATHS_ONLY: bool = true;
    type Error = Behind;

    #[inline(always)]
    fn bit_offset(&self) -> u64 {
        self.writer.bits_written()
    }

    #[inline(always)]
    fn bits_remaining(&self) -> u64 {
        self.writer.bits_available()
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
        golomb_to_writer(&mut self.writer, *gap, m, room)
            .then_some(())
            .ok_or(Behind)
    }

    #[inline(always)]
    fn serialize_golomb_table(
        &mut self,
        gap: &mut u32,
        table: &GolombTable,
        room: u32,
    ) -> Result<(), Behind> {
        golomb_table_to_writer(&mut self.writer, *gap, table, room)
            .then_some(())
            .ok_or(Behind)
    }

    #[inline(always)]
    fn serialize_compressed_codes<const N: usize>(
        &mut self,
        codes: &mut [u32; N],
        format: &CompressedFloat,
    ) -> Result<(), Behind> {
        codes_to_writer(&mut self.writer, codes, format)
            .then_some(())
            .ok_or(Behind)
    }

    #[inline(always)]
    fn serialize_bits_run<const N: usize>(
        &mut self,
        values: &mut [u32; N],
        widths: [u32; N],
    ) -> Result<(), Behind> {
        run_to_writer(&mut self.writer, values, widths)
            .then_some(())
            .ok_or(Behind)
    }

    #[inline(always)]
    fn write_record<const N: usize>(
        &mut self,
        values: &[u32; N],
        widths: [u32; N],
        maxes: [u32; N],
    ) -> bool {
        record_to_writer(&mut self.writer, true, values, widths, maxes)
    }

    #[inline(always)]
    fn write_record_when<const N: usize>(
        &mut self,
        when: bool,
        values: &[u32; N],
        widths: [u32; N],
        maxes: [u32; N],
    ) -> bool {
        if self.selects {
            record_to_writer(&mut self.writer, when, values, widths, maxes)
        } else {
            !when || record_to_writer(&mut self.writer, true, values, widths, maxes)
        }
    }
}
