//! Cases per second of a serde target against its `PlainCodec` baseline:
//! the same type, format and samples, one benchmark run.
//!
//! `cargo bench -p gamepacket-adversarial --bench serde_cases`. Each
//! iteration does what the campaign does for a set of samples, in this
//! process: generates each sample from fixed randomness (a serde target
//! maps its fields there, once per sample), builds every case of every
//! class the target tells, and judges each (the read under `catch_unwind`
//! with its allocation peak, the decode, the re-encoding). Criterion's
//! throughput is cases per second; the serde target must keep at least
//! half the baseline's (docs/HARNESS.md has the figures).

use adversarial::formats::game::{Input, Snapshot};
use adversarial::formats::{baseline, target, PostcardCanonical};
use adversarial::mutate;
use adversarial::oracle::judge;
use adversarial::target::Target;
use arbitrary::Unstructured;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

adversarial::count_allocations!();

/// Samples per iteration, and the randomness behind each (the campaign's).
const SAMPLES: usize = 16;
const SAMPLE_ENTROPY_BYTES: usize = 16 * 1024;

/// Fixed randomness: each sample's, then each class's choices.
fn randomness() -> Vec<(Vec<u8>, Vec<u8>)> {
    let mut rng = ChaCha8Rng::seed_from_u64(0x5E7D_CA5E);
    (0..SAMPLES)
        .map(|_| {
            let mut entropy = vec![0u8; SAMPLE_ENTROPY_BYTES];
            let mut choices = vec![0u8; 4096];
            rng.fill_bytes(&mut entropy);
            rng.fill_bytes(&mut choices);
            (entropy, choices)
        })
        .collect()
}

/// Generates, builds and judges every case of the samples: the cases judged.
fn campaign(target: &dyn Target, randomness: &[(Vec<u8>, Vec<u8>)]) -> u64 {
    let framing = target.framing();
    let mut judged = 0;
    for (entropy, choices) in randomness {
        let Ok(sample) = target.generate(&mut Unstructured::new(entropy)) else {
            continue;
        };
        for &class in target.classes() {
            let mut u = Unstructured::new(choices);
            for case in mutate::target_cases(target, class, &sample, &framing, &mut u) {
                black_box(judge(target, &case));
                judged += 1;
            }
        }
    }
    judged
}

/// A message's name, its serde target and its baseline.
type Pair = (&'static str, Box<dyn Target>, Box<dyn Target>);

fn serde_against_baseline(c: &mut Criterion) {
    let randomness = randomness();
    let pairs: [Pair; 2] = [
        (
            "input",
            Box::new(target::<Input, _>("input", PostcardCanonical)),
            Box::new(baseline::<Input, _>("plain-input", PostcardCanonical)),
        ),
        (
            "snapshot",
            Box::new(target::<Snapshot, _>("snapshot", PostcardCanonical)),
            Box::new(baseline::<Snapshot, _>("plain-snapshot", PostcardCanonical)),
        ),
    ];
    for (message, serde, plain) in &pairs {
        let mut group = c.benchmark_group(format!("serde-cases-{message}"));
        for (side, target) in [("serde", serde), ("plain", plain)] {
            // The count is the same every iteration: the randomness is fixed.
            let cases = campaign(target.as_ref(), &randomness);
            group.throughput(Throughput::Elements(cases));
            group.bench_function(side, |b| {
                b.iter(|| campaign(target.as_ref(), &randomness));
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = serde_against_baseline
}
criterion_main!(benches);
