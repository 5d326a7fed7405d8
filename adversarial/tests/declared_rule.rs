//! A hand-written field's reader and writer can share a bug that no round
//! trip shows: both send a percentage in 7 bits and neither checks that it
//! is at most 100, so a reader accepts 101 and its writer writes 101 back.
//! The writer is the only statement of the rule, and it agrees. Declared
//! apart with `valid = path`, the rule reaches the harness, and the
//! campaign catches the bug; a reader that keeps the rule passes.

adversarial::count_allocations!();

use adversarial::mutate::Class;
use adversarial::oracle::Outcome;
use adversarial::target::protocol::message;
use adversarial::target::Target;
use codec::arbitrary::{ranged, Unstructured};
use codec::{DecodeError, Serialize, Stream};

/// The shared bug: 7 bits each way, no bound.
fn loose<S: Stream>(stream: &mut S, value: &mut u8) -> Result<(), S::Error> {
    let mut bits = u32::from(*value);
    stream.serialize_bits(&mut bits, 7)?;
    *value = bits as u8;
    Ok(())
}

/// The same wire form, read with the bound.
fn strict<S: Stream>(stream: &mut S, value: &mut u8) -> Result<(), S::Error> {
    let at = stream.bit_offset();
    let mut bits = u32::from(*value);
    stream.serialize_bits(&mut bits, 7)?;
    if S::IS_READING && bits > 100 {
        return Err(stream.refuse(DecodeError::OutOfRange { at }));
    }
    *value = bits as u8;
    Ok(())
}

fn at_most_100(value: &u8) -> bool {
    *value <= 100
}

fn percent(u: &mut Unstructured<'_>) -> arbitrary::Result<u8> {
    ranged(u, 0, 100)
}

#[derive(Debug, Default, PartialEq, Serialize)]
struct Declared {
    #[serialize(range = 0..=3)]
    team: u8,
    #[serialize(with = loose, valid = at_most_100, arbitrary = percent)]
    health: u8,
}

#[derive(Debug, Default, PartialEq, Serialize)]
struct Undeclared {
    #[serialize(range = 0..=3)]
    team: u8,
    #[serialize(with = loose, arbitrary = percent)]
    health: u8,
}

#[derive(Debug, Default, PartialEq, Serialize)]
struct Kept {
    #[serialize(range = 0..=3)]
    team: u8,
    #[serialize(with = strict, valid = at_most_100, arbitrary = percent)]
    health: u8,
}

fn campaign(target: Box<dyn Target>) -> adversarial::campaign::Report {
    adversarial::check::campaign(vec![target])
        .classes(&[Class::OutOfRangeValue])
        .cases(2000)
        .report()
}

#[test]
fn a_declared_rule_exposes_a_bug_the_reader_and_writer_share() {
    let report = campaign(Box::new(message::<Declared>("declared")));
    assert!(!report.passed(), "the shared bug passed the campaign");
    for failure in &report.failures {
        assert!(
            matches!(&failure.outcome, Outcome::NonCanonical(why) if why.contains("does not encode")),
            "{:?}",
            failure.outcome
        );
    }
}

#[test]
fn without_the_declaration_the_shared_bug_is_invisible() {
    let report = campaign(Box::new(message::<Undeclared>("undeclared")));
    assert!(report.passed(), "{:?}", report.failures.first());
}

#[test]
fn a_reader_that_keeps_the_declared_rule_passes() {
    let report = campaign(Box::new(message::<Kept>("kept")));
    assert!(report.passed(), "{:?}", report.failures.first());
}

#[test]
fn the_writer_refuses_a_value_that_breaks_the_declared_rule() {
    let mut value = Declared {
        team: 1,
        health: 101,
    };
    assert!(codec::to_vec(&mut value).is_err());
    value.health = 100;
    assert!(codec::to_vec(&mut value).is_ok());
}
