//! The harness from a user's `#[test]`: a protocol declared with the
//! derive, attacked through `target::packet` and `check::campaign`, passes;
//! a reader that allocates far beyond its input fails the same call, with
//! the table and the input in the message, under the parallel test runner.

use adversarial::check;
use adversarial::target::{self, Framing, Sample, Target, Verdict};
use arbitrary::Unstructured;
use codec::{Packet, Serialize};

adversarial::count_allocations!();

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
struct Input {
    #[serialize(range = -100..=100)]
    steer: i8,
    #[serialize(max_len = 4, range = 0..=3)]
    buttons: Vec<u8>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
struct Chat {
    #[serialize(max_len = 40)]
    line: String,
}

#[derive(Clone, Debug, PartialEq, Packet)]
#[packet(protocol_id = 0x600D_6A3E, max_bytes = 128)]
enum GamePacket {
    Input(Input),
    Chat(Chat),
    // Three types take a 2-bit field, so type 3 is a lie.
    Leave,
}

fn game() -> target::PacketTarget<GamePacket> {
    target::packet::<GamePacket>("game").about("a test's own protocol")
}

#[test]
fn a_derived_protocol_gets_every_verdict_it_is_owed() {
    let report = check::campaign(vec![Box::new(game())]).cases(3000).run();
    let classes: Vec<&str> = report.rows.iter().map(|(_, c, _)| c.name()).collect();
    for class in [
        "out-of-range-count",
        "out-of-range-value",
        "unknown-packet-type",
        "string-too-long",
        "bad-check",
        "bad-crc",
    ] {
        assert!(classes.contains(&class), "{class} had no case: {classes:?}");
    }
}

/// The game's reader, allocating a megabyte whatever it reads.
struct Hungry;

impl Target for Hungry {
    fn name(&self) -> &'static str {
        "hungry"
    }

    fn about(&self) -> &'static str {
        "allocates a megabyte per read"
    }

    fn framing(&self) -> Framing {
        game().framing()
    }

    fn generate(&self, u: &mut Unstructured<'_>) -> arbitrary::Result<Sample> {
        game().generate(u)
    }

    fn read_only(&self, bytes: &[u8]) {
        std::hint::black_box(vec![1u8; 1 << 20]);
        game().read_only(bytes);
    }

    fn decode(&self, bytes: &[u8]) -> Verdict {
        game().decode(bytes)
    }
}

#[test]
fn a_reader_that_over_allocates_fails_the_campaign_with_its_input() {
    let failed = std::panic::catch_unwind(|| {
        check::campaign(vec![Box::new(Hungry)]).cases(50).run();
    });
    let message = failed.expect_err("the campaign passed a reader that over-allocates");
    let message = message
        .downcast_ref::<String>()
        .expect("a formatted message");
    assert!(message.contains("OverAllocated"), "{message}");
    assert!(message.contains("input ("), "no input in:\n{message}");
    assert!(message.contains("hungry"), "{message}");
    // The inputs follow the table, and its last line says so.
    assert!(
        message.contains("FAILURES (listed below the table)"),
        "{message}"
    );
    let table_end = message.find("FAILURES (listed below").unwrap();
    assert!(message[table_end..].contains("input ("), "{message}");
}

/// Set in the child run of [`a_passing_test_shows_what_ran_under_nocapture`].
const CHILD: &str = "ADVERSARIAL_CHECK_PRINTS_CHILD";

#[test]
fn a_small_passing_campaign() {
    if std::env::var_os(CHILD).is_some() {
        check::campaign(vec![Box::new(game())]).cases(200).run();
    }
}

#[test]
fn a_passing_test_shows_what_ran_under_nocapture() {
    let run = |capture: &str| {
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "a_small_passing_campaign",
                "--test-threads",
                "1",
                capture,
            ])
            .env(CHILD, "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let shown = run("--nocapture");
    assert!(shown.contains("bad-crc "), "no table in:\n{shown}");
    assert!(
        shown.contains("every verdict as owed"),
        "no summary in:\n{shown}"
    );
    // Captured, as a passing test's output is by default, the table stays hidden.
    assert!(!run("--quiet").contains("bad-crc "));
}

#[test]
#[should_panic(expected = "cases(0) would judge nothing")]
fn a_budget_of_zero_cases_is_refused() {
    let _ = check::campaign(vec![Box::new(game())]).cases(0);
}

#[test]
fn a_budget_of_no_time_is_refused() {
    for seconds in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let refused = std::panic::catch_unwind(|| {
            let _ = check::campaign(vec![Box::new(game())]).seconds(seconds);
        });
        assert!(refused.is_err(), "seconds({seconds}) was accepted");
    }
}

#[test]
#[should_panic(expected = "no case judged: there is no target and no endpoint")]
fn a_campaign_without_targets_fails() {
    let _ = check::campaign(vec![]).run();
}

#[test]
#[should_panic(
    expected = "none of the classes chosen (duplicate-index) found a field to lie in on game"
)]
fn a_campaign_whose_classes_find_nothing_to_lie_in_fails() {
    // The game's packets hold no index subset.
    let _ = check::campaign(vec![Box::new(game())])
        .classes(&[adversarial::mutate::Class::DuplicateIndex])
        .cases(10)
        .run();
}

#[test]
#[should_panic(expected = "no lie across packets was chosen")]
fn an_endpoint_campaign_without_lies_fails() {
    let config = adversarial::scenario::config();
    let endpoint = adversarial::target::endpoint("link", config, |config| {
        link::Endpoint::new(config.clone(), 0.0).expect("a valid configuration")
    });
    let _ = check::endpoints(vec![Box::new(endpoint)])
        .state_classes(&[])
        .cases(10)
        .run();
}

/// A packet no value of which fits its `max_bytes`: four bytes of CRC and
/// sixteen of payload in eight.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
struct Wide {
    a: u64,
    b: u64,
}

#[derive(Clone, Debug, PartialEq, Packet)]
#[packet(protocol_id = 0x0B16_B16B, max_bytes = 8)]
enum Oversized {
    Wide(Wide),
}

/// A case budget cannot be met by a generator that makes no sample: the
/// campaign stops and says why, instead of drawing for ever.
#[test]
#[should_panic(expected = "no case judged: oversized: 1000 of 1000 draws made no sample")]
fn a_protocol_none_of_whose_values_encode_fails_saying_so() {
    let _ = check::campaign(vec![Box::new(target::packet::<Oversized>("oversized"))])
        .cases(100)
        .run();
}

/// A packet some of whose values are over its `max_bytes`: a chat line
/// longer than a few bytes.
#[derive(Clone, Debug, PartialEq, Packet)]
#[packet(protocol_id = 0x5A11_0C4A, max_bytes = 12)]
enum Cramped {
    Chat(Chat),
}

/// Draws whose value does not encode are counted and reported, per
/// target, in the table and the JSON; the samples that did encode are
/// attacked as ever.
#[test]
fn draws_that_made_no_sample_are_reported() {
    let report = check::campaign(vec![
        Box::new(target::packet::<Cramped>("cramped")),
        Box::new(game()),
    ])
    .cases(500)
    .run();
    let [unmade] = report.unmade.as_slice() else {
        panic!(
            "one target with draws that made no sample: {:?}",
            report.unmade
        );
    };
    assert_eq!(unmade.target, "cramped");
    assert!(unmade.draws > 0 && unmade.samples > 0, "{unmade:?}");
    assert!(report
        .rows
        .iter()
        .any(|(t, _, tally)| *t == "cramped" && tally.cases > 0));
    let table = adversarial::report::campaign_table(&report, adversarial::report::Listed::Below);
    let line = format!(
        "cramped: {} of {} draws made no sample",
        unmade.draws,
        unmade.draws + unmade.samples
    );
    assert!(table.contains(&line), "no {line:?} in:\n{table}");
    let json = adversarial::report::campaign_json(&report);
    assert_eq!(json["unmade"][0]["target"], "cramped");
    assert_eq!(json["unmade"][0]["draws"], unmade.draws);
}

/// Set in the child run of [`a_failing_check_points_at_the_callers_line`].
const FAILING_CHILD: &str = "ADVERSARIAL_CHECK_FAILS_CHILD";

#[test]
fn a_failing_campaign() {
    if std::env::var_os(FAILING_CHILD).is_some() {
        check::campaign(vec![Box::new(Hungry)]).cases(20).run(); // THE CALLER'S LINE
    }
}

#[test]
fn a_failing_check_points_at_the_callers_line() {
    let source = include_str!("check.rs");
    let line = source
        .lines()
        .position(|l| l.ends_with("// THE CALLER'S LINE"))
        .unwrap()
        + 1;
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "a_failing_campaign",
            "--test-threads",
            "1",
            "--nocapture",
        ])
        .env(FAILING_CHILD, "1")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains(&format!("tests/check.rs:{line}:")),
        "the panic does not name line {line} of tests/check.rs:\n{said}"
    );
}
