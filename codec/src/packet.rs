//! Packet framing: `[crc32][type][payload][check "end of packet"]`.
//!
//! A protocol is declared once, by implementing [`Packet`] for its packet
//! type (usually an enum with one variant per packet type): its protocol id,
//! how many packet types it has, its largest packet, and one `serialize`
//! function for the payload. [`encode`] and [`decode`] do the rest.
//!
//! The CRC32 (IEEE, as zlib) covers the protocol id's little-endian bytes,
//! which are never sent (the "magic prefix"), then the whole packet with its
//! CRC field zeroed. A reader therefore refuses a packet of another protocol
//! as a bad CRC, before it looks at a single field.
//!
//! Refusals come in the order that gives every malformed packet exactly one
//! error: too large, then shorter than the CRC field (past end), then bad CRC,
//! then each field in stream order (the type field as unknown packet type),
//! then the end check, then trailing bytes.

use crate::error::{DecodeError, EncodeError};
use crate::stream::{expect_end, ReadStream, Stream, WriteStream};
use crate::{bits_required, MeasureStream};

/// The label of the check that ends every packet.
pub const END_OF_PACKET: &str = "end of packet";

/// The part of a packet's value its payload is, for streams that show the
/// value's shape (between the type field and the end check).
pub const PAYLOAD: &str = "payload";

/// Bits of the CRC field at the start of every packet.
const CRC_BITS: u32 = 32;

/// Bytes of the CRC field.
const CRC_BYTES: usize = 4;

/// A protocol id: 32 or 64 bits, mixed into the CRC and never sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ProtocolId {
    /// A 32-bit id: a 4-byte prefix.
    Bits32(u32),
    /// A 64-bit id: an 8-byte prefix.
    Bits64(u64),
}

impl ProtocolId {
    /// The CRC32 of the id's little-endian bytes followed by `packet`, read
    /// as if its CRC field held zero.
    #[must_use]
    pub fn crc32(self, packet: &[u8]) -> u32 {
        crc32_after(self.head_crc(), packet)
    }

    /// The CRC32 of the id's little-endian bytes and a zeroed CRC field: the
    /// part of every packet's CRC that its bytes do not change. A const fn
    /// (crc32fast has none), so a protocol's is computed when it is built.
    const fn head_crc(self) -> u32 {
        const CRC32: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);
        match self {
            Self::Bits32(id) => {
                let [a, b, c, d] = id.to_le_bytes();
                CRC32.checksum(&[a, b, c, d, 0, 0, 0, 0])
            }
            Self::Bits64(id) => {
                let [a, b, c, d, e, f, g, h] = id.to_le_bytes();
                CRC32.checksum(&[a, b, c, d, e, f, g, h, 0, 0, 0, 0])
            }
        }
    }
}

/// The CRC32 of a packet whose head (see [`ProtocolId::head_crc`]) has
/// `head_crc`, continued over the packet's bytes after its CRC field.
fn crc32_after(head_crc: u32, packet: &[u8]) -> u32 {
    let mut hasher = crc32fast::Hasher::new_with_initial(head_crc);
    hasher.update(packet.get(CRC_BYTES..).unwrap_or_default());
    hasher.finalize()
}

/// A protocol's packet: declares the protocol and serializes the payload.
pub trait Packet: Sized {
    /// The protocol id mixed into the CRC.
    const PROTOCOL_ID: ProtocolId;
    /// How many packet types the protocol has (at least 1). With more than
    /// one, the type travels as `int(0, PACKET_TYPES - 1)` after the CRC.
    const PACKET_TYPES: u32;
    /// The largest packet in bytes; longer input is refused unread, and the
    /// writer never writes more.
    const MAX_PACKET_BYTES: usize;

    /// This packet's type, in `0..PACKET_TYPES`.
    fn packet_type(&self) -> u32;

    /// An empty packet of `packet_type` for a reader to fill; `None` only for
    /// a type outside `0..PACKET_TYPES`.
    fn empty(packet_type: u32) -> Option<Self>;

    /// The name of `packet_type`, for people and reports: the variant's
    /// name for a derived protocol. `None` when the protocol names none.
    fn type_name(_packet_type: u32) -> Option<&'static str> {
        None
    }

    /// The payload, between the type field and the end check.
    fn serialize_payload<S: Stream>(&mut self, stream: &mut S) -> Result<(), S::Error>;
}

/// The type field: `int(0, PACKET_TYPES - 1)`, absent when there is one type.
/// A reader refuses a type beyond the last as [`DecodeError::UnknownPacketType`].
fn serialize_type<P: Packet, S: Stream>(
    stream: &mut S,
    packet_type: &mut u32,
) -> Result<(), S::Error> {
    let last = P::PACKET_TYPES.saturating_sub(1);
    stream.field_name("type");
    stream.field_role(crate::role::Role::PacketType);
    let at = stream.bit_offset();
    let mut wire = *packet_type;
    stream.serialize_bits(&mut wire, bits_required(0, last as i32))?;
    if wire > last {
        return Err(stream.refuse(DecodeError::UnknownPacketType { at, found: wire }));
    }
    *packet_type = wire;
    Ok(())
}

/// A whole packet for a writing or measuring stream, with a zero CRC field
/// (the CRC covers the finished bytes, so [`encode`] fills it in last).
// Inlined so that `encode`'s stream, a local, stays in registers.
#[inline(always)]
pub fn serialize_packet<P: Packet, S: Stream>(
    packet: &mut P,
    stream: &mut S,
) -> Result<(), S::Error> {
    stream.field_name("crc");
    stream.field_role(crate::role::Role::Crc);
    stream.serialize_bits(&mut 0, CRC_BITS)?;
    let mut packet_type = packet.packet_type();
    serialize_type::<P, S>(stream, &mut packet_type)?;
    stream.enter(PAYLOAD);
    stream.field_name(PAYLOAD);
    packet.serialize_payload(stream)?;
    stream.leave();
    stream.field_name(END_OF_PACKET);
    stream.serialize_check(END_OF_PACKET)
}

/// Reads a packet's fields from a reading stream: the CRC field (read, not
/// verified), the type, the payload and the end check. [`decode`] adds the
/// size, CRC and trailing-byte rules around it; the harness calls it through
/// a recording stream to map a packet's fields.
// Inlined so that `decode`'s stream, a local, stays in registers: out of
// line, a refusal at the end check cost more than acceptance.
#[inline(always)]
pub fn read_fields<P: Packet, S: Stream>(stream: &mut S) -> Result<P, S::Error> {
    debug_assert!(S::IS_READING);
    stream.field_name("crc");
    stream.field_role(crate::role::Role::Crc);
    stream.serialize_bits(&mut 0, CRC_BITS)?;
    let mut packet_type = 0;
    serialize_type::<P, S>(stream, &mut packet_type)?;
    let Some(mut packet) = P::empty(packet_type) else {
        return Err(stream.refuse(DecodeError::UnknownPacketType {
            at: u64::from(CRC_BITS),
            found: packet_type,
        }));
    };
    stream.enter(PAYLOAD);
    stream.field_name(PAYLOAD);
    packet.serialize_payload(stream)?;
    stream.leave();
    stream.field_name(END_OF_PACKET);
    stream.serialize_check(END_OF_PACKET)?;
    Ok(packet)
}

/// Writes `packet` into `buf` (at most [`Packet::MAX_PACKET_BYTES`] of it),
/// fills in the CRC, and returns the packet's length in bytes.
#[inline]
pub fn encode<P: Packet>(packet: &mut P, buf: &mut [u8]) -> Result<usize, EncodeError> {
    let limit = buf.len().min(P::MAX_PACKET_BYTES);
    let buf = buf.get_mut(..limit).unwrap_or_default();
    let mut stream = WriteStream::new(buf);
    serialize_packet(packet, &mut stream)?;
    let len = stream.finish();
    let packet_bytes = buf.get(..len).unwrap_or_default();
    let crc = crc32_after(const { P::PROTOCOL_ID.head_crc() }, packet_bytes);
    if let Some(field) = buf.first_chunk_mut::<CRC_BYTES>() {
        *field = crc.to_le_bytes();
    }
    Ok(len)
}

/// Writes `packet` into a new vector.
pub fn encode_to_vec<P: Packet>(packet: &mut P) -> Result<Vec<u8>, EncodeError> {
    let bound = usize::try_from(measure(packet)?).unwrap_or(usize::MAX);
    let mut buf = vec![0; bound.min(P::MAX_PACKET_BYTES)];
    let len = encode(packet, &mut buf)?;
    buf.truncate(len);
    Ok(buf)
}

/// An upper bound of the bytes `packet` encodes to.
pub fn measure<P: Packet>(packet: &mut P) -> Result<u64, EncodeError> {
    let mut measure = MeasureStream::new();
    serialize_packet(packet, &mut measure)?;
    Ok(measure.bytes())
}

/// The rules about the whole packet that come before any field: too large,
/// then shorter than the CRC field, then a CRC that does not match.
pub fn check_framing<P: Packet>(bytes: &[u8]) -> Result<(), DecodeError> {
    if bytes.len() > P::MAX_PACKET_BYTES {
        return Err(DecodeError::TooLarge {
            len: bytes.len(),
            max: P::MAX_PACKET_BYTES,
        });
    }
    let Some(crc_field) = bytes.first_chunk::<CRC_BYTES>() else {
        return Err(DecodeError::PastEnd { at: 0 });
    };
    let found = u32::from_le_bytes(*crc_field);
    let expected = crc32_after(const { P::PROTOCOL_ID.head_crc() }, bytes);
    if found != expected {
        return Err(DecodeError::BadCrc { expected, found });
    }
    Ok(())
}

/// Reads one whole packet from `bytes`: every byte must belong to it.
#[inline]
pub fn decode<P: Packet>(bytes: &[u8]) -> Result<P, DecodeError> {
    check_framing::<P>(bytes)?;
    let mut stream = ReadStream::new(bytes);
    let packet = read_fields::<P, _>(&mut stream)?;
    expect_end(&mut stream)?;
    Ok(packet)
}
