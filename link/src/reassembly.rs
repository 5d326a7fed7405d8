//! One packet being put back together from its fragments. Its buffer grows
//! to the packet's fragments times `fragment_size`, never past
//! `max_fragments` times it, and is kept for the next packet in its slot.

use crate::header::Header;

/// A packet in reassembly.
#[derive(Debug, Default)]
pub struct Reassembly {
    /// The fragments the packet has.
    pub count: u16,
    /// The fragments stored so far.
    pub stored: u16,
    /// Which fragments are stored, one bit each (256 at most).
    received: [u64; 4],
    /// The packet header fragment 0 carried.
    pub header: Option<Header>,
    /// The payload's length, known once the last fragment is stored.
    pub payload_bytes: usize,
    /// The payload, fragment `i` at `i * fragment_size`.
    buffer: Vec<u8>,
}

impl Reassembly {
    /// Starts over for a packet of `count` fragments of `fragment_size`.
    pub fn reset(&mut self, count: u16, fragment_size: usize) {
        self.count = count;
        self.stored = 0;
        self.received = [0; 4];
        self.header = None;
        self.payload_bytes = 0;
        self.reserve(usize::from(count).saturating_mul(fragment_size));
    }

    /// Grows the buffer to at least `bytes`, written, so that the memory
    /// is the process's from now on.
    pub fn reserve(&mut self, bytes: usize) {
        if self.buffer.len() < bytes {
            // Exactly: the bound is max_fragments x fragment_size, not the
            // doubling a plain resize may choose.
            self.buffer
                .reserve_exact(bytes.saturating_sub(self.buffer.len()));
            self.buffer.resize(bytes, 0);
        }
    }

    /// The `KeepPartialReassembly` fault: forgets its buffer without
    /// freeing it, so the next packet allocates another.
    #[cfg(feature = "faults")]
    pub fn leak(&mut self) {
        std::mem::forget(std::mem::take(&mut self.buffer));
    }

    /// Without the `faults` feature, nothing.
    #[cfg(not(feature = "faults"))]
    pub const fn leak(&mut self) {}

    /// The `UnboundedCopy` fault: grows the buffer to `bytes`, however
    /// many that is.
    pub fn grow_to(&mut self, bytes: usize) {
        if self.buffer.len() < bytes {
            self.buffer.resize(bytes, 0);
        }
    }

    fn bit(id: u8) -> (usize, u64) {
        (usize::from(id / 64), 1u64 << (id % 64))
    }

    /// Whether fragment `id` is stored.
    #[must_use]
    pub fn has(&self, id: u8) -> bool {
        let (word, mask) = Self::bit(id);
        self.received.get(word).is_some_and(|w| w & mask != 0)
    }

    /// Stores fragment `id`'s `data` at its place; false when it does not
    /// fit the buffer (which the endpoint's checks rule out).
    pub fn store(&mut self, id: u8, data: &[u8], fragment_size: usize) -> bool {
        let start = usize::from(id).saturating_mul(fragment_size);
        let Some(place) = start
            .checked_add(data.len())
            .and_then(|end| self.buffer.get_mut(start..end))
        else {
            return false;
        };
        place.copy_from_slice(data);
        let (word, mask) = Self::bit(id);
        if let Some(w) = self.received.get_mut(word) {
            *w |= mask;
        }
        self.stored = self.stored.saturating_add(1);
        if u16::from(id).saturating_add(1) == self.count {
            self.payload_bytes = start.saturating_add(data.len());
        }
        true
    }

    /// Whether every fragment is stored.
    #[must_use]
    pub const fn is_complete(&self) -> bool {
        self.stored == self.count
    }

    /// The payload, once complete.
    #[must_use]
    pub fn payload(&self) -> &[u8] {
        self.buffer.get(..self.payload_bytes).unwrap_or_default()
    }
}
