//! Mistakes in a declaration are compile errors that point at the
//! attribute that makes them. Each file under `tests/ui/` holds one
//! mistake; the `.stderr` beside it is the message the compiler must give.
//! Regenerate the messages on purpose with `TRYBUILD=overwrite cargo test
//! -p gamepacket-derive`, and review the diff.

#[test]
fn each_mistake_is_a_compile_error_at_its_attribute() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
