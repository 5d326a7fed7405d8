//! Two endpoints back to back through a link that drops, duplicates and
//! reorders datagrams (proptest chooses how much, and where the sequence
//! numbers start, near the wrap or not). Whatever the link does: every
//! packet delivered was sent, intact, and is delivered at most once; every
//! packet reported acked was delivered; the estimates stay finite; and what
//! each endpoint allocates, from its creation on, stays within
//! `Endpoint::memory_bound` (counted by a counting allocator).

use adversarial::alloc::allocated_during;
use link::{Config, Endpoint};
use proptest::prelude::*;
use std::collections::HashMap;

adversarial::count_allocations!();

/// Datagrams in flight, stored without allocating once reserved, so that
/// what the endpoints allocate is all the allocator sees during their calls.
struct Wire {
    bytes: Vec<u8>,
    spans: Vec<(usize, usize)>,
}

impl Wire {
    fn with_capacity(bytes: usize, datagrams: usize) -> Self {
        Self {
            bytes: Vec::with_capacity(bytes),
            spans: Vec::with_capacity(datagrams),
        }
    }

    fn push(&mut self, datagram: &[u8]) {
        assert!(self.bytes.len() + datagram.len() <= self.bytes.capacity());
        assert!(self.spans.len() < self.spans.capacity());
        self.spans.push((self.bytes.len(), datagram.len()));
        self.bytes.extend_from_slice(datagram);
    }
}

/// A small deterministic generator, seeded by proptest.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    fn percent(&mut self, p: u64) -> bool {
        self.below(100) < p
    }
}

fn config() -> Config {
    Config {
        max_packet_size: 1500,
        fragment_above: 200,
        fragment_size: 200,
        max_fragments: 8,
        fragment_reassembly_buffer_size: 16,
        received_packets_buffer_size: 64,
        sent_packets_buffer_size: 64,
        ack_buffer_size: 64,
        ..Config::default()
    }
}

/// One direction of the conversation: the packets one end sent, by
/// sequence, and what the other end was handed.
#[derive(Default)]
struct Direction {
    sent: HashMap<u16, Vec<u8>>,
    delivered: Vec<u16>,
    corrupted: u32,
}

/// An endpoint and what it has allocated since it was made.
struct Side {
    endpoint: Endpoint,
    allocated: usize,
}

impl Side {
    /// An endpoint that sends from `start` and expects its peer's packets
    /// from `peer_start`.
    fn new(start: u16, peer_start: u16) -> Self {
        let (mut endpoint, made) = allocated_during(|| Endpoint::new(config(), 0.0).unwrap());
        endpoint.set_next_sequence(start);
        endpoint.expect_peer_from(peer_start);
        Self {
            endpoint,
            allocated: made.bytes,
        }
    }

    fn measured<T>(&mut self, f: impl FnOnce(&mut Endpoint) -> T) -> T {
        let (result, allocated) = allocated_during(|| f(&mut self.endpoint));
        self.allocated += allocated.bytes;
        assert!(
            self.allocated <= self.endpoint.memory_bound(),
            "allocated {} past the bound {}",
            self.allocated,
            self.endpoint.memory_bound()
        );
        result
    }
}

#[derive(Debug, Clone)]
struct Link {
    seed: u64,
    drop: u64,
    duplicate: u64,
    reorder: bool,
    start_a: u16,
    start_b: u16,
    packets: usize,
}

fn link() -> impl Strategy<Value = Link> {
    let start = prop_oneof![0u16..200, 65_400u16..=65_535];
    (
        any::<u64>().prop_map(|s| s | 1),
        0u64..40,
        0u64..30,
        any::<bool>(),
        start.clone(),
        start,
        50usize..250,
    )
        .prop_map(
            |(seed, drop, duplicate, reorder, start_a, start_b, packets)| Link {
                seed,
                drop,
                duplicate,
                reorder,
                start_a,
                start_b,
                packets,
            },
        )
}

/// Runs the conversation; returns the two directions (A to B, B to A).
fn converse(link: &Link, a: &mut Side, b: &mut Side) -> (Direction, Direction) {
    let mut dice = Dice(link.seed);
    let mut a_to_b = Direction::default();
    let mut b_to_a = Direction::default();
    a_to_b.delivered.reserve(link.packets * 2);
    b_to_a.delivered.reserve(link.packets * 2);
    let mut wires = [
        Wire::with_capacity(link.packets * 1600 * 2, link.packets * 20),
        Wire::with_capacity(link.packets * 1600 * 2, link.packets * 20),
    ];
    let mut in_flight: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
    in_flight[0].reserve(link.packets * 40);
    in_flight[1].reserve(link.packets * 40);
    for step in 0..link.packets {
        let time = step as f64 * 0.01;
        let [wire_a, wire_b] = &mut wires;
        let [flight_a, flight_b] = &mut in_flight;
        for (side, direction, wire, flight) in [
            (&mut *a, &mut a_to_b, wire_a, flight_a),
            (&mut *b, &mut b_to_a, wire_b, flight_b),
        ] {
            // Mostly small packets, some fragmented up to max_packet_size.
            let len = if dice.percent(70) {
                1 + dice.below(200) as usize
            } else {
                201 + dice.below(1300) as usize
            };
            let fill = dice.next() as u8;
            let payload: Vec<u8> = (0..len).map(|i| fill.wrapping_add(i as u8)).collect();
            let before = wire.spans.len();
            let sequence = side.measured(|e| {
                e.update(time);
                e.send(&payload, |d| wire.push(d)).unwrap()
            });
            direction.sent.insert(sequence, payload);
            flight.extend(before..wire.spans.len());
        }
        // Deliver what is in flight each way, shuffled when reordering:
        // some lost, some duplicated (a copy comes again next step).
        for (from, to, direction) in [(0usize, &mut *b, &mut a_to_b), (1, &mut *a, &mut b_to_a)] {
            let mut batch = std::mem::take(&mut in_flight[from]);
            in_flight[from].reserve(link.packets * 40);
            if link.reorder {
                for i in (1..batch.len()).rev() {
                    batch.swap(i, dice.below(i as u64 + 1) as usize);
                }
            }
            for index in batch {
                if dice.percent(link.duplicate) {
                    in_flight[from].push(index);
                }
                if dice.percent(link.drop) {
                    continue;
                }
                let (start, len) = wires[from].spans[index];
                let datagram = &wires[from].bytes[start..start + len];
                let sent = &direction.sent;
                let delivered = &mut direction.delivered;
                let corrupted = &mut direction.corrupted;
                let _ = to.measured(|e| {
                    e.update(time);
                    e.receive(datagram, |sequence, payload| {
                        if sent.get(&sequence).map(Vec::as_slice) != Some(payload) {
                            *corrupted += 1;
                        }
                        delivered.push(sequence);
                        true
                    })
                });
            }
        }
    }
    (a_to_b, b_to_a)
}

fn check(direction: &Direction, receiver_acks_seen_by_sender: &[u16]) -> Result<(), TestCaseError> {
    prop_assert_eq!(
        direction.corrupted,
        0,
        "a payload delivered differs from the one sent"
    );
    let mut seen = HashMap::new();
    for sequence in &direction.delivered {
        prop_assert!(
            direction.sent.contains_key(sequence),
            "{} delivered, never sent",
            sequence
        );
        *seen.entry(*sequence).or_insert(0) += 1;
    }
    prop_assert!(seen.values().all(|n| *n == 1), "a packet delivered twice");
    for acked in receiver_acks_seen_by_sender {
        prop_assert!(seen.contains_key(acked), "{} acked, never delivered", acked);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_lossy_link_delivers_what_was_sent_once_and_acks_only_what_arrived(link in link()) {
        let mut a = Side::new(link.start_a, link.start_b);
        let mut b = Side::new(link.start_b, link.start_a);
        let (a_to_b, b_to_a) = converse(&link, &mut a, &mut b);
        check(&a_to_b, a.endpoint.acks())?;
        check(&b_to_a, b.endpoint.acks())?;
        for side in [&a, &b] {
            let estimates = side.endpoint.estimates();
            let (min, max, avg) = estimates.rtt_min_max_avg();
            for value in [side.endpoint.rtt(), min, max, avg] {
                prop_assert!(value.is_finite() && value >= 0.0, "{}", value);
            }
            prop_assert!((0.0..=100.0).contains(&estimates.packet_loss()));
        }
        // A link that loses nothing delivers something both ways.
        if link.drop == 0 {
            prop_assert!(!a_to_b.delivered.is_empty() && !b_to_a.delivered.is_empty());
        }
    }
}

#[test]
fn sequences_across_the_wrap_deliver_and_ack_as_from_zero() {
    // The same conversation from 0 and from near the wrap: the same
    // packets delivered and acked, shifted by the start.
    let run = |start: u16| {
        let link = Link {
            seed: 99,
            drop: 10,
            duplicate: 10,
            reorder: true,
            start_a: start,
            start_b: start,
            packets: 200,
        };
        let mut a = Side::new(start, start);
        let mut b = Side::new(start, start);
        let (a_to_b, b_to_a) = converse(&link, &mut a, &mut b);
        check(&a_to_b, a.endpoint.acks()).unwrap();
        check(&b_to_a, b.endpoint.acks()).unwrap();
        let shifted = |s: &[u16]| s.iter().map(|q| q.wrapping_sub(start)).collect::<Vec<_>>();
        (
            shifted(&a_to_b.delivered),
            shifted(&b_to_a.delivered),
            shifted(a.endpoint.acks()),
            shifted(b.endpoint.acks()),
        )
    };
    let from_zero = run(0);
    assert!(
        from_zero.0.len() > 50 && from_zero.2.len() > 20,
        "{from_zero:?}"
    );
    for start in [65_400u16, 65_535] {
        assert_eq!(run(start), from_zero, "from {start}");
    }
}

/// Reserved up front, an endpoint asks nothing more of the allocator,
/// whatever sizes of packet arrive, in whatever order: its memory is flat
/// from `reserve` on, and within its bound.
#[test]
fn a_reserved_endpoint_allocates_nothing_more() {
    let (receiver, made) = allocated_during(|| {
        let mut endpoint = Endpoint::new(config(), 0.0).unwrap();
        endpoint.reserve();
        endpoint
    });
    let mut receiver = receiver;
    assert!(made.bytes <= receiver.memory_bound());
    let mut sender = Endpoint::new(config(), 0.0).unwrap();
    let mut dice = Dice(0x5EED);
    let mut datagrams: Vec<Vec<u8>> = Vec::new();
    for _ in 0..600 {
        let len = 1 + dice.below(config().max_packet_size as u64) as usize;
        let payload = vec![0xA5; len];
        let mut sent = Vec::new();
        sender.send(&payload, |d| sent.push(d.to_vec())).unwrap();
        // Each packet's datagrams in reverse: fragments out of order.
        datagrams.extend(sent.into_iter().rev());
    }
    let mut delivered = 0usize;
    let (_, during) = allocated_during(|| {
        for datagram in &datagrams {
            let _ = receiver.receive(datagram, |_, _| {
                delivered += 1;
                true
            });
            receiver.clear_acks();
        }
    });
    assert_eq!(delivered, 600);
    assert_eq!(during.bytes, 0, "allocated after reserve");
}
