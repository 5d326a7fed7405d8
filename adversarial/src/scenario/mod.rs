//! Lies told across packets: an honest sender's conversation with an
//! endpoint under test, with one lie told somewhere in it (a fragment whose
//! count changed, a replayed datagram, a reassembly bomb, ...), each
//! datagram with the verdict it is owed. [`run`] delivers the datagrams one
//! by one and checks, at every step, the verdict, the endpoint's counter
//! for the cause, what it delivered and what it allocated.
//!
//! The endpoint is anything that speaks reliable 1.0 through
//! [`Connection`]: `link`'s own, or yours.

pub mod attempt;
pub mod campaign;
mod classes;
pub mod record;
pub mod table;

pub use classes::{scenario, scenario_drawn, StateClass};

use crate::alloc::allocated_during;
use crate::configs::Family;
use crate::window::{remembers, Windows};
use std::collections::{HashMap, HashSet};

/// What the scenarios need of an endpoint under attack.
pub trait Connection {
    /// Receives `datagram`; a whole packet goes to `deliver` with its
    /// sequence, which says whether the application took it (reliable
    /// 1.0's `process_packet`: a packet declined is not acknowledged, and
    /// is taken when it comes again). `Ok` when accepted (stored,
    /// delivered or declined), else the cause of the refusal, as
    /// `link::Cause::label` names it.
    ///
    /// # Errors
    ///
    /// The refusal's cause.
    fn receive(
        &mut self,
        datagram: &[u8],
        deliver: &mut dyn FnMut(u16, &[u8]) -> bool,
    ) -> Result<(), &'static str>;

    /// Datagrams refused for `cause` so far.
    fn refused(&self, cause: &str) -> u64;

    /// Its own packets the peer acknowledged since the last call.
    fn take_acks(&mut self) -> Vec<u16>;

    /// The most bytes it may allocate, from its creation on.
    fn memory_bound(&self) -> usize;

    /// Expects the peer's first packet to be `sequence` (a fresh endpoint
    /// expects 0).
    fn expect_peer_from(&mut self, sequence: u16);

    /// Sends `payload` as its own next packet, its first at sequence
    /// `first`, each datagram to `transmit`, and returns the sequence it
    /// took; `None` (the default) for a connection that does not send,
    /// which is then owed no acks and whose headers are not judged.
    fn send_own(
        &mut self,
        first: u16,
        payload: &[u8],
        transmit: &mut dyn FnMut(&[u8]),
    ) -> Option<u16> {
        let _ = (first, payload, transmit);
        None
    }
}

impl Connection for link::Endpoint {
    fn receive(
        &mut self,
        datagram: &[u8],
        deliver: &mut dyn FnMut(u16, &[u8]) -> bool,
    ) -> Result<(), &'static str> {
        Self::receive(self, datagram, |sequence, payload| {
            deliver(sequence, payload)
        })
        .map(|_| ())
        .map_err(|refusal| refusal.cause.label())
    }

    fn refused(&self, cause: &str) -> u64 {
        link::Cause::ALL
            .iter()
            .find(|c| c.label() == cause)
            .map_or(0, |c| self.counters().refused(*c))
    }

    fn take_acks(&mut self) -> Vec<u16> {
        let acks = self.acks().to_vec();
        self.clear_acks();
        acks
    }

    fn memory_bound(&self) -> usize {
        Self::memory_bound(self)
    }

    fn expect_peer_from(&mut self, sequence: u16) {
        Self::expect_peer_from(self, sequence);
    }

    fn send_own(
        &mut self,
        first: u16,
        payload: &[u8],
        transmit: &mut dyn FnMut(&[u8]),
    ) -> Option<u16> {
        if self.counters().packets_sent == 0 {
            self.set_next_sequence(first);
        }
        Self::send(self, payload, transmit).ok()
    }
}

/// The configuration the scenarios are built for: the stateful fuzz
/// target's, with small fragments and windows.
#[must_use]
pub fn config() -> link::Config {
    crate::conversation::config()
}

/// The verdict a datagram of a scenario is owed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owed {
    /// Accepted: stored as a fragment, or delivered.
    Accept,
    /// Refused for this cause.
    Refuse(&'static str),
}

/// A conversation with one lie in it.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The lie told.
    pub class: StateClass,
    /// The datagrams that arrive, in order, each with its owed verdict.
    pub datagrams: Vec<(Vec<u8>, Owed)>,
    /// The packets the sender sent, by sequence: what a delivery must be.
    pub sent: HashMap<u16, Vec<u8>>,
    /// The packets that must have been delivered by the end.
    pub must_deliver: HashSet<u16>,
    /// The first sequence the endpoint must expect from its peer.
    pub peer_start: u16,
    /// The endpoint's own packets, sent before the peer's datagrams arrive.
    pub own: Own,
    /// The configuration the conversation was built for, and its family;
    /// `None` for the target's own (files written before configurations
    /// were drawn).
    pub config: Option<link::Config>,
    /// The family `config` was drawn from.
    pub family: Family,
    /// What the endpoint's application does with what it is handed.
    pub app: Application,
}

/// The application's choices in a conversation: the packets it declines
/// the first time it is handed them, and how often it takes its acks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Application {
    /// Packets declined when first handed over: not acknowledged, and
    /// taken when they come again (reliable 1.0's `process_packet`
    /// returning 0).
    pub declines: HashSet<u16>,
    /// Datagrams between two takings of the acks (1: after every one), so
    /// that the ack buffer may fill in between.
    pub takes_acks_every: u16,
}

impl Default for Application {
    fn default() -> Self {
        Self {
            declines: HashSet::new(),
            takes_acks_every: 1,
        }
    }
}

/// The endpoint's own packets in a scenario: `count` of them from sequence
/// `first`, of which the peer received `received`; every honest header
/// of the peer's acknowledges exactly those.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Own {
    /// How many it sends (at most 32, so that one header acks them all).
    pub count: u16,
    /// Its first sequence.
    pub first: u16,
    /// The ones the peer received.
    pub received: HashSet<u16>,
    /// Each one's payload length, some above `fragment_above` so that they
    /// go as fragments; a packet not listed is `i` in two bytes, as files
    /// written before lengths were recorded had it.
    pub lengths: Vec<u16>,
}

impl Own {
    /// The payload of its packet `i`: its length's worth of bytes counting
    /// up from `i`.
    #[must_use]
    pub fn payload(&self, i: u16) -> Vec<u8> {
        match self.lengths.get(usize::from(i)) {
            Some(len) => (0..*len)
                .map(|k| i.wrapping_add(k).to_le_bytes()[0])
                .collect(),
            None => i.to_le_bytes().to_vec(),
        }
    }
}

/// What went wrong in a scenario, at which datagram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The class of the scenario.
    pub class: StateClass,
    /// The datagram's index, or the number of datagrams for a failure at
    /// the end.
    pub step: usize,
    /// Which promise broke.
    pub kind: Broken,
    /// What went wrong, in words.
    pub what: String,
}

/// The promise a scenario's failure broke: one column of the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Broken {
    /// Accepted where a refusal was owed, refused where acceptance was,
    /// or refused for another cause.
    WrongVerdict,
    /// Refused for the owed cause, but its counter did not move by one.
    Miscounted,
    /// Delivered a packet other than it was sent.
    Corrupted,
    /// Delivered a packet twice.
    DeliveredTwice,
    /// Never delivered an honest packet it owed.
    Undelivered,
    /// Acknowledged a packet it never sent, or one the peer never
    /// received, or one twice.
    FalseAck,
    /// Never acknowledged a packet of its own that the peer's headers
    /// acknowledged.
    Unacked,
    /// Its own next header named other packets of the peer's as received
    /// than the newest it accepted and those it delivered.
    HeaderAcks,
    /// Allocated beyond its bound.
    OverAllocated,
    /// Panicked.
    Panicked,
    /// The process running the endpoint died: an abort, a stack
    /// overflow, a signal (seen when conversations run in a worker
    /// process).
    Died,
    /// The process running the endpoint died of an allocation it could
    /// not get.
    OutOfMemory,
    /// The conversation did not finish within the per-case deadline.
    Hung,
}

impl Broken {
    /// Every kind, in table order.
    pub const ALL: [Self; 13] = [
        Self::WrongVerdict,
        Self::Miscounted,
        Self::Corrupted,
        Self::DeliveredTwice,
        Self::Undelivered,
        Self::FalseAck,
        Self::Unacked,
        Self::HeaderAcks,
        Self::OverAllocated,
        Self::Panicked,
        Self::Died,
        Self::OutOfMemory,
        Self::Hung,
    ];

    /// Its name in tables and JSON.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::WrongVerdict => "wrong verdict",
            Self::Miscounted => "miscounted",
            Self::Corrupted => "corrupted",
            Self::DeliveredTwice => "delivered twice",
            Self::Undelivered => "undelivered",
            Self::FalseAck => "false ack",
            Self::Unacked => "unacked",
            Self::HeaderAcks => "header acks",
            Self::OverAllocated => "over-allocated",
            Self::Panicked => "panicked",
            Self::Died => "died",
            Self::OutOfMemory => "out of memory",
            Self::Hung => "hung",
        }
    }
}

/// The ack fields of every honest header of the peer's in a scenario whose
/// endpoint sent `own`: the newest of its packets the peer received, and a
/// bit for each of the 32 up to it that it received (reliable 1.0's rule,
/// stated here); `None` when it received none.
#[must_use]
pub fn ack_fields(own: &Own) -> Option<(u16, u32)> {
    let newest = (0..own.count)
        .rev()
        .map(|i| own.first.wrapping_add(i))
        .find(|s| own.received.contains(s))?;
    let bits = (0..32u16)
        .filter(|i| own.received.contains(&newest.wrapping_sub(*i)))
        .fold(0u32, |bits, i| bits | 1 << i);
    Some((newest, bits))
}

/// Has `connection` send one more packet of its own after the scenario and
/// judges its header: its sequence the next of its own, its `ack` the
/// newest sequence the windows moved to (before any, the one before the
/// first it expects), and a bit of `ack_bits` for each of the 32 up to it
/// that it took and its received window still holds (reliable 1.0's rule,
/// from the scenario's history). What went wrong, if anything; nothing is
/// judged of a connection that does not send.
fn header_acks(
    connection: &mut dyn Connection,
    scenario: &Scenario,
    windows: &Windows,
    taken: &HashSet<u16>,
) -> Option<String> {
    let mut reply: Option<Vec<u8>> = None;
    let sequence = connection.send_own(scenario.own.first, b"reply", &mut |datagram| {
        // A configuration with tiny fragments sends even this as
        // fragments: fragment 0 carries the packet header after its own.
        let header = match datagram.first() {
            Some(prefix) if prefix & 1 == 1 => datagram.get(link::FRAGMENT_HEADER_BYTES..),
            _ => Some(datagram),
        };
        reply.get_or_insert_with(|| header.unwrap_or_default().to_vec());
    })?;
    let ack = windows.newest();
    let ack_bits = (0..32u16)
        .filter(|i| {
            let sequence = ack.wrapping_sub(*i);
            taken.contains(&sequence) && windows.holds(sequence)
        })
        .fold(0u32, |bits, i| bits | 1 << i);
    let owed = link::Header {
        sequence: scenario.own.first.wrapping_add(scenario.own.count),
        ack,
        ack_bits,
    };
    let mut head = [0u8; link::MAX_HEADER_BYTES];
    let len = owed.write(&mut head).unwrap_or(0);
    let reply = reply.unwrap_or_default();
    let owed_bytes = head.get(..len).unwrap_or_default();
    (sequence != owed.sequence || reply.get(..len) != Some(owed_bytes)).then(|| {
        format!(
            "its next header (packet {sequence}) began {:02x?}, owed {owed_bytes:02x?}: \
             ack {ack}, ack_bits {ack_bits:#010x}",
            reply.get(..len.min(reply.len())).unwrap_or_default()
        )
    })
}

/// The acks a connection owes its application, as reliable 1.0 reports
/// them: on each packet of the peer's it takes, each own packet its header
/// acknowledges (bit 0 first) that it sent, still remembers and has not
/// reported, while its ack buffer has room; the application empties the
/// buffer when it takes the acks.
struct AckModel {
    /// The acks of every honest header of the peer's.
    header: Option<(u16, u32)>,
    /// Its own packets: the first, how many it sent, the sent window.
    first: u16,
    sent: u16,
    window: u16,
    /// The ack buffer's size, and what it holds.
    room: usize,
    held: Vec<u16>,
    /// Every own packet reported so far.
    reported: HashSet<u16>,
}

impl AckModel {
    /// The acks reported on taking a packet with the honest header.
    fn take_packet(&mut self) {
        let Some((ack, bits)) = self.header else {
            return;
        };
        for i in 0..32u16 {
            let own = ack.wrapping_sub(i);
            if bits & (1 << i) == 0
                || !remembers(self.first, self.sent, self.window, own)
                || self.reported.contains(&own)
            {
                continue;
            }
            if self.held.len() < self.room {
                self.held.push(own);
                self.reported.insert(own);
            }
        }
    }

    /// Compares the acks the application took with those owed since it
    /// last took them: what went wrong, if anything.
    fn take(&mut self, mut got: Vec<u16>) -> Option<(Broken, String)> {
        let mut owed = std::mem::take(&mut self.held);
        got.sort_unstable();
        owed.sort_unstable();
        if got == owed {
            return None;
        }
        let extra: Vec<u16> = got.iter().filter(|a| !owed.contains(a)).copied().collect();
        let missing: Vec<u16> = owed.iter().filter(|a| !got.contains(a)).copied().collect();
        Some(if extra.is_empty() {
            (
                Broken::Unacked,
                format!(
                    "its packets {missing:?}, which the peer's headers acknowledged, not reported \
                     (acks {got:?} taken, ack buffer of {})",
                    self.room
                ),
            )
        } else {
            (
                Broken::FalseAck,
                format!(
                    "acks for packets {extra:?}, which it never sent, the peer never received, \
                     it had forgotten or it reported before (owed {owed:?})"
                ),
            )
        })
    }
}

/// The sequence a datagram names (bytes 1 and 2, for a packet header and
/// a fragment header alike) and whether it is a fragment; read here, not
/// by the code under attack.
fn named(datagram: &[u8]) -> Option<(u16, bool)> {
    match datagram {
        [prefix, low, high, ..] => Some((u16::from_le_bytes([*low, *high]), prefix & 1 == 1)),
        _ => None,
    }
}

/// Has `connection` send its own packets ([`Scenario::own`]), then
/// delivers the scenario's datagrams to it one by one and checks every
/// step: the owed verdict, the counter of a refusal's cause moved by
/// exactly one, deliveries sent, intact and taken once, the acks the
/// application takes exactly those owed ([`Application::takes_acks_every`]
/// datagrams apart, and at the end), allocations within its bound; at the
/// end, every packet owed delivery taken, and its next header's acks. The
/// application declines the packets [`Application::declines`] names the
/// first time it is handed them. `made` is what making the connection
/// allocated.
///
/// # Errors
///
/// The first thing that went wrong.
pub fn run(
    connection: &mut dyn Connection,
    made: usize,
    scenario: &Scenario,
) -> Result<(), Failure> {
    let fail = |step: usize, kind: Broken, what: String| Failure {
        class: scenario.class,
        step,
        kind,
        what,
    };
    let config = scenario.config.clone().unwrap_or_else(config);
    connection.expect_peer_from(scenario.peer_start);
    let mut allocated = made;
    let mut sent = 0u16;
    for i in 0..scenario.own.count {
        let payload = scenario.own.payload(i);
        let (done, bytes) =
            allocated_during(|| connection.send_own(scenario.own.first, &payload, &mut |_| {}));
        allocated += bytes.bytes;
        let Some(sequence) = done else {
            break;
        };
        let owed = scenario.own.first.wrapping_add(i);
        if sequence != owed {
            return Err(fail(
                0,
                Broken::WrongVerdict,
                format!("its own packet {i} went as {sequence}, not {owed}"),
            ));
        }
        sent += 1;
    }
    let mut acks = AckModel {
        header: ack_fields(&scenario.own),
        first: scenario.own.first,
        sent,
        window: config.sent_packets_buffer_size,
        room: config.ack_buffer_size,
        held: Vec::new(),
        reported: HashSet::new(),
    };
    let mut windows = Windows::new(&config, scenario.peer_start);
    // Packets the application took, and those it declined once.
    let mut taken: HashSet<u16> = HashSet::new();
    let mut declined: HashSet<u16> = HashSet::new();
    let every = usize::from(scenario.app.takes_acks_every.max(1));
    let mut payload = Vec::with_capacity(1 << 16);
    for (step, (datagram, owed)) in scenario.datagrams.iter().enumerate() {
        let before = match owed {
            Owed::Refuse(cause) => connection.refused(cause),
            Owed::Accept => 0,
        };
        payload.clear();
        let mut handed = None;
        let (verdict, bytes) = allocated_during(|| {
            connection.receive(datagram, &mut |sequence, p| {
                payload.extend_from_slice(p);
                let takes =
                    !scenario.app.declines.contains(&sequence) || declined.contains(&sequence);
                handed = Some((sequence, takes));
                takes
            })
        });
        allocated += bytes.bytes;
        if allocated > connection.memory_bound() {
            return Err(fail(
                step,
                Broken::OverAllocated,
                format!(
                    "allocated {allocated} bytes, past the bound {}",
                    connection.memory_bound()
                ),
            ));
        }
        match (owed, verdict) {
            (Owed::Accept, Ok(())) => {
                // A fragment moves the windows as it is stored; a whole
                // packet as the application takes it.
                if let Some((sequence, true)) = named(datagram) {
                    windows.advance(sequence);
                }
            }
            (Owed::Refuse(cause), Err(got)) if got == *cause => {
                let after = connection.refused(cause);
                if after != before + 1 {
                    return Err(fail(
                        step,
                        Broken::Miscounted,
                        format!("{cause} counted {} times", after.saturating_sub(before)),
                    ));
                }
            }
            (owed, got) => {
                return Err(fail(
                    step,
                    Broken::WrongVerdict,
                    format!("owed {owed:?}, got {got:?}"),
                ));
            }
        }
        if let Some((sequence, takes)) = handed {
            if scenario.sent.get(&sequence) != Some(&payload) {
                return Err(fail(
                    step,
                    Broken::Corrupted,
                    format!("packet {sequence} delivered other than it was sent"),
                ));
            }
            if !takes {
                declined.insert(sequence);
            } else if !taken.insert(sequence) {
                return Err(fail(
                    step,
                    Broken::DeliveredTwice,
                    format!("packet {sequence} delivered twice"),
                ));
            } else {
                windows.advance(sequence);
                acks.take_packet();
            }
        }
        if (step + 1) % every == 0 {
            if let Some((kind, what)) = acks.take(connection.take_acks()) {
                return Err(fail(step, kind, what));
            }
        }
    }
    let end = scenario.datagrams.len();
    if let Some((kind, what)) = acks.take(connection.take_acks()) {
        return Err(fail(end, kind, what));
    }
    let mut missing: Vec<u16> = scenario.must_deliver.difference(&taken).copied().collect();
    missing.sort_unstable();
    if !missing.is_empty() {
        return Err(fail(
            end,
            Broken::Undelivered,
            format!("packets {missing:?} never delivered"),
        ));
    }
    if let Some(failure) = header_acks(connection, scenario, &windows, &taken) {
        return Err(fail(end, Broken::HeaderAcks, failure));
    }
    Ok(())
}
