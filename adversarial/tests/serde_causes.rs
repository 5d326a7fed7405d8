//! Each failure explained on its own (feature `serde`): a reader's own
//! panic, in a message whose format also takes over-long varints and
//! trailing bytes by design, is kept and listed first, with no cause of
//! the format's above it; the format's noise is listed apart, each with
//! the cause that explains it.

use adversarial::campaign::{self, Budget, Config};
use adversarial::formats::{target, Postcard};
use adversarial::mutate::Class;
use adversarial::oracle::Outcome;
use adversarial::report::failures_text;
use arbitrary::Arbitrary;
use serde::{Deserialize, Deserializer, Serialize};

adversarial::count_allocations!();

/// A campaign of `cases` cases of `classes` on `target`, in this process.
fn run(
    target: Box<dyn adversarial::target::Target>,
    classes: Vec<Class>,
    seed: u64,
    cases: u64,
) -> adversarial::campaign::Report {
    campaign::run(&Config {
        targets: vec![target],
        classes,
        endpoints: Vec::new(),
        state_classes: Vec::new(),
        seed,
        budget: Budget::Cases(cases),
        crash_dir: None,
        progress: false,
        shrink: false,
        isolation: None,
        jobs: 1,
    })
}

/// A unit ordered onto a tile of a 4,096-tile map.
#[derive(Clone, Debug, Serialize, Arbitrary)]
struct Order {
    unit: u32,
    tile: u16,
}

/// The game's reader: looks the tile up before checking it (the user's
/// own bug: a tile past the map panics).
impl<'de> Deserialize<'de> for Order {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Wire {
            unit: u32,
            tile: u16,
        }
        let wire = Wire::deserialize(deserializer)?;
        let tiles = [0u8; 4096];
        let _terrain = tiles[usize::from(wire.tile)];
        Ok(Self {
            unit: wire.unit,
            tile: wire.tile,
        })
    }
}

#[test]
fn a_readers_own_panic_is_kept_and_listed_apart_from_the_formats_noise() {
    let report = run(
        Box::new(target::<Order, _>("order", Postcard)),
        Class::SERDE.to_vec(),
        3,
        2000,
    );
    let text = failures_text(&report);
    let panics: Vec<_> = report
        .failures
        .iter()
        .filter(|f| matches!(f.outcome, Outcome::Panicked(_)))
        .collect();
    assert!(!panics.is_empty(), "the panic was not kept:\n{text}");
    assert!(panics.iter().all(|f| f.cause.is_none()), "{text}");
    // The format's noise is there, and explained: trailing bytes and
    // over-long varints, which postcard::from_bytes takes by design.
    let explained: Vec<_> = report
        .failures
        .iter()
        .filter(|f| f.cause.is_some())
        .collect();
    assert!(
        explained.iter().any(|f| f.class == Class::OverlongVarint),
        "{text}"
    );
    assert!(
        explained
            .iter()
            .all(|f| !matches!(f.outcome, Outcome::Panicked(_))),
        "{text}"
    );
    // The panic's line comes before the format's known behaviour.
    let panic_line = text.find("PANIC").expect("a panic line");
    let noise = text
        .find("the format's known behaviour")
        .expect("the noise's heading");
    assert!(panic_line < noise, "{text}");
    // No cause stands for a row whose kept failures it explains none of.
    for (target, class, _) in &report.known_causes {
        assert!(
            report
                .failures
                .iter()
                .any(|f| f.target == *target && f.class == *class && f.cause.is_some()),
            "{target} / {}: a cause with nothing to explain\n{text}",
            class.name()
        );
    }
}

/// Five levels, each read with a clamp where a refusal was owed: the
/// same kind of failure (non-canonical) in five fields.
#[derive(Clone, Debug, Serialize, Arbitrary)]
struct Levels {
    #[arbitrary(with = level)]
    a: u8,
    #[arbitrary(with = level)]
    b: u8,
    #[arbitrary(with = level)]
    c: u8,
    #[arbitrary(with = level)]
    d: u8,
    #[arbitrary(with = level)]
    e: u8,
}

/// A level as honest messages hold it: at most 200.
fn level(u: &mut arbitrary::Unstructured<'_>) -> arbitrary::Result<u8> {
    u.int_in_range(0..=200)
}

impl<'de> Deserialize<'de> for Levels {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let [a, b, c, d, e] = <[u8; 5]>::deserialize(deserializer)?.map(|v| v.min(200));
        Ok(Self { a, b, c, d, e })
    }
}

#[test]
fn every_field_that_fails_keeps_a_failure_of_its_own() {
    let report = run(
        Box::new(target::<Levels, _>("levels", Postcard)),
        vec![Class::EveryValue],
        5,
        500,
    );
    let text = failures_text(&report);
    for field in ["a", "b", "c", "d", "e"] {
        assert!(
            report.failures.iter().any(|f| {
                // The reader's own: no format's allowance explains a clamp.
                let clamped = f.read.as_deref().is_some_and(|read| read.contains("200"));
                f.lie.starts_with(&format!("every-value in {field} (= 2"))
                    && matches!(f.outcome, Outcome::NonCanonical(_))
                    && clamped
                    && f.cause.is_none()
            }),
            "no kept failure in {field}:\n{text}"
        );
    }
}

/// A type these formats cannot write: a flattened field.
#[derive(Clone, Debug, Serialize, Deserialize, Arbitrary)]
struct Flat {
    tick: u32,
    #[serde(flatten)]
    extra: Extra,
}

#[derive(Clone, Debug, Serialize, Deserialize, Arbitrary)]
struct Extra {
    hp: u16,
}

#[test]
fn a_flattened_type_is_refused_with_the_real_reason() {
    let run = std::panic::catch_unwind(|| {
        adversarial::check::campaign(vec![Box::new(target::<Flat, _>(
            "flat",
            adversarial::formats::PostcardStrict,
        ))])
        .classes(&Class::SERDE)
        .cases(100)
        .run()
    });
    let payload = run.expect_err("a campaign that made no sample passed");
    let message = payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(message.contains("no case judged"), "{message}");
    assert!(message.contains("flatten"), "{message}");
    assert!(!message.contains("max_bytes"), "{message}");
}

#[test]
fn the_page_draws_a_serde_failure_field_by_field() {
    let targets: Vec<Box<dyn adversarial::target::Target>> =
        vec![Box::new(target::<Levels, _>("levels", Postcard))];
    let report = run(
        Box::new(target::<Levels, _>("levels", Postcard)),
        vec![Class::EveryValue],
        5,
        200,
    );
    let failure = report.failures.first().expect("a failure to draw");
    let picture = adversarial::page::failure_picture(&targets, failure).expect("a picture");
    let fields = picture.matches("class=\"field\"").count();
    assert_eq!(fields, 5, "one group per level read:\n{picture}");
    // Named as the reader reads them: an array of five.
    for name in ["\"0\"", "\"4\""] {
        assert!(picture.contains(&format!("data-name={name}")), "{name}");
    }
}

#[test]
fn a_refusal_owed_acceptance_says_the_types_own_words() {
    use adversarial::formats::game::Snapshot;
    // The default policy: a map's entries in any order are one message,
    // which the example's scores reader refuses (a true finding under it).
    let report = run(
        Box::new(target::<Snapshot, _>(
            "snapshot",
            adversarial::formats::PostcardStrict,
        )),
        vec![Class::KeysOutOfOrder],
        1,
        200,
    );
    let text = failures_text(&report);
    assert!(
        report.failures.iter().any(|f| matches!(
            &f.outcome,
            Outcome::OtherError(r) if r.message.contains("map keys not strictly increasing")
                && r.message.contains("stopped in scores")
        )),
        "{text}"
    );
}

#[test]
fn a_crash_is_the_formats_only_by_its_known_words() {
    use adversarial::formats::{Bincode2, Bincode2Limited, Format};
    let overflow = "PANIC: capacity overflow";
    let bomb = "killed by SIGABRT: memory allocation of 4294967295 bytes failed";
    assert!(Bincode2.known_crash(Class::LengthBomb, overflow).is_some());
    assert!(Bincode2.known_crash(Class::LengthBomb, bomb).is_some());
    // A panic of the type's own words is the reader's, whatever the class.
    assert!(Bincode2
        .known_crash(Class::LengthBomb, "PANIC: index out of bounds")
        .is_none());
    // With a limit, bincode 2 refuses the claim: no crash is its design.
    assert!(Bincode2Limited
        .known_crash(Class::LengthBomb, overflow)
        .is_none());
    assert!(Postcard.known_crash(Class::LengthBomb, bomb).is_none());
}

/// Six varints, each of which postcard takes over-long.
#[derive(Clone, Debug, Serialize, Deserialize, Arbitrary)]
struct Six {
    a: u32,
    b: u32,
    c: u32,
    d: u32,
    e: u32,
    f: u32,
}

#[test]
fn the_formats_noise_is_listed_three_of_a_kind_and_counted_past_that() {
    let report = run(
        Box::new(target::<Six, _>("six", Postcard)),
        vec![Class::OverlongVarint],
        2,
        100,
    );
    let explained = report.failures.iter().filter(|f| f.cause.is_some()).count();
    assert_eq!(explained, 6, "one kept for each field");
    let text = failures_text(&report);
    assert_eq!(
        text.matches("FAIL six / overlong-varint").count(),
        3,
        "{text}"
    );
    assert!(
        text.contains("and 3 more in other fields, each explained the same way"),
        "{text}"
    );
}
