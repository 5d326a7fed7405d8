//! The cost of refusal: for every target and mutation class of the harness,
//! the time our reader takes to refuse malicious packets next to the time it
//! takes to accept their valid twins (the samples they were made from).
//!
//! `cargo bench -p gamepacket-adversarial --bench refusal`; the closing table is what
//! docs/BENCHMARKS.md shows. Each iteration reads a whole set of cases (or
//! their twins, one twin per case, so the two sets weigh alike); a refusal
//! must never cost more than an acceptance, per packet or per byte.
//!
//! The class `valid` is the control: its cases are the twins themselves,
//! so its ratio is 1 but for the noise of the machine, which it measures.
//!
//! `-- --instructions` counts instructions per packet under cachegrind
//! instead (`instructions.rs`), for differences the clock cannot resolve.

#[path = "../../../codec/benches/common/cachegrind.rs"]
mod cachegrind;
#[path = "../common/criterion_results.rs"]
mod criterion_results;
mod instructions;

use adversarial::alloc::CountingAllocator;
use adversarial::mutate::{self, Class};
use adversarial::target::{Target, Verdict};
use arbitrary::Unstructured;
use criterion::{BenchmarkId, Criterion, Throughput};
use criterion_results::{figure, Results};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cell::Cell;
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The campaign's allocator, so refusals pay what they pay there.
#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const SEED: u64 = 0x2EF0_5A11;
/// Samples drawn per target.
const SAMPLES: usize = 64;
/// Randomness behind one sample, as in the campaign.
const SAMPLE_ENTROPY_BYTES: usize = 16 * 1024;
/// At most this many cases of one class from one sample, so a set spreads
/// over many samples.
const CASES_PER_SAMPLE: usize = 4;
/// At most this many cases per set, and about this many twin bytes.
const MAX_CASES: usize = 128;
const MAX_TWIN_BYTES: usize = 256 * 1024;

/// The malicious packets of one class, each beside its valid twin.
struct Set {
    target: &'static str,
    class: Class,
    refused: Vec<Vec<u8>>,
    twins: Vec<Vec<u8>>,
    /// Time spent reading the cases and the twins, side by side.
    paired: Cell<(Duration, Duration)>,
}

impl Set {
    fn group(&self) -> String {
        format!("refusal-{}", self.target)
    }
}

/// The sets of every class for `target`, from fixed seeds. Only cases the
/// reader does refuse are kept (a bit flip may be accepted), but for the
/// control class `valid`, whose cases are accepted.
fn sets(target: &dyn Target) -> Vec<Set> {
    let framing = target.framing();
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut entropy = vec![0u8; SAMPLE_ENTROPY_BYTES];
    let mut choices = vec![0u8; 4096];
    let samples: Vec<_> = (0..SAMPLES * 4)
        .filter_map(|_| {
            rng.fill_bytes(&mut entropy);
            target.generate(&mut Unstructured::new(&entropy)).ok()
        })
        .take(SAMPLES)
        .collect();
    let mut sets = Vec::new();
    for &class in target.classes() {
        let mut set = Set {
            target: target.name(),
            class,
            refused: Vec::new(),
            twins: Vec::new(),
            paired: Cell::new((Duration::ZERO, Duration::ZERO)),
        };
        let mut twin_bytes = 0;
        for sample in &samples {
            if set.refused.len() >= MAX_CASES || twin_bytes >= MAX_TWIN_BYTES {
                break;
            }
            rng.fill_bytes(&mut choices);
            let cases: Vec<_> = mutate::target_cases(
                target,
                class,
                sample,
                &framing,
                &mut Unstructured::new(&choices),
            )
            .into_iter()
            .filter(|case| {
                let refused = matches!(target.decode(&case.bytes), Verdict::Refused(_));
                refused == (class != Class::Valid)
            })
            .collect();
            // Spread over the sample's cases: truncations come in cut order,
            // and the first cuts alone would all be a byte or two long.
            let step = cases.len().div_ceil(CASES_PER_SAMPLE).max(1);
            for case in cases.into_iter().step_by(step) {
                set.refused.push(case.bytes);
                set.twins.push(sample.bytes.clone());
                twin_bytes += sample.bytes.len();
            }
        }
        if !set.refused.is_empty() {
            sets.push(set);
        }
    }
    sets
}

/// Reads every packet of `packets` once; returns how long it took.
fn read_all(target: &dyn Target, packets: &[Vec<u8>]) -> Duration {
    let started = Instant::now();
    for bytes in packets {
        target.read_only(black_box(bytes));
    }
    started.elapsed()
}

/// Each benchmark reads the cases and the twins in turn, one set right after
/// the other (each first every other iteration), and reports one of them to
/// criterion; both totals go to the set's paired clock. The ratio then
/// compares times taken side by side, so the slow spells of a shared
/// machine weigh on both sides alike.
fn bench(c: &mut Criterion, target: &dyn Target, sets: &[Set]) {
    let Some(first) = sets.first() else {
        return;
    };
    let mut group = c.benchmark_group(first.group());
    for set in sets {
        group.throughput(Throughput::Elements(set.refused.len() as u64));
        for (function, report_case) in [("case", true), ("twin", false)] {
            group.bench_function(BenchmarkId::new(function, set.class.name()), |b| {
                b.iter_custom(|iterations| {
                    let (mut case, mut twin) = (Duration::ZERO, Duration::ZERO);
                    for iteration in 0..iterations {
                        // Each side goes first every other time: whichever
                        // runs second finds the reader's code warm.
                        if iteration % 2 == 0 {
                            case += read_all(target, &set.refused);
                            twin += read_all(target, &set.twins);
                        } else {
                            twin += read_all(target, &set.twins);
                            case += read_all(target, &set.refused);
                        }
                    }
                    set.paired
                        .set((set.paired.get().0 + case, set.paired.get().1 + twin));
                    if report_case {
                        case
                    } else {
                        twin
                    }
                })
            });
        }
    }
    group.finish();
}

fn verdict(ratio: Option<f64>, control: bool) -> String {
    match ratio {
        Some(r) if control => format!("{r:.3} (control)"),
        Some(r) if r <= 1.0 => format!("{r:.3} ok"),
        Some(r) => format!("{r:.3} ABOVE 1"),
        None => "-".to_string(),
    }
}

fn print_table(sets: &[Set], results: &Results) {
    println!(
        "\n## Cost of refusal: refusing malicious packets next to accepting their valid twins"
    );
    println!("(medians per packet; ratios from the cases and twins timed side by side;");
    println!(" goal: both ratios at or below 1.00 for every class; `valid` reads the twins");
    println!(" against themselves: its ratios are the measurement's noise)\n");
    println!("| target | class | cases | bytes refused / twin | refuse ns | accept ns | time ratio | ns/byte refused | ns/byte accepted | per-byte ratio |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let mut worst: Option<(f64, String)> = None;
    let mut noise: Vec<f64> = Vec::new();
    for set in sets {
        let control = set.class == Class::Valid;
        let n = set.refused.len() as f64;
        let refused_bytes: usize = set.refused.iter().map(Vec::len).sum();
        let twin_bytes: usize = set.twins.iter().map(Vec::len).sum();
        let refuse = results.median_ns(&[&set.group(), "case", set.class.name()]);
        let accept = results.median_ns(&[&set.group(), "twin", set.class.name()]);
        let refuse_per_byte = refuse.map(|t| t / refused_bytes.max(1) as f64);
        let accept_per_byte = accept.map(|t| t / twin_bytes.max(1) as f64);
        // Ratios from the paired clock: both sets timed side by side.
        let (case, twin) = set.paired.get();
        let time_ratio = (!twin.is_zero()).then(|| case.as_secs_f64() / twin.as_secs_f64());
        let byte_ratio = time_ratio.map(|r| r * twin_bytes as f64 / refused_bytes.max(1) as f64);
        if control {
            noise.extend(time_ratio);
        } else {
            for r in [time_ratio, byte_ratio].into_iter().flatten() {
                if worst.as_ref().is_none_or(|(w, _)| r > *w) {
                    worst = Some((r, format!("{} {}", set.target, set.class.name())));
                }
            }
        }
        println!(
            "| {} | {} | {} | {:.1} / {:.1} | {} | {} | {} | {} | {} | {} |",
            set.target,
            set.class.name(),
            set.refused.len(),
            refused_bytes as f64 / n,
            twin_bytes as f64 / n,
            figure(refuse.map(|t| t / n)),
            figure(accept.map(|t| t / n)),
            verdict(time_ratio, control),
            figure(refuse_per_byte),
            figure(accept_per_byte),
            verdict(byte_ratio, control),
        );
    }
    if let Some((r, at)) = worst {
        println!("\nHighest ratio of a malicious class: {r:.3} ({at}).");
    }
    let low = noise.iter().copied().fold(f64::INFINITY, f64::min);
    let high = noise.iter().copied().fold(0.0, f64::max);
    if !noise.is_empty() {
        println!("Control ratios (the same packets twice): {low:.3} to {high:.3}.");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, target, class, side, rounds] = args.as_slice() {
        if flag == instructions::RUN {
            instructions::run(target, class, side, rounds.parse().expect("a count"));
            return;
        }
    }
    if args.iter().any(|a| a == "--instructions") {
        instructions::print();
        return;
    }
    let (mut c, results) = criterion_results::criterion();
    let mut all_sets = Vec::new();
    for target in adversarial::targets::all() {
        let sets = sets(target.as_ref());
        bench(&mut c, target.as_ref(), &sets);
        all_sets.extend(sets);
    }
    c.final_summary();
    print_table(&all_sets, &results);
}
