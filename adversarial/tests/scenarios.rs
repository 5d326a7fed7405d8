//! Lies told across packets, against link's endpoint: every class, from
//! many seeds, gets the verdict it is owed at every datagram, with the
//! cause's counter moved by one, deliveries intact and once, allocations
//! within the bound, and the honest packets around the lie delivered.

use adversarial::alloc::allocated_during;
use adversarial::scenario::{config, run, scenario, Owed, StateClass};
use arbitrary::Unstructured;
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

adversarial::count_allocations!();

#[test]
fn every_class_gets_its_owed_verdicts_from_the_link_endpoint() {
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    let mut entropy = vec![0u8; 8192];
    for class in StateClass::ALL {
        let (mut built, mut refusals) = (0, 0);
        for _ in 0..200 {
            rng.fill_bytes(&mut entropy);
            let Ok(scenario) = scenario(class, &config(), &mut Unstructured::new(&entropy)) else {
                continue;
            };
            let (endpoint, made) = allocated_during(|| link::Endpoint::new(config(), 0.0));
            let mut endpoint = endpoint.unwrap();
            if let Err(failure) = run(&mut endpoint, made.bytes, &scenario) {
                panic!("{}: {failure:?}", class.name());
            }
            built += 1;
            refusals += scenario
                .datagrams
                .iter()
                .filter(|(_, owed)| matches!(owed, Owed::Refuse(_)))
                .count();
        }
        assert!(built >= 100, "{}: only {built} scenarios", class.name());
        // Each class but the three told inside accepted datagrams owes
        // refusals.
        let accepting = matches!(
            class,
            StateClass::ReassemblyBomb | StateClass::SequenceWrap | StateClass::AckForUnsent
        );
        assert_eq!(
            refusals == 0,
            accepting,
            "{}: {refusals} refusals owed",
            class.name()
        );
    }
}
