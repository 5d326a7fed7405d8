//! The fragment header: the 5 bytes at the start of each piece of a packet
//! too large for one datagram. Fragment 0 carries the packet's own
//! [`Header`](crate::Header) right after it.
//!
//! ```text
//! prefix         u8, exactly 1
//! sequence       u16, the packet's, the same in every fragment
//! fragment_id    u8, from 0
//! count_minus_1  u8, the number of fragments - 1 (1 to 256 fragments)
//! ```

use codec::{DecodeError, ReadStream, Stream, WriteStream};

/// The bytes a fragment header takes.
pub const FRAGMENT_HEADER_BYTES: usize = 5;

/// Which piece of which packet a fragment is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FragmentHeader {
    /// The whole packet's sequence number.
    pub sequence: u16,
    /// This fragment's place, from 0.
    pub id: u8,
    /// How many fragments the packet has, 1 to 256.
    pub count: u16,
}

impl Default for FragmentHeader {
    fn default() -> Self {
        Self {
            sequence: 0,
            id: 0,
            count: 1,
        }
    }
}

impl FragmentHeader {
    /// Writes, reads or measures the header. A reader refuses a prefix
    /// other than exactly 1 ([`DecodeError::OutOfRange`] at bit 0); the
    /// rules that depend on the configuration (the id below the count, the
    /// count within `max_fragments`) are the endpoint's.
    ///
    /// # Errors
    ///
    /// The stream's: past the end, or a prefix other than 1.
    pub fn serialize<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error> {
        stream.field_name("prefix");
        let mut prefix = 1;
        stream.serialize_bits(&mut prefix, 8)?;
        if prefix != 1 {
            return Err(stream.refuse(DecodeError::OutOfRange { at: 0 }));
        }
        stream.field_name("sequence");
        let mut sequence = u32::from(self.sequence);
        stream.serialize_bits(&mut sequence, 16)?;
        stream.field_name("fragment_id");
        let mut id = u32::from(self.id);
        stream.serialize_bits(&mut id, 8)?;
        stream.field_name("count_minus_1");
        let mut count_minus_1 = u32::from(self.count.saturating_sub(1));
        stream.serialize_bits(&mut count_minus_1, 8)?;
        self.sequence = u16::try_from(sequence).unwrap_or(0);
        self.id = u8::try_from(id).unwrap_or(0);
        self.count = u16::try_from(count_minus_1).map_or(1, |c| c.saturating_add(1));
        Ok(())
    }

    /// Writes the header at the start of `out`.
    ///
    /// # Errors
    ///
    /// When `out` is shorter than [`FRAGMENT_HEADER_BYTES`].
    pub fn write(&self, out: &mut [u8]) -> Result<usize, codec::EncodeError> {
        let mut header = *self;
        let mut stream = WriteStream::new(out);
        header.serialize(&mut stream)?;
        Ok(stream.finish())
    }

    /// Reads a header from the start of `bytes`.
    ///
    /// # Errors
    ///
    /// Fewer than [`FRAGMENT_HEADER_BYTES`] bytes ([`DecodeError::PastEnd`]),
    /// or a prefix other than 1.
    pub fn read(bytes: &[u8]) -> Result<Self, DecodeError> {
        #[cfg(feature = "faults")]
        crate::fault::count_read();
        let mut header = Self::default();
        header.serialize(&mut ReadStream::new(bytes))?;
        Ok(header)
    }
}
