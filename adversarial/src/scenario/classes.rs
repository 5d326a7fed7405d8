//! The lies told across packets, each built into an honest conversation:
//! a sender's packets (one of them large enough for three fragments or
//! more), their datagrams in order, and the lie inserted among them with
//! the verdict it is owed.
//!
//! Every lie is built from what the honest sender wrote (the header it put
//! on a packet, the fragment headers of a packet it split), through link's
//! writers only: never by reading a datagram with the code under attack,
//! which would share its bugs (`tests/scenarios.rs` counts the reads).

use super::{ack_fields, Application, Owed, Own, Scenario};
use crate::configs::{self, Family, Needs};
use crate::window::{ahead, Windows};
use arbitrary::Unstructured;
use link::{Endpoint, FragmentHeader, Header, FRAGMENT_HEADER_BYTES};
use std::collections::{HashMap, HashSet};

/// A lie told across packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StateClass {
    /// A later fragment says another count than the first seen.
    FragmentCountChanged,
    /// A fragment whose id is its count.
    FragmentIdOutOfRange,
    /// A middle fragment one byte longer than `fragment_size`.
    FragmentTooLong,
    /// A middle fragment one byte shorter.
    ShortMiddleFragment,
    /// A fragment again, with other bytes: the first one stands.
    DuplicateFragmentDifferentBytes,
    /// The first fragment of three windows' worth of packets, never the
    /// rest: memory stays bound and the honest packets still pass.
    ReassemblyBomb,
    /// A fragment of a packet already delivered.
    FragmentOfDeliveredPacket,
    /// A packet older than the received window.
    StaleSequence,
    /// A conversation across the wrap, from 65,530 or so.
    SequenceWrap,
    /// A packet whose header acks 32 packets the endpoint never sent.
    AckForUnsent,
    /// A header with the ack in two bytes where one fits.
    NonCanonicalHeader,
    /// A datagram delivered, then again.
    ReplayedDatagram,
    /// A datagram of no bytes (the packet classes' truncation, to zero).
    EmptyDatagram,
    /// A packet cut inside its header (truncate-bytes).
    TruncatedHeader,
    /// A fragment cut inside its fragment header (truncate-bytes).
    TruncatedFragmentHeader,
    /// A packet header with a reserved bit set (non-zero padding).
    ReservedBits,
    /// A packet with bytes after the most any datagram may hold
    /// (trailing-bytes).
    OversizedDatagram,
    /// A fragment whose prefix byte is odd but not 1 (unknown packet type).
    FragmentPrefix,
    /// A fragment whose count is past `max_fragments` (out-of-range value).
    TooManyFragments,
    /// Fragment 0 under another sequence than its packet header's
    /// (a field that disagrees with another).
    SequenceMismatch,
    /// Half a packet, then packets lost until the window jumps past it
    /// (across the wrap, or a multiple of a window's size), then the late
    /// ones: its other fragments, stale; lost packets, stale or delivered
    /// once; replays, already received.
    LossAcrossWrap,
    /// Late packets at the edges of each window (exactly its length behind
    /// the newest, one less, one more), then every recent packet again:
    /// taken, stale or a duplicate as the window's arithmetic says, half
    /// the time with the windows across the wrap.
    WindowEdges,
    /// A packet exactly half the range from the received (or reassembly)
    /// window's oldest sequence, after a sender's jump: stale or taken as
    /// the tie at half the range decides, by the numbers.
    HalfRange,
}

impl StateClass {
    /// Every class, in declaration order.
    pub const ALL: [Self; 23] = [
        Self::FragmentCountChanged,
        Self::FragmentIdOutOfRange,
        Self::FragmentTooLong,
        Self::ShortMiddleFragment,
        Self::DuplicateFragmentDifferentBytes,
        Self::ReassemblyBomb,
        Self::FragmentOfDeliveredPacket,
        Self::StaleSequence,
        Self::SequenceWrap,
        Self::AckForUnsent,
        Self::NonCanonicalHeader,
        Self::ReplayedDatagram,
        Self::EmptyDatagram,
        Self::TruncatedHeader,
        Self::TruncatedFragmentHeader,
        Self::ReservedBits,
        Self::OversizedDatagram,
        Self::FragmentPrefix,
        Self::TooManyFragments,
        Self::SequenceMismatch,
        Self::LossAcrossWrap,
        Self::WindowEdges,
        Self::HalfRange,
    ];

    /// Its name in tables and on the command line.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::FragmentCountChanged => "fragment-count-changed",
            Self::FragmentIdOutOfRange => "fragment-id-out-of-range",
            Self::FragmentTooLong => "fragment-too-long",
            Self::ShortMiddleFragment => "short-middle-fragment",
            Self::DuplicateFragmentDifferentBytes => "duplicate-fragment-different-bytes",
            Self::ReassemblyBomb => "reassembly-bomb",
            Self::FragmentOfDeliveredPacket => "fragment-of-delivered-packet",
            Self::StaleSequence => "stale-sequence",
            Self::SequenceWrap => "sequence-wrap",
            Self::AckForUnsent => "ack-for-unsent",
            Self::NonCanonicalHeader => "non-canonical-header",
            Self::ReplayedDatagram => "replayed-datagram",
            Self::EmptyDatagram => "empty-datagram",
            Self::TruncatedHeader => "truncated-header",
            Self::TruncatedFragmentHeader => "truncated-fragment-header",
            Self::ReservedBits => "reserved-bits",
            Self::OversizedDatagram => "oversized-datagram",
            Self::FragmentPrefix => "fragment-prefix",
            Self::TooManyFragments => "too-many-fragments",
            Self::SequenceMismatch => "sequence-mismatch",
            Self::LossAcrossWrap => "loss-across-wrap",
            Self::WindowEdges => "window-edges",
            Self::HalfRange => "half-range",
        }
    }
}

/// A packet of the honest conversation.
struct Packet {
    /// The header the sender put on it.
    header: Header,
    payload: Vec<u8>,
    datagrams: Vec<Vec<u8>>,
}

impl Packet {
    /// Whether the sender split it into fragments.
    fn fragmented(&self, config: &link::Config) -> bool {
        self.payload.len() > config.fragment_above
    }

    /// The fragment header the sender wrote on its datagram `id`.
    fn fragment(&self, id: usize) -> FragmentHeader {
        FragmentHeader {
            sequence: self.header.sequence,
            id: u8::try_from(id).unwrap_or(u8::MAX),
            count: u16::try_from(self.datagrams.len()).unwrap_or(u16::MAX),
        }
    }

    /// The length of the header the sender wrote, by writing it again.
    fn header_len(&self) -> usize {
        self.header
            .write(&mut [0u8; link::MAX_HEADER_BYTES])
            .unwrap_or(1)
    }

    /// The packet as a sender that had received `own` would have sent it:
    /// its header (in its first datagram, after the fragment header when
    /// split) written again with the ack fields of what it received.
    fn acknowledging(mut self, own: &Own, config: &link::Config) -> Self {
        let Some((ack, ack_bits)) = ack_fields(own) else {
            return self;
        };
        let old = self.header_len();
        self.header.ack = ack;
        self.header.ack_bits = ack_bits;
        let mut head = [0u8; link::MAX_HEADER_BYTES];
        let len = self.header.write(&mut head).unwrap_or(0);
        let at = if self.fragmented(config) {
            FRAGMENT_HEADER_BYTES
        } else {
            0
        };
        if let Some(first) = self.datagrams.first_mut() {
            first.splice(
                at..at + old,
                head.get(..len).unwrap_or_default().iter().copied(),
            );
        }
        self
    }
}

/// The endpoint's own packets for a scenario of `class` whose peer starts
/// at `peer_start`: up to 32, each received by the peer with odds of 3 in
/// 4, half the time just before the peer's sequences (so that its headers
/// carry the ack in one byte), else from anywhere. None where the lie is in
/// the ack fields themselves (whose honest form must then be the short
/// one, of a sender that received nothing).
fn own_packets(
    class: StateClass,
    peer_start: u16,
    config: &link::Config,
    u: &mut Unstructured<'_>,
) -> arbitrary::Result<Own> {
    if matches!(
        class,
        StateClass::AckForUnsent | StateClass::NonCanonicalHeader
    ) {
        return Ok(Own::default());
    }
    let count = u.int_in_range(0..=32)?;
    let first: u16 = if u.arbitrary()? {
        peer_start.wrapping_sub(count + u.int_in_range(0..=64)?)
    } else {
        u.arbitrary()?
    };
    let mut received = HashSet::new();
    for i in 0..count {
        if u.ratio(3, 4)? {
            received.insert(first.wrapping_add(i));
        }
    }
    // A quarter go as fragments: up to two fragments past the first.
    let largest = config
        .max_packet_size
        .min(config.fragment_size.saturating_mul(config.max_fragments))
        .min(
            config
                .fragment_above
                .saturating_add(2 * config.fragment_size),
        );
    let mut lengths = Vec::with_capacity(usize::from(count));
    for _ in 0..count {
        let len = if largest > config.fragment_above && u.ratio(1, 4)? {
            u.int_in_range(config.fragment_above + 1..=largest)?
        } else {
            u.int_in_range(1..=config.max_packet_size.min(16))?
        };
        lengths.push(u16::try_from(len).unwrap_or(u16::MAX));
    }
    Ok(Own {
        count,
        first,
        received,
        lengths,
    })
}

/// `count` packets from a fresh sender starting at `start`, the one at
/// `big` of three fragments or more, the last one whole when `whole_last`,
/// the others of any size.
fn conversation(
    u: &mut Unstructured<'_>,
    config: &link::Config,
    start: u16,
    (count, big, whole_last): (usize, usize, bool),
) -> arbitrary::Result<Vec<Packet>> {
    let mut sender =
        Endpoint::new(config.clone(), 0.0).map_err(|_| arbitrary::Error::IncorrectFormat)?;
    sender.set_next_sequence(start);
    let mut packets = Vec::with_capacity(count);
    for i in 0..count {
        let len = if i == big {
            u.int_in_range(config.fragment_size * 2 + 1..=config.max_packet_size)?
        } else if !(whole_last && i + 1 == count) && u.ratio(1, 4)? {
            u.int_in_range(config.fragment_above + 1..=config.max_packet_size)?
        } else {
            u.int_in_range(1..=config.fragment_above)?
        };
        let fill: u8 = u.arbitrary()?;
        let payload: Vec<u8> = (0..len).map(|i| fill.wrapping_add(i as u8)).collect();
        let mut datagrams = Vec::new();
        let (ack, ack_bits) = sender.next_acks();
        let sequence = sender
            .send(&payload, |d| datagrams.push(d.to_vec()))
            .map_err(|_| arbitrary::Error::IncorrectFormat)?;
        packets.push(Packet {
            header: Header {
                sequence,
                ack,
                ack_bits,
            },
            payload,
            datagrams,
        });
    }
    Ok(packets)
}

/// `datagram` with the fragment header the sender wrote on it, `honest`,
/// rewritten by `change`.
fn refragment(
    datagram: &[u8],
    mut honest: FragmentHeader,
    change: impl FnOnce(&mut FragmentHeader),
) -> Vec<u8> {
    let mut out = datagram.to_vec();
    change(&mut honest);
    if let Some(head) = out.get_mut(..FRAGMENT_HEADER_BYTES) {
        let _ = honest.write(head);
    }
    out
}

/// A regular datagram: `header`, then `payload`.
fn regular(header: Header, payload: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; link::MAX_HEADER_BYTES];
    let len = header.write(&mut out).unwrap_or(0);
    out.truncate(len);
    out.extend_from_slice(payload);
    out
}

/// What a conversation of `class` needs of a drawn configuration.
fn needs(class: StateClass) -> Needs {
    let mut needs = Needs::default();
    match class {
        // Three reassembly windows of bombs; a loss as long as the
        // received window.
        StateClass::ReassemblyBomb => needs.max_window = 256,
        StateClass::LossAcrossWrap => needs.max_window = 1024,
        // A conversation as long as the windows, every recent packet again.
        StateClass::WindowEdges => needs.max_window = 64,
        // A count one past the most must still fit in a fragment header.
        StateClass::TooManyFragments => needs.max_fragments = 255,
        _ => {}
    }
    needs
}

/// Builds a scenario of `class` from `u` for a configuration drawn around
/// `own` ([`configs::draw`]: `own` itself half the time, and when `u` is
/// all zeros, so that a shrunk conversation's configuration shrinks toward
/// it).
///
/// # Errors
///
/// When `u` runs out of entropy, or builds no conversation of `class`.
pub fn scenario_drawn(
    class: StateClass,
    own: &link::Config,
    u: &mut Unstructured<'_>,
) -> arbitrary::Result<Scenario> {
    let (family, config) = configs::draw(own, needs(class), u)?;
    let mut scenario = scenario(class, &config, u)?;
    scenario.family = family;
    Ok(scenario)
}

/// Builds a scenario of `class` from `u`, for an endpoint with `config`
/// whose peer's first sequence is `Scenario::peer_start`, and its
/// application's choices ([`Application`]).
///
/// # Errors
///
/// When `u` runs out of entropy.
pub fn scenario(
    class: StateClass,
    config: &link::Config,
    u: &mut Unstructured<'_>,
) -> arbitrary::Result<Scenario> {
    let mut scenario = lie(class, config, u)?;
    application(u, &mut scenario)?;
    Ok(scenario)
}

/// The sequence a datagram names (bytes 1 and 2 of a packet header and of
/// a fragment header alike).
fn sequence_of(datagram: &[u8]) -> Option<u16> {
    match datagram {
        [_, low, high, ..] => Some(u16::from_le_bytes([*low, *high])),
        _ => None,
    }
}

/// The application's choices: a quarter of conversations take their acks
/// in batches of 2 to 64 datagrams; a quarter decline packets, each a
/// third of the time, the first time they are handed over. A declined
/// packet's datagrams come again right after the one that completed it
/// (so every verdict after stays as owed), or, when that was the last
/// datagram, half the time never: then it is owed no delivery, and no ack.
fn application(u: &mut Unstructured<'_>, scenario: &mut Scenario) -> arbitrary::Result<()> {
    if u.ratio(1, 4)? {
        scenario.app.takes_acks_every = u.int_in_range(2..=64)?;
    }
    if !u.ratio(1, 4)? {
        return Ok(());
    }
    let mut candidates: Vec<u16> = scenario.must_deliver.iter().copied().collect();
    candidates.sort_unstable();
    for sequence in candidates {
        if !u.ratio(1, 3)? {
            continue;
        }
        let accepted = |(datagram, owed): &(Vec<u8>, Owed)| {
            *owed == Owed::Accept && sequence_of(datagram) == Some(sequence)
        };
        let (Some(first), Some(last)) = (
            scenario.datagrams.iter().position(accepted),
            scenario.datagrams.iter().rposition(accepted),
        ) else {
            continue;
        };
        // A newer packet's datagram among its fragments may have moved the
        // windows: its fragments again might be stale. Not declined.
        let moved = scenario.datagrams[first..last]
            .iter()
            .any(|(datagram, owed)| {
                *owed == Owed::Accept && sequence_of(datagram).is_some_and(|s| ahead(s, sequence))
            });
        if moved {
            continue;
        }
        scenario.app.declines.insert(sequence);
        if last + 1 == scenario.datagrams.len() && u.ratio(1, 2)? {
            scenario.must_deliver.remove(&sequence);
            continue;
        }
        let again: Vec<(Vec<u8>, Owed)> = scenario
            .datagrams
            .iter()
            .filter(|d| accepted(d))
            .cloned()
            .collect();
        scenario.datagrams.splice(last + 1..last + 1, again);
    }
    Ok(())
}

/// The conversation of `class` with its lie, for `config`.
fn lie(
    class: StateClass,
    config: &link::Config,
    u: &mut Unstructured<'_>,
) -> arbitrary::Result<Scenario> {
    // The big packet takes three fragments or more.
    if config.fragment_size.saturating_mul(2) >= config.max_packet_size {
        return Err(arbitrary::Error::IncorrectFormat);
    }
    match class {
        StateClass::LossAcrossWrap => return loss_across_wrap(config, u),
        StateClass::WindowEdges => return window_edges(config, u),
        StateClass::HalfRange => return half_range(config, u),
        _ => {}
    }
    let count = u.int_in_range(4..=16)?;
    let big = u.int_in_range(0..=count - 2)?;
    let start = match class {
        StateClass::SequenceWrap => u.int_in_range(65_530..=65_535)?,
        // The bomb's packets come first, at 0 and on.
        StateClass::ReassemblyBomb => {
            usize_to_u16(3 * usize::from(config.fragment_reassembly_buffer_size))
        }
        _ => 0,
    };
    let own = own_packets(class, start, config, u)?;
    let packets: Vec<Packet> = conversation(u, config, start, (count, big, false))?
        .into_iter()
        .map(|p| p.acknowledging(&own, config))
        .collect();
    let mut datagrams: Vec<(Vec<u8>, Owed)> = Vec::new();
    let p = &packets[big];
    // A regular packet (the one after the big one, if small; else one of
    // its own, appended).
    let small = packets.iter().position(|q| !q.fragmented(config));
    for (i, packet) in packets.iter().enumerate() {
        for (k, datagram) in packet.datagrams.iter().enumerate() {
            let at_big = i == big;
            let at_small = Some(i) == small;
            if at_big && k == 1 {
                let lie = match class {
                    StateClass::FragmentCountChanged => Some((
                        refragment(datagram, p.fragment(k), |h| {
                            h.count = if usize::from(h.count) < config.max_fragments {
                                h.count + 1
                            } else {
                                h.count - 1
                            };
                        }),
                        "count-mismatch",
                    )),
                    StateClass::FragmentIdOutOfRange => Some((
                        refragment(datagram, p.fragment(k), |h| {
                            h.id = u8::try_from(h.count).unwrap_or(u8::MAX)
                        }),
                        "fragment-id-out-of-range",
                    )),
                    StateClass::FragmentTooLong => {
                        let mut longer = datagram.clone();
                        longer.push(0x5A);
                        Some((longer, "fragment-too-long"))
                    }
                    StateClass::ShortMiddleFragment => Some((
                        datagram[..datagram.len() - 1].to_vec(),
                        "fragment-too-short",
                    )),
                    _ => None,
                };
                if let Some((lie, cause)) = lie {
                    datagrams.push((lie, Owed::Refuse(cause)));
                }
            }
            if let Some((lie, cause)) = one_datagram(class, config, u, packet, at_small, at_big, k)?
            {
                datagrams.push((lie, Owed::Refuse(cause)));
            }
            if at_small && class == StateClass::NonCanonicalHeader {
                datagrams.push((long_ack(packet), Owed::Refuse("non-canonical-header")));
            }
            if at_small && class == StateClass::AckForUnsent {
                // The packet arrives once, under a header that acks 32
                // packets of the endpoint's, which sent none.
                let header = Header {
                    sequence: packet.header.sequence,
                    ack: u.arbitrary()?,
                    ack_bits: u32::MAX,
                };
                datagrams.push((regular(header, &packet.payload), Owed::Accept));
                continue;
            }
            datagrams.push((datagram.clone(), Owed::Accept));
            if at_big && k == 1 && class == StateClass::DuplicateFragmentDifferentBytes {
                let mut other = datagram.clone();
                if let Some(last) = other.last_mut() {
                    *last ^= 0xFF;
                }
                datagrams.push((other, Owed::Refuse("duplicate-fragment")));
            }
            if at_small && class == StateClass::ReplayedDatagram {
                datagrams.push((datagram.clone(), Owed::Refuse("duplicate-packet")));
            }
        }
        if i == big && class == StateClass::FragmentOfDeliveredPacket {
            datagrams.push((p.datagrams[1].clone(), Owed::Refuse("already-received")));
        }
    }
    let needs_small = matches!(
        class,
        StateClass::NonCanonicalHeader
            | StateClass::AckForUnsent
            | StateClass::ReplayedDatagram
            | StateClass::EmptyDatagram
            | StateClass::TruncatedHeader
            | StateClass::ReservedBits
            | StateClass::OversizedDatagram
    );
    if needs_small && small.is_none() {
        return Err(arbitrary::Error::IncorrectFormat);
    }
    if class == StateClass::StaleSequence {
        let last = packets.last().map_or(start, |q| q.header.sequence);
        let stale = last.wrapping_sub(config.received_packets_buffer_size + 8);
        let header = Header {
            sequence: stale,
            ack: stale.wrapping_sub(1),
            ack_bits: 0,
        };
        // One byte: a packet of any configuration.
        datagrams.push((regular(header, b"l"), Owed::Refuse("stale-packet")));
    }
    if class == StateClass::ReassemblyBomb {
        let bomb = (0..start).map(|sequence| {
            let first = FragmentHeader {
                sequence,
                id: 0,
                count: u16::try_from(config.max_fragments).unwrap_or(1),
            };
            let mut out = refragment(&[0; FRAGMENT_HEADER_BYTES], first, |_| {});
            out.extend(regular(
                Header {
                    sequence,
                    ack: u16::MAX,
                    ack_bits: 0,
                },
                &vec![0xB0; config.fragment_size],
            ));
            (out, Owed::Accept)
        });
        datagrams.splice(0..0, bomb.collect::<Vec<_>>());
    }
    let sent: HashMap<u16, Vec<u8>> = packets
        .iter()
        .map(|q| (q.header.sequence, q.payload.clone()))
        .collect();
    let must_deliver: HashSet<u16> = sent.keys().copied().collect();
    Ok(Scenario {
        class,
        datagrams,
        sent,
        must_deliver,
        peer_start: if class == StateClass::ReassemblyBomb {
            0
        } else {
            start
        },
        own,
        config: Some(config.clone()),
        family: Family::Own,
        app: Application::default(),
    })
}

fn usize_to_u16(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

/// A regular packet's datagram with its ack written in two bytes where
/// the sender, its difference from the sequence fitting, wrote one.
fn long_ack(packet: &Packet) -> Vec<u8> {
    let Some(datagram) = packet.datagrams.first() else {
        return Vec::new();
    };
    let len = packet.header_len();
    let mut out = vec![datagram[0] & !(1 << 5)];
    out.extend_from_slice(&packet.header.sequence.to_le_bytes());
    out.extend_from_slice(&packet.header.ack.to_le_bytes());
    out.extend_from_slice(&datagram[4..len]);
    out.extend_from_slice(&datagram[len..]);
    out
}

/// A lie inside one datagram, told just before `packet`'s honest datagram
/// `k` (the regular packet when `at_small`, fragment `k` of the big packet
/// when `at_big`), with the cause it is owed: the packet classes' lies, as
/// far as reliable 1.0's datagrams have the fields they lie in.
fn one_datagram(
    class: StateClass,
    config: &link::Config,
    u: &mut Unstructured<'_>,
    packet: &Packet,
    at_small: bool,
    at_big: bool,
    k: usize,
) -> arbitrary::Result<Option<(Vec<u8>, &'static str)>> {
    let Some(datagram) = packet.datagrams.get(k) else {
        return Ok(None);
    };
    let lie = match class {
        StateClass::EmptyDatagram if at_small => (Vec::new(), "empty"),
        StateClass::TruncatedHeader if at_small => {
            let len = packet.header_len();
            let keep = u.int_in_range(1..=len.saturating_sub(1).max(1))?;
            (datagram[..keep].to_vec(), "too-short")
        }
        StateClass::ReservedBits if at_small => {
            let mut lie = datagram.to_vec();
            lie[0] |= if u.arbitrary()? { 0x40 } else { 0x80 };
            (lie, "reserved-bits")
        }
        StateClass::OversizedDatagram if at_small => {
            let mut lie = datagram.to_vec();
            lie.resize(config.max_receive_bytes() + 1, 0xEE);
            (lie, "packet-too-large")
        }
        StateClass::FragmentPrefix if at_big && k == 1 => {
            let mut lie = datagram.to_vec();
            lie[0] = u.int_in_range(1u8..=127)? * 2 + 1;
            (lie, "fragment-prefix")
        }
        StateClass::TooManyFragments if at_big && k == 1 => {
            let Ok(count) = u16::try_from(config.max_fragments + 1) else {
                return Err(arbitrary::Error::IncorrectFormat);
            };
            if count > 256 {
                return Err(arbitrary::Error::IncorrectFormat);
            }
            (
                refragment(datagram, packet.fragment(k), |h| h.count = count),
                "too-many-fragments",
            )
        }
        StateClass::SequenceMismatch if at_big && k == 0 => (
            refragment(datagram, packet.fragment(k), |h| {
                h.sequence = h.sequence.wrapping_add(1);
            }),
            "sequence-mismatch",
        ),
        StateClass::TruncatedFragmentHeader if at_big && k == 1 => {
            let keep = u.int_in_range(1..=FRAGMENT_HEADER_BYTES - 1)?;
            (datagram[..keep].to_vec(), "too-short")
        }
        _ => return Ok(None),
    };
    Ok(Some(lie))
}

/// A [`StateClass::LossAcrossWrap`] conversation: packet 0 large, only its
/// first fragment arriving; then `lost` packets lost, at least a
/// reassembly window's worth; then a whole packet, which moves both
/// windows past packet 0 (from just below 65,536, or a multiple of a
/// window's size); then, late and in any order, packet 0's other fragments
/// and some lost packets, each owed what the rule says of its sequence
/// against the windows; then two replays.
fn loss_across_wrap(
    config: &link::Config,
    u: &mut Unstructured<'_>,
) -> arbitrary::Result<Scenario> {
    let reassembly = config.fragment_reassembly_buffer_size;
    let received = config.received_packets_buffer_size;
    let below = u.int_in_range(1u16..=6)?;
    let start = match u.int_in_range(0u8..=3)? {
        // The wrap, half the time.
        0 | 1 => 0u16.wrapping_sub(below),
        2 => received.wrapping_mul(u.arbitrary()?).wrapping_sub(below),
        _ => reassembly.wrapping_mul(u.arbitrary()?).wrapping_sub(below),
    };
    let lost = u.int_in_range(usize::from(reassembly.min(received))..=usize::from(received) + 8)?;
    let own = own_packets(StateClass::LossAcrossWrap, start, config, u)?;
    let packets: Vec<Packet> = conversation(u, config, start, (lost + 2, 0, true))?
        .into_iter()
        .map(|p| p.acknowledging(&own, config))
        .collect();
    let (Some(first), Some(jump)) = (packets.first(), packets.last()) else {
        return Err(arbitrary::Error::IncorrectFormat);
    };
    // The jump is a whole packet, so that the windows move on its receipt.
    debug_assert!(!jump.fragmented(config) && first.fragmented(config));
    let newest = jump.header.sequence;
    // The windows after the jump.
    let mut after = Windows::new(config, start);
    after.advance(newest);
    let mut datagrams = vec![(first.datagrams[0].clone(), Owed::Accept)];
    let jumped = jump.datagrams[0].clone();
    datagrams.push((jumped.clone(), Owed::Accept));
    let mut must_deliver: HashSet<u16> = HashSet::from([newest]);
    // Packet 0's other fragments: its partial reassembly was left behind.
    let mut late: Vec<(Vec<u8>, Owed)> = first.datagrams[1..]
        .iter()
        .map(|d| (d.clone(), Owed::Refuse("stale-fragment")))
        .collect();
    // Some lost packets, whole, each in its place among the late ones.
    let mut replay = None;
    for packet in &packets[1..packets.len() - 1] {
        if !u.arbitrary::<bool>()? {
            continue;
        }
        let sequence = packet.header.sequence;
        let owed = if packet.fragmented(config) {
            if after.stale_fragment(sequence) {
                Owed::Refuse("stale-fragment")
            } else {
                must_deliver.insert(sequence);
                replay = packet.datagrams.get(1).cloned();
                Owed::Accept
            }
        } else if after.stale_packet(sequence) {
            Owed::Refuse("stale-packet")
        } else {
            must_deliver.insert(sequence);
            Owed::Accept
        };
        let at = u.int_in_range(0..=late.len())?;
        let whole: Vec<(Vec<u8>, Owed)> =
            packet.datagrams.iter().map(|d| (d.clone(), owed)).collect();
        late.splice(at..at, whole);
    }
    datagrams.extend(late);
    datagrams.push((jumped, Owed::Refuse("duplicate-packet")));
    if let Some(fragment) = replay {
        datagrams.push((fragment, Owed::Refuse("already-received")));
    }
    Ok(told(
        StateClass::LossAcrossWrap,
        config,
        (start, own),
        &packets,
        datagrams,
        must_deliver,
    ))
}

/// The scenario of `class` whose honest packets are `packets`, the
/// datagrams that arrive `datagrams`, and the packets owed delivery
/// `must_deliver`.
fn told(
    class: StateClass,
    config: &link::Config,
    (peer_start, own): (u16, Own),
    packets: &[Packet],
    datagrams: Vec<(Vec<u8>, Owed)>,
    must_deliver: HashSet<u16>,
) -> Scenario {
    Scenario {
        class,
        datagrams,
        sent: packets
            .iter()
            .map(|q| (q.header.sequence, q.payload.clone()))
            .collect(),
        must_deliver,
        peer_start,
        own,
        config: Some(config.clone()),
        family: Family::Own,
        app: Application::default(),
    }
}

/// What a packet's datagrams are owed arriving at `windows` after the
/// application took `taken`: each fragment taken unless its sequence is a
/// stale fragment's (or it was taken and still held: already received); a
/// whole packet taken unless stale, or a duplicate of one held.
fn owed_late(
    packet: &Packet,
    config: &link::Config,
    windows: &Windows,
    taken: &HashSet<u16>,
) -> Owed {
    let sequence = packet.header.sequence;
    let held = taken.contains(&sequence) && windows.holds(sequence);
    if packet.fragmented(config) {
        if held {
            Owed::Refuse("already-received")
        } else if windows.stale_fragment(sequence) {
            Owed::Refuse("stale-fragment")
        } else {
            Owed::Accept
        }
    } else if windows.stale_packet(sequence) {
        Owed::Refuse("stale-packet")
    } else if held {
        Owed::Refuse("duplicate-packet")
    } else {
        Owed::Accept
    }
}

/// A [`StateClass::WindowEdges`] conversation: as many packets as the
/// longer window and two more, the last whole; those exactly the received
/// window's and reassembly's length behind the last, one less and one
/// more, held back and arriving after it (the one at reassembly's length
/// in three fragments or more); then every packet up to one more than the
/// received window behind the last again. Half the time the last lands
/// just past the wrap, so the windows hold both sides of it.
fn window_edges(config: &link::Config, u: &mut Unstructured<'_>) -> arbitrary::Result<Scenario> {
    let (received, reassembly) = (
        config.received_packets_buffer_size,
        config.fragment_reassembly_buffer_size,
    );
    let count = usize::from(received.max(reassembly)) + 2;
    let last = u16::try_from(count - 1).map_err(|_| arbitrary::Error::IncorrectFormat)?;
    let start = if u.arbitrary()? {
        // The last packet within the received window past 0.
        0u16.wrapping_sub(last)
            .wrapping_add(u.int_in_range(0..=received.saturating_sub(1))?)
    } else {
        u.arbitrary()?
    };
    let back = |distance: u16| -> Option<usize> { Some(usize::from(last.checked_sub(distance)?)) };
    let big = back(reassembly).unwrap_or(count);
    let own = own_packets(StateClass::WindowEdges, start, config, u)?;
    let packets: Vec<Packet> = conversation(u, config, start, (count, big, true))?
        .into_iter()
        .map(|p| p.acknowledging(&own, config))
        .collect();
    let mut late: Vec<usize> = [received, reassembly]
        .iter()
        .flat_map(|&len| [len.wrapping_sub(1), len, len.saturating_add(1)])
        .filter_map(back)
        .filter(|&i| i + 1 < count)
        .collect();
    late.sort_unstable();
    late.dedup();
    let mut windows = Windows::new(config, start);
    let mut taken = HashSet::new();
    let mut datagrams = Vec::new();
    for (i, packet) in packets.iter().enumerate() {
        if late.contains(&i) {
            continue;
        }
        for datagram in &packet.datagrams {
            datagrams.push((datagram.clone(), Owed::Accept));
        }
        windows.advance(packet.header.sequence);
        taken.insert(packet.header.sequence);
    }
    let mut must_deliver = taken.clone();
    // The late ones, the furthest behind first.
    for &i in &late {
        let packet = &packets[i];
        let owed = owed_late(packet, config, &windows, &taken);
        if owed == Owed::Accept {
            must_deliver.insert(packet.header.sequence);
        }
        for datagram in &packet.datagrams {
            datagrams.push((datagram.clone(), owed));
        }
        if owed == Owed::Accept {
            taken.insert(packet.header.sequence);
        }
    }
    // Every recent packet again, the newest first.
    for packet in packets.iter().rev().take(usize::from(received) + 2) {
        let owed = owed_late(packet, config, &windows, &taken);
        if owed == Owed::Accept {
            // Never taken before (late and stale then): its first datagram
            // alone, which keeps every verdict after it as owed.
            continue;
        }
        let datagram = packet.datagrams.last().cloned().unwrap_or_default();
        datagrams.push((datagram, owed));
    }
    Ok(told(
        StateClass::WindowEdges,
        config,
        (start, own),
        &packets,
        datagrams,
        must_deliver,
    ))
}

/// A [`StateClass::HalfRange`] conversation: a packet, then one from a
/// sender that jumped to exactly half the range ahead of the received
/// window's oldest sequence (or reassembly's, for a packet of three
/// fragments or more), then its next: each stale or taken as the tie at
/// half the range decides (the larger number is the newer).
fn half_range(config: &link::Config, u: &mut Unstructured<'_>) -> arbitrary::Result<Scenario> {
    let start: u16 = u.arbitrary()?;
    let fragmented = u.arbitrary::<bool>()?;
    let len = if fragmented {
        config.fragment_reassembly_buffer_size
    } else {
        config.received_packets_buffer_size
    };
    let own = own_packets(StateClass::HalfRange, start, config, u)?;
    let first = conversation(u, config, start, (1, 1, true))?;
    // The window's oldest, once the first packet is taken, is start + 1 -
    // len; the jump is half the range from it.
    let jump = start
        .wrapping_add(1)
        .wrapping_sub(len)
        .wrapping_add(HALF_RANGE);
    let big = if fragmented { 0 } else { 2 };
    let after = conversation(u, config, jump, (2, big, false))?;
    let packets: Vec<Packet> = first
        .into_iter()
        .chain(after)
        .map(|p| p.acknowledging(&own, config))
        .collect();
    let mut windows = Windows::new(config, start);
    let mut taken = HashSet::new();
    let mut datagrams = Vec::new();
    for packet in &packets {
        let owed = owed_late(packet, config, &windows, &taken);
        for datagram in &packet.datagrams {
            datagrams.push((datagram.clone(), owed));
        }
        if owed == Owed::Accept {
            windows.advance(packet.header.sequence);
            taken.insert(packet.header.sequence);
        }
    }
    let must_deliver = taken;
    Ok(told(
        StateClass::HalfRange,
        config,
        (start, own),
        &packets,
        datagrams,
        must_deliver,
    ))
}

/// Half the sequence range.
const HALF_RANGE: u16 = 32_768;
