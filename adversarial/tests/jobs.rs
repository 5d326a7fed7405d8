//! `campaign --jobs N`: the same seed and case budget give the same cases,
//! the same table and the same kept failures whatever the number of jobs.

use adversarial::campaign::{Failing, Report, Tally};
use adversarial::{check, targets};

adversarial::count_allocations!();

/// Every column of the table but the time spent.
fn counts(tally: &Tally) -> Vec<u64> {
    let failing = Failing::ALL.iter().map(|kind| tally.count(*kind));
    [tally.cases, tally.as_owed]
        .into_iter()
        .chain(failing)
        .collect()
}

fn table(report: &Report) -> Vec<(&'static str, &'static str, Vec<u64>)> {
    report
        .rows
        .iter()
        .map(|(target, class, tally)| (*target, class.name(), counts(tally)))
        .collect()
}

fn failures(report: &Report) -> Vec<(&'static str, &'static str, String, Vec<u8>)> {
    report
        .failures
        .iter()
        .map(|f| (f.target, f.class.name(), f.lie.clone(), f.bytes.clone()))
        .collect()
}

fn campaign(jobs: usize) -> Report {
    let mut attacked = targets::all();
    // A reader with a planted bug, so that failures are kept and shrunk.
    attacked.extend(targets::by_name("broken-scene-d"));
    check::campaign(attacked)
        .cases(1500)
        .seed(7)
        .jobs(jobs)
        .report()
}

#[test]
fn one_job_and_two_give_the_same_table_and_failures() {
    let one = campaign(1);
    let two = campaign(2);
    assert_eq!(table(&one), table(&two));
    assert_eq!(one.samples, two.samples);
    assert_eq!(failures(&one), failures(&two));
    assert!(
        one.failures.iter().any(|f| f.target == "broken-scene-d"),
        "the planted bug is found"
    );
    for (target, _, counts) in table(&one) {
        assert!(counts[0] > 0, "{target} had cases");
    }
    // Every target stops at the first sample that meets the budget.
    let mut per_target = std::collections::BTreeMap::new();
    for (target, _, counts) in table(&one) {
        *per_target.entry(target).or_insert(0) += counts[0];
    }
    for (target, cases) in per_target {
        assert!(cases >= 1500, "{target}: {cases} cases");
    }
}

/// However short the time, every target's first sample is judged (a
/// scene's can take seconds in a debug build on a loaded machine).
#[test]
fn a_time_budget_gives_every_target_samples() {
    let report = check::campaign(targets::all())
        .seconds(0.5)
        .jobs(2)
        .report();
    assert!(report.passed());
    for target in targets::all() {
        assert!(
            report
                .rows
                .iter()
                .any(|(t, _, tally)| *t == target.name() && tally.cases > 0),
            "{} had no case",
            target.name()
        );
    }
}
