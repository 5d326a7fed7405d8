//! Why a datagram was refused, and the endpoint's count of each cause.

/// What a receiver owes: each rule of reliable 1.0 a datagram can break,
/// as its own cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cause {
    /// A datagram of no bytes.
    Empty,
    /// Too short for its header, its fragment header, or the packet header
    /// fragment 0 carries.
    TooShort,
    /// A packet header's bits 6-7 are set.
    ReservedBits,
    /// A packet header that is not the one encoding of its triple: an ack
    /// in two bytes that fits in one, or an ack_bits byte of 0xFF sent.
    NonCanonicalHeader,
    /// A fragment's prefix byte is not exactly 1.
    FragmentPrefix,
    /// A fragment says it has more fragments than `max_fragments`.
    TooManyFragments,
    /// A fragment's id is not below its count.
    FragmentIdOutOfRange,
    /// Fragment 0's packet header has another sequence than its fragment
    /// header.
    SequenceMismatch,
    /// A fragment carries more than `fragment_size` bytes.
    FragmentTooLong,
    /// A fragment other than the last carries fewer than `fragment_size`
    /// bytes, or the last carries none.
    FragmentTooShort,
    /// A fragment's count differs from the count first seen for its packet.
    CountMismatch,
    /// A fragment already received.
    DuplicateFragment,
    /// A fragment of a packet already received whole.
    AlreadyReceived,
    /// A fragment too old for the reassembly window, or for the received
    /// window when that is the smaller.
    StaleFragment,
    /// A packet (or a reassembled one) larger than `max_packet_size`, or a
    /// datagram larger than any the configuration sends.
    PacketTooLarge,
    /// A packet too old for the received-packets window.
    StalePacket,
    /// A packet already received.
    DuplicatePacket,
}

impl Cause {
    /// Every cause, in declaration order.
    pub const ALL: [Self; 17] = [
        Self::Empty,
        Self::TooShort,
        Self::ReservedBits,
        Self::NonCanonicalHeader,
        Self::FragmentPrefix,
        Self::TooManyFragments,
        Self::FragmentIdOutOfRange,
        Self::SequenceMismatch,
        Self::FragmentTooLong,
        Self::FragmentTooShort,
        Self::CountMismatch,
        Self::DuplicateFragment,
        Self::AlreadyReceived,
        Self::StaleFragment,
        Self::PacketTooLarge,
        Self::StalePacket,
        Self::DuplicatePacket,
    ];

    /// A short name for counters, logs and JSON.
    #[must_use]
    pub const fn label(self) -> &'static str {
        match self {
            Self::Empty => "empty",
            Self::TooShort => "too-short",
            Self::ReservedBits => "reserved-bits",
            Self::NonCanonicalHeader => "non-canonical-header",
            Self::FragmentPrefix => "fragment-prefix",
            Self::TooManyFragments => "too-many-fragments",
            Self::FragmentIdOutOfRange => "fragment-id-out-of-range",
            Self::SequenceMismatch => "sequence-mismatch",
            Self::FragmentTooLong => "fragment-too-long",
            Self::FragmentTooShort => "fragment-too-short",
            Self::CountMismatch => "count-mismatch",
            Self::DuplicateFragment => "duplicate-fragment",
            Self::AlreadyReceived => "already-received",
            Self::StaleFragment => "stale-fragment",
            Self::PacketTooLarge => "packet-too-large",
            Self::StalePacket => "stale-packet",
            Self::DuplicatePacket => "duplicate-packet",
        }
    }

    const fn index(self) -> usize {
        self as usize
    }
}

/// A refused datagram: the cause, the byte where the rule was broken, and
/// the field being read there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// The rule broken.
    pub cause: Cause,
    /// The byte offset in the datagram where it was found.
    pub at: usize,
    /// The field read there (`prefix`, `ack_bits`, `fragment_id`, `data`,
    /// ...).
    pub field: &'static str,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} at byte {}, field \"{}\"",
            self.cause.label(),
            self.at,
            self.field
        )
    }
}

impl std::error::Error for Refusal {}

/// What an endpoint did, counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Packets sent (a fragmented one counts once).
    pub packets_sent: u64,
    /// Fragments sent.
    pub fragments_sent: u64,
    /// Packets handed to the application, whole.
    pub packets_delivered: u64,
    /// Packets the application declined (its function returned false).
    pub packets_declined: u64,
    /// Fragments stored for reassembly.
    pub fragments_stored: u64,
    /// Own packets the peer acknowledged.
    pub packets_acked: u64,
    /// Acks dropped because the ack list was full (call
    /// [`crate::Endpoint::clear_acks`]).
    pub acks_dropped: u64,
    refused: [u64; Cause::ALL.len()],
}

impl Counters {
    /// Datagrams refused for `cause`.
    #[must_use]
    pub fn refused(&self, cause: Cause) -> u64 {
        self.refused.get(cause.index()).copied().unwrap_or(0)
    }

    /// Datagrams refused, all causes.
    #[must_use]
    pub fn refused_total(&self) -> u64 {
        self.refused.iter().fold(0, |a, b| a.saturating_add(*b))
    }

    pub(crate) fn refuse(&mut self, cause: Cause) {
        if let Some(count) = self.refused.get_mut(cause.index()) {
            *count = count.saturating_add(1);
        }
    }
}
