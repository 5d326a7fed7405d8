//! What `send` refuses, and how it splits what it sends: a payload above
//! `fragment_above` travels in fragments, at most `max_fragments` of them.

use link::{Config, Endpoint, SendError};

/// Fragments of 100 bytes, at most 4 (400 bytes), packets up to 1,000;
/// payloads above `fragment_above` are fragmented.
fn endpoint(fragment_above: usize) -> Endpoint {
    let config = Config {
        max_packet_size: 1000,
        fragment_above,
        fragment_size: 100,
        max_fragments: 4,
        ..Config::default()
    };
    Endpoint::new(config, 0.0).unwrap()
}

/// The datagrams `send` hands over for a payload of `len` bytes.
fn datagrams(endpoint: &mut Endpoint, len: usize) -> Result<usize, SendError> {
    let mut count = 0;
    endpoint.send(&vec![7; len], |_| count += 1)?;
    Ok(count)
}

#[test]
fn a_payload_needing_more_than_max_fragments_is_refused() {
    let mut sender = endpoint(100);
    assert_eq!(datagrams(&mut sender, 100), Ok(1));
    assert_eq!(datagrams(&mut sender, 101), Ok(2));
    assert_eq!(datagrams(&mut sender, 400), Ok(4));
    assert_eq!(
        datagrams(&mut sender, 401),
        Err(SendError::TooManyFragments { len: 401, max: 400 })
    );
    assert_eq!(
        datagrams(&mut sender, 1001),
        Err(SendError::TooLarge {
            len: 1001,
            max: 1000
        })
    );
    assert_eq!(datagrams(&mut sender, 0), Err(SendError::Empty));
    // Only the packets sent took a sequence.
    assert_eq!(sender.next_sequence(), 3);
}

#[test]
fn a_payload_up_to_fragment_above_travels_whole_however_long() {
    let mut sender = endpoint(500);
    assert_eq!(datagrams(&mut sender, 500), Ok(1));
    assert_eq!(
        datagrams(&mut sender, 501),
        Err(SendError::TooManyFragments { len: 501, max: 400 })
    );
}

#[test]
fn a_send_error_says_what_was_refused() {
    for (error, says) in [
        (
            SendError::TooLarge {
                len: 1001,
                max: 1000,
            },
            "a packet of 1001 bytes is larger than max_packet_size 1000",
        ),
        (SendError::Empty, "a packet of no bytes"),
        (
            SendError::TooManyFragments { len: 401, max: 400 },
            "a packet of 401 bytes needs more fragments than max_fragments carry (400 bytes)",
        ),
    ] {
        assert_eq!(error.to_string(), says);
    }
}

#[test]
fn next_acks_are_the_ack_fields_the_next_header_carries() {
    let mut peer = endpoint(1000);
    let mut local = endpoint(1000);
    // The peer's packets 0, 1, 2 and 4 arrive; 3 is lost.
    for sequence in 0..5u16 {
        let mut wire = Vec::new();
        peer.send(&[9; 10], |d| wire = d.to_vec()).unwrap();
        if sequence != 3 {
            local.receive(&wire, |_, _| true).unwrap();
        }
    }
    // Bit i stands for packet 4 - i: 4, 2, 1 and 0 held, 3 not.
    assert_eq!(local.next_acks(), (4, 0b11101));
    let mut wire = Vec::new();
    local.send(&[1; 10], |d| wire = d.to_vec()).unwrap();
    let (header, _) = link::Header::read(&wire).unwrap();
    assert_eq!((header.ack, header.ack_bits), (4, 0b11101));
}
