//! A binary that forgot `adversarial::count_allocations!()`: every entry
//! point that judges what a read allocates refuses to run, naming the macro,
//! instead of checking a bound against counts that read zero.

use adversarial::{alloc, check, cli, fuzz, targets};
use std::process::ExitCode;

fn refusal_of(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let payload = std::panic::catch_unwind(f).expect_err("ran without counting allocations");
    payload
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_else(|| payload.downcast_ref::<&str>().unwrap().to_string())
}

#[test]
fn this_binary_does_not_count() {
    assert!(!alloc::is_counting());
}

#[test]
fn every_fuzz_entry_point_refuses_and_names_the_macro() {
    let game = || targets::by_name("packets").unwrap();
    let data = [0u8; 64];
    let refusals = [
        (
            "read_target",
            refusal_of(|| fuzz::read_target(game().as_ref(), &data)),
        ),
        ("read_target", refusal_of(|| fuzz::read("save", &data))),
        (
            "roundtrip_target",
            refusal_of(|| fuzz::roundtrip_target(game().as_ref(), &data)),
        ),
        (
            "roundtrip_protocols",
            refusal_of(|| fuzz::roundtrip_protocols(&data)),
        ),
        (
            "roundtrip_stream_program",
            refusal_of(|| fuzz::roundtrip_stream_program(&data)),
        ),
        (
            "mutate_target",
            refusal_of(|| fuzz::mutate_target(game().as_ref(), &data)),
        ),
        (
            "mutate_protocols",
            refusal_of(|| fuzz::mutate_protocols(&data)),
        ),
    ];
    for (entry, message) in refusals {
        assert!(
            message.contains(&format!("adversarial::fuzz::{entry}")),
            "{message}"
        );
        assert!(
            message.contains("adversarial::count_allocations!();"),
            "{message}"
        );
    }
}

#[test]
fn a_campaign_from_a_test_refuses() {
    let message = refusal_of(|| {
        let _ = check::campaign(targets::all()).cases(10).report();
    });
    assert!(
        message.contains("adversarial::count_allocations!();"),
        "{message}"
    );
}

#[test]
fn the_command_line_refuses_with_exit_2_before_reading_its_arguments() {
    // The test runner's own arguments would be a usage error (also 2) if
    // they were read, so the message is checked too.
    assert_eq!(cli::main(targets::all()), ExitCode::from(2));
    assert!(alloc::not_counting("adversarial::cli::main").contains("count_allocations!()"));
}
