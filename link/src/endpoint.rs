//! One end of a connection: sends packets (as fragments when large),
//! receives datagrams, refuses each that breaks a rule with its cause, and
//! turns the peer's acks into "these of my packets arrived".

use crate::config::{Config, ConfigError};
use crate::estimates::Estimates;
use crate::fragment::{FragmentHeader, FRAGMENT_HEADER_BYTES};
use crate::header::{Header, MAX_HEADER_BYTES};
use crate::reassembly::Reassembly;
use crate::refusal::{Cause, Counters, Refusal};
use crate::sequence::SequenceBuffer;
use codec::DecodeError;

/// An own packet, remembered for acks and estimates.
#[derive(Clone, Copy, Debug, Default)]
struct Sent {
    time: f64,
    acked: bool,
}

/// What [`Endpoint::receive`] did with an accepted datagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Received {
    /// A whole packet was handed to the application, which took it.
    Delivered {
        /// The packet's sequence.
        sequence: u16,
    },
    /// A whole packet was handed to the application, which declined it: it
    /// is not acknowledged, and may arrive again.
    Declined {
        /// The packet's sequence.
        sequence: u16,
    },
    /// A fragment was stored; the packet is not whole yet.
    Stored {
        /// The packet's sequence.
        sequence: u16,
        /// Fragments stored so far.
        stored: u16,
        /// Fragments the packet has.
        count: u16,
    },
}

/// Why a packet was not sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SendError {
    /// Larger than `max_packet_size`.
    TooLarge {
        /// The packet's length.
        len: usize,
        /// The configuration's `max_packet_size`.
        max: usize,
    },
    /// A packet of no bytes (the reference sends none either).
    Empty,
    /// A packet that would need more than `max_fragments` fragments.
    TooManyFragments {
        /// The packet's length.
        len: usize,
        /// The most bytes `max_fragments` fragments carry.
        max: usize,
    },
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::TooLarge { len, max } => {
                write!(
                    f,
                    "a packet of {len} bytes is larger than max_packet_size {max}"
                )
            }
            Self::Empty => f.write_str("a packet of no bytes"),
            Self::TooManyFragments { len, max } => write!(
                f,
                "a packet of {len} bytes needs more fragments than max_fragments carry ({max} bytes)"
            ),
        }
    }
}

impl std::error::Error for SendError {}

/// One end of a reliable 1.0 connection. Its memory is fixed by its
/// [`Config`] when it is made, whatever arrives (see
/// [`Endpoint::memory_bound`]).
#[derive(Debug)]
pub struct Endpoint {
    config: Config,
    time: f64,
    sequence: u16,
    sent: SequenceBuffer<Sent>,
    received: SequenceBuffer<()>,
    reassembly: SequenceBuffer<Reassembly>,
    acks: Vec<u16>,
    transmit: Vec<u8>,
    estimates: Estimates,
    counters: Counters,
    /// The newest sequence delivered, for the `NoWrap` fault.
    #[cfg(feature = "faults")]
    newest: Option<u16>,
    #[cfg(feature = "faults")]
    fault: Option<crate::fault::Fault>,
}

/// The faults an endpoint may have planted (`crate::fault`, feature
/// `faults`); without the feature none is ever planted and each test below
/// is false.
#[derive(Clone, Copy)]
enum Planted {
    TrustLaterCount,
    UnboundedCopy,
    KeepPartialReassembly,
    NoWrap,
    AckUnsent,
    WrapKeepsWindow,
    FullLastFragment,
    AckOffByOne,
    ShortAckBase,
    FragmentedNotRecorded,
    DeclinedRecorded,
    FullAckBufferMarksAcked,
    HalfRangeStale,
}

/// A refusal of `cause` at byte `at` of field `field`.
const fn refused(cause: Cause, at: usize, field: &'static str) -> Refusal {
    Refusal { cause, at, field }
}

/// A packet header's read error as the refusal it is, `offset` bytes into
/// the datagram (0 for a regular packet, after the fragment header for
/// fragment 0).
fn header_refusal(error: DecodeError, offset: usize) -> Refusal {
    let byte = |bit: u64| offset.saturating_add(usize::try_from(bit / 8).unwrap_or(usize::MAX));
    let field = |bit: u64| match bit {
        0..=7 => "prefix",
        8..=23 => "sequence",
        24..=31 => "ack",
        _ => "ack_bits",
    };
    match error {
        DecodeError::PastEnd { at } => refused(Cause::TooShort, byte(at), field(at)),
        DecodeError::OutOfRange { at: 0 } => refused(Cause::NonCanonicalHeader, offset, "prefix"),
        DecodeError::OutOfRange { at } => refused(Cause::ReservedBits, byte(at), field(at)),
        DecodeError::NonCanonical { at } => refused(Cause::NonCanonicalHeader, byte(at), field(at)),
        _ => refused(Cause::NonCanonicalHeader, offset, "prefix"),
    }
}

impl Endpoint {
    /// An endpoint whose clock reads `time` (seconds, any origin).
    ///
    /// # Errors
    ///
    /// A configuration [`Config::validate`] refuses.
    pub fn new(config: Config, time: f64) -> Result<Self, ConfigError> {
        config.validate()?;
        Ok(Self {
            time: if time.is_finite() { time } else { 0.0 },
            sequence: 0,
            sent: SequenceBuffer::new(config.sent_packets_buffer_size),
            received: SequenceBuffer::new(config.received_packets_buffer_size),
            reassembly: SequenceBuffer::new(config.fragment_reassembly_buffer_size),
            acks: Vec::with_capacity(config.ack_buffer_size),
            transmit: vec![0; config.max_datagram_bytes()],
            estimates: Estimates::new(
                config.rtt_history_size,
                config.rtt_smoothing_factor,
                config.packet_loss_smoothing_factor,
            ),
            counters: Counters::default(),
            #[cfg(feature = "faults")]
            newest: None,
            #[cfg(feature = "faults")]
            fault: None,
            config,
        })
    }

    /// Allocates now every reassembly buffer at its bound
    /// (`max_fragments x fragment_size` for each of the
    /// `fragment_reassembly_buffer_size` slots), which it otherwise grows
    /// as packets of more fragments arrive, so that its memory stays flat
    /// from here on: for a server that keeps a fixed number of clients
    /// and wants its memory known at start. The total stays within
    /// [`Endpoint::memory_bound`].
    pub fn reserve(&mut self) {
        let bytes = self
            .config
            .max_fragments
            .saturating_mul(self.config.fragment_size);
        for entry in self.reassembly.values_mut() {
            entry.reserve(bytes);
        }
    }

    /// The endpoint with `fault` planted (feature `faults`).
    #[cfg(feature = "faults")]
    #[must_use]
    pub fn with_fault(mut self, fault: crate::fault::Fault) -> Self {
        self.fault = Some(fault);
        if fault == crate::fault::Fault::ModuloSlots {
            self.sent.use_modulo_slots();
            self.received.use_modulo_slots();
            self.reassembly.use_modulo_slots();
        }
        self
    }

    /// Whether `fault` is planted.
    #[allow(unused_variables, clippy::unused_self)]
    const fn has(&self, fault: Planted) -> bool {
        #[cfg(feature = "faults")]
        {
            use crate::fault::Fault;
            let planted = match fault {
                Planted::TrustLaterCount => Fault::TrustLaterCount,
                Planted::UnboundedCopy => Fault::UnboundedCopy,
                Planted::KeepPartialReassembly => Fault::KeepPartialReassembly,
                Planted::NoWrap => Fault::NoWrap,
                Planted::AckUnsent => Fault::AckUnsent,
                Planted::WrapKeepsWindow => Fault::WrapKeepsWindow,
                Planted::FullLastFragment => Fault::FullLastFragment,
                Planted::AckOffByOne => Fault::AckOffByOne,
                Planted::ShortAckBase => Fault::ShortAckBase,
                Planted::FragmentedNotRecorded => Fault::FragmentedNotRecorded,
                Planted::DeclinedRecorded => Fault::DeclinedRecorded,
                Planted::FullAckBufferMarksAcked => Fault::FullAckBufferMarksAcked,
                Planted::HalfRangeStale => Fault::HalfRangeStale,
            };
            matches!(self.fault, Some(f) if f as u8 == planted as u8)
        }
        #[cfg(not(feature = "faults"))]
        false
    }

    /// The configuration.
    #[must_use]
    pub const fn config(&self) -> &Config {
        &self.config
    }

    /// The sequence the next packet sent gets.
    #[must_use]
    pub const fn next_sequence(&self) -> u16 {
        self.sequence
    }

    /// The `ack` and `ack_bits` the next packet's header carries: the
    /// newest peer packet received and the 32 before it.
    #[must_use]
    pub fn next_acks(&self) -> (u16, u32) {
        self.received.ack_bits()
    }

    /// Starts sending at `sequence` instead of 0 (to test the wrap, or to
    /// resume). The peer must expect it ([`Endpoint::expect_peer_from`]):
    /// a fresh endpoint's window starts at 0, and a packet far behind it
    /// is stale.
    pub fn set_next_sequence(&mut self, sequence: u16) {
        self.sequence = sequence;
        self.sent.start_at(sequence);
    }

    /// Expects the peer's next packet to be `sequence` instead of 0: the
    /// windows of received packets and of reassembly start there.
    pub fn expect_peer_from(&mut self, sequence: u16) {
        self.received.start_at(sequence);
        self.reassembly.start_at(sequence);
    }

    /// What the endpoint did, counted.
    #[must_use]
    pub const fn counters(&self) -> &Counters {
        &self.counters
    }

    /// Own packets the peer acknowledged since the last
    /// [`Endpoint::clear_acks`], in the order the acks arrived.
    #[must_use]
    pub fn acks(&self) -> &[u16] {
        &self.acks
    }

    /// Forgets the acks reported so far.
    pub fn clear_acks(&mut self) {
        self.acks.clear();
    }

    /// The smoothed round trip, in milliseconds.
    #[must_use]
    pub const fn rtt(&self) -> f32 {
        self.estimates.rtt()
    }

    /// The round-trip and packet-loss estimates.
    #[must_use]
    pub const fn estimates(&self) -> &Estimates {
        &self.estimates
    }

    /// The most bytes the endpoint holds besides its fixed state: its
    /// reassembly buffers full, its transmit buffer, its windows and its
    /// acks. Nothing a peer sends makes it hold more.
    #[must_use]
    pub fn memory_bound(&self) -> usize {
        let config = &self.config;
        [
            config.reassembly_bytes(),
            config.max_datagram_bytes(),
            SequenceBuffer::<Sent>::bytes_for(config.sent_packets_buffer_size),
            SequenceBuffer::<()>::bytes_for(config.received_packets_buffer_size),
            SequenceBuffer::<Reassembly>::bytes_for(config.fragment_reassembly_buffer_size),
            config
                .ack_buffer_size
                .saturating_mul(std::mem::size_of::<u16>()),
            config
                .rtt_history_size
                .saturating_mul(std::mem::size_of::<f32>()),
        ]
        .iter()
        .fold(0usize, |sum, bytes| sum.saturating_add(*bytes))
    }

    /// Advances the clock to `time` (seconds) and updates the estimates. A
    /// time that is not finite is ignored.
    pub fn update(&mut self, time: f64) {
        if time.is_finite() {
            self.time = time;
        }
        // The oldest half of the sent window: old enough to have been acked.
        let window = self.config.sent_packets_buffer_size;
        let base = self.sent.next().wrapping_sub(window).wrapping_add(1);
        let (mut sent, mut dropped) = (0u32, 0u32);
        for i in 0..window / 2 {
            if let Some(packet) = self.sent.get(base.wrapping_add(i)) {
                sent = sent.saturating_add(1);
                dropped = dropped.saturating_add(u32::from(!packet.acked));
            }
        }
        self.estimates.update(sent, dropped);
    }

    /// Sends `payload` as one datagram, or as fragments when it is larger
    /// than `fragment_above`, handing each datagram to `transmit`; returns
    /// the packet's sequence.
    ///
    /// # Errors
    ///
    /// A payload of no bytes, one larger than `max_packet_size`, or one
    /// that needs more than `max_fragments` fragments.
    pub fn send(
        &mut self,
        payload: &[u8],
        mut transmit: impl FnMut(&[u8]),
    ) -> Result<u16, SendError> {
        if payload.is_empty() {
            return Err(SendError::Empty);
        }
        if payload.len() > self.config.max_packet_size {
            return Err(SendError::TooLarge {
                len: payload.len(),
                max: self.config.max_packet_size,
            });
        }
        let fragments_carry = self
            .config
            .max_fragments
            .saturating_mul(self.config.fragment_size);
        if payload.len() > self.config.fragment_above && payload.len() > fragments_carry {
            return Err(SendError::TooManyFragments {
                len: payload.len(),
                max: fragments_carry,
            });
        }
        let sequence = self.sequence;
        self.sequence = self.sequence.wrapping_add(1);
        let (ack, ack_bits) = self.received.ack_bits();
        let header = Header {
            sequence,
            ack,
            ack_bits,
        };
        if let Some(sent) = self.sent.insert(sequence) {
            *sent = Sent {
                time: self.time,
                acked: false,
            };
        }
        let mut header_bytes = [0u8; MAX_HEADER_BYTES];
        let header_len = header.write(&mut header_bytes).unwrap_or(0);
        let header_bytes = header_bytes.get(..header_len).unwrap_or_default();
        if payload.len() <= self.config.fragment_above {
            if let Some(datagram) = self.assemble(&[header_bytes, payload]) {
                transmit(datagram);
            }
        } else {
            let count = payload.len().div_ceil(self.config.fragment_size);
            let count16 = u16::try_from(count).unwrap_or(u16::MAX);
            for (id, data) in payload.chunks(self.config.fragment_size).enumerate() {
                let fragment = FragmentHeader {
                    sequence,
                    id: u8::try_from(id).unwrap_or(u8::MAX),
                    count: count16,
                };
                let mut fragment_bytes = [0u8; FRAGMENT_HEADER_BYTES];
                let _ = fragment.write(&mut fragment_bytes);
                let embedded = if id == 0 { header_bytes } else { &[] };
                if let Some(datagram) = self.assemble(&[&fragment_bytes, embedded, data]) {
                    transmit(datagram);
                }
                self.counters.fragments_sent = self.counters.fragments_sent.saturating_add(1);
            }
        }
        self.counters.packets_sent = self.counters.packets_sent.saturating_add(1);
        Ok(sequence)
    }

    /// `parts` one after another in the transmit buffer.
    fn assemble(&mut self, parts: &[&[u8]]) -> Option<&[u8]> {
        let mut len = 0usize;
        for part in parts {
            let end = len.checked_add(part.len())?;
            self.transmit.get_mut(len..end)?.copy_from_slice(part);
            len = end;
        }
        self.transmit.get(..len)
    }

    /// Receives one datagram. A whole packet (a regular one, or the last
    /// fragment of one) goes to `deliver` with its sequence; when `deliver`
    /// returns true the packet counts as received, is acknowledged to the
    /// peer, and its acks are taken.
    ///
    /// # Errors
    ///
    /// A datagram that breaks a rule of reliable 1.0 (or one of ours: every
    /// accepted datagram is the one encoding of what it says), with its
    /// cause; each refusal is counted in [`Endpoint::counters`].
    pub fn receive(
        &mut self,
        datagram: &[u8],
        deliver: impl FnMut(u16, &[u8]) -> bool,
    ) -> Result<Received, Refusal> {
        #[cfg(feature = "faults")]
        crate::fault::count_read();
        let result = self.receive_datagram(datagram, deliver);
        if let Err(refusal) = &result {
            self.counters.refuse(refusal.cause);
        }
        result
    }

    fn receive_datagram(
        &mut self,
        datagram: &[u8],
        deliver: impl FnMut(u16, &[u8]) -> bool,
    ) -> Result<Received, Refusal> {
        let Some(first) = datagram.first() else {
            return Err(refused(Cause::Empty, 0, "prefix"));
        };
        if datagram.len() > self.config.max_receive_bytes() {
            return Err(refused(
                Cause::PacketTooLarge,
                self.config.max_receive_bytes(),
                "data",
            ));
        }
        if first & 1 == 0 {
            let (header, len) = self
                .read_header(datagram)
                .map_err(|e| header_refusal(e, 0))?;
            let payload = datagram.get(len..).unwrap_or_default();
            self.accept_packet(header, payload, len, false, deliver)
        } else {
            self.receive_fragment(datagram, deliver)
        }
    }

    /// A packet header at the start of `bytes`; the `ShortAckBase` fault
    /// takes a one-byte ack from the sequence less one.
    fn read_header(&self, bytes: &[u8]) -> Result<(Header, usize), DecodeError> {
        let (mut header, len) = Header::read(bytes)?;
        let short = bytes.first().is_some_and(|prefix| prefix & (1 << 5) != 0);
        if short && self.has(Planted::ShortAckBase) {
            header.ack = header.ack.wrapping_sub(1);
        }
        Ok((header, len))
    }

    /// A whole packet: the window's rules, then the application, then the
    /// acks it carries.
    fn accept_packet(
        &mut self,
        header: Header,
        payload: &[u8],
        at: usize,
        from_fragments: bool,
        mut deliver: impl FnMut(u16, &[u8]) -> bool,
    ) -> Result<Received, Refusal> {
        let sequence = header.sequence;
        if payload.len() > self.config.max_packet_size {
            return Err(refused(Cause::PacketTooLarge, at, "payload"));
        }
        if self.received.is_stale(sequence)
            || self.stale_without_wrap(sequence)
            || self.stale_at_half_range(sequence)
        {
            return Err(refused(Cause::StalePacket, 1, "sequence"));
        }
        if self.received.contains(sequence) {
            return Err(refused(Cause::DuplicatePacket, 1, "sequence"));
        }
        if !deliver(sequence, payload) {
            self.counters.packets_declined = self.counters.packets_declined.saturating_add(1);
            if self.has(Planted::DeclinedRecorded) {
                self.received.insert(sequence);
            }
            return Ok(Received::Declined { sequence });
        }
        self.counters.packets_delivered = self.counters.packets_delivered.saturating_add(1);
        #[cfg(feature = "faults")]
        {
            self.newest = Some(self.newest.map_or(sequence, |n| n.max(sequence)));
        }
        if !(from_fragments && self.has(Planted::FragmentedNotRecorded)) {
            self.received.insert(sequence);
        }
        self.advance_reassembly(sequence);
        self.take_acks(header);
        Ok(Received::Delivered { sequence })
    }

    /// Moves the reassembly window to `sequence`, emptying the slots it
    /// passes; the `WrapKeepsWindow` fault keeps them when it crosses the wrap.
    fn advance_reassembly(&mut self, sequence: u16) {
        if self.has(Planted::WrapKeepsWindow) {
            #[cfg(feature = "faults")]
            if crate::fault::crosses_wrap(self.reassembly.next(), sequence) {
                self.reassembly.advance_keeping(sequence);
                return;
            }
        }
        self.reassembly.advance(sequence);
    }

    /// The `NoWrap` fault's staleness: below the newest delivered minus
    /// the window, as plain numbers.
    fn stale_without_wrap(&self, sequence: u16) -> bool {
        let _ = sequence;
        if !self.has(Planted::NoWrap) {
            return false;
        }
        #[cfg(feature = "faults")]
        if let Some(newest) = self.newest {
            let window = i32::from(self.config.received_packets_buffer_size);
            return i32::from(sequence) < i32::from(newest).saturating_sub(window);
        }
        false
    }

    /// The `HalfRangeStale` fault's staleness: the window's oldest
    /// sequence exactly half the range from `sequence`, either way.
    fn stale_at_half_range(&self, sequence: u16) -> bool {
        let oldest = self
            .received
            .next()
            .wrapping_sub(self.config.received_packets_buffer_size);
        self.has(Planted::HalfRangeStale) && oldest.wrapping_sub(sequence) == 32_768
    }

    /// The peer's acks: each own packet it names, still remembered and not
    /// yet acked, is acked once, with its round trip.
    fn take_acks(&mut self, header: Header) {
        for i in 0..32u16 {
            if header.ack_bits & (1u32 << i) == 0 {
                continue;
            }
            let off_by_one = u16::from(self.has(Planted::AckOffByOne));
            let acked = header.ack.wrapping_sub(i).wrapping_sub(off_by_one);
            let unsent_too = self.has(Planted::AckUnsent);
            let mark_dropped = self.has(Planted::FullAckBufferMarksAcked);
            let Some(sent) = self.sent.get_mut(acked) else {
                if unsent_too && self.acks.len() < self.config.ack_buffer_size {
                    self.acks.push(acked);
                }
                continue;
            };
            if sent.acked {
                continue;
            }
            if self.acks.len() >= self.config.ack_buffer_size {
                self.counters.acks_dropped = self.counters.acks_dropped.saturating_add(1);
                sent.acked |= mark_dropped;
                continue;
            }
            sent.acked = true;
            let sent_at = sent.time;
            self.acks.push(acked);
            self.counters.packets_acked = self.counters.packets_acked.saturating_add(1);
            self.estimates.sample(acked, sent_at, self.time);
        }
    }

    fn receive_fragment(
        &mut self,
        datagram: &[u8],
        deliver: impl FnMut(u16, &[u8]) -> bool,
    ) -> Result<Received, Refusal> {
        let fragment = FragmentHeader::read(datagram).map_err(|e| match e {
            DecodeError::PastEnd { .. } => {
                refused(Cause::TooShort, datagram.len(), "fragment header")
            }
            _ => refused(Cause::FragmentPrefix, 0, "prefix"),
        })?;
        if usize::from(fragment.count) > self.config.max_fragments {
            return Err(refused(Cause::TooManyFragments, 4, "count_minus_1"));
        }
        if u16::from(fragment.id) >= fragment.count {
            return Err(refused(Cause::FragmentIdOutOfRange, 3, "fragment_id"));
        }
        let mut data_at = FRAGMENT_HEADER_BYTES;
        let mut header = None;
        if fragment.id == 0 {
            let rest = datagram.get(FRAGMENT_HEADER_BYTES..).unwrap_or_default();
            let (embedded, len) = self
                .read_header(rest)
                .map_err(|e| header_refusal(e, FRAGMENT_HEADER_BYTES))?;
            if embedded.sequence != fragment.sequence {
                return Err(refused(
                    Cause::SequenceMismatch,
                    FRAGMENT_HEADER_BYTES.saturating_add(1),
                    "sequence",
                ));
            }
            data_at = data_at.saturating_add(len);
            header = Some(embedded);
        }
        let data = datagram.get(data_at..).unwrap_or_default();
        let size = self.config.fragment_size;
        let last = u16::from(fragment.id).saturating_add(1) == fragment.count;
        if data.len() > size && !self.has(Planted::UnboundedCopy) {
            return Err(refused(Cause::FragmentTooLong, data_at, "data"));
        }
        if last && data.len() == size && self.has(Planted::FullLastFragment) {
            return Err(refused(Cause::FragmentTooLong, data_at, "data"));
        }
        if (!last && data.len() != size) || data.is_empty() {
            return Err(refused(Cause::FragmentTooShort, data_at, "data"));
        }
        let sequence = fragment.sequence;
        if self.received.contains(sequence) {
            return Err(refused(Cause::AlreadyReceived, 1, "sequence"));
        }
        let trust_later_count = self.has(Planted::TrustLaterCount);
        let unbounded_copy = self.has(Planted::UnboundedCopy);
        let keep_partial = self.has(Planted::KeepPartialReassembly);
        // Older than the received window, it may have been delivered and
        // forgotten: a reassembly window larger than the received one must
        // not put it together again.
        if self.received.is_stale(sequence) {
            return Err(refused(Cause::StaleFragment, 1, "sequence"));
        }
        let entry = match self.reassembly.get_mut(sequence) {
            Some(entry) => entry,
            None => {
                let Some(entry) = self.reassembly.insert(sequence) else {
                    return Err(refused(Cause::StaleFragment, 1, "sequence"));
                };
                if keep_partial {
                    entry.leak();
                }
                entry.reset(fragment.count, size);
                self.received.advance(sequence);
                // The insert above made the slot; the borrow ends with it.
                match self.reassembly.get_mut(sequence) {
                    Some(entry) => entry,
                    None => return Err(refused(Cause::StaleFragment, 1, "sequence")),
                }
            }
        };
        if entry.count != fragment.count {
            if !trust_later_count {
                return Err(refused(Cause::CountMismatch, 4, "count_minus_1"));
            }
            entry.count = fragment.count;
        }
        if entry.has(fragment.id) {
            return Err(refused(Cause::DuplicateFragment, 3, "fragment_id"));
        }
        if unbounded_copy {
            entry.grow_to(
                usize::from(fragment.id)
                    .saturating_mul(size)
                    .saturating_add(data.len()),
            );
        }
        if !entry.store(fragment.id, data, size) {
            return Err(refused(Cause::FragmentTooLong, data_at, "data"));
        }
        if header.is_some() {
            entry.header = header;
        }
        self.counters.fragments_stored = self.counters.fragments_stored.saturating_add(1);
        if !entry.is_complete() {
            return Ok(Received::Stored {
                sequence,
                stored: entry.stored,
                count: entry.count,
            });
        }
        // Fragment 0 brought the packet's header, of this sequence: only a
        // planted fault completes a packet without it.
        let mut whole = entry.header.unwrap_or_default();
        whole.sequence = sequence;
        // Taken out of its slot while it is delivered, then put back for
        // reuse: the buffer stays with the endpoint.
        let mut done = std::mem::take(entry);
        self.reassembly.remove(sequence);
        let result = self.accept_packet(whole, done.payload(), data_at, true, deliver);
        done.count = 0;
        if let Some(slot) = self.reassembly.slot_value(sequence) {
            *slot = done;
        }
        result
    }
}
