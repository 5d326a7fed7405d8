//! Datagrams built by hand for the tests (a regular packet, a fragment,
//! headers that are not the one encoding of their triple) and the small
//! configuration they are sized for. Each test file uses some of them.
#![allow(dead_code)]

use link::{Config, FragmentHeader, Header, FRAGMENT_HEADER_BYTES, MAX_HEADER_BYTES};

/// Fragments of 100 bytes, at most 4 of them, packets up to 350 bytes, a
/// received window of 16 packets.
pub fn config() -> Config {
    Config {
        max_packet_size: 350,
        fragment_above: 100,
        fragment_size: 100,
        max_fragments: 4,
        fragment_reassembly_buffer_size: 8,
        received_packets_buffer_size: 16,
        ..Config::default()
    }
}

/// `header`'s bytes.
pub fn header_bytes(header: &Header) -> Vec<u8> {
    let mut out = vec![0u8; MAX_HEADER_BYTES];
    let len = header.write(&mut out).unwrap();
    out.truncate(len);
    out
}

/// The header of packet 9 acking 8 and the 8 before it (ack_bits byte 0
/// is 0xFF, so not sent), then two other encodings of the same triple:
/// with that byte sent (at byte 4), and with the ack in two bytes (3 and 4)
/// though its difference fits one.
pub fn non_canonical_headers() -> [Vec<u8>; 3] {
    let good = header_bytes(&Header {
        sequence: 9,
        ack: 8,
        ack_bits: 0x0000_00FF,
    });
    // Prefix bit 1 says byte 0 is sent; insert it as 0xFF after the ack.
    let mut byte_sent = good.clone();
    byte_sent[0] |= 1 << 1;
    byte_sent.insert(4, 0xFF);
    let mut long_ack = good.clone();
    long_ack[0] &= !(1 << 5);
    long_ack.splice(3..4, 8u16.to_le_bytes());
    [good, byte_sent, long_ack]
}

/// A regular packet: its header, then `payload`.
pub fn packet(sequence: u16, payload: &[u8]) -> Vec<u8> {
    let mut out = header_bytes(&Header {
        sequence,
        ack: sequence.wrapping_sub(1),
        ack_bits: 0,
    });
    out.extend_from_slice(payload);
    out
}

/// Fragment `id` of `count` of packet `sequence`, carrying `data` (and the
/// packet header when `id` is 0).
pub fn fragment(sequence: u16, id: u8, count: u16, data: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; FRAGMENT_HEADER_BYTES];
    FragmentHeader {
        sequence,
        id,
        count,
    }
    .write(&mut out)
    .unwrap();
    if id == 0 {
        out.extend_from_slice(&packet(sequence, &[])[..]);
    }
    out.extend_from_slice(data);
    out
}
