//! Packets laid out for reading, each from a 64-byte boundary, so that two
//! builds of a benchmark read their inputs at the same offsets within cache
//! lines. Left where the heap puts each packet, the offsets follow every
//! allocation made before, which differs from binary to binary: a read that
//! crosses a line in one build and not in the other moved rows of
//! identical machine code by several percent.

/// Bytes of a cache line: every packet starts at a multiple of it.
const LINE: usize = 64;

/// One buffer holding the packets, each starting at a 64-byte boundary
/// (an address, not just an offset) and followed by zeros up to the next.
pub struct Aligned {
    buf: Vec<u8>,
    starts: Vec<(usize, usize)>,
}

impl Aligned {
    /// Copies `packets` into place.
    pub fn new(packets: &[Vec<u8>]) -> Self {
        let lines: usize = packets.iter().map(|p| p.len().div_ceil(LINE).max(1)).sum();
        let mut buf = vec![0u8; (lines + 1) * LINE];
        let mut at = buf.as_ptr().align_offset(LINE);
        let mut starts = Vec::with_capacity(packets.len());
        for packet in packets {
            buf[at..at + packet.len()].copy_from_slice(packet);
            starts.push((at, packet.len()));
            at += packet.len().div_ceil(LINE).max(1) * LINE;
        }
        Self { buf, starts }
    }

    /// The packets, in the order given.
    pub fn packets(&self) -> Vec<&[u8]> {
        self.starts
            .iter()
            .map(|&(at, len)| &self.buf[at..at + len])
            .collect()
    }
}
