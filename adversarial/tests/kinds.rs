//! The "kinds" target declares a field of every kind; these tests check
//! that the harness lies about kinds the shipped protocols do not have.

use adversarial::mutate::{self, Class};
use adversarial::oracle::{judge, Outcome};
use adversarial::targets;
use arbitrary::Unstructured;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// Ranged integers wider than 32 bits (and fixed point, which travels as
/// one) get out-of-range lies in their most significant group, owed at
/// the integer's first bit, and the reader refuses each as owed. Fields
/// whose range fills their width (0..=u64::MAX) have no value to lie with.
#[test]
fn wide_ranged_fields_get_out_of_range_lies() {
    let target = targets::by_name("kinds").expect("kinds is built in");
    let framing = target.framing();
    let mut rng = ChaCha8Rng::seed_from_u64(14);
    let mut lied_about = BTreeSet::new();
    let mut wrong = Vec::new();
    for _ in 0..400 {
        let bytes: Vec<u8> = (0..rng.gen_range(16..600)).map(|_| rng.gen()).collect();
        let Ok(sample) = target.generate(&mut Unstructured::new(&bytes)) else {
            continue;
        };
        let choices: Vec<u8> = (0..64).map(|_| rng.gen()).collect();
        let mut u = Unstructured::new(&choices);
        for case in mutate::cases(Class::OutOfRangeValue, &sample, &framing, &mut u) {
            let name = case.lie.split(' ').next().unwrap_or("").to_string();
            if judge(target.as_ref(), &case) != Outcome::AsOwed {
                wrong.push(case.lie.clone());
            }
            lied_about.insert(name);
        }
    }
    assert!(wrong.is_empty(), "not refused as owed: {wrong:?}");
    for wide in ["r64", "r128", "r128_narrow", "fixed", "fixed_wide"] {
        assert!(
            lied_about.contains(wide),
            "no lie about {wide}: {lied_about:?}"
        );
    }
    for full in ["r64u", "r128u"] {
        assert!(
            !lied_about.contains(full),
            "{full} has no value above its range"
        );
    }
}
