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
        stream.field_name("prefix");
        let mut fragment = 0;
        stream.serialize_bits(&mut fragment, 1)?;
        if fragment != 0 {
            return Err(stream.refuse(DecodeError::OutOfRange { at: 0 }));
        }
        let mut sent = [false; 4];
        for (byte, sent) in sent.iter_mut().enumerate() {
            *sent = self.ack_bits_byte(byte) != 0xFF;
            let mut bit = u32::from(*sent);
            stream.serialize_bits(&mut bit, 1)?;
            *sent = bit != 0;
        }
        let mut short = u32::from(self.sequence.wrapping_sub(self.ack) <= SHORT_ACK);
        stream.serialize_bits(&mut short, 1)?;
        let reserved_at = stream.bit_offset();
        let mut reserved = 0;
        stream.serialize_bits(&mut reserved, 2)?;
        if reserved != 0 {
            return Err(stream.refuse(DecodeError::OutOfRange { at: reserved_at }));
        }
        stream.field_name("sequence");
        let mut sequence = u32::from(self.sequence);
        stream.serialize_bits(&mut sequence, 16)?;
        self.sequence = low16(sequence);
        stream.field_name("ack");
        let ack_at = stream.bit_offset();
        if short != 0 {
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
        for (byte, sent) in sent.into_iter().enumerate() {
            let mut value = 0xFF;
            if sent {
                let at = stream.bit_offset();
                value = u32::from(self.ack_bits_byte(byte));
                stream.serialize_bits(&mut value, 8)?;
                if value == 0xFF {
                    return Err(stream.refuse(DecodeError::NonCanonical { at }));
                }
            }
            ack_bits |= value
                .checked_shl((byte as u32).saturating_mul(8))
                .unwrap_or(0);
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

    /// Writes the header at the start of `out`; returns its length.
    ///
    /// # Errors
    ///
    /// When `out` is shorter than [`Header::len`].
    pub fn write(&self, out: &mut [u8]) -> Result<usize, codec::EncodeError> {
        let mut header = *self;
        let mut stream = WriteStream::new(out);
        header.serialize(&mut stream)?;
        Ok(stream.finish())
    }

    /// Reads a header from the start of `bytes`; returns it and its length.
    ///
    /// # Errors
    ///
    /// A header that is cut short ([`DecodeError::PastEnd`]) or not
    /// canonical (see [`Header::serialize`]).
    pub fn read(bytes: &[u8]) -> Result<(Self, usize), DecodeError> {
        let mut header = Self::default();
        let mut stream = ReadStream::new(bytes);
        header.serialize(&mut stream)?;
        let len = usize::try_from(stream.bit_offset() / 8).unwrap_or(usize::MAX);
        Ok((header, len))
    }
}

/// The low 16 bits of a value read in at most 16.
fn low16(value: u32) -> u16 {
    u16::try_from(value & 0xFFFF).unwrap_or(0)
}
