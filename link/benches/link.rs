//! The connection layer's speed: writing and reading packet headers, and a
//! small packet and a fragmented one sent from one endpoint into another.
//! `reference/versus.sh` runs the same workloads on the C library beside
//! these, in the same run.
//!
//! `cargo bench -p gamepacket-reliable --bench link`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use link::{Config, Endpoint, Header};
use std::hint::black_box;

mod workloads;
use workloads::{triple, HEADERS, LARGE_PACKET, SMALL_PACKET};

fn headers() -> Vec<Header> {
    (0..HEADERS)
        .map(|i| {
            let (sequence, ack, ack_bits) = triple(i);
            Header {
                sequence,
                ack,
                ack_bits,
            }
        })
        .collect()
}

fn header_write(c: &mut Criterion) {
    let headers = headers();
    let mut out = [0u8; 16];
    let mut group = c.benchmark_group("link");
    group.throughput(Throughput::Elements(HEADERS as u64));
    group.bench_function("header-write", |b| {
        b.iter(|| {
            let mut total = 0;
            for header in &headers {
                total += black_box(header).write(&mut out).unwrap_or(0);
                black_box(&out);
            }
            total
        });
    });
    let encoded: Vec<Vec<u8>> = headers
        .iter()
        .map(|h| {
            let len = h.write(&mut out).unwrap();
            out[..len].to_vec()
        })
        .collect();
    for (bytes, header) in encoded.iter().zip(&headers) {
        assert_eq!(Header::read(bytes), Ok((*header, bytes.len())));
    }
    group.bench_function("header-read", |b| {
        b.iter(|| {
            let mut total = 0u32;
            for bytes in &encoded {
                if let Ok((header, len)) = Header::read(black_box(bytes)) {
                    total = total.wrapping_add(header.ack_bits).wrapping_add(len as u32);
                }
            }
            total
        });
    });
    group.finish();
}

/// `payload` sent from one endpoint and received by the other, per
/// iteration: each datagram is received as it is transmitted, as the C
/// driver's transmit callback does; the receiver takes each packet.
fn send_through(c: &mut Criterion, name: &str, len: usize) {
    let mut sender = Endpoint::new(Config::default(), 0.0).unwrap();
    let mut receiver = Endpoint::new(Config::default(), 0.0).unwrap();
    let payload: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
    let mut delivered = 0u64;
    let mut group = c.benchmark_group("link");
    group.throughput(Throughput::Elements(1));
    group.bench_function(name, |b| {
        b.iter(|| {
            sender
                .send(black_box(&payload), |datagram| {
                    let _ = receiver.receive(datagram, |_, p| {
                        delivered += p.len() as u64;
                        true
                    });
                })
                .unwrap();
        });
    });
    group.finish();
    assert!(delivered > 0 && receiver.counters().refused_total() == 0);
}

fn packets(c: &mut Criterion) {
    send_through(c, "small-packet", SMALL_PACKET);
    send_through(c, "fragmented-packet", LARGE_PACKET);
}

criterion_group!(benches, header_write, packets);
criterion_main!(benches);
