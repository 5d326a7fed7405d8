//! The measuring stream.

use super::Stream;
use crate::error::{DecodeError, EncodeError};

/// Bits charged for an aligning operation whatever the starting offset: the
/// most padding an align can need. This keeps the measure an upper bound at
/// every starting bit offset, as format 1.1 requires.
pub const ALIGN_BOUND_BITS: u64 = 7;

/// Counts an upper bound of the bits a value writes, without writing.
///
/// Every operation but the aligning ones costs its exact width; `align`,
/// `bytes` and `string` are charged `ALIGN_BOUND_BITS` for padding. The
/// format's operations never fail here.
#[derive(Clone, Copy, Debug, Default)]
pub struct MeasureStream {
    bits: u64,
}

impl MeasureStream {
    /// A measure starting from zero bits.
    #[must_use]
    pub const fn new() -> Self {
        Self { bits: 0 }
    }

    /// The bound measured so far, in bits.
    #[must_use]
    pub const fn bits(&self) -> u64 {
        self.bits
    }

    /// The bound measured so far, in whole bytes.
    #[must_use]
    pub const fn bytes(&self) -> u64 {
        self.bits.div_ceil(8)
    }

    #[inline]
    fn add(&mut self, bits: u64) {
        self.bits = self.bits.saturating_add(bits);
    }
}

impl Stream for MeasureStream {
    const IS_READING: bool = false;
    type Error = EncodeError;

    #[inline]
    fn bit_offset(&self) -> u64 {
        self.bits
    }

    #[inline]
    fn bits_remaining(&self) -> u64 {
        u64::MAX
    }

    #[cold]
    fn refuse(&mut self, why: DecodeError) -> EncodeError {
        EncodeError::Invalid(why)
    }

    /// A width over 32 counts as 32, the bits a writing stream writes for it.
    #[inline]
    fn serialize_bits(&mut self, _value: &mut u32, bits: u32) -> Result<(), EncodeError> {
        self.add(u64::from(bits.min(32)));
        Ok(())
    }

    #[inline]
    fn serialize_align(&mut self) -> Result<(), EncodeError> {
        self.add(ALIGN_BOUND_BITS);
        Ok(())
    }

    #[inline]
    fn serialize_bytes(&mut self, bytes: &mut [u8]) -> Result<(), EncodeError> {
        self.add(ALIGN_BOUND_BITS);
        self.add((bytes.len() as u64).saturating_mul(8));
        Ok(())
    }

    fn serialize_str_payload(
        &mut self,
        _value: &mut String,
        len: usize,
    ) -> Result<(), EncodeError> {
        self.add(ALIGN_BOUND_BITS);
        self.add((len as u64).saturating_mul(8));
        Ok(())
    }
}
