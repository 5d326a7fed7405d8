//! Datagrams built by hand for the tests: a regular packet and a fragment.

use link::{FragmentHeader, Header, FRAGMENT_HEADER_BYTES};

/// A regular packet: its header, then `payload`.
pub fn packet(sequence: u16, payload: &[u8]) -> Vec<u8> {
    let header = Header {
        sequence,
        ack: sequence.wrapping_sub(1),
        ack_bits: 0,
    };
    let mut out = vec![0u8; 16];
    let len = header.write(&mut out).unwrap();
    out.truncate(len);
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
