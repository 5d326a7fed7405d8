//! The harness's own sequence arithmetic: reliable 1.0's rules for which of
//! two sequences is the newer and what a receiver's windows hold, written
//! from docs/RELIABLE.md, not by calling `link`. The verdicts owed in a
//! conversation are computed here, so that a slip in link's wrap or window
//! code is not also a slip in the oracle (`tests/own_arithmetic.rs` holds
//! that no oracle module calls link's sequence code).

/// Half the sequence range: two sequences this far apart are ordered by
/// their numbers.
pub const HALF: u16 = 32_768;

/// Whether `a` is ahead of `b` on the 16-bit circle: by less than half the
/// range, or by exactly half when `a` is the larger number.
#[must_use]
pub const fn ahead(a: u16, b: u16) -> bool {
    let by = a.wrapping_sub(b);
    by != 0 && (by < HALF || (by == HALF && a > b))
}

/// A receiver's windows of the peer's sequences: the received packets'
/// and reassembly's. Both move on the same events (a packet taken by the
/// application, a fragment of a packet not being reassembled), so they
/// share one "next expected" and differ in length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Windows {
    /// One past the newest sequence the windows moved to.
    pub next: u16,
    /// The received packets' window.
    pub received: u16,
    /// Reassembly's window.
    pub reassembly: u16,
}

impl Windows {
    /// Windows of these lengths expecting the peer's `first` sequence.
    #[must_use]
    pub fn new(config: &link::Config, first: u16) -> Self {
        Self {
            next: first,
            received: config.received_packets_buffer_size,
            reassembly: config.fragment_reassembly_buffer_size,
        }
    }

    /// The newest sequence the windows moved to (before any, the one
    /// before the first expected): the `ack` of the receiver's headers.
    #[must_use]
    pub const fn newest(&self) -> u16 {
        self.next.wrapping_sub(1)
    }

    /// Whether a window of `len` has passed `sequence`: its oldest
    /// sequence is ahead of it.
    #[must_use]
    pub const fn passed(&self, len: u16, sequence: u16) -> bool {
        ahead(self.next.wrapping_sub(len), sequence)
    }

    /// Whether a whole packet of `sequence` is stale.
    #[must_use]
    pub const fn stale_packet(&self, sequence: u16) -> bool {
        self.passed(self.received, sequence)
    }

    /// Whether a fragment of `sequence` is stale: past the reassembly
    /// window, or past the received window (a packet older than that may
    /// have been delivered and forgotten).
    #[must_use]
    pub const fn stale_fragment(&self, sequence: u16) -> bool {
        self.passed(self.reassembly, sequence) || self.passed(self.received, sequence)
    }

    /// Moves the windows to `sequence` when it is newer: when `sequence + 1`
    /// is ahead of the next expected (the rule as the reference states it,
    /// which at exactly half the range is not the same as `sequence` ahead
    /// of the newest).
    pub const fn advance(&mut self, sequence: u16) {
        let next = sequence.wrapping_add(1);
        if ahead(next, self.next) {
            self.next = next;
        }
    }

    /// Whether the received window still holds `sequence`, taken before:
    /// it is one of the last `received` sequences up to the newest.
    #[must_use]
    pub const fn holds(&self, sequence: u16) -> bool {
        let back = self.newest().wrapping_sub(sequence);
        back < self.received && back < HALF
    }
}

/// Whether a sender that sent `count` packets from `first` (consecutive
/// sequences, in one window of `len`) still remembers its packet `sequence`
/// for acks: it is one of the last `len` it sent.
#[must_use]
pub const fn remembers(first: u16, count: u16, len: u16, sequence: u16) -> bool {
    let index = sequence.wrapping_sub(first);
    index < count && count - index <= len
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ahead_at_half_the_range_goes_to_the_larger_number() {
        assert!(ahead(1, 0) && ahead(0, 65_535) && !ahead(65_535, 0));
        assert!(!ahead(5, 5));
        assert!(ahead(32_768, 0) && !ahead(0, 32_768));
        assert!(!ahead(32_769, 0));
    }

    #[test]
    fn windows_pass_at_their_edges() {
        let config = link::Config {
            received_packets_buffer_size: 5,
            fragment_reassembly_buffer_size: 3,
            ..link::Config::default()
        };
        let mut windows = Windows::new(&config, 65_534);
        assert_eq!(windows.newest(), 65_533);
        windows.advance(2);
        assert_eq!(windows.newest(), 2);
        // The received window is 65,534 to 2; reassembly's 0 to 2.
        assert!(!windows.stale_packet(65_534) && windows.stale_packet(65_533));
        assert!(!windows.stale_fragment(0) && windows.stale_fragment(65_535));
        assert!(windows.holds(65_534) && !windows.holds(65_533) && !windows.holds(3));
        windows.advance(1);
        assert_eq!(windows.newest(), 2, "an older sequence moves nothing");
    }

    #[test]
    fn a_sender_remembers_its_last_packets() {
        assert!(remembers(65_530, 10, 4, 3) && remembers(65_530, 10, 4, 0));
        assert!(!remembers(65_530, 10, 4, 65_535) && !remembers(65_530, 10, 4, 4));
    }
}
