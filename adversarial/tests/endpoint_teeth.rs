//! The teeth of the attacks across packets: link's endpoint with one bug
//! planted at a time (`link::Fault`, feature `faults`) must be caught by
//! the campaign's first 1,000 conversations (`check::endpoints`). Beside
//! them, the stateful fuzz body (a script of steps over two endpoints) and
//! a raw-bytes body (datagrams of random bytes into one endpoint), whose
//! results are printed; the faults that honest conversations must show
//! (acks and deliveries owed) are required of the stateful body too,
//! within 10,000 runs.
//! `cargo test --release -p gamepacket-adversarial --test endpoint_teeth
//! -- --nocapture` shows the table.

use adversarial::conversation;
use adversarial::scenario::config;
use adversarial::target::endpoint;
use link::{Endpoint, Fault};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};

adversarial::count_allocations!();

/// Runs each fuzz body may spend on one planted bug; the stateful body's
/// on a bug honest conversations must show, within which it must catch it.
const BUDGET: usize = 1_200;
const CONVERSATION_BUDGET: usize = 10_000;

/// The faults an honest conversation shows: an ack owed or given wrongly,
/// an honest packet lost, a stale one delivered.
const CONVERSATION_FAULTS: [Fault; 9] = [
    Fault::WrapKeepsWindow,
    Fault::FullLastFragment,
    Fault::AckOffByOne,
    Fault::ShortAckBase,
    Fault::FragmentedNotRecorded,
    Fault::ModuloSlots,
    Fault::DeclinedRecorded,
    Fault::FullAckBufferMarksAcked,
    Fault::HalfRangeStale,
];

/// The conversations within which the campaign must catch each of them.
const CONVERSATION_FAULT_CASES: u64 = 1_000;

fn faulty(fault: Fault, config: &link::Config) -> Endpoint {
    Endpoint::new(config.clone(), 0.0)
        .unwrap()
        .with_fault(fault)
}

/// The campaign's first 1,000 conversations against the faulty endpoint:
/// the cases up to the first that failed, if one did.
fn campaign_until_caught(fault: Fault) -> Option<u64> {
    // Each conversation's endpoint made for the configuration it drew.
    let target = endpoint("faulty", config(), move |config: &link::Config| {
        faulty(fault, config)
    });
    let report = adversarial::check::endpoints(vec![Box::new(target)])
        .cases(CONVERSATION_FAULT_CASES)
        .report();
    assert_eq!(report.conversations.passed(), report.passed());
    let caught = report.conversations.caught_after.first().and_then(|c| c.1);
    assert_eq!(caught.is_some(), !report.passed());
    caught
}

/// Random inputs to a fuzz body until one panics: the number run.
fn fuzz_until_caught(
    fault: Fault,
    body: fn(&[u8], conversation::Make<'_>),
    budget: usize,
) -> Option<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    let make = move |config: &link::Config| faulty(fault, config);
    for run in 1..=budget {
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

fn shown<N: std::fmt::Display>(caught: Option<N>) -> String {
    caught.map_or("not caught".to_string(), |n| format!("caught after {n}"))
}

#[test]
fn every_planted_endpoint_bug_is_caught_by_the_scenarios() {
    // The planted bugs' panics are caught on purpose; keep them quiet.
    std::panic::set_hook(Box::new(|_| {}));
    println!(
        "{:<24} {:<22} {:<22} {:<22}",
        "planted bug", "campaign", "stateful fuzz body", "raw-bytes fuzz body"
    );
    let mut missed = Vec::new();
    for fault in Fault::ALL {
        let scenarios = campaign_until_caught(fault);
        let budget = if CONVERSATION_FAULTS.contains(&fault) {
            CONVERSATION_BUDGET
        } else {
            BUDGET
        };
        let stateful = fuzz_until_caught(fault, stateful, budget);
        let raw = fuzz_until_caught(fault, conversation::run_raw, BUDGET);
        println!(
            "{:<24} {:<22} {:<22} {:<22}",
            format!("{fault:?}"),
            shown(scenarios),
            shown(stateful),
            shown(raw)
        );
        if scenarios.is_none() {
            missed.push(format!("{fault:?} by the campaign"));
        }
        if CONVERSATION_FAULTS.contains(&fault) {
            if scenarios.is_some_and(|cases| cases > CONVERSATION_FAULT_CASES) {
                missed.push(format!(
                    "{fault:?} by the campaign's first {CONVERSATION_FAULT_CASES} conversations"
                ));
            }
            if stateful.is_none() {
                missed.push(format!("{fault:?} by the stateful fuzz body"));
            }
        }
    }
    let _ = std::panic::take_hook();
    assert!(missed.is_empty(), "missed: {missed:?}");
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
