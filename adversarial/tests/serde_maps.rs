//! A game's own `HashMap`s judged as maps (feature `serde`): honest
//! messages are never a failure whatever order the hasher iterates in, the
//! map lies (a key given twice, entries out of order) get the verdict the
//! policy owes them, and the same seed makes the same table and the same
//! crash files.

use adversarial::campaign::{Budget, Config, Report};
use adversarial::formats::{
    target, Bincode1, Bincode1Varint, Bincode2, Bincode2Strict, Format, Postcard,
    PostcardCanonical, PostcardStrict,
};
use adversarial::mutate::Class;
use adversarial::oracle::Outcome;
use adversarial::report::{campaign_table, Listed};
use adversarial::target::Target;
use arbitrary::Arbitrary;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

adversarial::count_allocations!();

/// Who is ready in a lobby, by name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Arbitrary)]
struct Lobby {
    round: u32,
    ready: HashMap<String, u32>,
}

/// One unit of an army.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Arbitrary)]
struct Unit {
    hp: u16,
    name: String,
    moving: bool,
}

/// An army, its units by id.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, Arbitrary)]
struct Roster {
    tick: u32,
    units: HashMap<u32, Unit>,
}

fn both<F: Format + Copy + Send + Sync + 'static>(format: F) -> Vec<Box<dyn Target>> {
    vec![
        Box::new(target::<Lobby, _>("lobby", format)),
        Box::new(target::<Roster, _>("roster", format)),
    ]
}

fn run(targets: Vec<Box<dyn Target>>, crash_dir: Option<&Path>) -> Report {
    adversarial::campaign::run(&Config {
        targets,
        classes: Class::SERDE.to_vec(),
        endpoints: Vec::new(),
        state_classes: Vec::new(),
        seed: 7,
        budget: Budget::Cases(6000),
        crash_dir: crash_dir.map(Path::to_path_buf),
        progress: false,
        shrink: false,
        isolation: None,
        jobs: 2,
    })
}

/// The classes that failed, by target.
fn failing(report: &Report) -> BTreeSet<(&'static str, &'static str)> {
    report
        .rows
        .iter()
        .filter(|(_, _, tally)| !tally.clean())
        .map(|(target, class, _)| (*target, class.name()))
        .collect()
}

fn cases_of(report: &Report, class: Class) -> u64 {
    report
        .rows
        .iter()
        .filter(|(_, c, _)| *c == class)
        .map(|(_, _, t)| t.cases)
        .sum()
}

/// The canonical reader: every verdict owed, but the map length claims
/// postcard passes on unclamped (a true finding, its cause named).
#[test]
fn honest_hashmaps_and_their_lies_get_every_verdict_owed_from_the_canonical_reader() {
    let report = run(both(PostcardCanonical), None);
    let table = campaign_table(&report, Listed::Below);
    for (target, class) in failing(&report) {
        assert!(
            ["length-bomb", "length-off-by-one", "bit-flip"].contains(&class),
            "{target} / {class} failed\n{table}"
        );
    }
    assert!(
        report
            .failures
            .iter()
            .all(|f| matches!(f.outcome, Outcome::OverAllocated { .. })),
        "{table}"
    );
    for class in [Class::Valid, Class::DuplicateKey, Class::KeysOutOfOrder] {
        assert!(
            cases_of(&report, class) > 0,
            "no {} case\n{table}",
            class.name()
        );
    }
}

/// Every other adapter: honest messages and entries out of order are
/// accepted as the message they are; a key given twice is taken (serde's
/// maps keep the last value), which is a failure under the default policy
/// with its cause named; nothing else fails without a cause.
fn fails_only_where_known<F: Format + Copy + Send + Sync + 'static>(format: F) {
    let report = run(both(format), None);
    let table = campaign_table(&report, Listed::Below);
    for (target, class) in failing(&report) {
        assert!(
            class != "valid" && class != "keys-out-of-order",
            "{} / {target} / {class} failed\n{table}",
            format.name()
        );
        assert!(
            report
                .known_causes
                .iter()
                .any(|(t, c, _)| *t == target && c.name() == class),
            "{} / {target} / {class} failed with no cause named\n{table}",
            format.name()
        );
    }
    let duplicates = failing(&report)
        .iter()
        .filter(|(_, class)| *class == "duplicate-key")
        .count();
    assert_eq!(duplicates, 2, "{}: {table}", format.name());
}

#[test]
fn every_other_adapter_fails_only_on_duplicate_keys_and_its_known_causes() {
    fails_only_where_known(Postcard);
    fails_only_where_known(PostcardStrict);
    fails_only_where_known(Bincode1);
    fails_only_where_known(Bincode1Varint);
    fails_only_where_known(Bincode2);
    fails_only_where_known(Bincode2Strict);
}

/// The table without its timings (cases a second, seconds).
fn untimed(table: &str) -> String {
    table
        .lines()
        .map(|line| {
            let mut words: Vec<&str> = line.split_whitespace().collect();
            if words.len() == 11 {
                words.pop();
            }
            words
                .join(" ")
                .split(" in ")
                .next()
                .unwrap_or_default()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Every file under `dir`, by path below it, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for target in std::fs::read_dir(dir).unwrap() {
        let target = target.unwrap().path();
        for file in std::fs::read_dir(&target).unwrap() {
            let file = file.unwrap().path();
            let name = file.strip_prefix(dir).unwrap().display().to_string();
            out.insert(name, std::fs::read(&file).unwrap());
        }
    }
    out
}

#[test]
fn the_same_seed_makes_the_same_table_and_the_same_crash_files() {
    let base = std::env::temp_dir().join(format!("serde-maps-{}", std::process::id()));
    let (first, second) = (base.join("first"), base.join("second"));
    let a = run(both(Bincode1Varint), Some(&first));
    let b = run(both(Bincode1Varint), Some(&second));
    let (ta, tb) = (
        campaign_table(&a, Listed::Below),
        campaign_table(&b, Listed::Below),
    );
    assert_eq!(untimed(&ta), untimed(&tb));
    let (fa, fb) = (files(&first), files(&second));
    assert!(!fa.is_empty(), "no crash file was written:\n{ta}");
    assert_eq!(fa, fb);
    let _ = std::fs::remove_dir_all(&base);
}
