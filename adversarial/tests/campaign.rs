//! A short campaign over every target and class must come out clean, with
//! allocations counted, and every class must have cases in some target.

use adversarial::mutate::Class;
use adversarial::{check, targets};

adversarial::count_allocations!();

#[test]
fn a_short_campaign_finds_every_verdict_owed() {
    let report = check::campaign(targets::all()).cases(400).run();
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
}
