//! The Golomb scene's gap bound has a class aimed at it: `out-of-range-sentinel`
//! makes every Golomb-coded subset's sentinel gap one larger, so that its
//! index lands one past the set, and the reader refuses it as owed.

use adversarial::field_map::{Field, Kind};
use adversarial::mutate::{self, Class, Owed};
use adversarial::oracle::{judge, Outcome};
use adversarial::targets;
use arbitrary::Unstructured;
use codec::ops::golomb::serialize_golomb;
use codec::stream::ReadStream;
use codec::subset::GOLOMB_PARAMETERS;
use codec::{Role, Stream};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The gap coded at bit `at` with parameter `m`, read by the codec with no
/// bound of its own.
fn gap_at(bytes: &[u8], at: u64, m: u32) -> u32 {
    let mut stream = ReadStream::new(bytes);
    let mut skipped = 0;
    while skipped < at {
        let bits = (at - skipped).min(32) as u32;
        stream
            .serialize_bits(&mut 0, bits)
            .expect("the bits before the code");
        skipped += u64::from(bits);
    }
    let mut gap = 0;
    serialize_golomb(&mut stream, &mut gap, m, u32::MAX).expect("a whole code");
    gap
}

/// The first bit of each Golomb sentinel code in `fields` (a run of
/// sentinel bits that starts with a unary one or zero, in the part of a
/// parameter field) and its parameter.
fn golomb_sentinels(fields: &[Field]) -> Vec<(u64, u32)> {
    let mut found = Vec::new();
    let mut m = None;
    let mut previous_role = None;
    for field in fields {
        if matches!(field.role, Role::Parameter | Role::BestParameter) {
            let entry = usize::try_from(field.value).expect("a small entry");
            m = GOLOMB_PARAMETERS.get(entry).map(|&(_, m)| (m, field.part));
        }
        let starts = field.role == Role::Sentinel && previous_role != Some(Role::Sentinel);
        match m {
            Some((m, part)) if starts && field.kind == Kind::Bool && field.part == part => {
                found.push((field.offset, m));
            }
            _ => {}
        }
        previous_role = Some(field.role);
    }
    found
}

#[test]
fn every_golomb_sentinel_gets_a_gap_one_past_the_set() {
    for name in ["scenes-golomb", "kinds"] {
        let target = targets::by_name(name).expect("a built-in target");
        let framing = target.framing();
        let mut rng = ChaCha8Rng::seed_from_u64(29);
        let mut lies = 0;
        for _ in 0..200 {
            let bytes: Vec<u8> = (0..rng.gen_range(64..4000)).map(|_| rng.gen()).collect();
            let Ok(sample) = target.generate(&mut Unstructured::new(&bytes)) else {
                continue;
            };
            let sentinels = golomb_sentinels(&sample.map.fields);
            let cases: Vec<_> = mutate::cases(
                Class::OutOfRangeSentinel,
                &sample,
                &framing,
                &mut Unstructured::new(&[]),
            )
            .into_iter()
            .filter(|case| case.lie.starts_with("sentinel gap"))
            .collect();
            assert_eq!(cases.len(), sentinels.len(), "{name}: one lie per sentinel");
            for (case, &(at, m)) in cases.iter().zip(&sentinels) {
                let Owed::Refusal {
                    causes,
                    at: owed_at,
                } = &case.owed
                else {
                    panic!("{name}: {} owed {:?}", case.lie, case.owed);
                };
                assert_eq!((*causes, *owed_at), (&["out-of-range"][..], Some(at)));
                let before = gap_at(&sample.bytes, at, m);
                assert_eq!(
                    gap_at(&case.bytes, at, m),
                    before + 1,
                    "{name}: {}",
                    case.lie
                );
                assert!(
                    case.lie.ends_with(&format!(":= {}", before + 1)),
                    "{}",
                    case.lie
                );
                assert_eq!(
                    judge(target.as_ref(), case),
                    Outcome::AsOwed,
                    "{}",
                    case.lie
                );
                lies += 1;
            }
        }
        assert!(
            lies >= 20,
            "{name}: only {lies} sentinel lies in 200 samples"
        );
    }
}
