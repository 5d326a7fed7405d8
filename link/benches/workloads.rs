//! The workloads `link.rs` times and `reference/driver.c` times the same way
//! on the C library: kept in one place so that the two cannot drift.

/// Headers per header workload.
pub const HEADERS: usize = 512;

/// The bytes of the small packet, sent as one datagram.
pub const SMALL_PACKET: usize = 100;

/// The bytes of the large packet: four fragments of 1024 with the defaults.
pub const LARGE_PACKET: usize = 4000;

/// The `ack_bits` patterns the triples cycle through: every byte elided,
/// none, some.
pub const ACK_BITS: [u32; 8] = [
    0xFFFF_FFFF,
    0,
    0xFFFF_FF00,
    0x00FF_FFFF,
    0xDEAD_BEEF,
    0x0000_FFFF,
    0x1234_5678,
    0xFF00_FF00,
];

/// Triple `i`: sequences spread over the range, acks from 0 to 599 behind
/// (both ack forms), the patterns above.
pub fn triple(i: usize) -> (u16, u16, u32) {
    let sequence = (i * 131 % 65_536) as u16;
    let ack = sequence.wrapping_sub((i * 37 % 600) as u16);
    (sequence, ack, ACK_BITS[i % ACK_BITS.len()])
}
