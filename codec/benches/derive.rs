//! Derived code against the hand-written code it replaced, in the same run:
//! packets A, B and C and the score save, encoded into a reused buffer and
//! decoded from bytes, a batch of 256 values per iteration. The
//! hand-written reference is the one `tests/derive_reference.rs` proves
//! byte-identical.
//!
//! `cargo bench -p codec --bench derive`; the closing table is what
//! docs/BENCHMARKS.md records.

#[path = "../../adversarial/benches/common/criterion_results.rs"]
#[allow(dead_code)] // its short defaults serve the other benchmarks
mod criterion_results;
#[path = "../tests/reference/hand_written.rs"]
mod hand_written;

use codec::packet::{self, Packet};
use codec::protocols::packets::{PacketA, PacketB, PacketC, TestPacket};
use codec::protocols::score_save::{self, ScoreState, MAX_SCORE, MIN_SCORE};
use codec::{ReadStream, Serialize};
use criterion::{black_box, Criterion};
use criterion_results::{figure, Results};
use hand_written::{HandPacket, HandSave};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const BATCH: usize = 256;

fn packets(kind: u8) -> Vec<TestPacket> {
    let mut rng = ChaCha8Rng::seed_from_u64(u64::from(kind));
    (0..BATCH)
        .map(|_| match kind {
            0 => TestPacket::A(PacketA {
                a: rng.gen_range(-10..=10),
                b: rng.gen_range(-20..=20),
                c: rng.gen_range(-30..=30),
            }),
            1 => TestPacket::B(PacketB {
                items: (0..rng.gen_range(0..=32))
                    .map(|_| rng.gen_range(-100..=100))
                    .collect(),
            }),
            _ => {
                let at_rest = rng.gen_bool(0.5);
                TestPacket::C(PacketC {
                    position: [rng.gen(), rng.gen(), rng.gen()],
                    at_rest,
                    velocity: if at_rest {
                        [0.0; 3]
                    } else {
                        [rng.gen(), rng.gen(), rng.gen()]
                    },
                })
            }
        })
        .collect()
}

fn saves() -> Vec<ScoreState> {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    (0..BATCH)
        .map(|_| ScoreState {
            scores: (0..rng.gen_range(0..=8))
                .map(|_| rng.gen_range(MIN_SCORE..=MAX_SCORE))
                .collect(),
        })
        .collect()
}

fn bench_packets(c: &mut Criterion, name: &str, values: Vec<TestPacket>) {
    let mut group = c.benchmark_group(name);
    let mut buf = vec![0u8; 1024];
    let encoded: Vec<Vec<u8>> = values
        .iter()
        .map(|v| packet::encode_to_vec(&mut v.clone()).unwrap())
        .collect();
    let mut derived = values.clone();
    let mut hand: Vec<HandPacket> = values.into_iter().map(HandPacket).collect();
    group.bench_function("encode/derived", |b| {
        b.iter(|| {
            derived
                .iter_mut()
                .map(|p| packet::encode(p, &mut buf).unwrap())
                .sum::<usize>()
        })
    });
    group.bench_function("encode/hand-written", |b| {
        b.iter(|| {
            hand.iter_mut()
                .map(|p| packet::encode(p, &mut buf).unwrap())
                .sum::<usize>()
        })
    });
    group.bench_function("decode/derived", |b| {
        b.iter(|| {
            for bytes in &encoded {
                black_box(packet::decode::<TestPacket>(black_box(bytes)).unwrap());
            }
        })
    });
    group.bench_function("decode/hand-written", |b| {
        b.iter(|| {
            for bytes in &encoded {
                black_box(packet::decode::<HandPacket>(black_box(bytes)).unwrap());
            }
        })
    });
    group.finish();
    assert_eq!(TestPacket::PACKET_TYPES, HandPacket::PACKET_TYPES);
}

fn decode_hand(bytes: &[u8]) -> ScoreState {
    let mut save = HandSave::default();
    let mut stream = ReadStream::new(bytes);
    save.serialize(&mut stream).unwrap();
    codec::stream::expect_end(&mut stream).unwrap();
    save.0
}

fn bench_save(c: &mut Criterion) {
    let mut group = c.benchmark_group("save");
    let mut buf = vec![0u8; 256];
    let states = saves();
    let encoded: Vec<Vec<u8>> = states
        .iter()
        .map(|s| score_save::encode(&mut s.clone()).unwrap())
        .collect();
    let mut derived = states.clone();
    let mut hand: Vec<HandSave> = states.into_iter().map(HandSave).collect();
    group.bench_function("encode/derived", |b| {
        b.iter(|| {
            derived
                .iter_mut()
                .map(|s| codec::write_to(s, &mut buf).unwrap())
                .sum::<usize>()
        })
    });
    group.bench_function("encode/hand-written", |b| {
        b.iter(|| {
            hand.iter_mut()
                .map(|s| codec::write_to(s, &mut buf).unwrap())
                .sum::<usize>()
        })
    });
    group.bench_function("decode/derived", |b| {
        b.iter(|| {
            for bytes in &encoded {
                black_box(score_save::decode(black_box(bytes)).unwrap());
            }
        })
    });
    group.bench_function("decode/hand-written", |b| {
        b.iter(|| {
            for bytes in &encoded {
                black_box(decode_hand(black_box(bytes)));
            }
        })
    });
    group.finish();
}

/// Medians per value and the derived code's time over the hand-written.
fn print_table(results: &Results) {
    println!(
        "\n| workload | direction | derived ns/value | hand-written ns/value | derived / hand |"
    );
    println!("|---|---|---|---|---|");
    for group in ["packet_a", "packet_b", "packet_c", "save"] {
        for direction in ["encode", "decode"] {
            // Criterion files `encode/derived` under `encode_derived`.
            let per_value = |who: &str| {
                let function = format!("{direction}_{who}");
                results
                    .median_ns(&[group, &function])
                    .map(|ns| ns / BATCH as f64)
            };
            let (derived, hand) = (per_value("derived"), per_value("hand-written"));
            let ratio = derived.zip(hand).map(|(d, h)| d / h);
            println!(
                "| {group} | {direction} | {} | {} | {} |",
                figure(derived),
                figure(hand),
                ratio.map_or("-".into(), |r| format!("{r:.3}"))
            );
        }
    }
}

fn main() {
    let (mut c, results) = criterion_results::criterion_timed(
        std::time::Duration::from_secs(1),
        std::time::Duration::from_secs(3),
    );
    bench_packets(&mut c, "packet_a", packets(0));
    bench_packets(&mut c, "packet_b", packets(1));
    bench_packets(&mut c, "packet_c", packets(2));
    bench_save(&mut c);
    c.final_summary();
    print_table(&results);
}
