//! Where a campaign's time goes per case, and cases per second at 1 and
//! 2 jobs: `cargo bench -p gamepacket-adversarial --bench scaling`.
//!
//! Per case, on the `packets` target and the `link` endpoint: the work of
//! the thread that draws the cases (a sample generated, every class's
//! cases built), the reader's work (the read in this process), and the
//! same reads in a worker process, whose difference is what crosses
//! between the two (the bytes and system calls: printed as counts, beside
//! the figures). Then whole campaigns, packet targets and conversations
//! apart, at `--jobs 1` and `--jobs 2` in the same run: criterion's
//! throughput is cases per second. The worker processes are this bench's
//! binary started again with `__worker`.

use adversarial::campaign::{self, Budget, Config};
use adversarial::mutate::{self, Case};
use adversarial::oracle::observe;
use adversarial::scenario::{attempt, StateClass};
use adversarial::target::Target;
use adversarial::targets;
use adversarial::worker::{self, Isolation, Worker};
use arbitrary::Unstructured;
use criterion::{Criterion, Throughput};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Duration;

adversarial::count_allocations!();

/// Samples behind the per-case figures.
const SAMPLES: usize = 24;

/// The cases of `SAMPLES` samples of `target`, every class, from fixed
/// randomness (as the campaign draws them).
fn draw(target: &dyn Target, rng: &mut ChaCha8Rng) -> Vec<Case> {
    let framing = target.framing();
    let mut cases = Vec::new();
    let mut entropy = vec![0u8; 16 * 1024];
    let mut choices = vec![0u8; 4096];
    for _ in 0..SAMPLES {
        rng.fill_bytes(&mut entropy);
        let Ok(sample) = target.generate(&mut Unstructured::new(&entropy)) else {
            continue;
        };
        for &class in target.classes() {
            rng.fill_bytes(&mut choices);
            let mut u = Unstructured::new(&choices);
            cases.extend(mutate::target_cases(
                target, class, &sample, &framing, &mut u,
            ));
        }
    }
    cases
}

fn isolation() -> Isolation {
    Isolation::this_binary(&["__worker"], Duration::from_secs(5)).expect("this binary's path")
}

fn per_case(c: &mut Criterion) {
    let isolation = isolation();
    let packets = targets::by_name("packets").expect("the packets target");
    let cases = draw(packets.as_ref(), &mut ChaCha8Rng::seed_from_u64(1));
    let inputs: Vec<&[u8]> = cases.iter().map(|c| c.bytes.as_slice()).collect();
    let mut group = c.benchmark_group("per case: packets");
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("draw (the scheduling thread)", |b| {
        b.iter(|| draw(packets.as_ref(), &mut ChaCha8Rng::seed_from_u64(1)).len());
    });
    group.bench_function("read in this process", |b| {
        b.iter(|| {
            for input in &inputs {
                black_box(observe(packets.as_ref(), input));
            }
        });
    });
    let mut worker = Worker::new(&isolation, packets.name());
    group.bench_function("read in a worker, one batch per sample", |b| {
        b.iter(|| black_box(worker.observe_all(&inputs)));
    });
    group.finish();
    report_traffic("packets", worker.traffic());

    let endpoints = targets::endpoints();
    let link = endpoints.first().expect("the link endpoint").as_ref();
    let indices: Vec<u64> = (0..256).collect();
    let class_of = |i: u64| StateClass::ALL[(i as usize) % StateClass::ALL.len()];
    let mut group = c.benchmark_group("per case: link conversations");
    group.throughput(Throughput::Elements(indices.len() as u64));
    group.bench_function("in this process", |b| {
        b.iter(|| {
            for &i in &indices {
                let entropy = attempt::entropy(1, link.name(), i);
                black_box(attempt::attempt(link, class_of(i), &entropy));
            }
        });
    });
    let inputs: Vec<Vec<u8>> = indices
        .iter()
        .map(|&i| attempt::by_index(class_of(i), 1, i))
        .collect();
    let asked: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let mut worker = Worker::new(&isolation, link.name());
    group.bench_function("in a worker, batches of 32", |b| {
        b.iter(|| {
            for batch in asked.chunks(32) {
                black_box(worker.ask_all(batch));
            }
        });
    });
    group.finish();
    report_traffic("link", worker.traffic());
}

/// The counts behind a worker's cost per case.
fn report_traffic(name: &str, traffic: worker::Traffic) {
    let per = |n: u64| n as f64 / traffic.inputs.max(1) as f64;
    eprintln!(
        "{name}: per case {:.1} bytes to the worker, {:.1} bytes back, {:.4} writes \
         (one per batch), {} worker started",
        per(traffic.bytes_out),
        per(traffic.bytes_back),
        per(traffic.writes),
        traffic.started,
    );
}

/// A campaign of the built-in packet targets or endpoints, in workers.
fn config(isolation: Isolation, endpoints: bool, jobs: usize) -> Config {
    Config {
        targets: if endpoints {
            Vec::new()
        } else {
            targets::all()
        },
        classes: mutate::Class::ALL.to_vec(),
        endpoints: if endpoints {
            targets::endpoints()
        } else {
            Vec::new()
        },
        state_classes: StateClass::ALL.to_vec(),
        seed: 1,
        budget: Budget::Cases(if endpoints { 12_000 } else { 4_000 }),
        crash_dir: None,
        progress: false,
        shrink: false,
        isolation: Some(isolation),
        jobs,
    }
}

fn jobs(c: &mut Criterion) {
    for (name, endpoints) in [("packet targets", false), ("conversations", true)] {
        let mut group = c.benchmark_group(format!("campaign: {name}"));
        group.sample_size(10);
        let judged = campaign::run(&config(isolation(), endpoints, 1)).judged();
        group.throughput(Throughput::Elements(judged));
        for jobs in [1, 2] {
            let config = config(isolation(), endpoints, jobs);
            group.bench_function(format!("{jobs} jobs"), |b| {
                b.iter(|| {
                    let report = campaign::run(&config);
                    assert_eq!(report.judged(), judged, "the same cases at any --jobs");
                });
            });
        }
        group.finish();
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("__worker") {
        let name = args.get(3).map(String::as_str).unwrap_or_default();
        let endpoints = targets::endpoints();
        let served = match endpoints.iter().find(|e| e.name() == name) {
            Some(endpoint) => {
                worker::serve_with(|input| attempt::answer(endpoint.as_ref(), input).to_string())
            }
            None => worker::serve(targets::by_name(name).expect("a target").as_ref()),
        };
        served.expect("the worker's pipes");
        return;
    }
    let mut criterion = Criterion::default().configure_from_args();
    per_case(&mut criterion);
    jobs(&mut criterion);
    criterion.final_summary();
}
