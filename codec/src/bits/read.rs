//! [`BitReader`]: every byte the crate reads from the wire is read here.

use super::low_mask_of;
use crate::error::DecodeError;

/// Reads bits from any byte slice.
///
/// Each read loads the eight bytes at the byte holding its first bit as one
/// little-endian word, shifts out the bits already read and masks the rest:
/// no scratch to refill, and one counter (the position) to store. While
/// eight bytes remain from that byte on, the load's own bounds check is the
/// only check: a read of at most 32 bits starting in the first of them ends
/// inside them. Within the last eight bytes a read is checked against the
/// bits left and its word is shifted out of the input's last word, loaded
/// once, so the reader never looks past the end of its slice and needs no
/// slack bytes. A read that needs more bits than remain is refused with
/// [`DecodeError::PastEnd`].
///
/// It keeps no refilled 64-bit buffer: a `serialize` compiled out of line
/// would have to store that buffer after every field, which costs small
/// packets more than the refills save.
#[derive(Clone, Debug)]
pub struct BitReader<'a> {
    /// The input, until a poisoned reader empties it: a load from it that
    /// succeeds proves the read fits, and a poisoned reader has nothing
    /// left to read, not even an empty run of bytes past its position.
    data: &'a [u8],
    /// Bits read so far.
    pos: u64,
    /// The bit where reading must stop: the input's length, until a
    /// poisoned reader sets it to `pos`.
    end: u64,
    /// The input's last (up to) eight bytes as a little-endian word, zeros
    /// above them, loaded once: a read near the end shifts its window out
    /// of this one, without a loop and without indexing.
    tail: u64,
    /// The byte of `data` that `tail` starts at.
    tail_start: usize,
}

impl<'a> BitReader<'a> {
    /// A reader over all of `data`.
    #[inline]
    #[must_use]
    pub fn new(data: &'a [u8]) -> Self {
        let tail_start = data.len().saturating_sub(8);
        let tail = match data.last_chunk::<8>() {
            Some(last) => u64::from_le_bytes(*last),
            None => data
                .iter()
                .rev()
                .fold(0, |word, byte| (word << 8) | u64::from(*byte)),
        };
        Self {
            data,
            pos: 0,
            end: (data.len() as u64).saturating_mul(8),
            tail,
            tail_start,
        }
    }

    /// Leaves nothing to read: every later read of one bit or more, and
    /// every read of bytes, is refused. A reading stream poisons its reader
    /// when it refuses, so its failure is sticky at no cost to the reads
    /// that succeed.
    #[inline]
    pub fn poison(&mut self) {
        self.end = self.pos;
        self.data = &[];
    }

    /// Bits consumed so far.
    #[inline]
    #[must_use]
    pub const fn bits_read(&self) -> u64 {
        self.pos
    }

    /// Bits left in the input.
    #[inline]
    #[must_use]
    pub const fn bits_remaining(&self) -> u64 {
        self.end.saturating_sub(self.pos)
    }

    /// The refusal of a read past the end. It takes the offset, not
    /// `&self`: a call that borrowed the reader would pin it in memory.
    #[cold]
    const fn past_end(at: u64) -> DecodeError {
        DecodeError::PastEnd { at }
    }

    /// The eight bytes from `byte` on, as a little-endian word, where fewer
    /// than eight remain: the input's last word shifted down, zeros above.
    /// It takes values, not `&self`, so that calling it does not pin the
    /// reader in memory.
    ///
    /// Only a read that fits asks for it, so `byte` is one of the last
    /// eight and `skip` below 8, except on a poisoned reader asked for zero
    /// bits, whose value is masked to nothing whatever the word.
    #[inline(always)]
    const fn tail_word(tail: u64, tail_start: usize, byte: usize) -> u64 {
        let skip = byte.wrapping_sub(tail_start);
        tail >> ((skip as u32).wrapping_mul(8) & 63)
    }

    /// Reads `bits` bits, `bits` in `0..=32`: a debug assertion, and a
    /// reading stream cuts a field's width to 32 before it gets here. Like
    /// the reference's bitpacker it does not clamp the width itself, a step
    /// on every call where the width is not a constant. Past that bound
    /// the values are unspecified, and a read of over 57 bits can move past
    /// the end without a refusal, after which reads near the end are not
    /// refused either; at any width no byte outside `data` is read and
    /// nothing panics. Callers that take a width from the input bound it
    /// first. A width known only at run time has its mask looked up.
    #[inline(always)]
    pub fn read_bits(&mut self, bits: u32) -> Result<u32, DecodeError> {
        debug_assert!(bits <= 32, "a field of {bits} bits");
        let byte = (self.pos >> 3) as usize;
        // `byte` is a bit position over 8, so `byte + 8` cannot overflow and
        // the range costs one comparison. That comparison is the only check
        // of the fast path: when eight bytes from `byte` on exist, the read
        // ends at most 7 + 32 bits into them, inside the input, and a
        // poisoned reader has no data to load from.
        let word = match self
            .data
            .get(byte..byte.wrapping_add(8))
            .and_then(<[u8]>::first_chunk::<8>)
        {
            Some(word) => u64::from_le_bytes(*word),
            None => {
                // The last eight bytes: kept out of the fast path's way, so
                // that a loop of reads falls through from load to load.
                core::hint::cold_path();
                if u64::from(bits) > self.end.wrapping_sub(self.pos) {
                    return Err(Self::past_end(self.pos));
                }
                Self::tail_word(self.tail, self.tail_start, byte)
            }
        };
        // At most 7 bits to shift out and 32 to keep: both fit the word.
        let value = ((word >> (self.pos & 7)) & low_mask_of(bits)) as u32;
        self.pos = self.pos.wrapping_add(u64::from(bits));
        Ok(value)
    }

    /// The widest read [`BitReader::read_wide`] makes with one load: eight
    /// bytes hold it from any bit of their first byte.
    pub const MAX_WIDE_BITS: u32 = 57;

    /// Reads `bits` bits (`0..=57`) with one load: the value that reading
    /// the same bits as a 32-bit group and the rest would give. `None`,
    /// with nothing consumed, where they do not all fit (and on a poisoned
    /// reader): the caller then makes those reads, which refuse where they
    /// would.
    #[inline(always)]
    pub fn read_wide(&mut self, bits: u32) -> Option<u64> {
        debug_assert!(bits <= Self::MAX_WIDE_BITS);
        let bits = bits.min(Self::MAX_WIDE_BITS);
        let byte = (self.pos >> 3) as usize;
        // As in `read_bits`: eight bytes from the first one hold any read
        // of at most 57 bits that starts in it; within the last eight, a
        // read that fits lies in the last word. The fetch is written twice
        // on purpose: one shared helper made small packets' reads slower.
        let word = match self
            .data
            .get(byte..byte.wrapping_add(8))
            .and_then(<[u8]>::first_chunk::<8>)
        {
            Some(word) => u64::from_le_bytes(*word),
            None => {
                if u64::from(bits) > self.end.wrapping_sub(self.pos) {
                    return None;
                }
                Self::tail_word(self.tail, self.tail_start, byte)
            }
        };
        let value = (word >> (self.pos & 7)) & low_mask_of(bits);
        self.pos = self.pos.wrapping_add(u64::from(bits));
        Some(value)
    }

    /// The most bits [`BitReader::window`] shows: sixteen bytes hold them
    /// from any bit of their first byte.
    pub const WINDOW_BITS: u32 = 121;

    /// The next [`BitReader::WINDOW_BITS`] bits, the next one lowest, when
    /// the sixteen bytes from its byte on are in the input; `None` within
    /// the last sixteen bytes and on a poisoned reader. Nothing is
    /// consumed: a caller that keeps `n` of these bits moves past them with
    /// [`BitReader::advance`].
    #[inline(always)]
    #[must_use]
    pub fn window(&self) -> Option<u128> {
        Some(u128::from_le_bytes(*self.bytes_ahead::<16>()?) >> (self.pos & 7))
    }

    /// What [`BitReader::window`] shows where it has nothing: the bits from
    /// the next one to the end of the input, the next one lowest, zeros
    /// above. Only the first [`BitReader::bits_remaining`] of them are
    /// input, so a caller checks that the bits it keeps are among them.
    #[inline(always)]
    #[must_use]
    pub fn window_to_end(&self) -> u128 {
        Self::last_bytes(self.data, self.pos)
    }

    /// The bytes of `data` from the one holding bit `pos` on, at most
    /// sixteen, shifted to start at that bit. Out of line and taking
    /// values: it serves a packet's last few fields, and a call that
    /// borrowed the reader would pin it in memory in every loop it is in.
    #[cold]
    #[inline(never)]
    fn last_bytes(data: &[u8], pos: u64) -> u128 {
        let byte = (pos >> 3) as usize;
        let mut bytes = [0u8; 16];
        for (dst, src) in bytes.iter_mut().zip(data.get(byte..).unwrap_or_default()) {
            *dst = *src;
        }
        u128::from_le_bytes(bytes) >> (pos & 7)
    }

    /// The `N` bytes from the one holding the next bit, when the input has
    /// them, as a [`Group`] that reads from them with no check of its own
    /// where the compiler can see that a read lies inside them (a run of
    /// fields of constant widths). A read that does not is the reader's
    /// own, checked. `None` on a poisoned reader.
    #[inline(always)]
    pub fn group<const N: usize>(&mut self) -> Option<Group<'_, 'a, N>> {
        let byte = (self.pos >> 3) as usize;
        let bytes = self
            .data
            .get(byte..byte.wrapping_add(N))
            .and_then(<[u8]>::first_chunk::<N>)?;
        Some(Group {
            base: self.pos & !7,
            bit: self.pos & 7,
            bytes,
            reader: self,
        })
    }

    /// The `K` bytes from the one holding the next bit, when the input has
    /// them: what a window is taken from.
    #[inline(always)]
    fn bytes_ahead<const K: usize>(&self) -> Option<&[u8; K]> {
        let byte = (self.pos >> 3) as usize;
        self.data
            .get(byte..byte.wrapping_add(K))
            .and_then(<[u8]>::first_chunk::<K>)
    }

    /// The next [`BitReader::MAX_WIDE_BITS`] bits, the next one lowest, when
    /// the eight bytes from its byte on are in the input; `None` within the
    /// last eight bytes and on a poisoned reader. Nothing is consumed.
    #[inline(always)]
    #[must_use]
    pub fn window64(&self) -> Option<u64> {
        Some(u64::from_le_bytes(*self.bytes_ahead::<8>()?) >> (self.pos & 7))
    }

    /// Moves past `bits` bits of the last [`BitReader::window`] (at most
    /// [`BitReader::WINDOW_BITS`]); they lie inside the input, since the
    /// window was there.
    #[inline(always)]
    pub fn advance(&mut self, bits: u32) {
        debug_assert!(bits <= Self::WINDOW_BITS);
        self.pos = self
            .pos
            .wrapping_add(u64::from(bits.min(Self::WINDOW_BITS)));
    }

    /// Goes back to bit `pos`, one it has read up to before.
    #[inline(always)]
    pub(crate) fn seek_back(&mut self, pos: u64) {
        self.pos = self.pos.min(pos);
    }

    /// Moves ahead to bit `pos`, past bits a copy of this reader read; a
    /// position past the input (or anywhere on a poisoned reader) leaves
    /// it at the end.
    #[inline(always)]
    pub(crate) fn seek_forward(&mut self, pos: u64) {
        self.pos = self.pos.max(pos.min(self.end));
    }

    /// Bits up to the next byte boundary.
    #[inline(always)]
    #[must_use]
    pub const fn padding_bits(&self) -> u32 {
        (self.pos.wrapping_neg() & 7) as u32
    }

    /// Consumes the padding up to the next byte boundary, refusing it with
    /// [`DecodeError::NonZeroPadding`] when any of its bits is set.
    #[inline(always)]
    pub fn align(&mut self) -> Result<(), DecodeError> {
        let at = self.pos;
        if self.read_bits(self.padding_bits())? != 0 {
            core::hint::cold_path();
            return Err(DecodeError::NonZeroPadding { at });
        }
        Ok(())
    }

    /// Borrows the next `count` bytes of the input, at a byte boundary (the
    /// caller aligns first).
    #[inline(always)]
    pub fn read_aligned_bytes(&mut self, count: usize) -> Result<&'a [u8], DecodeError> {
        debug_assert_eq!(self.pos & 7, 0);
        let bits = (count as u64).saturating_mul(8);
        if bits > self.bits_remaining() {
            core::hint::cold_path();
            return Err(Self::past_end(self.pos));
        }
        let start = (self.pos / 8) as usize;
        let end = start.wrapping_add(count);
        let bytes = self
            .data
            .get(start..end)
            .ok_or_else(|| Self::past_end(self.pos))?;
        self.pos = self.pos.wrapping_add(bits);
        Ok(bytes)
    }
}

/// Reads from `N` bytes of the input that a [`BitReader`] checked once
/// ([`BitReader::group`]); when dropped, the reader goes on from where it
/// stopped.
#[derive(Debug)]
pub struct Group<'r, 'a, const N: usize> {
    reader: &'r mut BitReader<'a>,
    bytes: &'a [u8; N],
    /// The reader's position at `bytes[0]`.
    base: u64,
    /// The next bit, counted from `bytes[0]`.
    bit: u64,
}

impl<const N: usize> Group<'_, '_, N> {
    /// What [`BitReader::read_bits`] reads, with the same bounds on `bits`.
    /// Where the eight bytes from the read's first byte lie in the group
    /// (with a constant width and a run of them, the compiler knows), the
    /// read checks nothing; else it is the reader's own.
    #[inline(always)]
    pub fn read_bits(&mut self, bits: u32) -> Result<u32, DecodeError> {
        debug_assert!(bits <= 32, "a field of {bits} bits");
        let byte = (self.bit >> 3) as usize;
        match self
            .bytes
            .get(byte..byte.wrapping_add(8))
            .and_then(<[u8]>::first_chunk::<8>)
        {
            Some(word) => {
                let value = (u64::from_le_bytes(*word) >> (self.bit & 7)) & low_mask_of(bits);
                self.bit = self.bit.wrapping_add(u64::from(bits));
                Ok(value as u32)
            }
            None => {
                self.reader.pos = self.base.wrapping_add(self.bit);
                let read = self.reader.read_bits(bits);
                self.bit = self.reader.pos.wrapping_sub(self.base);
                read
            }
        }
    }
}

impl<const N: usize> Drop for Group<'_, '_, N> {
    #[inline(always)]
    fn drop(&mut self) {
        self.reader.pos = self.base.wrapping_add(self.bit);
    }
}
