//! Instructions per value, derived against hand-written, on the workloads
//! of `benches/derive.rs`: a count that does not move from run to run, for
//! differences smaller than wall-clock noise.
//!
//! `cargo bench -p gamepacket-codec --bench derive_instructions [workload]` runs this
//! binary again under `valgrind --tool=cachegrind` for each workload,
//! direction and implementation, once with no batch and once with
//! `ITERATIONS` batches, and divides the difference in instructions
//! executed by the values handled: setup and process start cancel out.
//! Without valgrind on the PATH it says so and measures nothing (install:
//! `apt-get install valgrind`).

#[path = "common/cachegrind.rs"]
mod cachegrind;
#[path = "common/derive_workloads.rs"]
mod derive_workloads;
#[path = "../tests/reference/hand_written.rs"]
mod hand_written;

use derive_workloads::{Direction, Who, Workload, BATCH, GROUPS};
use std::hint::black_box;

/// Batches in the measured run.
const ITERATIONS: u64 = 200;

/// The flag that makes this binary run a workload instead of measuring.
const RUN: &str = "--run-workload";

/// Runs `batches` batches of one workload (the child under valgrind).
fn run(group: &str, direction: &str, who: &str, batches: u64) {
    let direction = Direction::BOTH
        .into_iter()
        .find(|d| d.name() == direction)
        .expect("encode or decode");
    let who = Who::BOTH
        .into_iter()
        .find(|w| w.name() == who)
        .expect("derived or hand-written");
    let mut workload = Workload::new(group).expect("a known workload");
    for _ in 0..batches {
        black_box(workload.run(direction, who));
    }
}

/// Instructions valgrind counted in a child running `batches` batches.
fn instructions(group: &str, direction: Direction, who: Who, batches: u64) -> u64 {
    cachegrind::instructions(&[
        RUN.to_string(),
        group.to_string(),
        direction.name().to_string(),
        who.name().to_string(),
        batches.to_string(),
    ])
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [flag, group, direction, who, batches] = args.as_slice() {
        if flag == RUN {
            run(group, direction, who, batches.parse().expect("a count"));
            return;
        }
    }
    if cachegrind::missing() {
        return;
    }
    // `cargo bench` passes `--bench`; any other argument filters workloads.
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let values = ITERATIONS * BATCH as u64;
    println!(
        "\n| workload | direction | derived instructions/value | hand-written instructions/value | derived / hand |"
    );
    println!("|---|---|---|---|---|");
    for group in GROUPS {
        if !filters.is_empty() && !filters.iter().any(|f| group.contains(f.as_str())) {
            continue;
        }
        for direction in Direction::BOTH {
            let per_value = |who| {
                let base = instructions(group, direction, who, 0);
                let loaded = instructions(group, direction, who, ITERATIONS);
                loaded.saturating_sub(base) as f64 / values as f64
            };
            let (derived, hand) = (per_value(Who::Derived), per_value(Who::Hand));
            println!(
                "| {group} | {} | {derived:.1} | {hand:.1} | {:.3} |",
                direction.name(),
                derived / hand
            );
        }
    }
}
