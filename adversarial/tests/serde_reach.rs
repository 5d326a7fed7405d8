//! The serde classes reach every field and every recursion (feature
//! `serde`): a rule broken in the 20th integer field of a message that
//! starts with a recursive enum several levels deep, a recursion through
//! `Option<Box<T>>` with no depth limit, and a float clamped where it
//! should be refused are each caught within 1,000 cases, by a serde class.
//!
//! Its own harness: cases run in worker processes (this binary started
//! again with `__worker`), since a recursion without a limit ends in a
//! stack overflow that only a worker survives, in a release build too.

use adversarial::campaign::{self, Budget, Config, Report};
use adversarial::formats::{target, PostcardStrict};
use adversarial::mutate::Class;
use adversarial::oracle::Outcome;
use adversarial::report::failures_text;
use adversarial::target::Target;
use adversarial::worker::Isolation;
use arbitrary::{Arbitrary, Unstructured};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::time::Duration;

adversarial::count_allocations!();

/// A tree of parts, generated three levels deep.
#[derive(Clone, Debug, Serialize, Deserialize)]
enum Part {
    Leaf(u8),
    Pair(Box<Part>, Box<Part>),
}

impl<'a> Arbitrary<'a> for Part {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        fn within(u: &mut Unstructured<'_>, depth: u32) -> arbitrary::Result<Part> {
            if depth == 0 {
                return Ok(Part::Leaf(u.arbitrary()?));
            }
            Ok(Part::Pair(
                Box::new(within(u, depth - 1)?),
                Box::new(within(u, depth - 1)?),
            ))
        }
        within(u, 3)
    }
}

/// An armour rating, at most 100: its writer refuses more, its reader
/// (the bug) takes 101.
fn write_armor<S: Serializer>(armor: &u8, s: S) -> Result<S::Ok, S::Error> {
    if *armor > 100 {
        return Err(serde::ser::Error::custom("armor above 100"));
    }
    s.serialize_u8(*armor)
}

fn read_armor<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    let armor = u8::deserialize(d)?;
    if armor > 101 {
        return Err(serde::de::Error::custom("armor above 100"));
    }
    Ok(armor)
}

/// A unit: a recursive part first, then 19 integers, then the armour.
#[derive(Clone, Debug, Serialize, Deserialize, Arbitrary)]
struct Unit {
    body: Part,
    i1: u8,
    i2: u16,
    i3: u32,
    i4: i8,
    i5: i16,
    i6: i32,
    i7: u64,
    i8: i64,
    i9: u8,
    i10: u16,
    i11: u32,
    i12: i8,
    i13: i16,
    i14: i32,
    i15: u64,
    i16: i64,
    i17: u8,
    i18: u16,
    i19: u32,
    #[serde(serialize_with = "write_armor", deserialize_with = "read_armor")]
    #[arbitrary(with = |u: &mut Unstructured<'_>| u.int_in_range(0..=100u8))]
    armor: u8,
}

/// A route: waypoints linked through `Option<Box<_>>`, read with serde's
/// derive and no depth limit (the bug).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Waypoint {
    x: i16,
    y: i16,
    next: Option<Box<Waypoint>>,
}

impl<'a> Arbitrary<'a> for Waypoint {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let mut route = None;
        for _ in 0..u.int_in_range(2..=4)? {
            route = Some(Box::new(Self {
                x: u.arbitrary()?,
                y: u.arbitrary()?,
                next: route,
            }));
        }
        Ok(*route.expect("two waypoints at least"))
    }
}

/// Where a player aims, in degrees from -180 to 180: its reader clamps a
/// value outside where it should refuse it (the bug).
#[derive(Clone, Debug, Serialize, Arbitrary)]
struct Aim {
    #[arbitrary(with = |u: &mut Unstructured<'_>| Ok(f32::from(u.int_in_range(-1800..=1800i16)?) / 10.0))]
    yaw: f32,
}

impl<'de> Deserialize<'de> for Aim {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let yaw = f32::deserialize(d)?;
        Ok(Self {
            yaw: yaw.clamp(-180.0, 180.0),
        })
    }
}

fn targets() -> Vec<Box<dyn Target>> {
    vec![
        Box::new(target::<Unit, _>("unit", PostcardStrict)),
        Box::new(target::<Waypoint, _>("route", PostcardStrict)),
        Box::new(target::<Aim, _>("aim", PostcardStrict)),
    ]
}

fn run(name: &str, classes: &[Class]) -> Report {
    let isolation = Isolation::this_binary(&["__worker"], Duration::from_secs(10)).unwrap();
    campaign::run(&Config {
        targets: targets().into_iter().filter(|t| t.name() == name).collect(),
        classes: classes.to_vec(),
        endpoints: Vec::new(),
        state_classes: Vec::new(),
        seed: 1,
        budget: Budget::Cases(1000),
        crash_dir: None,
        progress: false,
        shrink: false,
        isolation: Some(isolation),
        jobs: 1,
    })
}

fn the_twentieth_integer_field_is_reached_past_a_recursive_enum() {
    let report = run("unit", &Class::SERDE);
    let text = failures_text(&report);
    assert!(
        report.failures.iter().any(|f| f.class == Class::EveryValue
            && f.lie.starts_with("every-value in armor (= ")
            && matches!(f.outcome, Outcome::NonCanonical(_))),
        "armor's 101 was not caught:\n{text}"
    );
}

fn a_recursion_through_an_option_box_without_a_limit_is_caught() {
    let report = run("route", &[Class::DeepNesting]);
    let text = failures_text(&report);
    assert!(
        report.failures.iter().any(|f| f.lie.contains("next")),
        "no deep-nesting failure along next:\n{text}"
    );
    // The deepest lie overflows the stack, in a debug and a release build.
    assert!(
        report
            .failures
            .iter()
            .any(|f| matches!(f.outcome, Outcome::Aborted(ref how) if how.contains("overflow"))),
        "the deepest route did not overflow the reader's stack:\n{text}"
    );
}

fn a_float_clamped_instead_of_refused_is_caught_by_every_value() {
    let report = run("aim", &Class::SERDE);
    let text = failures_text(&report);
    assert!(
        report
            .failures
            .iter()
            .any(|f| f.class == Class::EveryValue && matches!(f.outcome, Outcome::NonCanonical(_))),
        "the clamp was not caught:\n{text}"
    );
}

fn main() -> std::process::ExitCode {
    if std::env::args().nth(1).as_deref() == Some("__worker") {
        return adversarial::cli::main(targets());
    }
    if std::env::args().any(|a| a == "--list") {
        println!("serde_reach: test");
        return std::process::ExitCode::SUCCESS;
    }
    the_twentieth_integer_field_is_reached_past_a_recursive_enum();
    a_recursion_through_an_option_box_without_a_limit_is_caught();
    a_float_clamped_instead_of_refused_is_caught_by_every_value();
    println!("serde_reach: 3 passed");
    std::process::ExitCode::SUCCESS
}
