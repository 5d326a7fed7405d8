//! Framing and protocol "packets": the spec's vector, round trips, and one
//! test per refusal, each building its malicious bytes.

mod common;

use codec::packet::{self, Packet, ProtocolId, END_OF_PACKET};
use codec::protocols::packets::{PacketA, PacketB, TestPacket};
use codec::protocols::ARTICLES_PROTOCOL_ID;
use codec::{DecodeError, Stream};
use common::{forge, forge_with_end, refresh_crc, test_packet};
use proptest::prelude::*;

/// The spec's framing vector: one packet type, payload
/// `bits(5,3) int(17,-10,100) bool(true) align bytes[01 02 03] check`.
struct SpecVector;

impl Packet for SpecVector {
    const PROTOCOL_ID: ProtocolId = ProtocolId::Bits32(0x1234_5678);
    const PACKET_TYPES: u32 = 1;
    const MAX_PACKET_BYTES: usize = 64;

    fn packet_type(&self) -> u32 {
        0
    }

    fn empty(_: u32) -> Option<Self> {
        Some(Self)
    }

    fn serialize_payload<S: Stream>(&mut self, s: &mut S) -> Result<(), S::Error> {
        s.serialize_bits(&mut 5, 3)?;
        s.serialize_int(&mut 17, -10, 100)?;
        s.serialize_bool(&mut true)?;
        s.serialize_align()?;
        s.serialize_bytes(&mut [1, 2, 3])?;
        s.serialize_check(END_OF_PACKET)
    }
}

#[test]
fn framing_reproduces_the_spec_vector() {
    let bytes = packet::encode_to_vec(&mut SpecVector).unwrap();
    assert_eq!(
        bytes,
        [
            0xB3, 0xFD, 0x66, 0x67, 0xDD, 0x04, 0x01, 0x02, 0x03, 0xE2, 0xAC, 0x08, 0x99, 0xE2,
            0xAC, 0x08, 0x99
        ]
    );
    assert!(packet::decode::<SpecVector>(&bytes).is_ok());
}

/// The spec's vector under a protocol whose maximum is `MAX` bytes.
struct AtMost<const MAX: usize>;

impl<const MAX: usize> Packet for AtMost<MAX> {
    const PROTOCOL_ID: ProtocolId = SpecVector::PROTOCOL_ID;
    const PACKET_TYPES: u32 = 1;
    const MAX_PACKET_BYTES: usize = MAX;

    fn packet_type(&self) -> u32 {
        0
    }

    fn empty(_: u32) -> Option<Self> {
        Some(Self)
    }

    fn serialize_payload<S: Stream>(&mut self, s: &mut S) -> Result<(), S::Error> {
        SpecVector.serialize_payload(s)
    }
}

/// A packet of exactly the protocol's maximum is read; one byte less of
/// maximum refuses it, unread.
#[test]
fn a_packet_of_exactly_the_maximum_size_is_read() {
    let bytes = packet::encode_to_vec(&mut SpecVector).unwrap();
    assert_eq!(bytes.len(), 17);
    assert!(packet::decode::<AtMost<17>>(&bytes).is_ok());
    assert!(matches!(
        packet::decode::<AtMost<16>>(&bytes),
        Err(DecodeError::TooLarge { len: 17, max: 16 })
    ));
}

#[test]
fn a_64_bit_protocol_id_prefixes_eight_bytes() {
    let wide = ProtocolId::Bits64(0x1234_5678);
    let narrow = ProtocolId::Bits32(0x1234_5678);
    let packet = [0u8; 8];
    assert_ne!(wide.crc32(&packet), narrow.crc32(&packet));
    let mut prefixed = 0x1234_5678u64.to_le_bytes().to_vec();
    prefixed.extend_from_slice(&packet);
    assert_eq!(wide.crc32(&packet), crc32fast::hash(&prefixed));
}

/// Both widths of id against a plain CRC32 of the id's bytes, a zeroed CRC
/// field and the rest: every byte of the id counts, the field's do not.
#[test]
fn the_crc_covers_the_whole_id_and_not_the_crc_field() {
    let packet = [0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    let body = packet.get(4..).unwrap();
    let ids = [
        (
            ProtocolId::Bits32(0x89ab_cdef),
            0x89ab_cdefu32.to_le_bytes().to_vec(),
        ),
        (
            ProtocolId::Bits64(0x0123_4567_89ab_cdef),
            0x0123_4567_89ab_cdefu64.to_le_bytes().to_vec(),
        ),
    ];
    for (id, mut plain) in ids {
        plain.extend_from_slice(&[0; 4]);
        plain.extend_from_slice(body);
        assert_eq!(id.crc32(&packet), crc32fast::hash(&plain), "{id:?}");
    }
}

/// Reports name packet types: a derived protocol by its variants, and no
/// type past the last; a hand-written one names none unless it says.
#[test]
fn packet_types_are_named_by_their_variants() {
    assert_eq!(SpecVector::type_name(0), None);
    let names: Vec<_> = (0..4).map(TestPacket::type_name).collect();
    assert_eq!(names, [Some("A"), Some("B"), Some("C"), None]);
}

fn sample() -> Vec<u8> {
    packet::encode_to_vec(&mut TestPacket::A(PacketA { a: 1, b: -2, c: 3 })).unwrap()
}

#[test]
fn refuses_a_bad_crc() {
    let mut bytes = sample();
    bytes[0] ^= 1;
    assert!(matches!(
        packet::decode::<TestPacket>(&bytes),
        Err(DecodeError::BadCrc { .. })
    ));
}

#[test]
fn refuses_a_wrong_protocol_id_as_a_bad_crc() {
    let mut bytes = sample();
    refresh_crc(ProtocolId::Bits32(0x1234_5679), &mut bytes);
    assert!(matches!(
        packet::decode::<TestPacket>(&bytes),
        Err(DecodeError::BadCrc { .. })
    ));
}

#[test]
fn refuses_an_unknown_packet_type() {
    // Three types make a 2-bit field: 3 is expressible and unknown.
    let bytes = forge(ARTICLES_PROTOCOL_ID, |s| {
        s.serialize_bits(&mut 3, 2).unwrap()
    });
    assert_eq!(
        packet::decode::<TestPacket>(&bytes),
        Err(DecodeError::UnknownPacketType { at: 32, found: 3 })
    );
}

#[test]
fn refuses_a_bad_end_of_packet_check() {
    let mut bytes = sample();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    refresh_crc(ARTICLES_PROTOCOL_ID, &mut bytes);
    assert!(matches!(
        packet::decode::<TestPacket>(&bytes),
        Err(DecodeError::CheckMismatch {
            label: END_OF_PACKET,
            ..
        })
    ));
}

#[test]
fn refuses_a_missing_end_of_packet_check_past_end() {
    let bytes = forge_with_end(
        ARTICLES_PROTOCOL_ID,
        |s| {
            s.serialize_bits(&mut 0, 2).unwrap();
            for _ in 0..3 {
                s.serialize_int(&mut 0, -10, 10).unwrap();
            }
        },
        false,
    );
    assert!(matches!(
        packet::decode::<TestPacket>(&bytes),
        Err(DecodeError::PastEnd { .. })
    ));
}

#[test]
fn refuses_trailing_bytes_after_the_final_check() {
    let mut bytes = sample();
    let end = bytes.len() as u64 * 8;
    bytes.push(0);
    refresh_crc(ARTICLES_PROTOCOL_ID, &mut bytes);
    assert_eq!(
        packet::decode::<TestPacket>(&bytes),
        Err(DecodeError::TrailingBytes { at: end })
    );
}

#[test]
fn refuses_a_packet_larger_than_the_maximum_before_anything_else() {
    let bytes = vec![0u8; 1025];
    assert_eq!(
        packet::decode::<TestPacket>(&bytes),
        Err(DecodeError::TooLarge {
            len: 1025,
            max: 1024
        })
    );
}

#[test]
fn refuses_a_packet_shorter_than_its_crc_past_end() {
    for len in 0..4 {
        assert_eq!(
            packet::decode::<TestPacket>(&vec![0; len]),
            Err(DecodeError::PastEnd { at: 0 })
        );
    }
}

#[test]
fn refuses_packet_b_count_above_32_before_reading_an_item() {
    // Type 1, count 33 (6 bits), and no items at all: the count itself is
    // refused, not the missing items.
    let bytes = forge(ARTICLES_PROTOCOL_ID, |s| {
        s.serialize_bits(&mut 1, 2).unwrap();
        s.serialize_bits(&mut 33, 6).unwrap();
    });
    assert_eq!(
        packet::decode::<TestPacket>(&bytes),
        Err(DecodeError::OutOfRange { at: 34 })
    );
}

#[test]
fn refuses_packet_a_value_out_of_range() {
    // a in [-10, 10] is 5 bits; offset 21 is one past the span.
    let bytes = forge(ARTICLES_PROTOCOL_ID, |s| {
        s.serialize_bits(&mut 0, 2).unwrap();
        s.serialize_bits(&mut 21, 5).unwrap();
    });
    assert_eq!(
        packet::decode::<TestPacket>(&bytes),
        Err(DecodeError::OutOfRange { at: 34 })
    );
}

#[test]
fn packet_c_at_rest_reads_zero_velocity() {
    let mut c = codec::protocols::packets::PacketC {
        position: [1.0, 2.0, 3.0],
        at_rest: true,
        velocity: [9.0; 3],
    };
    let bytes = packet::encode_to_vec(&mut TestPacket::C(c)).unwrap();
    c.velocity = [0.0; 3];
    assert_eq!(packet::decode::<TestPacket>(&bytes), Ok(TestPacket::C(c)));
}

#[test]
fn writer_refuses_packet_b_with_too_many_items() {
    let mut b = TestPacket::B(PacketB { items: vec![0; 33] });
    assert!(packet::encode_to_vec(&mut b).is_err());
}

/// Equality that compares floats by bit pattern.
fn same(a: &TestPacket, b: &TestPacket) -> bool {
    match (a, b) {
        (TestPacket::C(x), TestPacket::C(y)) => {
            x.at_rest == y.at_rest
                && x.position.map(f32::to_bits) == y.position.map(f32::to_bits)
                && x.velocity.map(f32::to_bits) == y.velocity.map(f32::to_bits)
        }
        _ => a == b,
    }
}

proptest! {
    #[test]
    fn packets_round_trip(mut p in test_packet()) {
        let bytes = packet::encode_to_vec(&mut p).unwrap();
        let mut decoded = packet::decode::<TestPacket>(&bytes).unwrap();
        prop_assert!(same(&decoded, &p), "{:?} != {:?}", decoded, p);
        prop_assert_eq!(packet::encode_to_vec(&mut decoded).unwrap(), bytes);
    }

    #[test]
    fn any_accepted_bytes_re_encode_identically(mut p in test_packet(), flip in any::<usize>()) {
        let mut bytes = packet::encode_to_vec(&mut p).unwrap();
        let bit = flip % (bytes.len() * 8 - 32) + 32;
        bytes[bit / 8] ^= 1 << (bit % 8);
        refresh_crc(ARTICLES_PROTOCOL_ID, &mut bytes);
        if let Ok(mut decoded) = packet::decode::<TestPacket>(&bytes) {
            prop_assert_eq!(packet::encode_to_vec(&mut decoded).unwrap(), bytes);
        }
    }
}
