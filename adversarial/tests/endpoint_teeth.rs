//! The teeth of the attacks across packets: link's endpoint with one bug
//! planted at a time (`link::Fault`, feature `faults`) must be caught by
//! the scenarios within their budget. Beside them, on the same budget,
//! the stateful fuzz body (a script of steps over two endpoints) and a
//! raw-bytes body (datagrams of random bytes into one endpoint), whose
//! results are printed, not required: `cargo test -p gamepacket-adversarial
//! --test endpoint_teeth -- --nocapture` shows the table.

use adversarial::alloc::allocated_during;
use adversarial::conversation;
use adversarial::scenario::{config, run, scenario, StateClass};
use arbitrary::Unstructured;
use link::{Endpoint, Fault};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};

adversarial::count_allocations!();

/// Cases each attack may spend on one planted bug.
const BUDGET: usize = 1200;

fn faulty(fault: Fault) -> Endpoint {
    Endpoint::new(config(), 0.0).unwrap().with_fault(fault)
}

/// Scenarios of every class in turn until one fails: the number run.
fn scenarios_until_caught(fault: Fault) -> Option<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    let mut entropy = vec![0u8; 8192];
    let mut cases = 0;
    while cases < BUDGET {
        for class in StateClass::ALL {
            rng.fill_bytes(&mut entropy);
            let Ok(scenario) = scenario(class, &config(), &mut Unstructured::new(&entropy)) else {
                continue;
            };
            cases += 1;
            let (endpoint, made) = allocated_during(|| faulty(fault));
            if run(&mut { endpoint }, made.bytes, &scenario).is_err() {
                return Some(cases);
            }
        }
    }
    None
}

/// Random inputs to a fuzz body until one panics: the number run.
fn fuzz_until_caught(fault: Fault, body: fn(&[u8], conversation::Make<'_>)) -> Option<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    let make = move || faulty(fault);
    for run in 1..=BUDGET {
        let mut input = vec![0u8; 1 + (rng.next_u32() % 4096) as usize];
        rng.fill_bytes(&mut input);
        if catch_unwind(AssertUnwindSafe(|| body(&input, &make))).is_err() {
            return Some(run);
        }
    }
    None
}

fn stateful(data: &[u8], make: conversation::Make<'_>) {
    let _ = conversation::run_with(data, make);
}

fn shown(caught: Option<usize>) -> String {
    caught.map_or("not caught".to_string(), |n| format!("caught after {n}"))
}

#[test]
fn every_planted_endpoint_bug_is_caught_by_the_scenarios() {
    // The planted bugs' panics are caught on purpose; keep them quiet.
    std::panic::set_hook(Box::new(|_| {}));
    println!(
        "{:<24} {:<22} {:<22} {:<22}",
        "planted bug", "scenarios", "stateful fuzz body", "raw-bytes fuzz body"
    );
    let mut missed = Vec::new();
    for fault in Fault::ALL {
        let scenarios = scenarios_until_caught(fault);
        let stateful = fuzz_until_caught(fault, stateful);
        let raw = fuzz_until_caught(fault, conversation::run_raw);
        println!(
            "{:<24} {:<22} {:<22} {:<22}",
            format!("{fault:?}"),
            shown(scenarios),
            shown(stateful),
            shown(raw)
        );
        if scenarios.is_none() {
            missed.push(fault);
        }
    }
    let _ = std::panic::take_hook();
    assert!(
        missed.is_empty(),
        "the scenarios missed {missed:?} within {BUDGET} cases"
    );
}

#[test]
fn without_a_planted_bug_nothing_is_caught() {
    // The same attacks on link's own endpoint: no false alarm.
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    for _ in 0..200 {
        let mut input = vec![0u8; 1 + (rng.next_u32() % 4096) as usize];
        rng.fill_bytes(&mut input);
        let _ = conversation::run_with(&input, &conversation::endpoint);
        conversation::run_raw(&input, &conversation::endpoint);
    }
}
