//! The writing stream.

use super::Stream;
use crate::bits::{BitWriter, WideWrite};
use crate::error::{DecodeError, EncodeError};
use crate::ops::compressed_float::CompressedFloat;
use crate::ops::int::bits_for_span;

/// Writes a [`Serialize`](super::Serialize) value into a caller's buffer,
/// allocating nothing.
#[derive(Debug)]
pub struct WriteStream<'a> {
    writer: BitWriter<'a>,
}

impl<'a> WriteStream<'a> {
    /// A stream that writes into `buf` from its first byte.
    #[inline]
    #[must_use]
    pub fn new(buf: &'a mut [u8]) -> Self {
        Self {
            writer: BitWriter::new(buf),
        }
    }

    /// Flushes the last bits and returns how many bytes of the buffer the
    /// stream occupies.
    #[inline]
    pub fn finish(self) -> usize {
        self.writer.finish()
    }
}

impl Stream for WriteStream<'_> {
    const IS_READING: bool = false;
    type Error = EncodeError;

    #[inline]
    fn bit_offset(&self) -> u64 {
        self.writer.bits_written()
    }

    #[inline]
    fn bits_remaining(&self) -> u64 {
        self.writer.bits_available()
    }

    #[cold]
    fn refuse(&mut self, why: DecodeError) -> EncodeError {
        EncodeError::Invalid(why)
    }

    #[inline(always)]
    fn serialize_bits(&mut self, value: &mut u32, bits: u32) -> Result<(), EncodeError> {
        debug_assert!(
            bits == 32 || *value >> bits == 0,
            "value wider than its field"
        );
        self.writer.write_bits(*value, bits)
    }

    /// A run whose codes are all in range and fit in 64 bits is written
    /// with one write ([`codes_to_writer`]); any other goes field by field,
    /// which refuses the first code out of range, or the first that does
    /// not fit, as always.
    #[inline(always)]
    fn serialize_compressed_codes<const N: usize>(
        &mut self,
        codes: &mut [u32; N],
        format: &CompressedFloat,
    ) -> Result<(), EncodeError> {
        if codes_to_writer(&mut self.writer, codes, format) {
            return Ok(());
        }
        crate::ops::run::codes_one_by_one(self, codes, format)
    }

    /// A gap whose whole code one write takes ([`golomb_to_writer`]);
    /// any other goes field by field, which refuses where it always has.
    #[inline(always)]
    fn serialize_golomb(&mut self, gap: &mut u32, m: u32, room: u32) -> Result<(), EncodeError> {
        if golomb_to_writer(&mut self.writer, *gap, m, room) {
            return Ok(());
        }
        crate::ops::golomb::serialize_golomb(self, gap, m, room)
    }

    /// A gap whose code the table holds ([`golomb_table_to_writer`]); any
    /// other as [`Stream::serialize_golomb`] writes it.
    #[inline(always)]
    fn serialize_golomb_table(
        &mut self,
        gap: &mut u32,
        table: &crate::ops::golomb::GolombTable,
        room: u32,
    ) -> Result<(), EncodeError> {
        if golomb_table_to_writer(&mut self.writer, *gap, table, room) {
            return Ok(());
        }
        self.serialize_golomb(gap, table.m(), room)
    }

    #[inline(always)]
    fn serialize_bits_run<const N: usize>(
        &mut self,
        values: &mut [u32; N],
        widths: [u32; N],
    ) -> Result<(), EncodeError> {
        if run_to_writer(&mut self.writer, values, widths) {
            return Ok(());
        }
        crate::ops::run::bits_one_by_one(self, values, widths)
    }

    #[inline(always)]
    fn write_ahead(&mut self) -> Option<super::WriteAhead<'_>> {
        self.writer.storing().map(super::WriteAhead::new)
    }

    #[inline(always)]
    fn catch_up_write(&mut self, mark: super::WriteMark) {
        self.writer.catch_up(mark.state());
    }

    /// [`record_to_writer`].
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
        record_to_writer(&mut self.writer, when, values, widths, maxes)
    }

    #[inline(always)]
    fn serialize_align(&mut self) -> Result<(), EncodeError> {
        self.writer.align()
    }

    #[inline(always)]
    fn serialize_bytes(&mut self, bytes: &mut [u8]) -> Result<(), EncodeError> {
        self.writer.align()?;
        self.writer.write_aligned_bytes(bytes)
    }

    fn serialize_str_payload(&mut self, value: &mut String, len: usize) -> Result<(), EncodeError> {
        debug_assert_eq!(value.len(), len);
        self.writer.align()?;
        self.writer.write_aligned_bytes(value.as_bytes())
    }
}

/// Writes `values[i]` in `widths[i]` bits (each at most 32) with one
/// write when they add up to at most 64 bits and fit in the buffer; false,
/// with nothing written, otherwise. The widths are constants at every
/// caller, so the packing folds to shifts and ors. Shared by
/// [`WriteStream`] and the writer that writes ahead, as are the functions
/// below, so both write exactly the same bits.
#[inline(always)]
pub(super) fn run_to_writer<const N: usize>(
    writer: &mut impl WideWrite,
    values: &[u32; N],
    widths: [u32; N],
) -> bool {
    let total = super::record_bits(&widths);
    if total > 64 {
        return false;
    }
    let mut packed = 0u64;
    let mut shift = 0u32;
    for (value, width) in values.iter().zip(widths) {
        let width = width.min(32);
        let field = u64::from(*value) & ((1u64 << width).wrapping_sub(1));
        packed |= field << (shift & 63);
        shift = shift.wrapping_add(width);
    }
    writer.put(packed, total)
}

/// A run of compressed-float codes with one write, when every code is in
/// range and [`run_to_writer`] takes them; false, with nothing written,
/// otherwise.
#[inline(always)]
pub(super) fn codes_to_writer<const N: usize>(
    writer: &mut impl WideWrite,
    codes: &[u32; N],
    format: &CompressedFloat,
) -> bool {
    let max = format.max_integer_value();
    let width = bits_for_span(max);
    let in_range = codes.iter().fold(true, |all, code| all & (*code <= max));
    in_range && run_to_writer(writer, codes, [width; N])
}

/// A gap in `1..=room` whose whole Golomb code (the quotient's ones, their
/// zero and the remainder) takes at most 64 bits and fits, with one write;
/// false, with nothing written, otherwise.
#[inline(always)]
pub(super) fn golomb_to_writer(writer: &mut impl WideWrite, gap: u32, m: u32, room: u32) -> bool {
    let m = m.max(1);
    if !(1..=room).contains(&gap) {
        return false;
    }
    let v = gap.wrapping_sub(1);
    let quotient = v.checked_div(m).unwrap_or(0);
    let remainder = v.checked_rem(m).unwrap_or(0);
    let (b, short) = crate::ops::golomb::truncated_binary(m);
    // m = 1 has b = 0: no remainder bits at all.
    let (tail, tail_bits) = if m == 1 {
        (0u64, 0u32)
    } else if remainder < short {
        (u64::from(remainder), b.wrapping_sub(1))
    } else {
        // (r + u) >> 1 in b - 1 bits, then (r + u) & 1: the b bits of
        // r + u, the low bit last.
        let coded = remainder.wrapping_add(short);
        let high = coded >> 1;
        let reordered = u64::from(high) | (u64::from(coded & 1) << (b.wrapping_sub(1) & 31));
        (reordered, b)
    };
    let ones_and_zero = quotient.wrapping_add(1);
    let total = ones_and_zero.saturating_add(tail_bits);
    if total > 64 {
        return false;
    }
    // The quotient's ones, its zero, then the remainder.
    let ones = (1u64 << (quotient & 63)).wrapping_sub(1);
    let code = ones | (tail << (ones_and_zero & 63));
    writer.put(code, total)
}

/// A gap in `1..=room` whose code `table` holds, with one lookup and one
/// write, where [`golomb_to_writer`] divides by the parameter; else
/// [`golomb_to_writer`].
#[inline(always)]
pub(super) fn golomb_table_to_writer(
    writer: &mut impl WideWrite,
    gap: u32,
    table: &crate::ops::golomb::GolombTable,
    room: u32,
) -> bool {
    let (code, bits) = table.encode(gap);
    if bits != 0 && (1..=room).contains(&gap) {
        return writer.put(u64::from(code), bits);
    }
    golomb_to_writer(writer, gap, table.m(), room)
}

/// A record packed into 128 bits with constant shifts, then written at
/// once ([`WideWrite::put_wide`]) where `when`, or as zero bits where not,
/// without a branch on `when`; false, with nothing written, where a value
/// of a record to write passes its `maxes`, or where the room is short.
#[inline(always)]
pub(super) fn record_to_writer<const N: usize>(
    writer: &mut impl WideWrite,
    when: bool,
    values: &[u32; N],
    widths: [u32; N],
    maxes: [u32; N],
) -> bool {
    let total = super::record_bits(&widths);
    if total > 120 {
        return false;
    }
    let mut packed = 0u128;
    let mut shift = 0u32;
    let mut fits = true;
    for ((value, width), max) in values.iter().zip(widths).zip(maxes) {
        let width = width.min(32);
        fits &= *value <= max;
        let field = u128::from(*value) & ((1u128 << width).wrapping_sub(1));
        packed |= field << (shift & 127);
        shift = shift.wrapping_add(width);
    }
    let bits = total & 0u32.wrapping_sub(u32::from(when));
    let packed = packed & 0u128.wrapping_sub(u128::from(when));
    (fits | !when) && writer.put_wide(packed, bits)
}
