//! An endpoint's configuration, with the reference library's defaults, and
//! the memory it fixes.

use crate::fragment::FRAGMENT_HEADER_BYTES;
use crate::header::MAX_HEADER_BYTES;

/// How an endpoint sends, receives and remembers. Both ends of a
/// connection must agree on `fragment_size`, `max_fragments` and
/// `max_packet_size`.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The largest payload sent or received, in bytes.
    pub max_packet_size: usize,
    /// Payloads above this many bytes travel as fragments.
    pub fragment_above: usize,
    /// The data bytes of every fragment but the last.
    pub fragment_size: usize,
    /// The most fragments a packet may have (1 to 256).
    pub max_fragments: usize,
    /// Own packets remembered for acks and estimates.
    pub sent_packets_buffer_size: u16,
    /// The peer's packets remembered, for acks and duplicates.
    pub received_packets_buffer_size: u16,
    /// Packets being reassembled at once.
    pub fragment_reassembly_buffer_size: u16,
    /// Acks kept until [`crate::Endpoint::clear_acks`].
    pub ack_buffer_size: usize,
    /// How far each round-trip sample moves the smoothed estimate.
    pub rtt_smoothing_factor: f32,
    /// Round-trip samples kept for the minimum, maximum and average.
    pub rtt_history_size: usize,
    /// How far each update moves the packet-loss estimate.
    pub packet_loss_smoothing_factor: f32,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            max_packet_size: 16 * 1024,
            fragment_above: 1024,
            fragment_size: 1024,
            max_fragments: 16,
            sent_packets_buffer_size: 256,
            received_packets_buffer_size: 256,
            fragment_reassembly_buffer_size: 64,
            ack_buffer_size: 256,
            rtt_smoothing_factor: 0.0025,
            rtt_history_size: 512,
            packet_loss_smoothing_factor: 0.1,
        }
    }
}

/// A configuration an endpoint cannot work with, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfigError(pub &'static str);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

impl std::error::Error for ConfigError {}

impl Config {
    /// The defaults, for packets of at most `max_packet_size` bytes sent in
    /// fragments of `fragment_size` when larger than one: as many
    /// fragments as the largest packet needs (at most 256).
    #[must_use]
    pub fn for_packets(max_packet_size: usize, fragment_size: usize) -> Self {
        let fragment_size = fragment_size.max(1);
        Self {
            max_packet_size,
            fragment_above: fragment_size.min(max_packet_size),
            fragment_size,
            max_fragments: max_packet_size.div_ceil(fragment_size).clamp(1, 256),
            ..Self::default()
        }
    }

    /// Checks the limits, and that the windows are within half the
    /// sequence range. Like the reference, `max_packet_size` may exceed
    /// `max_fragments x fragment_size`; a packet that would need more
    /// fragments is refused when sent.
    ///
    /// # Errors
    ///
    /// The first rule the configuration breaks.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let fits = self.fragment_size.checked_mul(self.max_fragments);
        let rules = [
            (
                self.max_fragments >= 1 && self.max_fragments <= 256,
                "max_fragments must be 1 to 256",
            ),
            (self.fragment_size >= 1, "fragment_size must be at least 1"),
            (
                self.max_packet_size >= 1,
                "max_packet_size must be at least 1",
            ),
            (
                fits.is_some(),
                "max_fragments x fragment_size must fit in memory",
            ),
            (
                self.fragment_above <= self.max_packet_size,
                "fragment_above must be at most max_packet_size",
            ),
            (
                [
                    self.sent_packets_buffer_size,
                    self.received_packets_buffer_size,
                    self.fragment_reassembly_buffer_size,
                ]
                .iter()
                .all(|&n| (1..=32768).contains(&n)),
                "the sequence buffers must hold 1 to 32768 entries",
            ),
            (
                self.ack_buffer_size >= 1,
                "ack_buffer_size must be at least 1",
            ),
            (
                self.rtt_history_size >= 1,
                "rtt_history_size must be at least 1",
            ),
            (
                [self.rtt_smoothing_factor, self.packet_loss_smoothing_factor]
                    .iter()
                    .all(|f| *f > 0.0 && *f <= 1.0),
                "the smoothing factors must be in (0, 1]",
            ),
        ];
        match rules.iter().find(|(ok, _)| !ok) {
            Some((_, why)) => Err(ConfigError(why)),
            None => Ok(()),
        }
    }

    /// The most bytes one datagram this configuration sends can take.
    #[must_use]
    pub fn max_datagram_bytes(&self) -> usize {
        let fragment = FRAGMENT_HEADER_BYTES
            .saturating_add(MAX_HEADER_BYTES)
            .saturating_add(self.fragment_size);
        let regular = MAX_HEADER_BYTES.saturating_add(self.fragment_above);
        fragment.max(regular)
    }

    /// The longest datagram a receiver reads, as the reference: a whole
    /// packet's payload and both headers. A peer may fragment above
    /// another threshold than ours, so a regular packet up to
    /// `max_packet_size` is read.
    #[must_use]
    pub fn max_receive_bytes(&self) -> usize {
        self.max_packet_size
            .saturating_add(MAX_HEADER_BYTES)
            .saturating_add(FRAGMENT_HEADER_BYTES)
    }

    /// The reassembly memory: every window entry holding a packet of
    /// `max_fragments` fragments.
    #[must_use]
    pub fn reassembly_bytes(&self) -> usize {
        usize::from(self.fragment_reassembly_buffer_size)
            .saturating_mul(self.max_fragments.saturating_mul(self.fragment_size))
    }
}
