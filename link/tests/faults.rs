//! Each planted fault (feature `faults`, on for link's tests through the
//! harness, its dev-dependency) makes the endpoint wrong in the one way it
//! names, and an endpoint without it stays right: the harness's teeth
//! tests rely on both.

mod datagrams;

use datagrams::{fragment, header_bytes, packet};
use link::{Cause, Config, Endpoint, Fault, Header, Received};

/// The tests' small configuration, with an ack buffer of 2.
fn config() -> Config {
    Config {
        ack_buffer_size: 2,
        ..datagrams::config()
    }
}

/// A healthy endpoint and one with `fault` planted.
fn pair(fault: Fault) -> (Endpoint, Endpoint) {
    let healthy = Endpoint::new(config(), 0.0).unwrap();
    let faulty = Endpoint::new(config(), 0.0).unwrap().with_fault(fault);
    (healthy, faulty)
}

/// What `endpoint` makes of `datagram`: the packet delivered (its
/// sequence and length), stored, or the refusal's cause.
fn receive(endpoint: &mut Endpoint, datagram: &[u8]) -> Result<Option<(u16, usize)>, Cause> {
    let mut delivered = None;
    let received = endpoint.receive(datagram, |sequence, payload| {
        delivered = Some((sequence, payload.len()));
        true
    });
    match received {
        Ok(Received::Delivered { .. }) => Ok(delivered),
        Ok(_) => Ok(None),
        Err(refusal) => Err(refusal.cause),
    }
}

#[test]
fn unbounded_copy_stores_a_fragment_longer_than_fragment_size() {
    let (mut healthy, mut faulty) = pair(Fault::UnboundedCopy);
    let long = fragment(1, 1, 2, &[5; 150]);
    assert_eq!(receive(&mut healthy, &long), Err(Cause::FragmentTooLong));
    assert_eq!(receive(&mut faulty, &long), Ok(None));
    // Fragment 0 completes it: 100 bytes, then the 150 copied past them.
    let first = fragment(1, 0, 2, &[5; 100]);
    assert_eq!(receive(&mut faulty, &first), Ok(Some((1, 250))));
}

#[test]
fn trust_later_count_takes_a_changed_fragment_count() {
    let (mut healthy, mut faulty) = pair(Fault::TrustLaterCount);
    for endpoint in [&mut healthy, &mut faulty] {
        assert_eq!(receive(endpoint, &fragment(1, 0, 3, &[5; 100])), Ok(None));
    }
    // A later fragment says 2, not 3: fragment 1 is then the last.
    let later = fragment(1, 1, 2, &[5; 50]);
    assert_eq!(receive(&mut healthy, &later), Err(Cause::CountMismatch));
    assert_eq!(receive(&mut faulty, &later), Ok(Some((1, 150))));
}

#[test]
fn no_wrap_calls_a_packet_across_the_wrap_stale() {
    let (mut healthy, mut faulty) = pair(Fault::NoWrap);
    for endpoint in [&mut healthy, &mut faulty] {
        endpoint.expect_peer_from(65_530);
        assert_eq!(
            receive(endpoint, &packet(65_530, b"x")),
            Ok(Some((65_530, 1)))
        );
    }
    // 5 is 11 past 65,530 across the wrap: within the window of 16.
    let across = packet(5, b"x");
    assert_eq!(receive(&mut healthy, &across), Ok(Some((5, 1))));
    assert_eq!(receive(&mut faulty, &across), Err(Cause::StalePacket));
}

#[test]
fn ack_unsent_reports_acks_of_packets_never_sent() {
    let (mut healthy, mut faulty) = pair(Fault::AckUnsent);
    // The peer's header acks 40, 39 and 38, none of them sent.
    let mut datagram = header_bytes(&Header {
        sequence: 0,
        ack: 40,
        ack_bits: 0b111,
    });
    datagram.push(1);
    for endpoint in [&mut healthy, &mut faulty] {
        assert_eq!(receive(endpoint, &datagram), Ok(Some((0, 1))));
    }
    assert_eq!(healthy.acks(), &[] as &[u16]);
    // As many as the ack buffer holds (2 here).
    assert_eq!(faulty.acks(), &[40, 39]);
}

#[test]
fn wrap_keeps_window_lets_a_packet_left_behind_across_the_wrap_take_fragments() {
    let (mut healthy, mut faulty) = pair(Fault::WrapKeepsWindow);
    for endpoint in [&mut healthy, &mut faulty] {
        endpoint.expect_peer_from(65_530);
        // Half of packet 65,531 arrives; then packet 10, fifteen ahead across
        // the wrap, moves the reassembly window of 8 past it.
        assert_eq!(
            receive(endpoint, &fragment(65_531, 0, 2, &[3; 100])),
            Ok(None)
        );
        assert_eq!(receive(endpoint, &packet(10, b"x")), Ok(Some((10, 1))));
        // A packet the window passed and never saw is stale for both: the
        // faulty window moved too, it only kept its slots.
        assert_eq!(
            receive(endpoint, &fragment(65_533, 0, 2, &[3; 100])),
            Err(Cause::StaleFragment)
        );
    }
    let late = fragment(65_531, 1, 2, &[3; 50]);
    assert_eq!(receive(&mut healthy, &late), Err(Cause::StaleFragment));
    assert_eq!(receive(&mut faulty, &late), Ok(Some((65_531, 150))));
}

#[test]
fn full_last_fragment_refuses_a_packet_whose_length_is_a_multiple_of_the_fragment_size() {
    let (mut healthy, mut faulty) = pair(Fault::FullLastFragment);
    for endpoint in [&mut healthy, &mut faulty] {
        assert_eq!(receive(endpoint, &fragment(1, 0, 2, &[5; 100])), Ok(None));
        // Not a multiple: both deliver it.
        assert_eq!(receive(endpoint, &fragment(2, 0, 2, &[6; 100])), Ok(None));
        assert_eq!(
            receive(endpoint, &fragment(2, 1, 2, &[6; 99])),
            Ok(Some((2, 199)))
        );
    }
    let full = fragment(1, 1, 2, &[5; 100]);
    assert_eq!(receive(&mut healthy, &full), Ok(Some((1, 200))));
    assert_eq!(receive(&mut faulty, &full), Err(Cause::FragmentTooLong));
}

#[test]
fn ack_off_by_one_reports_the_packet_before_the_one_acked() {
    let (mut healthy, mut faulty) = pair(Fault::AckOffByOne);
    // Each sends its packets 0, 1 and 2; the peer's header acks 2 alone.
    let mut datagram = header_bytes(&Header {
        sequence: 0,
        ack: 2,
        ack_bits: 0b1,
    });
    datagram.push(1);
    for endpoint in [&mut healthy, &mut faulty] {
        for _ in 0..3 {
            endpoint.send(&[4; 10], |_| {}).unwrap();
        }
        assert_eq!(receive(endpoint, &datagram), Ok(Some((0, 1))));
    }
    assert_eq!(healthy.acks(), &[2]);
    assert_eq!(faulty.acks(), &[1]);
}

#[test]
fn short_ack_base_takes_a_one_byte_ack_from_the_sequence_less_one() {
    // The peer's packet 3 acks the endpoint's packet 2 in one byte (3 - 2
    // fits); its packet 300 acks 2 in two bytes.
    let datagram = |sequence: u16| {
        let mut bytes = header_bytes(&Header {
            sequence,
            ack: 2,
            ack_bits: 0b1,
        });
        bytes.push(1);
        bytes
    };
    let (short, long) = (datagram(3), datagram(300));
    assert_ne!(short[0] & (1 << 5), 0, "the short form");
    assert_eq!(long[0] & (1 << 5), 0, "the long form");
    for (bytes, sequence, faulty_acks) in [(&short, 3, [1]), (&long, 300, [2])] {
        let (mut healthy, mut faulty) = pair(Fault::ShortAckBase);
        for endpoint in [&mut healthy, &mut faulty] {
            for _ in 0..3 {
                endpoint.send(&[4; 10], |_| {}).unwrap();
            }
            assert_eq!(receive(endpoint, bytes), Ok(Some((sequence, 1))));
        }
        assert_eq!(healthy.acks(), &[2]);
        assert_eq!(faulty.acks(), &faulty_acks);
    }
}

#[test]
fn fragmented_not_recorded_leaves_a_reassembled_packet_unacked_and_delivers_it_again() {
    let (mut healthy, mut faulty) = pair(Fault::FragmentedNotRecorded);
    let first = fragment(4, 0, 2, &[8; 100]);
    let last = fragment(4, 1, 2, &[8; 30]);
    for endpoint in [&mut healthy, &mut faulty] {
        assert_eq!(receive(endpoint, &first), Ok(None));
        assert_eq!(receive(endpoint, &last), Ok(Some((4, 130))));
        // A whole packet is recorded by both.
        assert_eq!(receive(endpoint, &packet(5, b"x")), Ok(Some((5, 1))));
    }
    // The healthy header acks 5 and 4; the faulty one 5 alone.
    assert_eq!(healthy.next_acks(), (5, 0b11));
    assert_eq!(faulty.next_acks(), (5, 0b01));
    assert_eq!(receive(&mut healthy, &first), Err(Cause::AlreadyReceived));
    assert_eq!(receive(&mut faulty, &first), Ok(None));
    assert_eq!(receive(&mut faulty, &last), Ok(Some((4, 130))));
}

#[test]
fn modulo_slots_forgets_the_packet_before_the_wrap_in_a_window_of_three() {
    let config = Config {
        received_packets_buffer_size: 3,
        ..config()
    };
    let mut healthy = Endpoint::new(config.clone(), 0.0).unwrap();
    let mut faulty = Endpoint::new(config, 0.0)
        .unwrap()
        .with_fault(Fault::ModuloSlots);
    for endpoint in [&mut healthy, &mut faulty] {
        endpoint.expect_peer_from(65_534);
        for sequence in [65_534, 65_535, 0] {
            assert_eq!(
                receive(endpoint, &packet(sequence, b"x")),
                Ok(Some((sequence, 1)))
            );
        }
    }
    assert_eq!(healthy.next_acks(), (0, 0b111));
    assert_eq!(faulty.next_acks(), (0, 0b001));
    let replay = packet(65_535, b"x");
    assert_eq!(receive(&mut healthy, &replay), Err(Cause::DuplicatePacket));
    assert_eq!(receive(&mut faulty, &replay), Ok(Some((65_535, 1))));
}

#[test]
fn declined_recorded_acks_a_declined_packet_and_refuses_it_again() {
    let (mut healthy, mut faulty) = pair(Fault::DeclinedRecorded);
    for endpoint in [&mut healthy, &mut faulty] {
        let declined = endpoint.receive(&packet(0, b"x"), |_, _| false);
        assert_eq!(declined, Ok(Received::Declined { sequence: 0 }));
        assert_eq!(endpoint.counters().packets_declined, 1);
    }
    // Nothing received yet: the header acks the one before the first.
    assert_eq!(healthy.next_acks(), (65_535, 0));
    assert_eq!(faulty.next_acks(), (0, 1));
    assert_eq!(receive(&mut healthy, &packet(0, b"x")), Ok(Some((0, 1))));
    assert_eq!(
        receive(&mut faulty, &packet(0, b"x")),
        Err(Cause::DuplicatePacket)
    );
}

#[test]
fn full_ack_buffer_marks_acked_loses_the_acks_past_the_buffer() {
    // The peer's header acks the endpoint's packets 0 to 3; the ack
    // buffer holds 2.
    let datagram = |sequence: u16| {
        let mut bytes = header_bytes(&Header {
            sequence,
            ack: 3,
            ack_bits: 0b1111,
        });
        bytes.push(1);
        bytes
    };
    let (mut healthy, mut faulty) = pair(Fault::FullAckBufferMarksAcked);
    for endpoint in [&mut healthy, &mut faulty] {
        for _ in 0..4 {
            endpoint.send(&[4; 10], |_| {}).unwrap();
        }
        assert_eq!(receive(endpoint, &datagram(0)), Ok(Some((0, 1))));
        assert_eq!(endpoint.acks(), &[3, 2]);
        assert_eq!(endpoint.counters().acks_dropped, 2);
        endpoint.clear_acks();
        // The peer's next header acks the same four.
        assert_eq!(receive(endpoint, &datagram(1)), Ok(Some((1, 1))));
    }
    assert_eq!(healthy.acks(), &[1, 0]);
    assert_eq!(faulty.acks(), &[] as &[u16]);
}

#[test]
fn half_range_stale_loses_a_packet_exactly_half_the_range_from_the_window() {
    // Window 16: after packet 100, the window's oldest is 85; 85 + 32,768
    // is ahead of it by exactly half the range and the larger number, so
    // the reference's rule takes it as newer than the window, not stale.
    let (mut healthy, mut faulty) = pair(Fault::HalfRangeStale);
    let jump = 85 + 32_768;
    for endpoint in [&mut healthy, &mut faulty] {
        endpoint.expect_peer_from(100);
        assert_eq!(receive(endpoint, &packet(100, b"x")), Ok(Some((100, 1))));
    }
    assert_eq!(
        receive(&mut healthy, &packet(jump, b"x")),
        Ok(Some((jump, 1)))
    );
    assert_eq!(
        receive(&mut faulty, &packet(jump, b"x")),
        Err(Cause::StalePacket)
    );
    // From the other side of the range, the tie goes the other way: stale
    // for both.
    let (mut healthy, mut faulty) = pair(Fault::HalfRangeStale);
    for endpoint in [&mut healthy, &mut faulty] {
        endpoint.expect_peer_from(40_000);
        assert_eq!(
            receive(endpoint, &packet(40_000, b"x")),
            Ok(Some((40_000, 1)))
        );
        let jump = (40_000u16 - 15).wrapping_add(32_768);
        assert_eq!(
            receive(endpoint, &packet(jump, b"x")),
            Err(Cause::StalePacket)
        );
    }
}
