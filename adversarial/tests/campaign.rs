//! A short campaign over every target and class must come out clean, and
//! every class must have cases in some target.

use adversarial::campaign::{run, Budget, Config};
use adversarial::mutate::Class;
use adversarial::targets;

#[test]
fn a_short_campaign_finds_every_verdict_owed() {
    let report = run(&Config {
        targets: targets::all(),
        classes: Class::ALL.to_vec(),
        seed: 1,
        budget: Budget::Cases(400),
        crash_dir: None,
        progress: false,
        shrink: false,
    });
    for failure in report.failures.iter().take(20) {
        eprintln!(
            "{} {} [{}]: {:?}, owed {:?}",
            failure.target,
            failure.class.name(),
            failure.lie,
            failure.outcome,
            failure.owed
        );
    }
    for class in Class::ALL {
        assert!(
            report
                .rows
                .iter()
                .any(|(_, c, t)| *c == class && t.cases > 0),
            "class {} had no case in any target",
            class.name()
        );
    }
    assert!(report.passed(), "{} failures", report.failures.len());
}
