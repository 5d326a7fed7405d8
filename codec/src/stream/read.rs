//! The reading stream: the trust boundary.

use super::Stream;
use crate::bits::BitReader;
use crate::error::DecodeError;

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

    /// The bit reader, for a hot path (see [`Stream::concrete`]). A
    /// refusal has poisoned it, so a failed stream has nothing to read.
    #[inline(always)]
    pub(crate) fn reader(&mut self) -> &mut BitReader<'a> {
        &mut self.reader
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

    // Inlined, not cold: out of line, the error was stored field by field
    // and reloaded whole, a stall that made refusing slower than accepting.
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
        // The bit reader takes a field's width as given; a wider one is
        // cut to 32 here, where a constant width folds the cut away.
        let read = self.reader.read_bits(bits.min(32));
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
        crate::stream::ops::wide::serialize_u64(self, value, bits)
    }

    #[inline(always)]
    fn concrete<H: super::HotPath>(&mut self, _: super::Token, hot: H) -> Option<H::Output> {
        Some(hot.read(self))
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
        let checked = crate::stream::ops::string::checked_str(payload, at);
        let text = self.sticky(checked)?;
        value.clear();
        value.push_str(text);
        Ok(())
    }
}
