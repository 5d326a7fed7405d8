//! [`BitWriter`], the stream's writer, and [`StoringWriter`], the writer
//! a hot path keeps in registers.

use super::low_mask;
use crate::error::EncodeError;

/// Writes bits into a caller's buffer, a 64-bit word at a time.
///
/// A write that does not fit in the buffer is refused with
/// [`EncodeError::BufferFull`] before anything of it is written.
#[derive(Debug)]
pub struct BitWriter<'a> {
    /// The bytes not yet stored: storing a word moves its start on, so
    /// that the store's bounds check is one comparison.
    rest: &'a mut [u8],
    /// The whole buffer's length; the bytes stored are those before `rest`.
    len: usize,
    /// Pending bits, lowest first; fewer than 64 between calls.
    scratch: u64,
    scratch_bits: u32,
    /// Bits that still fit: one counter checked and decremented per write.
    left: u64,
    capacity_bits: u64,
}

impl<'a> BitWriter<'a> {
    /// A writer that fills `buf` from its first byte.
    #[inline]
    #[must_use]
    pub fn new(buf: &'a mut [u8]) -> Self {
        let capacity_bits = (buf.len() as u64).saturating_mul(8);
        Self {
            len: buf.len(),
            rest: buf,
            scratch: 0,
            scratch_bits: 0,
            left: capacity_bits,
            capacity_bits,
        }
    }

    /// Bits written so far.
    #[inline]
    #[must_use]
    pub const fn bits_written(&self) -> u64 {
        self.capacity_bits.wrapping_sub(self.left)
    }

    /// Bits that still fit in the buffer.
    #[inline]
    #[must_use]
    pub const fn bits_available(&self) -> u64 {
        self.left
    }

    /// Bytes of the buffer that hold stored words.
    #[inline(always)]
    const fn stored(&self) -> usize {
        self.len.wrapping_sub(self.rest.len())
    }

    /// Refuses a write that does not fit. Where it stands is counted from
    /// the bytes stored and the bits pending, which the write has not
    /// touched yet: from `left`, the room check would keep a copy of the
    /// count it had before subtracting, for this path alone.
    #[cold]
    fn full(&self) -> EncodeError {
        EncodeError::BufferFull {
            at: (self.stored() as u64)
                .wrapping_mul(8)
                .wrapping_add(u64::from(self.scratch_bits & 63)),
        }
    }

    /// Adds `bits` bits of `value` (`bits` in `0..=64`, `value` holding
    /// no higher bit) to the `pending` bits, which are `scratch_bits`, and
    /// stores the 64 pending bits as one word when they fill it. The caller
    /// has counted the bits against the room. Any other `bits`, `value` or
    /// `pending` stores wrong bits, but never a word past the room counted:
    /// the shifts wrap and the store is bounds-checked.
    #[inline(always)]
    fn push<const WIDE: bool>(&mut self, value: u64, bits: u32, pending: u32) {
        self.scratch |= value.wrapping_shl(pending);
        let total = pending.wrapping_add(bits);
        if total >= 64 {
            // Out of the way: most writes leave the word pending, and their
            // path is then the loop's fall-through, one taken branch.
            core::hint::cold_path();
            // Every one of these 64 bits is written, and the room check
            // counted them, so the eight bytes exist (were they not, the
            // writer would be left with no byte to store into).
            // `rest` is set before the byte store, which may alias it, so
            // that the empty slice `take` leaves is never written out.
            if let Some((word, after)) = core::mem::take(&mut self.rest).split_first_chunk_mut() {
                self.rest = after;
                *word = self.scratch.to_le_bytes();
            }
            // What of `value` did not fit, `value >> (64 - pending)`.
            self.scratch = if WIDE {
                // In two shifts below 64 (`pending ^ 63` is `63 - pending`),
                // so that none is left when nothing was pending.
                (value >> 1).wrapping_shr(pending ^ 63)
            } else {
                // A write of 32 bits or fewer fills the word only over 32 or
                // more pending, so the shift is below 64. One shift: the two
                // of the wide form share a mask with the shift above, which
                // then stays on every write instead of folding into it.
                value.wrapping_shr(64u32.wrapping_sub(pending))
            };
            self.scratch_bits = total.wrapping_sub(64);
        } else {
            self.scratch_bits = total;
        }
    }

    /// Writes `value` in `bits` bits: `bits` in `0..=32` and `value` below
    /// `2^bits`, as a stream's field guarantees (both debug assertions).
    /// Like the reference's bitpacker it neither clamps the width nor masks
    /// the value, two steps on every call where the width is not a
    /// constant; outside those bounds the bits written are unspecified, but the
    /// room is still checked, no byte outside the buffer is touched, and
    /// [`BitWriter::finish`] never claims more than the buffer.
    #[inline(always)]
    pub fn write_bits(&mut self, value: u32, bits: u32) -> Result<(), EncodeError> {
        debug_assert!(bits <= 32, "a field of {bits} bits");
        debug_assert!(
            bits >= 32 || value >> bits == 0,
            "value wider than its field"
        );
        if u64::from(bits) > self.left {
            return Err(self.full());
        }
        self.left = self.left.wrapping_sub(u64::from(bits));
        // Unmasked: the count is below 64 between calls, and a mask here
        // would lengthen the chain from one field's count to the next.
        self.push::<false>(u64::from(value), bits, self.scratch_bits);
        Ok(())
    }

    /// Writes the low `bits` bits of `value` (`bits` in `0..=64`) at once,
    /// when they fit: what a run of narrower writes of the same bits would
    /// write. Returns false, having written nothing, when they do not fit;
    /// the caller then writes field by field and is refused at the field
    /// that does not fit.
    #[inline(always)]
    pub fn write_wide(&mut self, value: u64, bits: u32) -> bool {
        debug_assert!(bits <= 64);
        let bits = bits.min(64);
        if u64::from(bits) > self.left {
            return false;
        }
        self.left = self.left.wrapping_sub(u64::from(bits));
        let value = if bits == 64 {
            value
        } else {
            value & low_mask(bits)
        };
        // Masked, so that the compiler knows fewer than 64 bits are
        // pending and a 64-bit write stores its word without a test. A word
        // stored on every write instead made the scratch a chain of selects
        // (peers bench, the Golomb scene's encode).
        self.push::<true>(value, bits, self.scratch_bits & 63);
        true
    }

    /// Bits needed to reach the next byte boundary.
    #[inline(always)]
    #[must_use]
    pub const fn padding_bits(&self) -> u32 {
        (self.bits_written().wrapping_neg() & 7) as u32
    }

    /// Writes zero bits up to the next byte boundary.
    #[inline(always)]
    pub fn align(&mut self) -> Result<(), EncodeError> {
        self.write_bits(0, self.padding_bits())
    }

    /// Moves the whole bytes held in the scratch (fewer than 64 bits) into
    /// the buffer. Only called at a byte boundary or at the end; the scratch
    /// is empty afterwards. Where eight bytes of room remain it stores the
    /// whole word: the bytes past the last one holding bits are zeros, and
    /// the next write or the caller's length leaves them out.
    #[inline]
    fn flush_scratch(&mut self) {
        let word = self.scratch.to_le_bytes();
        let count = (self.scratch_bits & 63).div_ceil(8) as usize;
        let rest = core::mem::take(&mut self.rest);
        match rest.first_chunk_mut::<8>() {
            Some(dst) => *dst = word,
            None => {
                for (dst, src) in rest.iter_mut().zip(word.iter().take(count)) {
                    *dst = *src;
                }
            }
        }
        self.rest = advance(rest, count);
        self.scratch = 0;
        self.scratch_bits = 0;
    }

    /// Writes `bytes` at a byte boundary (the caller aligns first).
    #[inline(always)]
    pub fn write_aligned_bytes(&mut self, bytes: &[u8]) -> Result<(), EncodeError> {
        debug_assert_eq!(self.bits_written() & 7, 0);
        let bits = (bytes.len() as u64).saturating_mul(8);
        if bits > self.left {
            return Err(self.full());
        }
        self.flush_scratch();
        // The room check counted these bytes, so they exist.
        if let Some((dst, after)) =
            core::mem::take(&mut self.rest).split_at_mut_checked(bytes.len())
        {
            self.rest = after;
            dst.copy_from_slice(bytes);
        }
        self.left = self.left.wrapping_sub(bits);
        Ok(())
    }

    /// A [`StoringWriter`] that goes on from where this one stands, into
    /// the same buffer, when sixteen bytes remain from the first byte not
    /// yet stored; what it writes, this one takes over with
    /// [`BitWriter::catch_up`]. The pending bits are stored first, so the
    /// other writer keeps only those of the last byte.
    #[inline(always)]
    pub(crate) fn storing(&mut self) -> Option<StoringWriter<'_>> {
        let dst = self.rest.first_chunk_mut::<8>()?;
        *dst = self.scratch.to_le_bytes();
        // Whole bytes pending: at most 7, so the shift stays below 64.
        let whole = (self.scratch_bits & 63) >> 3;
        Some(StoringWriter {
            buf: &mut *self.rest,
            byte: whole as usize,
            pending: self.scratch >> ((whole.wrapping_mul(8)) & 63),
            pending_bits: self.scratch_bits & 7,
        })
    }

    /// Takes over from a [`StoringWriter`] made by [`BitWriter::storing`],
    /// which stood at `state` when it stopped (counted, as that writer
    /// counts, from the first byte this one had not stored). A state behind
    /// this writer or past its buffer is left alone.
    #[inline(always)]
    pub(crate) fn catch_up(&mut self, state: StoringState) {
        // A slice's length times 8 fits in 64 bits.
        let written = (state.byte as u64)
            .wrapping_mul(8)
            .wrapping_add(u64::from(state.pending_bits));
        // The bits it wrote past this writer's position; the room is
        // `left` bits from there.
        let ahead = written.checked_sub(u64::from(self.scratch_bits & 63));
        if let Some(ahead) = ahead.filter(|&ahead| ahead <= self.left) {
            self.rest = advance(core::mem::take(&mut self.rest), state.byte);
            self.scratch = state.pending;
            self.scratch_bits = state.pending_bits;
            self.left = self.left.wrapping_sub(ahead);
        }
    }

    /// Flushes the last partial word and returns the stream's length in
    /// bytes, `ceil(bits_written / 8)`. Unused bits of the last byte are
    /// zero, and so may be up to seven bytes of the buffer after it.
    #[inline]
    pub fn finish(mut self) -> usize {
        self.flush_scratch();
        self.stored()
    }
}

/// `rest` without its first `count` bytes; empty when it is shorter.
#[inline(always)]
fn advance(rest: &mut [u8], count: usize) -> &mut [u8] {
    rest.get_mut(count..).unwrap_or_default()
}

/// What a writing stream's fast paths write through: a whole run of
/// fields at once, or nothing.
pub(crate) trait WideWrite {
    /// Writes the low `bits` bits of `value` (`bits` in `0..=64`, `value`
    /// holding no higher bit) when they fit; false, having written
    /// nothing, when they do not.
    fn put(&mut self, value: u64, bits: u32) -> bool;

    /// Writes the low `bits` bits of `value` (`bits` in `0..=120`, `value`
    /// holding no higher bit) when they fit; false, having written
    /// nothing, when they do not.
    fn put_wide(&mut self, value: u128, bits: u32) -> bool;
}

impl WideWrite for BitWriter<'_> {
    #[inline(always)]
    fn put(&mut self, value: u64, bits: u32) -> bool {
        self.write_wide(value, bits)
    }

    /// As two writes, the room checked once for both.
    #[inline(always)]
    fn put_wide(&mut self, value: u128, bits: u32) -> bool {
        let bits = bits.min(120);
        if u64::from(bits) > self.left {
            return false;
        }
        let low = bits.min(64);
        // The room holds both, so neither write is refused.
        self.write_wide(value as u64, low)
            && self.write_wide((value >> 64) as u64, bits.wrapping_sub(low))
    }
}

/// A writer with no branch on whether a word is full: every write ORs its
/// bits above the pending ones (fewer than 8, those of the byte not yet
/// complete), stores the result as one word at that byte, and moves past
/// the whole bytes it completed. [`BitWriter`]'s test for a full word
/// follows the widths written, which a scene's varying gaps and resting
/// objects make a coin toss the branch predictor loses. The price is the
/// position on every write's critical path, which a writer that stays in
/// registers pays cheaply; [`BitWriter`] stays the stream's writer. A write is refused,
/// with nothing written, where the store would not fit: sixteen bytes
/// from the byte not yet complete, so never in a buffer's last sixteen.
#[derive(Debug)]
pub struct StoringWriter<'a> {
    buf: &'a mut [u8],
    /// The first byte not yet complete.
    byte: usize,
    /// That byte's bits written so far, lowest first; zeros above.
    pending: u64,
    pending_bits: u32,
}

/// Where a [`StoringWriter`] stands, to go back to or to hand over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StoringState {
    byte: usize,
    pending: u64,
    pending_bits: u32,
}

impl StoringWriter<'_> {
    /// Bits written so far, counted from the buffer's start.
    #[inline(always)]
    #[must_use]
    pub fn bits_written(&self) -> u64 {
        (self.byte as u64)
            .wrapping_mul(8)
            .wrapping_add(u64::from(self.pending_bits))
    }

    /// Bits that still fit in the buffer (not all of them in one write:
    /// a write needs sixteen bytes for its store).
    #[inline(always)]
    #[must_use]
    pub fn bits_available(&self) -> u64 {
        ((self.buf.len() as u64).wrapping_mul(8)).saturating_sub(self.bits_written())
    }

    /// Where it stands.
    #[inline(always)]
    pub(crate) const fn state(&self) -> StoringState {
        StoringState {
            byte: self.byte,
            pending: self.pending,
            pending_bits: self.pending_bits,
        }
    }

    /// Goes back to `state`, one this writer stood at before: the next
    /// write stores over what was written since, and the writer that takes
    /// over stores over whatever lies past its last write.
    #[inline(always)]
    pub(crate) fn rewind(&mut self, state: StoringState) {
        debug_assert!(state.byte <= self.byte);
        self.byte = state.byte;
        self.pending = state.pending;
        self.pending_bits = state.pending_bits;
    }
}

impl WideWrite for StoringWriter<'_> {
    #[inline(always)]
    fn put(&mut self, value: u64, bits: u32) -> bool {
        if bits > 56 {
            return self.put_wide(u128::from(value), bits);
        }
        let Some(dst) = self
            .buf
            .get_mut(self.byte..)
            .and_then(<[u8]>::first_chunk_mut::<16>)
        else {
            return false;
        };
        // At most 7 pending bits and 56 new ones: one word holds them.
        let word = self.pending | (value << (self.pending_bits & 7));
        if let Some(low) = dst.first_chunk_mut::<8>() {
            *low = word.to_le_bytes();
        }
        let total = self.pending_bits.wrapping_add(bits.min(56));
        let whole = total >> 3;
        self.byte = self.byte.wrapping_add(whole as usize);
        self.pending = word >> (whole.wrapping_mul(8) & 63);
        self.pending_bits = total & 7;
        true
    }

    #[inline(always)]
    fn put_wide(&mut self, value: u128, bits: u32) -> bool {
        let Some(dst) = self
            .buf
            .get_mut(self.byte..)
            .and_then(<[u8]>::first_chunk_mut::<16>)
        else {
            return false;
        };
        // At most 7 pending bits and 120 new ones: 16 bytes hold them.
        let word = u128::from(self.pending) | (value << (self.pending_bits & 7));
        *dst = word.to_le_bytes();
        let total = self.pending_bits.wrapping_add(bits.min(120));
        let whole = total >> 3;
        self.byte = self.byte.wrapping_add(whole as usize);
        self.pending = (word >> (whole.wrapping_mul(8) & 127)) as u64;
        self.pending_bits = total & 7;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngCore, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Any run of writes of 0 to 120 bits, after any number of pending
    /// bits, into buffers from too small to roomy: a [`StoringWriter`]
    /// handed back to its [`BitWriter`] leaves the very bytes the
    /// [`BitWriter`] alone writes, and refuses (having written nothing)
    /// only where its store would not fit.
    #[test]
    fn a_storing_writer_writes_what_the_bit_writer_writes() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x2545_F491_4F6C_DD1Du64);
        let mut next = move || rng.next_u64();
        for round in 0..2000 {
            let len = (next() % 80) as usize;
            let lead = (next() % 64) as u32;
            let writes: Vec<(u128, u32)> = (0..next() % 12)
                .map(|_| {
                    let bits = if next() % 2 == 0 {
                        next() % 57
                    } else {
                        next() % 121
                    } as u32;
                    let value =
                        (u128::from(next()) << 64 | u128::from(next())) & ((1u128 << bits) - 1);
                    (value, bits)
                })
                .collect();
            let (mut alone, mut handed) = (vec![0u8; len], vec![0xA5u8; len]);
            let mut plain = BitWriter::new(&mut alone);
            let mut other = BitWriter::new(&mut handed);
            let lead_value = next() & ((1u64 << lead) - 1);
            if !plain.write_wide(lead_value, lead) {
                continue;
            }
            assert!(other.write_wide(lead_value, lead));
            if let Some(mut storing) = other.storing() {
                for &(value, bits) in &writes {
                    let before = storing.state();
                    let room = storing.byte + 16 <= len;
                    let put = if bits <= 64 && next() % 2 == 0 {
                        storing.put(value as u64, bits)
                    } else {
                        storing.put_wide(value, bits)
                    };
                    assert_eq!(put, room, "round {round}");
                    if !put {
                        assert_eq!(storing.state(), before);
                        break;
                    }
                    assert!(plain.put_wide(value, bits), "round {round}");
                }
                let state = storing.state();
                other.catch_up(state);
            }
            assert_eq!(plain.bits_written(), other.bits_written(), "round {round}");
            let (a, b) = (plain.finish(), other.finish());
            assert_eq!(alone[..a], handed[..b], "round {round}");
        }
    }
}
