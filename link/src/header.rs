//! The packet header every regular datagram starts with, and fragment 0
//! carries: 4 to 9 bytes that say the packet's sequence and which of the
//! peer's packets arrived. One `serialize` writes, reads and measures it.
//!
//! ```text
//! prefix    bit 0: 0 (a regular packet); bits 1-4: ack_bits byte 0-3 is sent
//!           (it is not 0xFF); bit 5: ack sent as sequence - ack in one byte;
//!           bits 6-7: 0
//! sequence  u16, little-endian
//! ack       u8 (sequence - ack) when bit 5, else u16
//! ack_bits  the bytes bits 1-4 say, low byte first; one not sent is 0xFF
//! ```

use codec::{DecodeError, ReadStream, Stream, WriteStream};

/// The most bytes a header takes.
pub const MAX_HEADER_BYTES: usize = 9;

/// A packet's sequence and what it acknowledges: `ack` and, for each bit
/// `i` of `ack_bits` that is set, `ack - i` arrived (bit 0 is `ack`
/// itself).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Header {
    /// This packet's sequence number.
    pub sequence: u16,
    /// The newest of the peer's packets this end has received.
    pub ack: u16,
    /// Which of `ack`, `ack - 1`, ... `ack - 31` arrived.
    pub ack_bits: u32,
}

/// The sequence difference up to which `ack` is sent in one byte.
const SHORT_ACK: u16 = 255;

impl Header {
    /// Writes, reads or measures the header. A reader refuses any header
    /// but the one encoding a writer gives its triple: bits 6-7 set
    /// ([`DecodeError::OutOfRange`]), an ack in two bytes that fits in one
    /// or an ack_bits byte of 0xFF sent ([`DecodeError::NonCanonical`]);
    /// and a first bit of 1, which is a fragment ([`DecodeError::OutOfRange`]).
    ///
    /// # Errors
    ///
    /// The stream's: past the end of the input or the output buffer, or a
    /// header that is not canonical.
    pub fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        // The prefix in one operation: bit 0 (0), bits 1-4 (an ack_bits byte
        // is sent), bit 5 (the short ack), bits 6-7 (0).
        stream.field_name("prefix");
        let short = self.sequence.wrapping_sub(self.ack) <= SHORT_ACK;
        let mut prefix = u32::from(short) << 5;
        for byte in 0..4 {
            if self.ack_bits_byte(byte) != 0xFF {
                prefix |= 2 << byte;
            }
        }
        stream.serialize_bits(&mut prefix, 8)?;
        if prefix & 1 != 0 {
            return Err(stream.refuse(DecodeError::OutOfRange { at: 0 }));
        }
        if prefix & 0xC0 != 0 {
            return Err(stream.refuse(DecodeError::OutOfRange { at: 6 }));
        }
        stream.field_name("sequence");
        let mut sequence = u32::from(self.sequence);
        stream.serialize_bits(&mut sequence, 16)?;
        self.sequence = low16(sequence);
        stream.field_name("ack");
        let ack_at = stream.bit_offset();
        if prefix & (1 << 5) != 0 {
            let mut difference = u32::from(self.sequence.wrapping_sub(self.ack));
            stream.serialize_bits(&mut difference, 8)?;
            self.ack = self.sequence.wrapping_sub(low16(difference));
        } else {
            let mut ack = u32::from(self.ack);
            stream.serialize_bits(&mut ack, 16)?;
            self.ack = low16(ack);
            if self.sequence.wrapping_sub(self.ack) <= SHORT_ACK {
                return Err(stream.refuse(DecodeError::NonCanonical { at: ack_at }));
            }
        }
        stream.field_name("ack_bits");
        let mut ack_bits = 0u32;
        for byte in 0..4u32 {
            let mut value = 0xFF;
            if prefix & (2 << byte) != 0 {
                let at = stream.bit_offset();
                value = u32::from(self.ack_bits_byte(byte as usize));
                stream.serialize_bits(&mut value, 8)?;
                if value == 0xFF {
                    return Err(stream.refuse(DecodeError::NonCanonical { at }));
                }
            }
            ack_bits |= value << byte.saturating_mul(8);
        }
        self.ack_bits = ack_bits;
        Ok(())
    }

    /// Byte `byte` (0 to 3) of `ack_bits`.
    fn ack_bits_byte(&self, byte: usize) -> u8 {
        self.ack_bits
            .to_le_bytes()
            .get(byte)
            .copied()
            .unwrap_or(0xFF)
    }

    /// How many bytes the header takes on the wire.
    #[must_use]
    pub fn len(&self) -> usize {
        let sent = self
            .ack_bits
            .to_le_bytes()
            .iter()
            .filter(|b| **b != 0xFF)
            .count();
        let ack = if self.sequence.wrapping_sub(self.ack) <= SHORT_ACK {
            1
        } else {
            2
        };
        3usize.saturating_add(ack).saturating_add(sent)
    }

    /// A header is never empty; for clippy's `len` convention.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        false
    }

    /// The header's first eight bytes, little-endian in one integer, its
    /// ninth byte, and its length: the prefix, the sequence, the ack in one
    /// or two bytes, then the ack_bits bytes sent. Kept in registers: bytes
    /// stored one by one and read back as a word would stall the store.
    fn encoded(&self) -> (u64, u8, usize) {
        let difference = self.sequence.wrapping_sub(self.ack);
        let (mut word, mut len) = if difference <= SHORT_ACK {
            (1 << 5 | u64::from(difference) << 24, 4u32)
        } else {
            (u64::from(self.ack) << 24, 5)
        };
        word |= u64::from(self.sequence) << 8;
        let mut ninth = 0u8;
        let [b0, b1, b2, b3] = self.ack_bits.to_le_bytes();
        for (bit, value) in [(2u64, b0), (4, b1), (8, b2), (16, b3)] {
            if value != 0xFF {
                word |= bit;
                match u64::from(value).checked_shl(len.saturating_mul(8)) {
                    Some(shifted) => word |= shifted,
                    None => ninth = value,
                }
                len = len.saturating_add(1);
            }
        }
        (word, ninth, len as usize)
    }

    /// Writes the header at the start of `out`; returns its length. The
    /// same bytes and errors as [`Header::serialize`] on a
    /// [`WriteStream`], a byte at a time (`tests/hot_paths.rs` holds them
    /// equal).
    ///
    /// # Errors
    ///
    /// When `out` is shorter than [`Header::len`]: [`codec::EncodeError::BufferFull`]
    /// at the field that did not fit.
    pub fn write(&self, out: &mut [u8]) -> Result<usize, codec::EncodeError> {
        let (word, ninth, len) = self.encoded();
        match out.get_mut(..len) {
            Some(place) => {
                put_short(place, word, ninth);
                Ok(len)
            }
            _ => {
                // The first field that does not fit: the prefix, the
                // sequence, the ack, then each ack_bits byte.
                let ack_end = if word & (1 << 5) != 0 { 4 } else { 5 };
                let fields = [(0usize, 1usize), (1, 3), (3, ack_end)]
                    .into_iter()
                    .chain((ack_end..len).map(|start| (start, start.saturating_add(1))));
                let start = fields
                    .into_iter()
                    .find(|(_, end)| *end > out.len())
                    .map_or(0, |(start, _)| start);
                Err(codec::EncodeError::BufferFull { at: bit_of(start) })
            }
        }
    }

    /// Writes the header through a [`WriteStream`]: what [`Header::write`]
    /// is held equal to.
    ///
    /// # Errors
    ///
    /// As [`Header::write`].
    pub fn write_by_stream(&self, out: &mut [u8]) -> Result<usize, codec::EncodeError> {
        let mut header = *self;
        let mut stream = WriteStream::new(out);
        header.serialize(&mut stream)?;
        Ok(stream.finish())
    }

    /// Reads a header from the start of `bytes`; returns it and its length.
    /// The same values and errors as [`Header::serialize`] on a
    /// [`ReadStream`], a byte at a time (`tests/hot_paths.rs` holds them
    /// equal).
    ///
    /// # Errors
    ///
    /// A header that is cut short ([`DecodeError::PastEnd`] at the field
    /// that is) or not canonical (see [`Header::serialize`]).
    pub fn read(bytes: &[u8]) -> Result<(Self, usize), DecodeError> {
        #[cfg(feature = "faults")]
        crate::fault::count_read();
        let past = |byte: usize| DecodeError::PastEnd { at: bit_of(byte) };
        let Some(&prefix) = bytes.first() else {
            return Err(past(0));
        };
        if prefix & 1 != 0 {
            return Err(DecodeError::OutOfRange { at: 0 });
        }
        if prefix & 0xC0 != 0 {
            return Err(DecodeError::OutOfRange { at: 6 });
        }
        let Some(&[_, s0, s1]) = bytes.first_chunk::<3>() else {
            return Err(past(1));
        };
        let sequence = u16::from_le_bytes([s0, s1]);
        let rest = bytes.get(3..).unwrap_or_default();
        let (ack, mut at) = if prefix & (1 << 5) != 0 {
            let Some(&difference) = rest.first() else {
                return Err(past(3));
            };
            (sequence.wrapping_sub(u16::from(difference)), 4usize)
        } else {
            let Some(&[a0, a1]) = rest.first_chunk::<2>() else {
                return Err(past(3));
            };
            let ack = u16::from_le_bytes([a0, a1]);
            if sequence.wrapping_sub(ack) <= SHORT_ACK {
                return Err(DecodeError::NonCanonical { at: 24 });
            }
            (ack, 5)
        };
        // Built in a register: bytes stored one by one and loaded as a word
        // would stall the load.
        let mut ack_bits = u32::MAX;
        for byte in 0..4u32 {
            if prefix & (2 << byte) != 0 {
                let Some(&value) = bytes.get(at) else {
                    return Err(past(at));
                };
                if value == 0xFF {
                    return Err(DecodeError::NonCanonical { at: bit_of(at) });
                }
                let shift = byte.saturating_mul(8);
                ack_bits = (ack_bits & !(0xFF << shift)) | u32::from(value) << shift;
                at = at.saturating_add(1);
            }
        }
        let header = Self {
            sequence,
            ack,
            ack_bits,
        };
        Ok((header, at))
    }

    /// Reads a header through a [`ReadStream`]: what [`Header::read`] is
    /// held equal to.
    ///
    /// # Errors
    ///
    /// As [`Header::read`].
    pub fn read_by_stream(bytes: &[u8]) -> Result<(Self, usize), DecodeError> {
        #[cfg(feature = "faults")]
        crate::fault::count_read();
        let mut header = Self::default();
        let mut stream = ReadStream::new(bytes);
        header.serialize(&mut stream)?;
        let len = usize::try_from(stream.bit_offset() / 8).unwrap_or(usize::MAX);
        Ok((header, len))
    }
}

/// Writes `place.len()` (4 to 9) bytes: those of `word`, then `ninth`,
/// with fixed-size stores that may overlap (a `memcpy` call for so few
/// bytes costs more than the header).
fn put_short(place: &mut [u8], word: u64, ninth: u8) {
    let len = place.len();
    let bytes = word.to_le_bytes();
    if len >= 8 {
        if let Some(head) = place.first_chunk_mut::<8>() {
            *head = bytes;
        }
        if let Some(last) = place.get_mut(8) {
            *last = ninth;
        }
        return;
    }
    let split = len.saturating_sub(4);
    if let Some(head) = place.first_chunk_mut::<4>() {
        *head = u32::try_from(word & 0xFFFF_FFFF).unwrap_or(0).to_le_bytes();
    }
    let tail_word = word.checked_shr(u32::try_from(split).unwrap_or(0).saturating_mul(8));
    if let (Some(tail), Some(tail_word)) = (
        place
            .get_mut(split..)
            .and_then(|p| p.first_chunk_mut::<4>()),
        tail_word,
    ) {
        *tail = u32::try_from(tail_word & 0xFFFF_FFFF)
            .unwrap_or(0)
            .to_le_bytes();
    }
}

/// The bit offset of byte `byte`.
fn bit_of(byte: usize) -> u64 {
    u64::try_from(byte).unwrap_or(u64::MAX).saturating_mul(8)
}

/// The low 16 bits of a value read in at most 16.
fn low16(value: u32) -> u16 {
    u16::try_from(value & 0xFFFF).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A header's length is the bytes it writes, 4 to 9, and never none.
    #[test]
    fn a_header_is_as_long_as_it_writes_and_never_empty() {
        for (ack, ack_bits) in [(99, u32::MAX), (99, 0), (1, 0x00FF_FF00), (60_000, 7)] {
            let header = Header {
                sequence: 100,
                ack,
                ack_bits,
            };
            let mut out = [0u8; MAX_HEADER_BYTES];
            assert_eq!(header.write(&mut out), Ok(header.len()), "{header:?}");
            assert!((4..=MAX_HEADER_BYTES).contains(&header.len()));
            assert!(!header.is_empty());
        }
    }
}
