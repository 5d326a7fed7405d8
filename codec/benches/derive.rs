//! Derived code against the hand-written code it replaced, in the same run:
//! packets A, B and C and the score save, encoded into a reused buffer and
//! decoded from bytes, a batch of 256 values per iteration. The
//! hand-written reference is the one `tests/derive_reference.rs` proves
//! byte-identical; `benches/derive_instructions.rs` counts instructions on
//! the same workloads.
//!
//! `cargo bench -p gamepacket-codec --bench derive`; the closing table is what
//! docs/BENCHMARKS.md records.

#[path = "../../adversarial/benches/common/criterion_results.rs"]
#[allow(dead_code)] // its short defaults serve the other benchmarks
mod criterion_results;
#[path = "common/derive_workloads.rs"]
mod derive_workloads;
#[path = "../tests/reference/hand_written.rs"]
mod hand_written;

use criterion::Criterion;
use criterion_results::{figure, Results};
use derive_workloads::{Direction, Who, Workload, BATCH, GROUPS};
use std::hint::black_box;

fn bench(c: &mut Criterion, name: &str) {
    let mut workload = Workload::new(name).expect("a known workload");
    let mut group = c.benchmark_group(name);
    for direction in Direction::BOTH {
        for who in Who::BOTH {
            let id = format!("{}/{}", direction.name(), who.name());
            group.bench_function(id, |b| b.iter(|| black_box(workload.run(direction, who))));
        }
    }
    group.finish();
}

/// Medians per value and the derived code's time over the hand-written.
fn print_table(results: &Results) {
    println!(
        "\n| workload | direction | derived ns/value | hand-written ns/value | derived / hand |"
    );
    println!("|---|---|---|---|---|");
    for group in GROUPS {
        for direction in Direction::BOTH {
            // Criterion files `encode/derived` under `encode_derived`.
            let per_value = |who: Who| {
                let function = format!("{}_{}", direction.name(), who.name());
                results
                    .median_ns(&[group, &function])
                    .map(|ns| ns / BATCH as f64)
            };
            let (derived, hand) = (per_value(Who::Derived), per_value(Who::Hand));
            let ratio = derived.zip(hand).map(|(d, h)| d / h);
            println!(
                "| {group} | {} | {} | {} | {} |",
                direction.name(),
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
    for group in GROUPS {
        bench(&mut c, group);
    }
    c.final_summary();
    print_table(&results);
}
