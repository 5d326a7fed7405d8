//! The writing stream.

use super::Stream;
use crate::bits::{low_mask, BitWriter};
use crate::error::{DecodeError, EncodeError};

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

    /// The bit writer, for a hot path (see [`Stream::concrete`]).
    #[inline(always)]
    pub(crate) fn writer(&mut self) -> &mut BitWriter<'a> {
        &mut self.writer
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
            bits >= 32 || *value >> bits == 0,
            "value wider than its field"
        );
        // The bit writer takes what a field holds; a release build's wider
        // value or width is cut to the field here, so it cannot spill into
        // the next one. With a constant width the cut is an AND at most.
        let bits = bits.min(32);
        self.writer
            .write_bits((u64::from(*value) & low_mask(bits)) as u32, bits)
    }

    #[inline(always)]
    fn concrete<H: super::HotPath>(&mut self, _: super::Token, hot: H) -> Option<H::Output> {
        Some(hot.write(self))
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
