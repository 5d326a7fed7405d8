//! What a receiver owes (../docs/RELIABLE.md, "Refusals"): for each rule, a
//! datagram (or a short sequence) that breaks it is refused with its cause,
//! counted once, and nothing is delivered; beside it, the datagram that
//! keeps the rule is accepted, so each test fails if the check is removed.

mod datagrams;

use datagrams::{config, fragment, non_canonical_headers, packet};
use link::{Cause, Endpoint, Received, FRAGMENT_HEADER_BYTES};

fn endpoint() -> Endpoint {
    Endpoint::new(config(), 0.0).unwrap()
}

/// Receives `datagram`; the refusal's cause, or None when accepted.
fn cause(endpoint: &mut Endpoint, datagram: &[u8]) -> Option<Cause> {
    endpoint
        .receive(datagram, |_, _| true)
        .err()
        .map(|r| r.cause)
}

/// `bad` is refused for `want` and counted once, with nothing delivered;
/// `good`, on a fresh endpoint after the same `before`, is accepted.
fn owed(before: &[Vec<u8>], bad: &[u8], good: &[u8], want: Cause) {
    let mut refusing = endpoint();
    for datagram in before {
        assert_eq!(cause(&mut refusing, datagram), None, "setting up");
    }
    let delivered_before = refusing.counters().packets_delivered;
    let refusal = refusing.receive(bad, |_, _| true).unwrap_err();
    assert_eq!(refusal.cause, want, "{refusal}");
    assert_eq!(refusing.counters().refused(want), 1);
    assert_eq!(refusing.counters().refused_total(), 1);
    assert_eq!(refusing.counters().packets_delivered, delivered_before);
    let mut accepting = endpoint();
    for datagram in before {
        assert_eq!(cause(&mut accepting, datagram), None, "setting up");
    }
    assert_eq!(
        cause(&mut accepting, good),
        None,
        "the datagram that keeps the rule"
    );
}

#[test]
fn an_empty_datagram() {
    owed(&[], &[], &packet(0, b"x"), Cause::Empty);
}

#[test]
fn a_datagram_too_short_for_its_header() {
    let good = packet(300, b"");
    for cut in 1..good.len() {
        owed(&[], &good[..cut], &good, Cause::TooShort);
    }
    let good = fragment(1, 1, 2, &[5; 100]);
    for cut in 1..FRAGMENT_HEADER_BYTES {
        owed(&[], &good[..cut], &good, Cause::TooShort);
    }
    // Fragment 0's packet header cut short.
    let good = fragment(1, 0, 2, &[5; 100]);
    owed(
        &[],
        &good[..FRAGMENT_HEADER_BYTES + 2],
        &good,
        Cause::TooShort,
    );
}

#[test]
fn a_header_with_bits_6_or_7_set() {
    let good = packet(3, b"abc");
    for bit in [6, 7] {
        let mut bad = good.clone();
        bad[0] |= 1 << bit;
        owed(&[], &bad, &good, Cause::ReservedBits);
    }
}

#[test]
fn a_header_that_is_not_the_one_encoding_of_its_triple() {
    // An ack_bits byte of 0xFF sent, though its absence says the same; the
    // ack in two bytes when the difference fits in one.
    let [good, byte_sent, long_ack] = non_canonical_headers();
    owed(&[], &byte_sent, &good, Cause::NonCanonicalHeader);
    owed(&[], &long_ack, &good, Cause::NonCanonicalHeader);
}

#[test]
fn a_fragment_prefix_other_than_exactly_1() {
    let good = fragment(1, 1, 2, &[5; 100]);
    for prefix in [3u8, 5, 0xFF] {
        let mut bad = good.clone();
        bad[0] = prefix;
        owed(&[], &bad, &good, Cause::FragmentPrefix);
    }
}

#[test]
fn a_fragment_count_above_max_fragments() {
    let good = fragment(1, 1, 4, &[5; 100]);
    owed(
        &[],
        &fragment(1, 1, 5, &[5; 100]),
        &good,
        Cause::TooManyFragments,
    );
    owed(
        &[],
        &fragment(1, 1, 256, &[5; 100]),
        &good,
        Cause::TooManyFragments,
    );
}

#[test]
fn a_fragment_id_not_below_its_count() {
    let good = fragment(1, 1, 2, &[5; 50]);
    owed(
        &[],
        &fragment(1, 2, 2, &[5; 50]),
        &good,
        Cause::FragmentIdOutOfRange,
    );
}

#[test]
fn fragment_0_s_packet_header_non_canonical_or_of_another_sequence() {
    let good = fragment(7, 0, 2, &[5; 100]);
    let mut other = fragment(8, 0, 2, &[5; 100]);
    other[1..3].copy_from_slice(&7u16.to_le_bytes());
    owed(&[], &other, &good, Cause::SequenceMismatch);
    let mut reserved = good.clone();
    reserved[FRAGMENT_HEADER_BYTES] |= 1 << 7;
    owed(&[], &reserved, &good, Cause::ReservedBits);
    // An embedded header that says it is a fragment.
    let mut fragment_bit = good.clone();
    fragment_bit[FRAGMENT_HEADER_BYTES] |= 1;
    owed(&[], &fragment_bit, &good, Cause::NonCanonicalHeader);
}

#[test]
fn fragment_data_longer_than_fragment_size() {
    owed(
        &[],
        &fragment(1, 1, 2, &[5; 101]),
        &fragment(1, 1, 2, &[5; 100]),
        Cause::FragmentTooLong,
    );
    owed(
        &[],
        &fragment(1, 0, 2, &[5; 101]),
        &fragment(1, 0, 2, &[5; 100]),
        Cause::FragmentTooLong,
    );
}

#[test]
fn a_fragment_but_the_last_shorter_than_fragment_size_or_an_empty_last() {
    owed(
        &[],
        &fragment(1, 0, 2, &[5; 99]),
        &fragment(1, 0, 2, &[5; 100]),
        Cause::FragmentTooShort,
    );
    owed(
        &[],
        &fragment(1, 1, 2, &[]),
        &fragment(1, 1, 2, &[5]),
        Cause::FragmentTooShort,
    );
}

#[test]
fn a_fragment_whose_count_differs_from_the_first_seen() {
    let first = vec![fragment(1, 0, 3, &[5; 100])];
    owed(
        &first,
        &fragment(1, 1, 2, &[5; 100]),
        &fragment(1, 1, 3, &[5; 100]),
        Cause::CountMismatch,
    );
}

#[test]
fn a_fragment_already_received() {
    let first = vec![fragment(1, 0, 3, &[5; 100])];
    owed(
        &first,
        &fragment(1, 0, 3, &[5; 100]),
        &fragment(1, 1, 3, &[5; 100]),
        Cause::DuplicateFragment,
    );
}

#[test]
fn a_fragment_of_a_packet_already_received() {
    let whole = vec![fragment(1, 0, 2, &[5; 100]), fragment(1, 1, 2, &[6; 10])];
    owed(
        &whole,
        &fragment(1, 1, 2, &[6; 10]),
        &fragment(2, 1, 2, &[6; 10]),
        Cause::AlreadyReceived,
    );
}

#[test]
fn a_fragment_too_old_for_the_reassembly_window() {
    // The window holds 8 packets: after a fragment of packet 100, one of
    // packet 92 is stale and one of 93 is not.
    let newest = vec![fragment(100, 1, 2, &[5; 10])];
    owed(
        &newest,
        &fragment(92, 1, 2, &[5; 10]),
        &fragment(93, 1, 2, &[5; 10]),
        Cause::StaleFragment,
    );
}

#[test]
fn a_packet_larger_than_max_packet_size() {
    owed(
        &[],
        &packet(1, &[1; 351]),
        &packet(1, &[1; 100]),
        Cause::PacketTooLarge,
    );
    // Four fragments carry 400 bytes; the packet may have 350.
    let three = vec![
        fragment(1, 0, 4, &[5; 100]),
        fragment(1, 1, 4, &[5; 100]),
        fragment(1, 2, 4, &[5; 100]),
    ];
    owed(
        &three,
        &fragment(1, 3, 4, &[5; 51]),
        &fragment(1, 3, 4, &[5; 50]),
        Cause::PacketTooLarge,
    );
    // A datagram longer than a whole packet and both headers, refused
    // unread; a regular packet above our fragment_above but within
    // max_packet_size is read (a peer may fragment above more).
    owed(
        &[],
        &vec![0; 350 + 9 + 5 + 1],
        &packet(1, &[1; 300]),
        Cause::PacketTooLarge,
    );
}

#[test]
fn a_packet_too_old_for_the_received_window() {
    // The window holds 16 packets: after packet 100, 84 is stale.
    let newest = vec![packet(100, b"n")];
    owed(
        &newest,
        &packet(84, b"o"),
        &packet(85, b"o"),
        Cause::StalePacket,
    );
}

#[test]
fn a_packet_already_received() {
    let first = vec![packet(5, b"once")];
    owed(
        &first,
        &packet(5, b"once"),
        &packet(6, b"once"),
        Cause::DuplicatePacket,
    );
}

#[test]
fn a_declined_packet_is_not_acknowledged_and_may_come_again() {
    let mut endpoint = endpoint();
    let datagram = packet(5, b"later");
    assert_eq!(
        endpoint.receive(&datagram, |_, _| false),
        Ok(Received::Declined { sequence: 5 })
    );
    assert_eq!(
        endpoint.receive(&datagram, |_, _| true),
        Ok(Received::Delivered { sequence: 5 })
    );
    assert_eq!(endpoint.counters().packets_declined, 1);
}

#[test]
fn every_cause_has_a_test_here() {
    let source = include_str!("refusals.rs");
    for cause in Cause::ALL {
        let name = format!("Cause::{cause:?}");
        assert!(source.contains(&name), "no test owes {name}");
    }
}

/// A refusal names the byte where the rule broke and the field read there.
#[test]
fn a_header_refusal_names_its_byte_and_field() {
    let at = |datagram: &[u8]| {
        let refusal = endpoint().receive(datagram, |_, _| true).unwrap_err();
        (refusal.cause, refusal.at, refusal.field)
    };
    // Prefix, sequence in bytes 1 and 2, the ack's one-byte difference in
    // 3, and four ack_bits bytes of 0, each read in turn.
    let good = packet(300, b"");
    assert_eq!(good.len(), 8);
    assert_eq!(at(&good[..1]), (Cause::TooShort, 1, "sequence"));
    assert_eq!(at(&good[..2]), (Cause::TooShort, 1, "sequence"));
    assert_eq!(at(&good[..3]), (Cause::TooShort, 3, "ack"));
    assert_eq!(at(&good[..6]), (Cause::TooShort, 6, "ack_bits"));
    // Fragment 0 with no room for its packet header: its prefix is missing.
    let first = fragment(1, 0, 2, &[5; 100]);
    assert_eq!(
        at(&first[..FRAGMENT_HEADER_BYTES]),
        (Cause::TooShort, FRAGMENT_HEADER_BYTES, "prefix")
    );
    // An ack_bits byte of 0xFF sent, in byte 4; the ack in two bytes, 3 and 4.
    let [_, byte_sent, long_ack] = non_canonical_headers();
    assert_eq!(at(&byte_sent), (Cause::NonCanonicalHeader, 4, "ack_bits"));
    assert_eq!(at(&long_ack), (Cause::NonCanonicalHeader, 3, "ack"));
}

/// The sequence a packet gets is the endpoint's next, which moves on by
/// one per packet sent and wraps.
#[test]
fn each_packet_sent_takes_the_next_sequence() {
    let mut sender = endpoint();
    assert_eq!(sender.next_sequence(), 0);
    for expected in 0..3 {
        assert_eq!(sender.send(b"x", |_| {}), Ok(expected));
        assert_eq!(sender.next_sequence(), expected + 1);
    }
    sender.set_next_sequence(65_535);
    assert_eq!(sender.next_sequence(), 65_535);
    assert_eq!(sender.send(b"x", |_| {}), Ok(65_535));
    assert_eq!(sender.next_sequence(), 0);
}

/// The longest datagram read is a whole packet and both headers: one of
/// exactly that length is read (and its payload refused at its first
/// byte), one byte longer is refused unread, at the limit.
#[test]
fn the_longest_datagram_read_is_a_packet_and_both_headers() {
    let longest = config().max_receive_bytes();
    assert_eq!(
        longest,
        350 + link::MAX_HEADER_BYTES + FRAGMENT_HEADER_BYTES
    );
    let header_len = packet(1, b"").len();
    for (len, at, field) in [
        (longest, header_len, "payload"),
        (longest + 1, longest, "data"),
    ] {
        let datagram = packet(1, &vec![1; len - header_len]);
        let refusal = endpoint().receive(&datagram, |_, _| true).unwrap_err();
        assert_eq!(
            (refusal.cause, refusal.at, refusal.field),
            (Cause::PacketTooLarge, at, field),
            "{len} bytes"
        );
    }
}

#[test]
fn a_replay_across_the_wrap_in_a_window_that_does_not_divide_the_range() {
    // The reference finds a slot by `sequence % len`: in a window of 3,
    // 65,535 and 0 share one, so 65,535 is forgotten when 0 arrives and its
    // replay delivered again. Here it is still held.
    for len in [3u16, 5, 7, 12] {
        let config = link::Config {
            received_packets_buffer_size: len,
            ..config()
        };
        let mut endpoint = Endpoint::new(config, 0.0).unwrap();
        endpoint.expect_peer_from(65_534);
        for sequence in [65_534u16, 65_535, 0] {
            assert_eq!(cause(&mut endpoint, &packet(sequence, b"x")), None);
        }
        for sequence in [65_534u16, 65_535, 0] {
            assert_eq!(
                cause(&mut endpoint, &packet(sequence, b"x")),
                Some(Cause::DuplicatePacket),
                "{sequence} again, window {len}"
            );
        }
        assert_eq!(endpoint.counters().packets_delivered, 3);
        assert_eq!(endpoint.next_acks(), (0, 0b111));
    }
}

#[test]
fn a_fragment_older_than_the_received_window_when_reassembly_reaches_further() {
    // Reassembly holds 8 packets, the received window 2: packet 1, whole
    // and delivered, is forgotten by the received window once 3 arrives,
    // but not by reassembly's. Its fragments again must not deliver it
    // twice (the reference would put it together again).
    let config = link::Config {
        received_packets_buffer_size: 2,
        ..config()
    };
    let mut endpoint = Endpoint::new(config, 0.0).unwrap();
    let first = fragment(1, 0, 2, &[3; 100]);
    let last = fragment(1, 1, 2, &[3; 20]);
    assert_eq!(cause(&mut endpoint, &first), None);
    assert_eq!(cause(&mut endpoint, &last), None);
    assert_eq!(cause(&mut endpoint, &packet(3, b"x")), None);
    assert_eq!(cause(&mut endpoint, &first), Some(Cause::StaleFragment));
    assert_eq!(cause(&mut endpoint, &last), Some(Cause::StaleFragment));
    assert_eq!(endpoint.counters().packets_delivered, 2);
    // Within both windows, a fragment of a packet not yet whole is taken.
    assert_eq!(cause(&mut endpoint, &fragment(2, 0, 2, &[3; 100])), None);
}
