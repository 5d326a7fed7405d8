//! The reading stream: the trust boundary.

use super::Stream;
use crate::bits::BitReader;
use crate::error::DecodeError;
use crate::ops::compressed_float::CompressedFloat;
use crate::ops::int::bits_for_span;

/// Reads a [`Serialize`](super::Serialize) value from untrusted bytes.
///
/// Failure is sticky: once an operation is refused, every later operation,
/// including zero-bit ones, refuses with the first error. A refusal
/// poisons the bit reader (no bit is left to read), so a read of one bit or
/// more fails on its own and only then looks up the first error; a read of
/// zero bits, which cannot fail that way, asks for it directly.
#[derive(Clone, Debug)]
pub struct ReadStream<'a> {
    reader: BitReader<'a>,
    failed: Option<DecodeError>,
}

impl<'a> ReadStream<'a> {
    /// A stream over all of `data`; no slack bytes are needed.
    #[inline]
    #[must_use]
    pub fn new(data: &'a [u8]) -> Self {
        Self {
            reader: BitReader::new(data),
            failed: None,
        }
    }

    /// The first refusal, if any.
    #[must_use]
    pub const fn error(&self) -> Option<DecodeError> {
        self.failed
    }

    #[inline(always)]
    fn ok(&self) -> Result<(), DecodeError> {
        match self.failed {
            None => Ok(()),
            Some(err) => Err(err),
        }
    }

    #[inline(always)]
    fn sticky<T>(&mut self, result: Result<T, DecodeError>) -> Result<T, DecodeError> {
        result.map_err(|err| self.refuse(err))
    }
}

impl Stream for ReadStream<'_> {
    const IS_READING: bool = true;
    type Error = DecodeError;

    #[inline]
    fn bit_offset(&self) -> u64 {
        self.reader.bits_read()
    }

    #[inline]
    fn bits_remaining(&self) -> u64 {
        self.reader.bits_remaining()
    }

    // Inlined, not cold: built out of line, the 32-byte error was stored
    // field by field by the caller and reloaded whole here, two
    // store-forwarding stalls per refusal that made refusing at the last
    // field slower than accepting (perf, the refusal benchmark's bad-check).
    // Refusals sit behind branches that are cold already.
    #[inline(always)]
    fn refuse(&mut self, why: DecodeError) -> DecodeError {
        self.reader.poison();
        *self.failed.get_or_insert(why)
    }

    #[inline(always)]
    fn serialize_bits(&mut self, value: &mut u32, bits: u32) -> Result<(), DecodeError> {
        if bits == 0 {
            // Nothing to read, so nothing to fail on: the stream's own
            // failure decides.
            self.ok()?;
        }
        let read = self.reader.read_bits(bits);
        *value = self.sticky(read)?;
        Ok(())
    }

    /// One load for a field of up to 57 bits that fits (a game packet's
    /// 48-bit timestamp, say), where every other stream reads a 32-bit
    /// group and the rest; a field that does not fit is read as those
    /// groups, which refuse where they would.
    #[inline(always)]
    fn serialize_bits64(&mut self, value: &mut u64, bits: u32) -> Result<(), DecodeError> {
        if (1..=BitReader::MAX_WIDE_BITS).contains(&bits) {
            if let Some(read) = self.reader.read_wide(bits) {
                *value = read;
                return Ok(());
            }
        }
        crate::ops::wide::serialize_u64(self, value, bits)
    }

    /// The whole code from one window where the window holds it
    /// ([`golomb_from_window`]); anything else is read field by field,
    /// which refuses where it always has.
    #[inline(always)]
    fn serialize_golomb(&mut self, gap: &mut u32, m: u32, room: u32) -> Result<(), DecodeError> {
        if let Some(read) = golomb_from_window(&mut self.reader, m, room) {
            *gap = read;
            return Ok(());
        }
        crate::ops::golomb::serialize_golomb(self, gap, m, room)
    }

    /// The code looked up in `table` where it can be
    /// ([`golomb_from_table`]); anything else is read field by field, which
    /// refuses where it always has.
    #[inline(always)]
    fn serialize_golomb_table(
        &mut self,
        gap: &mut u32,
        table: &crate::ops::golomb::GolombTable,
        room: u32,
    ) -> Result<(), DecodeError> {
        if let Some(read) = golomb_from_table(&mut self.reader, table, room) {
            *gap = read;
            return Ok(());
        }
        crate::ops::golomb::serialize_golomb(self, gap, table.m(), room)
    }

    #[inline(always)]
    fn serialize_compressed_codes<const N: usize>(
        &mut self,
        codes: &mut [u32; N],
        format: &CompressedFloat,
    ) -> Result<(), DecodeError> {
        let max = format.max_integer_value();
        if let Some(read) = self.read_record([bits_for_span(max); N], [max; N], |_| true) {
            *codes = read;
            return Ok(());
        }
        crate::ops::run::codes_one_by_one(self, codes, format)
    }

    #[inline(always)]
    fn serialize_bits_run<const N: usize>(
        &mut self,
        values: &mut [u32; N],
        widths: [u32; N],
    ) -> Result<(), DecodeError> {
        if let Some(read) = self.read_record(widths, [u32::MAX; N], |_| true) {
            *values = read;
            return Ok(());
        }
        crate::ops::run::bits_one_by_one(self, values, widths)
    }

    #[inline(always)]
    fn read_ahead(&self) -> Option<super::ReadAhead<'_>> {
        self.failed
            .is_none()
            .then(|| super::ReadAhead::new(self.reader.clone()))
    }

    #[inline(always)]
    fn catch_up_read(&mut self, mark: super::ReadMark) {
        let to = mark.bits();
        if self.failed.is_none() && to >= self.reader.bits_read() {
            self.reader.seek_forward(to);
        }
    }

    /// The fields from one window ([`record_from_window`]).
    #[inline(always)]
    fn read_record<const N: usize>(
        &mut self,
        widths: [u32; N],
        maxes: [u32; N],
        accept: impl FnOnce(&[u32; N]) -> bool,
    ) -> Option<[u32; N]> {
        record_from_window(&mut self.reader, widths, maxes, accept)
    }

    #[inline(always)]
    fn serialize_align(&mut self) -> Result<(), DecodeError> {
        if self.reader.padding_bits() == 0 {
            // No bit to read: the stream's own failure decides.
            return self.ok();
        }
        let aligned = self.reader.align();
        self.sticky(aligned)
    }

    #[inline(always)]
    fn serialize_bytes(&mut self, bytes: &mut [u8]) -> Result<(), DecodeError> {
        self.serialize_align()?;
        let read = self.reader.read_aligned_bytes(bytes.len());
        bytes.copy_from_slice(self.sticky(read)?);
        Ok(())
    }

    fn serialize_str_payload(&mut self, value: &mut String, len: usize) -> Result<(), DecodeError> {
        self.serialize_align()?;
        let at = self.reader.bits_read();
        let read = self.reader.read_aligned_bytes(len);
        let payload = self.sticky(read)?;
        let checked = crate::ops::string::checked_str(payload, at);
        let text = self.sticky(checked)?;
        value.clear();
        value.push_str(text);
        Ok(())
    }
}

/// A Golomb code of parameter `m` from one window, when the window holds
/// it and its gap is in `1..=room`: the quotient's ones counted at once,
/// and the remainder's extra bit taken or not by a select, since whether a
/// remainder needs it is as random as the gaps. `None`, with nothing
/// consumed, otherwise: the caller reads field by field, which refuses
/// where it always has. Shared by [`ReadStream`] and the speculative
/// reader, so both accept exactly the same codes.
#[inline(always)]
pub(super) fn golomb_from_window(reader: &mut BitReader<'_>, m: u32, room: u32) -> Option<u32> {
    let window = reader.window64()?;
    let quotient = window.trailing_ones();
    let (value, used, held) = if m > 1 {
        let (b, short) = crate::ops::golomb::truncated_binary(m);
        // The remainder's first b - 1 bits, then maybe one more.
        let first = b.wrapping_sub(1);
        let rest = window >> (quotient.wrapping_add(1) & 63);
        let high = (rest & ((1u64 << (first & 63)).wrapping_sub(1))) as u32;
        let extra = high >= short;
        let low = ((rest >> (first & 63)) & 1) as u32;
        // A select the compiler would otherwise turn into a branch that
        // mispredicts on every other gap.
        let remainder =
            core::hint::select_unpredictable(extra, ((high << 1) | low).wrapping_sub(short), high);
        let used = quotient.wrapping_add(b).wrapping_add(u32::from(extra));
        (
            remainder,
            used,
            quotient.saturating_add(1).saturating_add(b),
        )
    } else {
        (0, quotient.wrapping_add(1), quotient.saturating_add(1))
    };
    // The window holds the ones, their zero and the remainder. Two 32-bit
    // factors and two small terms: no u64 overflows. A gap within the room
    // has its quotient's ones within it too (quotient * m < gap), so the
    // unary bound needs no test of its own.
    let gap = u64::from(quotient)
        .wrapping_mul(u64::from(m.max(1)))
        .wrapping_add(u64::from(value))
        .wrapping_add(1);
    if held <= BitReader::MAX_WIDE_BITS && gap <= u64::from(room) {
        reader.advance(used);
        return Some(gap as u32);
    }
    None
}

/// A Golomb code looked up in `table` from one window where it takes at
/// most [`TABLE_BITS`](crate::ops::golomb::TABLE_BITS) bits and its gap
/// is in `1..=room` (an entry that is not there, gap 0, and a gap past the
/// room fail the same one comparison); else [`golomb_from_window`].
#[inline(always)]
pub(super) fn golomb_from_table(
    reader: &mut BitReader<'_>,
    table: &crate::ops::golomb::GolombTable,
    room: u32,
) -> Option<u32> {
    // A unary code (m = 1) is counted faster than looked up: the lookup's
    // load would sit between the reader's position and the next.
    if table.m() > 1 {
        if let Some(window) = reader.window64() {
            let (read, bits) = table.decode(window);
            if read.wrapping_sub(1) < room {
                reader.advance(bits);
                return Some(read);
            }
        }
    }
    golomb_from_window(reader, table.m(), room)
}

/// The fields of a record from one window, when the window holds them all;
/// then checked, and consumed only when each is at most its `maxes` and
/// `accept` approves them. The widths and bounds are constants at every
/// caller, so each field costs a shift, a mask and a comparison, and no
/// branch is taken until the record is read. Runs of codes and of raw
/// fields are records that `accept` whatever is in range.
#[inline(always)]
pub(super) fn record_from_window<const N: usize>(
    reader: &mut BitReader<'_>,
    widths: [u32; N],
    maxes: [u32; N],
    accept: impl FnOnce(&[u32; N]) -> bool,
) -> Option<[u32; N]> {
    let total = super::record_bits(&widths);
    if total > BitReader::WINDOW_BITS {
        return None;
    }
    let window = reader.window()?;
    let mut shift = 0u32;
    let mut fits = true;
    let mut read = [0u32; N];
    for ((value, width), max) in read.iter_mut().zip(widths).zip(maxes) {
        let width = width.min(32);
        let mask = (1u64 << width).wrapping_sub(1);
        *value = ((window >> (shift & 127)) as u64 & mask) as u32;
        fits &= *value <= max;
        shift = shift.wrapping_add(width);
    }
    if !fits || !accept(&read) {
        return None;
    }
    reader.advance(total);
    Some(read)
}
