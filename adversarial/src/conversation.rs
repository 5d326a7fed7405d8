//! Two `link` endpoints wired back to back and driven by a script: each
//! step sends a packet from one side, delivers, drops, duplicates or
//! reorders a datagram in flight, corrupts one, or injects bytes of its
//! own; and after every step the promises of the connection layer are
//! checked. The stateful fuzz target's body (`fuzz::link_conversation`).

use crate::alloc::allocated_during;
use crate::configs::{self, Family, Needs};
use crate::window::{ahead, remembers, Windows};
use arbitrary::{Arbitrary, Unstructured};
use link::{Config, Endpoint, Received};
use std::collections::{HashMap, HashSet};

/// The most steps a script runs, and the most datagrams in flight each
/// way: a fuzz input stays quick however long it is.
const MAX_STEPS: usize = 512;
const MAX_IN_FLIGHT: usize = 256;

/// How far the window must move past a delivered sequence before it may
/// be delivered again: half the range, less the largest window.
const REUSE_DISTANCE: u64 = 32_768 - 64;

/// The configuration both ends use: small fragments and windows, so that
/// a short script reaches fragmentation, stale windows and reuse of
/// reassembly slots.
#[must_use]
pub fn config() -> Config {
    Config {
        max_packet_size: 2000,
        fragment_above: 200,
        fragment_size: 200,
        max_fragments: 10,
        sent_packets_buffer_size: 32,
        received_packets_buffer_size: 32,
        fragment_reassembly_buffer_size: 4,
        ack_buffer_size: 64,
        ..Config::default()
    }
}

/// One step of a script. `to_b` names the receiving side (the sender is
/// the other: B when false, A when true); `pick` chooses a datagram in
/// flight toward it, any of them (so reordering).
#[derive(Arbitrary, Debug, Clone)]
pub enum Step {
    /// The other side sends a packet.
    Send {
        /// Whether B receives it.
        to_b: bool,
        /// Its bytes, cut to the most the configuration sends; none when 0.
        len: u16,
        /// Its first byte; each next one is one more.
        fill: u8,
    },
    /// A datagram in flight arrives.
    Deliver {
        /// Whether at B.
        to_b: bool,
        /// Which.
        pick: u8,
    },
    /// A datagram in flight is lost.
    Drop {
        /// Whether toward B.
        to_b: bool,
        /// Which.
        pick: u8,
    },
    /// A datagram in flight arrives and stays in flight, to come again.
    Duplicate {
        /// Whether at B.
        to_b: bool,
        /// Which.
        pick: u8,
    },
    /// A datagram in flight arrives with one byte changed.
    Corrupt {
        /// Whether at B.
        to_b: bool,
        /// Which.
        pick: u8,
        /// The byte changed (modulo the datagram's length).
        at: u16,
        /// What it is XORed with (0 changes nothing, and nothing arrives).
        xor: u8,
    },
    /// Bytes of the script's own arrive, as from an attacker on the path.
    Inject {
        /// Whether at B.
        to_b: bool,
        /// The datagram.
        bytes: Vec<u8>,
    },
    /// The clocks move on and both ends update their estimates.
    Tick {
        /// By this many milliseconds.
        millis: u8,
    },
    /// A datagram in flight arrives, and the application declines the
    /// packet it completes, if any: not acknowledged, owed delivery when
    /// its datagrams come again.
    Decline {
        /// Whether at B.
        to_b: bool,
        /// Which.
        pick: u8,
    },
    /// The other side's next packet jumps (as after a long loss, or a
    /// resumed sender) to half the range from the receiver's received
    /// window's oldest sequence (or reassembly's), give or take one: the
    /// tie at half the range, decided by the numbers.
    Jump {
        /// Whether B receives what it sends next.
        to_b: bool,
        /// Bit 0: reassembly's window, not the received one; the rest,
        /// modulo 3: one less, exactly, one more.
        edge: u8,
    },
}

/// One end: its endpoint, what it allocated, what it sent and what it was
/// handed.
struct Side {
    endpoint: Endpoint,
    config: Config,
    allocated: usize,
    /// Payloads this end sent, by sequence, and how many it sent from its
    /// first sequence.
    sent: HashMap<u16, Vec<u8>>,
    first: u16,
    sent_count: u16,
    /// The sequences it sent before each jump: first, and how many.
    used: Vec<(u16, u16)>,
    /// Sequences this end's application took, each with how far its
    /// windows had moved when it did.
    delivered: HashMap<u16, u64>,
    /// Its windows of the peer's sequences, as the harness's own
    /// arithmetic moves them, and how far they have moved in all.
    windows: Windows,
    moved: u64,
    /// Sequences a datagram not sent by the peer (corrupted or injected)
    /// was accepted for: their content is whatever the attacker made it.
    forged: HashSet<u16>,
    /// Datagrams in flight toward this end.
    in_flight: Vec<InFlight>,
    /// For each packet of the peer's, per datagram: whether it arrived
    /// while this end's windows still held the packet (since the
    /// application last declined it).
    arrived: HashMap<u16, Vec<bool>>,
    /// Whether a datagram the peer did not make (corrupted or injected)
    /// reached this end: then nothing is owed of it in time.
    attacked: bool,
    /// For each packet this end sent, the peer's packets its header
    /// acknowledges, as this end's history says it had them then.
    header_acks: HashMap<u16, Vec<u16>>,
    /// Its own packets it reported acknowledged.
    acked: HashSet<u16>,
}

/// A datagram in flight: its bytes, and the packet and place its sender
/// made it for.
#[derive(Clone)]
struct InFlight {
    bytes: Vec<u8>,
    sequence: u16,
    index: usize,
}

/// Makes an endpoint under test for a configuration: link's own, or one
/// with a planted fault.
pub type Make<'a> = &'a dyn Fn(&Config) -> Endpoint;

/// Link's own endpoint for `config`.
#[must_use]
pub fn endpoint(config: &Config) -> Endpoint {
    Endpoint::new(config.clone(), 0.0)
        .unwrap_or_else(|e| panic!("a drawn configuration is valid: {e}"))
}

impl Side {
    fn new(make: Make<'_>, config: &Config, start: u16) -> Self {
        let (endpoint, made) = allocated_during(|| make(config));
        Self {
            endpoint,
            config: config.clone(),
            allocated: made.bytes,
            sent: HashMap::new(),
            first: start,
            sent_count: 0,
            used: Vec::new(),
            delivered: HashMap::new(),
            windows: Windows::new(config, start),
            moved: 0,
            forged: HashSet::new(),
            in_flight: Vec::new(),
            arrived: HashMap::new(),
            attacked: false,
            header_acks: HashMap::new(),
            acked: HashSet::new(),
        }
    }

    /// The peer's packets a header this end writes now acknowledges: the
    /// newest sequence its windows moved to (before any, the one before
    /// the first it expects), and each of the 31 before it that its
    /// application took and its received window still holds (reliable
    /// 1.0's rule, from this end's history).
    fn acks_in_header(&self) -> Vec<u16> {
        let ack = self.windows.newest();
        (0..32u16)
            .map(|i| ack.wrapping_sub(i))
            .filter(|d| {
                self.windows.holds(*d)
                    && self
                        .delivered
                        .get(d)
                        .is_some_and(|then| self.moved - then < REUSE_DISTANCE)
            })
            .collect()
    }

    /// Whether this end's windows have passed the peer's packet
    /// `sequence`, for a datagram of this shape: reliable 1.0's staleness,
    /// from this end's history.
    fn passed(&self, sequence: u16, datagram: &[u8]) -> bool {
        if datagram.first().is_some_and(|prefix| prefix & 1 == 1) {
            self.windows.stale_fragment(sequence)
        } else {
            self.windows.stale_packet(sequence)
        }
    }

    /// Moves its windows to `sequence`, if newer, counting the distance.
    /// A packet the windows pass loses what had arrived of it: should the
    /// windows come round to hold it again (half the range on, where the
    /// tie decides), its datagrams are owed delivery only if all come
    /// again.
    fn advance(&mut self, sequence: u16) {
        let before = self.windows.next;
        self.windows.advance(sequence);
        if self.windows.next == before {
            return;
        }
        self.moved += u64::from(self.windows.next.wrapping_sub(before));
        let windows = self.windows;
        for (sequence, arrived) in &mut self.arrived {
            if windows.stale_fragment(*sequence) {
                arrived.iter_mut().for_each(|held| *held = false);
            }
        }
    }

    /// Whether `sequence` is neither newer than the windows' newest nor
    /// one reassembly holds a slot for.
    fn outside_windows(&self, sequence: u16) -> bool {
        let back = self.windows.newest().wrapping_sub(sequence);
        let newer = ahead(sequence.wrapping_add(1), self.windows.next);
        !newer && back >= self.windows.reassembly
    }

    /// Whether its own packet `sequence` is still in its sent window, the
    /// packets it remembers for their acks.
    fn remembers(&self, sequence: u16) -> bool {
        remembers(
            self.first,
            self.sent_count,
            self.config.sent_packets_buffer_size,
            sequence,
        )
    }

    /// Counts what `f` allocates against the endpoint's bound.
    fn measured<T>(&mut self, f: impl FnOnce(&mut Endpoint) -> T) -> T {
        let (result, allocated) = allocated_during(|| f(&mut self.endpoint));
        self.allocated += allocated.bytes;
        assert!(
            self.allocated <= self.endpoint.memory_bound(),
            "an endpoint allocated {} bytes, past its bound of {}",
            self.allocated,
            self.endpoint.memory_bound()
        );
        result
    }
}

/// Whether an honest datagram of packet `sequence`, refused for `cause`,
/// was owed that refusal: only what time explains (its window passed it,
/// or it came before), as this end's history says, unless an attacker's
/// datagram was accepted for the same sequence; never for its form.
fn refusal_owed(to: &Side, sequence: u16, datagram: &[u8], cause: link::Cause) -> bool {
    use link::Cause;
    if to.forged.contains(&sequence) {
        return true;
    }
    let had = to
        .delivered
        .get(&sequence)
        .is_some_and(|then| to.moved - then < REUSE_DISTANCE);
    match cause {
        Cause::StalePacket | Cause::StaleFragment => to.passed(sequence, datagram),
        Cause::DuplicatePacket | Cause::AlreadyReceived => had,
        // The same fragment again: its first copy stands.
        Cause::DuplicateFragment => true,
        _ => false,
    }
}

/// Receives `datagram` at `to`, from `from`, and checks the promises:
/// a refusal is counted once under its cause; an honest datagram (one the
/// peer made for packet `honest`, as it made it) is refused only when
/// time explains it ([`refusal_owed`]); a delivered packet was sent by the
/// peer, intact, and is taken once, unless an attacker's datagram was
/// accepted for its sequence. The application takes what it is handed
/// unless `declines`.
fn receive(to: &mut Side, from: &Side, datagram: &[u8], honest: Option<u16>, declines: bool) {
    let passed =
        honest.filter(|sequence| !to.forged.contains(sequence) && to.passed(*sequence, datagram));
    if honest.is_none() {
        to.attacked = true;
    }
    let before = to.endpoint.counters().clone();
    let acks_before = to.endpoint.acks().len();
    // Reserved before the endpoint runs, so that only its own allocations
    // are counted against its bound.
    let mut payload = Vec::with_capacity(to.config.max_packet_size);
    let mut handed: Option<u16> = None;
    let result = to.measured(|e| {
        e.receive(datagram, |sequence, delivered| {
            handed = Some(sequence);
            payload.extend_from_slice(delivered);
            !declines
        })
    });
    let handed = handed.map(|sequence| (sequence, payload));
    let after = to.endpoint.counters();
    match result {
        Err(refusal) => {
            assert_eq!(
                after.refused(refusal.cause),
                before.refused(refusal.cause) + 1,
                "{refusal} counted once"
            );
            assert_eq!(after.refused_total(), before.refused_total() + 1);
            assert!(handed.is_none(), "a refused datagram delivered a packet");
            if let Some(sequence) = honest {
                assert!(
                    refusal_owed(to, sequence, datagram, refusal.cause),
                    "an honest datagram of packet {sequence} refused: {refusal}"
                );
            }
        }
        Ok(received) => {
            assert_eq!(after.refused_total(), before.refused_total());
            if let Some(sequence) = passed {
                panic!(
                    "an honest datagram of packet {sequence} accepted, its window passed: \
                     {received:?}"
                );
            }
            let (sequence, taken) = match received {
                Received::Delivered { sequence } => (sequence, true),
                Received::Declined { sequence } | Received::Stored { sequence, .. } => {
                    (sequence, false)
                }
            };
            if honest.is_none() {
                to.forged.insert(sequence);
            }
            // A fragment moves the windows as it is stored; a whole packet
            // as the application takes it.
            let fragment = datagram.first().is_some_and(|prefix| prefix & 1 == 1);
            if fragment && to.outside_windows(sequence) {
                // Exactly half the range from the window's oldest, not stale
                // by the tie: stored in a slot a held packet may have had,
                // whose fragments so far are then lost.
                for arrived in to.arrived.values_mut() {
                    arrived.iter_mut().for_each(|held| *held = false);
                }
            }
            if taken || fragment {
                to.advance(sequence);
            }
            if let Received::Declined { .. } = received {
                assert!(
                    declines,
                    "packet {sequence} declined, the application took it"
                );
                // Owed again only once its datagrams all come again.
                if let Some(arrived) = to.arrived.get_mut(&sequence) {
                    arrived.iter_mut().for_each(|held| *held = false);
                }
            }
            let reported: Vec<u16> = to.endpoint.acks()[acks_before..].to_vec();
            if taken {
                acks_owed(to, from, sequence, &reported);
            } else {
                assert!(
                    reported.is_empty(),
                    "acks {reported:?} reported on a packet not taken"
                );
            }
            to.acked.extend(reported);
            if let Some((delivered, payload)) = handed {
                assert_eq!(delivered, sequence);
                if !to.forged.contains(&sequence) {
                    assert_eq!(
                        from.sent.get(&sequence),
                        Some(&payload),
                        "packet {sequence} delivered other than it was sent"
                    );
                }
                if !taken {
                    return;
                }
                // A sequence comes round again once the window has moved
                // half the range past it: only an attacker's datagrams
                // move it that far in a short script (16 bits, no
                // authentication), and then the old packet is new again.
                if let Some(then) = to.delivered.insert(sequence, to.moved) {
                    assert!(
                        to.moved - then >= REUSE_DISTANCE,
                        "packet {sequence} delivered twice, the window {} sequences on",
                        to.moved - then
                    );
                }
            }
        }
    }
}

/// The acks `to` reported on delivering the peer's packet `sequence` are
/// exactly those owed: each of its own packets the packet's header
/// acknowledged (as `from`'s history says it was written) that it still
/// remembers and had not reported before. Not owed of a packet an
/// attacker's datagram went into, nor once an attacker moved a window half
/// the range (old deliveries then count again).
fn acks_owed(to: &Side, from: &Side, sequence: u16, reported: &[u16]) {
    if to.forged.contains(&sequence)
        || to.moved >= REUSE_DISTANCE / 2
        || from.moved >= REUSE_DISTANCE / 2
    {
        return;
    }
    let Some(header) = from.header_acks.get(&sequence) else {
        return;
    };
    // In the header's order, as many as the ack buffer has room for (the
    // application took its acks after the last step).
    let mut owed: Vec<u16> = header
        .iter()
        .copied()
        .filter(|own| to.remembers(*own) && !to.acked.contains(own))
        .take(to.config.ack_buffer_size)
        .collect();
    let mut got = reported.to_vec();
    owed.sort_unstable();
    got.sort_unstable();
    assert_eq!(
        got, owed,
        "acks reported on delivering packet {sequence}, against those its header owed"
    );
}

/// Checks what holds of an end at any moment: every ack names a packet it
/// sent, and its estimates are numbers in their ranges.
fn steady(side: &Side) {
    for acked in side.endpoint.acks() {
        assert!(
            side.sent.contains_key(acked),
            "ack for packet {acked}, never sent"
        );
    }
    let estimates = side.endpoint.estimates();
    let (min, max, avg) = estimates.rtt_min_max_avg();
    for value in [side.endpoint.rtt(), min, max, avg] {
        assert!(value.is_finite() && value >= 0.0, "round trip {value}");
    }
    assert!((0.0..=100.0).contains(&estimates.packet_loss()));
}

/// What a script did: packets each end was handed, and acks each end
/// reported (A first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Packets delivered at A and at B.
    pub delivered: [usize; 2],
    /// Own packets A and B were told arrived.
    pub acked: [usize; 2],
}

/// Runs the script `data` describes (the configuration, drawn as the
/// scenarios draw theirs, where the sequences start, then steps read
/// through `arbitrary`, at most 512) over two of link's endpoints; panics
/// when a promise breaks.
pub fn run(data: &[u8]) -> Summary {
    run_with(data, &endpoint)
}

/// As [`run`], over endpoints `make` makes.
pub fn run_with(data: &[u8], make: Make<'_>) -> Summary {
    let mut u = Unstructured::new(data);
    // Each family as often as the own configuration (0 picks it).
    let family = Family::ALL[usize::from(u.arbitrary::<u8>().unwrap_or(0)) % Family::ALL.len()];
    let own = config();
    let config = configs::of_family(&own, family, Needs::default(), &mut u).unwrap_or(own);
    // A quarter of the scripts start just before the wrap, within reach of
    // a script's packets.
    let near_wrap = u.ratio(1, 4).unwrap_or(false);
    let start = if near_wrap {
        u16::MAX - u16::from(u.arbitrary::<u8>().unwrap_or(0) % 64)
    } else {
        0
    };
    let steps = std::iter::from_fn(|| next_step(&mut u).ok());
    run_from(&config, start, steps, make)
}

/// The next step of a script, read compactly: a byte choosing the kind
/// (deliveries and sends the most often, so that random bytes hold
/// conversations, not only lies), then its fields a byte or two each; an
/// injected datagram is at most 64 bytes, so that one step does not eat
/// the script.
fn next_step(u: &mut Unstructured<'_>) -> arbitrary::Result<Step> {
    let kind = u.arbitrary::<u8>()? % 16;
    let to_b = u.arbitrary::<bool>()?;
    Ok(match kind {
        0..=3 => Step::Send {
            to_b,
            len: u.arbitrary()?,
            fill: u.arbitrary()?,
        },
        4..=8 => Step::Deliver {
            to_b,
            pick: u.arbitrary()?,
        },
        9 => Step::Drop {
            to_b,
            pick: u.arbitrary()?,
        },
        10 => Step::Duplicate {
            to_b,
            pick: u.arbitrary()?,
        },
        11 => Step::Corrupt {
            to_b,
            pick: u.arbitrary()?,
            at: u.arbitrary()?,
            xor: u.arbitrary()?,
        },
        12 => {
            let len = usize::from(u.arbitrary::<u8>()? % 64);
            Step::Inject {
                to_b,
                bytes: u.bytes(len)?.to_vec(),
            }
        }
        13 => Step::Tick {
            millis: u.arbitrary()?,
        },
        14 => Step::Decline {
            to_b,
            pick: u.arbitrary()?,
        },
        _ => Step::Jump {
            to_b,
            edge: u.arbitrary()?,
        },
    })
}

/// Runs `steps` (at most 512 of them) over two of link's endpoints with
/// [`config`], from sequence 0; panics when a promise breaks.
pub fn run_steps(steps: impl IntoIterator<Item = Step>) -> Summary {
    run_from(&config(), 0, steps, &endpoint)
}

/// Runs `steps` over endpoints `make` makes for `config`, each sending
/// from `start` and expecting its peer from there; panics when a promise
/// breaks.
pub fn run_from(
    config: &Config,
    start: u16,
    steps: impl IntoIterator<Item = Step>,
    make: Make<'_>,
) -> Summary {
    let mut sides = [
        Side::new(make, config, start),
        Side::new(make, config, start),
    ];
    for side in &mut sides {
        side.endpoint.set_next_sequence(start);
        side.endpoint.expect_peer_from(start);
    }
    let mut time = 0.0f64;
    let mut acked = [0usize; 2];
    for step in steps.into_iter().take(MAX_STEPS) {
        apply(&mut sides, step, &mut time);
        for (side, acked) in sides.iter_mut().zip(&mut acked) {
            steady(side);
            *acked += side.endpoint.acks().len();
            side.endpoint.clear_acks();
        }
    }
    for side in &sides {
        delivered_in_time(side);
    }
    Summary {
        delivered: [sides[0].delivered.len(), sides[1].delivered.len()],
        acked,
    }
}

/// What an end owes by the end of a script its peer alone spoke to: every
/// packet of the peer's whose datagrams all arrived while its windows held
/// it was delivered.
fn delivered_in_time(side: &Side) {
    if side.attacked {
        return;
    }
    let mut owed: Vec<u16> = side
        .arrived
        .iter()
        .filter(|(sequence, arrived)| {
            arrived.iter().all(|held| *held) && !side.delivered.contains_key(sequence)
        })
        .map(|(sequence, _)| *sequence)
        .collect();
    owed.sort_unstable();
    assert!(
        owed.is_empty(),
        "packets {owed:?}: every datagram arrived while the windows held it, never delivered"
    );
}

/// The receiving side of a step and the other one.
fn ends(sides: &mut [Side; 2], to_b: bool) -> (&mut Side, &mut Side) {
    let [a, b] = sides;
    if to_b {
        (b, a)
    } else {
        (a, b)
    }
}

fn apply(sides: &mut [Side; 2], step: Step, time: &mut f64) {
    match step {
        Step::Send { to_b, len, fill } => {
            let (to, from) = ends(sides, to_b);
            let len = usize::from(len) % (from.config.max_packet_size + 1);
            if len == 0 || to.in_flight.len() >= MAX_IN_FLIGHT {
                return;
            }
            let payload: Vec<u8> = (0..len).map(|i| fill.wrapping_add(i as u8)).collect();
            // The datagrams land in space reserved beforehand, so that only
            // the endpoint's own allocations are counted against its bound.
            let mut bytes = Vec::with_capacity(len + 64 * from.config.max_fragments);
            let mut spans = Vec::with_capacity(from.config.max_fragments);
            let sent = from.measured(|e| {
                e.send(&payload, |d| {
                    spans.push((bytes.len(), d.len()));
                    bytes.extend_from_slice(d);
                })
            });
            let sequence = sent.unwrap_or_else(|e| panic!("a packet within the limits: {e}"));
            from.sent.insert(sequence, payload);
            from.sent_count += 1;
            let acks = from.acks_in_header();
            from.header_acks.insert(sequence, acks);
            to.arrived.insert(sequence, vec![false; spans.len()]);
            to.in_flight.extend(
                spans
                    .iter()
                    .enumerate()
                    .map(|(index, &(start, len))| InFlight {
                        bytes: bytes[start..start + len].to_vec(),
                        sequence,
                        index,
                    }),
            );
        }
        Step::Deliver { to_b, pick }
        | Step::Duplicate { to_b, pick }
        | Step::Decline { to_b, pick } => {
            let (to, from) = ends(sides, to_b);
            if to.in_flight.is_empty() {
                return;
            }
            let at = usize::from(pick) % to.in_flight.len();
            let datagram = if matches!(step, Step::Duplicate { .. }) {
                to.in_flight[at].clone()
            } else {
                to.in_flight.remove(at)
            };
            let held = !to.passed(datagram.sequence, &datagram.bytes);
            if let Some(arrived) = to
                .arrived
                .get_mut(&datagram.sequence)
                .and_then(|arrived| arrived.get_mut(datagram.index))
            {
                *arrived |= held;
            }
            let declines = matches!(step, Step::Decline { .. });
            receive(to, from, &datagram.bytes, Some(datagram.sequence), declines);
        }
        Step::Drop { to_b, pick } => {
            let (to, _) = ends(sides, to_b);
            if !to.in_flight.is_empty() {
                let at = usize::from(pick) % to.in_flight.len();
                to.in_flight.remove(at);
            }
        }
        Step::Corrupt {
            to_b,
            pick,
            at,
            xor,
        } => {
            let (to, from) = ends(sides, to_b);
            if to.in_flight.is_empty() || xor == 0 {
                return;
            }
            let index = usize::from(pick) % to.in_flight.len();
            let mut datagram = to.in_flight.remove(index).bytes;
            let byte = usize::from(at) % datagram.len().max(1);
            if let Some(b) = datagram.get_mut(byte) {
                *b ^= xor;
            }
            receive(to, from, &datagram, None, false);
        }
        Step::Inject { to_b, bytes } => {
            let (to, from) = ends(sides, to_b);
            receive(to, from, &bytes, None, false);
        }
        Step::Jump { to_b, edge } => {
            let (to, from) = ends(sides, to_b);
            let len = if edge & 1 == 1 {
                to.windows.reassembly
            } else {
                to.windows.received
            };
            let next = to
                .windows
                .next
                .wrapping_sub(len)
                .wrapping_add(crate::window::HALF)
                .wrapping_add(u16::from(edge >> 1) % 3)
                .wrapping_sub(1);
            // Honest only where the sender never sent: no old datagram,
            // stored fragment or delivery may meet a sequence used again.
            let reach = MAX_STEPS as u16;
            let overlaps = |(first, count): (u16, u16)| {
                next.wrapping_sub(first) < count.saturating_add(reach)
                    || first.wrapping_sub(next) < reach
            };
            if from
                .used
                .iter()
                .copied()
                .chain([(from.first, from.sent_count)])
                .any(overlaps)
            {
                return;
            }
            // A sender that starts again at `next` remembers nothing it
            // sent before.
            from.used.push((from.first, from.sent_count));
            from.endpoint.set_next_sequence(next);
            from.first = next;
            from.sent_count = 0;
        }
        Step::Tick { millis } => {
            *time += f64::from(millis) / 1000.0;
            for side in sides.iter_mut() {
                let now = *time;
                side.measured(|e| e.update(now));
            }
        }
    }
}

/// Raw bytes as datagrams into one endpoint with no honest peer: each
/// datagram is a length byte and that many bytes. Checks what holds
/// whatever arrives: refusals counted once, nothing delivered twice,
/// allocations within the bound, estimates finite. The raw-bytes body the
/// stateful one is compared with.
pub fn run_raw(data: &[u8], make: Make<'_>) {
    let config = config();
    let mut to = Side::new(make, &config, 0);
    let from = Side::new(make, &config, 0);
    let mut rest = data;
    for _ in 0..MAX_STEPS {
        let Some((&len, tail)) = rest.split_first() else {
            break;
        };
        let len = usize::from(len).min(tail.len());
        let (datagram, tail) = tail.split_at(len);
        rest = tail;
        receive(&mut to, &from, datagram, None, false);
        steady(&to);
    }
}
