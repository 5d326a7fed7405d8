//! The reference library's vectors (tests/vectors/reliable.txt, see
//! SOURCE.md): every header it writes, we write byte for byte and read back
//! to the triple; the fragments its endpoint sends, ours sends, and puts
//! back together in any order, with duplicates.

use link::{Cause, Config, Endpoint, Header, Received};

struct Vectors {
    headers: Vec<(Header, Vec<u8>)>,
    fragments: Vec<Vec<u8>>,
    payload_bytes: usize,
    fragment_size: usize,
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

fn vectors() -> Vectors {
    let text = include_str!("vectors/reliable.txt");
    let mut v = Vectors {
        headers: Vec::new(),
        fragments: Vec::new(),
        payload_bytes: 0,
        fragment_size: 0,
    };
    for line in text.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        match fields[0] {
            "HDR" => v.headers.push((
                Header {
                    sequence: fields[1].parse().unwrap(),
                    ack: fields[2].parse().unwrap(),
                    ack_bits: fields[3].parse().unwrap(),
                },
                unhex(fields[4]),
            )),
            "FRAG" => {
                assert_eq!(fields[1].parse::<usize>().unwrap(), v.fragments.len());
                v.fragments.push(unhex(fields[2]));
            }
            "FRAGINFO" => {
                v.payload_bytes = fields[1].parse().unwrap();
                v.fragment_size = fields[2].parse().unwrap();
            }
            other => panic!("unknown record {other}"),
        }
    }
    v
}

#[test]
fn every_reference_header_is_written_and_read_byte_for_byte() {
    let v = vectors();
    assert_eq!(v.headers.len(), 512);
    for (header, bytes) in &v.headers {
        let mut out = [0u8; 16];
        let len = header.write(&mut out).unwrap();
        assert_eq!(&out[..len], bytes.as_slice(), "{header:?}");
        assert_eq!(header.len(), bytes.len(), "{header:?}");
        // Read from the datagram's start, with a payload after it.
        let mut datagram = bytes.clone();
        datagram.extend_from_slice(b"payload");
        assert_eq!(
            Header::read(&datagram),
            Ok((*header, bytes.len())),
            "{header:?}"
        );
    }
}

fn vectors_config(v: &Vectors) -> Config {
    Config {
        fragment_above: 500,
        fragment_size: v.fragment_size,
        max_fragments: 16,
        max_packet_size: 8192,
        ..Config::default()
    }
}

fn payload(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 7 % 256) as u8).collect()
}

#[test]
fn our_endpoint_sends_the_reference_fragments() {
    let v = vectors();
    assert_eq!(v.fragments.len(), 5);
    let mut endpoint = Endpoint::new(vectors_config(&v), 0.0).unwrap();
    let mut sent = Vec::new();
    let sequence = endpoint
        .send(&payload(v.payload_bytes), |d| sent.push(d.to_vec()))
        .unwrap();
    assert_eq!(sequence, 0);
    assert_eq!(sent, v.fragments);
    assert_eq!(endpoint.counters().fragments_sent, 5);
}

/// A deterministic shuffle: the permutation `seed` picks.
fn shuffled<T: Clone>(items: &[T], mut seed: u64) -> Vec<T> {
    let mut items = items.to_vec();
    for i in (1..items.len()).rev() {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        items.swap(i, (seed >> 33) as usize % (i + 1));
    }
    items
}

#[test]
fn the_reference_fragments_reassemble_in_any_order_with_duplicates() {
    let v = vectors();
    let want = payload(v.payload_bytes);
    for seed in 0..200 {
        let mut endpoint = Endpoint::new(vectors_config(&v), 0.0).unwrap();
        // Each fragment twice, in a shuffled order.
        let mut arriving = v.fragments.clone();
        arriving.extend(v.fragments.iter().cloned());
        let arriving = shuffled(&arriving, seed);
        let mut delivered = Vec::new();
        for datagram in &arriving {
            let result = endpoint.receive(datagram, |sequence, payload| {
                delivered.push((sequence, payload.to_vec()));
                true
            });
            match result {
                Ok(Received::Stored { sequence: 0, .. } | Received::Delivered { sequence: 0 }) => {}
                Err(r) => assert!(
                    matches!(r.cause, Cause::DuplicateFragment | Cause::AlreadyReceived),
                    "seed {seed}: {r}"
                ),
                other => panic!("seed {seed}: {other:?}"),
            }
        }
        assert_eq!(delivered, vec![(0, want.clone())], "seed {seed}");
        let counters = endpoint.counters();
        assert_eq!(counters.fragments_stored, 5);
        assert_eq!(
            counters.refused(Cause::DuplicateFragment) + counters.refused(Cause::AlreadyReceived),
            5
        );
    }
}
