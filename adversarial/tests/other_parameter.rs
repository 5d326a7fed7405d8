//! The Golomb parameter has a class aimed at it: `other-parameter` codes
//! each Golomb-coded subset again under every other parameter of its coded
//! set. Where the parameter must be the best (`golomb()` subsets), a reader
//! owes non-canonical at the parameter; where the packet keeps it (the Golomb scene),
//! the packet says the same subset and is owed an accept. A reader that
//! forgets the canonicity check fails the class; one that keeps it passes.

adversarial::count_allocations!();

use adversarial::golomb_fields;
use adversarial::mutate::{self, Class, Owed};
use adversarial::oracle::{judge, Outcome};
use adversarial::target::protocol::message;
use adversarial::target::Target;
use adversarial::targets;
use arbitrary::Unstructured;
use codec::subset::golomb::golomb_with;
use codec::subset::{golomb, Entry};
use codec::{Role, Serialize, Stream};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn every_golomb_subset_is_coded_again_under_each_other_parameter() {
    for (name, role) in [
        ("scenes-golomb", Role::Parameter),
        ("kinds", Role::BestParameter),
    ] {
        let target = targets::by_name(name).expect("a built-in target");
        let framing = target.framing();
        let mut rng = ChaCha8Rng::seed_from_u64(30);
        let mut lies = 0;
        for _ in 0..60 {
            let bytes: Vec<u8> = (0..rng.gen_range(64..4000)).map(|_| rng.gen()).collect();
            let Ok(sample) = target.generate(&mut Unstructured::new(&bytes)) else {
                continue;
            };
            let subsets = golomb_fields::subsets(&sample.map);
            let mut expected = Vec::new();
            for subset in &subsets {
                let parameter = &sample.map.fields[subset.parameter];
                assert_eq!(parameter.role, role, "{name}");
                // Laid out again under its own parameter, the packet is itself.
                assert_eq!(
                    golomb_fields::recoded(&sample.map, &sample.bytes, subset, subset.entry),
                    Some(sample.bytes.clone()),
                    "{name}"
                );
                let others: Vec<usize> = subset.other_entries().collect();
                assert!(others.len() == 2 || others.len() == 12, "{others:?}");
                expected.extend(others.into_iter().map(|e| (parameter.offset, e)));
            }
            let cases = mutate::cases(
                Class::OtherParameter,
                &sample,
                &framing,
                &mut Unstructured::new(&[]),
            );
            assert_eq!(
                cases.len(),
                expected.len(),
                "{name}: one case per other entry"
            );
            for (case, (at, entry)) in cases.iter().zip(expected) {
                assert_eq!(
                    case.lie,
                    format!("parameter at bit {at} := {entry}, its subset coded again")
                );
                let owed = if role == Role::BestParameter {
                    Owed::Refusal {
                        causes: &["non-canonical"],
                        at: Some(at),
                    }
                } else {
                    Owed::Accept
                };
                assert_eq!(case.owed, owed, "{name}: {}", case.lie);
                assert_eq!(
                    judge(target.as_ref(), case),
                    Outcome::AsOwed,
                    "{name}: {}",
                    case.lie
                );
                lies += 1;
            }
        }
        assert!(lies >= 30, "{name}: only {lies} lies in 60 samples");
    }
}

const SIZE: u32 = 300;

/// Written with the best parameter; read with any, unchecked: the bug.
fn unchecked<S: Stream>(stream: &mut S, items: &mut Vec<Entry<u8>>) -> Result<(), S::Error> {
    if S::IS_WRITING {
        return golomb(stream, items, SIZE);
    }
    golomb_with(stream, items, SIZE, &mut 0)
}

fn checked<S: Stream>(stream: &mut S, items: &mut Vec<Entry<u8>>) -> Result<(), S::Error> {
    golomb(stream, items, SIZE)
}

fn entries(u: &mut Unstructured<'_>) -> arbitrary::Result<Vec<Entry<u8>>> {
    codec::arbitrary::subset(u, SIZE)
}

#[derive(Debug, Default, PartialEq, Serialize)]
struct Unchecked {
    #[serialize(bits = 3)]
    before: u8,
    #[serialize(with = unchecked, arbitrary = entries)]
    items: Vec<Entry<u8>>,
    #[serialize(after(align, check = "after"))]
    after: bool,
}

#[derive(Debug, Default, PartialEq, Serialize)]
struct Checked {
    #[serialize(bits = 3)]
    before: u8,
    #[serialize(with = checked, arbitrary = entries)]
    items: Vec<Entry<u8>>,
    #[serialize(after(align, check = "after"))]
    after: bool,
}

fn campaign(target: Box<dyn Target>) -> adversarial::campaign::Report {
    adversarial::check::campaign(vec![target])
        .classes(&[Class::OtherParameter])
        .cases(600)
        .report()
}

#[test]
fn a_reader_that_skips_the_canonicity_check_fails_the_class() {
    let report = campaign(Box::new(message::<Unchecked>("unchecked")));
    assert!(!report.passed(), "the unchecked parameter passed");
    // Accepted where non-canonical was owed; the oracle reports the
    // re-encoding that differs when it sees one.
    for failure in &report.failures {
        assert!(
            matches!(
                failure.outcome,
                Outcome::Accepted | Outcome::NonCanonical(_)
            ),
            "{:?}",
            failure.outcome
        );
    }
}

#[test]
fn a_reader_that_checks_the_parameter_passes_the_class() {
    let report = campaign(Box::new(message::<Checked>("checked")));
    assert!(report.passed(), "{:?}", report.failures.first());
    let cases: u64 = report.rows.iter().map(|(_, _, t)| t.cases).sum();
    assert!(cases >= 100, "only {cases} cases");
}
