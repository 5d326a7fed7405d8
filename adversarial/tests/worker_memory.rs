//! An allocation bomb in a worker is an `oom` verdict on its case, not a
//! pressure on the host: the worker's heap is held to its limit, so a
//! reader that asks for `u32::MAX` elements dies at once, having taken
//! almost nothing.
//!
//! Its own harness: cases run in worker processes (this binary started
//! again with `__worker`).

use adversarial::campaign::{self, Budget, Config};
use adversarial::formats::{target, PostcardStrict};
use adversarial::mutate::Class;
use adversarial::oracle::Outcome;
use adversarial::target::Target;
use adversarial::worker::Isolation;
use arbitrary::Arbitrary;
use serde::{Deserialize, Deserializer, Serialize};
use std::time::Duration;

adversarial::count_allocations!();

/// A message whose reader fills a buffer of `u32::MAX` bytes, whatever it
/// reads: the bug a length bomb finds when a claimed count is trusted.
#[derive(Clone, Debug, Serialize, Arbitrary)]
struct Bomb {
    count: u32,
}

impl<'de> Deserialize<'de> for Bomb {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let count = u32::deserialize(deserializer)?;
        let filled = vec![1u8; u32::MAX as usize];
        std::hint::black_box(&filled);
        Ok(Self { count })
    }
}

fn targets() -> Vec<Box<dyn Target>> {
    vec![Box::new(target::<Bomb, _>("bomb", PostcardStrict))]
}

/// The most any child of this process held at once, in KiB.
fn children_peak_kib() -> i64 {
    // SAFETY: getrusage writes the struct it is given and nothing else.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    usage.ru_maxrss
}

/// The host's available memory, in KiB, as the kernel counts it.
fn available_kib() -> u64 {
    let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    info.lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kib| kib.parse().ok())
        .unwrap_or(0)
}

fn a_reader_that_asks_for_u32_max_bytes_is_out_of_memory_and_the_host_is_spared() {
    let before = available_kib();
    let isolation = Isolation::this_binary(&["__worker"], Duration::from_secs(20))
        .unwrap()
        .memory_mb(256);
    let report = campaign::run(&Config {
        targets: targets(),
        classes: vec![Class::Valid],
        endpoints: Vec::new(),
        state_classes: Vec::new(),
        seed: 1,
        budget: Budget::Cases(2),
        crash_dir: None,
        progress: false,
        shrink: false,
        isolation: Some(isolation),
        jobs: 1,
    });
    let outcomes: Vec<&Outcome> = report.failures.iter().map(|f| &f.outcome).collect();
    assert!(!outcomes.is_empty(), "the bomb was not reported");
    for outcome in &outcomes {
        assert!(
            matches!(outcome, Outcome::OutOfMemory(how) if how.contains("memory allocation of")),
            "{outcome:?}"
        );
    }
    // The worker never held its 4 GiB: its resident peak stays far below
    // (256 MiB of limit, and a test binary's own pages).
    let peak = children_peak_kib();
    assert!(peak < 512 * 1024, "a worker held {peak} KiB");
    // And the host kept what it had, give or take other work on it.
    let after = available_kib();
    assert!(
        after + 1024 * 1024 > before,
        "available memory fell from {before} to {after} KiB"
    );
}

fn main() -> std::process::ExitCode {
    if std::env::args().nth(1).as_deref() == Some("__worker") {
        return adversarial::cli::main(targets());
    }
    if std::env::args().any(|a| a == "--list") {
        println!("worker_memory: test");
        return std::process::ExitCode::SUCCESS;
    }
    a_reader_that_asks_for_u32_max_bytes_is_out_of_memory_and_the_host_is_spared();
    println!("worker_memory: 1 passed");
    std::process::ExitCode::SUCCESS
}
