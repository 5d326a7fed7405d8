use adversarial::campaign::{Report, Tally};
use adversarial::mutate::Class;
use adversarial::oracle::Failing;
fn main() {
    let mut report = Report::default();
    for (i, n) in [5_000_000u64, 1_200_000, 30, 2_000_000_000]
        .iter()
        .enumerate()
    {
        let mut failing = std::collections::BTreeMap::new();
        if i == 1 {
            failing.insert(Failing::NonCanonical, 1_100_000u64);
        }
        let fails: u64 = failing.values().sum();
        report.rows.push((
            "t",
            Class::ALL[i],
            Tally {
                cases: *n,
                as_owed: n - fails,
                failing,
                elapsed: std::time::Duration::from_secs(1),
            },
        ));
    }
    let settings = adversarial::page::Settings {
        budget: "x".into(),
        isolation: "w".into(),
        command: "c".into(),
        program: "p".into(),
    };
    let html = adversarial::page::campaign_html(&report, &settings, |_| None);
    std::fs::write("/tmp/scratch/chart.html", &html).unwrap();
}
